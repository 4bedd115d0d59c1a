//! The CLI's global allocator: the system allocator with two counters, the live heap bytes and
//! their peak, so `attn bench` can report the peak live heap of a benchmark case (every thread's
//! allocations count; thread stacks and the binary's static memory are not heap and do not).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Defers to [`System`] and counts the bytes it hands out and takes back.
pub struct PeakCounting;

#[global_allocator]
static GLOBAL: PeakCounting = PeakCounting;

/// Bytes allocated and not yet freed.
static LIVE: AtomicUsize = AtomicUsize::new(0);
/// Largest value `LIVE` reached since the last [`reset_peak`].
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = LIVE.fetch_add(bytes, Relaxed) + bytes;
    PEAK.fetch_max(now, Relaxed);
}

fn shrank(bytes: usize) {
    LIVE.fetch_sub(bytes, Relaxed);
}

// SAFETY: every call is forwarded unchanged to `System`; the counters only observe sizes.
unsafe impl GlobalAlloc for PeakCounting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            grew(layout.size());
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        shrank(layout.size());
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                grew(new_size - layout.size());
            } else {
                shrank(layout.size() - new_size);
            }
        }
        p
    }
}

/// Starts a new measuring window: the peak becomes the live bytes now, which are returned.
pub fn reset_peak() -> usize {
    let now = LIVE.load(Relaxed);
    PEAK.store(now, Relaxed);
    now
}

/// The largest number of live heap bytes since the last [`reset_peak`] (bytes).
pub fn peak() -> usize {
    PEAK.load(Relaxed)
}
