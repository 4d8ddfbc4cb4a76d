//! The flattened layout of a level (the root block or an array element),
//! read from the plans of its structs: objects inlined, their metadata
//! hoisted, array elements nested. `tera-defs diff` compares it and
//! validation warns from it.

use tera_wire_plan::{Meta, PlanError, Step, Var};

use super::lower::StructPlan;
use crate::model::{ElemType, FieldType, Scalar, Span};

/// A fixed field of a run: its path in the level, type and line.
#[derive(Debug, Clone, PartialEq)]
pub struct Leaf {
    /// The dotted path (`o.x`, `list[].y`).
    pub path: String,
    /// Its type.
    pub scalar: Scalar,
    /// Its def line.
    pub span: Span,
}

/// One piece of a level's layout, with the fields it comes from (for
/// explanations; names and spans do not take part in comparisons).
#[derive(Debug, Clone, PartialEq)]
pub enum Token {
    /// A run of fixed-size fields: total bytes and the fields.
    Fixed(usize, Vec<Leaf>),
    /// The metadata of a variable field.
    Meta(Var, String),
    /// A string's characters or a bytes field's bytes, and the field's line.
    Data(Var, String, Span),
    /// An array's elements: interleaved with its neighbours or not, and the
    /// layout of one element.
    Elements {
        /// The array field.
        field: String,
        /// Its def line.
        span: Span,
        /// `[interleaved]`.
        interleaved: bool,
        /// One element's level (after its `here`/`next` header).
        element: Vec<Token>,
    },
}

impl Token {
    /// The same bytes on the wire: names, types and lines aside.
    pub fn same_shape(&self, other: &Token) -> bool {
        match (self, other) {
            (Token::Fixed(a, _), Token::Fixed(b, _)) => a == b,
            (Token::Meta(a, _), Token::Meta(b, _))
            | (Token::Data(a, _, _), Token::Data(b, _, _)) => a == b,
            (
                Token::Elements {
                    interleaved: ia,
                    element: ea,
                    ..
                },
                Token::Elements {
                    interleaved: ib,
                    element: eb,
                    ..
                },
            ) => {
                ia == ib && ea.len() == eb.len() && ea.iter().zip(eb).all(|(a, b)| a.same_shape(b))
            }
            _ => false,
        }
    }

    /// Size in bytes when it does not depend on the packet.
    pub fn fixed_size(&self) -> Option<usize> {
        match self {
            Token::Fixed(n, _) => Some(*n),
            Token::Meta(var, _) => Some(2 * var.meta_words()),
            _ => None,
        }
    }

    /// What the piece is, in words, for messages (`tera-defs diff`).
    pub fn describe(&self) -> String {
        match self {
            Token::Fixed(n, fields) => {
                let names: Vec<&str> = fields.iter().map(|f| f.path.as_str()).collect();
                format!("{n} fixed bytes ({})", names.join(", "))
            }
            Token::Meta(Var::String, f) => format!("the offset of string `{f}`"),
            Token::Meta(Var::Bytes, f) => format!("the offset and count of bytes `{f}`"),
            Token::Meta(Var::Array, f) => format!("the count and offset of array `{f}`"),
            Token::Data(Var::Bytes, f, _) => format!("the data of bytes `{f}`"),
            Token::Data(_, f, _) => format!("the characters of string `{f}`"),
            Token::Elements {
                field, interleaved, ..
            } => {
                let how = if *interleaved { "interleaved " } else { "" };
                format!("the {how}elements of array `{field}`")
            }
        }
    }
}

/// Why a level has no layout: a block of a def that validation rejects,
/// built by hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The planner's mistakes in a block.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "))]
    Plan(Vec<PlanError<Span>>),
    /// A `ref` to a field that has no metadata.
    #[error("`ref {0}` names no string, bytes or array of its block")]
    RefNotVariable(String),
    /// A variable field without a ref in a block with explicit refs.
    #[error("variable field `{0}` has no ref")]
    MissingRef(String),
}

impl From<Vec<PlanError<Span>>> for LayoutError {
    fn from(errors: Vec<PlanError<Span>>) -> Self {
        LayoutError::Plan(errors)
    }
}

type Planned<T> = Result<T, LayoutError>;

/// The layout of the level whose struct is `sp`; field paths start with
/// `prefix`.
pub fn level_tokens(sp: &StructPlan<'_>, prefix: &str) -> Planned<Vec<Token>> {
    let mut out = Vec::new();
    if !sp.plan.explicit() {
        meta(sp, None, prefix, &mut out)?;
    }
    body(sp, None, prefix, &mut out)?;
    Ok(out)
}

