//! Peak memory of opening a data center of 1,001,001 elements and walking
//! all of it, measured with a counting allocator: the tree API borrows the
//! file, so the peak is a tiny fraction of the file size.
//!
//! `cargo run --release -p tera-datacenter --example memory`

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use tera_datacenter::{DataCenter, WriteOptions, bench_tree, walk_all, write_dec};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Relaxed) + layout.size();
        PEAK.fetch_max(live, Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Relaxed);
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    let bytes = {
        let tree = bench_tree(1000, 1000);
        write_dec(&tree, &WriteOptions::default()).expect("writes")
    };
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let dc = DataCenter::parse(&bytes).expect("opens");
    let after_open = LIVE.load(Relaxed) - before;
    let (elements, attributes) = walk_all(dc.root());
    let peak = PEAK.load(Relaxed) - before;
    let mb = |n: usize| n as f64 / 1e6;
    println!(
        "file: {:.1} MB, {elements} elements, {attributes} attributes",
        mb(bytes.len())
    );
    println!("held after open: {after_open} bytes; peak while opening and walking: {peak} bytes");
    println!(
        "peak / file size: {:.4}%",
        peak as f64 * 100.0 / bytes.len() as f64
    );
}
