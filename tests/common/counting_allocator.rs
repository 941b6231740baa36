//! A counting global allocator for the host-only allocation tests: `allocations_in(f)` tells
//! how many allocations `f` made on the current thread. Each test target that includes this file
//! installs it as its global allocator.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// `System`, counting the allocations made by the current thread while it is counting.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
}

fn note_allocation(bytes: usize) {
    // `try_with`: thread locals may be gone while a thread shuts down.
    let counting = COUNTING.try_with(Cell::get).unwrap_or(false);
    if counting {
        let _ = ALLOCATIONS.try_with(|count| count.set(count.get() + 1));
        let _ = BYTES.try_with(|total| total.set(total.get() + bytes));
    }
    note_live(bytes.cast_signed());
}

/// Adds `change` to the bytes this thread holds while it is counting (a free subtracts).
fn note_live(change: isize) {
    if COUNTING.try_with(Cell::get).unwrap_or(false) {
        let _ = LIVE.try_with(|live| live.set(live.get() + change));
    }
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged, so `System`'s
// guarantees hold; the bookkeeping only touches `const`-initialised thread locals, which never
// allocate (so it cannot recurse into the allocator).
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note_allocation(layout.size());
        // SAFETY: forwarded as is; the caller upholds `GlobalAlloc::alloc`'s contract.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note_allocation(layout.size());
        // SAFETY: as for `alloc`.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note_allocation(new_size);
        note_live(-layout.size().cast_signed());
        // SAFETY: `ptr` and `layout` come from this allocator, which is `System`'s.
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note_live(-layout.size().cast_signed());
        // SAFETY: `ptr` and `layout` come from this allocator, which is `System`'s.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// How many allocations `f` made on this thread.
#[allow(dead_code)] // not every test that counts allocations needs only their count
pub fn allocations_in(f: impl FnOnce()) -> usize {
    allocated_in(f).0
}

/// How many allocations `f` made on this thread, and how many bytes they asked for in all (a
/// reallocation counts its new size).
#[allow(dead_code)] // not every test that counts allocations counts their bytes
pub fn allocated_in(f: impl FnOnce()) -> (usize, usize) {
    ALLOCATIONS.with(|count| count.set(0));
    BYTES.with(|total| total.set(0));
    COUNTING.with(|counting| counting.set(true));
    f();
    COUNTING.with(|counting| counting.set(false));
    (ALLOCATIONS.with(Cell::get), BYTES.with(Cell::get))
}

/// How many bytes of heap `f` left allocated on this thread when it returned: what it
/// allocated and did not free, less what it freed of earlier allocations.
#[allow(dead_code)] // not every test that counts allocations counts what stays
pub fn kept_by(f: impl FnOnce()) -> isize {
    LIVE.with(|live| live.set(0));
    COUNTING.with(|counting| counting.set(true));
    f();
    COUNTING.with(|counting| counting.set(false));
    LIVE.with(Cell::get)
}
