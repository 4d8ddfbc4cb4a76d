//! What a dynamic decode allocates: a view, one vector of slots (and its
//! growth when arrays outgrow the records' room), or nothing in a grown
//! `ViewBuf`; a record, the view's
//! vector and then one per record and per non-empty array. Strings and
//! bytes borrow from the packet. Counted over the bench packets
//! with the corpus loaded at run time (the shared data: `TERA_SHARED_DIR`,
//! default `../shared` beside the project; skipped with a notice when
//! absent) and printed per packet.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

#[path = "common/bench_packets.rs"]
mod bench_packets;

use tera_dynamic::{Catalog, Record, RecordView, Value, ViewBuf, ViewValue};

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

/// The most slots a view takes: a field each, an element each, and a link
/// before each block element (blocks of scalars do without).
fn slots(record: RecordView<'_, '_>) -> usize {
    fn value(v: ViewValue<'_, '_>) -> usize {
        match v {
            ViewValue::Object(r) => slots(r),
            ViewValue::Array(items) => items
                .iter()
                .map(|item| match item {
                    ViewValue::Object(r) => 1 + slots(r),
                    _ => 1,
                })
                .sum(),
            ViewValue::Value(_) => 0,
        }
    }
    record.len() + record.iter().map(|(_, v)| value(v)).sum::<usize>()
}

/// The most allocations a view of `n` slots may take: its vector, and the
/// doublings of its growth past the slots of its records.
fn view_budget(n: usize) -> usize {
    1 + n.max(1).ilog2() as usize + 1
}

/// The allocations a record adds to its view: one vector per record and
/// per non-empty array, each of its exact length.
fn record_budget(record: &Record<'_>) -> usize {
    fn value(v: &Value<'_>) -> usize {
        match v {
            Value::Object(r) => record_budget(r),
            Value::Array(items) if !items.is_empty() => 1 + items.iter().map(value).sum::<usize>(),
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
fn a_packet_without_arrays_decodes_into_one_allocation() {
    let mut catalog = Catalog::new();
    catalog
        .add_def(
            "S_T.1.def",
            "uint32 a\nstring s\nbytes b\nobject o\n- string t\n- int64 c\n",
        )
        .unwrap();
    let schema = catalog.get("S_T", 1).unwrap();
    let packet = schema.encode(&schema.zero(), 0).unwrap();
    let ((calls, _), view) = allocations(|| schema.view(&packet));
    assert!(view.is_ok());
    assert_eq!(calls, 1, "the view's vector; the strings and bytes borrow");
    let ((calls, _), record) = allocations(|| schema.decode(&packet));
    assert!(record.is_ok());
    assert_eq!(
        calls, 3,
        "the view's vector, then the root's and the object's"
    );
}

#[test]
fn bench_packets_allocate_what_their_values_need() {
    let shared = bench_packets::shared_dir();
    let Some(packets) = bench_packets::bench_packets(&shared) else {
        eprintln!(
            "skipping: no bench packets under {} (set TERA_SHARED_DIR)",
            shared.display()
        );
        return;
    };
    let mut catalog = Catalog::new();
    catalog.load_dir(shared.join("tera-data"));
    for (def, packet) in &packets {
        let (name, version) = def.rsplit_once('.').unwrap();
        let schema = catalog.get(name, version.parse().unwrap()).unwrap();
        let ((view_calls, view_bytes), view) = allocations(|| schema.view(packet));
        let view = view.unwrap();
        let n = slots(view.record());
        // A buffer kept from packet to packet: the first view grows it, the
        // next allocate nothing, and read the same values.
        let mut buf = ViewBuf::new();
        let json = serde_json::to_string(&view).unwrap();
        for round in 0..3 {
            let ((calls, _), same) = allocations(|| {
                let view = schema.view_in(packet, &mut buf).unwrap();
                serde_json::to_string(&view).map(|j| j == json)
            });
            assert_eq!(same.ok(), Some(true), "{def}: view_in reads other values");
            let json_calls = allocations(|| serde_json::to_string(&view)).0.0;
            if round > 0 {
                assert_eq!(
                    calls, json_calls,
                    "{def}: a view in a grown buffer allocates nothing (its JSON aside)"
                );
            }
        }
        let ((calls, bytes), record) = allocations(|| schema.decode(packet));
        let record = record.unwrap();
        let (view_allowed, allowed) = (view_budget(n), view_budget(n) + record_budget(&record));
        println!(
            "dynamic decode {def} ({} bytes): view {view_calls} allocations, {view_bytes} bytes \
             ({n} slots, budget {view_allowed}); record {calls} allocations, {bytes} bytes \
             (budget {allowed})",
            packet.len()
        );
        assert!(
            view_calls <= view_allowed,
            "{def} view: {view_calls} > {view_allowed}"
        );
        assert!(calls <= allowed, "{def} record: {calls} > {allowed}");
    }
}
