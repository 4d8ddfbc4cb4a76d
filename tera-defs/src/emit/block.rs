//! One struct per block: the packet itself, an array element or an object.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::attrs::{comment_markdown, derives, doc};
use super::types::{block_borrows, field_type, is_int64};
use super::{EmitOptions, to_ident};
use crate::model::{Block, ElemType, Field, FieldType, Item};
use crate::names::{field_ident, pascal_case};
use crate::nested::NestedTypeNames;

/// What the struct of a block is.
pub enum Role<'d> {
    /// The packet: name and version for `#[tera(...)]`.
    Packet { name: &'d str, version: u32 },
    /// A nested type; `part_starts` are the indices of the fields that start
    /// parts 1, 2, ... of a split object.
    Nested { part_starts: Vec<usize> },
}

/// Everything needed to emit the structs of one def version.
pub struct DefCtx<'d> {
    pub opts: &'d EmitOptions,
    pub names: &'d NestedTypeNames,
    /// `v15` for the packet struct's references to nested types, empty
    /// inside the nested module.
    pub nested_module: Ident,
    /// Nested structs, collected as they are emitted.
    pub nested: Vec<TokenStream>,
}

/// A field of the struct being emitted (splits and repeats merged).
struct OutField<'d> {
    ident: Ident,
    def: &'d Field,
    /// The merged block of a split object.
    object: Option<(Block, Vec<usize>)>,
    refs_before: Vec<Ident>,
    parts_after: Vec<Ident>,
    again_after: Option<Ident>,
}

/// The Rust identifier of a field named `name` in the def.
fn ident(name: &str) -> Ident {
    to_ident(&field_ident(name))
}

/// Merges the fields of a block: a split object becomes one field whose
/// later parts are placed after the field before them; a fixed field
/// declared twice becomes one field repeated on the wire; `ref` lines attach
/// to the field that follows them.
fn merge_fields(block: &Block) -> Vec<OutField<'_>> {
    let mut out: Vec<OutField<'_>> = Vec::new();
    let mut pending_refs: Vec<Ident> = Vec::new();
    let mut previous: Option<Ident> = None;
    for item in &block.items {
        let field = match item {
            Item::Ref(r) => {
                let Some(first) = r.path.first() else {
                    continue;
                };
                // `ref o.s`: the metadata of object `o`, placed once.
                let target = ident(first);
                if pending_refs.last() != Some(&target)
                    && !out.iter().any(|f| f.refs_before.contains(&target))
                {
                    pending_refs.push(target);
                }
                continue;
            }
            Item::Field(f) => f,
        };
        let id = ident(&field.name);
        if let Some(existing) = out.iter_mut().find(|o| o.ident == id) {
            match (&field.ty, &mut existing.object) {
                (FieldType::Object(part), Some((merged, starts))) => {
                    if part.is_empty() {
                        continue;
                    }
                    if previous.as_ref() != Some(&id)
                        && let Some(anchor) = previous.clone()
                    {
                        starts.push(merged.fields().count());
                        existing.parts_after.push(anchor);
                    }
                    merged.items.extend(part.items.iter().cloned());
                }
                _ => existing.again_after = previous.clone(),
            }
            previous = Some(id);
            continue;
        }
        let object = match &field.ty {
            FieldType::Object(b) => Some((b.clone(), Vec::new())),
            _ => None,
        };
        out.push(OutField {
            ident: id.clone(),
            def: field,
            object,
            refs_before: std::mem::take(&mut pending_refs),
            parts_after: Vec::new(),
            again_after: None,
        });
        previous = Some(id);
    }
    out
}

