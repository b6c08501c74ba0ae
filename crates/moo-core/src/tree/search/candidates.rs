//! The guesses worth trying at a node, each with its proven lower bound, and the order they are
//! tried in: cheapest bound first, so a good total comes early and the loop stops at the first
//! guess whose bound reaches it.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use smallvec::{smallvec, SmallVec};

use super::bulk::{highest, mark_above, mark_below, mark_equal, marked};
use super::lower_bounds::Bounds;
use super::orbits::Orbits;
use super::solved::{child_limit, FEEDBACKS, INF};
use super::spare;
use crate::pool::GuessPool;
use crate::stop::Stop;

/// A candidate guess at a node, with its proven lower bound.
#[derive(Debug, Clone, Copy)]
pub(super) struct Candidate {
    pub(super) guess: u32,
    pub(super) bound: u32,
    pub(super) member: bool,
}

impl Candidate {
    /// The order guesses are tried in: cheapest bound first, members before other codes at
    /// equal bounds, then by index (so the order is total and the tree does not depend on the
    /// sort).
    pub(super) fn order(&self) -> (u32, bool, u32) {
        (self.bound, !self.member, self.guess)
    }

    /// [`Candidate::order`] packed in one integer, which compares faster: code indexes fit 31
    /// bits (a score table has at most [`crate::space::TABLE_LIMIT_CODES`] codes).
    pub(super) fn key(&self) -> u64 {
        debug_assert!(self.guess < 1 << 31);
        (u64::from(self.bound) << 32) | (u64::from(!self.member) << 31) | u64::from(self.guess)
    }

    pub(super) fn from_key(key: u64) -> Candidate {
        Candidate {
            guess: key as u32 & !(1 << 31),
            bound: (key >> 32) as u32,
            member: key & (1 << 31) == 0,
        }
    }
}

/// The guesses worth trying at a node, each with its lower bound, in no particular order
/// ([`Candidate::order`] gives the order they are tried in), and the least bound of those
/// left out ([`INF`] if none): guesses that cannot beat `limit` or fit `depth`. `None` when `stop` fired
/// during the scan of a set too large for the bulk pass.
pub(super) fn candidates(
    bounds: &Bounds,
    set: &[u32],
    orbits: &Orbits,
    limit: u32,
    depth: u8,
    stop: &Stop,
) -> Option<(Vec<Candidate>, u32)> {
    let n = set.len();
    let child_depth = child_limit(depth);
    let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; bounds.slots];
    let mut out = Vec::new();
    let mut left_out = INF;
    let mut consider = |g: u32, out: &mut Vec<Candidate>, left_out: &mut u32| {
        if !orbits.tries(bounds.space, g as usize) {
            return;
        }
        let Some(split) = bounds.split_bound(g, set, &mut counts, limit, child_depth) else {
            // Counting stopped at the limit, so the limit is all it proved.
            *left_out = (*left_out).min(limit);
            return;
        };
        let Some((bound, member)) = bounds.bound_of_split(n, split, child_depth) else {
            return;
        };
        if bound >= limit {
            *left_out = (*left_out).min(bound);
            return;
        }
        out.push(Candidate {
            guess: g,
            bound,
            member,
        });
    };
    // A guess outside the set solves nobody now, so it costs at least `outside_lb[n]`; when
    // that cannot beat the limit only members are worth scanning.
    let outside = bounds.outside(n, depth);
    if bounds.pool == GuessPool::Consistent || outside >= limit {
        if bounds.pool == GuessPool::All {
            left_out = outside;
        }
        set.iter()
            .for_each(|&g| consider(g, &mut out, &mut left_out));
    } else if let Some(least) = (BulkPass {
        bounds,
        set,
        orbits,
        limit,
        child_depth,
    })
    .candidates(&mut out)
    {
        left_out = left_out.min(least);
    } else {
        // The sets too large for the bulk pass take longest here: look at the clock now and
        // then, and return nothing once stopped (the caller then gives up too).
        for g in 0..bounds.n_codes as u32 {
            if g % 256 == 255 && stop.is_stopped() {
                return None;
            }
            consider(g, &mut out, &mut left_out);
        }
    }
    Some((out, left_out))
}

/// What the bulk passes of [`candidates`] look at: a node's set, the guesses its orbits leave,
/// and the limit and depth the guesses' bounds are counted against.
#[derive(Clone, Copy)]
struct BulkPass<'a> {
    bounds: &'a Bounds<'a>,
    set: &'a [u32],
    orbits: &'a Orbits<'a>,
    limit: u32,
    child_depth: u8,
}

