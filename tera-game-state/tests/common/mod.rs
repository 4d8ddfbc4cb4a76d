//! What the tests share: packets of a session, the session script, and a
//! relayed connection driven one packet at a time.
#![allow(dead_code)]

pub mod packets;
pub mod relay;
pub mod script;
