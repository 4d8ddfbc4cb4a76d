//! The compiled-in opcode maps.

use proc_macro2::TokenStream;
use quote::quote;

use super::EmitOptions;
use tera_defs_front::map::{MapFile, MapKind};

pub fn emit_maps(maps: &[MapFile], opts: &EmitOptions) -> TokenStream {
    let rt = &opts.runtime;
    let mut protocol = Vec::new();
    let mut sysmsg = Vec::new();
    for map in maps {
        let revision = map.revision;
        match map.kind {
            MapKind::Protocol => {
                let entries = map.entries.iter().filter_map(|e| {
                    let name = &e.name;
                    let code = u16::try_from(e.code).ok()?;
                    Some(quote!((#name, #code)))
                });
                protocol.push(
                    quote!(#rt::StaticMap { revision: #revision, entries: &[#(#entries),*] }),
                );
            }
            MapKind::Sysmsg => {
                let entries = map.entries.iter().map(|e| {
                    let name = &e.name;
                    let code = e.code;
                    quote!((#name, #code))
                });
                sysmsg.push(
                    quote!(#rt::StaticMap { revision: #revision, entries: &[#(#entries),*] }),
                );
            }
        }
    }
    quote! {
        /// The protocol maps (opcode by packet name) compiled in, by revision.
        pub static PROTOCOL_MAPS: &[#rt::StaticMap<u16>] = &[#(#protocol),*];
        /// The system message maps compiled in, by revision.
        pub static SYSMSG_MAPS: &[#rt::StaticMap<u32>] = &[#(#sysmsg),*];
    }
}
