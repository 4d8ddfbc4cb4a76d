//! Decoding Input and Update views (and walking every field of an update)
//! allocates nothing, nor does encoding into a reused vector: a counting
//! global allocator (this file is its own test binary) counts what the
//! measuring thread allocates.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::hint::black_box;
use std::sync::atomic::{AtomicUsize, Ordering};

use diep_packets::{Clientbound, FieldTable, Serverbound, UpdateView};

struct Counting;

static CALLS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if MEASURING.try_with(Cell::get).unwrap_or(false) {
        CALLS.fetch_add(1, Ordering::SeqCst);
    }
}

// SAFETY: every call is forwarded to `System` unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract is passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: the caller's contract is passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _guard = LOCK.lock().unwrap_or_else(|e| e.into_inner());
    CALLS.store(0, Ordering::SeqCst);
    MEASURING.with(|m| m.set(true));
    f();
    MEASURING.with(|m| m.set(false));
    CALLS.load(Ordering::SeqCst)
}

#[test]
fn the_counter_counts() {
    assert!(allocations(|| drop(black_box(vec![1u8; 10]))) > 0);
}

#[test]
fn decoding_input_and_update_views_allocates_nothing() {
    let table = FieldTable::builtin();
    let vectors = common::vector_messages();
    let mut inputs: Vec<Vec<u8>> = vectors
        .iter()
        .filter(|(_, name, _)| name == "Input")
        .map(|(_, _, b)| b.clone())
        .collect();
    inputs.push(vec![
        0x01, 0x99, 0x10, 0x88, 0x81, 0x85, 0x02, 0x8a, 0xa7, 0x81, 0x0f,
    ]);
    let mut updates: Vec<Vec<u8>> = vectors
        .iter()
        .filter(|(_, name, _)| name == "Update")
        .map(|(_, _, b)| b.clone())
        .collect();
    updates.push(common::sample_update().encode(table).unwrap());

    let mut fields = 0usize;
    let n = allocations(|| {
        for msg in &inputs {
            black_box(Serverbound::decode(msg).unwrap());
        }
        for msg in &updates {
            let view = UpdateView::decode(msg, table).unwrap();
            black_box(view.deletes().count());
            for u in view.upcreates() {
                black_box(u.groups().count());
                for f in u.fields() {
                    black_box(&f.value);
                    fields += 1;
                }
            }
            black_box(Clientbound::decode(msg).unwrap());
        }
    });
    assert!(fields > 0);
    assert_eq!(
        n,
        0,
        "decoding {} inputs and {} updates allocated {n} times",
        inputs.len(),
        updates.len()
    );
}

#[test]
fn encoding_into_a_reused_vector_allocates_nothing() {
    let table = FieldTable::builtin();
    let update = common::sample_update();
    let input = Serverbound::decode(&[
        0x01, 0x99, 0x10, 0x88, 0x81, 0x85, 0x02, 0x8a, 0xa7, 0x81, 0x0f,
    ])
    .unwrap();
    let mut out = Vec::with_capacity(4096);
    update.encode_into(table, &mut out).unwrap();
    let n = allocations(|| {
        update.encode_into(table, &mut out).unwrap();
        input.encode_into(&mut out).unwrap();
    });
    assert_eq!(n, 0);
}
