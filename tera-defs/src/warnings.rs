//! The warnings of the Rust names of one def: the renames of
//! [`crate::fields`] (`W032`) and [`crate::nested`] (`W033`), as
//! diagnostics for the def's report, which `tera-defs check` prints and the
//! [`crate::Builder`] shows as `cargo:warning=` lines.

use tera_defs_front::Diagnostic;
use tera_defs_front::model::{Def, FieldType};
use tera_defs_front::plan::StructPlan;
use tera_defs_front::report::{secondary, warning};

use crate::fields::field_names;
use crate::nested::nested_type_names;

/// Two fields of one struct with the same Rust name: the later one is
/// renamed with a number (see [`crate::fields`]).
pub const FIELD_RENAMED: &str = "W032";
/// Two nested types of one def with the same Rust name: the later one is
/// renamed with a number (see [`crate::nested`]).
pub const TYPE_RENAMED: &str = "W033";

/// Every warning of the Rust names of `def`, in def order. Empty for a def
/// whose names all map to distinct Rust names (every def of the corpus).
pub fn rust_name_warnings(def: &Def) -> Vec<Diagnostic<()>> {
    let mut out = Vec::new();
    let nested = nested_type_names(def);
    if let Ok(root) = StructPlan::new(&def.root, &[]) {
        fields_of(&root, "the packet", &[], &nested, &mut out);
    }
    for rename in &nested.renamed {
        out.push(
            warning(
                TYPE_RENAMED,
                format!(
                    "nested types `{}` and `{}` are both `{}` in Rust: the second is `{}`",
                    rename.first_path.join("."),
                    rename.path.join("."),
                    rename.wanted,
                    rename.name
                ),
                rename.span,
                format!("`{}` in Rust", rename.name),
            )
            .with_labels(vec![secondary(
                rename.first_span,
                format!("`{}` in Rust", rename.wanted),
            )])
            .with_notes(vec![
                "nested types are named after their field in PascalCase, prefixed with the \
                 enclosing fields when two share a name; the later of two equal names gets a \
                 number"
                    .to_string(),
                "rename one of the fields to choose the Rust names".to_string(),
            ]),
        );
    }
    out.sort_by_key(|d| d.labels.first().map_or(0, |l| l.range.start));
    out
}

/// The field renames of the struct `sp` (named `what` in messages, at
/// `path` from the root) and of every struct below it.
fn fields_of(
    sp: &StructPlan<'_>,
    what: &str,
    path: &[String],
    nested: &crate::nested::NestedTypeNames,
    out: &mut Vec<Diagnostic<()>>,
) {
    for rename in field_names(sp).renamed {
        out.push(
            warning(
                FIELD_RENAMED,
                format!(
                    "fields `{}` and `{}` of {what} are both `{}` in Rust: the second is `{}`",
                    rename.first, rename.def_name, rename.wanted, rename.ident
                ),
                rename.span,
                format!("`{}` in Rust", rename.ident),
            )
            .with_labels(vec![secondary(
                rename.first_span,
                format!("`{}` in Rust", rename.wanted),
            )])
            .with_notes(vec![
                format!(
                    "JSON, the wire and the dynamic path keep the def names (`{}`, `{}`)",
                    rename.first, rename.def_name
                ),
                "rename one of the fields to choose the Rust names".to_string(),
            ]),
        );
    }
    for (i, f) in sp.fields.iter().enumerate() {
        if !matches!(f.def.ty, FieldType::Object(_) | FieldType::Array(_)) {
            continue;
        }
        let Some(Ok(child)) = sp.child(i) else {
            continue;
        };
        let mut child_path = path.to_vec();
        child_path.push(f.def.name.clone());
        let name = nested.get(&child_path).unwrap_or(&f.def.name);
        fields_of(&child, &format!("`{name}`"), &child_path, nested, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_are_warnings_that_name_the_rust_names() {
        let checked = tera_defs_front::parse_def(
            "S_TEST.1.def",
            "uint32 fooBar\nuint32 foo_bar\narray list\n- int32 zoneId\n- int32 ZoneId\n",
        );
        let mut report = checked.report;
        let def = checked.def.expect("a valid def");
        for d in rust_name_warnings(&def) {
            report.push(d);
        }
        assert_eq!((report.error_count(), report.warning_count()), (0, 2));
        let text = report.render(false);
        assert!(
            text.contains(
                "warning[W032]: fields `fooBar` and `foo_bar` of the packet are both `foo_bar` \
                 in Rust: the second is `foo_bar_2`"
            ),
            "{text}"
        );
        assert!(
            text.contains("fields `zoneId` and `ZoneId` of `List` are both `zone_id`"),
            "{text}"
        );
    }
}
