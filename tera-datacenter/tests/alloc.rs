//! Opening and walking a file allocates almost nothing: the tree borrows the
//! bytes (one test in this binary, so no other test allocates meanwhile).

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

#[test]
fn opening_and_walking_does_not_copy_the_file() {
    let bytes = write_dec(&bench_tree(100, 1000), &WriteOptions::default()).unwrap();
    let before = LIVE.load(Relaxed);
    PEAK.store(before, Relaxed);
    let dc = DataCenter::parse(&bytes).unwrap();
    let (elements, attributes) = walk_all(dc.root());
    let peak = PEAK.load(Relaxed) - before;
    assert_eq!(elements, 100_101);
    assert_eq!(attributes, 400_200);
    // The file is about 7 MB; what is allocated is the names and segment
    // tables (~26 KB) and the walk's stack (a thousand 24-byte handles).
    assert!(bytes.len() > 7_000_000, "{}", bytes.len());
    assert!(
        peak < 160 * 1024,
        "peak {peak} bytes for a file of {} bytes",
        bytes.len()
    );
}
