//! Random bytes and random mutations of valid packets never make decoding
//! panic; whatever decodes is walked fully (every array yields exactly
//! `len()` elements) and survives encode -> decode -> encode with an equal
//! value and identical bytes (the encoding is canonical).
//!
//! The packet types are small hand-written ones with every layout feature:
//! nested arrays, strings, bytes, arrays of strings and of scalars,
//! interleaved arrays, a split object, explicit refs, and fixed fields after
//! variable data. They have no floats, so that `==` is an exact comparison.

use proptest::collection::vec;
use proptest::prelude::*;
use tera_packets::{Array, Block, Bytes, ErrorKind, IntoOwned, Packet, Str};

// ---------------------------------------------------------------------------
// The packet types.

/// Nested arrays, strings, bytes, `array<string>` and `array<int32>`.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "R_NESTED", version = 1)]
struct Nested<'a> {
    id: u32,
    outer: Array<'a, NestedOuter<'a>>,
    tail: Str<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct NestedOuter<'a> {
    x: i32,
    name: Str<'a>,
    data: Bytes<'a>,
    mid: Array<'a, NestedMid<'a>>,
    names: Array<'a, Str<'a>>,
    nums: Array<'a, i32>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct NestedMid<'a> {
    y: u16,
    tag: Str<'a>,
    inner: Array<'a, NestedInner<'a>>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct NestedInner<'a> {
    z: u8,
    leaf: Str<'a>,
}

/// A run of three interleaved arrays, one with nested data, and a fixed
/// field after them (read after the last element written, whichever array
/// it belongs to).
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "R_INTERLEAVED", version = 1)]
struct Interleaved<'a> {
    id: u32,
    #[tera(interleaved)]
    a: Array<'a, InterA<'a>>,
    #[tera(interleaved)]
    b: Array<'a, u32>,
    #[tera(interleaved)]
    c: Array<'a, InterC>,
    after: u32,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct InterA<'a> {
    x: u32,
    s: Str<'a>,
    n: Array<'a, i32>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct InterC {
    y: u8,
}

/// Explicit refs at the root and in elements.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "R_EXPLICIT_REF", version = 1)]
struct ExplicitRef<'a> {
    id: u32,
    #[tera(refs_before(list))]
    mid: i32,
    #[tera(refs_before(name, blob))]
    name: Str<'a>,
    blob: Bytes<'a>,
    list: Array<'a, ExplicitRefItem<'a>>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct ExplicitRefItem<'a> {
    v: i32,
    #[tera(refs_before(sub))]
    w: u16,
    sub: Array<'a, i32>,
}

/// A split object (part 1 after `e`) and objects inside elements.
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "R_OBJECTS", version = 1)]
struct Objects<'a> {
    a: i32,
    #[tera(parts_after(e))]
    o: ObjectsO<'a>,
    e: i16,
    elems: Array<'a, ObjectsElem<'a>>,
}

#[derive(Debug, Default, Clone, PartialEq, Block)]
struct ObjectsO<'a> {
    b: i32,
    deep: Deep,
    #[tera(part = 1)]
    loc: u64,
    s: Str<'a>,
    arr: Array<'a, ObjectsArr>,
    deep2: Deep2<'a>,
}

#[derive(Debug, Default, Clone, PartialEq, Block)]
struct Deep {
    d: u16,
}

#[derive(Debug, Default, Clone, PartialEq, Block)]
struct Deep2<'a> {
    blob: Bytes<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct ObjectsArr {
    c: i32,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct ObjectsElem<'a> {
    f: i32,
    eo: ElemObject<'a>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct ElemObject<'a> {
    es: Str<'a>,
    ei: Array<'a, i32>,
}

/// Fixed fields after strings, an array and bytes (read where written).
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "R_FIXED_AFTER", version = 1)]
struct FixedAfter<'a> {
    command: Str<'a>,
    parameter: Str<'a>,
    unk: bool,
    list: Array<'a, FixedAfterItem<'a>>,
    after: i32,
    d: Bytes<'a>,
    tail: u16,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct FixedAfterItem<'a> {
    s: Str<'a>,
    k: u8,
}

