//! Proven lower bounds on what a candidate set costs, and the closed forms that solve small
//! sets outright.
//!
//! * Level filling: with `r` non-winning feedbacks, at most 1 secret is solved by the next guess,
//!   `r` by the one after, `r^2` after that, so a set of `n` costs at least `LB(n)` in total
//!   and needs `LEVELS(n)` guesses for its worst secret.
//! * One-guess lookahead: a guess costs at least `n + sum LB(part)` from its actual split; the
//!   smallest over every guess bounds the set.
//! * Closed forms: a candidate splitting the others into singletons costs `2n - 1`, the level
//!   bound itself.

use std::sync::atomic::Ordering;

use smallvec::{smallvec, SmallVec};

use super::bulk::{mark_equal, marked, BoundRule, Split, Splits, MAX_SET};
use super::memo::Entry;
use super::{
    child_limit, spare, Orbits, Search, Solved, Symmetry, CLOCK_SET, FEEDBACKS, INF, UNLIMITED,
};
use crate::pool::GuessPool;

/// The level-filling bounds of one search: for each set size, the least total (one table, or one
/// per depth left when the objective weighs the last level), and the fewest levels.
pub(super) struct LevelBounds {
    tables: Vec<LevelTable>,
    levels: Vec<u8>,
    branches: usize,
    weighted: bool,
    /// What a secret solved by the last guess allowed costs extra (0 when not weighted).
    weight: u32,
}

/// The level-filling totals for one depth left.
pub(super) struct LevelTable {
    /// `total[n]`: the least cost of a set of `n`.
    total: Vec<u32>,
    /// `step[c] = total[c + 1] - total[c]`: what the `c+1`-th member of a part adds.
    pub(super) step: Vec<u32>,
    /// `outside[n]`: the least cost of a set of `n` when the next guess is not a member (nobody
    /// is solved by it).
    outside: Vec<u32>,
}

impl LevelBounds {
    /// The bounds for sets of up to `n + 1` codes in a game with `branches` non-winning
    /// feedbacks. With `last_level = Some((depth, weight))` every secret solved by the last
    /// guess a depth limit of `depth` allows costs `weight` more (the fewest-at-worst objective:
    /// a cost is then `weight * secrets at the worst depth + total`), and the tables depend on
    /// the depth left.
    pub(super) fn new(branches: usize, n: usize, last_level: Option<(u8, u32)>) -> LevelBounds {
        let r = branches as u64;
        // Capacities 1, r, r^2, ... (0, r, r^2, ... when the first guess is not a member);
        // `last` is the level whose secrets also pay `weight`, and it takes every secret left
        // (for sets that do not fit, this relaxation is still a lower bound).
        let fill = |m: usize, first: u64, last: u64, weight: u64| {
            let (mut left, mut cap, mut level, mut total) = (m as u64, first, 1u64, 0u64);
            while left > 0 {
                let here = if level == last { left } else { left.min(cap) };
                total += here * level + if level == last { here * weight } else { 0 };
                left -= here;
                cap = if cap == 0 { r } else { cap.saturating_mul(r) };
                level += 1;
            }
            (
                u32::try_from(total).expect("the caller checked that costs fit 32 bits"),
                (level - 1).min(u64::from(UNLIMITED) - 1) as u8,
            )
        };
        let table = |last: u64, weight: u64| {
            let total: Vec<u32> = (0..n + 2).map(|m| fill(m, 1, last, weight).0).collect();
            let outside = (0..n + 2).map(|m| fill(m, 0, last, weight).0).collect();
            let step = (0..=n).map(|c| total[c + 1] - total[c]).collect();
            LevelTable {
                total,
                step,
                outside,
            }
        };
        let levels = (0..n + 2).map(|m| fill(m, 1, 0, 0).1).collect();
        let tables = match last_level {
            None => vec![table(0, 0)],
            Some((depth, weight)) => (0..=depth)
                .map(|d| table(u64::from(d), u64::from(weight)))
                .collect(),
        };
        LevelBounds {
            tables,
            levels,
            branches,
            weighted: last_level.is_some(),
            weight: last_level.map_or(0, |(_, w)| w),
        }
    }

