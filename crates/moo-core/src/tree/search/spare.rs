//! Buffers kept by each thread between calls of the search's hot paths.
//!
//! A node's bulk passes fill buffers as long as the code space (a few kilobytes each) millions of
//! times a search, and allocating them afresh each time cost about a twentieth of no leading
//! zero's time in the allocator. Each thread keeps a stack of spares of each kind: a call takes
//! one and puts it back after, so a call made while another holds a buffer (the search of a
//! part while its parent's guesses are still being taken in order) gets one of its own, which
//! after the first few sets is a spare too.

use std::cell::Cell;
use std::thread::LocalKey;

use super::bulk::Splits;

thread_local! {
    /// Each guess's part score ([`super::lower_bounds::Bounds::with_part_scores`]).
    pub(super) static SCORES: Cell<Vec<Vec<u8>>> = const { Cell::new(Vec::new()) };
    /// Marks of guesses, one bit each.
    pub(super) static MARKS: Cell<Vec<Vec<u64>>> = const { Cell::new(Vec::new()) };
    /// Each guess's one-guess bound.
    pub(super) static BOUNDS: Cell<Vec<Vec<u32>>> = const { Cell::new(Vec::new()) };
    /// How each guess splits a set.
    pub(super) static SPLITS: Cell<Vec<Splits>> = const { Cell::new(Vec::new()) };
}

/// This thread's spares of one kind.
type Spares<T> = LocalKey<Cell<Vec<T>>>;

/// A spare buffer from `key` (an empty one if this thread has none left), to be given back by
/// [`put`]. It holds whatever its last user left in it: clear or overwrite it.
#[inline]
pub(super) fn take<T: Default + 'static>(key: &'static Spares<T>) -> T {
    let mut spares = key.take();
    let buffer = spares.pop().unwrap_or_default();
    key.set(spares);
    buffer
}

/// Gives `buffer` back to this thread's spares of its kind.
#[inline]
pub(super) fn put<T: 'static>(key: &'static Spares<T>, buffer: T) {
    let mut spares = key.take();
    spares.push(buffer);
    key.set(spares);
}

/// Runs `f` with a spare buffer from `key` ([`take`]) and gives it back after.
#[inline]
pub(super) fn with<T: Default + 'static, R>(
    key: &'static Spares<T>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let mut buffer = take(key);
    let result = f(&mut buffer);
    put(key, buffer);
    result
}
