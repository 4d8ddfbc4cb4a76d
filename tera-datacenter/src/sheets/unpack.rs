//! Writing a data center as sheets: a folder per name of the root's
//! children, a numbered file per child, a schema per folder inferred from
//! the data, and `DataCenter.xsd` declaring `dc:keys`.

use std::fmt::Write as _;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::error::SheetsError;
use super::keys::KeysNamespace;
use super::{infer, xsd};
use crate::tree::{DataCenter, Element, Value};
use crate::xml_text::{escape_into, float_text};

/// What [`write_sheets`] wrote.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnpackStats {
    /// Folders (and schemas).
    pub folders: usize,
    /// Sheet files.
    pub files: usize,
    /// Elements written (without `__root__`).
    pub elements: u64,
}

/// Writes the tree of `dc` as sheets into `dir` (created if missing):
/// `NAME/NAME-00000.xml`... for each child of the root in order, with
/// `NAME/NAME.xsd` inferred from the data (its `keys` attribute in the
/// namespace `keys`), so that [`read_sheets`](super::read_sheets) packs them
/// again to the same content. Folders and files are written on every core;
/// `progress(done, total)` counts elements (`total` is the node count).
pub fn write_sheets(
    dc: &DataCenter<'_>,
    dir: &Path,
    keys: KeysNamespace,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<UnpackStats, SheetsError> {
    let names = Names::new(dc);
    let folders = folders(dc, &names)?;
    write_schema_files(dc, dir, &folders, keys)?;
    let jobs: Vec<(&str, usize, Element<'_>)> = folders
        .iter()
        .flat_map(|(name, roots)| {
            roots
                .iter()
                .enumerate()
                .map(move |(i, r)| (name.as_str(), i, *r))
        })
        .collect();
    let total = dc.node_count() as u64;
    let done = AtomicU64::new(0);
    jobs.par_iter().try_for_each(|&(name, i, e)| {
        let (text, elements) = sheet_text(&names, name, e, keys)?;
        let path = dir.join(name).join(format!("{name}-{i:05}.xml"));
        std::fs::write(&path, text).map_err(|e| SheetsError::io(&path, e))?;
        progress(
            done.fetch_add(elements, Ordering::Relaxed) + elements,
            total,
        );
        Ok::<_, SheetsError>(())
    })?;
    Ok(UnpackStats {
        folders: folders.len(),
        files: jobs.len(),
        elements: done.into_inner(),
    })
}

/// Writes only the schemas that [`write_sheets`] would write: `dir/DataCenter.xsd`
/// and `dir/NAME/NAME.xsd` per name of the root's children, inferred from
/// the data. Returns how many folders have a schema.
pub fn write_schemas(
    dc: &DataCenter<'_>,
    dir: &Path,
    keys: KeysNamespace,
) -> Result<usize, SheetsError> {
    let names = Names::new(dc);
    let folders = folders(dc, &names)?;
    write_schema_files(dc, dir, &folders, keys)?;
    Ok(folders.len())
}

/// The root's children grouped by name, in order of first appearance.
fn folders<'d>(
    dc: &'d DataCenter<'_>,
    names: &Names,
) -> Result<Vec<(String, Vec<Element<'d>>)>, SheetsError> {
    let mut folders: Vec<(String, Vec<Element<'_>>)> = Vec::new();
    for child in dc.root().children() {
        let name = names.get(child.name_index())?;
        match folders.last_mut() {
            Some(f) if f.0 == name => f.1.push(child),
            _ => match folders.iter_mut().find(|f| f.0 == name) {
                Some(f) => f.1.push(child),
                None => folders.push((name.to_owned(), vec![child])),
            },
        }
    }
    Ok(folders)
}

/// `DataCenter.xsd` and a schema per folder, on every core.
fn write_schema_files(
    dc: &DataCenter<'_>,
    dir: &Path,
    folders: &[(String, Vec<Element<'_>>)],
    keys: KeysNamespace,
) -> Result<(), SheetsError> {
    std::fs::create_dir_all(dir).map_err(|e| SheetsError::io(dir, e))?;
    let top = dir.join("DataCenter.xsd");
    std::fs::write(&top, xsd::data_center(keys)).map_err(|e| SheetsError::io(&top, e))?;
    folders.par_iter().try_for_each(|(name, roots)| {
        let schema = infer::infer(dc, roots).map_err(SheetsError::Unrepresentable)?;
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).map_err(|e| SheetsError::io(&folder, e))?;
        let path = folder.join(format!("{name}.xsd"));
        for t in &schema.types {
            t.keys.iter().try_for_each(|k| check_name(k))?;
        }
        std::fs::write(&path, xsd::schema(&schema, keys)).map_err(|e| SheetsError::io(&path, e))
    })
}

/// The names of the data center, decoded once, and whether each reads
/// back as an XML name without a namespace.
struct Names {
    names: Vec<(String, bool)>,
}

impl Names {
    fn new(dc: &DataCenter<'_>) -> Self {
        let names = dc
            .names()
            .iter()
            .map(|n| {
                let n = n.to_string_lossy();
                let ok = check_name(&n).is_ok();
                (n, ok)
            })
            .collect();
        Names { names }
    }

    /// The name of a one-based index, if it can be written.
    fn get(&self, index: u16) -> Result<&str, SheetsError> {
        let (name, ok) = &self.names[index as usize - 1];
        if *ok {
            Ok(name)
        } else {
            check_name(name).map(|()| name.as_str())
        }
    }
}

/// A name must read back as an XML name without a namespace.
fn check_name(name: &str) -> Result<(), SheetsError> {
    let mut chars = name.chars();
    let ok = chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.'))
        && !name.starts_with("xml");
    if ok {
        Ok(())
    } else {
        Err(SheetsError::Unrepresentable(format!(
            "{name:?} cannot be an XML element or attribute name"
        )))
    }
}

/// The sheet of root element `e` of folder `name`, pretty like the sheets
/// people edit: four spaces per level, one attribute a line.
fn sheet_text(
    names: &Names,
    name: &str,
    e: Element<'_>,
    keys: KeysNamespace,
) -> Result<(String, u64), SheetsError> {
    let mut sheet = SheetText {
        out: String::new(),
        names,
        elements: 0,
    };
    let children = sheet.open(e, 0, Some((keys, name)))?;
    // Frames: (element, its children sorted by name index, next child).
    let mut stack = Vec::new();
    if !children.is_empty() {
        stack.push((e, children, 0));
    }
    while let Some(top) = stack.last_mut() {
        match top.1.get(top.2).copied() {
            Some(c) => {
                top.2 += 1;
                let children = sheet.open(c, stack.len(), None)?;
                if !children.is_empty() {
                    stack.push((c, children, 0));
                }
            }
            None => {
                let (e, _, _) = stack.pop().expect("non-empty");
                let indent = stack.len() * 4;
                let tag = names.get(e.name_index())?;
                let _ = writeln!(sheet.out, "{:indent$}</{tag}>", "");
            }
        }
    }
    Ok((sheet.out, sheet.elements))
}

/// A sheet being written.
struct SheetText<'n> {
    out: String,
    names: &'n Names,
    elements: u64,
}

impl SheetText<'_> {
    /// Writes the start of `e` (the whole of it when it has no children)
    /// and returns its children sorted by name index. The root of a sheet
    /// (`folder` given) names its namespace and schema.
    fn open<'d>(
        &mut self,
        e: Element<'d>,
        depth: usize,
        folder: Option<(KeysNamespace, &str)>,
    ) -> Result<Vec<Element<'d>>, SheetsError> {
        self.elements += 1;
        let tag = self.names.get(e.name_index())?;
        let indent = depth * 4;
        let out = &mut self.out;
        let _ = write!(out, "{:indent$}<{tag}", "");
        // Attributes after the first are aligned under it.
        let align = indent + tag.chars().count() + 2;
        let mut attributes = 0;
        let mut attribute = |out: &mut String, name: &str| {
            if attributes == 0 {
                out.push(' ');
            } else {
                let _ = write!(out, "\n{:align$}", "");
            }
            attributes += 1;
            out.push_str(name);
            out.push_str("=\"");
        };
        if let Some((keys, folder)) = folder {
            let namespace = format!("{}/{folder}", keys.uri());
            attribute(out, "xmlns:xsi");
            out.push_str("http://www.w3.org/2001/XMLSchema-instance\"");
            attribute(out, "xsi:schemaLocation");
            let _ = write!(out, "{namespace} {folder}.xsd\"");
            attribute(out, "xmlns");
            let _ = write!(out, "{namespace}\"");
        }
        let mut text = None;
        for a in e.attributes() {
            if a.is_text() {
                text = a.value().as_str();
                continue;
            }
            attribute(out, self.names.get(a.name_index())?);
            match a.value() {
                Value::Int(v) => {
                    let _ = write!(out, "{v}");
                }
                Value::Bool(v) => out.push_str(if v { "true" } else { "false" }),
                Value::Float(v) => out.push_str(&float_text(v)),
                Value::Str(v) => escape_into(out, v.chars()),
            }
            out.push('"');
        }
        let mut children: Vec<Element<'d>> = e.children().collect();
        children.sort_by_key(|c| c.name_index());
        match (text, children.is_empty()) {
            (None, true) => out.push_str(" />\n"),
            (Some(t), true) => {
                out.push('>');
                escape_into(out, t.chars());
                let _ = writeln!(out, "</{tag}>");
            }
            (t, false) => {
                out.push('>');
                if let Some(t) = t {
                    escape_into(out, t.chars());
                }
                out.push('\n');
            }
        }
        Ok(children)
    }
}
