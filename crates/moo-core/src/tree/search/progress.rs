//! Live counters of a running search, shared with whoever displays its progress.

use std::sync::atomic::{AtomicU64, Ordering};

/// Live counters of a running search, readable from another thread (for progress display).
#[derive(Debug, Default)]
pub struct Progress {
    pub(super) nodes: AtomicU64,
    pub(super) memo: AtomicU64,
    pub(super) bound: AtomicU64,
    pub(super) solved: AtomicU64,
    pub(super) depth: AtomicU64,
    pub(super) borrowed: AtomicU64,
}

impl Progress {
    /// A new set of counters.
    pub fn new() -> Progress {
        Progress {
            bound: AtomicU64::new(u64::MAX),
            ..Progress::default()
        }
    }

    /// Candidate sets searched so far (cache hits and closed forms included).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Candidate sets in the cache.
    pub fn cached(&self) -> u64 {
        self.memo.load(Ordering::Relaxed)
    }

    /// The best total proven so far for the whole game, if one is known yet.
    pub fn bound(&self) -> Option<u64> {
        Some(self.bound.load(Ordering::Relaxed)).filter(|&b| b != u64::MAX)
    }

    /// The depth limit being tried, for the objectives that try one depth after another
    /// (worst case, fewest at worst); `None` before the first or for the average.
    pub fn depth(&self) -> Option<u32> {
        Some(self.depth.load(Ordering::Relaxed) as u32).filter(|&d| d != 0)
    }

    /// Candidate sets answered from the cache by the result of another set equal to them up to
    /// relabelling symbols and permuting positions (see [`SearchOptions::classes`](super::SearchOptions::classes)).
    pub fn borrowed(&self) -> u64 {
        self.borrowed.load(Ordering::Relaxed)
    }

    /// Counts a candidate set searched by a search outside this module, which keeps `cached`
    /// answers.
    pub(crate) fn searched(&self, cached: usize) {
        self.nodes.fetch_add(1, Ordering::Relaxed);
        self.memo.store(cached as u64, Ordering::Relaxed);
    }

    /// How many of the first guess's parts have been solved exactly.
    pub fn parts_solved(&self) -> u64 {
        self.solved.load(Ordering::Relaxed)
    }
}
