//! Hooks: what they are registered for, in which order they run, which
//! packets they see, and their functions, which get the state of their mod.

use std::ops::RangeBounds;

use tera_data::{AnyPacket, PACKETS, ProtocolMap, latest_version};
use tera_dynamic::{Catalog, Record};
use tera_packets::{Packet, PacketType};

use crate::dynamic::schema_of;
use crate::encode::{encode_any, encode_packet};
use crate::error::{HookError, PacketError};
use crate::event::{Added, CallFn, Event, Input};
use crate::id::HookId;
use crate::meta::{HookKind, HookMeta, Version};
use crate::raw::RawPacket;
use crate::verdict::{Filter, Outcome, Verdict};

/// Boxes `f` as a table function (the bound gives the closure its
/// higher-ranked signature).
pub(crate) fn call_fn<M, F>(f: F) -> CallFn<M>
where
    F: for<'e, 'a> FnMut(&mut M, &mut Event<'e, M>, Input<'a>) -> Option<Outcome> + Send + 'static,
{
    Box::new(f)
}

/// A hook to register: what it is for, when it runs, which packets it sees
/// and its function, which gets `&mut M`, the state of mod `M` on the
/// connection (`()`: a hook outside any mod).
///
/// A hook outside any mod is made by [`Hook::on`], [`Hook::raw`],
/// [`Hook::typed`] or [`Hook::dynamic`] and added to a connection
/// ([`Connection::add_hook`](crate::Connection::add_hook)); a mod's hook by
/// [`Mod::on`](crate::Mod::on) and the like, and added in its
/// [`install`](crate::Mod::install) or by its own hooks. A hook of one mod
/// cannot be added to another: its type says whose state it takes.
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
pub struct Hook<M = ()> {
    pub(crate) meta: HookMeta,
    pub(crate) f: CallFn<M>,
}

impl<M> core::fmt::Debug for Hook<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hook")
            .field("target", &self.meta.target())
            .field("order", &self.meta.order)
            .field("filter", &self.meta.filter)
            .field("once", &self.meta.once)
            .finish_non_exhaustive()
    }
}

impl<M> Hook<M> {
    pub(crate) fn from_parts(meta: HookMeta, f: CallFn<M>) -> Hook<M> {
        Hook { meta, f }
    }

    /// Where the hook runs among the others: lower first; hooks of the same
    /// order run in the order they were added. Default 0.
    #[must_use]
    pub fn order(mut self, order: i32) -> Self {
        self.meta.order = order;
        self
    }

    /// Which packets the hook sees. Default [`Filter::default`].
    #[must_use]
    pub fn filter(mut self, filter: Filter) -> Self {
        self.meta.filter = filter;
        self
    }

    /// Removes the hook after its first call (tera-toolbox's `hookOnce`):
    /// the first packet it is called for, whatever it answers.
    #[must_use]
    pub fn once(mut self) -> Self {
        self.meta.once = true;
        self
    }

    /// Runs the hook only on connections whose client's major patch is in
    /// `patches` (read from the client's `C_LOGIN_ARBITER`, see
    /// [`Event::patch`]): a packet's def version chosen by patch, as
    /// tera-toolbox mods write `mod.majorPatchVersion >= 101 ? 17 : 16`.
    /// While the patch is unknown (before the login, or a client that
    /// never says it), only a hook whose range has no upper bound runs:
    /// the newest clients'.
    ///
    /// ```
    /// use tera_data::packets::s_chat;
    /// use tera_proxy::{Hook, Verdict};
    ///
    /// let old = Hook::raw("S_CHAT", |_, _| Verdict::Pass).patches(..92);
    /// let new = Hook::on::<s_chat::V4>(|_, _| Verdict::Pass).patches(92..);
    /// ```
    #[must_use]
    pub fn patches(mut self, patches: impl RangeBounds<u32>) -> Self {
        self.meta.patches = Some((patches.start_bound().cloned(), patches.end_bound().cloned()));
        self
    }

