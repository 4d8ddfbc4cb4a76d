//! A struct's walk as a flat list of operations, with every metadata
//! position worked out at load time (`lower` makes them from the wire
//! plan): decoding and encoding run down the list without looking at the
//! plan again.

use tera_defs_front::model::Scalar;

use crate::scalars::for_each_scalar;

/// The operations of one walk over a struct (every step, or a split
/// object's part), in wire order.
#[derive(Debug, Clone)]
pub(crate) struct Program {
    pub(crate) ops: Box<[Op]>,
    /// The same walk for writing: each run of scalar operations one
    /// [`Op::Chunk`] or [`Op::Run`].
    pub(crate) writes: Box<[Op]>,
    /// The same walk for a first read, which need not say where a packet
    /// ends too soon: runs of scalar operations that a chunk saves
    /// dispatches on are one [`Op::Chunk`].
    pub(crate) reads: Box<[Op]>,
    /// The metadata words of the walk's implicit slots: what a block
    /// reserves at its front, what an object hoists.
    pub(crate) words: usize,
}

/// Where a variable field's metadata words are.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Meta {
    /// This many bytes past the struct's metadata position (an implicit
    /// slot).
    Slot(usize),
    /// This many bytes past the start of the walk: an explicit ref with
    /// fields of fixed size only before it.
    Fixed(usize),
    /// Where explicit ref number `k` of the walk put them (a ref after a
    /// string, bytes, array or object).
    Ref(usize),
    /// At the cursor (an explicit block whose ref comes later).
    Cursor,
}

/// Declares [`Op`] from the scalar list, with [`match_op!`] and
/// [`Op::scalar_fields`], which match every scalar operation.
macro_rules! op_enum {
    ([$d:tt] $($v:ident($t:ty) $acc:ident $class:ident $doc:literal,)*) => {
        /// One operation of a walk. A scalar field has an operation of its
        /// own type, so that running a walk takes one dispatch per run of
        /// fields. Scalar operations: consecutive fields of that scalar at
        /// the cursor (a repeated field is read again: the later copy
        /// wins, as in the generated packets).
        #[derive(Debug, Clone)]
        pub(crate) enum Op {
            $($v(Fields),)*
            /// A string, bytes, array or object field whose metadata is at `meta`.
            Var {
                field: usize,
                meta: Meta,
            },
            /// An explicit `ref`: `bytes` of metadata at the cursor, remembered as
            /// ref number `k`.
            Ref {
                k: usize,
                bytes: usize,
            },
            /// An explicit ref whose place is known from the walk's start
            /// ([`Meta::Fixed`]): `bytes` of metadata at the cursor, nothing to
            /// remember. Consecutive ones are one in [`Program::writes`] and
            /// [`Program::reads`] (a walk that says where a packet ends too soon
            /// names the ref that runs past it, as the generated packets do).
            Skip(usize),
            /// Part `part` of the split object `field`, whose slots are `meta`
            /// bytes past the struct's metadata position.
            Part {
                field: usize,
                part: usize,
                meta: usize,
            },
            /// Arrays whose elements alternate on the wire, with their metadata.
            Interleaved(Box<[(usize, Meta)]>),
            /// Consecutive scalar operations taken as one (only in
            /// [`Program::writes`] and [`Program::reads`]).
            Chunk(Box<Chunk>),
            /// Consecutive scalar operations over fields in field order, of many
            /// types and few of each, taken as one (only in [`Program::writes`]).
            Run(Box<Run>),
        }

        impl Op {
            /// The operation reading scalar `s` into fields `fields`.
            pub(crate) fn scalar(s: tera_defs_front::model::Scalar, fields: Fields) -> Op {
                match s {
                    $(tera_defs_front::model::Scalar::$v => Op::$v(fields),)*
                }
            }

            /// The fields of a scalar operation.
            pub(crate) fn scalar_fields(&self) -> Option<Fields> {
                match self {
                    $(Op::$v(f))|* => Some(*f),
                    _ => None,
                }
            }

            /// The fields of a scalar operation, to extend.
            pub(crate) fn scalar_fields_mut(&mut self) -> Option<&mut Fields> {
                match self {
                    $(Op::$v(f))|* => Some(f),
                    _ => None,
                }
            }
        }

        /// `match $op { ... }` with an arm per scalar operation that calls
        /// `$call(PhantomData::<RuntimeType>, $args)` (then `?` when written
        /// `$call(..)?`), `$field` bound to the operation's [`Fields`],
        /// followed by the arms given for the other operations. The runtime
        /// type is told by the first argument, so that `$call`'s other type
        /// parameters are inferred.
        macro_rules! match_op {
            ($d op_:expr, $d field_:ident => $d call_:ident($d($d arg_:expr),*)?, $d($d arm_:tt)*) => {
                match $d op_ {
                    $(Op::$v($d field_) => $d call_(std::marker::PhantomData::<$t>, $d($d arg_),*)?,)*
                    $d($d arm_)*
                }
            };
            ($d op_:expr, $d field_:ident => $d call_:ident($d($d arg_:expr),*), $d($d arm_:tt)*) => {
                match $d op_ {
                    $(Op::$v($d field_) => $d call_(std::marker::PhantomData::<$t>, $d($d arg_),*),)*
                    $d($d arm_)*
                }
            };
        }
        pub(crate) use match_op;
    };
}
for_each_scalar!(op_enum [$]);

