//! One module per packet name, one struct per version.

use proc_macro2::TokenStream;
use quote::quote;

use super::attrs::{comment_markdown, doc};
use super::block::{DefCtx, Role, unplanned};
use super::types::block_borrows;
use super::{EmitOptions, to_ident};
use crate::crate_names::PacketNames;
use tera_defs_front::model::Def;
use tera_defs_front::plan::StructPlan;

/// The lifetime generics of a def's packet struct (`<'a>` or nothing).
pub fn generics(def: &Def) -> TokenStream {
    if block_borrows(&def.root) {
        quote!(<'a>)
    } else {
        quote!()
    }
}

pub fn emit_module(packet: &PacketNames<'_>, opts: &EmitOptions) -> TokenStream {
    let mut items = Vec::new();
    for names in &packet.defs {
        let def = names.def;
        let version = to_ident(&names.version_type);
        let nested_module = to_ident(&names.nested_module);
        let mut ctx = DefCtx {
            opts,
            names: &names.nested,
            nested_module: nested_module.clone(),
            nested: Vec::new(),
        };
        let mut docs = format!("`{}`", def.file_name);
        if let Some(d) = &def.doc {
            docs.push_str("\n\n");
            docs.push_str(&comment_markdown(d));
        }
        let sp = match StructPlan::new(&def.root, &[]) {
            Ok(sp) => sp,
            Err(errors) => {
                items.push(unplanned(&def.file_name, &errors));
                continue;
            }
        };
        let packet_struct = ctx.emit_struct(
            &version,
            &sp,
            &def.root,
            &[],
            Role::Packet {
                name: &def.name,
                version: def.version,
            },
            &docs,
        );
        items.push(packet_struct);
        if !ctx.nested.is_empty() {
            let nested = &ctx.nested;
            let module_doc = doc(&format!("Nested types of `{}`.", def.file_name));
            items.push(quote! {
                #module_doc
                pub mod #nested_module {
                    #(#nested)*
                }
            });
        }
    }
    // `Latest`: the highest version without a platform infix, else the
    // highest of all.
    let latest = packet
        .defs
        .iter()
        .rev()
        .find(|d| d.def.platform.is_none())
        .or_else(|| packet.defs.last());
    if let Some(latest) = latest {
        let v = to_ident(&latest.version_type);
        let g = generics(latest.def);
        let latest_doc = doc(&format!("The highest version: `{}`.", latest.def.file_name));
        items.push(quote! {
            #latest_doc
            pub type Latest #g = #v #g;
        });
    }
    let module = to_ident(&packet.module);
    let versions: Vec<&str> = packet
        .defs
        .iter()
        .map(|d| d.version_type.as_str())
        .collect();
    let module_doc = doc(&format!("`{}`: {}.", packet.name, versions.join(", ")));
    quote! {
        #module_doc
        pub mod #module {
            #(#items)*
        }
    }
}
