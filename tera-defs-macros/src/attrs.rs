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

/// The attribute names, spelled once: matched against and named in
/// messages.
pub mod names {
    /// The attribute itself: `#[tera(...)]`.
    pub const TERA: &str = "tera";
    /// `name = "S_LOGIN"` on a packet.
    pub const NAME: &str = "name";
    /// `version = 14` on a packet.
    pub const VERSION: &str = "version";
    /// `rename_all = "camelCase"` on a struct.
    pub const RENAME_ALL: &str = "rename_all";
    /// `inline` on a struct.
    pub const INLINE: &str = "inline";
    /// `crate = "path"` on a struct.
    pub const CRATE: &str = "crate";
    /// `rename = "defName"` on a field.
    pub const RENAME: &str = "rename";
    /// `interleaved` on an array field.
    pub const INTERLEAVED: &str = "interleaved";
    /// `refs_before(a, b)` on a field.
    pub const REFS_BEFORE: &str = "refs_before";
    /// `parts_after(e)` on a split object's field.
    pub const PARTS_AFTER: &str = "parts_after";
    /// `again_after(f)` on a repeated field.
    pub const AGAIN_AFTER: &str = "again_after";
    /// `part = 1` on a field of a split object's struct.
    pub const PART: &str = "part";

    /// The attributes of a struct, in the order messages list them.
    pub const ON_STRUCT: [&str; 5] = [NAME, VERSION, RENAME_ALL, INLINE, CRATE];
    /// The attributes of a field, in the order messages list them.
    pub const ON_FIELD: [&str; 6] = [
        RENAME,
        INTERLEAVED,
        REFS_BEFORE,
        PARTS_AFTER,
        AGAIN_AFTER,
        PART,
    ];
    /// The attributes that take a parenthesized list of field names.
    pub const LISTS: [&str; 3] = [REFS_BEFORE, PARTS_AFTER, AGAIN_AFTER];
}

use names::*;

fn tera_attrs(attrs: &[Attribute]) -> impl Iterator<Item = &Attribute> {
    attrs.iter().filter(|a| a.path().is_ident(TERA))
}

/// "`a`, `b` or `c`": the attributes of `list` as a message lists them.
fn expected(list: &[&str]) -> String {
    let shown: Vec<String> = list
        .iter()
        .map(|name| {
            if LISTS.contains(name) {
                format!("`{name}(..)`")
            } else {
                format!("`{name}`")
            }
        })
        .collect();
    match shown.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        None => String::new(),
    }
}

/// The attributes of one struct or field seen so far: the second of a name
/// is a mistake at its own span (serde's rule), never silently the winner.
#[derive(Default)]
struct Seen(Vec<&'static str>);

impl Seen {
    /// The name of `meta` among `list`, or `None` (unknown). A repeated
    /// name goes to `errors` and is parsed on, so that the mistakes after
    /// it are found too.
    fn name_of(
        &mut self,
        meta: &syn::meta::ParseNestedMeta<'_>,
        list: &[&'static str],
        errors: &mut Errors,
    ) -> Option<&'static str> {
        let &name = list.iter().find(|name| meta.path.is_ident(name))?;
        if self.0.contains(&name) {
            errors.push(syn::Error::new(
                meta.path.span(),
                format!("duplicate `{TERA}` attribute `{name}`: give it once"),
            ));
        } else {
            self.0.push(name);
        }
        Some(name)
    }
}

/// Parses the struct's attributes; mistakes go to `errors`.
pub fn struct_attrs(attrs: &[Attribute], errors: &mut Errors) -> StructAttrs {
    let mut out = StructAttrs::default();
    let mut seen = Seen::default();
    let mut duplicates = Errors::default();
    for attr in tera_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            match seen.name_of(&meta, &ON_STRUCT, &mut duplicates) {
                Some(NAME) => out.name = Some(meta.value()?.parse()?),
                Some(VERSION) => out.version = Some(meta.value()?.parse()?),
                Some(CRATE) => {
                    let s: LitStr = meta.value()?.parse()?;
                    out.krate = Some(s.parse()?);
                }
                Some(RENAME_ALL) => {
                    let s: LitStr = meta.value()?.parse()?;
                    if s.value() != "camelCase" {
                        return Err(syn::Error::new(
                            s.span(),
                            format!("the only `{RENAME_ALL}` rule is \"camelCase\""),
                        ));
                    }
                    out.camel_case = true;
                }
                Some(INLINE) => out.inline = true,
                _ => {
                    return Err(meta.error(format!(
                        "unknown `{TERA}` attribute on a struct; expected {}",
                        expected(&ON_STRUCT)
                    )));
                }
            }
            Ok(())
        });
        errors.take(parsed);
    }
    errors.append(duplicates);
    out
}

/// Parses a field's attributes; mistakes go to `errors`.
pub fn field_attrs(attrs: &[Attribute], errors: &mut Errors) -> FieldAttrs {
    let mut out = FieldAttrs::default();
    let mut seen = Seen::default();
    let mut duplicates = Errors::default();
    for attr in tera_attrs(attrs) {
        let parsed = attr.parse_nested_meta(|meta| {
            match seen.name_of(&meta, &ON_FIELD, &mut duplicates) {
                Some(RENAME) => out.rename = Some(meta.value()?.parse()?),
                Some(INTERLEAVED) => out.interleaved = true,
                Some(REFS_BEFORE) => out.refs_before = idents(&meta)?,
                Some(PARTS_AFTER) => out.parts_after = idents(&meta)?,
                Some(AGAIN_AFTER) => {
                    let content;
                    syn::parenthesized!(content in meta.input);
                    out.again_after = Some(Ident::parse_any_ident(&content)?);
                }
                Some(PART) => {
                    let lit: LitInt = meta.value()?.parse()?;
                    out.part = Some((lit.base10_parse()?, lit.span()));
                }
                _ => {
                    return Err(meta.error(format!(
                        "unknown `{TERA}` attribute on a field; expected {}",
                        expected(&ON_FIELD)
                    )));
                }
            }
            Ok(())
        });
        errors.take(parsed);
    }
    errors.append(duplicates);
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