impl BulkPass<'_> {
    /// [`candidates`] from one bulk pass, when it applies ([`Bounds::with_bulk_bounds`]): pushes
    /// the guesses below `limit` that `orbits` leaves onto `out` and returns the least bound of
    /// the others.
    fn candidates(&self, out: &mut Vec<Candidate>) -> Option<u32> {
        if let Some(least) = self.sparse_candidates(out) {
            return Some(least);
        }
        self.bounds
            .with_bulk_bounds(self.set, self.child_depth, |each, splits| {
                spare::with(&spare::MARKS, |below| {
                    let least = mark_below(self.bounds.kernel, each, self.limit, below);
                    self.orbits.mask(below);
                    out.reserve(below.iter().map(|w| w.count_ones() as usize).sum());
                    for g in tried(below, self.orbits, self.bounds) {
                        out.push(Candidate {
                            guess: g as u32,
                            bound: each[g],
                            member: splits.member(g),
                        });
                    }
                    least
                })
            })
    }

    /// [`BulkPass::candidates`] when few guesses can beat `limit`: a guess making `p` parts (the
    /// winning one included) costs at least `3n - p - member` (a part of `c` costs at least
    /// `2c - 1`), which the cheaper bulk pass that only notes which feedbacks occur gives for
    /// every guess ([`Bounds::with_part_scores`]). Only the guesses that floor leaves below the
    /// limit are split one by one; the others' floors bound what is left out. `None` when the
    /// pass does not apply or leaves too many guesses for splitting one by one to pay.
    fn sparse_candidates(&self, out: &mut Vec<Candidate>) -> Option<u32> {
        // The floor ignores a last-level weight, under which it seldom rules a guess out.
        if self.bounds.level.weighted() {
            return None;
        }
        let n = self.set.len() as u32;
        // A guess scoring `s` (its parts, plus one if a member) is below the limit only if
        // `3n - s < limit`.
        let level = u8::try_from((3 * n).checked_sub(self.limit)?).ok()?;
        self.bounds
            .with_part_scores(self.set, |scores, rows| {
                spare::with(&spare::MARKS, |marks| {
                    let rest = mark_above(self.bounds.kernel, scores, level, marks);
                    self.orbits.mask(marks);
                    let count: usize = marks.iter().map(|w| w.count_ones() as usize).sum();
                    if count * SPARSE_SHARE > self.bounds.n_codes {
                        return None;
                    }
                    // A score of 0 is a guess that teaches nothing, never worth its cost.
                    let mut left_out = if rest > 0 {
                        3 * n - u32::from(rest)
                    } else {
                        INF
                    };
                    let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.bounds.slots];
                    for g in tried(marks, self.orbits, self.bounds) {
                        let Some((bound, member)) = self
                            .bounds
                            .split_bound_by_rows(g, rows, &mut counts, INF, self.child_depth)
                            .and_then(|split| {
                                self.bounds
                                    .bound_of_split(self.set.len(), split, self.child_depth)
                            })
                        else {
                            continue;
                        };
                        if bound < self.limit {
                            out.push(Candidate {
                                guess: g as u32,
                                bound,
                                member,
                            });
                        } else {
                            left_out = left_out.min(bound);
                        }
                    }
                    Some(left_out)
                })
            })
            .flatten()
    }
}

/// [`BulkPass::sparse_candidates`] splits guesses one by one only when at most one guess in this
/// many is left below the limit by its parts floor: one guess split alone costs a few dozen times
/// what the bulk pass spends on it (Mastermind 4x8 and 5x5 measured alike at 8 to 128, see the
/// book's `docs/src/performance.md`).
const SPARSE_SHARE: usize = 32;

/// The guesses marked in `marks` that `orbits` tries, once [`Orbits::mask`] has cleared the
/// ones marked orbits leave out: only a `Check` is still asked, guess by guess.
fn tried<'a>(
    marks: &'a [u64],
    orbits: &'a Orbits,
    bounds: &'a Bounds,
) -> impl Iterator<Item = usize> + 'a {
    marked(marks).filter(move |&g| match orbits {
        Orbits::Check(_) => orbits.tries(bounds.space, g),
        _ => true,
    })
}

