//! The guesses of a searched set ranked for its parts' lookaheads.
//!
//! A set of 128 to 255 codes tries about 1400 guesses, and each try looks ahead one guess on
//! the parts nothing else bounds: a pass over every guess of the game for each part. But a
//! part of the set splits under any guess into no more parts than the whole set does, so a
//! guess's score on the set (its parts, plus one if a member) bounds its score on every part,
//! and with it the parts floor `3n - score` of its bound there. Ranked once by that score, a
//! set's guesses are taken best first by every part's lookahead, which stops at the first rank
//! whose floor reaches the least bound found: the same bound as a pass over every guess, after
//! about a fifteenth of it on Mastermind 5x6 (the book's `docs/src/performance.md`).

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use smallvec::SmallVec;

use super::columns::gather_rows;
use super::lower_bounds::Bounds;
use super::pairs::{Pairs, PartPairs};
use super::spare;

/// The ranks a part's lookahead takes at a time: each block is one bulk pass, and its members'
/// feedbacks are gathered in the set's own order when a lookahead first reaches it.
const BLOCK: usize = 256;

/// A searched set's guesses by their score on it, made once its parts' lookaheads have read as
/// many members' rows as the set has: ranking costs a pass over every guess for each member of
/// the set, which a set whose tries look ahead once or twice would not earn back. It also
/// holds the set's pairwise feedbacks ([`Pairs`]), which its tries gather the same way.
pub(super) struct Ranked<'s> {
    set: &'s [u32],
    /// The set's pairwise feedbacks, for its tries' parts.
    pub(super) pairs: Pairs<'s>,
    /// The members of the parts looked ahead so far the old way.
    read: AtomicU32,
    ranking: OnceLock<Option<Ranking>>,
}

/// Every guess that teaches something on the set, by score on the set, highest first (then by
/// index), and the members' feedbacks against them, a block of ranks at a time.
struct Ranking {
    guesses: Vec<u32>,
    /// Each rank's score on the set: non-increasing.
    scores: Vec<u8>,
    /// Block `k` holds, member after member in the set's order, its feedbacks against the
    /// guesses of ranks `k * BLOCK ..`, gathered when first read.
    blocks: Vec<OnceLock<Box<[u8]>>>,
}

impl<'s> Ranked<'s> {
    /// Nothing ranked yet for `set` (sorted).
    pub(super) fn new(set: &'s [u32]) -> Ranked<'s> {
        Ranked::within(set, None)
    }

    /// [`Ranked::new`] of a part of a searched set, whose pairwise feedbacks `parent` views
    /// when the set gathered them ([`Pairs::new`]).
    pub(super) fn within(set: &'s [u32], parent: Option<PartPairs<'s>>) -> Ranked<'s> {
        Ranked {
            set,
            pairs: Pairs::new(set, parent),
            read: AtomicU32::new(0),
            ranking: OnceLock::new(),
        }
    }

    /// The one-guess lookahead bound of `part`, a subset of the set whose members' positions in
    /// the set `at` gives if known (else they are looked up), below `cap` (else `cap`),
    /// as [`Bounds::min_bound_by_parts`] gives it over every guess, when the set has ranked its
    /// guesses; `None` until then, or when the bulk passes do not apply. The caller checks that
    /// the part's lookahead counts parts first ([`Bounds::counts_parts_first`]).
    pub(super) fn min_bound(
        &self,
        bounds: &Bounds,
        (part, at): (&[u32], Option<&[u8]>),
        child_depth: u8,
        cap: u32,
    ) -> Option<u32> {
        if self.ranking.get().is_none()
            && self.read.fetch_add(part.len() as u32, Ordering::Relaxed) < self.set.len() as u32
        {
            return None;
        }
        let ranking = self
            .ranking
            .get_or_init(|| Ranking::new(bounds, self.set))
            .as_ref()?;
        Some(ranking.min_bound(bounds, self.set, (part, at), child_depth, cap))
    }
}

impl Ranking {
    /// `set`'s guesses ranked by their score on it; `None` when the bulk passes do not apply.
    fn new(bounds: &Bounds, set: &[u32]) -> Option<Ranking> {
        bounds.with_part_scores(set, |scores, _| {
            // A counting sort: scores are the parts and membership, at most a few dozen.
            let top = usize::from(scores.iter().copied().max().unwrap_or(0));
            let mut starts = vec![0usize; top + 2];
            for &s in scores {
                starts[top - usize::from(s) + 1] += 1;
            }
            for i in 1..starts.len() {
                starts[i] += starts[i - 1];
            }
            // A score of 0 is a guess that teaches nothing on the set, nor on any part of it.
            let ranked = starts[top];
            let mut guesses = vec![0u32; ranked];
            let mut ranks = vec![0u8; ranked];
            for (g, &s) in scores.iter().enumerate() {
                if s == 0 {
                    continue;
                }
                let at = &mut starts[top - usize::from(s)];
                guesses[*at] = g as u32;
                ranks[*at] = s;
                *at += 1;
            }
            let blocks = (0..ranked.div_ceil(BLOCK))
                .map(|_| OnceLock::new())
                .collect();
            Ranking {
                guesses,
                scores: ranks,
                blocks,
            }
        })
    }

    /// [`Ranked::min_bound`] once ranked: a bulk pass over one block of ranks after another,
    /// each [`Bounds::min_bound_by_parts`] over the block's guesses, until a block's best
    /// score on the set leaves a floor that reaches the least bound found. A guess left out
    /// scores on the part at most what it scores on the set, so its bound is at least that
    /// floor, and the least bound is the one a pass over every guess finds.
    fn min_bound(
        &self,
        bounds: &Bounds,
        set: &[u32],
        (part, at): (&[u32], Option<&[u8]>),
        child_depth: u8,
        cap: u32,
    ) -> u32 {
        let n3 = 3 * part.len() as u32;
        let at: SmallVec<[usize; 64]> = match at {
            Some(at) => at.iter().map(|&i| usize::from(i)).collect(),
            None => part
                .iter()
                .map(|s| {
                    set.binary_search(s)
                        .expect("a part's members are members of its set")
                })
                .collect(),
        };
        let mut best = cap;
        spare::with(&spare::SCORES, |scores| {
            for (k, ranks) in self.scores.chunks(BLOCK).enumerate() {
                if n3.saturating_sub(u32::from(ranks[0])) >= best {
                    break;
                }
                let width = ranks.len();
                let block = self.block(k, bounds, set);
                let rows: SmallVec<[&[u8]; 64]> = at
                    .iter()
                    .map(|&i| &block[i * width..(i + 1) * width])
                    .collect();
                bounds.part_scores(&rows, width, scores);
                best = bounds.min_bound_by_parts(&rows, scores, child_depth, best);
            }
        });
        best
    }

    /// Block `k` of the members' feedbacks against the ranked guesses, gathered on first use.
    fn block(&self, k: usize, bounds: &Bounds, set: &[u32]) -> &[u8] {
        self.blocks[k].get_or_init(|| {
            let guesses = &self.guesses[k * BLOCK..self.guesses.len().min((k + 1) * BLOCK)];
            gather_rows(bounds.rows, set, guesses)
        })
    }
}
