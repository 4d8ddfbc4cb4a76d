//! The Rust names of a struct's fields.
//!
//! A field is the snake_case of its def name, made a valid identifier
//! ([`crate::names::field_ident`]: `templateId` -> `template_id`, `type` ->
//! `r#type`). Two def names can give one Rust name (`fooBar` and `foo_bar`
//! are both `foo_bar`): the def is valid (tera-data-parser and the dynamic
//! path read both fields, under their def names), so the emitter renames,
//! deterministically: the first field in def order keeps the name, each
//! later one gets the first free number (`foo_bar_2`, `foo_bar_3`, ...).
//! JSON and the wire keep the def names (`#[tera(rename = "foo_bar")]`,
//! `#[serde(rename = "foo_bar")]`). `tera-defs check` and the build report
//! each rename as warning `W032` ([`crate::rust_name_warnings`]).

use tera_defs_front::model::{Field, Span};
use tera_defs_front::plan::StructPlan;

use crate::names::{Scope, field_ident, rust_ident, snake_case};

/// A field renamed because an earlier field of its struct has its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldRename {
    /// The Rust name both would have.
    pub wanted: String,
    /// The def name of the field that keeps it.
    pub first: String,
    /// Where that field's name is written.
    pub first_span: Span,
    /// The def name of the renamed field.
    pub def_name: String,
    /// Where its name is written.
    pub span: Span,
    /// Its Rust name: `wanted` with a number.
    pub ident: String,
}

/// The Rust names of the fields of one struct, in the plan's field order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldNames {
    /// One identifier per field (`r#type` for a keyword).
    pub idents: Vec<String>,
    /// The fields renamed (see the module doc).
    pub renamed: Vec<FieldRename>,
}

/// Names the fields of `sp` (see the module doc).
pub fn field_names(sp: &StructPlan<'_>) -> FieldNames {
    let defs: Vec<&Field> = sp.fields.iter().map(|f| f.def).collect();
    names_of(&defs)
}

fn names_of(fields: &[&Field]) -> FieldNames {
    let mut scope = Scope::new();
    let mut names = FieldNames::default();
    for (k, field) in fields.iter().enumerate() {
        let wanted = field_ident(&field.name);
        if scope.try_reserve(&wanted) {
            names.idents.push(wanted);
            continue;
        }
        let base = snake_case(&field.name);
        let ident = scope.reserve_first(|n| rust_ident(&format!("{base}_{}", n + 1)));
        let first = fields[..k]
            .iter()
            .zip(&names.idents)
            .find(|(_, ident)| **ident == wanted)
            .map(|(f, _)| *f);
        if let Some(first) = first {
            names.renamed.push(FieldRename {
                wanted,
                first: first.name.clone(),
                first_span: first.name_span,
                def_name: field.name.clone(),
                span: field.name_span,
                ident: ident.clone(),
            });
        }
        names.idents.push(ident);
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(source: &str) -> FieldNames {
        let checked = tera_defs_front::parse_def("S_TEST.1.def", source);
        let def = checked.def.expect("a valid def");
        let sp = StructPlan::new(&def.root, &[]).expect("a plan");
        field_names(&sp)
    }

    #[test]
    fn later_fields_with_a_taken_name_are_numbered() {
        let n = names("uint32 fooBar\nuint32 foo_bar\nuint32 FooBar\nint32 type\n");
        assert_eq!(n.idents, ["foo_bar", "foo_bar_2", "foo_bar_3", "r#type"]);
        let renamed: Vec<(&str, &str, &str)> = n
            .renamed
            .iter()
            .map(|r| (r.def_name.as_str(), r.first.as_str(), r.ident.as_str()))
            .collect();
        assert_eq!(
            renamed,
            [
                ("foo_bar", "fooBar", "foo_bar_2"),
                ("FooBar", "fooBar", "foo_bar_3")
            ]
        );
    }

    #[test]
    fn a_number_another_field_holds_is_skipped() {
        let n = names("uint32 unk_2\nuint32 fooBar\nuint32 foo_bar\nuint32 foo_bar_2\n");
        assert_eq!(n.idents, ["unk_2", "foo_bar", "foo_bar_2", "foo_bar_2_2"]);
        let n = names("uint32 foo_bar_2\nuint32 fooBar\nuint32 foo_bar\n");
        assert_eq!(n.idents, ["foo_bar_2", "foo_bar", "foo_bar_3"]);
    }
}
