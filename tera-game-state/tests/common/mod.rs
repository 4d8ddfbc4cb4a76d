//! What the tests share: packets of a session and the session script.
#![allow(dead_code)]

pub mod packets;
pub mod script;