fn path(sp: &StructPlan<'_>, i: usize, prefix: &str) -> String {
    format!("{prefix}{}", sp.fields[i].def.name)
}

/// The child plan of field `i` (an object or an array element).
fn child<'p>(sp: &'p StructPlan<'_>, i: usize) -> Planned<StructPlan<'p>> {
    Ok(sp.child(i).unwrap_or_else(|| Err(Vec::new()))?)
}

/// The metadata of the slots of `part` (all when `None`), objects' hoisted.
fn meta(
    sp: &StructPlan<'_>,
    part: Option<usize>,
    prefix: &str,
    out: &mut Vec<Token>,
) -> Planned<()> {
    for (i, p) in sp.plan.meta_slots(&sp.plan.steps_of(part)) {
        field_meta(sp, i, Some(p), prefix, out)?;
    }
    Ok(())
}

/// The metadata of field `i` (of one part of a split object).
fn field_meta(
    sp: &StructPlan<'_>,
    i: usize,
    part: Option<usize>,
    prefix: &str,
    out: &mut Vec<Token>,
) -> Planned<()> {
    match sp.plan.field(i).encoding {
        tera_wire_plan::Encoding::Variable(var) => out.push(Token::Meta(var, path(sp, i, prefix))),
        tera_wire_plan::Encoding::Object => {
            let split = !sp.plan.field(i).parts_after.is_empty();
            let inner = child(sp, i)?;
            let part = if split { part } else { None };
            meta(&inner, part, &format!("{}.", path(sp, i, prefix)), out)?;
        }
        _ => {}
    }
    Ok(())
}

fn push_fixed(out: &mut Vec<Token>, leaf: Leaf) {
    let size = leaf.scalar.wire_size();
    if let Some(Token::Fixed(n, fields)) = out.last_mut() {
        *n += size;
        fields.push(leaf);
    } else {
        out.push(Token::Fixed(size, vec![leaf]));
    }
}

/// The pieces of `part` (all when `None`) after the implicit metadata.
fn body(
    sp: &StructPlan<'_>,
    part: Option<usize>,
    prefix: &str,
    out: &mut Vec<Token>,
) -> Planned<()> {
    for step in sp.plan.steps_of(part) {
        let i = step.field();
        let name = path(sp, i, prefix);
        let span = sp.fields[i].def.span;
        match step {
            Step::Ref(i) => {
                if sp.plan.field(i).encoding.is_fixed() {
                    return Err(LayoutError::RefNotVariable(name));
                }
                field_meta(sp, i, None, prefix, out)?;
            }
            Step::Part { part, .. } => body(&child(sp, i)?, Some(part), &format!("{name}."), out)?,
            Step::Field(_)
                if sp.plan.field(i).encoding.is_variable()
                    && sp.plan.meta_of(i) == Meta::AtCursor =>
            {
                return Err(LayoutError::MissingRef(name));
            }
            Step::Field(_) | Step::Repeat(_) => match &sp.fields[i].def.ty {
                FieldType::Scalar(s) => push_fixed(
                    out,
                    Leaf {
                        path: name,
                        scalar: *s,
                        span,
                    },
                ),
                FieldType::String => out.push(Token::Data(Var::String, name, span)),
                FieldType::Bytes => out.push(Token::Data(Var::Bytes, name, span)),
                FieldType::Object(_) => body(&child(sp, i)?, None, &format!("{name}."), out)?,
                FieldType::Array(_) => {
                    let element = level_tokens(&child(sp, i)?, &format!("{name}[]."))?;
                    out.push(elements(sp, i, name, element));
                }
                FieldType::ArrayOf(elem) => {
                    let item = format!("{name}[]");
                    let element = match elem {
                        ElemType::Scalar(s) => vec![Token::Fixed(
                            s.wire_size(),
                            vec![Leaf {
                                path: item,
                                scalar: *s,
                                span,
                            }],
                        )],
                        ElemType::String => vec![
                            Token::Meta(Var::String, item.clone()),
                            Token::Data(Var::String, item, span),
                        ],
                    };
                    out.push(elements(sp, i, name, element));
                }
            },
        }
    }
    Ok(())
}

fn elements(sp: &StructPlan<'_>, i: usize, field: String, element: Vec<Token>) -> Token {
    Token::Elements {
        field,
        span: sp.fields[i].def.span,
        interleaved: sp.plan.field(i).interleaved,
        element,
    }
}
