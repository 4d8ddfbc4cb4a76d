//! A counting allocator proves that decoding (a) and encoding into a
//! reused buffer (c, and d for an owned value) allocate nothing: for the
//! crate's own defs, and for the bench packets when the real corpus is
//! compiled in (`TERA_DATA_DIR`; skipped with a notice otherwise).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tera_data::AnyPacket;

#[cfg(tera_corpus)]
#[path = "../benches/common/mod.rs"]
mod common;
#[cfg(tera_corpus)]
#[path = "../benches/handwritten/mod.rs"]
mod handwritten;

/// Counts the allocations of the current thread (tests run in parallel).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (ALLOCATIONS.with(Cell::get) - before, out)
}

/// The counter sees allocations (or every `0` below would prove nothing).
#[test]
fn counter_counts() {
    let (n, v) = allocations(|| Vec::<u8>::with_capacity(8));
    assert_eq!(n, 1);
    drop(v);
}

/// Decodes and encodes `bytes` through `AnyPacket`, asserting no allocation.
fn check_any(name: &str, version: u32, bytes: &[u8], buf: &mut [u8]) {
    let (n, decoded) = allocations(|| AnyPacket::decode(name, version, bytes));
    let decoded = decoded.unwrap_or_else(|e| panic!("{name}.{version}: {e}"));
    assert_eq!(n, 0, "{name}.{version}: decode allocated");
    let (n, len) = allocations(|| decoded.encode_into_with_opcode(0, buf));
    assert_eq!(n, 0, "{name}.{version}: encode_into allocated");
    assert_eq!(&buf[..len.expect("encodes")], bytes);
}

/// The own defs (`defs/`), built from JSON values with strings and arrays.
#[cfg(not(tera_corpus))]
#[test]
fn own_defs_decode_and_encode_without_allocating() {
    let values = [
        (
            "S_CHAT",
            2,
            r#"{"channel":1,"authorID":"123","unk1":false,"gm":true,"founder":false,
                "authorName":"Name","message":"hi 안녕 😀"}"#,
        ),
        (
            "S_ITEMLIST",
            1,
            r#"{"gameId":"1","container":0,"owner":"me","items":[
                {"id":1,"dbid":"2","amount":3,"durability":1.5,"price":2.5,"crystals":[1,2],
                 "name":"sword","stats":[{"type":1,"value":2,"grade":3}]},
                {"id":2,"dbid":"3","amount":1,"durability":0,"price":0,"crystals":[],
                 "name":"","stats":[]}]}"#,
        ),
        (
            "C_EDIT_PRIVATE_CHANNEL",
            1,
            r#"{"members":[{"playerId":7},{"playerId":8}],"channelName":"guild","password":1234}"#,
        ),
        (
            "S_SKILL_RESULT",
            1,
            r#"{"source":"1","target":"2","value":"3","reaction":{"enable":true,"push":false,
                "loc":{"x":1,"y":2,"z":3},"w":0.5,"turns":[0.25,0.5]},"damageType":1}"#,
        ),
    ];
    let mut buf = vec![0u8; 65536];
    for (name, version, json) in values {
        let mut de = serde_json::Deserializer::from_str(json);
        let owned = AnyPacket::deserialize_as(name, version, &mut de)
            .unwrap_or_else(|e| panic!("{name}.{version}: {e}"));
        let bytes = owned.encode().expect("encodes");
        // (d): the owned value, into a reused buffer.
        let (n, len) = allocations(|| owned.encode_into_with_opcode(0, &mut buf));
        assert_eq!(n, 0, "{name}.{version}: owned encode_into allocated");
        assert_eq!(len.expect("encodes"), bytes.len());
        check_any(name, version, &bytes, &mut buf);
    }
}

#[cfg(not(tera_corpus))]
#[test]
fn bench_packets_decode_and_encode_without_allocating() {
    eprintln!("tests/alloc: built without TERA_DATA_DIR; the bench packets are skipped");
}

/// The eight bench packets, through their concrete types and `AnyPacket`.
#[cfg(tera_corpus)]
#[test]
fn bench_packets_decode_and_encode_without_allocating() {
    use common::ops;
    use common::types::{Family, with_family};
    use tera_data::Packet;

    fn check<F: Family>(bytes: &[u8], buf: &mut [u8]) {
        let (n, ok) = allocations(|| ops::decode::<F>(bytes));
        assert!(ok, "{} decodes", F::DEF);
        assert_eq!(n, 0, "{}: decode allocated", F::DEF);
        let view = F::P::decode(bytes).expect("decodes");
        let (n, len) = allocations(|| ops::encode::<F>(&view, buf));
        assert_eq!(n, 0, "{}: encode_into allocated", F::DEF);
        assert_eq!(&buf[..len], bytes);
        let owned = ops::owned::<F>(bytes).expect("decodes");
        let (n, len) = allocations(|| ops::encode_owned::<F>(&owned, buf));
        assert_eq!(n, 0, "{}: owned encode_into allocated", F::DEF);
        assert_eq!(&buf[..len], bytes);
    }

    let packets = match common::data::load() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("tests/alloc: no bench packets ({e}); skipped");
            return;
        }
    };
    let mut buf = vec![0u8; 65536];
    for p in &packets {
        with_family!(p.def.as_str(), F => check::<F>(&p.bytes, &mut buf), _ => {
            panic!("{} is not a bench packet", p.def)
        });
        let (name, version) = p.def.split_once('.').expect("NAME.VERSION");
        check_any(name, version.parse().expect("version"), &p.bytes, &mut buf);
    }
    assert_eq!(packets.len(), 8);
}

/// `Str::decode_into` a `String` with room allocates nothing; without room,
/// once for ASCII, at most twice otherwise; the text is the same either way.
#[test]
fn str_decode_into_a_string_with_room_allocates_nothing() {
    use tera_data::Str;
    for text in [
        "Playername",
        "",
        "안녕하세요 TERA 😀",
        &"Hello TERA, ".repeat(9),
    ] {
        let s = Str::from(text);
        let mut out = String::new();
        let (n, ()) = allocations(|| s.decode_into(&mut out));
        assert_eq!(out, text);
        // Sized for ASCII first: other text grows once more.
        let most = if text.is_ascii() { 1 } else { 2 };
        assert!(
            n <= most && (n > 0) != text.is_empty(),
            "{text:?} into an empty String: {n} allocations"
        );
        // Room as documented: three bytes a unit covers any text.
        let mut out = String::with_capacity(3 * s.len_utf16());
        for _ in 0..3 {
            let (n, ()) = allocations(|| {
                out.clear();
                s.decode_into(&mut out);
            });
            assert_eq!(n, 0, "{text:?} into a String with room");
            assert_eq!(out, text);
        }
    }
}
