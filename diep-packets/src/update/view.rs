//! The zero-copy view of an Update message: validated once, then walked
//! on demand without allocating.

use tera_packets::{Codec, Error, ErrorKind, Reader, Result};

use super::value::Value;
use crate::entid::EntId;
use crate::error::DiepErrorKind;
use crate::field_table::{FieldDef, FieldTable, GroupDef};
use crate::jump_table::next_index;
use crate::varint::read_vu;

/// Whether an entity record creates the entity or updates it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum UpcreateKind {
    /// `01`, the field groups, then every field of those groups.
    Creation,
    /// `00 01`, then the changed fields.
    Update,
}

/// Reads an entity record's marker.
#[inline]
fn read_marker(r: &mut Reader<'_>) -> Result<UpcreateKind> {
    let at = r.pos();
    match r.array::<1>()? {
        [1] => Ok(UpcreateKind::Creation),
        [0] => match r.array::<1>()? {
            [1] => Ok(UpcreateKind::Update),
            [byte] => Err(DiepErrorKind::BadUpcreateMarker { byte }.at(at + 1)),
        },
        [byte] => Err(DiepErrorKind::BadUpcreateMarker { byte }.at(at)),
    }
}

/// Reads a creation's group table (no values) into a bit set.
#[inline]
fn read_groups(r: &mut Reader<'_>, table: &FieldTable) -> Result<u128> {
    let mut mask = 0u128;
    let mut prev = None;
    while let Some(id) = next_index(r, prev, table.group_count())? {
        mask |= 1u128 << id;
        prev = Some(id);
    }
    Ok(mask)
}

/// The Update message (clientbound id 0): `vu tick`, deleted entities,
/// then created and updated entities, read through a [`FieldTable`].
///
/// [`UpdateView::decode`] validates the whole message and allocates
/// nothing; the accessors walk it again as they are iterated.
#[derive(Debug, Clone, Copy)]
pub struct UpdateView<'a> {
    msg: &'a [u8],
    table: &'a FieldTable,
    tick: u32,
    deletes: u32,
    deletes_at: usize,
    upcreates: u32,
    upcreates_at: usize,
}

impl<'a> UpdateView<'a> {
    /// Decodes a whole Update message (id byte included) with `table`.
    /// Strict: trailing bytes are an error.
    pub fn decode(msg: &'a [u8], table: &'a FieldTable) -> Result<Self> {
        match msg.first() {
            Some(0) => {}
            Some(&id) => return Err(DiepErrorKind::UnknownId { id }.at(0)),
            None => return Err(Error::new(ErrorKind::UnexpectedEnd, 0)),
        }
        let mut r = Reader::at(msg, 1);
        let view = Self::read_body(&mut r, table)?;
        crate::check_end(&r)?;
        Ok(view)
    }

    /// Reads and validates the body at the cursor (after the id byte).
    pub(crate) fn read_body(r: &mut Reader<'a>, table: &'a FieldTable) -> Result<Self> {
        let msg = r.buf();
        let tick = read_vu(r)?;
        let deletes = read_vu(r)?;
        let deletes_at = r.pos();
        // Each deletion takes a byte at least: a huge count fails at the
        // first missing byte, having allocated nothing.
        for _ in 0..deletes {
            EntId::read_at(r)?;
        }
        let upcreates = read_vu(r)?;
        let upcreates_at = r.pos();
        for _ in 0..upcreates {
            EntId::read_at(r)?;
            let kind = read_marker(r)?;
            let mut fields = Fields::start(r.clone(), table, kind)?;
            while fields.try_next()?.is_some() {}
            *r = fields.r;
        }
        Ok(UpdateView {
            msg,
            table,
            tick,
            deletes,
            deletes_at,
            upcreates,
            upcreates_at,
        })
    }

    /// The whole message, id byte included.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.msg
    }

    /// The field table it was read with.
    pub fn table(&self) -> &'a FieldTable {
        self.table
    }

    /// The server's tick.
    pub fn tick(&self) -> u32 {
        self.tick
    }

    /// The number of deleted entities.
    pub fn delete_count(&self) -> u32 {
        self.deletes
    }

    /// The number of created and updated entities.
    pub fn upcreate_count(&self) -> u32 {
        self.upcreates
    }

    /// The deleted entities.
    pub fn deletes(&self) -> impl Iterator<Item = EntId> + 'a {
        let mut r = Reader::at(self.msg, self.deletes_at);
        (0..self.deletes).map_while(move |_| EntId::read_at(&mut r).ok())
    }

    /// The created and updated entities.
    pub fn upcreates(&self) -> Upcreates<'a> {
        Upcreates {
            r: Reader::at(self.msg, self.upcreates_at),
            table: self.table,
            left: self.upcreates,
        }
    }
}

/// The entity records of an [`UpdateView`].
#[derive(Debug, Clone)]
pub struct Upcreates<'a> {
    r: Reader<'a>,
    table: &'a FieldTable,
    left: u32,
}

impl<'a> Iterator for Upcreates<'a> {
    type Item = UpcreateView<'a>;

    fn next(&mut self) -> Option<UpcreateView<'a>> {
        if self.left == 0 {
            return None;
        }
        self.left -= 1;
        let r = &mut self.r;
        let entity = EntId::read_at(r).ok()?;
        let kind = read_marker(r).ok()?;
        let groups_at = r.pos();
        let mut fields = Fields::start(r.clone(), self.table, kind).ok()?;
        let view = UpcreateView {
            entity,
            kind,
            groups_at,
            fields: fields.clone(),
        };
        while let Ok(Some(_)) = fields.try_next() {}
        self.r = fields.r;
        Some(view)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.left as usize))
    }
}