    /// The table for `depth` guesses left.
    #[inline]
    pub(super) fn table(&self, depth: u8) -> &LevelTable {
        &self.tables[usize::from(depth).min(self.tables.len() - 1)]
    }

    /// The least cost of a set of `n` with `depth` guesses left.
    #[inline]
    pub(super) fn total(&self, n: usize, depth: u8) -> u32 {
        self.table(depth).total[n]
    }

    /// The least cost of a set of `n` with `depth` guesses left when the next guess is not a
    /// member.
    pub(super) fn outside(&self, n: usize, depth: u8) -> u32 {
        self.table(depth).outside[n]
    }

    /// The fewest guesses that can solve every member of a set of `n`.
    #[inline]
    pub(super) fn levels(&self, n: usize) -> u8 {
        self.levels[n]
    }

    /// The largest part (at most [`MAX_SET`]) whose members can all be solved within `depth`
    /// guesses.
    pub(super) fn largest_within(&self, depth: u8) -> u8 {
        let top = self.levels.len().min(MAX_SET + 1);
        // Levels grow with the size, and the empty set needs none.
        let fit = self.levels[..top].partition_point(|&l| l <= depth);
        u8::try_from(fit - 1).expect("at most MAX_SET")
    }

    /// The non-winning feedbacks that can occur.
    pub(super) fn branches(&self) -> usize {
        self.branches
    }

    /// Whether the last level a depth limit allows costs extra (the tables depend on depth).
    pub(super) fn weighted(&self) -> bool {
        self.weighted
    }

    /// The extra cost of a secret solved by the last guess a depth limit allows.
    pub(super) fn weight(&self) -> u32 {
        self.weight
    }

    /// With `depth` guesses left under a last-level weight, how many members of a part are
    /// solved before the last level at best (`1 + r + ... + r^(depth-2)`): each one more pays
    /// the weight. `None` when not weighted.
    pub(super) fn last_level_threshold(&self, depth: u8) -> Option<u32> {
        if !self.weighted {
            return None;
        }
        let r = self.branches as u64;
        let (mut sum, mut cap) = (0u64, 1u64);
        for _ in 1..depth {
            sum = sum.saturating_add(cap);
            cap = cap.saturating_mul(r);
        }
        Some(sum.min(u64::from(u32::MAX)) as u32)
    }

    /// The unweighted totals, from which the bulk splitter learns the level thresholds.
    pub(super) fn plain_totals(&self) -> Option<&[u32]> {
        (!self.weighted).then(|| &self.tables[0].total[..])
    }
}

impl LevelTable {
    /// `total[n]` for every `n` in the table.
    pub(super) fn totals(&self) -> &[u32] {
        &self.total
    }
}

/// Sets up to this size get their lookahead bound by counting parts first
/// ([`Search::min_bound_by_parts`]); larger ones count every guess's parts in bulk. Larger sets have
/// more parts over the level-1 capacity, so the parts floor rules out fewer guesses; measured on
/// Bulls and Cows 4x10 (one thread, CPU seconds): 71 counting every set in bulk, 50 with 30 here,
/// 47 with 60.
const PARTS_FIRST_MAX: usize = 60;

/// What the closed forms for small sets know.
pub(super) enum ClosedForm {
    /// The set's optimal tree.
    Exact(Solved),
    /// A lower bound on its total.
    AtLeast(u32),
    /// Nothing (the set is too large).
    Unknown,
}

