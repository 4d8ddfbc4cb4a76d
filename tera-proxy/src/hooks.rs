//! Hooks: what they are registered for, in which order they run, which
//! packets they see, and what they answer.

use std::any::TypeId;
use std::borrow::Cow;

use tera_data::{AnyPacket, PACKETS, latest_version};
use tera_packets::{Packet, PacketType};

use tera_data::ProtocolMap;
use tera_dynamic::{Catalog, Record};

use crate::dynamic::schema_of;
use crate::encode::{encode_any, encode_packet};
use crate::error::{HookError, PacketError};
use crate::event::Event;
use crate::slot::ModInfo;

/// Which def version a typed hook decodes its packet as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// This version (`S_CHAT.2.def`).
    Exact(u32),
    /// The highest version compiled in (or in the runtime defs).
    Latest,
}

impl Version {
    /// The version, `None` for the latest.
    #[must_use]
    pub fn exact(self) -> Option<u32> {
        match self {
            Version::Exact(v) => Some(v),
            Version::Latest => None,
        }
    }
}

/// A hook's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Let the packet go on unchanged. Changes the hook made to its
    /// argument are dropped.
    Pass,
    /// Let the packet go on as the hook changed it: a typed hook's value is
    /// encoded in the packet's place, a raw hook's
    /// [`bytes_mut`](RawPacket::bytes_mut) are sent (their length field is
    /// set from their size). A packet blocked by an earlier hook goes on
    /// again.
    Changed,
    /// Do not forward the packet. Later hooks see it only if their
    /// [`Filter::silenced`] admits blocked packets.
    Block,
}

/// Which packets a hook sees, as tera-toolbox's `fake`, `modified` and
/// `silenced` options: `Some(true)` only those, `Some(false)` none of
/// those, `None` both.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Filter {
    /// Packets injected (by a hook or a handle) rather than read from the
    /// wire. Default `Some(false)`: real packets only.
    pub fake: Option<bool>,
    /// Packets changed by an earlier hook. Default `None`: both.
    pub modified: Option<bool>,
    /// Packets blocked by an earlier hook. Default `Some(false)`: not those.
    pub silenced: Option<bool>,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            fake: Some(false),
            modified: None,
            silenced: Some(false),
        }
    }
}

impl Filter {
    /// Every packet: real or injected, changed or not, blocked or not.
    pub const ALL: Filter = Filter {
        fake: None,
        modified: None,
        silenced: None,
    };

    pub(crate) fn admits(&self, fake: bool, modified: bool, silenced: bool) -> bool {
        let ok = |want: Option<bool>, is: bool| want.is_none_or(|w| w == is);
        ok(self.fake, fake) && ok(self.modified, modified) && ok(self.silenced, silenced)
    }
}

/// A packet as bytes (header included), for raw hooks.
///
/// Reading borrows the relay's buffer; the first
/// [`bytes_mut`](RawPacket::bytes_mut) copies it. The copy is sent only if
/// the hook answers [`Verdict::Changed`].
#[derive(Debug)]
pub struct RawPacket<'b> {
    original: &'b [u8],
    changed: Option<Vec<u8>>,
}

impl<'b> RawPacket<'b> {
    pub(crate) fn new(original: &'b [u8]) -> Self {
        RawPacket {
            original,
            changed: None,
        }
    }

    /// The packet, with any change made so far.
    #[must_use]
    pub fn bytes(&self) -> &[u8] {
        self.changed.as_deref().unwrap_or(self.original)
    }

    /// The opcode in the header.
    #[must_use]
    pub fn opcode(&self) -> u16 {
        tera_net::framing::opcode(self.bytes()).unwrap_or_default()
    }

    /// The packet to change in place (its size may change; the relay sets
    /// the length field when it sends it).
    pub fn bytes_mut(&mut self) -> &mut Vec<u8> {
        self.changed.get_or_insert_with(|| self.original.to_vec())
    }

    pub(crate) fn into_change(self) -> Cow<'b, [u8]> {
        match self.changed {
            Some(bytes) => Cow::Owned(bytes),
            None => Cow::Borrowed(self.original),
        }
    }
}

/// What a hook call gave: its verdict and, when it changed the packet, the
/// new bytes (or why they cannot be sent).
pub(crate) type Outcome = (Verdict, Option<Result<Vec<u8>, PacketError>>);

/// A raw hook's function.
type RawFn = Box<dyn FnMut(&mut Event<'_>, &mut RawPacket<'_>) -> Verdict + Send>;

/// A decoding hook's function: decodes the bytes, calls the user's
/// function, encodes its change; `None` when the packet does not decode.
type DecodedFn = Box<dyn FnMut(&mut Event<'_>, &[u8]) -> Option<Outcome> + Send>;

pub(crate) enum Callback {
    Raw(RawFn),
    Decoded {
        version: u32,
        hook: DecodedFn,
    },
    /// Decoded by a def of the connection's runtime defs.
    Dynamic {
        version: Version,
        hook: DecodedFn,
    },
}

/// The mod whose state a hook's function takes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StateType {
    pub(crate) id: TypeId,
    pub(crate) name: &'static str,
}

