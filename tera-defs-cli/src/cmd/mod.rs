//! Subcommands, one file each.

pub mod capture;
pub mod check;
pub mod dc;
pub mod decode;
pub mod diep;
pub mod diff;
pub mod encode;
pub mod generate;
pub mod list;
pub mod opcodes;
pub mod world;
