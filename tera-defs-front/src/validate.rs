//! Checks on whole blocks of the model: names, interleaved runs, explicit
//! refs and layout warnings.
//!
//! Terms: a *level* is the root block or the block of an array element: the
//! unit that owns metadata slots. Objects are transparent: the fields of an
//! object (and of its objects) belong to the level of the block that holds
//! the object, and are referred to with a dotted path (`ref o.s`).

use std::collections::{HashMap, HashSet};

use codespan_reporting::diagnostic::{Diagnostic, Severity};
use tera_wire_plan::{PlanError, PlanErrorKind};

use crate::codes;
use crate::model::{Block, Field, FieldType, Item, RefLine, Span};
use crate::plan::{StructPlan, Token, level_tokens};
use crate::report::{self, secondary};

/// Context shared by the checks of one def.
struct Validator<'a> {
    explicit_refs: bool,
    unresolved: &'a HashSet<usize>,
    diagnostics: &'a mut Vec<Diagnostic<()>>,
}

/// Runs every block-level check on the root block of a def.
pub(crate) fn validate(
    root: &Block,
    explicit_refs: bool,
    unresolved: &HashSet<usize>,
    diagnostics: &mut Vec<Diagnostic<()>>,
) {
    let mut v = Validator {
        explicit_refs,
        unresolved,
        diagnostics,
    };
    v.level(root);
    let errors_before = v.diagnostics.iter().any(|d| d.severity >= Severity::Error);
    match StructPlan::new(root, &[]) {
        Ok(sp) => v.planned(&sp, true, errors_before),
        Err(mistakes) => v.plan_mistakes(root, &mistakes, errors_before),
    }
}

/// A field seen through objects: its dotted path in the level.
struct Visible<'a> {
    path: Vec<String>,
    field: &'a Field,
}

/// Variable fields of a level, with their dotted paths.
fn variable_fields<'a>(block: &'a Block, prefix: &[String], out: &mut Vec<Visible<'a>>) {
    for f in block.fields() {
        let mut path = prefix.to_vec();
        path.push(f.name.clone());
        match &f.ty {
            FieldType::Object(inner) => variable_fields(inner, &path, out),
            t if t.is_variable() => out.push(Visible { path, field: f }),
            _ => {}
        }
    }
}

/// Outcome of looking a ref path up in a level.
enum Lookup<'a> {
    Found(&'a Field),
    /// The path goes through an array (or a non-object) at this segment.
    Through(&'a Field),
    Missing,
}

fn lookup<'a>(block: &'a Block, path: &[String]) -> Lookup<'a> {
    let Some((first, rest)) = path.split_first() else {
        return Lookup::Missing;
    };
    let mut found_non_object = None;
    for f in block.fields().filter(|f| &f.name == first) {
        if rest.is_empty() {
            return Lookup::Found(f);
        }
        match &f.ty {
            FieldType::Object(inner) => match lookup(inner, rest) {
                Lookup::Missing => {}
                other => return other,
            },
            _ => found_non_object = found_non_object.or(Some(f)),
        }
    }
    found_non_object.map_or(Lookup::Missing, Lookup::Through)
}