/// A hook to register: what it is for, when it runs, which packets it sees
/// and the function.
///
/// ```
/// use tera_data::packets::s_chat;
/// use tera_proxy::{Filter, Hook, Verdict};
///
/// // Every packet, first, injected ones too.
/// let log = Hook::raw("*", |event, packet| {
///     println!("{} {} bytes", event.direction(), packet.bytes().len());
///     Verdict::Pass
/// })
/// .order(-100)
/// .filter(Filter { fake: None, ..Filter::default() });
///
/// // S_CHAT.4, typed by its struct: change the message.
/// let chat = Hook::on::<s_chat::V4>(|_, chat| {
///     chat.message = format!("{}!", chat.message).into();
///     Verdict::Changed
/// });
///
/// // The first S_CHAT only.
/// let first = Hook::on::<s_chat::V4>(|_, chat| {
///     println!("first line: {}", chat.message);
///     Verdict::Pass
/// })
/// .once();
/// ```
pub struct Hook {
    pub(crate) name: Option<String>,
    pub(crate) order: i32,
    pub(crate) filter: Filter,
    pub(crate) once: bool,
    pub(crate) state: Option<StateType>,
    pub(crate) callback: Callback,
}

impl core::fmt::Debug for Hook {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hook")
            .field("target", &self.target())
            .field("order", &self.order)
            .field("filter", &self.filter)
            .field("once", &self.once)
            .finish_non_exhaustive()
    }
}

impl Hook {
    fn new(name: Option<String>, callback: Callback) -> Hook {
        Hook {
            name,
            order: 0,
            filter: Filter::default(),
            once: false,
            state: None,
            callback,
        }
    }