// ---------------------------------------------------------------------------
// Walking: every array yields exactly `len()` elements, every string and
// byte field is looked at.

fn walk_array<'a, T: Block<'a>>(a: &Array<'a, T>, mut f: impl FnMut(&T)) {
    let len = a.len();
    assert_eq!(a.iter().size_hint(), (len, Some(len)));
    let mut n = 0;
    for e in a.iter() {
        f(&e);
        n += 1;
    }
    assert_eq!(n, len, "iteration yields len() elements");
    assert_eq!(a.is_empty(), len == 0);
    if len > 0 {
        assert!(a.get(len - 1).is_some());
    }
    assert!(a.get(len).is_none());
}

fn walk_str(s: &Str<'_>) {
    let text = s.to_string_lossy();
    assert_eq!(s.units().count(), s.len_utf16());
    assert!(text.chars().count() <= s.len_utf16());
    assert!(!s.units().any(|u| u == 0), "a decoded string holds no NUL");
}

fn walk_bytes(b: &Bytes<'_>) {
    assert_eq!(b.iter().count(), b.len());
}

trait Walk {
    fn walk(&self);
}

impl Walk for Nested<'_> {
    fn walk(&self) {
        walk_str(&self.tail);
        walk_array(&self.outer, |o| {
            walk_str(&o.name);
            walk_bytes(&o.data);
            walk_array(&o.mid, |m| {
                walk_str(&m.tag);
                walk_array(&m.inner, |i| walk_str(&i.leaf));
            });
            walk_array(&o.names, walk_str);
            walk_array(&o.nums, |_| {});
        });
    }
}

impl Walk for Interleaved<'_> {
    fn walk(&self) {
        walk_array(&self.a, |a| {
            walk_str(&a.s);
            walk_array(&a.n, |_| {});
        });
        walk_array(&self.b, |_| {});
        walk_array(&self.c, |_| {});
    }
}

impl Walk for ExplicitRef<'_> {
    fn walk(&self) {
        walk_str(&self.name);
        walk_bytes(&self.blob);
        walk_array(&self.list, |i| walk_array(&i.sub, |_| {}));
    }
}

impl Walk for Objects<'_> {
    fn walk(&self) {
        walk_str(&self.o.s);
        walk_array(&self.o.arr, |_| {});
        walk_bytes(&self.o.deep2.blob);
        walk_array(&self.elems, |e| {
            walk_str(&e.eo.es);
            walk_array(&e.eo.ei, |_| {});
        });
    }
}

impl Walk for FixedAfter<'_> {
    fn walk(&self) {
        walk_str(&self.command);
        walk_str(&self.parameter);
        walk_array(&self.list, |i| walk_str(&i.s));
        walk_bytes(&self.d);
    }
}

/// Decodes `bytes` as `$ty` (never panicking); on success walks the value,
/// encodes it, decodes that, and checks the value and the bytes are stable.
/// Returns whether the decode succeeded. A macro, so that the lifetime of
/// each decoded value is inferred at its use.
macro_rules! check {
    ($ty:ident, $bytes:expr) => {{
        let bytes: &[u8] = $bytes;
        match $ty::decode(bytes) {
            Err(_) => false,
            Ok(value) => {
                value.walk();
                match value.encode() {
                    // Aliased data is written once per use: a packet near
                    // the limit may not fit once written out canonically.
                    Err(e) => {
                        assert!(
                            matches!(e.kind(), ErrorKind::TooLarge { .. }),
                            "encode failed: {e}"
                        );
                        assert!(value.encoded_len() > 0xffff);
                    }
                    Ok(first) => {
                        assert_eq!(first.len(), value.encoded_len());
                        let again = $ty::decode(&first)
                            .unwrap_or_else(|e| panic!("decoding our own encoding: {e}"));
                        again.walk();
                        assert_eq!(again, value, "decode(encode(v)) == v");
                        let second = again.encode().unwrap();
                        assert_eq!(second, first, "the encoding is canonical");
                        // A view's elements are copied from the packet, an
                        // owned value's written from their fields.
                        let owned = IntoOwned::into_owned(value).encode().unwrap();
                        assert_eq!(owned, first, "a view encodes as its owned copy");
                    }
                }
                true
            }
        }
    }};
}

