//! Derive macros of [tera-defs](https://docs.rs/tera-defs): the read and
//! write code of TERA packets, written from the Rust field types.
//!
//! Use them through the runtime crate, `tera_packets`, which re-exports
//! them. `#[derive(Block)]` makes a struct an array element or an `object`;
//! `#[derive(Packet)]` makes it a whole packet. Each field's wire encoding
//! comes from its type's `Wire` impl; attributes say what types cannot:
//!
//! | attribute | on | meaning |
//! |---|---|---|
//! | `#[tera(name = "S_CHAT", version = 4)]` | packet | the def's name and version |
//! | `#[tera(crate = "path")]` | struct | where `tera_packets` is, when not the crate's dependency on `tera-packets` or `tera-data` (found in its manifest) |
//! | `#[tera(rename_all = "camelCase")]` | struct | def names are the fields' names in camelCase (serde's rule) |
//! | `#[tera(inline)]` | struct | its read and write are always inlined into their callers (small messages decoded in a hot loop) |
//! | `#[tera(rename = "authorName")]` | field | the def's name, for errors and visitors |
//! | `#[tera(refs_before(a, b))]` | field | explicit `ref a` / `ref b` lines sit right before this field |
//! | `#[tera(interleaved)]` | array field | elements alternate with the neighbouring interleaved arrays |
//! | `#[tera(parts_after(e))]` | object field | a split object: its part 1 sits after field `e` |
//! | `#[tera(part = 1)]` | field of an object | this field starts part 1 of a split object |
//! | `#[tera(again_after(f))]` | fixed field | the field is repeated on the wire right after field `f` (a def that declares it twice) |
//!
//! Each attribute is given once per struct or field: a repeated one is an
//! error at its second spelling, as in serde.
//!
//! ```
//! use tera_packets::{Array, Packet, Str};
//!
//! #[derive(Debug, PartialEq, Packet)]
//! #[tera(name = "C_EDIT_PRIVATE_CHANNEL", version = 1)]
//! struct EditChannel<'a> {
//!     members: Array<'a, Member>,
//!     #[tera(rename = "channelName")]
//!     channel_name: Str<'a>,
//!     password: u16,
//! }
//!
//! #[derive(Debug, PartialEq, tera_packets::Block)]
//! struct Member {
//!     #[tera(rename = "playerId")]
//!     player_id: u32,
//! }
//!
//! let edit = EditChannel {
//!     members: vec![Member { player_id: 7 }].into(),
//!     channel_name: "guild".into(),
//!     password: 1234,
//! };
//! let bytes = edit.encode()?;
//! assert_eq!(EditChannel::decode(&bytes)?, edit);
//! # Ok::<(), tera_packets::Error>(())
//! ```

use proc_macro::TokenStream;
use syn::{DeriveInput, parse_macro_input};

mod attrs;
mod ctx;
mod errors;
mod front;
mod impls;
mod methods;
mod runtime;

/// What is being derived.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// An array element or an `object`.
    Block,
    /// A whole packet, with a name and version.
    Packet,
}

/// Derives the wire code of a block: an array element or an `object`.
#[proc_macro_derive(Block, attributes(tera))]
pub fn derive_block(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input, Kind::Block)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

/// Derives the wire code of a whole packet; needs
/// `#[tera(name = "...", version = N)]`.
#[proc_macro_derive(Packet, attributes(tera))]
pub fn derive_packet(input: TokenStream) -> TokenStream {
    let input = parse_macro_input!(input as DeriveInput);
    derive(&input, Kind::Packet)
        .unwrap_or_else(syn::Error::into_compile_error)
        .into()
}

fn derive(input: &DeriveInput, kind: Kind) -> syn::Result<proc_macro2::TokenStream> {
    let (ctx, packet) = front::lower(input, kind)?;
    let mut out = impls::wire_impl(&ctx);
    out.extend(impls::block_impl(&ctx));
    out.extend(impls::owned_impl(&ctx));
    out.extend(impls::visit_impl(&ctx));
    if ctx.plan.parts() > 1 {
        out.extend(impls::parts_impl(&ctx));
    }
    if let Some((name, version)) = packet {
        out.extend(impls::packet_impl(&ctx, &name, &version));
    }
    Ok(out)
}
