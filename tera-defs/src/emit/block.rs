//! One struct per block: the packet itself, an array element or an object.

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use tera_wire_plan::{PlanError, PlannedField, camel_case_of_field};

use super::attrs::{comment_markdown, derives, doc};
use super::types::{block_borrows, field_type, is_int64};
use super::{EmitOptions, to_ident};
use crate::fields::field_names;
use crate::names::pascal_case;
use crate::nested::NestedTypeNames;
use tera_defs_front::model::{Block, ElemType, FieldType, Span};
use tera_defs_front::plan::{LoweredField, StructPlan};

/// What the struct of a block is.
pub enum Role<'d> {
    /// The packet: name and version for `#[tera(...)]`.
    Packet { name: &'d str, version: u32 },
    /// A nested type: an object or an array element.
    Nested,
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

impl DefCtx<'_> {
    /// Emits the struct of `block` named `name`, and (into `self.nested`)
    /// the structs of its nested types. `path` is the def-name path of the
    /// block from the root. Returns the struct's tokens.
    pub fn emit_struct(
        &mut self,
        name: &Ident,
        sp: &StructPlan<'_>,
        block: &Block,
        path: &[String],
        role: Role<'_>,
        docs: &str,
    ) -> TokenStream {
        let rt = self.opts.runtime.clone();
        let borrows = block_borrows(block);
        let generics = if borrows { quote!(<'a>) } else { quote!() };
        let in_nested = matches!(role, Role::Nested);
        let rust_names = field_names(sp).idents;
        let idents: Vec<Ident> = rust_names.iter().map(|n| to_ident(n)).collect();

        let mut field_tokens = Vec::new();
        for (index, f) in sp.fields.iter().enumerate() {
            let mut fpath = path.to_vec();
            fpath.push(f.def.name.clone());
            let nested = self.nested_type(sp, index, &fpath, in_nested);
            let ty = field_type(&f.def.ty, nested, &rt);
            let id = &idents[index];
            // The container's rule names most fields; a rename only where it
            // does not give the def's name back.
            let rename =
                (camel_case_of_field(&rust_names[index]) != f.def.name).then_some(&f.def.name);
            let tera = tera_attr(sp.plan.field(index), &idents, rename);
            let serde = self.serde_attr(&f.def.ty, rename);
            let field_doc = field_doc(f);
            field_tokens.push(quote! {
                #field_doc
                #tera
                #serde
                pub #id: #ty
            });
        }

        let derive = derives(self.opts, matches!(role, Role::Packet { .. }));
        let mut tera = Vec::new();
        if let Role::Packet { name, version } = role {
            let version = proc_macro2::Literal::u32_unsuffixed(version);
            tera.push(quote!(name = #name, version = #version));
        }
        let docs = doc(docs);
        if field_tokens.is_empty() {
            let tera = (!tera.is_empty()).then(|| quote!(#[tera(#(#tera),*)]));
            return quote! {
                #docs
                #derive
                #tera
                pub struct #name {}
            };
        }
        tera.push(quote!(rename_all = "camelCase"));
        let serde = self
            .opts
            .serde_attr(quote!(serde(rename_all = "camelCase")));
        quote! {
            #docs
            #derive
            #[tera(#(#tera),*)]
            #serde
            pub struct #name #generics {
                #(#field_tokens),*
            }
        }
    }

    /// A field's `#[serde(...)]`: its def name where the container's rule
    /// does not give it back, the JSON form of 64-bit integers.
    fn serde_attr(&self, ty: &FieldType, rename: Option<&String>) -> TokenStream {
        let rt = &self.opts.runtime;
        let mut serde = Vec::new();
        if let Some(def_name) = rename {
            serde.push(quote!(rename = #def_name));
        }
        match ty {
            FieldType::Scalar(s) if is_int64(*s) => {
                let with = format!("{}::json::int64", path_string(rt));
                serde.push(quote!(with = #with));
            }
            FieldType::ArrayOf(ElemType::Scalar(s)) if is_int64(*s) => {
                let with = format!("{}::json::int64_array", path_string(rt));
                serde.push(quote!(with = #with));
            }
            _ => {}
        }
        if serde.is_empty() {
            quote!()
        } else {
            self.opts.serde_attr(quote!(serde(#(#serde),*)))
        }
    }

    /// Emits the nested struct of field `index` (an array or object), if
    /// it has one, and returns the path to use in the field's type.
    fn nested_type(
        &mut self,
        sp: &StructPlan<'_>,
        index: usize,
        fpath: &[String],
        in_nested: bool,
    ) -> Option<TokenStream> {
        let f: &LoweredField<'_> = &sp.fields[index];
        let (block, what) = match (&f.def.ty, &f.object) {
            (FieldType::Object(_), Some((merged, _))) => {
                (merged, format!("The object `{}`.", f.def.name))
            }
            (FieldType::Array(b), _) => (b, format!("An element of `{}`.", f.def.name)),
            _ => return None,
        };
        let child = match sp.child(index)? {
            Ok(child) => child,
            Err(errors) => return Some(unplanned(&f.def.name, &errors)),
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
        let tokens = self.emit_struct(&type_ident, &child, block, fpath, Role::Nested, &docs);
        self.nested.push(tokens);
        let lifetime = if block_borrows(block) {
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

/// A field's `#[tera(...)]`: its def name where the container's rule does
/// not give it back, and its placement from the plan (`idents` names the
/// struct's fields).
fn tera_attr(planned: &PlannedField, idents: &[Ident], rename: Option<&String>) -> TokenStream {
    let mut tera = Vec::new();
    if let Some(def_name) = rename {
        tera.push(quote!(rename = #def_name));
    }
    if !planned.refs_before.is_empty() {
        let refs = planned.refs_before.iter().map(|&j| &idents[j]);
        tera.push(quote!(refs_before(#(#refs),*)));
    }
    if planned.interleaved {
        tera.push(quote!(interleaved));
    }
    if !planned.parts_after.is_empty() {
        let anchors = planned.parts_after.iter().map(|&j| &idents[j]);
        tera.push(quote!(parts_after(#(#anchors),*)));
    }
    if let Some(anchor) = planned.again_after {
        let anchor = &idents[anchor];
        tera.push(quote!(again_after(#anchor)));
    }
    if planned.starts_part {
        let part = proc_macro2::Literal::usize_unsuffixed(planned.part);
        tera.push(quote!(part = #part));
    }
    if tera.is_empty() {
        quote!()
    } else {
        quote!(#[tera(#(#tera),*)])
    }
}

/// A field's doc: its def line, and its def comment.
fn field_doc(f: &LoweredField<'_>) -> TokenStream {
    let mut text = format!("`{} {}`", f.def.ty.def_name(), f.def.name);
    if let Some(comment) = &f.def.doc {
        let comment = comment_markdown(comment);
        text.push_str(if comment.contains('\n') { "\n\n" } else { ": " });
        text.push_str(&comment);
    }
    doc(&text)
}

/// A `compile_error!` for a struct that could not be planned: validation
/// reports these mistakes first, so only a hand-made [`Def`](tera_defs_front::Def)
/// gets here.
pub fn unplanned(what: &str, errors: &[PlanError<Span>]) -> TokenStream {
    let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    let message = format!("cannot lay out `{what}`: {}", list.join("; "));
    quote!(::core::compile_error!(#message))
}

/// A path as written in source (`::tera_packets`).
fn path_string(path: &syn::Path) -> String {
    quote!(#path).to_string().replace(' ', "")
}