/// Decodes `bytes` as every packet type.
fn check_all(bytes: &[u8]) {
    check!(Nested, bytes);
    check!(Interleaved, bytes);
    check!(ExplicitRef, bytes);
    check!(Objects, bytes);
    check!(FixedAfter, bytes);
}

// ---------------------------------------------------------------------------
// Strategies for valid values.

/// Strings of non-NUL units, lone surrogates included.
fn text() -> impl Strategy<Value = Str<'static>> {
    prop_oneof![
        vec(
            prop::sample::select(vec![0x41u16, 0x7a, 0xe9, 0xd83d, 0xde00]),
            0..4
        ),
        vec(1u16.., 0..3),
    ]
    .prop_map(|units| {
        Str::from_utf16le(
            units
                .iter()
                .flat_map(|u| u.to_le_bytes())
                .collect::<Vec<u8>>(),
        )
    })
}

fn blob() -> impl Strategy<Value = Bytes<'static>> {
    vec(any::<u8>(), 0..5).prop_map(Bytes::from)
}

fn list<T: Block<'static> + std::fmt::Debug>(
    elem: impl Strategy<Value = T>,
    max: usize,
) -> impl Strategy<Value = Array<'static, T>> {
    vec(elem, 0..=max).prop_map(Array::from)
}

fn nested() -> impl Strategy<Value = Nested<'static>> {
    let inner = (any::<u8>(), text()).prop_map(|(z, leaf)| NestedInner { z, leaf });
    let mid = (any::<u16>(), text(), list(inner, 2)).prop_map(|(y, tag, inner)| NestedMid {
        y,
        tag,
        inner,
    });
    let outer = (
        any::<i32>(),
        text(),
        blob(),
        list(mid, 2),
        list(text(), 3),
        list(any::<i32>(), 3),
    )
        .prop_map(|(x, name, data, mid, names, nums)| NestedOuter {
            x,
            name,
            data,
            mid,
            names,
            nums,
        });
    (any::<u32>(), list(outer, 3), text()).prop_map(|(id, outer, tail)| Nested { id, outer, tail })
}

fn interleaved() -> impl Strategy<Value = Interleaved<'static>> {
    let a = (any::<u32>(), text(), list(any::<i32>(), 2)).prop_map(|(x, s, n)| InterA { x, s, n });
    (
        any::<u32>(),
        list(a, 3),
        list(any::<u32>(), 4),
        list(any::<u8>().prop_map(|y| InterC { y }), 3),
        any::<u32>(),
    )
        .prop_map(|(id, a, b, c, after)| Interleaved { id, a, b, c, after })
}

fn explicit_ref() -> impl Strategy<Value = ExplicitRef<'static>> {
    let item = (any::<i32>(), any::<u16>(), list(any::<i32>(), 2))
        .prop_map(|(v, w, sub)| ExplicitRefItem { v, w, sub });
    (any::<u32>(), any::<i32>(), text(), blob(), list(item, 3)).prop_map(
        |(id, mid, name, blob, list)| ExplicitRef {
            id,
            mid,
            name,
            blob,
            list,
        },
    )
}

fn objects() -> impl Strategy<Value = Objects<'static>> {
    let o = (
        any::<i32>(),
        any::<u16>(),
        any::<u64>(),
        text(),
        list(any::<i32>().prop_map(|c| ObjectsArr { c }), 2),
        blob(),
    )
        .prop_map(|(b, d, loc, s, arr, blob)| ObjectsO {
            b,
            deep: Deep { d },
            loc,
            s,
            arr,
            deep2: Deep2 { blob },
        });
    let elem = (any::<i32>(), text(), list(any::<i32>(), 2)).prop_map(|(f, es, ei)| ObjectsElem {
        f,
        eo: ElemObject { es, ei },
    });
    (any::<i32>(), o, any::<i16>(), list(elem, 3)).prop_map(|(a, o, e, elems)| Objects {
        a,
        o,
        e,
        elems,
    })
}

