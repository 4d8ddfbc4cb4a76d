//! Subcommands, one file each.

pub mod check;
