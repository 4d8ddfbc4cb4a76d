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

/// A def comment as Markdown that shows it exactly as written: one line
/// with Markdown's special characters escaped, several lines as a `text`
/// block (def comments are free text: lists, tables and ASCII art).
pub fn comment_markdown(comment: &str) -> String {
    if comment.contains('\n') {
        let lines: Vec<&str> = comment.lines().collect();
        let longest_run = lines
            .iter()
            .map(|l| l.chars().filter(|&c| c == '`').count())
            .max()
            .unwrap_or(0);
        let fence = "`".repeat(3.max(longest_run + 1));
        format!("{fence}text\n{}\n{fence}", lines.join("\n"))
    } else {
        let mut out = String::with_capacity(comment.len());
        for c in comment.chars() {
            if matches!(
                c,
                '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|'
            ) {
                out.push('\\');
            }
            out.push(c);
        }
        out
    }
}

/// The derive list of a generated struct. `Arbitrary` is derived behind the
/// generated crate's feature named in [`EmitOptions::arbitrary`], which must
/// enable `tera-packets/arbitrary` and depend on `arbitrary` with `derive`.
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
    let arbitrary = match &opts.arbitrary {
        Some(feature) => quote!(#[cfg_attr(feature = #feature, derive(::arbitrary::Arbitrary))]),
        None => quote!(),
    };
    quote! {
        #[derive(Debug, Clone, Default, PartialEq, #wire)]
        #serde
        #arbitrary
        #krate
    }
}
