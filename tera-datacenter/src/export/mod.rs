//! Streaming export of a tree or sub-tree to XML or JSON: written while
//! walking, through a 64 KiB buffer, with no copy of the tree.

mod emit;
mod json;
mod xml;

use std::io::{self, Write};

use emit::{Emit, Sep, Sink};

use crate::problem::Problem;
use crate::tree::Element;

/// Output format of [`export`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One XML element per element; attributes as XML attributes, the
    /// `__value__` attribute as text.
    Xml,
    /// One JSON object per element: `{"name", "attributes", "value",
    /// "children"}` (empty parts left out).
    Json,
}

/// How to export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExportOptions {
    /// The format.
    pub format: Format,
    /// Indent with two spaces per level (else everything on one line).
    pub pretty: bool,
}

/// What an export wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ExportStats {
    /// Elements written.
    pub elements: u64,
    /// Bytes written.
    pub bytes: u64,
}

/// Why an export stopped.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The writer failed.
    #[error("writing the export: {0}")]
    Io(#[from] io::Error),
    /// The tree cannot be walked to its end: a node is below itself (a
    /// [`ProblemKind::Cycle`](crate::ProblemKind::Cycle)).
    #[error(transparent)]
    Format(#[from] Problem),
}

/// How often (in elements) the progress callback is called.
pub const PROGRESS_EVERY: u64 = 1 << 16;

/// Writes `root` and everything below it to `out` (buffered internally).
/// `progress` is called with the elements written so far every
/// [`PROGRESS_EVERY`] elements and at the end.
pub fn export(
    root: &Element<'_>,
    out: &mut dyn Write,
    options: ExportOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<ExportStats, ExportError> {
    export_all(&[*root], out, options, progress)
}

/// Writes several sub-trees as one document: exactly one is written as by
/// [`export`]; otherwise XML wraps them in `<__export__>` and JSON in an
/// array.
pub fn export_all(
    roots: &[Element<'_>],
    out: &mut dyn Write,
    options: ExportOptions,
    progress: &mut dyn FnMut(u64),
) -> Result<ExportStats, ExportError> {
    match options.format {
        Format::Xml => walk(roots, out, &mut xml::Xml::new(options.pretty), progress),
        Format::Json => walk(roots, out, &mut json::Json::new(options.pretty), progress),
    }
}

fn walk(
    roots: &[Element<'_>],
    out: &mut dyn Write,
    emit: &mut dyn Emit,
    progress: &mut dyn FnMut(u64),
) -> Result<ExportStats, ExportError> {
    let mut sink = Sink::new(out);
    let mut elements = 0u64;
    let base = usize::from(roots.len() != 1);
    emit.prologue(&mut sink, roots.len())?;
    let Some(dc) = roots.first().map(|r| r.data_center()) else {
        emit.epilogue(&mut sink, 0)?;
        sink.flush()?;
        return Ok(ExportStats {
            elements,
            bytes: sink.written,
        });
    };
    // The elements from the root to the one being written: meeting one
    // again below itself is a cycle. Elsewhere an element may be met again:
    // a run of children that several elements share.
    let mut on_path = vec![false; dc.node_count()];
    for (i, root) in roots.iter().enumerate() {
        on_path[dc.node_ordinal(root.address())] = true;
        emit.begin(
            &mut sink,
            root,
            base,
            if i == 0 { Sep::None } else { Sep::Comma },
        )?;
        elements += 1;
        // Frames: (element, its remaining children, whether one was written).
        let mut stack = vec![(*root, root.children(), false)];
        while let Some(top) = stack.last_mut() {
            match top.1.next() {
                Some(child) => {
                    let sep = if top.2 { Sep::Comma } else { Sep::Open };
                    top.2 = true;
                    if std::mem::replace(&mut on_path[dc.node_ordinal(child.address())], true) {
                        return Err(top.0.cycle().into());
                    }
                    emit.begin(&mut sink, &child, base + stack.len(), sep)?;
                    elements += 1;
                    if elements.is_multiple_of(PROGRESS_EVERY) {
                        progress(elements);
                    }
                    stack.push((child, child.children(), false));
                }
                None => {
                    let (e, _, had_children) = stack.pop().expect("non-empty");
                    on_path[dc.node_ordinal(e.address())] = false;
                    emit.end(&mut sink, &e, base + stack.len(), had_children)?;
                }
            }
        }
    }
    emit.epilogue(&mut sink, roots.len())?;
    sink.flush()?;
    progress(elements);
    Ok(ExportStats {
        elements,
        bytes: sink.written,
    })
}
