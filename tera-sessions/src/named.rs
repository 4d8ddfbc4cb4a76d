//! What a packet set made of one packet: its def, and its value (or its
//! JSON, when asked for), or why it has none.

use tera_data::AnyPacket;
use tera_dynamic::Record;

use crate::def::Def;

/// A packet's decoded value.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum PacketValue {
    /// Read by defs loaded at run time ([`tera_dynamic::Catalog`]): its
    /// fields by name, with typed getters (`record.u32("damage")?`) whose
    /// errors name the packet and the field.
    Record(Record<'static>),
    /// Read by the packets compiled into `tera-data`: the typed packet
    /// (boxed: the largest packet type is hundreds of bytes).
    Typed(Box<AnyPacket<'static>>),
    /// Its JSON (compact), when the [`Namer`](crate::Namer) was asked for
    /// JSON rather than values ([`Namer::json`](crate::Namer::json)).
    Json(Vec<u8>),
}

impl PacketValue {
    /// The record of a packet read by loaded defs.
    #[must_use]
    pub fn record(&self) -> Option<&Record<'static>> {
        match self {
            PacketValue::Record(record) => Some(record),
            _ => None,
        }
    }

    /// The typed packet of a packet read by compiled-in defs.
    #[must_use]
    pub fn typed(&self) -> Option<&AnyPacket<'static>> {
        match self {
            PacketValue::Typed(packet) => Some(&**packet),
            _ => None,
        }
    }

    /// The value's JSON, compact (the same whichever set read it).
    ///
    /// # Errors
    /// A value serde cannot write (a float JSON has no number for).
    pub fn to_json(&self) -> Result<Vec<u8>, serde_json::Error> {
        match self {
            PacketValue::Record(record) => serde_json::to_vec(record),
            PacketValue::Typed(packet) => serde_json::to_vec(packet),
            PacketValue::Json(json) => Ok(json.clone()),
        }
    }
}

/// A packet named and decoded: its def when the session's map and the
/// set know its opcode, and its value, or why there is none.
///
/// The def's version is the one the [`Namer`](crate::Namer)'s
/// [`VersionRule`](crate::VersionRule) chose for the session (by exact fit
/// by default); [`Named::exact`] says whether that version fits every
/// packet of the name the session carried.
#[derive(Clone, Debug, PartialEq)]
pub struct Named {
    /// The def that read it.
    pub def: Option<Def>,
    /// Its value, or why it has none (an opcode no map names, a name the
    /// set lacks, bytes that do not decode).
    pub value: Result<PacketValue, String>,
    /// Whether the def's version fits every packet of its name seen in the
    /// session exactly (`None`: not tried, the name has one version or the
    /// rule is [`VersionRule::Latest`](crate::VersionRule::Latest)).
    pub exact: Option<bool>,
}

impl Named {
    /// The record of a packet read by loaded defs, or why there is none.
    ///
    /// # Errors
    /// Why the packet has no value, or that it was read by compiled-in
    /// defs (see [`PacketValue::typed`]) or as JSON.
    pub fn record(&self) -> Result<&Record<'static>, String> {
        let value = self.value.as_ref().map_err(Clone::clone)?;
        value.record().ok_or_else(|| {
            let def = self.def.as_ref().map_or_else(String::new, Def::to_string);
            format!("{def} was read as a typed packet or JSON, not a record")
        })
    }

    /// Its JSON, compact, or why it has none.
    ///
    /// # Errors
    /// Why the packet has no value, or why serde cannot write it.
    pub fn to_json(&self) -> Result<Vec<u8>, String> {
        self.value
            .as_ref()
            .map_err(Clone::clone)?
            .to_json()
            .map_err(|e| e.to_string())
    }
}
