//! The extension point for a protocol crate's own error kinds.
//!
//! The derives' generated code returns [`Error`](crate::Error), whatever the
//! protocol: it names the failing field and keeps the byte offset. A crate
//! whose encodings fail in ways TERA's do not (overlong varints, for one)
//! defines its own kind type, implements [`ProtocolErrorKind`] for it, and
//! raises it with [`Error::protocol`](crate::Error::protocol); callers get
//! it back with [`Error::protocol_kind`](crate::Error::protocol_kind). The
//! error stays `Copy` and allocation-free.

use core::any::TypeId;
use core::fmt;
use core::hash::{Hash, Hasher};

/// A protocol crate's own error kind, carried in
/// [`ErrorKind::Protocol`](crate::ErrorKind::Protocol).
///
/// The kind travels as three words: [`ProtocolErrorKind::to_words`] and
/// [`ProtocolErrorKind::from_words`] must be inverses (a code and up to two
/// numbers is the usual shape).
///
/// ```
/// use core::fmt;
/// use tera_packets::{Error, ErrorKind, ProtocolErrorKind};
///
/// #[derive(Debug, Clone, Copy, PartialEq)]
/// enum MyKind {
///     BadMagic { byte: u8 },
/// }
///
/// impl fmt::Display for MyKind {
///     fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
///         match self {
///             MyKind::BadMagic { byte } => write!(f, "bad magic byte {byte:#04x}"),
///         }
///     }
/// }
///
/// impl ProtocolErrorKind for MyKind {
///     fn to_words(self) -> [u32; 3] {
///         match self {
///             MyKind::BadMagic { byte } => [0, u32::from(byte), 0],
///         }
///     }
///     fn from_words(words: [u32; 3]) -> Option<Self> {
///         match words {
///             [0, byte, 0] => Some(MyKind::BadMagic { byte: u8::try_from(byte).ok()? }),
///             _ => None,
///         }
///     }
/// }
///
/// let e = Error::protocol(MyKind::BadMagic { byte: 7 }, 3).in_field("magic");
/// assert_eq!(e.to_string(), "bad magic byte 0x07 at byte 3 (field `magic`)");
/// assert_eq!(e.protocol_kind::<MyKind>(), Some(MyKind::BadMagic { byte: 7 }));
/// assert_eq!(e.kind(), ErrorKind::from(MyKind::BadMagic { byte: 7 }));
/// ```
pub trait ProtocolErrorKind:
    Copy + PartialEq + fmt::Debug + fmt::Display + Send + Sync + 'static
{
    /// The kind as three words.
    fn to_words(self) -> [u32; 3];

    /// The kind back from [`ProtocolErrorKind::to_words`]'s words.
    fn from_words(words: [u32; 3]) -> Option<Self>;
}

/// How to show and recognise the kinds of one [`ProtocolErrorKind`] type.
struct KindVtable {
    type_id: fn() -> TypeId,
    display: fn([u32; 3], &mut fmt::Formatter<'_>) -> fmt::Result,
    debug: fn([u32; 3], &mut fmt::Formatter<'_>) -> fmt::Result,
}

/// The vtable of `K`, as a constant so that `&VTABLE` is `'static`.
struct VtableOf<K>(K);

impl<K: ProtocolErrorKind> VtableOf<K> {
    const VTABLE: KindVtable = KindVtable {
        type_id: TypeId::of::<K>,
        display: |words, f| match K::from_words(words) {
            Some(kind) => fmt::Display::fmt(&kind, f),
            None => write!(f, "protocol error {words:?}"),
        },
        debug: |words, f| match K::from_words(words) {
            Some(kind) => fmt::Debug::fmt(&kind, f),
            None => write!(f, "ProtocolError({words:?})"),
        },
    };
}

/// A protocol crate's error kind, type-erased (see [`ProtocolErrorKind`]).
/// Two are equal when they hold equal kinds of the same type.
#[derive(Clone, Copy)]
pub struct ProtocolError {
    vtable: &'static KindVtable,
    words: [u32; 3],
}

impl ProtocolError {
    /// Carries `kind`.
    pub fn new<K: ProtocolErrorKind>(kind: K) -> Self {
        ProtocolError {
            vtable: &VtableOf::<K>::VTABLE,
            words: kind.to_words(),
        }
    }

    /// The kind, when it is a `K`.
    pub fn get<K: ProtocolErrorKind>(&self) -> Option<K> {
        if (self.vtable.type_id)() == TypeId::of::<K>() {
            K::from_words(self.words)
        } else {
            None
        }
    }
}

impl PartialEq for ProtocolError {
    fn eq(&self, other: &Self) -> bool {
        (self.vtable.type_id)() == (other.vtable.type_id)() && self.words == other.words
    }
}

impl Eq for ProtocolError {}

impl Hash for ProtocolError {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.vtable.type_id)().hash(state);
        self.words.hash(state);
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.vtable.display)(self.words, f)
    }
}

impl fmt::Debug for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.vtable.debug)(self.words, f)
    }
}