/// The guesses worth trying at a node with a limit, taken one at a time in the order of
/// [`Candidate::order`] by their exact one-guess bounds, for a search that stops after a few:
/// each guess's parts floor `3n - p - member` ([`BulkPass::sparse_candidates`]) is a place in the
/// order it cannot come before, since its exact bound can raise it but never lower it, so a
/// guess's exact bound is counted ([`Bounds::split_bound_by_rows`]) only when its floor comes
/// first, and the floors themselves are listed one score at a time, from the highest, only as the
/// order reaches them. The same guesses as [`candidates`] keeps, in the same order, and the loop that
/// takes them counts few exact bounds beyond those it tries and lists few floors beyond those.
pub(super) struct FloorOrder<'a> {
    bounds: &'a Bounds<'a>,
    set: &'a [u32],
    orbits: &'a Orbits<'a>,
    child_depth: u8,
    /// The members' score rows, read by the part scores and by every exact bound.
    rows: SmallVec<[&'a [u8]; 64]>,
    /// Every guess's part score (a spare of [`spare::SCORES`], given back on drop).
    scores: Vec<u8>,
    /// The score whose guesses `floors` lists; the scores below `last` are never listed.
    level: u8,
    last: u8,
    /// The guesses of score `level` still to take, in reverse order (the next is the last),
    /// each with its floor as its bound.
    floors: Vec<Candidate>,
    /// The guesses whose exact bound was counted and came after another guess: their keys
    /// ([`Candidate::key`]), least first.
    raised: BinaryHeap<Reverse<u64>>,
    counts: SmallVec<[u32; FEEDBACKS]>,
}

/// The order a node takes its guesses in, one at a time, as the loop that tries them asks:
/// [`FloorOrder`] for the few a small node with a limit tries, [`SortedChunks`] for a list of
/// every candidate.
pub(super) trait GuessOrder {
    /// The next guess in [`Candidate::order`] if its bound is below `limit`, else the least
    /// bound left ([`INF`] if none), which then bounds every guess not yet taken.
    fn next(&mut self, limit: u32) -> Next;
}

/// What [`GuessOrder::next`] gives.
pub(super) enum Next {
    /// The next guess in the order, with its exact bound, below the limit.
    Try(Candidate),
    /// No guess left below the limit: the least bound of those left ([`INF`] if none).
    Done(u32),
}

impl<'a> FloorOrder<'a> {
    /// The guesses of `set` worth trying below `limit` within `depth`, and the least floor of
    /// those left out ([`INF`] if none). `None` when the parts floor does not apply
    /// ([`BulkPass::sparse_candidates`]), or when only members are worth trying.
    pub(super) fn new(
        bounds: &'a Bounds<'a>,
        set: &'a [u32],
        orbits: &'a Orbits<'a>,
        limit: u32,
        depth: u8,
    ) -> Option<(FloorOrder<'a>, u32)> {
        if bounds.level.weighted() || bounds.pool != GuessPool::All {
            return None;
        }
        let n = set.len() as u32;
        if bounds.outside(set.len(), depth) >= limit {
            return None;
        }
        // The guesses scoring above `level` have a floor below the limit.
        let level = u8::try_from((3 * n).checked_sub(limit)?).ok()?;
        // Scored straight into the buffer the order keeps: a copy of every guess's score was
        // a memmove of the whole space per set.
        let mut scores = spare::take(&spare::SCORES);
        let Some(rows) = bounds.part_scores_into(set, &mut scores) else {
            spare::put(&spare::SCORES, scores);
            return None;
        };
        let (top, rest) = highest(bounds.kernel, &scores, level);
        // A score of 0 is a guess that teaches nothing, never worth its cost.
        let left_out = if rest > 0 {
            3 * n - u32::from(rest)
        } else {
            INF
        };
        let order = FloorOrder {
            bounds,
            set,
            orbits,
            child_depth: child_limit(depth),
            rows,
            scores,
            // One above the highest score: the first call lists the highest.
            level: top.saturating_add(1),
            last: level + 1,
            floors: Vec::new(),
            raised: BinaryHeap::new(),
            counts: smallvec![0; bounds.slots],
        };
        Some((order, left_out))
    }

