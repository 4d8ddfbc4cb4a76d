//! Packets a mod brings the def of, as text (tera-toolbox's
//! `dispatch.addDefinition`): hooked by name and read and changed by field
//! name, as runtime defs are, and sent. For a packet the project does not
//! compile in, without hand-writing its struct.

use std::sync::Arc;

use tera_dynamic::{Catalog, Record, Schema};

use crate::encode::send_direction;
use crate::error::{HookError, PacketError};
use crate::event::{Event, Injection, Input};
use crate::hooks::{Hook, call_fn};
use crate::meta::{HookKind, HookMeta};
use crate::verdict::Verdict;

/// A packet def a mod ships as text: `NAME.VERSION` and its fields, as a
/// `.def` file of tera-data holds them.
///
/// ```
/// use tera_proxy::{Mod, PacketDef, Setup, Verdict};
///
/// /// Where the player died: two fields of S_DEAD_LOCATION.2, a packet
/// /// the project does not compile in.
/// const DEAD_LOCATION: &str = "uint64 gameId\nvec3 loc\n";
///
/// struct Deaths {
///     dead: PacketDef,
/// }
///
/// impl Mod for Deaths {
///     const NAME: &'static str = "deaths";
///     fn install(&mut self, setup: &mut Setup<Self>) -> Result<(), tera_proxy::HookError> {
///         setup.hook(Self::shipped(&self.dead, |_, event, dead| {
///             event.log(format!("{:?} died at {:?}", dead.get("gameId"), dead.get("loc")));
///             Verdict::Pass
///         }));
///         Ok(())
///     }
/// }
///
/// let dead = PacketDef::parse("S_DEAD_LOCATION", 2, DEAD_LOCATION)?;
/// let _ = Deaths { dead };
/// # Ok::<(), tera_proxy::HookError>(())
/// ```
#[derive(Clone)]
pub struct PacketDef {
    schema: Arc<Schema>,
}

impl core::fmt::Debug for PacketDef {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "PacketDef({}.{})", self.name(), self.version())
    }
}

impl PacketDef {
    /// Reads the def of packet `name`, version `version`, from `text` (a
    /// `.def` file's content).
    ///
    /// # Errors
    /// [`HookError::BadDef`] with what is wrong and where.
    pub fn parse(name: &str, version: u32, text: &str) -> Result<PacketDef, HookError> {
        let file_name = format!("{name}.{version}.def");
        let schema =
            Catalog::new()
                .add_def(&file_name, text)
                .map_err(|report| HookError::BadDef {
                    def: file_name,
                    report: report.render(false),
                })?;
        Ok(PacketDef { schema })
    }

    /// The packet's name.
    #[must_use]
    pub fn name(&self) -> &str {
        self.schema.name()
    }

    /// The def's version.
    #[must_use]
    pub fn version(&self) -> u32 {
        self.schema.version()
    }

    /// A value of the packet with every field zero or empty, to set
    /// (`record.get_mut("amount")`) and send ([`Event::send_record`]).
    #[must_use]
    pub fn zero(&self) -> Record<'static> {
        self.schema.zero()
    }

    /// `packet` (whole) read as this def.
    ///
    /// # Errors
    /// [`tera_dynamic::DecodeError`]: what does not decode, and where.
    pub fn decode<'a>(&self, packet: &'a [u8]) -> Result<Record<'a>, tera_dynamic::DecodeError> {
        self.schema.decode(packet)
    }

    /// `record` encoded as this def, with `opcode` in its header.
    ///
    /// # Errors
    /// [`PacketError::Dynamic`] when a value does not fit its field.
    pub fn encode(&self, record: &Record<'_>, opcode: u16) -> Result<Vec<u8>, PacketError> {
        self.schema
            .encode(record, opcode)
            .map_err(|source| PacketError::Dynamic {
                name: self.name().to_owned(),
                source,
            })
    }
}

impl Hook {
    /// A hook outside any mod on the packets of a shipped def (see
    /// [`Mod::shipped`](crate::Mod::shipped)).
    pub fn shipped(
        def: &PacketDef,
        mut hook: impl for<'e, 'p> FnMut(&mut Event<'e>, &mut Record<'p>) -> Verdict + Send + 'static,
    ) -> Hook {
        Hook::shipped_state(def, move |(), event, packet| hook(event, packet))
    }
}

impl<M: 'static> Hook<M> {
    /// [`Hook::shipped`] with the state of mod `M`.
    pub(crate) fn shipped_state(
        def: &PacketDef,
        mut hook: impl for<'e, 'p> FnMut(&mut M, &mut Event<'e, M>, &mut Record<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Hook<M> {
        let def_of_hook = def.clone();
        let f = call_fn(move |me: &mut M, event: &mut Event<'_, M>, input| {
            let Input::Packet(bytes) = input else {
                return Some((Verdict::Pass, None));
            };
            let mut value = def_of_hook.decode(bytes).ok()?;
            let verdict = hook(me, event, &mut value);
            let change =
                (verdict == Verdict::Changed).then(|| def_of_hook.encode(&value, event.opcode()));
            Some((verdict, change))
        });
        let meta = HookMeta::new(
            Some(def.name().to_owned()),
            HookKind::Shipped(def.version()),
        );
        Hook::from_parts(meta, f)
    }
}

/// The hook maker of shipped defs for mods, beside
/// [`Mod::dynamic`](crate::Mod::dynamic).
pub(crate) fn shipped_hook<M: 'static>(
    def: &PacketDef,
    hook: impl for<'e, 'p> FnMut(&mut M, &mut Event<'e, M>, &mut Record<'p>) -> Verdict + Send + 'static,
) -> Hook<M> {
    Hook::shipped_state(def, hook)
}

impl<M> Event<'_, M> {
    /// Sends `record`, a value of shipped def `def`, towards the side its
    /// name says (`C_` to the server, `S_` and `I_` to the client).
    ///
    /// # Errors
    /// [`PacketError`] when the name says no direction, the map has no
    /// opcode for it, or the value does not encode as the def.
    pub fn send_record(&mut self, def: &PacketDef, record: &Record<'_>) -> Result<(), PacketError> {
        let dir = send_direction(def.name())?;
        let opcode = self
            .cx
            .scene
            .map
            .and_then(|map| map.code(def.name()))
            .ok_or_else(|| PacketError::NoOpcodeFor(def.name().to_owned()))?;
        let packet = def.encode(record, opcode)?;
        self.cx.injected.push(Injection { dir, packet });
        Ok(())
    }
}
