//! What the tests share: packets of a session and the session script
//! (relayed connections are tera-proxy's `harness::TestPeers`).
#![allow(dead_code)]

pub mod packets;
pub mod script;