fn fixed_after() -> impl Strategy<Value = FixedAfter<'static>> {
    let item = (text(), any::<u8>()).prop_map(|(s, k)| FixedAfterItem { s, k });
    (
        text(),
        text(),
        any::<bool>(),
        list(item, 3),
        any::<i32>(),
        blob(),
        any::<u16>(),
    )
        .prop_map(
            |(command, parameter, unk, list, after, d, tail)| FixedAfter {
                command,
                parameter,
                unk,
                list,
                after,
                d,
                tail,
            },
        )
}

// ---------------------------------------------------------------------------
// Mutations.

#[derive(Debug, Clone)]
enum Mutation {
    /// Sets the byte at `.0 % len`.
    Byte(usize, u8),
    /// Sets the word at `.0 % len` to `.1 % (len + 8)`: a plausible offset
    /// or count, just inside or just outside the packet.
    Word(usize, u16),
    /// Cuts the packet at `.0 % len`.
    Truncate(usize),
    /// Inserts a byte at `.0 % len`, shifting what follows.
    Insert(usize, u8),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        3 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Byte(i, b)),
        4 => (any::<usize>(), any::<u16>()).prop_map(|(i, v)| Mutation::Word(i, v)),
        1 => any::<usize>().prop_map(Mutation::Truncate),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(i, b)| Mutation::Insert(i, b)),
    ]
}

/// Applies `mutations`, then (when `fix_header`) makes the header's length
/// match, so that most mutants get past the length check.
fn mutate(mut bytes: Vec<u8>, mutations: &[Mutation], fix_header: bool) -> Vec<u8> {
    for m in mutations {
        let len = bytes.len();
        if len == 0 {
            break;
        }
        match *m {
            Mutation::Byte(i, b) => bytes[i % len] = b,
            Mutation::Word(i, v) => {
                let at = i % len;
                let v = v % u16::try_from(len + 8).unwrap_or(u16::MAX);
                for (k, b) in v.to_le_bytes().into_iter().enumerate() {
                    if let Some(slot) = bytes.get_mut(at + k) {
                        *slot = b;
                    }
                }
            }
            Mutation::Truncate(i) => bytes.truncate(i % len),
            Mutation::Insert(i, b) => bytes.insert(i % len, b),
        }
    }
    if fix_header && bytes.len() >= 2 {
        let len = u16::try_from(bytes.len()).unwrap().to_le_bytes();
        bytes[..2].copy_from_slice(&len);
    }
    bytes
}

/// Encodes `value`, checks the valid packet round-trips, then checks a
/// mutant of it against every type (its own first).
macro_rules! mutants {
    ($name:ident, $ty:ident, $strategy:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]
            #[test]
            fn $name(
                value in $strategy,
                mutations in vec(mutation(), 1..4),
                fix_header in prop::bool::weighted(0.9),
            ) {
                let bytes = value.encode().unwrap();
                prop_assert!(check!($ty, &bytes), "a valid packet decodes");
                prop_assert_eq!(&$ty::decode(&bytes).unwrap(), &value);
                let mutant = mutate(bytes, &mutations, fix_header);
                check_all(&mutant);
            }
        }
    };
}

mutants!(mutants_of_nested, Nested, nested());
mutants!(mutants_of_interleaved, Interleaved, interleaved());
mutants!(mutants_of_explicit_ref, ExplicitRef, explicit_ref());
mutants!(mutants_of_objects, Objects, objects());
mutants!(mutants_of_fixed_after, FixedAfter, fixed_after());

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Random bytes, with the header's length mostly made right.
    #[test]
    fn random_bytes_never_panic(
        mut bytes in vec(any::<u8>(), 0..160),
        fix_header in prop::bool::weighted(0.9),
    ) {
        if fix_header && bytes.len() >= 2 {
            let len = u16::try_from(bytes.len()).unwrap().to_le_bytes();
            bytes[..2].copy_from_slice(&len);
        }
        check_all(&bytes);
    }

    /// Random small words (mostly plausible offsets and counts) instead of
    /// random bytes, so that lists and strings are followed further.
    #[test]
    fn random_small_words_never_panic(
        words in vec(0u16..48, 2..40),
    ) {
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let len = u16::try_from(bytes.len()).unwrap().to_le_bytes();
        bytes[..2].copy_from_slice(&len);
        check_all(&bytes);
    }
}