    /// A hook on packet type `P` (a generated packet, e.g.
    /// `tera_data::packets::s_chat::V4`, or a `#[derive(Packet)]` struct):
    /// `hook` gets the packet decoded zero-copy as `P`; name and version
    /// come from the type. A packet that does not decode as `P` is passed
    /// on without calling `hook` and counted in
    /// [`DirectionStats::decode_errors`](crate::DirectionStats::decode_errors).
    ///
    /// A type that is not a packet does not compile:
    ///
    /// ```compile_fail
    /// use tera_proxy::{Hook, Verdict};
    ///
    /// struct NotAPacket;
    /// let hook = Hook::on::<NotAPacket>(|_, _| Verdict::Pass);
    /// ```
    pub fn on<P: PacketType + 'static>(
        mut hook: impl for<'e, 'p> FnMut(&mut Event<'e>, &mut P::At<'p>) -> Verdict + Send + 'static,
    ) -> Hook {
        let decoded: DecodedFn = Box::new(move |event, bytes| {
            let mut value = <P::At<'_> as Packet<'_>>::decode(bytes).ok()?;
            let verdict = hook(event, &mut value);
            let change =
                (verdict == Verdict::Changed).then(|| encode_packet(&value, event.opcode()));
            Some((verdict, change))
        });
        Hook::new(
            Some(<P::At<'static> as Packet<'static>>::NAME.to_owned()),
            Callback::Decoded {
                version: <P::At<'static> as Packet<'static>>::VERSION,
                hook: decoded,
            },
        )
    }

    /// A raw hook on the packets named `name` (through the connection's
    /// protocol map), or on every packet when `name` is `"*"` (packets the
    /// map does not name included).
    pub fn raw<F>(name: &str, hook: F) -> Hook
    where
        F: FnMut(&mut Event<'_>, &mut RawPacket<'_>) -> Verdict + Send + 'static,
    {
        Hook::new(
            (name != "*").then(|| name.to_owned()),
            Callback::Raw(Box::new(hook)),
        )
    }

    /// A typed hook on packet `name` chosen at run time, decoded as
    /// `version` of the compiled-in defs, in its [`AnyPacket`] variant. It
    /// sees only packets that decode, as [`on`](Hook::on).
    ///
    /// # Errors
    /// [`HookError::UnknownPacket`] when no such def is compiled in.
    pub fn typed<F>(name: &str, version: Version, mut hook: F) -> Result<Hook, HookError>
    where
        F: for<'e, 'p> FnMut(&mut Event<'e>, &mut AnyPacket<'p>) -> Verdict + Send + 'static,
    {
        let unknown = |version| HookError::UnknownPacket {
            name: name.to_owned(),
            version,
        };
        let version = match version {
            Version::Exact(v) => PACKETS
                .iter()
                .any(|p| p.name == name && p.version == v && p.platform.is_none())
                .then_some(v)
                .ok_or_else(|| unknown(v))?,
            Version::Latest => latest_version(PACKETS, name).ok_or_else(|| unknown(0))?,
        };
        let owned_name = name.to_owned();
        let decoded: DecodedFn = Box::new(move |event, bytes| {
            let mut value = AnyPacket::decode(&owned_name, version, bytes).ok()?;
            let verdict = hook(event, &mut value);
            let change = (verdict == Verdict::Changed).then(|| encode_any(&value, event.opcode()));
            Some((verdict, change))
        });
        Ok(Hook::new(
            Some(name.to_owned()),
            Callback::Decoded {
                version,
                hook: decoded,
            },
        ))
    }

    /// A hook on packet `name` decoded by a def read at run time (the
    /// connection's [`DefSource`](crate::DefSource), `version` of it):
    /// `hook` reads and changes its fields by name; a changed value is
    /// re-encoded in the packet's place, as a typed hook's. A packet that
    /// does not decode is passed on without calling `hook`.
    ///
    /// ```
    /// use tera_proxy::{Hook, Value, Verdict, Version};
    ///
    /// let hook = Hook::dynamic("S_CHAT", Version::Latest, |_, chat| {
    ///     match chat.get_mut("message") {
    ///         Some(Value::String(text)) => {
    ///             *text = format!("{text}!").into();
    ///             Verdict::Changed
    ///         }
    ///         _ => Verdict::Pass,
    ///     }
    /// });
    /// ```
    pub fn dynamic(
        name: &str,
        version: Version,
        mut hook: impl for<'e, 'p> FnMut(&mut Event<'e>, &mut Record<'p>) -> Verdict + Send + 'static,
    ) -> Hook {
        let owned_name = name.to_owned();
        let decoded: DecodedFn = Box::new(move |event, bytes| {
            let schema = schema_of(event.runtime_defs(), &owned_name, version.exact()).ok()?;
            let mut value = schema.decode(bytes).ok()?;
            let verdict = hook(event, &mut value);
            let change = (verdict == Verdict::Changed).then(|| {
                schema
                    .encode(&value, event.opcode())
                    .map_err(|source| PacketError::Dynamic {
                        name: owned_name.clone(),
                        source,
                    })
            });
            Some((verdict, change))
        });
        Hook::new(
            Some(name.to_owned()),
            Callback::Dynamic {
                version,
                hook: decoded,
            },
        )
    }

    /// Where the hook runs among the others: lower first; hooks of the same
    /// order run in the order they were added. Default 0.
    #[must_use]
    pub fn order(mut self, order: i32) -> Hook {
        self.order = order;
        self
    }

    /// Which packets the hook sees. Default [`Filter::default`].
    #[must_use]
    pub fn filter(mut self, filter: Filter) -> Hook {
        self.filter = filter;
        self
    }

    /// Removes the hook after its first call (tera-toolbox's `hookOnce`):
    /// the first packet it is called for, whatever it answers.
    #[must_use]
    pub fn once(mut self) -> Hook {
        self.once = true;
        self
    }

    /// What the hook is for: `*`, `S_CHAT` (raw) or `S_CHAT.4` (typed).
    #[must_use]
    pub fn target(&self) -> String {
        match (&self.name, &self.callback) {
            (None, _) => "*".to_owned(),
            (Some(name), Callback::Raw(_)) => name.clone(),
            (Some(name), Callback::Decoded { version, .. }) => format!("{name}.{version}"),
            (Some(name), Callback::Dynamic { version, .. }) => match version {
                Version::Exact(v) => format!("{name}.{v} (runtime def)"),
                Version::Latest => format!("{name}.latest (runtime def)"),
            },
        }
    }

    /// Marks the hook as needing the state of mod `M`.
    pub(crate) fn of_state<M: 'static>(mut self, name: &'static str) -> Hook {
        self.state = Some(StateType {
            id: TypeId::of::<M>(),
            name,
        });
        self
    }
}

/// What a hook is checked against when it is added: the connection's map
/// and runtime defs.
#[derive(Clone, Copy)]
pub(crate) struct Setting<'s> {
    pub(crate) map: Option<&'s ProtocolMap>,
    pub(crate) revision: Option<u32>,
    pub(crate) defs: Option<&'s Catalog>,
}

/// Checks that `hook` can run where it is added: its name is in the map
/// (when the map is known) and, for a mod's hook, that it is added to that
/// mod.
pub(crate) fn check_hook(
    hook: &Hook,
    scene: &Setting<'_>,
    owner: Option<&ModInfo>,
) -> Result<(), HookError> {
    let Setting {
        map,
        revision,
        defs,
    } = *scene;
    if let (Callback::Dynamic { version, .. }, Some(name)) = (&hook.callback, &hook.name) {
        schema_of(defs, name, version.exact())?;
    }
    if let (Some(map), Some(name)) = (map, &hook.name)
        && map.code(name).is_none()
    {
        return Err(HookError::NotInMap {
            name: name.clone(),
            revision,
        });
    }
    match hook.state {
        Some(state) if owner.is_none_or(|o| o.state_type != state.id) => Err(HookError::WrongMod {
            hook_mod: state.name,
            owner: owner.map(|o| o.name),
        }),
        _ => Ok(()),
    }
}
