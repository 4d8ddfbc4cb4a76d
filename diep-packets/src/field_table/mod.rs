//! The field table that drives the Update message: field groups, their
//! fields' encodings, and the field order (which diep shuffles every build).
//!
//! The table is data: [`FieldTable::from_json`] loads another build's table
//! in the format of this build's `fields.json`; [`FieldTable::builtin`] is
//! this build's, compiled in.

mod build_6f59094d;
#[cfg(feature = "json")]
mod json;

use std::sync::OnceLock;

/// How a field's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// `vu`: u32 as LEB128.
    Vu,
    /// `vi`: i32 zigzag-coded, then `vu`.
    Vi,
    /// `f32`: little-endian IEEE 754.
    F32,
    /// `fixed64`: 1/64 steps through `vi`.
    Fixed64,
    /// `stringNT`: UTF-8 and a NUL.
    StringNt,
    /// `entid`: an entity handle or none.
    EntId,
}

impl Encoding {
    /// The name in `fields.json`.
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::Vu => "vu",
            Encoding::Vi => "vi",
            Encoding::F32 => "f32",
            Encoding::Fixed64 => "fixed64",
            Encoding::StringNt => "stringNT",
            Encoding::EntId => "entid",
        }
    }

    /// The encoding named `name` in `fields.json`.
    pub fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "vu" => Encoding::Vu,
            "vi" => Encoding::Vi,
            "f32" => Encoding::F32,
            "fixed64" => Encoding::Fixed64,
            "stringNT" => Encoding::StringNt,
            "entid" => Encoding::EntId,
            _ => return None,
        })
    }
}

/// A field of the table, at its index in the field order.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldDef {
    name: String,
    dot: usize,
    group: u32,
    encoding: Encoding,
    update_encoding: Encoding,
    count: u32,
    default: Option<f64>,
}

impl FieldDef {
    /// `Group.field`.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The group's name.
    pub fn group_name(&self) -> &str {
        self.name.get(..self.dot).unwrap_or_default()
    }

    /// The field's name within its group.
    pub fn field_name(&self) -> &str {
        self.name.get(self.dot + 1..).unwrap_or_default()
    }

    /// The group's id.
    pub fn group(&self) -> u32 {
        self.group
    }

    /// The encoding in a creation.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The encoding in an update (the creation's unless the table says
    /// otherwise).
    pub fn update_encoding(&self) -> Encoding {
        self.update_encoding
    }

    /// The number of elements of an array field; `None` for a single value.
    pub fn count(&self) -> Option<u32> {
        (self.count > 0).then_some(self.count)
    }

    /// The default value the table gives, if any.
    pub fn default_value(&self) -> Option<f64> {
        self.default
    }
}

/// A field group.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupDef {
    name: String,
    used: bool,
    /// The order indexes of its fields, in the group's own order.
    fields: Vec<u32>,
}

impl GroupDef {
    /// The name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Whether this build sends it.
    pub fn used(&self) -> bool {
        self.used
    }

    /// The order indexes of its fields, in the group's own order.
    pub fn fields(&self) -> &[u32] {
        &self.fields
    }
}

/// The field table of one build: groups by id and the field order.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldTable {
    build: String,
    groups: Vec<GroupDef>,
    order: Vec<FieldDef>,
}

/// The most groups a table may have (a creation's groups are a bit set).
pub const MAX_GROUPS: usize = 128;

/// Why a field table does not load.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// The text is not JSON of the expected shape.
    #[cfg(feature = "json")]
    #[error("field table is not valid JSON of the expected shape: {0}")]
    Json(#[from] serde_json::Error),
    /// A group's `id` is not its index in `groups`.
    #[error(
        "group `{name}` has id {id} but is entry {index} of `groups` (ids must be 0, 1, 2, ...)"
    )]
    GroupId {
        /// The group.
        name: String,
        /// Its id.
        id: u32,
        /// Its index.
        index: usize,
    },
    /// More groups than [`MAX_GROUPS`].
    #[error("field table has {0} groups, more than {MAX_GROUPS}")]
    TooManyGroups(usize),
    /// An encoding name the table format does not know.
    #[error("field `{field}` has unknown encoding `{encoding}`")]
    UnknownEncoding {
        /// `Group.field`.
        field: String,
        /// The name.
        encoding: String,
    },
    /// An `order` entry that names no field of any group.
    #[error("`order` entry {index} `{name}` names no field of the groups")]
    UnknownField {
        /// The index in `order`.
        index: usize,
        /// The entry.
        name: String,
    },
    /// A field named twice in `order`.
    #[error("`order` names field `{0}` twice")]
    DuplicateField(String),
    /// A field of a group that `order` does not name.
    #[error("field `{0}` is in its group but not in `order`")]
    MissingField(String),
}

/// A group of the compiled-in table.
struct StaticGroup {
    name: &'static str,
    used: bool,
    fields: &'static [StaticField],
}

