//! The `#[tera(...)]` attributes, parsed with spans for good errors.

use proc_macro2::Span;
use syn::spanned::Spanned;
use syn::{Attribute, Ident, LitInt, LitStr, Path, Token};

use crate::errors::Errors;

/// Attributes on the struct.
#[derive(Default)]
pub struct StructAttrs {
    /// `name = "S_LOGIN"` (packets).
    pub name: Option<LitStr>,
    /// `version = 14` (packets).
    pub version: Option<LitInt>,
    /// `crate = "path"`: where the runtime is (default `::tera_packets`).
    pub krate: Option<Path>,
    /// `rename_all = "camelCase"`: fields' def names are their identifiers
    /// in camelCase, as serde's rule of the same name spells them.
    pub camel_case: bool,
    /// `inline`: the struct's checked read and its write are always
    /// inlined into their callers.
    pub inline: bool,
}

/// Attributes on a field.
#[derive(Default)]
pub struct FieldAttrs {
    /// `rename = "templateId"`: the def's name, for errors and visitors.
    pub rename: Option<LitStr>,
    /// `interleaved`: elements alternate with the neighbouring interleaved
    /// arrays.
    pub interleaved: bool,
    /// `refs_before(a, b)`: the metadata of fields `a` and `b` sits right
    /// before this field (explicit `ref` lines).
    pub refs_before: Vec<Ident>,
    /// `parts_after(e)`: this split object's part 1 sits after field `e`.
    pub parts_after: Vec<Ident>,
    /// `again_after(f)`: the field is repeated on the wire right after field
    /// `f` (a def that declares the same fixed field twice); reading keeps
    /// the last copy, like the JS reference, and writing writes both.
    pub again_after: Option<Ident>,
    /// `part = 1`: in an object, this field starts part 1.
    pub part: Option<(usize, Span)>,
}

fn tera_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident("tera"))
}

/// Parses the struct's attributes; mistakes go to `errors`.
pub fn struct_attrs(attrs: &[Attribute], errors: &mut Errors) -> StructAttrs {
    let mut out = StructAttrs::default();
    for attr in tera_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("name") {
                out.name = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("version") {
                out.version = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("crate") {
                let s: LitStr = meta.value()?.parse()?;
                out.krate = Some(s.parse()?);
            } else if meta.path.is_ident("rename_all") {
                let s: LitStr = meta.value()?.parse()?;
                if s.value() != "camelCase" {
                    return Err(syn::Error::new(
                        s.span(),
                        "the only `rename_all` rule is \"camelCase\"",
                    ));
                }
                out.camel_case = true;
            } else if meta.path.is_ident("inline") {
                out.inline = true;
            } else {
                return Err(meta.error(
                    "unknown `tera` attribute on a struct; expected `name`, `version`, \
                     `rename_all`, `inline` or `crate`",
                ));
            }
            Ok(())
        });
        errors.take(parsed);
    }
    out
}

/// Parses a field's attributes; mistakes go to `errors`.
pub fn field_attrs(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    for attr in tera_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("rename") {
                out.rename = Some(meta.value()?.parse()?);
            } else if meta.path.is_ident("interleaved") {
                out.interleaved = true;
            } else if meta.path.is_ident("refs_before") {
                out.refs_before.extend(idents(&meta)?);
            } else if meta.path.is_ident("parts_after") {
                out.parts_after.extend(idents(&meta)?);
            } else if meta.path.is_ident("again_after") {
                let content;
                syn::parenthesized!(content in meta.input);
                out.again_after = Some(Ident::parse_any_ident(&content)?);
            } else if meta.path.is_ident("part") {
                let lit: LitInt = meta.value()?.parse()?;
                out.part = Some((lit.base10_parse()?, lit.span()));
            } else {
                return Err(meta.error(
                    "unknown `tera` attribute on a field; expected `rename`, `interleaved`, \
                     `refs_before(..)`, `parts_after(..)`, `again_after(..)` or `part`",
                ));
            }
            Ok(())
        });
        errors.take(parsed);
    }
    out
}

/// `(a, b, ...)`: identifiers, keywords included.
fn idents(meta: &syn::meta::ParseNestedMeta<'_>) -> syn::Result<Vec<Ident>> {
    let content;
    syn::parenthesized!(content in meta.input);
    let names = content.parse_terminated(Ident::parse_any_ident, Token![,])?;
    Ok(names.into_iter().collect())
}

/// Parses an identifier, keywords included (`type`, `r#type`).
trait ParseAnyIdent: Sized {
    fn parse_any_ident(input: syn::parse::ParseStream<'_>) -> syn::Result<Self>;
}

impl ParseAnyIdent for Ident {
    fn parse_any_ident(input: syn::parse::ParseStream<'_>) -> syn::Result<Self> {
        use syn::ext::IdentExt;
        Ident::parse_any(input)
    }
}

/// An identifier's name without the `r#` of a raw identifier.
pub fn plain(ident: &Ident) -> String {
    let s = ident.to_string();
    s.strip_prefix("r#").map(str::to_owned).unwrap_or(s)
}

/// The span of an attribute list, for errors about the struct as a whole.
pub fn span_of(attrs: &[Attribute], fallback: Span) -> Span {
    tera_attrs(attrs).next().map_or(fallback, |a| a.span())
}