/// Scalar fields that follow each other on the wire, `bytes` in all, by
/// type: a writer takes the bytes at once and fills them one type after
/// the other, each field at its offset, with one dispatch per type rather
/// than per field. So does a view's first read, which only says whether
/// the packet is whole; the second, over malformed packets, must stop at
/// the first field that runs past the end, in wire order.
#[derive(Debug, Clone)]
pub(crate) struct Chunk {
    pub(crate) bytes: usize,
    /// An operation per scalar type, whose [`Fields`] are a span of
    /// `entries`.
    pub(crate) groups: Box<[Op]>,
    pub(crate) entries: Box<[Entry]>,
}

/// Scalar fields from field `first` on, each once and in field order,
/// `bytes` in all: a writer takes the bytes at once and writes field after
/// field through a cursor of its own (which stays in a register), with one
/// dispatch per field and no operation loop around it.
#[derive(Debug, Clone)]
pub(crate) struct Run {
    pub(crate) first: usize,
    pub(crate) bytes: usize,
    pub(crate) scalars: Box<[Scalar]>,
}

/// A field of a [`Chunk`] and its offset in it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Entry {
    pub(crate) field: u32,
    pub(crate) offset: u32,
}

/// Fields `first..first + count` of a struct: consecutive scalars of one
/// type, one operation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Fields {
    pub(crate) first: usize,
    pub(crate) count: usize,
}

impl Fields {
    /// The fields' indices.
    #[inline]
    pub(crate) fn range(self) -> std::ops::Range<usize> {
        self.first..self.first + self.count
    }
}

impl Meta {
    /// The absolute offset of the metadata, for a struct whose implicit
    /// slots start at `base` and whose walk started at `start`.
    #[inline]
    pub(crate) fn at(self, base: usize, start: usize, refs: &RefPositions, cursor: usize) -> usize {
        match self {
            Meta::Slot(bytes) => base + bytes,
            Meta::Fixed(bytes) => start + bytes,
            Meta::Ref(k) => refs.get(k),
            Meta::Cursor => cursor,
        }
    }
}

/// Where the explicit refs of one walk placed their fields' metadata,
/// by ref number: eight inline (the corpus's most in a block is five), the
/// rest on the heap. Positions are `u32`, as a packet has at most 65535
/// bytes: the inline ones are cleared with one store per walk.
#[derive(Default)]
pub(crate) struct RefPositions {
    inline: [u32; 8],
    more: Vec<u32>,
}

impl RefPositions {
    /// Ref number `k` put its metadata at byte `at`.
    #[inline]
    pub(crate) fn set(&mut self, k: usize, at: usize) {
        let at = u32::try_from(at).unwrap_or(u32::MAX);
        match self.inline.get_mut(k) {
            Some(slot) => *slot = at,
            None => {
                let k = k - self.inline.len();
                if self.more.len() <= k {
                    self.more.resize(k + 1, 0);
                }
                self.more[k] = at;
            }
        }
    }

    /// Where ref number `k` put its metadata (refs are set before the
    /// fields that use them are reached).
    #[inline]
    pub(crate) fn get(&self, k: usize) -> usize {
        let at = match self.inline.get(k) {
            Some(&at) => at,
            None => self.more.get(k - self.inline.len()).copied().unwrap_or(0),
        };
        at as usize
    }
}