/// `array<uint16>[interleaved] a; array<byte>[interleaved] b; uint32 after`
#[derive(Debug, PartialEq, Packet)]
#[tera(name = "R_INTERLEAVED_AFTER", version = 1)]
struct InterleavedAfter<'a> {
    #[tera(interleaved)]
    a: Array<'a, u16>,
    #[tera(interleaved)]
    b: Array<'a, u8>,
    after: u32,
}

#[test]
fn fixed_field_after_interleaved_arrays_is_read_where_written() {
    // The writer ends the run after a[2], the last element written; the
    // last array of the run, `b`, ended earlier (after b[0] at 18).
    let v = InterleavedAfter {
        a: vec![1, 2, 3].into(),
        b: vec![9].into(),
        after: 0xdead_beef,
    };
    let bytes = v.encode().unwrap();
    let expected: &[u8] = &[
        0x27, 0, 0, 0, // 39 bytes
        3, 0, 12, 0, // a: 3 at 12
        1, 0, 18, 0, // b: 1 at 18
        12, 0, 23, 0, 1, 0, // a[0]
        18, 0, 0, 0, 9, // b[0]
        23, 0, 29, 0, 2, 0, // a[1]
        29, 0, 0, 0, 3, 0, // a[2]
        0xef, 0xbe, 0xad, 0xde, // after
    ];
    assert_eq!(bytes, expected);
    assert_eq!(InterleavedAfter::decode(&bytes).unwrap(), v);
    // All empty: `after` follows the metadata.
    let v = InterleavedAfter {
        a: Array::default(),
        b: Array::default(),
        after: 7,
    };
    let bytes = v.encode().unwrap();
    assert_eq!(bytes, [16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0]);
    assert_eq!(InterleavedAfter::decode(&bytes).unwrap(), v);
}

/// The mutation tests above are only worth something if some mutants decode:
/// check that a fixed set of them does, for every type.
#[test]
fn some_mutants_decode() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::{Config, TestRunner};

    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        proptest::test_runner::TestRng::deterministic_rng(
            proptest::test_runner::RngAlgorithm::ChaCha,
        ),
    );
    let mut decoded = [0usize; 5];
    for _ in 0..300 {
        let muts = vec(mutation(), 1..2)
            .new_tree(&mut runner)
            .unwrap()
            .current();
        let n = nested().new_tree(&mut runner).unwrap().current();
        let i = interleaved().new_tree(&mut runner).unwrap().current();
        let e = explicit_ref().new_tree(&mut runner).unwrap().current();
        let o = objects().new_tree(&mut runner).unwrap().current();
        let f = fixed_after().new_tree(&mut runner).unwrap().current();
        let m = mutate(n.encode().unwrap(), &muts, true);
        decoded[0] += usize::from(check!(Nested, &m));
        let m = mutate(i.encode().unwrap(), &muts, true);
        decoded[1] += usize::from(check!(Interleaved, &m));
        let m = mutate(e.encode().unwrap(), &muts, true);
        decoded[2] += usize::from(check!(ExplicitRef, &m));
        let m = mutate(o.encode().unwrap(), &muts, true);
        decoded[3] += usize::from(check!(Objects, &m));
        let m = mutate(f.encode().unwrap(), &muts, true);
        decoded[4] += usize::from(check!(FixedAfter, &m));
    }
    // One mutation of a valid packet often lands in a fixed field or a
    // unit of text: a good share of mutants must decode.
    for (n, name) in decoded.iter().zip([
        "nested",
        "interleaved",
        "explicit ref",
        "objects",
        "fixed after",
    ]) {
        assert!(*n >= 100, "only {n} of 300 mutants of {name} decoded");
    }
}
