//! Where the runtime is, seen from the crate being compiled: the derive's
//! code names `tera-packets` by the name the crate's manifest gives it, or
//! `tera-data`, which re-exports it, so that `#[derive(tera_data::Packet)]`
//! works in a crate that depends on `tera-data` alone.

use proc_macro_crate::{FoundCrate, crate_name};
use proc_macro2::TokenStream;
use quote::{format_ident, quote};

/// The runtime's path for a struct without `#[tera(crate = "...")]`: the
/// crate's own dependency on `tera-packets` (under its name there), else
/// its dependency on `tera-data`, else `::tera_packets`.
pub fn runtime_path() -> TokenStream {
    for package in ["tera-packets", "tera-data"] {
        match crate_name(package) {
            Ok(FoundCrate::Name(name)) => {
                let name = format_ident!("{name}");
                return quote!(::#name);
            }
            // `tera-packets` itself (its doc tests, where it is an extern
            // crate) and `tera-data` (which depends on `tera-packets`, found
            // first).
            Ok(FoundCrate::Itself) => return quote!(::tera_packets),
            // Not a dependency, or no manifest to read (a build outside
            // cargo): the next guess.
            Err(_) => {}
        }
    }
    quote!(::tera_packets)
}
