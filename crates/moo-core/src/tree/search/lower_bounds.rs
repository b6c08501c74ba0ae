//! Proven lower bounds on what a candidate set costs, and the closed forms that solve small
//! sets outright, read from one value, [`Bounds`]: the game's score table as the search reads it,
//! the level-filling bounds ([`LevelBounds`]) and the bulk splitter. It holds no search state, so
//! the recursion asks it and never the other way round.
//!
//! * Level filling: with `r` non-winning feedbacks, at most 1 secret is solved by the next guess,
//!   `r` by the one after, `r^2` after that, so a set of `n` costs at least `LB(n)` in total
//!   and needs `LEVELS(n)` guesses for its worst secret.
//! * One-guess lookahead: a guess costs at least `n + sum LB(part)` from its actual split; the
//!   smallest over every guess bounds the set.
//! * Closed forms: a candidate splitting the others into singletons costs `2n - 1`, the level
//!   bound itself.

use smallvec::{smallvec, SmallVec};

use super::bulk::{mark_equal, marked, BoundRule, Level, Split, Splits, Splitter, MAX_SET};
use super::columns::gather;
use super::levels::{count_branches, feedbacks_of, LevelBounds};
use super::orbits::{OrbitCache, Orbits};
use super::pairs::{distinct_feedbacks, repeats_wide, PartPairs};
use super::rows::ScoreRows;
use super::solved::{child_limit, Solved, FEEDBACKS, INF, UNLIMITED};
use super::{spare, Symmetry};
use crate::pool::GuessPool;
use crate::space::CodeSpace;

/// Sets up to this size get their lookahead bound by counting parts first
/// ([`Bounds::min_bound_by_parts`]); larger ones count every guess's parts in bulk. Larger sets have
/// more parts over the level-1 capacity, so the parts floor rules out fewer guesses (the sizes
/// tried are in the book's `docs/src/performance.md`).
const PARTS_FIRST_MAX: usize = 60;

/// [`PARTS_FIRST_MAX`] for games of five positions and more (19 non-winning feedbacks or more),
/// whose many small parts keep the parts floor sharp on larger sets; on four positions a larger
/// size costs time (the sizes tried are in the book's `docs/src/performance.md`).
const PARTS_FIRST_MAX_WIDE: usize = 180;

/// The non-winning feedbacks from which [`PARTS_FIRST_MAX_WIDE`] applies.
const WIDE_BRANCHES: usize = 19;

/// The bytes of columns a lookahead of a set too large for the bulk pass gathers at a time
/// ([`Bounds::min_bound_of_large`]): enough guesses that each member's row is read in a few
/// runs, few enough to stay in the core's cache.
const LARGE_COLUMNS: usize = 1 << 19;

/// What the closed forms for small sets know.
pub(super) enum ClosedForm {
    /// The set's optimal tree.
    Exact(Solved),
    /// A lower bound on its total.
    AtLeast(u32),
    /// Nothing (the set is too large).
    Unknown,
}

/// What every bound of one search reads: the game's score table in the search's numbering of
/// feedbacks, the level-filling bounds, and the bulk splitter.
pub(super) struct Bounds<'a> {
    pub(super) space: &'a CodeSpace,
    pub(super) pool: GuessPool,
    pub(super) n_codes: usize,
    /// Feedback numbers `0..slots`, of which `win` is the win: the compact table's numbering
    /// when there is one, else the feedback indexes.
    pub(super) slots: usize,
    pub(super) win: usize,
    /// The level-filling bounds.
    pub(super) level: LevelBounds,
    /// The bulk split of sets small enough for it (none for degenerate games).
    splitter: Option<Splitter>,
    /// The score table as the search reads it.
    pub(super) rows: ScoreRows<'a>,
    /// The canonical guesses by the symbols played ([`OrbitCache`]).
    orbits: OrbitCache,
    /// The level of the bulk passes' kernels ([`crate::Kernel::active`]).
    pub(super) kernel: Level,
}

