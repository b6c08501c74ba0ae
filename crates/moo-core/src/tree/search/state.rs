//! What one search has proven so far and how it stops: the cache of results by candidate set,
//! the cache by class of equivalent sets, the checkpoint it appends to, its progress counters and
//! its stop. The recursion asks this value what is known of a set before searching it, and
//! tells it what the search proved after.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::checkpoint::Checkpoint;
use super::classes::Classes;
use super::lower_bounds::Bounds;
use super::memo::{Entry, Memo};
use super::pairs::PartPairs;
use super::solved::{below, Solved, CLOCK_SET, NO_GUESS, UNLIMITED};
use super::{Progress, CLASSES_AFTER};
use crate::space::CodeSpace;
use crate::stop::Stop;

/// The caches, progress and stop of one search.
pub(super) struct State<'a> {
    pub(super) memo: Memo,
    /// The game's relabellings and a cache of results by class of sets equal up to them
    /// ([`classes`](super::classes)), for the games whose codes they can name.
    classes: Option<(Classes, Memo)>,
    /// Sets are named for the cache of classes once this many have been searched.
    classes_after: u64,
    pub(super) progress: &'a Progress,
    /// When to give up.
    pub(super) stop: &'a Stop,
    /// Set once `stop` has fired: every search still running returns at once, and nothing more
    /// is cached.
    halted: AtomicBool,
    /// Where to append what is proven about large sets, and this search's tag there.
    pub(super) checkpoint: Option<(&'a Checkpoint, u8)>,
}

