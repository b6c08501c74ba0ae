//! Buffers kept by each thread between calls of the search's hot paths.
//!
//! A node's bulk passes fill buffers as long as the code space (a few kilobytes each) millions of
//! times a search, and allocating them afresh each time cost about a twentieth of no leading
//! zero's time in the allocator. A buffer is taken out of its thread's cell for one call and
//! put back after, so a call that reaches the same cell again, or a thread that has not yet
//! kept one, simply starts from an empty buffer.

use std::cell::Cell;
use std::thread::LocalKey;

use super::bulk::Splits;

thread_local! {
    /// Each guess's part score ([`super::Solver::with_part_scores`]).
    pub(super) static SCORES: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
    /// Marks of guesses, one bit each.
    pub(super) static MARKS: Cell<Vec<u64>> = const { Cell::new(Vec::new()) };
    /// Each guess's one-guess bound.
    pub(super) static BOUNDS: Cell<Vec<u32>> = const { Cell::new(Vec::new()) };
    /// How each guess splits a set.
    pub(super) static SPLITS: Cell<Splits> = Cell::new(Splits::default());
}

/// Runs `f` with this thread's spare buffer from `key`, and keeps the buffer for the next call.
/// The buffer holds whatever the last call left in it: `f` must clear or overwrite it.
#[inline]
pub(super) fn with<T: Default + 'static, R>(
    key: &'static LocalKey<Cell<T>>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    let mut buffer = key.take();
    let result = f(&mut buffer);
    key.set(buffer);
    result
}
