//! Decoding, reading and `encode_into` allocate nothing: a counting global
//! allocator (this file is its own test binary) counts the bytes allocated
//! by the measuring thread while each step runs.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use tera_packets::{Array, Block, Bytes, Packet, Str};

/// Wraps `System`, counting allocations (and growing reallocations) made by
/// threads that are measuring; other threads (the test harness) are ignored.
struct Counting;

static BYTES: AtomicUsize = AtomicUsize::new(0);
static CALLS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}

fn count(bytes: usize) {
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        BYTES.fetch_add(bytes, Ordering::SeqCst);
        CALLS.fetch_add(1, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded to `System` unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()).max(1));
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Runs `f` and returns its result with the bytes and the number of
/// allocations it made on this thread.
fn measure<R>(f: impl FnOnce() -> R) -> (R, usize, usize) {
    // Tests run on several threads; the counters are global, so measure one
    // thing at a time.
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    BYTES.store(0, Ordering::SeqCst);
    CALLS.store(0, Ordering::SeqCst);
    MEASURING.with(|m| m.set(true));
    let r = black_box(f());
    MEASURING.with(|m| m.set(false));
    (
        r,
        BYTES.load(Ordering::SeqCst),
        CALLS.load(Ordering::SeqCst),
    )
}

/// Asserts that `f` allocates nothing and returns its result.
#[track_caller]
fn no_alloc<R>(what: &str, f: impl FnOnce() -> R) -> R {
    let (r, bytes, calls) = measure(f);
    assert_eq!(
        (bytes, calls),
        (0, 0),
        "{what} allocated {bytes} bytes in {calls} calls"
    );
    r
}

// ---------------------------------------------------------------------------
// A rich packet: nested arrays, strings, bytes, arrays of strings, explicit
// refs, a split object.

#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "A_RICH", version = 1)]
struct Rich<'a> {
    id: u32,
    #[tera(parts_after(e))]
    o: Split<'a>,
    e: i16,
    outer: Array<'a, Outer<'a>>,
    names: Array<'a, Str<'a>>,
    nums: Array<'a, u64>,
    tail: Str<'a>,
    blob: Bytes<'a>,
}

#[derive(Debug, Default, Clone, PartialEq, Block)]
struct Split<'a> {
    b: i32,
    #[tera(part = 1)]
    s: Str<'a>,
    arr: Array<'a, u16>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Outer<'a> {
    x: i32,
    name: Str<'a>,
    data: Bytes<'a>,
    inner: Array<'a, Inner<'a>>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct Inner<'a> {
    z: u8,
    leaf: Str<'a>,
    deep: Array<'a, i32>,
}

#[derive(Debug, Clone, PartialEq, Packet)]
#[tera(name = "A_REFS", version = 1)]
struct Refs<'a> {
    id: u32,
    #[tera(refs_before(list))]
    mid: i32,
    #[tera(refs_before(name, blob))]
    name: Str<'a>,
    blob: Bytes<'a>,
    list: Array<'a, RefItem<'a>>,
}

#[derive(Debug, Clone, PartialEq, Block)]
struct RefItem<'a> {
    v: i32,
    #[tera(refs_before(sub))]
    w: u16,
    sub: Array<'a, i32>,
}

/// An owned `Rich`, built from `Vec`s and `String`s.
fn rich() -> Rich<'static> {
    let inner = |k: u8| Inner {
        z: k,
        leaf: Str::from(format!("leaf {k} é😀")),
        deep: (0..i32::from(k)).collect(),
    };
    Rich {
        id: 7,
        o: Split {
            b: -1,
            s: Str::from(String::from("split")),
            arr: vec![1, 2, 3].into(),
        },
        e: 5,
        outer: vec![
            Outer {
                x: 1,
                name: "first".into(),
                data: vec![1, 2, 3].into(),
                inner: vec![inner(1), inner(2)].into(),
            },
            Outer {
                x: 2,
                name: "".into(),
                data: Vec::new().into(),
                inner: Array::default(),
            },
            Outer {
                x: 3,
                name: "third name, a bit longer".into(),
                data: vec![0xff; 20].into(),
                inner: vec![inner(3)].into(),
            },
        ]
        .into(),
        names: ["a", "bc", "", "défg"].into_iter().map(Str::from).collect(),
        nums: vec![u64::MAX, 0, 42].into(),
        tail: "tail".into(),
        blob: vec![9; 7].into(),
    }
}

fn refs() -> Refs<'static> {
    Refs {
        id: 1,
        mid: 2,
        name: "name".into(),
        blob: vec![1, 2].into(),
        list: vec![
            RefItem {
                v: 3,
                w: 4,
                sub: vec![5, 6].into(),
            },
            RefItem {
                v: 7,
                w: 8,
                sub: Array::default(),
            },
        ]
        .into(),
    }
}