impl<'a> State<'a> {
    /// A fresh state for a game of `codes` codes, with a cache of `cache_bytes`.
    pub(super) fn new(
        codes: usize,
        progress: &'a Progress,
        stop: &'a Stop,
        cache_bytes: u64,
    ) -> State<'a> {
        State {
            memo: Memo::new(codes, cache_bytes),
            classes: None,
            classes_after: CLASSES_AFTER,
            progress,
            stop,
            halted: AtomicBool::new(false),
            checkpoint: None,
        }
    }

    /// Stops the search: every search still running returns at once.
    pub(super) fn halt(&self) {
        self.halted.store(true, Ordering::Relaxed);
    }

    /// Whether the search has been stopped (one load).
    pub(super) fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }

    /// Counts one more set searched, of `n` codes, and says whether the search must stop. The
    /// clock is read every 64 sets, which keeps its cost out of the profile, and at every set of
    /// [`CLOCK_SET`] codes or more, whose bulk passes cost far more than a clock read (one set of
    /// a 1024-code game takes milliseconds), so the search stops within a few milliseconds of
    /// the deadline on any game.
    pub(super) fn tick(&self, n: usize) -> bool {
        let seen = self.progress.nodes.fetch_add(1, Ordering::Relaxed);
        self.must_stop(seen.is_multiple_of(64) || n >= CLOCK_SET)
    }

    /// Whether the search must stop, reading the clock only if `read_clock`.
    pub(super) fn must_stop(&self, read_clock: bool) -> bool {
        if self.halted() {
            return true;
        }
        if (read_clock && self.stop.is_stopped()) || self.stop.is_cancelled() {
            self.halt();
            return true;
        }
        false
    }

    /// Makes sets equal up to the game's symmetries share results, if the game's codes can be
    /// named up to them ([`Classes::new`]), in a cache of their own that takes a quarter of
    /// `cache_bytes`: each of its entries answers a whole class, but only sets of
    /// [`classes::CLASS_MIN`] members or more are named, once `after` sets have been searched.
    pub(super) fn share_classes(&mut self, space: &CodeSpace, cache_bytes: u64, after: u64) {
        if let Some(classes) = Classes::new(space) {
            self.classes_after = after;
            self.memo = Memo::new(space.len(), cache_bytes - cache_bytes / 4);
            self.classes = Some((classes, Memo::new(space.len(), cache_bytes / 4)));
        }
    }

    /// What the cache knows about `set` within `depth` guesses. A result without the depth limit
    /// still helps: its bound holds under any limit, and its tree is optimal under the limit too
    /// when it already fits.
    pub(super) fn lookup(&self, set: &[u32], depth: u8) -> Option<Entry> {
        let own = self.memo.get(set, depth);
        if depth == UNLIMITED || own.is_some_and(|e| e.exact.is_some()) {
            return own;
        }
        let free = self.memo.get(set, UNLIMITED);
        match (own, free) {
            (own, Some(free)) => {
                let exact = free.exact.filter(|s| s.worst <= depth);
                let bound = free.bound.max(own.map_or(0, |e| e.bound));
                Some(Entry {
                    bound: exact.map_or(bound, |s| s.total),
                    exact,
                })
            }
            (own, None) => own,
        }
    }

    /// What the cache knows of `set`: the answer, or `bound` raised by what it proved.
    pub(super) fn recalled(
        &self,
        set: &[u32],
        limit: u32,
        depth: u8,
        bound: u32,
    ) -> ControlFlow<Result<Solved, u32>, u32> {
        let Some(entry) = self.lookup(set, depth) else {
            return ControlFlow::Continue(bound);
        };
        settles(entry, limit, bound)
    }

    /// What the cache of classes knows of `set`'s class (named `class`): the answer, or `bound`
    /// raised by what it proved. A borrowed answer is kept under the set itself too, where the
    /// parts' bounds are looked up.
    pub(super) fn borrowed(
        &self,
        set: &[u32],
        class: Option<&[u32]>,
        limit: u32,
        depth: u8,
        bound: u32,
    ) -> ControlFlow<Result<Solved, u32>, u32> {
        let (Some(key), Some((_, classes))) = (class, &self.classes) else {
            return ControlFlow::Continue(bound);
        };
        let Some(entry) = classes.get(key, depth) else {
            return ControlFlow::Continue(bound);
        };
        // Another set's guess means nothing here: a borrowed tree is kept without one.
        let entry = match entry.exact {
            Some(sol) => {
                let sol = Solved {
                    guess: NO_GUESS,
                    ..sol
                };
                Entry {
                    bound: sol.total,
                    exact: Some(sol),
                }
            }
            None => entry,
        };
        let settled = settles(entry, limit, bound);
        if settled.is_break() {
            self.progress.borrowed.fetch_add(1, Ordering::Relaxed);
            self.memo.put(set, depth, entry);
        }
        settled
    }

    /// Keeps what the search of `set` proved (in the cache, the cache of classes and the
    /// checkpoint) and returns it, a failure as the bound it proved.
    pub(super) fn remember(
        &self,
        set: &[u32],
        class: Option<&[u32]>,
        depth: u8,
        limit: u32,
        result: Result<Solved, u32>,
    ) -> Result<Solved, u32> {
        let entry = match result {
            Ok(sol) => Entry {
                bound: sol.total,
                exact: Some(sol),
            },
            Err(at_least) => Entry {
                bound: at_least.max(limit),
                exact: None,
            },
        };
        if self.memo.put(set, depth, entry) {
            self.progress.memo.fetch_add(1, Ordering::Relaxed);
        }
        if let (Some(key), Some((_, classes))) = (class, &self.classes) {
            classes.put(key, depth, entry);
        }
        if let Some((checkpoint, tag)) = self.checkpoint {
            checkpoint.record(tag, set, depth, entry);
        }
        result.map_err(|_| entry.bound)
    }

    /// The name of `set`'s class for the cache of classes, if the game has one and the set is
    /// worth naming ([`Classes::worth`]); `pairs` as [`Classes::name`] takes them.
    pub(super) fn class_of(
        &self,
        bounds: &Bounds,
        set: &[u32],
        pairs: Option<PartPairs>,
    ) -> Option<Vec<u32>> {
        let (classes, _) = self.classes.as_ref()?;
        if !Classes::worth(set.len()) {
            return None;
        }
        if self.progress.nodes() < self.classes_after {
            return None;
        }
        classes.name(bounds, set, pairs)
    }
}

/// What a cache entry settles for a search under `limit`: its tree or its proven failure, or
/// else `bound` raised by the bound it proved.
fn settles(entry: Entry, limit: u32, bound: u32) -> ControlFlow<Result<Solved, u32>, u32> {
    if let Some(sol) = entry.exact {
        return ControlFlow::Break(below(sol, limit));
    }
    if entry.bound >= limit {
        return ControlFlow::Break(Err(entry.bound));
    }
    ControlFlow::Continue(bound.max(entry.bound))
}