/// A field of the compiled-in table.
struct StaticField {
    name: &'static str,
    encoding: Encoding,
    count: u32,
    default: Option<f64>,
    update_encoding: Option<Encoding>,
}

/// A group's fields as the loader sees them, from JSON or compiled in.
struct RawField<'s> {
    name: &'s str,
    encoding: Encoding,
    count: u32,
    default: Option<f64>,
    update_encoding: Option<Encoding>,
}

impl FieldTable {
    /// This build's table (6f59094d), compiled in.
    pub fn builtin() -> &'static FieldTable {
        static TABLE: OnceLock<FieldTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            let groups = build_6f59094d::GROUPS.iter().map(|g| {
                let fields = g.fields.iter().map(|f| RawField {
                    name: f.name,
                    encoding: f.encoding,
                    count: f.count,
                    default: f.default,
                    update_encoding: f.update_encoding,
                });
                (g.name, g.used, fields.collect::<Vec<_>>())
            });
            let order = build_6f59094d::ORDER.iter().copied();
            // The compiled-in table is checked by a test against the JSON.
            Self::assemble(build_6f59094d::BUILD, groups.collect(), order).unwrap_or_else(|_| {
                FieldTable {
                    build: String::new(),
                    groups: Vec::new(),
                    order: Vec::new(),
                }
            })
        })
    }

    fn assemble<'s>(
        build: &str,
        groups: Vec<(&'s str, bool, Vec<RawField<'s>>)>,
        order: impl Iterator<Item = &'s str>,
    ) -> Result<Self, TableError> {
        if groups.len() > MAX_GROUPS {
            return Err(TableError::TooManyGroups(groups.len()));
        }
        let mut defs: Vec<Option<FieldDef>> = Vec::new();
        let mut out_groups: Vec<GroupDef> = groups
            .iter()
            .map(|(name, used, _)| GroupDef {
                name: (*name).to_owned(),
                used: *used,
                fields: Vec::new(),
            })
            .collect();
        for (index, name) in order.enumerate() {
            let found = name.split_once('.').and_then(|(group, field)| {
                groups
                    .iter()
                    .enumerate()
                    .find_map(|(gid, (gname, _, fields))| {
                        (*gname == group)
                            .then(|| fields.iter().find(|f| f.name == field).map(|f| (gid, f)))
                            .flatten()
                    })
            });
            let Some((gid, f)) = found else {
                return Err(TableError::UnknownField {
                    index,
                    name: name.to_owned(),
                });
            };
            if defs.iter().flatten().any(|d| d.name == name) {
                return Err(TableError::DuplicateField(name.to_owned()));
            }
            defs.push(Some(FieldDef {
                name: name.to_owned(),
                dot: name.find('.').unwrap_or(0),
                group: gid as u32,
                encoding: f.encoding,
                update_encoding: f.update_encoding.unwrap_or(f.encoding),
                count: f.count,
                default: f.default,
            }));
        }
        // Each group lists its fields' order indexes in its own order.
        for (gid, (gname, _, fields)) in groups.iter().enumerate() {
            for f in fields {
                let full = format!("{gname}.{}", f.name);
                let Some(index) = defs.iter().flatten().position(|d| d.name == full) else {
                    return Err(TableError::MissingField(full));
                };
                if let Some(g) = out_groups.get_mut(gid) {
                    g.fields.push(index as u32);
                }
            }
        }
        Ok(FieldTable {
            build: build.to_owned(),
            groups: out_groups,
            order: defs.into_iter().flatten().collect(),
        })
    }

    /// The build the table belongs to.
    pub fn build(&self) -> &str {
        &self.build
    }

    /// The groups, by id.
    pub fn groups(&self) -> &[GroupDef] {
        &self.groups
    }

    /// The fields, by their index in the field order.
    pub fn order(&self) -> &[FieldDef] {
        &self.order
    }

    /// The group of id `id`.
    pub fn group(&self, id: u32) -> Option<&GroupDef> {
        self.groups.get(id as usize)
    }

    /// The field at order index `index`.
    pub fn field(&self, index: u32) -> Option<&FieldDef> {
        self.order.get(index as usize)
    }

    /// The order index of the field named `Group.field`.
    pub fn index_of(&self, name: &str) -> Option<u32> {
        self.order
            .iter()
            .position(|f| f.name == name)
            .map(|i| i as u32)
    }

    /// The id of the group named `name`.
    pub fn group_id(&self, name: &str) -> Option<u32> {
        self.groups
            .iter()
            .position(|g| g.name == name)
            .map(|i| i as u32)
    }

    /// The number of groups, as the bound of a group index.
    pub(crate) fn group_count(&self) -> u32 {
        self.groups.len() as u32
    }

    /// The number of fields, as the bound of a field index.
    pub(crate) fn field_count(&self) -> u32 {
        self.order.len().min(u32::MAX as usize) as u32
    }
}

impl Default for FieldTable {
    /// This build's table ([`FieldTable::builtin`]).
    fn default() -> Self {
        FieldTable::builtin().clone()
    }
}
