//! What a dynamic decode allocates: the value tree's own vectors (one per
//! record, the growth of each non-empty array's vector) and nothing else;
//! strings and bytes borrow from the packet. Counted over the bench packets
//! with the corpus loaded at run time (the shared data: `TERA_SHARED_DIR`,
//! default `../shared` beside the project; skipped with a notice when
//! absent) and printed per packet.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use tera_dynamic::{Catalog, Record, Value};

/// Counts the allocations of the current thread (tests run in parallel).
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<(usize, usize)> = const { Cell::new((0, 0)) };
}

fn count(bytes: usize) {
    ALLOCATIONS.with(|n| {
        let (calls, total) = n.get();
        n.set((calls + 1, total + bytes));
    });
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(new_size.saturating_sub(layout.size()));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations (calls, bytes) `f` makes on this thread.
fn allocations<T>(f: impl FnOnce() -> T) -> ((usize, usize), T) {
    let (calls, bytes) = ALLOCATIONS.with(Cell::get);
    let out = f();
    let (calls_after, bytes_after) = ALLOCATIONS.with(Cell::get);
    ((calls_after - calls, bytes_after - bytes), out)
}

/// The most allocations a value tree may take: one per record, and for
/// each array of `n > 0` elements the growth of a vector pushed `n` times
/// (at most 1 + log2(n) allocations, doubling).
fn budget(record: &Record<'_>) -> usize {
    fn value(v: &Value<'_>) -> usize {
        match v {
            Value::Object(r) => budget(r),
            Value::Array(items) if !items.is_empty() => {
                let growth = 1 + items.len().ilog2() as usize;
                growth + items.iter().map(value).sum::<usize>()
            }
            _ => 0,
        }
    }
    1 + record.iter().map(|(_, v)| value(v)).sum::<usize>()
}

#[test]
fn the_counter_counts() {
    let ((calls, bytes), v) = allocations(|| Vec::<u64>::with_capacity(8));
    assert_eq!((calls, bytes), (1, 64));
    drop(v);
}

#[test]
fn a_packet_without_arrays_or_objects_allocates_one_record() {
    let mut catalog = Catalog::new();
    catalog
        .add_def("S_T.1.def", "uint32 a\nstring s\nbytes b\n")
        .unwrap();
    let schema = catalog.get("S_T", 1).unwrap();
    let packet = schema.encode(&schema.zero(), 0).unwrap();
    let ((calls, _), value) = allocations(|| schema.decode(&packet));
    assert!(value.is_ok());
    assert_eq!(calls, 1, "the record's vector; the string and bytes borrow");
}

#[test]
fn bench_packets_allocate_what_their_value_tree_needs() {
    let shared = std::env::var_os("TERA_SHARED_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared"));
    let Ok(lines) = std::fs::read_to_string(shared.join("bench/packets.jsonl")) else {
        eprintln!(
            "skipping: no bench packets under {} (set TERA_SHARED_DIR)",
            shared.display()
        );
        return;
    };
    let mut catalog = Catalog::new();
    catalog.load_dir(shared.join("tera-data"));
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        let def = v["def"].as_str().unwrap().trim_end_matches(".def");
        let (name, version) = def.rsplit_once('.').unwrap();
        let schema = catalog.get(name, version.parse().unwrap()).unwrap();
        let hex = v["hex"].as_str().unwrap();
        let packet: Vec<u8> = (0..hex.len() / 2)
            .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        let ((calls, bytes), value) = allocations(|| schema.decode(&packet));
        let value = value.unwrap();
        let allowed = budget(&value);
        println!(
            "dynamic decode {def} ({} bytes): {calls} allocations, {bytes} bytes \
             (value tree budget {allowed} allocations)",
            packet.len()
        );
        assert!(calls <= allowed, "{def}: {calls} > {allowed}");
    }
}