impl DefCtx<'_> {
    /// Emits the struct of `block` named `name`, and (into `self.nested`)
    /// the structs of its nested types. `path` is the def-name path of the
    /// block from the root. Returns the struct's tokens.
    pub fn emit_struct(
        &mut self,
        name: &Ident,
        block: &Block,
        path: &[String],
        role: Role<'_>,
        docs: &str,
    ) -> TokenStream {
        let rt = self.opts.runtime.clone();
        let borrows = block_borrows(block);
        let generics = if borrows { quote!(<'a>) } else { quote!() };
        let fields = merge_fields(block);
        let in_nested = matches!(role, Role::Nested { .. });
        let part_starts = match &role {
            Role::Nested { part_starts } => part_starts.clone(),
            Role::Packet { .. } => Vec::new(),
        };

        let mut field_tokens = Vec::new();
        for (index, f) in fields.iter().enumerate() {
            let mut fpath = path.to_vec();
            fpath.push(f.def.name.clone());
            let nested = self.nested_type(f, &fpath, in_nested);
            let ty = field_type(&f.def.ty, nested, &rt);
            let id = &f.ident;

            let mut tera = Vec::new();
            let plain = id.to_string().trim_start_matches("r#").to_string();
            if plain != f.def.name {
                let def_name = &f.def.name;
                tera.push(quote!(rename = #def_name));
            }
            if !f.refs_before.is_empty() {
                let refs = &f.refs_before;
                tera.push(quote!(refs_before(#(#refs),*)));
            }
            if f.def.interleaved {
                tera.push(quote!(interleaved));
            }
            if !f.parts_after.is_empty() {
                let anchors = &f.parts_after;
                tera.push(quote!(parts_after(#(#anchors),*)));
            }
            if let Some(anchor) = &f.again_after {
                tera.push(quote!(again_after(#anchor)));
            }
            if let Some(part) = part_starts.iter().position(|&s| s == index) {
                let part = proc_macro2::Literal::usize_unsuffixed(part + 1);
                tera.push(quote!(part = #part));
            }
            let tera = if tera.is_empty() {
                quote!()
            } else {
                quote!(#[tera(#(#tera),*)])
            };

            let mut serde = Vec::new();
            if plain != f.def.name {
                let def_name = &f.def.name;
                serde.push(quote!(rename = #def_name));
            }
            match &f.def.ty {
                FieldType::Scalar(s) if is_int64(*s) => {
                    let with = format!("{}::json::int64", path_string(&rt));
                    serde.push(quote!(with = #with));
                }
                FieldType::ArrayOf(ElemType::Scalar(s)) if is_int64(*s) => {
                    let with = format!("{}::json::int64_array", path_string(&rt));
                    serde.push(quote!(with = #with));
                }
                _ => {}
            }
            let serde = if serde.is_empty() {
                quote!()
            } else {
                self.opts.serde_attr(quote!(serde(#(#serde),*)))
            };
            let mut text = format!("`{} {}`", f.def.ty.def_name(), f.def.name);
            if let Some(comment) = &f.def.doc {
                let comment = comment_markdown(comment);
                text.push_str(if comment.contains('\n') { "\n\n" } else { ": " });
                text.push_str(&comment);
            }
            let field_doc = doc(&text);
            field_tokens.push(quote! {
                #field_doc
                #tera
                #serde
                pub #id: #ty
            });
        }

        let derive = derives(self.opts, matches!(role, Role::Packet { .. }));
        let packet_attr = match role {
            Role::Packet { name, version } => {
                let version = proc_macro2::Literal::u32_unsuffixed(version);
                quote!(#[tera(name = #name, version = #version)])
            }
            Role::Nested { .. } => quote!(),
        };
        let docs = doc(docs);
        if field_tokens.is_empty() {
            quote! {
                #docs
                #derive
                #packet_attr
                pub struct #name {}
            }
        } else {
            quote! {
                #docs
                #derive
                #packet_attr
                pub struct #name #generics {
                    #(#field_tokens),*
                }
            }
        }
    }

    /// Emits the nested struct of an array or object field, if it has one,
    /// and returns the path to use in the field's type.
    fn nested_type(
        &mut self,
        f: &OutField<'_>,
        fpath: &[String],
        in_nested: bool,
    ) -> Option<TokenStream> {
        let (block, part_starts, what) = match (&f.def.ty, &f.object) {
            (FieldType::Object(_), Some((merged, starts))) => (
                merged.clone(),
                starts.clone(),
                format!("The object `{}`.", f.def.name),
            ),
            (FieldType::Array(b), _) => (
                b.clone(),
                Vec::new(),
                format!("An element of `{}`.", f.def.name),
            ),
            _ => return None,
        };
        let type_name = self
            .names
            .get(fpath)
            .map(str::to_owned)
            .unwrap_or_else(|| pascal_case(&f.def.name));
        let type_ident = to_ident(&type_name);
        let mut docs = what;
        if let Some(d) = &f.def.doc {
            docs.push_str("\n\n");
            docs.push_str(&comment_markdown(d));
        }
        let tokens = self.emit_struct(
            &type_ident,
            &block,
            fpath,
            Role::Nested { part_starts },
            &docs,
        );
        self.nested.push(tokens);
        let lifetime = if block_borrows(&block) {
            quote!(<'a>)
        } else {
            quote!()
        };
        let module = &self.nested_module;
        Some(if in_nested {
            quote!(#type_ident #lifetime)
        } else {
            quote!(#module::#type_ident #lifetime)
        })
    }
}

/// A path as written in source (`::tera_packets`).
fn path_string(path: &syn::Path) -> String {
    quote!(#path).to_string().replace(' ', "")
}
