//! Attributes shared by emitted items: docs, derives, serde names.

use proc_macro2::TokenStream;
use quote::quote;

use super::EmitOptions;

/// `#[doc = "..."]` lines for a text (one attribute per line, each starting
/// with a space so that it renders as `/// text`).
pub fn doc(text: &str) -> TokenStream {
    let lines = text.lines().map(|line| {
        let line = if line.is_empty() {
            String::new()
        } else {
            format!(" {line}")
        };
        quote!(#[doc = #line])
    });
    quote!(#(#lines)*)
}

/// The derive list of a generated struct.
pub fn derives(opts: &EmitOptions, packet: bool) -> TokenStream {
    let rt = &opts.runtime;
    let wire = if packet {
        quote!(#rt::Packet)
    } else {
        quote!(#rt::Block)
    };
    let serde = opts.serde_attr(quote!(derive(::serde::Serialize, ::serde::Deserialize)));
    let path = quote!(#rt).to_string().replace(' ', "");
    let krate = if path == "::tera_packets" {
        quote!()
    } else {
        quote!(#[tera(crate = #path)])
    };
    quote! {
        #[derive(Debug, Clone, Default, PartialEq, #wire)]
        #serde
        #krate
    }
}