/// One created or updated entity of an [`UpdateView`].
#[derive(Debug, Clone)]
pub struct UpcreateView<'a> {
    entity: EntId,
    kind: UpcreateKind,
    groups_at: usize,
    fields: Fields<'a>,
}

impl<'a> UpcreateView<'a> {
    /// The entity.
    pub fn entity(&self) -> EntId {
        self.entity
    }

    /// Creation or update.
    pub fn kind(&self) -> UpcreateKind {
        self.kind
    }

    /// A creation's field groups, by ascending id (none for an update).
    pub fn groups(&self) -> impl Iterator<Item = (u32, &'a GroupDef)> + 'a {
        let table = self.fields.table;
        let mask = match self.fields.state {
            State::Creation { mask, .. } => mask,
            State::Update { .. } => 0,
        };
        (0..table.group_count())
            .filter(move |id| mask & (1u128 << id) != 0)
            .filter_map(move |id| table.group(id).map(|g| (id, g)))
    }

    /// The bytes of the record after the entity and marker start here.
    pub fn body_offset(&self) -> usize {
        self.groups_at
    }

    /// The fields sent: every field of a creation's groups (each element
    /// of an array field in turn), or an update's changed fields and
    /// elements, in wire order.
    pub fn fields(&self) -> Fields<'a> {
        self.fields.clone()
    }
}

/// A field's value as an upcreate carries it.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldValue<'a> {
    /// The field's index in the field order.
    pub index: u32,
    /// The field (`Group.field`, its encodings).
    pub field: &'a FieldDef,
    /// The element, for an array field.
    pub element: Option<u32>,
    /// The value.
    pub value: Value<'a>,
}

#[derive(Debug, Clone, Copy)]
enum State {
    /// The next field order index to look at, the next element of it.
    Creation { mask: u128, next: u32, element: u32 },
    /// The last field index read; inside an array field, its index and its
    /// last element.
    Update {
        prev: Option<u32>,
        array: Option<(u32, Option<u32>)>,
    },
}

/// The fields of one upcreate, read as they are iterated.
#[derive(Debug, Clone)]
pub struct Fields<'a> {
    r: Reader<'a>,
    table: &'a FieldTable,
    state: State,
    done: bool,
}

impl<'a> Fields<'a> {
    /// Starts reading an upcreate's body at the cursor of `r` (after its
    /// marker): a creation's group table is read here.
    fn start(mut r: Reader<'a>, table: &'a FieldTable, kind: UpcreateKind) -> Result<Self> {
        let state = match kind {
            UpcreateKind::Creation => State::Creation {
                mask: read_groups(&mut r, table)?,
                next: 0,
                element: 0,
            },
            UpcreateKind::Update => State::Update {
                prev: None,
                array: None,
            },
        };
        Ok(Fields {
            r,
            table,
            state,
            done: false,
        })
    }

    /// The next field, `None` at the end of the upcreate (the cursor then
    /// after it), or the first error.
    pub fn try_next(&mut self) -> Result<Option<FieldValue<'a>>> {
        if self.done {
            return Ok(None);
        }
        let table = self.table;
        let r = &mut self.r;
        match &mut self.state {
            State::Creation {
                mask,
                next,
                element,
            } => loop {
                let index = *next;
                let Some(field) = table.field(index) else {
                    self.done = true;
                    return Ok(None);
                };
                if *mask & (1u128 << field.group()) == 0 {
                    *next += 1;
                    continue;
                }
                match field.count() {
                    None => {
                        *next += 1;
                        let value = Value::read(r, field.encoding())?;
                        return Ok(Some(FieldValue {
                            index,
                            field,
                            element: None,
                            value,
                        }));
                    }
                    Some(count) if *element < count => {
                        let e = *element;
                        *element += 1;
                        let value = Value::read(r, field.encoding())?;
                        return Ok(Some(FieldValue {
                            index,
                            field,
                            element: Some(e),
                            value,
                        }));
                    }
                    Some(_) => {
                        *element = 0;
                        *next += 1;
                    }
                }
            },
            State::Update { prev, array } => loop {
                if let Some((index, prev_element)) = *array {
                    let field = table.field(index).ok_or_else(|| {
                        DiepErrorKind::IndexPastTable { index, len: 0 }.at(r.pos())
                    })?;
                    let count = field.count().unwrap_or(0);
                    let at = r.pos();
                    match next_index(r, prev_element, count)? {
                        Some(e) => {
                            *array = Some((index, Some(e)));
                            let value = Value::read(r, field.update_encoding())?;
                            return Ok(Some(FieldValue {
                                index,
                                field,
                                element: Some(e),
                                value,
                            }));
                        }
                        None if prev_element.is_none() => {
                            return Err(DiepErrorKind::EmptyArrayUpdate.at(at));
                        }
                        None => *array = None,
                    }
                }
                let Some(index) = next_index(r, *prev, table.field_count())? else {
                    self.done = true;
                    return Ok(None);
                };
                *prev = Some(index);
                let Some(field) = table.field(index) else {
                    return Err(DiepErrorKind::IndexPastTable {
                        index,
                        len: table.field_count(),
                    }
                    .at(r.pos()));
                };
                if field.count().is_some() {
                    *array = Some((index, None));
                    continue;
                }
                let value = Value::read(r, field.update_encoding())?;
                return Ok(Some(FieldValue {
                    index,
                    field,
                    element: None,
                    value,
                }));
            },
        }
    }
}

impl<'a> Iterator for Fields<'a> {
    type Item = FieldValue<'a>;

    /// The next field; the iteration ends at the end of the upcreate (on a
    /// view, which was validated, no error can end it early).
    fn next(&mut self) -> Option<FieldValue<'a>> {
        self.try_next().ok().flatten()
    }
}
