//! From classified lines to the typed model: nesting, types, flags and docs.
//!
//! This layer reports the errors that concern one line or its nesting
//! (unknown types and flags, bad indentation, nested lines under a field that
//! cannot have them). Checks that look at a whole block live in
//! [`crate::validate`].

use std::collections::HashSet;

use codespan_reporting::diagnostic::Diagnostic;

use crate::codes;
use crate::model::{Block, ElemType, Field, FieldType, Item, RefLine, Scalar, Span};
use crate::parse::{Entry, EntryKind, Line, MetaKind, Word};
use crate::report::{self, secondary};

/// Deepest supported nesting (number of `-`). Deeper lines are an error; the
/// limit keeps the recursive passes safe on hostile input.
pub const MAX_DEPTH: usize = 32;

/// The result of building the tree of one def.
#[derive(Debug, Default)]
pub(crate) struct Tree {
    pub(crate) root: Block,
    pub(crate) doc: Option<String>,
    pub(crate) explicit_refs: bool,
    /// `span.start` of fields whose type could not be resolved; later checks
    /// skip them to avoid follow-up errors.
    pub(crate) unresolved: HashSet<usize>,
}

/// One entry line with its doc and its nested lines.
struct Node {
    entry: Entry,
    doc: Option<String>,
    children: Vec<usize>,
}

impl Node {
    /// Whether nested lines are expected under this line: `array` without a
    /// subtype, `object`, or an unknown type (reported on its own).
    fn takes_children(&self) -> bool {
        match &self.entry.kind {
            EntryKind::Field { ty, subtype, .. } => {
                (ty.text == "array" && subtype.is_none())
                    || ty.text == "object"
                    || resolve_plain(&ty.text).is_none() && ty.text != "array"
            }
            EntryKind::Meta { .. } => false,
        }
    }
}

/// Types that are known without looking at nesting.
enum Plain {
    Scalar(Scalar),
    String,
    Bytes,
    Object,
}

fn resolve_plain(name: &str) -> Option<Plain> {
    match name {
        "string" => Some(Plain::String),
        "bytes" => Some(Plain::Bytes),
        "object" => Some(Plain::Object),
        _ => Scalar::from_def_name(name).map(Plain::Scalar),
    }
}

/// Names of all types, for "expected one of" notes.
fn all_type_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Scalar::ALL.iter().map(|s| s.def_name()).collect();
    names.extend(["string", "bytes", "array", "object"]);
    names
}