    /// One hook per row of `versions`, `(since_patch, version)` in
    /// ascending patch order, each made by `make(version)` and run on the
    /// patches from its row's to the next row's
    /// ([`patches`](Hook::patches)): a packet whose def version changed
    /// between patches, hooked once in the mod's code. With a dynamic
    /// hook, one function reads every version's fields by name.
    ///
    /// ```
    /// use tera_proxy::{Hook, Verdict, Version};
    ///
    /// // S_PARTY_MEMBER_STAT_UPDATE.3 before patch 108, .4 from it on.
    /// let hooks = Hook::by_patch(&[(0, 3), (108, 4)], |version| {
    ///     Hook::dynamic("S_PARTY_MEMBER_STAT_UPDATE", Version::Exact(version), |_, stat| {
    ///         println!("{:?}", stat.get("curHp"));
    ///         Verdict::Pass
    ///     })
    /// });
    /// assert_eq!(hooks.len(), 2);
    /// ```
    pub fn by_patch(versions: &[(u32, u32)], mut make: impl FnMut(u32) -> Hook<M>) -> Vec<Hook<M>> {
        let mut hooks = Vec::with_capacity(versions.len());
        for (at, &(since, version)) in versions.iter().enumerate() {
            let hook = make(version);
            hooks.push(match versions.get(at + 1) {
                Some(&(next, _)) => hook.patches(since..next),
                None => hook.patches(since..),
            });
        }
        hooks
    }

    /// What the hook is for: `*`, `S_CHAT` (raw), `S_CHAT.4` (typed),
    /// `command afk`.
    #[must_use]
    pub fn target(&self) -> String {
        self.meta.target()
    }
}

impl Hook {
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
        Hook::on_state::<P>(move |(), event, packet| hook(event, packet))
    }

    /// A raw hook on the packets named `name` (through the connection's
    /// protocol map), or on every packet when `name` is `"*"` (packets the
    /// map does not name included).
    pub fn raw(
        name: &str,
        mut hook: impl FnMut(&mut Event<'_>, &mut RawPacket<'_>) -> Verdict + Send + 'static,
    ) -> Hook {
        Hook::raw_state(name, move |(), event, packet| hook(event, packet))
    }

    /// A typed hook on packet `name` chosen at run time, decoded as
    /// `version` of the compiled-in defs, in its [`AnyPacket`] variant. It
    /// sees only packets that decode, as [`on`](Hook::on).
    ///
    /// # Errors
    /// [`HookError::UnknownPacket`] when no such def is compiled in.
    pub fn typed(
        name: &str,
        version: Version,
        mut hook: impl for<'e, 'p> FnMut(&mut Event<'e>, &mut AnyPacket<'p>) -> Verdict + Send + 'static,
    ) -> Result<Hook, HookError> {
        Hook::typed_state(name, version, move |(), event, packet| hook(event, packet))
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
        Hook::dynamic_state(name, version, move |(), event, packet| hook(event, packet))
    }
}