/// Reads every scalar and walks every array of a `Rich`, returning a sum so
/// that nothing is optimised away.
fn visit(v: &Rich<'_>) -> u64 {
    let mut sum = u64::from(v.id) + u64::from(v.o.b as u32) + u64::from(v.e as u16);
    sum += v.o.s.len_utf16() as u64;
    sum += v.o.arr.iter().map(|x| u64::from(*x)).sum::<u64>();
    for o in &v.outer {
        sum += u64::from(o.x as u32) + o.name.units().map(u64::from).sum::<u64>();
        sum += o.data.iter().map(|b| u64::from(*b)).sum::<u64>();
        for i in &o.inner {
            sum += u64::from(i.z) + i.leaf.len_utf16() as u64;
            sum += i.leaf.chars().count() as u64;
            sum += i.deep.iter().map(|d| u64::from(*d as u32)).sum::<u64>();
        }
        sum += o.inner.get(0).map_or(0, |i| u64::from(i.z));
    }
    for n in &v.names {
        sum += n.len_utf16() as u64 + u64::from(*n == "bc");
    }
    sum += v.nums.iter().map(|n| *n % 1000).sum::<u64>();
    sum += u64::from(v.tail == "tail") + v.blob.len() as u64;
    sum
}

#[test]
fn the_allocator_counts() {
    // The counter itself works: a `Vec` of 100 bytes is seen.
    let (_, bytes, calls) = measure(|| vec![0u8; 100]);
    assert_eq!((bytes, calls), (100, 1));
    let (_, bytes, _) = measure(|| String::from("x").repeat(10));
    assert!(bytes >= 10);
}

#[test]
fn decode_allocates_nothing() {
    let bytes = rich().encode().unwrap();
    let decoded = no_alloc("decode of Rich", || Rich::decode(&bytes).unwrap());
    assert_eq!(decoded, rich());

    let bytes = refs().encode().unwrap();
    let decoded = no_alloc("decode of Refs", || Refs::decode(&bytes).unwrap());
    assert_eq!(decoded, refs());
}

#[test]
fn a_failing_decode_allocates_nothing() {
    let mut bytes = rich().encode().unwrap();
    // Cut the last byte of `blob` (the last data) and fix the header.
    bytes.pop();
    let len = u16::try_from(bytes.len()).unwrap();
    bytes[..2].copy_from_slice(&len.to_le_bytes());
    let err = no_alloc("failing decode", || Rich::decode(&bytes).unwrap_err());
    assert_eq!(err.kind(), tera_packets::ErrorKind::BytesOutOfBounds);
    assert_eq!(err.field(), Some("blob"));
}

#[test]
fn reading_and_iterating_allocate_nothing() {
    let bytes = rich().encode().unwrap();
    let decoded = Rich::decode(&bytes).unwrap();
    let expected = visit(&rich());
    let sum = no_alloc("visit of a decoded Rich", || visit(&decoded));
    assert_eq!(sum, expected);
    // Element access by index and equality with `&str` too.
    no_alloc("get and compare", || {
        let third = decoded.outer.get(2).unwrap();
        assert!(third.name == "third name, a bit longer");
        assert_eq!(decoded.names.get(3).map(|n| n.len_utf16()), Some(4));
        assert_eq!(decoded.outer.len(), 3);
    });
    let owned = rich();
    no_alloc("visit of an owned Rich", || visit(&owned));
}

#[test]
fn encode_into_a_buffer_allocates_nothing() {
    // An owned value built from `Vec`s and `String`s.
    let owned = rich();
    let mut buf = vec![0u8; 4096];
    let len = no_alloc("encode_into of an owned Rich", || {
        owned.encode_into(&mut buf).unwrap()
    });
    assert_eq!(&buf[..len], owned.encode().unwrap());
    let again = no_alloc("encoded_len", || owned.encoded_len());
    assert_eq!(again, len);

    // A decoded value (views over the packet) written into a reused buffer.
    let bytes = buf[..len].to_vec();
    let decoded = Rich::decode(&bytes).unwrap();
    let mut out = vec![0xccu8; 4096];
    let len2 = no_alloc("encode_into of a decoded Rich", || {
        decoded.encode_into_with_opcode(0x1234, &mut out).unwrap()
    });
    assert_eq!(len2, len);
    assert_eq!(&out[4..len], &bytes[4..]);
    assert_eq!(&out[2..4], &[0x34, 0x12]);

    // Explicit refs, owned and decoded.
    let owned = refs();
    let len = no_alloc("encode_into of an owned Refs", || {
        owned.encode_into(&mut buf).unwrap()
    });
    let bytes = buf[..len].to_vec();
    let decoded = Refs::decode(&bytes).unwrap();
    let len2 = no_alloc("encode_into of a decoded Refs", || {
        decoded.encode_into(&mut out).unwrap()
    });
    assert_eq!(&out[..len2], &bytes[..]);
}

#[test]
fn a_failing_encode_into_allocates_nothing() {
    let owned = rich();
    let mut small = [0u8; 16];
    let err = no_alloc("encode_into a small buffer", || {
        owned.encode_into(&mut small).unwrap_err()
    });
    assert_eq!(
        err.kind(),
        tera_packets::ErrorKind::BufferTooSmall {
            needed: u32::try_from(owned.encoded_len()).unwrap()
        }
    );
}