fn suggestion(word: &str, candidates: &[&'static str]) -> Option<&'static str> {
    let limit = crate::suggest::typo_limit(word.chars().count(), 1);
    crate::suggest::nearest(word, candidates, limit)
        .first()
        .copied()
}

fn unknown(code: &str, what: &str, word: &Word, candidates: &[&'static str]) -> Diagnostic<()> {
    let mut d = report::error(
        code,
        format!("unknown {what} `{}`", word.text),
        word.span,
        format!("unknown {what}"),
    );
    let mut notes = Vec::new();
    if let Some(s) = suggestion(&word.text, candidates) {
        notes.push(format!("help: did you mean `{s}`?"));
    }
    notes.push(format!("expected one of: {}", candidates.join(", ")));
    d = d.with_notes(notes);
    d
}

/// Computes the docs of all entries and of the file (see
/// [`crate::model::Field::doc`] and [`crate::model::Def::doc`]).
fn docs(lines: &[Line]) -> (Option<String>, Vec<(Entry, Option<String>)>) {
    let mut file_doc: Vec<String> = Vec::new();
    let mut out: Vec<(Entry, Option<String>)> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    // The last entry had a trailing comment, and only comment lines follow.
    let mut continuing = false;
    let mut seen_entry = false;
    for line in lines {
        match line {
            Line::Blank | Line::Bad => {
                pending.clear();
                continuing = false;
            }
            Line::Comment(c) => {
                if !seen_entry {
                    file_doc.push(c.clone());
                } else if continuing {
                    if let Some((_, Some(doc))) = out.last_mut() {
                        doc.push('\n');
                        doc.push_str(c);
                    }
                } else {
                    pending.push(c.clone());
                }
            }
            Line::Entry(e) => {
                if !seen_entry {
                    pending.clear();
                    seen_entry = true;
                }
                let doc = match (&e.kind, &e.comment) {
                    (EntryKind::Meta { .. }, _) => None,
                    (_, Some(c)) => Some(c.clone()),
                    (_, None) if pending.is_empty() => None,
                    (_, None) => Some(pending.join("\n")),
                };
                continuing = doc.is_some() && e.comment.is_some();
                pending.clear();
                out.push(((**e).clone(), doc));
            }
        }
    }
    // Drop empty lines at both ends of the file doc.
    while file_doc.last().is_some_and(String::is_empty) {
        file_doc.pop();
    }
    let start = file_doc.iter().take_while(|l| l.is_empty()).count();
    let doc = file_doc
        .get(start..)
        .filter(|l| !l.is_empty())
        .map(|l| l.join("\n"));
    (doc, out)
}

/// Arranges the entries into a tree by their depth; reports bad nesting.
fn nest(nodes: &mut [Node], diagnostics: &mut Vec<Diagnostic<()>>) -> Vec<usize> {
    let mut root: Vec<usize> = Vec::new();
    // Open blocks: (depth of their lines, owner node or None for the root).
    let mut stack: Vec<(usize, Option<usize>)> = vec![(0, None)];
    let mut above: Option<usize> = None;
    for i in 0..nodes.len() {
        let Some(node) = nodes.get(i) else { break };
        let depth = node.entry.depth;
        let span = node.entry.span;
        if depth > MAX_DEPTH {
            diagnostics.push(report::error(
                codes::NESTED_TOO_DEEP,
                format!("nesting deeper than {MAX_DEPTH} levels is not supported"),
                span,
                format!("this line is nested {depth} levels deep"),
            ));
            continue;
        }
        while stack.last().is_some_and(|&(d, _)| d > depth) {
            stack.pop();
        }
        let (top_depth, top_owner) = stack.last().copied().unwrap_or((0, None));
        if top_depth < depth {
            // The line is deeper than the current block: it opens the block
            // of the last item of the current block.
            let siblings = match top_owner {
                None => &root,
                Some(o) => match nodes.get(o) {
                    Some(n) => &n.children,
                    None => &root,
                },
            };
            let parent = siblings.last().copied();
            let above_depth = above.and_then(|a| nodes.get(a)).map(|n| n.entry.depth);
            let limit = above_depth.map_or(0, |d| d + 1);
            if depth > limit {
                let mut d = report::error(
                    codes::NESTED_TOO_DEEP,
                    "line nested more than one level deeper than the line above",
                    span,
                    match above_depth {
                        Some(a) => format!("depth {depth}, but the line above has depth {a}"),
                        None => format!("the first line must have depth 0, this one has {depth}"),
                    },
                );
                if let Some(a) = above.and_then(|a| nodes.get(a)) {
                    d = d.with_labels(vec![secondary(a.entry.span, "the line above")]);
                }
                diagnostics.push(d);
            } else if let Some(p) = parent.and_then(|p| nodes.get(p))
                && !p.takes_children()
            {
                let (code, what) = match &p.entry.kind {
                    EntryKind::Meta { kind, .. } => (
                        codes::META_CHILDREN,
                        format!("a `{}` line cannot have nested lines", kind.keyword()),
                    ),
                    EntryKind::Field {
                        ty, subtype, name, ..
                    } => {
                        let ty = match subtype {
                            Some(s) => format!("{}<{}>", ty.text, s.text),
                            None => ty.text.clone(),
                        };
                        (
                            codes::UNEXPECTED_CHILDREN,
                            format!(
                                "field `{}` of type `{ty}` cannot have nested lines",
                                name.text
                            ),
                        )
                    }
                };
                diagnostics.push(
                    report::error(code, what, span, "nested line")
                        .with_labels(vec![secondary(p.entry.span, "not an `array` or `object`")])
                        .with_notes(vec![
                            "only `array NAME` (without `<T>`) and `object NAME` have nested fields"
                                .to_string(),
                        ]),
                );
            }
            stack.push((depth, parent));
        }
        let owner = stack.last().and_then(|&(_, o)| o);
        match owner {
            None => root.push(i),
            Some(o) => {
                if let Some(n) = nodes.get_mut(o) {
                    n.children.push(i);
                }
            }
        }
        // A line without an owner under a deeper block (first line nested)
        // still lands in the root; that's fine after the error.
        above = Some(i);
    }
    root
}

/// The warning of a legacy `count` or `offset` line (what the language
/// page says of them, at the line).
fn legacy_meta(kind: MetaKind, path: &str, at: Span) -> Option<Diagnostic<()>> {
    let (message, label) = match kind {
        MetaKind::Count => (
            format!("legacy `count {path}` is ignored"),
            format!("the count is in the metadata of `{path}`"),
        ),
        MetaKind::Offset => (
            format!("legacy `offset {path}` turns implicit metadata off for this def"),
            format!("read as `ref {path}`"),
        ),
        MetaKind::Ref => return None,
    };
    Some(
        report::warning(codes::LEGACY_META, message, at, label).with_notes(vec![
            "a `ref` or `offset` line anywhere in a def places the metadata of every string, \
         bytes and array of the def at its own ref line; write `ref` lines (docs/def-language.md)"
                .to_string(),
        ]),
    )
}

struct Converter<'n> {
    nodes: &'n [Node],
    explicit_refs: bool,
    unresolved: HashSet<usize>,
    diagnostics: &'n mut Vec<Diagnostic<()>>,
}

impl Converter<'_> {
    fn block(&mut self, children: &[usize], level: usize) -> Block {
        let mut items = Vec::new();
        if level > MAX_DEPTH {
            return Block { items };
        }
        for &i in children {
            let Some(node) = self.nodes.get(i) else {
                continue;
            };
            match &node.entry.kind {
                EntryKind::Meta { kind, path } => {
                    if let Some(warning) = legacy_meta(*kind, &path.text, node.entry.span) {
                        self.diagnostics.push(warning);
                    }
                    if *kind == MetaKind::Count {
                        continue;
                    }
                    self.explicit_refs = true;
                    items.push(Item::Ref(RefLine {
                        path: path.text.split('.').map(str::to_string).collect(),
                        legacy_offset: *kind == MetaKind::Offset,
                        span: node.entry.span,
                        path_span: path.span,
                    }));
                }
                EntryKind::Field {
                    ty,
                    subtype,
                    flags,
                    type_span,
                    name,
                } => {
                    let field_ty = self.field_type(node, ty, subtype.as_ref(), level);
                    let interleaved = self.flags(flags, &field_ty, ty);
                    let field_ty = match field_ty {
                        Some(t) => t,
                        None => {
                            self.unresolved.insert(node.entry.span.start);
                            FieldType::Scalar(Scalar::Byte)
                        }
                    };
                    if let FieldType::Object(b) | FieldType::Array(b) = &field_ty
                        && b.is_empty()
                        && node.children.is_empty()
                    {
                        self.diagnostics.push(report::warning(
                            codes::EMPTY_CONTAINER,
                            format!("`{} {}` has no fields", ty.text, name.text),
                            node.entry.span,
                            "no nested lines follow",
                        ));
                    }
                    items.push(Item::Field(Field {
                        name: name.text.clone(),
                        ty: field_ty,
                        interleaved,
                        doc: node.doc.clone(),
                        span: node.entry.span,
                        type_span: *type_span,
                        name_span: name.span,
                    }));
                }
            }
        }
        Block { items }
    }

    fn field_type(
        &mut self,
        node: &Node,
        ty: &Word,
        subtype: Option<&Word>,
        level: usize,
    ) -> Option<FieldType> {
        if ty.text == "array" {
            return match subtype {
                None => Some(FieldType::Array(self.block(&node.children, level + 1))),
                Some(st) => {
                    if st.text == "string" {
                        return Some(FieldType::ArrayOf(ElemType::String));
                    }
                    if let Some(s) = Scalar::from_def_name(&st.text) {
                        return Some(FieldType::ArrayOf(ElemType::Scalar(s)));
                    }
                    let mut names: Vec<&'static str> =
                        Scalar::ALL.iter().map(|s| s.def_name()).collect();
                    names.push("string");
                    let d = if matches!(st.text.as_str(), "array" | "object" | "bytes") {
                        report::error(
                            codes::UNKNOWN_SUBTYPE,
                            format!("`array<{}>` is not supported", st.text),
                            st.span,
                            "not a simple type, value type or `string`",
                        )
                        .with_notes(vec![format!(
                            "use `array NAME` with nested fields instead; element types of `array<T>`: {}",
                            names.join(", ")
                        )])
                    } else {
                        unknown(codes::UNKNOWN_SUBTYPE, "subtype", st, &names)
                    };
                    self.diagnostics.push(d);
                    None
                }
            };
        }
        let plain = resolve_plain(&ty.text);
        if let (Some(st), Some(_)) = (subtype, &plain) {
            self.diagnostics.push(
                report::error(
                    codes::UNEXPECTED_SUBTYPE,
                    format!("type `{}` takes no subtype", ty.text),
                    st.span,
                    "unexpected subtype",
                )
                .with_notes(vec!["only `array<T>` has a subtype".to_string()]),
            );
        }
        match plain {
            Some(Plain::Scalar(s)) => Some(FieldType::Scalar(s)),
            Some(Plain::String) => Some(FieldType::String),
            Some(Plain::Bytes) => Some(FieldType::Bytes),
            Some(Plain::Object) => Some(FieldType::Object(self.block(&node.children, level + 1))),
            None => {
                self.diagnostics
                    .push(unknown(codes::UNKNOWN_TYPE, "type", ty, &all_type_names()));
                None
            }
        }
    }

    /// Checks the flags; returns whether `[interleaved]` is set.
    fn flags(&mut self, flags: &[Word], field_ty: &Option<FieldType>, ty: &Word) -> bool {
        let mut interleaved = false;
        let mut seen: Vec<&Word> = Vec::new();
        for flag in flags {
            if let Some(first) = seen.iter().find(|w| w.text == flag.text) {
                self.diagnostics.push(
                    report::warning(
                        codes::DUPLICATE_FLAG,
                        format!("flag `{}` given twice", flag.text),
                        flag.span,
                        "repeated flag",
                    )
                    .with_labels(vec![secondary(first.span, "first given here")]),
                );
                continue;
            }
            seen.push(flag);
            if flag.text == "interleaved" {
                let is_array = match field_ty {
                    Some(t) => t.is_array(),
                    None => true,
                };
                if is_array {
                    interleaved = true;
                } else {
                    self.diagnostics.push(report::error(
                        codes::MISPLACED_FLAG,
                        format!("`[interleaved]` on a field of type `{}`", ty.text),
                        flag.span,
                        "only arrays can be interleaved",
                    ));
                }
            } else {
                self.diagnostics
                    .push(unknown(codes::UNKNOWN_FLAG, "flag", flag, &["interleaved"]));
            }
        }
        interleaved
    }
}

/// Builds the model of one def from its lines.
pub(crate) fn build(lines: &[Line], diagnostics: &mut Vec<Diagnostic<()>>) -> Tree {
    let (doc, entries) = docs(lines);
    let mut nodes: Vec<Node> = entries
        .into_iter()
        .map(|(entry, doc)| Node {
            entry,
            doc,
            children: Vec::new(),
        })
        .collect();
    let root_children = nest(&mut nodes, diagnostics);
    let mut converter = Converter {
        nodes: &nodes,
        explicit_refs: false,
        unresolved: HashSet::new(),
        diagnostics,
    };
    let root = converter.block(&root_children, 0);
    Tree {
        root,
        doc,
        explicit_refs: converter.explicit_refs,
        unresolved: converter.unresolved,
    }
}
