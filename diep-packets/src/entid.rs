//! `entid`: an entity handle, or none.

use core::num::NonZeroU32;

use tera_packets::{Codec, Reader, Result, Visit, Visitor, Writer};

use crate::varint::{read_vu, vu_len, write_vu};

/// An entity: its hash (never 0 on the wire) and its id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Entity {
    /// The hash (the entity slot's generation).
    pub hash: NonZeroU32,
    /// The id (the slot).
    pub id: u32,
}

/// An `entid` field: `vu hash`, and when the hash is not 0, `vu id`; hash
/// 0 alone means none.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EntId(pub Option<Entity>);

impl EntId {
    /// No entity.
    pub const NONE: EntId = EntId(None);

    /// The entity `hash`/`id`; none when `hash` is 0.
    pub fn new(hash: u32, id: u32) -> Self {
        EntId(NonZeroU32::new(hash).map(|hash| Entity { hash, id }))
    }

    /// The hash (0 for none).
    pub fn hash(self) -> u32 {
        self.0.map_or(0, |e| e.hash.get())
    }

    /// The id (0 for none).
    pub fn id(self) -> u32 {
        self.0.map_or(0, |e| e.id)
    }
}

impl<'a> Codec<'a> for EntId {
    const FIXED_SIZE: Option<usize> = None;
    const MIN_WIRE_LEN: usize = 1;

    #[inline]
    fn read_at(r: &mut Reader<'a>) -> Result<Self> {
        let hash = read_vu(r)?;
        match NonZeroU32::new(hash) {
            None => Ok(EntId::NONE),
            Some(hash) => Ok(EntId(Some(Entity {
                hash,
                id: read_vu(r)?,
            }))),
        }
    }

    #[inline]
    fn byte_len(&self) -> usize {
        match self.0 {
            None => 1,
            Some(e) => vu_len(e.hash.get()) + vu_len(e.id),
        }
    }

    #[inline]
    fn write_at(&self, w: &mut Writer<'_>) {
        match self.0 {
            None => w.put_array([0]),
            Some(e) => {
                write_vu(w, e.hash.get());
                write_vu(w, e.id);
            }
        }
    }
}

impl Visit for EntId {
    fn visit<V: Visitor>(&self, v: &mut V) {
        if let Some(e) = self.0 {
            v.field("hash", &e.hash.get());
            v.field("id", &e.id);
        }
    }
}

crate::owned_is_self!(EntId);
