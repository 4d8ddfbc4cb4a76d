//! One way to look packets up and read or write them, whatever holds the
//! defs: the packets compiled into `tera-data` ([`Compiled`](crate::Compiled))
//! or defs loaded at run time ([`tera_dynamic::Catalog`]).

use std::sync::Arc;

use tera_data::ProtocolMap;
use tera_defs_front::{DefSpec, parse_def_spec, suggest};

use crate::def::{CodecError, Def, DefInfo, ResolveError};
use crate::named::PacketValue;

/// A set of packet defs: looked up by name and version, by opcode through a
/// protocol map, or as the latest version of a name; a packet read as JSON
/// and JSON written as a packet, the same JSON whichever set holds the def.
///
/// The required methods are what a set knows; the provided ones are the
/// lookup rules every user shares (the CLI's `decode`, `encode`, `list`
/// and `capture`, the session readers, the proxy).
pub trait PacketSet {
    /// Every def of the set: by name, then version; platform defs
    /// (`NAME.VERSION.PLATFORM.def`) beside the others.
    fn defs(&self) -> Vec<DefInfo<'_>>;

    /// The versions of `name` without platform infix, ascending (empty
    /// when the set has no such name).
    fn versions(&self, name: &str) -> Vec<u32>;

    /// The protocol maps that come with the set (compiled in, or found
    /// beside the loaded defs), any order.
    fn protocol_maps(&self) -> Vec<Arc<ProtocolMap>>;

    /// What the set is, for messages: "compiled in" or "loaded".
    fn what(&self) -> &'static str;

    /// How a user sees the names of the set, for messages.
    fn list_hint(&self) -> &'static str;

    /// Reads `packet` (whole, header included) as `def` and appends its
    /// JSON to `out` (indented when `pretty`).
    ///
    /// # Errors
    /// [`CodecError::Unknown`] or [`CodecError::Decode`].
    fn write_json(
        &self,
        def: &Def,
        packet: &[u8],
        pretty: bool,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError>;

    /// Reads `json` as a value of `def` and encodes it, with `opcode` in
    /// its header, into `out` (replacing what it held).
    ///
    /// # Errors
    /// [`CodecError::Unknown`], [`CodecError::NotAValue`] or
    /// [`CodecError::Encode`].
    fn encode_json(
        &self,
        def: &Def,
        opcode: u16,
        json: &str,
        out: &mut Vec<u8>,
    ) -> Result<(), CodecError>;

    /// Reads `packet` (whole, header included) as `def`, into a value: a
    /// dynamic record for loaded defs, the typed packet for compiled ones.
    ///
    /// # Errors
    /// [`CodecError::Unknown`] or [`CodecError::Decode`].
    fn read(&self, def: &Def, packet: &[u8]) -> Result<PacketValue, CodecError>;

    /// Whether `packet` is exactly what `def` describes: it decodes with no
    /// byte left over and its value encodes back to the same bytes. Why
    /// not, when it is not.
    ///
    /// # Errors
    /// The first way the packet departs from the def.
    fn fit(&self, def: &Def, packet: &[u8]) -> Result<(), String>;

    /// Version `version` of `name`, when the set holds it.
    fn lookup(&self, name: &str, version: u32) -> Option<Def> {
        self.versions(name)
            .contains(&version)
            .then(|| Def::new(name, version))
    }

    /// The highest version of `name`.
    fn lookup_latest(&self, name: &str) -> Option<Def> {
        let version = *self.versions(name).last()?;
        Some(Def::new(name, version))
    }

    /// `name` at `version`, or at its highest version when `None`; the
    /// error says what the set holds instead (names close to a typo, the
    /// versions of a known name).
    ///
    /// # Errors
    /// [`ResolveError::UnknownName`] or [`ResolveError::UnknownVersion`].
    fn resolve(&self, name: &str, version: Option<u32>) -> Result<Def, ResolveError> {
        let known = self.versions(name);
        let Some(&highest) = known.last() else {
            return Err(self.unknown_name(name));
        };
        match version {
            None => Ok(Def::new(name, highest)),
            Some(v) if known.contains(&v) => Ok(Def::new(name, v)),
            Some(v) => Err(ResolveError::UnknownVersion {
                name: name.to_owned(),
                version: v,
                known,
                what: self.what(),
            }),
        }
    }

    /// A def written `S_CHAT`, `S_CHAT.4` or `S_CHAT.4.def`, resolved as
    /// [`resolve`](PacketSet::resolve) does.
    ///
    /// # Errors
    /// [`ResolveError::NotADef`] for another shape (or a platform infix),
    /// else as [`resolve`](PacketSet::resolve).
    fn resolve_spec(&self, spec: &str) -> Result<Def, ResolveError> {
        let (name, version) = split_spec(spec)?;
        self.resolve(&name, version)
    }

    /// The def `map` names `opcode`, at `version` or the highest.
    ///
    /// # Errors
    /// [`ResolveError::UnknownOpcode`], or
    /// [`ResolveError::MappedButUnknown`] when the set lacks the name.
    fn lookup_opcode(
        &self,
        map: &ProtocolMap,
        opcode: u16,
        version: Option<u32>,
    ) -> Result<Def, ResolveError> {
        let name = map
            .name(opcode)
            .ok_or(ResolveError::UnknownOpcode(opcode))?;
        self.resolve(name, version)
            .map_err(|e| ResolveError::MappedButUnknown {
                opcode,
                name: name.to_owned(),
                source: Box::new(e),
            })
    }

    /// The error for a name the set does not hold, with the names close
    /// to it.
    fn unknown_name(&self, name: &str) -> ResolveError {
        let defs = self.defs();
        let mut names: Vec<&str> = defs.iter().map(|d| d.name).collect();
        names.dedup();
        let limit = suggest::typo_limit(name.chars().count(), 2);
        ResolveError::UnknownName {
            name: name.to_owned(),
            near: suggest::nearest(name, &names, limit)
                .into_iter()
                .map(str::to_owned)
                .collect(),
            hint: self.list_hint(),
        }
    }
}

/// Splits `S_CHAT.4.def`, `S_CHAT.4` or `S_CHAT` into name and version.
///
/// # Errors
/// [`ResolveError::NotADef`] for another shape, or a platform infix
/// (lookups take defs without one).
pub fn split_spec(spec: &str) -> Result<(String, Option<u32>), ResolveError> {
    match parse_def_spec(spec) {
        Ok(DefSpec {
            name,
            version,
            platform: None,
        }) => Ok((name, version)),
        _ => Err(ResolveError::NotADef(spec.to_owned())),
    }
}
