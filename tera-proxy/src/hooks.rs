//! Hooks: what they are registered for, in which order they run, which
//! packets they see, and what they answer.

use std::borrow::Cow;

use tera_data::{AnyPacket, PACKETS, latest_version};

use crate::error::HookError;
use crate::event::Event;

/// Identifies a registered hook, to remove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct HookId(pub(crate) u64);

impl core::fmt::Display for HookId {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Which def version a typed hook decodes its packet as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Version {
    /// This version (`S_CHAT.2.def`).
    Exact(u32),
    /// The highest version compiled in.
    Latest,
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

/// A raw hook: sees the bytes.
pub type RawFn = Box<dyn FnMut(&mut Event<'_>, &mut RawPacket<'_>) -> Verdict + Send>;

/// A typed hook: sees the packet decoded (zero copy) as the generated
/// struct of its name and version, in its [`AnyPacket`] variant.
pub type TypedFn = Box<dyn for<'p> FnMut(&mut Event<'_>, &mut AnyPacket<'p>) -> Verdict + Send>;

pub(crate) enum Callback {
    Raw(RawFn),
    Typed { version: u32, hook: TypedFn },
}

/// A hook to register: what it is for, when it runs, which packets it sees
/// and the function.
///
/// ```
/// use tera_proxy::{Filter, Hook, Verdict, Version};
///
/// // Every packet, first, injected ones too.
/// let log = Hook::raw("*", |event, packet| {
///     println!("{} {} bytes", event.direction(), packet.bytes().len());
///     Verdict::Pass
/// })
/// .order(-100)
/// .filter(Filter { fake: None, ..Filter::default() });
///
/// // The newest compiled-in S_CHAT, typed.
/// let chat = Hook::typed("S_CHAT", Version::Latest, |_, chat| {
///     println!("{}.{}", chat.name(), chat.version());
///     Verdict::Pass
/// })?;
/// # Ok::<(), tera_proxy::HookError>(())
/// ```
pub struct Hook {
    pub(crate) name: Option<String>,
    pub(crate) order: i32,
    pub(crate) filter: Filter,
    pub(crate) callback: Callback,
}

impl core::fmt::Debug for Hook {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Hook")
            .field("target", &self.target())
            .field("order", &self.order)
            .field("filter", &self.filter)
            .finish_non_exhaustive()
    }
}

impl Hook {
    /// A raw hook on the packets named `name` (through the connection's
    /// protocol map), or on every packet when `name` is `"*"` (packets the
    /// map does not name included).
    pub fn raw<F>(name: &str, hook: F) -> Hook
    where
        F: FnMut(&mut Event<'_>, &mut RawPacket<'_>) -> Verdict + Send + 'static,
    {
        Hook {
            name: (name != "*").then(|| name.to_owned()),
            order: 0,
            filter: Filter::default(),
            callback: Callback::Raw(Box::new(hook)),
        }
    }

    /// A typed hook on packet `name`, decoded as `version`. It sees only
    /// packets that decode; one that does not is passed on and counted in
    /// [`DirectionStats::decode_errors`](crate::DirectionStats::decode_errors).
    ///
    /// # Errors
    /// [`HookError::UnknownPacket`] when no such def is compiled in.
    pub fn typed<F>(name: &str, version: Version, hook: F) -> Result<Hook, HookError>
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
        Ok(Hook {
            name: Some(name.to_owned()),
            order: 0,
            filter: Filter::default(),
            callback: Callback::Typed {
                version,
                hook: Box::new(hook),
            },
        })
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

    /// What the hook is for: `*`, `S_CHAT` (raw) or `S_CHAT.2` (typed).
    #[must_use]
    pub fn target(&self) -> String {
        match (&self.name, &self.callback) {
            (None, _) => "*".to_owned(),
            (Some(name), Callback::Raw(_)) => name.clone(),
            (Some(name), Callback::Typed { version, .. }) => format!("{name}.{version}"),
        }
    }
}
