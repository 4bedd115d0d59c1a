//! A global allocator that counts each thread's allocations, for allocation-free checks.
//! A test file opts in with `#[global_allocator] static GLOBAL: Counting = Counting;`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts allocations per thread, then defers to the system allocator.
pub struct Counting;

thread_local! {
    /// Allocations made by this thread (tests run on several threads).
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

/// Allocations made so far by the calling thread.
pub fn allocations() -> usize {
    ALLOCATIONS.with(|c| c.get())
}