impl<M: 'static> Hook<M> {
    /// [`Hook::on`] with the state of mod `M` ([`Mod::on`](crate::Mod::on)).
    pub(crate) fn on_state<P: PacketType + 'static>(
        mut hook: impl for<'e, 'p> FnMut(&mut M, &mut Event<'e, M>, &mut P::At<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Hook<M> {
        let f = call_fn(move |me: &mut M, event: &mut Event<'_, M>, input| {
            let Input::Packet(bytes) = input else {
                return Some((Verdict::Pass, None));
            };
            let mut value = <P::At<'_> as Packet<'_>>::decode(bytes).ok()?;
            let verdict = hook(me, event, &mut value);
            let change =
                (verdict == Verdict::Changed).then(|| encode_packet(&value, event.opcode()));
            Some((verdict, change))
        });
        let meta = HookMeta::new(
            Some(<P::At<'static> as Packet<'static>>::NAME.to_owned()),
            HookKind::Typed(<P::At<'static> as Packet<'static>>::VERSION),
        );
        Hook { meta, f }
    }

    /// [`Hook::raw`] with the state of mod `M`.
    pub(crate) fn raw_state(
        name: &str,
        mut hook: impl FnMut(&mut M, &mut Event<'_, M>, &mut RawPacket<'_>) -> Verdict + Send + 'static,
    ) -> Hook<M> {
        let f = call_fn(move |me: &mut M, event: &mut Event<'_, M>, input| {
            let Input::Packet(bytes) = input else {
                return Some((Verdict::Pass, None));
            };
            let mut raw = RawPacket::new(bytes);
            let verdict = hook(me, event, &mut raw);
            let change = match (verdict, raw.into_change()) {
                (Verdict::Changed, std::borrow::Cow::Owned(bytes)) => Some(Ok(bytes)),
                _ => None,
            };
            Some((verdict, change))
        });
        let meta = HookMeta::new((name != "*").then(|| name.to_owned()), HookKind::Raw);
        Hook { meta, f }
    }

    /// [`Hook::typed`] with the state of mod `M`.
    pub(crate) fn typed_state(
        name: &str,
        version: Version,
        mut hook: impl for<'e, 'p> FnMut(&mut M, &mut Event<'e, M>, &mut AnyPacket<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Result<Hook<M>, HookError> {
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
        let f = call_fn(move |me: &mut M, event: &mut Event<'_, M>, input| {
            let Input::Packet(bytes) = input else {
                return Some((Verdict::Pass, None));
            };
            let mut value = AnyPacket::decode(&owned_name, version, bytes).ok()?;
            let verdict = hook(me, event, &mut value);
            let change = (verdict == Verdict::Changed).then(|| encode_any(&value, event.opcode()));
            Some((verdict, change))
        });
        let meta = HookMeta::new(Some(name.to_owned()), HookKind::Typed(version));
        Ok(Hook { meta, f })
    }

    /// [`Hook::dynamic`] with the state of mod `M`.
    pub(crate) fn dynamic_state(
        name: &str,
        version: Version,
        mut hook: impl for<'e, 'p> FnMut(&mut M, &mut Event<'e, M>, &mut Record<'p>) -> Verdict
        + Send
        + 'static,
    ) -> Hook<M> {
        let owned_name = name.to_owned();
        let f = call_fn(move |me: &mut M, event: &mut Event<'_, M>, input| {
            let Input::Packet(bytes) = input else {
                return Some((Verdict::Pass, None));
            };
            let schema = schema_of(event.runtime_defs(), &owned_name, version.exact()).ok()?;
            let mut value = schema.decode(bytes).ok()?;
            let verdict = hook(me, event, &mut value);
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
        let meta = HookMeta::new(Some(name.to_owned()), HookKind::Dynamic(version));
        Hook { meta, f }
    }
}

impl<M> Event<'_, M> {
    /// Adds a hook (or command, or signal subscriber) of this call's mod,
    /// which sees the packets after this one and is removed with the mod.
    /// A hook of another mod does not compile: its type is `Hook<Other>`.
    ///
    /// # Errors
    /// [`HookError::NotInMap`] when the connection's map is known and has
    /// no packet of the hook's name; [`HookError::RuntimeDef`] for a
    /// dynamic hook whose def the connection does not have.
    pub fn add_hook(&mut self, hook: Hook<M>) -> Result<HookId, HookError> {
        let scene = &self.cx.scene;
        let setting = Setting {
            map: scene.map,
            revision: scene.revision,
            defs: scene.defs,
        };
        check_hook(&hook.meta, &setting)?;
        let id = scene.ids.hook();
        let key = self.fns.insert(hook.f);
        self.cx.changes.added.push(Added {
            id,
            owner: self.cx.owner,
            key,
            meta: hook.meta,
        });
        Ok(id)
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

/// Checks that a hook can run where it is added: its name is in the map
/// (when the map is known) and a dynamic hook's def is in the runtime
/// defs.
pub(crate) fn check_hook(meta: &HookMeta, setting: &Setting<'_>) -> Result<(), HookError> {
    if let (HookKind::Dynamic(version), Some(name)) = (meta.kind, &meta.name) {
        schema_of(setting.defs, name, version.exact())?;
    }
    if let (Some(map), Some(name)) = (setting.map, meta.packet_name())
        && map.code(name).is_none()
    {
        return Err(HookError::NotInMap {
            name: name.to_owned(),
            revision: setting.revision,
        });
    }
    Ok(())
}
