//! One module per packet name, one struct per version.

use proc_macro2::{Ident, TokenStream};
use quote::{format_ident, quote};

use super::attrs::{comment_markdown, doc};
use super::block::{DefCtx, Role, unplanned};
use super::types::block_borrows;
use super::{EmitOptions, to_ident};
use crate::model::Def;
use crate::names::{pascal_case, rust_ident, snake_case};
use crate::nested::nested_type_names;
use crate::plan::StructPlan;

/// The versions of one packet name, sorted by version.
pub struct Group<'d> {
    /// The packet name, e.g. `S_LOGIN`.
    pub name: String,
    /// The module name, e.g. `s_login`.
    pub module: Ident,
    /// The defs, sorted by (version, platform).
    pub defs: Vec<&'d Def>,
}

/// Groups defs by packet name, sorted by name; module names that would
/// collide (names differing only in case) get a numbered suffix.
pub fn group_by_name(defs: &[Def]) -> Vec<Group<'_>> {
    let mut sorted: Vec<&Def> = defs.iter().collect();
    sorted.sort_by(|a, b| {
        (a.name.as_str(), a.version, a.platform.as_deref()).cmp(&(
            b.name.as_str(),
            b.version,
            b.platform.as_deref(),
        ))
    });
    let mut groups: Vec<Group<'_>> = Vec::new();
    for def in sorted {
        match groups.last_mut() {
            Some(g) if g.name == def.name => g.defs.push(def),
            _ => {
                let mut module = rust_ident(&snake_case(&def.name));
                let base = module.clone();
                let mut n = 2;
                while groups.iter().any(|g| g.module == module.as_str()) {
                    module = format!("{base}_{n}");
                    n += 1;
                }
                groups.push(Group {
                    name: def.name.clone(),
                    module: to_ident(&module),
                    defs: vec![def],
                });
            }
        }
    }
    groups
}

/// The struct name of a def version: `V15`, or `V15Console` with a platform.
pub fn version_ident(def: &Def) -> Ident {
    match &def.platform {
        Some(p) => format_ident!("V{}{}", def.version, pascal_case(p)),
        None => format_ident!("V{}", def.version),
    }
}

/// The lifetime generics of a def's packet struct (`<'a>` or nothing).
pub fn generics(def: &Def) -> TokenStream {
    if block_borrows(&def.root) {
        quote!(<'a>)
    } else {
        quote!()
    }
}

pub fn emit_module(group: &Group<'_>, opts: &EmitOptions) -> TokenStream {
    let mut items = Vec::new();
    for def in &group.defs {
        let version = version_ident(def);
        let nested_module = format_ident!("{}", version.to_string().to_lowercase());
        let names = nested_type_names(def);
        let mut ctx = DefCtx {
            opts,
            names: &names,
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
        let packet = ctx.emit_struct(
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
        items.push(packet);
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
    let latest = group
        .defs
        .iter()
        .rev()
        .find(|d| d.platform.is_none())
        .or_else(|| group.defs.last());
    if let Some(latest) = latest {
        let v = version_ident(latest);
        let g = generics(latest);
        let latest_doc = doc(&format!("The highest version: `{}`.", latest.file_name));
        items.push(quote! {
            #latest_doc
            pub type Latest #g = #v #g;
        });
    }
    let module = &group.module;
    let versions: Vec<String> = group
        .defs
        .iter()
        .map(|d| version_ident(d).to_string())
        .collect();
    let module_doc = doc(&format!("`{}`: {}.", group.name, versions.join(", ")));
    quote! {
        #module_doc
        pub mod #module {
            #(#items)*
        }
    }
}
