//! The derive's front end: a struct and its `#[tera(...)]` attributes
//! lowered into the wire plan's field specs, every mistake collected.

use proc_macro2::Span;
use quote::quote;
use syn::spanned::Spanned;
use syn::{Data, DeriveInput, Fields, GenericParam, Lifetime, LitInt, LitStr};
use tera_wire_plan::{Encoding, FieldSpec, FixedType, Named, Plan, TypeHome, camel_case_of_field};

use crate::Kind;
use crate::attrs::names::{NAME, TERA, VERSION};
use crate::attrs::{StructAttrs, field_attrs, plain, span_of, struct_attrs};
use crate::ctx::{Ctx, Field};
use crate::errors::Errors;

/// A packet's `name` and `version`.
pub type PacketAttrs = (LitStr, LitInt);

/// Lowers `input`: the context every method writer reads and, for a
/// packet, its name and version; or every mistake found.
pub fn lower(input: &DeriveInput, kind: Kind) -> syn::Result<(Ctx, Option<PacketAttrs>)> {
    let packet = kind == Kind::Packet;
    let mut errors = Errors::default();
    let sattrs = struct_attrs(&input.attrs, &mut errors);
    let krate = match &sattrs.krate {
        Some(path) => quote!(#path),
        None => crate::runtime::runtime_path(),
    };
    let types = SelfTypes::of(input, &mut errors);
    let (named, unit) = named_fields(input, &mut errors);
    let (fields, specs) = field_specs(&named, &sattrs, &mut errors);

    let whole = span_of(&input.attrs, input.ident.span());
    let packet_attrs = packet
        .then(|| packet_attrs(&sattrs, whole, &mut errors))
        .flatten();
    let plan = Plan::new(&specs, whole).map_err(|mistakes| {
        for m in mistakes {
            errors.push(syn::Error::new(m.span, m.kind.to_string()));
        }
    });
    if packet && plan.as_ref().is_ok_and(|p| p.parts() > 1) {
        errors.push(syn::Error::new(
            whole,
            "a packet cannot be split in parts; only objects can",
        ));
    }
    errors.finish()?;
    let Ok(plan) = plan else {
        return Err(syn::Error::new(whole, "the struct could not be planned"));
    };
    let SelfTypes {
        lt,
        self_ty,
        owned_ty,
        at_ty,
    } = types;
    let ctx = Ctx {
        krate,
        impl_generics: quote!(<#lt>),
        lt,
        self_ty,
        owned_ty,
        at_ty,
        ident: input.ident.clone(),
        fields,
        plan,
        unit,
        inline: if sattrs.inline {
            quote!(#[inline(always)])
        } else {
            quote!(#[inline])
        },
    };
    Ok((ctx, packet_attrs))
}

/// The struct's lifetime (its own, or one made up when it borrows nothing)
/// and its type spelled with it, with `'static`, and with the lifetime of
/// `Wire::read_at`'s buffer.
struct SelfTypes {
    lt: Lifetime,
    self_ty: proc_macro2::TokenStream,
    owned_ty: proc_macro2::TokenStream,
    at_ty: proc_macro2::TokenStream,
}

impl SelfTypes {
    /// Reads the generics: at most one lifetime, nothing else.
    fn of(input: &DeriveInput, errors: &mut Errors) -> Self {
        let mut lifetimes = Vec::new();
        for param in &input.generics.params {
            match param {
                GenericParam::Lifetime(l) => lifetimes.push(l.lifetime.clone()),
                other => errors.push(syn::Error::new(
                    other.span(),
                    "tera derives take at most one lifetime parameter and no type or const \
                     parameters",
                )),
            }
        }
        if lifetimes.len() > 1 {
            errors.push(syn::Error::new(
                input.generics.span(),
                "tera derives take at most one lifetime parameter (the packet's buffer)",
            ));
        }
        let ident = &input.ident;
        match lifetimes.first() {
            Some(lt) => SelfTypes {
                lt: lt.clone(),
                self_ty: quote!(#ident<#lt>),
                owned_ty: quote!(#ident<'static>),
                at_ty: quote!(#ident<'__tera_buf>),
            },
            None => SelfTypes {
                lt: Lifetime::new("'__tera", Span::call_site()),
                self_ty: quote!(#ident),
                owned_ty: quote!(#ident),
                at_ty: quote!(#ident),
            },
        }
    }
}

/// The named fields of the struct, and whether it is a unit struct; a
/// mistake for anything else.
fn named_fields<'i>(input: &'i DeriveInput, errors: &mut Errors) -> (Vec<&'i syn::Field>, bool) {
    match &input.data {
        Data::Struct(s) => match &s.fields {
            Fields::Named(n) => (n.named.iter().collect(), false),
            Fields::Unit => (Vec::new(), true),
            Fields::Unnamed(u) => {
                errors.push(syn::Error::new(
                    u.span(),
                    "tera derives take structs with named fields: the def's field names",
                ));
                (Vec::new(), false)
            }
        },
        Data::Enum(e) => {
            errors.push(syn::Error::new(
                e.enum_token.span,
                "tera derives take structs with named fields, not enums",
            ));
            (Vec::new(), true)
        }
        Data::Union(u) => {
            errors.push(syn::Error::new(
                u.union_token.span,
                "tera derives take structs with named fields, not unions",
            ));
            (Vec::new(), true)
        }
    }
}

/// Each field, and what its attributes tell the planner.
fn field_specs(
    named: &[&syn::Field],
    sattrs: &StructAttrs,
    errors: &mut Errors,
) -> (Vec<Field>, Vec<FieldSpec<Span>>) {
    let mut fields = Vec::new();
    let mut specs = Vec::new();
    let named_list = |list: &[syn::Ident]| -> Vec<Named<Span>> {
        list.iter()
            .map(|i| Named {
                name: plain(i),
                span: i.span(),
            })
            .collect()
    };
    for f in named {
        let Some(ident) = f.ident.clone() else {
            continue;
        };
        let attrs = field_attrs(&f.attrs, errors);
        let wire_name = match &attrs.rename {
            Some(rename) => rename.value(),
            None if sattrs.camel_case => camel_case_of_field(&plain(&ident)),
            None => plain(&ident),
        };
        specs.push(FieldSpec {
            ident: plain(&ident),
            wire_name: wire_name.clone(),
            encoding: encoding_of(&f.ty),
            interleaved: attrs.interleaved,
            refs_before: named_list(&attrs.refs_before),
            parts_after: named_list(&attrs.parts_after),
            again_after: attrs.again_after.as_ref().map(|i| Named {
                name: plain(i),
                span: i.span(),
            }),
            part: attrs.part,
            span: ident.span(),
        });
        fields.push(Field {
            ident,
            ty: f.ty.clone(),
            wire_name,
        });
    }
    (fields, specs)
}

/// A packet's `name` and `version`, each missing one a mistake.
fn packet_attrs(sattrs: &StructAttrs, whole: Span, errors: &mut Errors) -> Option<PacketAttrs> {
    let message = match (&sattrs.name, &sattrs.version) {
        (None, None) => Some(format!(
            "a packet needs `#[{TERA}({NAME} = \"S_NAME\", {VERSION} = N)]`"
        )),
        (None, Some(_)) => Some(format!(
            "a packet needs `#[{TERA}({NAME} = \"S_NAME\")]`, the def's name"
        )),
        (Some(_), None) => Some(format!(
            "a packet needs `#[{TERA}({VERSION} = N)]`, the def's version"
        )),
        (Some(_), Some(_)) => None,
    };
    if let Some(message) = message {
        errors.push(syn::Error::new(whole, message));
    }
    Some((sattrs.name.clone()?, sattrs.version.clone()?))
}

/// What the derive can know of a field's layout from its type as written:
/// a primitive of the runtime's fixed types, or one of its value types
/// spelled `tera_packets::Vec3` (as the emitter writes it), is fixed and
/// joins runs of fixed fields; anything else goes through its `Wire` impl.
/// A wrong guess is a compile error (`Fixed` not implemented), never wrong
/// bytes.
fn encoding_of(ty: &syn::Type) -> Encoding {
    let syn::Type::Path(tp) = ty else {
        return Encoding::Opaque;
    };
    let segments = &tp.path.segments;
    let Some(last) = segments.last() else {
        return Encoding::Opaque;
    };
    if tp.qself.is_some() || !matches!(last.arguments, syn::PathArguments::None) {
        return Encoding::Opaque;
    }
    let home = if segments.len() == 1 && tp.path.leading_colon.is_none() {
        TypeHome::Primitive
    } else if segments
        .iter()
        .rev()
        .nth(1)
        .is_some_and(|p| p.ident == "tera_packets")
    {
        TypeHome::Runtime
    } else {
        return Encoding::Opaque;
    };
    match FixedType::of_rust_name(&last.ident.to_string(), home) {
        Some(_) => Encoding::Fixed(None),
        None => Encoding::Opaque,
    }
}
