//! The binary's allocator: the system's, with the large blocks of the exact search on huge pages.
//!
//! The exact search reads its score table (60 MB on Mastermind 5x6) and its cache's tables
//! (hundreds of MB) at random, a line here and a line there: with pages of 4 KiB nearly every
//! read also misses the processor's table of page translations. Linux backs memory with pages of
//! 2 MiB where a program asks for them (`madvise`), or everywhere when so configured, which most
//! distributions do not; so `moo` asks, for every block of 2 MiB or more, and aligns such blocks
//! to 2 MiB so that they hold whole huge pages. Smaller blocks are left as the system makes
//! them. Where huge pages are off, or on other systems, the advice is ignored.

use std::alloc::{GlobalAlloc, Layout, System};

/// Blocks of this size or more are aligned to it and advised to use huge pages (the size of an
/// x86-64 or arm64 huge page: a smaller block could not hold one).
const HUGE: usize = 2 << 20;

/// [`System`], with every block of [`HUGE`] bytes or more aligned to it and on huge pages.
pub(crate) struct HugePages;

impl HugePages {
    /// The layout a block of `layout` is given by the system; the same for a block's allocation
    /// and its release.
    fn layout(layout: Layout) -> Layout {
        if layout.size() < HUGE {
            return layout;
        }
        layout.align_to(HUGE).unwrap_or(layout)
    }
}

// SAFETY: every block comes from `System` and goes back to it with the layout it was allocated
// with (`HugePages::layout` of the caller's layout, which the caller passes back unchanged).
unsafe impl GlobalAlloc for HugePages {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: `HugePages::layout` keeps the size (non-zero, as the caller's) and raises the
        // alignment to a power of two.
        let p = unsafe { System.alloc(HugePages::layout(layout)) };
        if layout.size() >= HUGE {
            advise_huge(p, layout.size());
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        if layout.size() < HUGE {
            // SAFETY: the caller's layout, unchanged.
            return unsafe { System.alloc_zeroed(layout) };
        }
        // Zeroed after the advice, not by the system before it: the pages are then made huge
        // as they are first written.
        // SAFETY: as in `alloc`; the block has `layout.size()` writable bytes if not null.
        unsafe {
            let p = self.alloc(layout);
            if !p.is_null() {
                std::ptr::write_bytes(p, 0, layout.size());
            }
            p
        }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` was allocated by `System` with this very layout (see `alloc`).
        unsafe { System.dealloc(ptr, HugePages::layout(layout)) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if layout.size() < HUGE && new_size < HUGE {
            // SAFETY: the caller's block and layout, both in the system's own layout.
            return unsafe { System.realloc(ptr, layout, new_size) };
        }
        // A block that is or becomes huge is moved, so it lands aligned and advised.
        // SAFETY: the caller guarantees `new_size` is non-zero and fits `layout.align()`; the
        // old block is valid for `layout.size()` bytes and the new one for `new_size`.
        unsafe {
            let new_layout = Layout::from_size_align_unchecked(new_size, layout.align());
            let new = self.alloc(new_layout);
            if !new.is_null() {
                std::ptr::copy_nonoverlapping(ptr, new, layout.size().min(new_size));
                self.dealloc(ptr, layout);
            }
            new
        }
    }
}

/// Advises the kernel to back the `len` bytes at `p` (aligned to [`HUGE`]) with huge pages.
fn advise_huge(p: *mut u8, len: usize) {
    #[cfg(target_os = "linux")]
    if !p.is_null() {
        // Only whole pages may be advised; the tail of a page past the block is left alone.
        let len = len & !4095;
        // SAFETY: the range lies within one live block, page-aligned at both ends; the advice
        // changes how the kernel backs it, never its contents. A failure (no huge pages in this
        // kernel) leaves the pages as they were.
        unsafe {
            libc::madvise(p.cast(), len, libc::MADV_HUGEPAGE);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (p, len);
}

/// Has glibc's allocator hand blocks of 1 MiB and more straight back to the system when freed.
///
/// A long exact search grows its cache to gigabytes in tables and arenas that double, and forgets
/// and rebuilds them when full. By default glibc raises its threshold for such blocks to 32 MiB as
/// it sees them freed, and then keeps every freed block below that for reuse that mostly never
/// comes, so the process held far more than its cache. With a fixed threshold those blocks go
/// back (the side-by-side runs with a smaller cache in the book's performance page,
/// `docs/src/performance.md`), and a vector of under 2 MiB grows
/// by remapping its pages instead of copying them.
pub(crate) fn tune() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes a tuning parameter of the allocator; it is called before any
    // thread starts.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, 1 << 20);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_blocks_are_aligned_zeroed_and_keep_their_bytes_when_moved() {
        let a = HugePages;
        let layout = Layout::from_size_align(3 * HUGE + 5, 8).unwrap();
        // SAFETY: every block is used within its size and released with its layout.
        unsafe {
            let p = a.alloc_zeroed(layout);
            assert!(!p.is_null());
            assert_eq!(p as usize % HUGE, 0, "a huge block starts on a huge page");
            let bytes = std::slice::from_raw_parts_mut(p, layout.size());
            assert!(bytes.iter().all(|&b| b == 0));
            for (i, b) in bytes.iter_mut().enumerate() {
                *b = i as u8;
            }
            // Shrunk below the threshold and grown back over it: the bytes kept come along.
            let small = a.realloc(p, layout, 1000);
            let small_layout = Layout::from_size_align(1000, 8).unwrap();
            assert!((0..1000).all(|i| *small.add(i) == i as u8));
            let big = a.realloc(small, small_layout, HUGE + 1);
            assert_eq!(big as usize % HUGE, 0);
            assert!((0..1000).all(|i| *big.add(i) == i as u8));
            a.dealloc(big, Layout::from_size_align(HUGE + 1, 8).unwrap());
        }
    }

    #[test]
    fn small_blocks_are_the_systems() {
        let v: Vec<u64> = (0..1000).collect();
        let w = v.iter().map(|x| x * 2).collect::<Vec<_>>();
        assert_eq!(w[999], 1998);
        let big = vec![7u8; HUGE * 2];
        assert_eq!(
            big.as_ptr() as usize % HUGE,
            0,
            "vec! goes through the global allocator"
        );
        assert!(big.iter().all(|&b| b == 7));
    }
}