impl<'a> Bounds<'a> {
    /// The bounds of a search of `space` from guesses of `pool`, with `last_level` as in
    /// [`LevelBounds::new`].
    pub(super) fn new(
        space: &'a CodeSpace,
        pool: GuessPool,
        last_level: Option<(u8, u32)>,
    ) -> Bounds<'a> {
        let n = space.len();
        let (seen, win) = feedbacks_of(space);
        let branches = count_branches(&seen, win);
        let level = LevelBounds::new(branches, n, last_level);
        let rows = ScoreRows::new(space);
        let compact = rows.compact();
        let (feedbacks, bulk_win) = match compact {
            Some(c) => {
                let rank = c.feedbacks().iter().position(|&f| usize::from(f) == win);
                let all = (0..c.feedbacks().len() as u8).collect();
                (
                    all,
                    rank.expect("every code scores a win against itself") as u8,
                )
            }
            None => {
                let all = (0..seen.len())
                    .filter(|&f| seen[f] || f == win)
                    .map(|f| f as u8)
                    .collect();
                (all, win as u8)
            }
        };
        // The splitter learns its thresholds from the unweighted bound; a weighted search only
        // uses its parts count, which needs no bound.
        let plain = LevelBounds::new(branches, MAX_SET.min(n), None);
        let kernel = Level::active();
        let splitter = Splitter::new(
            feedbacks,
            bulk_win,
            level.plain_totals().unwrap_or(plain.table(0).totals()),
            kernel,
        );
        Bounds {
            space,
            pool,
            n_codes: n,
            slots: compact.map_or(space.rules().feedback_slots(), |c| c.feedbacks().len()),
            win: usize::from(bulk_win),
            level,
            splitter,
            rows,
            orbits: OrbitCache::new(space.rules().alphabet().len()),
            kernel,
        }
    }

    /// The least cost of a set of `n` with `depth` guesses left.
    #[inline]
    pub(super) fn total(&self, n: usize, depth: u8) -> u32 {
        self.level.total(n, depth)
    }

    /// The least cost of a set of `n` with `depth` guesses left when the next guess is not a
    /// member.
    pub(super) fn outside(&self, n: usize, depth: u8) -> u32 {
        self.level.outside(n, depth)
    }

    /// The fewest guesses that can solve every member of a set of `n`.
    #[inline]
    pub(super) fn levels(&self, n: usize) -> u8 {
        self.level.levels(n)
    }

    /// Which guesses `sym` leaves to be tried: one per orbit.
    pub(super) fn orbits<'s>(&'s self, sym: &'s Symmetry) -> Orbits<'s> {
        self.orbits.orbits(self.space, sym)
    }

    /// Guess `g`'s row of the score table, in the search's numbering of feedbacks (the compact
    /// table's when there is one: see [`Bounds::feedback_index`]).
    pub(super) fn row(&self, g: u32) -> &'a [u8] {
        self.rows.row(g)
    }

    /// Guess `g`'s feedback against member `s`, in the search's numbering, read from `s`'s row
    /// (scoring is symmetric): a set's members' rows are read over and over by the search of
    /// the set and its parts and stay in the core's caches, where `g`'s own row is a cold line
    /// of memory per member in a table larger than those caches (60 MB for 5x6).
    #[inline]
    pub(super) fn feedback(&self, s: u32, g: u32) -> u8 {
        self.row(s)[g as usize]
    }

    /// The feedback index of feedback `f` in the search's numbering.
    pub(super) fn feedback_index(&self, f: u8) -> usize {
        usize::from(
            self.rows
                .compact()
                .map_or(f, |c| c.feedbacks()[usize::from(f)]),
        )
    }

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
        if (!member && parts < 2) || self.level.levels(largest as usize) > child_depth {
            return None;
        }
        // The winning part was summed as a part of one; its member costs nothing more.
        let win = if member {
            self.level.total(1, child_depth)
        } else {
            0
        };
        Some((n as u32 + sum - win, member))
    }

    /// Calls `f` with every guess's one-guess bound on `set` ([`Bounds::bound_of_split`],
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
            .level
            .last_level_threshold(child_depth)
            .map(|t| u8::try_from(t).unwrap_or(u8::MAX));
        let rule = BoundRule {
            n: set.len() as u32,
            win: self.level.total(1, child_depth),
            weight: self.level.weight(),
            largest: self.level.largest_within(child_depth),
            none: INF,
        };
        Some(spare::with(&spare::SPLITS, |splits| {
            splitter.split_all(&rows, self.n_codes, last, splits);
            spare::with(&spare::BOUNDS, |bounds| {
                splits.bounds(self.kernel, &rule, bounds);
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
    /// ([`super::bulk::Splitter::part_scores`]) and the members' score rows the pass read
    /// ([`Bounds::bulk_rows`]), when every code may be guessed and feedbacks fit 32 bits.
    pub(super) fn with_part_scores<R>(
        &self,
        set: &[u32],
        f: impl FnOnce(&[u8], &[&[u8]]) -> R,
    ) -> Option<R> {
        spare::with(&spare::SCORES, |scores| {
            let rows = self.part_scores_into(set, scores)?;
            Some(f(scores, &rows))
        })
    }

    /// [`Bounds::with_part_scores`] into a buffer the caller keeps: every guess's part score
    /// on `set` into `out`, and the members' score rows the pass read.
    pub(super) fn part_scores_into(
        &self,
        set: &[u32],
        out: &mut Vec<u8>,
    ) -> Option<SmallVec<[&[u8]; 64]>> {
        let splitter = self.splitter.as_ref().filter(|s| s.has_bits())?;
        let rows = self.bulk_rows(set)?;
        splitter.part_scores(&rows, self.n_codes, out);
        Some(rows)
    }

    /// The smallest one-guess bound below `cap` (else `cap`), over every guess, on the set whose
    /// members' score rows are `rows` and part scores `score` ([`Bounds::with_part_scores`]).
    ///
    /// A part of `c` costs at least `2c - 1`, so a guess making `p` parts (the winning one
    /// included) costs at least `3n - p - member` ([`LevelBounds::parts_floor`]). Guesses are
    /// taken most parts first, each counted exactly, until that floor reaches the best bound
    /// found: usually after a handful, where counting every guess would cost a full pass.
    pub(super) fn min_bound_by_parts(
        &self,
        rows: &[&[u8]],
        score: &[u8],
        child_depth: u8,
        cap: u32,
    ) -> u32 {
        self.min_bound_by_floors(rows.len(), score, child_depth, cap, |g, _, counts, best| {
            self.split_bound_by_rows(g, rows, counts, best, child_depth)
        })
    }

    /// [`Bounds::min_bound_by_parts`] of a set of `n` whose guesses' splits `split` counts
    /// (guess, the marks of the guesses counted in the same round, in increasing order,
    /// counters, the bound to give up at). A set too large for the bulk pass's byte counters
    /// splits its guesses from their columns gathered many at a time
    /// ([`min_bound_of_large`]).
    pub(super) fn min_bound_by_floors(
        &self,
        n: usize,
        score: &[u8],
        child_depth: u8,
        cap: u32,
        mut split: impl FnMut(usize, &[u64], &mut [u32], u32) -> Option<Split>,
    ) -> u32 {
        let top = u32::from(score.iter().copied().max().unwrap_or(0));
        let mut best = cap;
        // With no part above the level-1 capacity the floor is the bound itself; only a depth
        // limit that a part might exceed still needs the parts counted.
        let exact = n <= 1 + self.level.branches()
            && !self.level.weighted()
            && (child_depth == UNLIMITED || self.level.levels(n) <= child_depth);
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.slots];
        spare::with(&spare::MARKS, |marks| {
            for level in (1..=top).rev() {
                let floor = self.level.parts_floor(n, level);
                if floor >= best {
                    break;
                }
                if exact {
                    best = floor;
                    break;
                }
                mark_equal(self.kernel, score, level as u8, marks);
                for g in marked(marks) {
                    let split = split(g, marks, &mut counts, best);
                    if let Some((bound, _)) =
                        split.and_then(|split| self.bound_of_split(n, split, child_depth))
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
        self.split_of(
            set.len(),
            |i| row[set[i] as usize],
            counts,
            limit,
            child_depth,
        )
    }

    /// [`Bounds::split_bound`] read from the score rows of the set's members (`rows`, as
    /// [`Bounds::bulk_rows`] gives them) at column `g`: after a bulk pass over those rows they are
    /// in the core's cache, where guess `g`'s own row is a cold line of memory per member.
    #[inline]
    pub(super) fn split_bound_by_rows(
        &self,
        g: usize,
        rows: &[&[u8]],
        counts: &mut [u32],
        limit: u32,
        child_depth: u8,
    ) -> Option<Split> {
        self.split_of(rows.len(), |i| rows[i][g], counts, limit, child_depth)
    }

    /// The split of a set of `n` whose `i`th member scores `feedback(i)` against the guess,
    /// as [`Bounds::split_bound`] returns it.
    #[inline(always)]
    pub(super) fn split_of(
        &self,
        n: usize,
        feedback: impl Fn(usize) -> u8,
        counts: &mut [u32],
        limit: u32,
        child_depth: u8,
    ) -> Option<Split> {
        let step = &self.level.table(child_depth).step;
        // Sum of lb[part size] kept incrementally: adding a member to a part of c raises its
        // bound by step[c]. The bound only grows as members are added, so stop as soon as it
        // reaches the limit (the winning part, at most one member, can take back what a part
        // of one costs).
        let give_up = limit
            .saturating_sub(n as u32)
            .saturating_add(self.level.total(1, child_depth));
        let (mut sum, mut parts, mut largest, mut seen) = (0u32, 0u32, 0u32, 0usize);
        for i in 0..n {
            let f = usize::from(feedback(i));
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
        for i in 0..seen {
            counts[usize::from(feedback(i))] = 0;
        }
        (seen == n).then_some(Split {
            sum,
            parts,
            largest,
            member,
        })
    }

    /// [`Bounds::closed_form_by`] reading the score table.
    #[cfg(test)]
    pub(super) fn closed_form(&self, set: &[u32], depth: u8) -> ClosedForm {
        self.closed_form_by(set, depth, None)
    }

    /// Closed forms for sets small enough that one guess can separate them: a candidate that
    /// splits the others into singletons costs `2n - 1` (the level bound, so optimal); failing
    /// that, one leaving a single pair costs `2n` (optimal too: with no perfect candidate every
    /// candidate guess leaves a pair, and any other guess costs at least `n + n`). `pairs`, for
    /// a part of a set that gathered its pairwise feedbacks, gives them where they are read
    /// instead of the members' rows of the score table.
    pub(super) fn closed_form_by(
        &self,
        set: &[u32],
        depth: u8,
        pairs: Option<PartPairs>,
    ) -> ClosedForm {
        let n = set.len();
        if n > self.level.branches() + 1 || depth < 2 {
            return ClosedForm::Unknown;
        }
        let (exact, pair) = match pairs {
            Some(pairs) => {
                let at = pairs.at();
                self.separators(n, |i| pairs.row(i), |j| usize::from(at[j]))
            }
            None => self.separators(n, |i| self.row(set[i]), |j| set[j] as usize),
        };
        if let Some(i) = exact {
            return ClosedForm::Exact(Solved {
                // 2n - 1, and under a last-level weight every secret after the first pays it
                // when the depth left is 2: the level bound either way.
                total: self.level.total(n, depth),
                worst: 2,
                guess: set[i],
            });
        }
        let pair = pair.map(|i| set[i]);
        match pair {
            // With three guesses left and the last level weighted, the pair's second secret pays
            // the weight, which a guess splitting the set into singletons avoids: no closed form.
            Some(g) if depth >= 3 && !(self.level.weighted() && depth == 3) => {
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

    /// The first of a set's `n` members that separates all the others, and the first that
    /// leaves exactly one pair, if any: member `i`'s feedback against member `j` is
    /// `row(i)[col(j)]`.
    #[inline]
    fn separators<'r>(
        &self,
        n: usize,
        row: impl Fn(usize) -> &'r [u8],
        col: impl Fn(usize) -> usize,
    ) -> (Option<usize>, Option<usize>) {
        let mut pair = None;
        if self.slots > 64 {
            for i in 0..n {
                let r = row(i);
                // Its own feedback, the win, is one no other member gives.
                match repeats_wide((0..n).map(|j| r[col(j)]), 2) {
                    0 => return (Some(i), pair),
                    1 if pair.is_none() => pair = Some(i),
                    _ => {}
                }
            }
            return (None, pair);
        }
        for i in (0..n).step_by(4) {
            let rows: [&[u8]; 4] = std::array::from_fn(|k| row((i + k).min(n - 1)));
            for (k, distinct) in distinct_feedbacks(n, rows, &col)
                .iter()
                .enumerate()
                .take(n - i)
            {
                // Its own feedback, the win, is one no other member gives.
                match n as u32 - distinct {
                    0 => return (Some(i + k), pair),
                    1 if pair.is_none() => pair = Some(i + k),
                    _ => {}
                }
            }
        }
        (None, pair)
    }

    /// [`Bounds::lookahead_by`] with no pairwise feedbacks: what the tests compare against.
    #[cfg(test)]
    pub(super) fn lookahead(&self, set: &[u32], orbits: &Orbits, depth: u8, cap: u32) -> u32 {
        self.lookahead_by(set, None, orbits, depth, cap)
    }

    /// The cheapest one-guess lookahead bound on `set` with `depth` guesses left (the least
    /// `n + sum LB(part)` over the guesses `orbits` leaves). Guesses are only followed until
    /// their bound reaches `cap`; if none stays below it, `cap` itself is returned, which is all
    /// a caller needs to reject. `pairs`, when `set` is a part of a searched set that gathered
    /// them, are its members' pairwise feedbacks, which a lookahead over the members alone
    /// reads instead of their rows of the score table.
    pub(super) fn lookahead_by(
        &self,
        set: &[u32],
        pairs: Option<PartPairs>,
        orbits: &Orbits,
        depth: u8,
        cap: u32,
    ) -> u32 {
        let n = set.len();
        let child_depth = child_limit(depth);
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.slots];
        let mut min_over = |guesses: &mut dyn Iterator<Item = u32>, mut best: u32| {
            for g in guesses {
                if let Some((bound, _)) =
                    self.guess_bound(g, set, &mut counts, best, orbits, child_depth)
                {
                    best = best.min(bound);
                }
            }
            best
        };
        // The bulk passes skip the symmetry check: symmetric guesses have equal bounds, so the
        // minimum is the same either way.
        if self.pool == GuessPool::Consistent || self.level.outside(n, depth) >= cap {
            match pairs {
                Some(pairs) => {
                    let at = pairs.at();
                    let col = |j| usize::from(at[j]);
                    self.members_min_bound(set, |i| pairs.row(i), col, orbits, child_depth, cap)
                }
                None => {
                    let col = |j| set[j] as usize;
                    self.members_min_bound(set, |i| self.row(set[i]), col, orbits, child_depth, cap)
                }
            }
        } else if let Some(best) = self
            .counts_parts_first(n, depth, cap)
            .then(|| {
                self.with_part_scores(set, |score, rows| {
                    self.min_bound_by_parts(rows, score, child_depth, cap)
                })
            })
            .flatten()
        {
            best
        } else if let Some(best) = self.with_bulk_bounds(set, child_depth, |bounds, _| {
            bounds.iter().fold(cap, |best, &bound| best.min(bound))
        }) {
            best
        } else if let Some(best) = (!self.level.weighted())
            .then(|| self.min_bound_of_large(set, child_depth, cap))
            .flatten()
        {
            best
        } else {
            min_over(&mut (0..self.n_codes as u32), cap)
        }
    }

    /// The least one-guess bound below `cap` (else `cap`) over the members of `set` that
    /// `orbits` leaves, member `i`'s feedback against member `j` being `row(i)[col(j)]`. A
    /// member's distinct feedbacks are its parts, and the members are counted lowest parts floor
    /// (`3n - parts - 1`) first, until that floor reaches the best bound found.
    fn members_min_bound<'r>(
        &self,
        set: &[u32],
        row: impl Fn(usize) -> &'r [u8],
        col: impl Fn(usize) -> usize,
        orbits: &Orbits,
        child_depth: u8,
        cap: u32,
    ) -> u32 {
        let n = set.len();
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.slots];
        let mut best = cap;
        // The floor holds when every part of `c` costs at least `2c - 1`, which the last-level
        // weight does not change but makes too loose to skip anything.
        let floors = self.slots <= 64 && !self.level.weighted();
        let win = self.level.total(1, child_depth);
        // Lowest floor first, so that the first bounds counted skip the most.
        let mut order: SmallVec<[(u32, usize); 64]> = SmallVec::with_capacity(n);
        for i in (0..n).step_by(4) {
            let rows: [&[u8]; 4] = std::array::from_fn(|k| row((i + k).min(n - 1)));
            let parts = if floors {
                distinct_feedbacks(n, rows, &col)
            } else {
                [n as u32; 4]
            };
            for (k, &p) in parts.iter().enumerate().take(n - i) {
                order.push(((3 * n as u32).saturating_sub(p + win), i + k));
            }
        }
        order.sort_unstable();
        for (floor, i) in order {
            if floor >= best {
                break;
            }
            if !orbits.tries(self.space, set[i] as usize) {
                continue;
            }
            let r = row(i);
            let split = self.split_of(n, |j| r[col(j)], &mut counts, best, child_depth);
            if let Some((b, _)) = split.and_then(|s| self.bound_of_split(n, s, child_depth)) {
                best = best.min(b);
            }
        }
        best
    }

    /// Whether [`Bounds::lookahead_by`] of a set of `n` with `depth` guesses left, below `cap`,
    /// counts parts first ([`Bounds::min_bound_by_parts`] over every guess).
    pub(super) fn counts_parts_first(&self, n: usize, depth: u8, cap: u32) -> bool {
        self.pool == GuessPool::All
            && self.level.outside(n, depth) < cap
            && n <= self.parts_first_max()
            // The parts floor ignores the last-level weight, so under it the floor seldom
            // reaches the best bound and nearly every guess would be counted one by one.
            && !self.level.weighted()
            && self.splitter.as_ref().is_some_and(Splitter::has_bits)
    }

    /// Each of `guesses` guesses' part score on the set whose members' rows are `rows`
    /// ([`Splitter::part_scores`]), for a game where [`Bounds::counts_parts_first`] can hold.
    pub(super) fn part_scores(&self, rows: &[&[u8]], guesses: usize, out: &mut Vec<u8>) {
        self.splitter
            .as_ref()
            .expect("parts are counted first only with a splitter")
            .part_scores(rows, guesses, out);
    }

    /// The largest set whose lookahead counts parts first ([`Bounds::min_bound_by_parts`]).
    fn parts_first_max(&self) -> usize {
        if self.level.branches() >= WIDE_BRANCHES {
            PARTS_FIRST_MAX_WIDE
        } else {
            PARTS_FIRST_MAX
        }
    }

    /// [`Bounds::min_bound_by_floors`] of a set too large for the bulk pass's byte counters, when
    /// feedbacks fit its part scores. Each guess's split reads its column of the members' rows;
    /// one at a time, from the guess's own row, each was a pass over a cold row of the score
    /// table. The guesses a round counts are marked before the first, in increasing order, so
    /// their columns are gathered [`LARGE_COLUMNS`] bytes at a time ([`gather`]), reading each
    /// member's row once in order, while the part scores' pass has just left those rows in the
    /// caches.
    fn min_bound_of_large(&self, set: &[u32], child_depth: u8, cap: u32) -> Option<u32> {
        let n = set.len();
        let width = (LARGE_COLUMNS / n).max(64);
        let (mut guesses, mut block, mut next) = (Vec::new(), Box::default(), 0);
        self.with_part_scores(set, |score, _| {
            self.min_bound_by_floors(n, score, child_depth, cap, |g, marks, counts, best| {
                if guesses.get(next) != Some(&(g as u32)) {
                    let (word, from) = (g / 64, g / 64 * 64);
                    guesses.clear();
                    guesses.extend(
                        marked(&marks[word..])
                            .map(|h| (h + from) as u32)
                            .skip_while(|&h| h < g as u32)
                            .take(width),
                    );
                    block = gather(self.rows, set, &guesses);
                    next = 0;
                }
                let column = &block[next * n..(next + 1) * n];
                next += 1;
                self.split_of(n, |i| column[i], counts, best, child_depth)
            })
        })
    }
}