impl Validator<'_> {
    /// Checks a level (root or array element) and everything below it.
    fn level(&mut self, block: &Block) {
        self.names(&[block]);
        self.blocks(block);
        if self.explicit_refs {
            self.refs(block);
        }
    }

    /// Physical checks of a block and its objects; recurses into arrays as
    /// new levels.
    fn blocks(&mut self, block: &Block) {
        let mut merged_objects: Vec<&str> = Vec::new();
        for f in block.fields() {
            match &f.ty {
                FieldType::Array(inner) => self.level(inner),
                FieldType::Object(inner) => {
                    if !merged_objects.contains(&f.name.as_str()) {
                        merged_objects.push(&f.name);
                        let parts: Vec<&Block> = block.object_parts(&f.name).collect();
                        self.names(&parts);
                    }
                    self.refs_in_object(inner);
                    self.blocks(inner);
                }
                _ => {}
            }
        }
    }

    /// Duplicate names among the fields of one logical block (the parts of
    /// a split object count as one block).
    fn names(&mut self, parts: &[&Block]) {
        let fields: Vec<&Field> = parts.iter().flat_map(|b| b.fields()).collect();
        let mut by_name: HashMap<&str, &Field> = HashMap::new();
        for f in fields {
            if let Some(first) = by_name.get(f.name.as_str()) {
                let both_objects = matches!(first.ty, FieldType::Object(_))
                    && matches!(f.ty, FieldType::Object(_));
                let both_fixed = matches!(first.ty, FieldType::Scalar(_))
                    && matches!(f.ty, FieldType::Scalar(_));
                if both_fixed {
                    self.diagnostics.push(
                        report::warning(
                            codes::DUPLICATE_FIXED_FIELD,
                            format!("duplicate field `{}`", f.name),
                            f.name_span,
                            "defined again here",
                        )
                        .with_labels(vec![secondary(first.name_span, "first defined here")])
                        .with_notes(vec![
                            "one field at both places: reading keeps the last copy (as the JS \
                             reader does), writing writes the value twice"
                                .to_string(),
                        ]),
                    );
                } else if !both_objects {
                    self.diagnostics.push(
                        report::error(
                            codes::DUPLICATE_FIELD,
                            format!("duplicate field `{}`", f.name),
                            f.name_span,
                            "defined again here",
                        )
                        .with_labels(vec![secondary(first.name_span, "first defined here")])
                        .with_notes(vec![
                            "only an `object` may be repeated (its parts are merged), \
                             and fixed-size fields (with a warning)"
                                .to_string(),
                        ]),
                    );
                }
                continue;
            }
            by_name.insert(&f.name, f);
        }
    }

    /// A `ref` line inside an object is an error: it belongs to the
    /// enclosing level, with a dotted path.
    fn refs_in_object(&mut self, object: &Block) {
        for r in object.refs() {
            let path = r.path.join(".");
            self.diagnostics.push(
                report::error(
                    codes::REF_IN_OBJECT,
                    format!("`ref {path}` inside an object"),
                    r.span,
                    "refs cannot be placed inside an object",
                )
                .with_notes(vec![
                    "write the ref in the enclosing root or array element with the dotted path, \
                     e.g. `ref OBJECT.FIELD`"
                        .to_string(),
                ]),
            );
        }
    }

    /// Explicit-ref checks of one level.
    fn refs(&mut self, block: &Block) {
        let mut visible = Vec::new();
        variable_fields(block, &[], &mut visible);
        // Field (by span start) -> the ref line that placed it.
        let mut placed: HashMap<usize, &RefLine> = HashMap::new();
        for item in &block.items {
            let Item::Ref(r) = item else { continue };
            let path = r.path.join(".");
            match lookup(block, &r.path) {
                Lookup::Missing => self.unknown_ref(r, &path, &visible),
                Lookup::Through(f) => self.ref_through(r, &path, f),
                Lookup::Found(f) => self.ref_to(r, &path, f, &mut placed),
            }
        }
        self.missing_refs(&visible, &placed);
    }

    /// `ref PATH` where the level has no such field.
    fn unknown_ref(&mut self, r: &RefLine, path: &str, visible: &[Visible<'_>]) {
        let mut notes = Vec::new();
        let candidates: Vec<String> = visible
            .iter()
            .map(|v| format!("`{}`", v.path.join(".")))
            .collect();
        if candidates.is_empty() {
            notes.push("this block has no string, bytes or array field".to_string());
        } else {
            notes.push(format!("variable fields here: {}", candidates.join(", ")));
        }
        self.diagnostics.push(
            report::error(
                codes::UNKNOWN_REF,
                format!("`ref {path}`: no field `{path}` in this block"),
                r.path_span,
                "unknown field",
            )
            .with_notes(notes),
        );
    }

    /// `ref PATH` whose path goes through an array or a non-object.
    fn ref_through(&mut self, r: &RefLine, path: &str, f: &Field) {
        let note = if f.ty.is_array() {
            format!(
                "`{}` is an array: put the ref inside its element, one level deeper",
                f.name
            )
        } else {
            format!("`{}` is not an object", f.name)
        };
        self.diagnostics.push(
            report::error(
                codes::UNKNOWN_REF,
                format!("`ref {path}`: no field `{path}` in this block"),
                r.path_span,
                "unknown field",
            )
            .with_labels(vec![secondary(f.name_span, note.clone())])
            .with_notes(vec![note]),
        );
    }

    /// `ref PATH` to field `f`: it must be variable, placed once, before
    /// the field.
    fn ref_to<'b>(
        &mut self,
        r: &'b RefLine,
        path: &str,
        f: &Field,
        placed: &mut HashMap<usize, &'b RefLine>,
    ) {
        if self.unresolved.contains(&f.span.start) {
            return;
        }
        if !f.ty.is_variable() {
            self.diagnostics.push(
                report::error(
                    codes::REF_NOT_VARIABLE,
                    format!(
                        "`ref {path}`: field `{path}` has the fixed-size type `{}`",
                        f.ty.def_name()
                    ),
                    r.path_span,
                    "not a string, bytes or array",
                )
                .with_labels(vec![secondary(f.span, "defined here")]),
            );
            return;
        }
        if let Some(first) = placed.get(&f.span.start) {
            self.diagnostics.push(
                report::error(
                    codes::DUPLICATE_REF,
                    format!("field `{path}` has two refs"),
                    r.span,
                    "second ref",
                )
                .with_labels(vec![secondary(first.span, "first ref")]),
            );
            return;
        }
        placed.insert(f.span.start, r);
        if r.span.start > f.span.start {
            self.diagnostics.push(
                report::error(
                    codes::REF_AFTER_FIELD,
                    format!("`ref {path}` comes after field `{path}`"),
                    r.span,
                    "ref after its field",
                )
                .with_labels(vec![secondary(f.span, "field defined here")])
                .with_notes(vec![
                    "a ref line must precede the field it refers to".to_string(),
                ]),
            );
        }
    }

    /// Every variable field of the level without a ref.
    fn missing_refs(&mut self, visible: &[Visible<'_>], placed: &HashMap<usize, &RefLine>) {
        for v in visible {
            if placed.contains_key(&v.field.span.start) {
                continue;
            }
            let path = v.path.join(".");
            let level_hint = if v.path.len() > 1 {
                format!("add `ref {path}` before it, in the block that holds the object")
            } else {
                format!("add `ref {path}` before it, in the same block")
            };
            self.diagnostics.push(
                report::error(
                    codes::MISSING_REF,
                    format!("variable field `{path}` has no ref"),
                    v.field.span,
                    format!("`{}` without a ref", v.field.ty.def_name()),
                )
                .with_notes(vec![
                    "this def uses explicit refs, so every string, bytes and array field needs one"
                        .to_string(),
                    level_hint,
                ]),
            );
        }
    }

    /// Checks the plans of a struct and of every struct below it: their
    /// mistakes, and for a level (`level`: the root or an array element)
    /// the W002 warning read from its layout.
    fn planned(&mut self, sp: &StructPlan<'_>, level: bool, errors_before: bool) {
        if level && let Ok(tokens) = level_tokens(sp, "") {
            self.fixed_after_variable(&tokens);
        }
        for (i, f) in sp.fields.iter().enumerate() {
            let block = match (&f.object, &f.def.ty) {
                (Some((merged, _)), _) => merged,
                (None, FieldType::Array(element)) => element,
                _ => continue,
            };
            match sp.child(i) {
                Some(Ok(child)) => self.planned(
                    &child,
                    matches!(f.def.ty, FieldType::Array(_)),
                    errors_before,
                ),
                Some(Err(mistakes)) => self.plan_mistakes(block, &mistakes, errors_before),
                None => {}
            }
        }
    }

    /// Reports what the planner found wrong with `block`. Mistakes of refs
    /// are the ref checks' to explain (with the def's dotted paths); they
    /// are reported here only when nothing else was.
    fn plan_mistakes(&mut self, block: &Block, mistakes: &[PlanError<Span>], errors_before: bool) {
        for m in mistakes {
            if m.kind == PlanErrorKind::InterleavedNotConsecutive {
                let interleaved: Vec<&Field> = block.fields().filter(|f| f.interleaved).collect();
                let mut labels = Vec::new();
                if let (Some(a), Some(z)) = (interleaved.first(), interleaved.last()) {
                    labels.push(secondary(a.span, "first interleaved array"));
                    labels.push(secondary(z.span, "last interleaved array"));
                }
                self.diagnostics.push(
                    report::error(
                        codes::INTERLEAVED_NOT_CONSECUTIVE,
                        "interleaved arrays must be consecutive fields",
                        m.span,
                        "this field separates interleaved arrays",
                    )
                    .with_labels(labels),
                );
            } else if !errors_before {
                // A safety net: the ref and name checks explain these first.
                let code = match m.kind {
                    PlanErrorKind::UnknownField(_) => codes::UNKNOWN_REF,
                    PlanErrorKind::RefAfterField(_) => codes::REF_AFTER_FIELD,
                    PlanErrorKind::TwoRefs(_) => codes::DUPLICATE_REF,
                    _ => codes::DUPLICATE_FIELD,
                };
                self.diagnostics.push(report::error(
                    code,
                    format!("cannot lay out this block: {m}"),
                    m.span,
                    "here",
                ));
            }
        }
    }

    /// Warns about the first fixed field that follows a variable field in a
    /// level: it is read after the variable field's data, where the writer
    /// puts it (`docs/wire-format.md`, "Fixed fields after a variable field").
    fn fixed_after_variable(&mut self, tokens: &[Token]) {
        let Some((k, variable_name, variable_span)) =
            tokens.iter().enumerate().find_map(|(k, t)| match t {
                Token::Data(_, name, span) => Some((k, name, *span)),
                Token::Elements { field, span, .. } => Some((k, field, *span)),
                _ => None,
            })
        else {
            return;
        };
        let fixed = tokens[k + 1..]
            .iter()
            .filter_map(|t| match t {
                Token::Fixed(_, leaves) => Some(leaves),
                _ => None,
            })
            .flatten()
            .find(|leaf| !self.unresolved.contains(&leaf.span.start));
        if let Some(fixed) = fixed {
            let name = fixed.path.rsplit('.').next().unwrap_or(&fixed.path);
            let variable = variable_name.rsplit('.').next().unwrap_or(variable_name);
            self.diagnostics.push(
                report::warning(
                    codes::FIXED_AFTER_VARIABLE,
                    format!("fixed field `{name}` follows variable field `{variable}`"),
                    fixed.span,
                    "read after the data of the variable field",
                )
                .with_labels(vec![secondary(variable_span, "variable field")])
                .with_notes(vec![
                    "this crate reads it where the writer puts it; the tera-data JS reader reads it \
                     at a different place (docs/wire-format.md, \"Fixed fields after a variable field\")"
                        .to_string(),
                ]),
            );
        }
    }
}