impl Search<'_> {
    /// The one-guess lower bound on the total for `set` when `g` is guessed next, and whether
    /// `g` is in the set; `None` when `g` is not the canonical member of its symmetry orbit, its
    /// bound reaches `limit`, it teaches nothing (a non-member leaving the set whole), or a part
    /// is too large to finish within `child_depth` more guesses.
    pub(super) fn guess_bound(
        &self,
        g: u32,
        set: &[u32],
        counts: &mut [u32],
        limit: u32,
        orbits: &Orbits,
        child_depth: u8,
    ) -> Option<(u32, bool)> {
        if !orbits.tries(self.space, g as usize) {
            return None;
        }
        self.bound_of_split(
            set.len(),
            self.split_bound(g, set, counts, limit, child_depth)?,
            child_depth,
        )
    }

    /// The one-guess bound of a split of a set of `n`, and whether the guess is a member; `None`
    /// when the guess teaches nothing (a non-member leaving the set whole) or leaves a part too
    /// large to finish within `child_depth` more guesses.
    #[inline]
    pub(super) fn bound_of_split(
        &self,
        n: usize,
        split: Split,
        child_depth: u8,
    ) -> Option<(u32, bool)> {
        let Split {
            sum,
            parts,
            largest,
            member,
        } = split;
        if (!member && parts < 2) || self.bounds.levels(largest as usize) > child_depth {
            return None;
        }
        // The winning part was summed as a part of one; its member costs nothing more.
        let win = if member {
            self.bounds.total(1, child_depth)
        } else {
            0
        };
        Some((n as u32 + sum - win, member))
    }

    /// Calls `f` with every guess's one-guess bound on `set` ([`Search::bound_of_split`],
    /// [`INF`] where that gives none) and how each splits it, from one bulk pass, when the pass
    /// applies: every code may be guessed and the set is small enough for byte counters. The
    /// bounds are for parts with `child_depth` guesses left. The buffers are the thread's
    /// spares ([`spare`]).
    pub(super) fn with_bulk_bounds<R>(
        &self,
        set: &[u32],
        child_depth: u8,
        f: impl FnOnce(&[u32], &Splits) -> R,
    ) -> Option<R> {
        let splitter = self.splitter.as_ref()?;
        if set.len() > MAX_SET {
            return None;
        }
        let rows = self.bulk_rows(set)?;
        // Under a last-level weight, also count the members above the last level's threshold.
        let last = self
            .bounds
            .last_level_threshold(child_depth)
            .map(|t| u8::try_from(t).unwrap_or(u8::MAX));
        let rule = BoundRule {
            n: set.len() as u32,
            win: self.bounds.total(1, child_depth),
            weight: self.bounds.weight(),
            largest: self.bounds.largest_within(child_depth),
            none: INF,
        };
        Some(spare::with(&spare::SPLITS, |splits| {
            splitter.split_all(&rows, self.n_codes, last, splits);
            spare::with(&spare::BOUNDS, |bounds| {
                splits.bounds(&rule, bounds);
                f(bounds, splits)
            })
        }))
    }

    /// The score rows of `set`'s members, which list each member's feedback against every
    /// guess (in the search's numbering), when the bulk passes apply: every code may be
    /// guessed.
    pub(super) fn bulk_rows(&self, set: &[u32]) -> Option<SmallVec<[&[u8]; 64]>> {
        (self.pool == GuessPool::All).then(|| set.iter().map(|&s| self.row(s)).collect())
    }

    /// Calls `f` with every guess's part score on `set`
    /// ([`super::bulk::Splitter::part_scores`]), when every code may be guessed and
    /// feedbacks fit 32 bits.
    pub(super) fn with_part_scores<R>(&self, set: &[u32], f: impl FnOnce(&[u8]) -> R) -> Option<R> {
        let splitter = self.splitter.as_ref().filter(|s| s.has_bits())?;
        let rows = self.bulk_rows(set)?;
        Some(spare::with(&spare::SCORES, |scores| {
            splitter.part_scores(&rows, self.n_codes, scores);
            f(scores)
        }))
    }

    /// The smallest one-guess bound on `set` below `cap` (else `cap`), over every guess.
    ///
    /// A part of `c` costs at least `2c - 1`, so a guess making `p` parts (the winning one
    /// included) costs at least `3n - p - member`. Guesses are taken most parts first, each
    /// counted exactly, until that floor reaches the best bound found: usually after a handful,
    /// where counting every guess would cost a full pass.
    pub(super) fn min_bound_by_parts(
        &self,
        set: &[u32],
        score: &[u8],
        child_depth: u8,
        cap: u32,
    ) -> u32 {
        let n = set.len() as u32;
        let top = u32::from(score.iter().copied().max().unwrap_or(0));
        let mut best = cap;
        // With no part above the level-1 capacity the floor is the bound itself; only a depth
        // limit that a part might exceed still needs the parts counted.
        let exact = n <= 1 + self.bounds.branches() as u32
            && !self.bounds.weighted()
            && (child_depth == UNLIMITED || self.bounds.levels(set.len()) <= child_depth);
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.slots];
        spare::with(&spare::MARKS, |marks| {
            for level in (1..=top).rev() {
                if 3 * n - level >= best {
                    break;
                }
                if exact {
                    best = 3 * n - level;
                    break;
                }
                mark_equal(score, level as u8, marks);
                for g in marked(marks) {
                    let split = self.split_bound(g as u32, set, &mut counts, best, child_depth);
                    if let Some((bound, _)) =
                        split.and_then(|split| self.bound_of_split(set.len(), split, child_depth))
                    {
                        best = best.min(bound);
                    }
                }
            }
        });
        best
    }

    /// Splits `set` by guess `g` into `counts` (left zeroed again) and sums the level-filling
    /// bounds of the parts with `child_depth` guesses left, giving up as soon as the bound
    /// reaches `limit`: `None` then.
    #[inline]
    pub(super) fn split_bound(
        &self,
        g: u32,
        set: &[u32],
        counts: &mut [u32],
        limit: u32,
        child_depth: u8,
    ) -> Option<Split> {
        let row = self.row(g);
        let step = &self.bounds.table(child_depth).step;
        // Sum of lb[part size] kept incrementally: adding a member to a part of c raises its
        // bound by step[c]. The bound only grows as members are added, so stop as soon as it
        // reaches the limit (the winning part, at most one member, can take back what a part
        // of one costs).
        let give_up = limit
            .saturating_sub(set.len() as u32)
            .saturating_add(self.bounds.total(1, child_depth));
        let (mut sum, mut parts, mut largest, mut seen) = (0u32, 0u32, 0u32, 0usize);
        for &s in set {
            let f = usize::from(row[s as usize]);
            let c = counts[f];
            counts[f] = c + 1;
            sum += step[c as usize];
            parts += u32::from(c == 0);
            largest = largest.max(c + 1);
            seen += 1;
            if sum >= give_up {
                break;
            }
        }
        let member = counts[self.win] > 0;
        for &s in &set[..seen] {
            counts[usize::from(row[s as usize])] = 0;
        }
        (seen == set.len()).then_some(Split {
            sum,
            parts,
            largest,
            member,
        })
    }

    /// Closed forms for sets small enough that one guess can separate them: a candidate that
    /// splits the others into singletons costs `2n - 1` (the level bound, so optimal); failing
    /// that, one leaving a single pair costs `2n` (optimal too: with no perfect candidate every
    /// candidate guess leaves a pair, and any other guess costs at least `n + n`).
    pub(super) fn closed_form(&self, set: &[u32], depth: u8) -> ClosedForm {
        let n = set.len();
        if n > self.bounds.branches() + 1 || depth < 2 {
            return ClosedForm::Unknown;
        }
        let mut pair: Option<u32> = None;
        for &g in set {
            let row = self.row(g);
            let mut seen = [0u64; 4];
            let mut repeats = 0;
            for &s in set {
                if s == g {
                    continue;
                }
                let f = row[s as usize];
                let (w, b) = (usize::from(f >> 6), 1u64 << (f & 63));
                if seen[w] & b != 0 {
                    repeats += 1;
                }
                seen[w] |= b;
            }
            if repeats == 0 {
                return ClosedForm::Exact(Solved {
                    // 2n - 1, and under a last-level weight every secret after the first pays
                    // it when the depth left is 2: the level bound either way.
                    total: self.bounds.total(n, depth),
                    worst: 2,
                    guess: g,
                });
            }
            // A single repeat is a single pair (a triple would repeat twice).
            if repeats == 1 && pair.is_none() {
                pair = Some(g);
            }
        }
        match pair {
            // With three guesses left and the last level weighted, the pair's second secret pays
            // the weight, which a guess splitting the set into singletons avoids: no closed form.
            Some(g) if depth >= 3 && !(self.bounds.weighted() && depth == 3) => {
                ClosedForm::Exact(Solved {
                    total: 2 * n as u32,
                    worst: 3,
                    guess: g,
                })
            }
            // Every candidate leaves a part of two or more, and any other guess solves nobody now.
            _ => ClosedForm::AtLeast(2 * n as u32),
        }
    }

    /// A lower bound on the total of `set` from a one-guess lookahead (the cheapest
    /// `n + sum LB(part)` over all guesses), remembered in the cache. `known` is a bound already
    /// proven; the caller has checked that the cache knows nothing of the set and that it has no
    /// closed form ([`Search::closed_form`]).
    ///
    /// Guesses are only followed until their bound reaches `cap`; if none stays below it, `cap`
    /// itself is the bound returned (and cached), which is all the caller needs to reject.
    pub(super) fn lookahead_bound(
        &self,
        set: &[u32],
        sym: &Symmetry,
        depth: u8,
        known: u32,
        cap: u32,
    ) -> u32 {
        let n = set.len();
        if self.bounds.levels(n) > depth {
            return INF;
        }
        // The lookahead of a large set is a bulk pass of its own; once stopped, any bound will
        // do, since nothing found after the stop is believed.
        if self.must_stop(n >= CLOCK_SET) {
            return cap;
        }
        let child_depth = child_limit(depth);
        let orbits = self.orbits(sym);
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.slots];
        let mut min_over = |guesses: &mut dyn Iterator<Item = u32>, mut best: u32| {
            for g in guesses {
                if let Some((bound, _)) =
                    self.guess_bound(g, set, &mut counts, best, &orbits, child_depth)
                {
                    best = best.min(bound);
                }
            }
            best
        };
        // The bulk passes skip the symmetry check: symmetric guesses have equal bounds, so the
        // minimum is the same either way.
        let best = if self.pool == GuessPool::Consistent || self.bounds.outside(n, depth) >= cap {
            min_over(&mut set.iter().copied(), cap)
        } else if let Some(best) = (n <= PARTS_FIRST_MAX && !self.bounds.weighted())
            // The parts floor ignores the last-level weight, so under it the floor seldom
            // reaches the best bound and nearly every guess would be counted one by one.
            .then(|| {
                self.with_part_scores(set, |score| {
                    self.min_bound_by_parts(set, score, child_depth, cap)
                })
            })
            .flatten()
        {
            best
        } else if let Some(best) = self.with_bulk_bounds(set, child_depth, |bounds, _| {
            bounds.iter().fold(cap, |best, &bound| best.min(bound))
        }) {
            best
        } else {
            min_over(&mut (0..self.n_codes as u32), cap)
        };
        let bound = best.max(known);
        if self.halted() {
            return bound;
        }
        if self.memo.put(set, depth, Entry { bound, exact: None }) {
            self.progress.memo.fetch_add(1, Ordering::Relaxed);
        }
        bound
    }
}