    /// [`GuessOrder::next`], its guesses' exact bounds counted as the order reaches them.
    fn next_exact(&mut self, limit: u32) -> Next {
        loop {
            let floor = self.next_floor();
            let first_raised = self.raised.peek().map(|r| r.0);
            if let Some(key) = first_raised.filter(|&k| floor.is_none_or(|f| k < f.key())) {
                self.raised.pop();
                let c = Candidate::from_key(key);
                return if c.bound < limit {
                    Next::Try(c)
                } else {
                    Next::Done(c.bound)
                };
            }
            let Some(mut c) = floor else {
                return Next::Done(INF);
            };
            if c.bound >= limit {
                // A floor at the limit bounds its guess too, and every guess after it.
                return Next::Done(c.bound);
            }
            self.floors.pop();
            let Some((bound, _)) = self
                .bounds
                .split_bound_by_rows(
                    c.guess as usize,
                    &self.rows,
                    &mut self.counts,
                    INF,
                    self.child_depth,
                )
                .and_then(|split| {
                    self.bounds
                        .bound_of_split(self.set.len(), split, self.child_depth)
                })
            else {
                continue;
            };
            c.bound = bound;
            // Still first in the order unless its bound rose past the next guess's.
            let next_floor = self.next_floor().map(|f| f.key());
            let next = match (next_floor, self.raised.peek()) {
                (Some(f), Some(r)) => Some(f.min(r.0)),
                (f, r) => f.or(r.map(|r| r.0)),
            };
            if next.is_some_and(|k| k < c.key()) {
                self.raised.push(Reverse(c.key()));
                continue;
            }
            return if c.bound < limit {
                Next::Try(c)
            } else {
                Next::Done(c.bound)
            };
        }
    }

    /// The next guess by its floor, listing the guesses of the next lower score when those of
    /// this one are all taken; `None` once no score above the last is left.
    fn next_floor(&mut self) -> Option<Candidate> {
        while self.floors.is_empty() {
            if self.level <= self.last {
                return None;
            }
            self.level -= 1;
            self.list_level();
        }
        self.floors.last().copied()
    }

    /// Lists the guesses scoring `level`, members first, each in index order (the order of
    /// [`Candidate::order`] among equal floors), into `floors`, reversed.
    fn list_level(&mut self) {
        let n = self.set.len() as u32;
        let bound = 3 * n - u32::from(self.level);
        let (bounds, orbits, floors) = (self.bounds, self.orbits, &mut self.floors);
        spare::with(&spare::MARKS, |marks| {
            mark_equal(bounds.kernel, &self.scores, self.level, marks);
            orbits.mask(marks);
            for &s in self.set {
                let (word, bit) = (s as usize / 64, 1u64 << (s % 64));
                if marks[word] & bit != 0 {
                    marks[word] &= !bit;
                    if orbits.tries(bounds.space, s as usize) {
                        floors.push(Candidate {
                            guess: s,
                            bound,
                            member: true,
                        });
                    }
                }
            }
            for g in tried(marks, orbits, bounds) {
                floors.push(Candidate {
                    guess: g as u32,
                    bound,
                    member: false,
                });
            }
        });
        floors.reverse();
    }
}

impl Drop for FloorOrder<'_> {
    fn drop(&mut self) {
        spare::put(&spare::SCORES, std::mem::take(&mut self.scores));
    }
}

impl GuessOrder for FloorOrder<'_> {
    #[inline]
    fn next(&mut self, limit: u32) -> Next {
        self.next_exact(limit)
    }
}

/// How many of a node's candidates [`SortedChunks`] puts in order at a time.
const SORT_CHUNK: usize = 32;

/// A node's candidates in [`Candidate::order`], sorted a chunk at a time as they are taken: a
/// node tries a few dozen of its hundreds of candidates before the bound stops it.
pub(super) struct SortedChunks {
    /// The candidates' keys ([`Candidate::key`]): `keys[..sorted]` are the smallest, in order.
    /// The keys are distinct, so the order is the full sort's.
    keys: Vec<u64>,
    sorted: usize,
    next: usize,
}

impl SortedChunks {
    /// `cands` to be taken in order.
    pub(super) fn new(cands: &[Candidate]) -> SortedChunks {
        SortedChunks {
            keys: cands.iter().map(Candidate::key).collect(),
            sorted: 0,
            next: 0,
        }
    }
}

impl GuessOrder for SortedChunks {
    fn next(&mut self, limit: u32) -> Next {
        let keys = &mut self.keys;
        if self.next == keys.len() {
            return Next::Done(INF);
        }
        if self.next == self.sorted {
            let end = (self.sorted + SORT_CHUNK).min(keys.len());
            if end < keys.len() {
                keys[self.sorted..].select_nth_unstable(end - self.sorted - 1);
            }
            keys[self.sorted..end].sort_unstable();
            self.sorted = end;
        }
        let c = Candidate::from_key(keys[self.next]);
        self.next += 1;
        if c.bound < limit {
            Next::Try(c)
        } else {
            Next::Done(c.bound)
        }
    }
}
