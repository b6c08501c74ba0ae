//! A searched set's own pairwise feedbacks, for the closed forms and members' lookaheads of
//! its tries' parts.
//!
//! Both ask, for two members `a` and `b` of a part, the feedback of `a` against `b`: a part of
//! `c` codes reads `c * c` of them, each from `a`'s row of the score table, a line of memory per
//! read in a table larger than the core's caches (60 MB for Mastermind 5x6). A set of 128 to
//! 255 codes tries over a thousand guesses, and every part of every try is a subset of the set:
//! gathered once into a table of `n * n` bytes, the same feedbacks come from a few kilobytes
//! that stay in the core's cache.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use super::columns::gather_rows;
use super::rows::ScoreRows;

/// The fewest members a set needs for its table: a smaller set's parts are read in a few lines
/// of memory either way.
const MIN_SET: usize = 24;

/// The tries a set makes before it gathers its table, which costs about as many reads as the
/// parts of `n / 8` tries: most small sets in floor order try one or two guesses and stop.
const TRIES_FIRST: u32 = 4;

/// The pairwise feedbacks of a searched set, gathered once it has tried enough guesses to earn
/// them back.
pub(super) struct Pairs<'s> {
    set: &'s [u32],
    /// The set's view of its parent's table, when the set is a part of a set that gathered
    /// one: its own table is then read there, in the core's cache, not in the score table.
    parent: Option<PartPairs<'s>>,
    tries: AtomicU32,
    table: OnceLock<Box<[u8]>>,
}

impl<'s> Pairs<'s> {
    /// Nothing gathered yet for `set` (sorted), a part of a set whose table `parent` views,
    /// if any.
    pub(super) fn new(set: &'s [u32], parent: Option<PartPairs<'s>>) -> Pairs<'s> {
        Pairs {
            set,
            parent,
            tries: AtomicU32::new(0),
            table: OnceLock::new(),
        }
    }

    /// The table for one more try of the set, once the set has earned it: `None` for the first
    /// few tries, and for sets too small or too large for parts indexed by a byte
    /// ([`super::parts::Parts::at`]).
    pub(super) fn table(&self, rows: ScoreRows) -> Option<PairTable<'_>> {
        let n = self.set.len();
        if !(MIN_SET..=usize::from(u8::MAX) + 1).contains(&n) {
            return None;
        }
        let table = match self.table.get() {
            Some(table) => table,
            None if self.tries.fetch_add(1, Ordering::Relaxed) < TRIES_FIRST => return None,
            // Row `i` holds member `i`'s feedback against every member, in the set's order.
            None => self.table.get_or_init(|| match self.parent {
                Some(parent) => parent.own_table(),
                None => gather_rows(rows, self.set, self.set),
            }),
        };
        Some(PairTable { table, n })
    }
}

/// A gathered table of a set's pairwise feedbacks ([`Pairs::table`]).
#[derive(Clone, Copy)]
pub(super) struct PairTable<'t> {
    table: &'t [u8],
    n: usize,
}

impl<'t> PairTable<'t> {
    /// The view of the part whose members are the set's members at positions `at`.
    pub(super) fn part(self, at: &'t [u8]) -> PartPairs<'t> {
        debug_assert!(at.iter().all(|&i| usize::from(i) < self.n));
        PartPairs { pairs: self, at }
    }
}

/// One part's pairwise feedbacks, read from its set's table.
#[derive(Clone, Copy)]
pub(super) struct PartPairs<'t> {
    pairs: PairTable<'t>,
    at: &'t [u8],
}

impl<'t> PartPairs<'t> {
    /// The feedbacks of the part's `i`th member against the set's members, in the set's order:
    /// index it with [`PartPairs::at`].
    #[inline]
    pub(super) fn row(&self, i: usize) -> &'t [u8] {
        let start = usize::from(self.at[i]) * self.pairs.n;
        &self.pairs.table[start..start + self.pairs.n]
    }

    /// The set positions of the part's members.
    #[inline]
    pub(super) fn at(&self) -> &'t [u8] {
        self.at
    }

    /// The part's own table of pairwise feedbacks, as [`Pairs::table`] lays it out.
    fn own_table(&self) -> Box<[u8]> {
        let at = self.at;
        let mut out = Vec::with_capacity(at.len() * at.len());
        for i in 0..at.len() {
            let row = self.row(i);
            out.extend(at.iter().map(|&j| row[usize::from(j)]));
        }
        out.into_boxed_slice()
    }
}

/// How many distinct feedbacks each of four members gives against a set of `n`, member `k`'s
/// feedback against member `j` being `rows[k][col(j)]`, for feedback numbers below 64: four
/// members at a time, each feedback's bit set in one register per member, so four independent
/// chains and no branch on where a member's first repeat falls.
#[inline]
pub(super) fn distinct_feedbacks(
    n: usize,
    rows: [&[u8]; 4],
    col: impl Fn(usize) -> usize,
) -> [u32; 4] {
    let mut seen = [0u64; 4];
    for j in 0..n {
        let c = col(j);
        for k in 0..4 {
            seen[k] |= 1u64 << (rows[k][c] & 63);
        }
    }
    seen.map(u64::count_ones)
}

/// How many of `feedbacks` (numbers up to 255) repeat an earlier one, counted only up to
/// `enough`.
pub(super) fn repeats_wide(feedbacks: impl Iterator<Item = u8>, enough: u32) -> u32 {
    let (mut seen, mut repeats) = ([0u64; 4], 0);
    for f in feedbacks {
        let (w, b) = (usize::from(f >> 6), 1u64 << (f & 63));
        repeats += u32::from(seen[w] & b != 0);
        if repeats >= enough {
            break;
        }
        seen[w] |= b;
    }
    repeats
}

#[cfg(test)]
mod tests {

    use super::super::classes::Classes;
    use super::super::lower_bounds::{Bounds, ClosedForm};
    use super::super::parts::Parts;
    use super::super::solved::{child_limit, Solved, INF, UNLIMITED};
    use super::*;
    use crate::pool::GuessPool;
    use crate::rules::Rules;
    use crate::space::CodeSpace;
    use crate::symmetry::Symmetry;

    /// The sets of 24 to 256 codes that one or two guesses leave, from a few guesses.
    fn sets(bounds: &Bounds) -> Vec<Vec<u32>> {
        let n = bounds.n_codes as u32;
        let all: Vec<u32> = (0..n).collect();
        let mut out = Vec::new();
        for g in [0, n / 3, n / 2 + 1] {
            for part in Parts::new(bounds, &all, g).iter() {
                for h in [1, n / 5] {
                    out.extend(Parts::new(bounds, part, h).iter().map(<[u32]>::to_vec));
                }
                out.push(part.to_vec());
            }
        }
        out.retain(|s| (MIN_SET..=256).contains(&s.len()));
        out
    }

    /// Whether `set`'s class name read from the pairs `view` gives is the one read from the
    /// score table (1 if so, 0 for a set not named).
    fn same_names(
        classes: Option<&Classes>,
        bounds: &Bounds,
        set: &[u32],
        view: Option<PartPairs>,
    ) -> usize {
        let Some(classes) = classes.filter(|_| Classes::worth(set.len())) else {
            return 0;
        };
        let by_table = classes.name(bounds, set, view);
        assert_eq!(by_table, classes.name(bounds, set, None));
        usize::from(by_table.is_some())
    }

    /// Whether `set`'s own table, gathered from its parent's that `parent` views, is the one
    /// gathered from the score table (1 if so, 0 for a set too small for a table).
    fn same_tables(bounds: &Bounds, set: &[u32], parent: Option<PartPairs>) -> usize {
        let (from_parent, own) = (Pairs::new(set, parent), Pairs::new(set, None));
        let table = |pairs: &Pairs| {
            (0..=TRIES_FIRST)
                .find_map(|_| pairs.table(bounds.rows))
                .map(|t| t.table.to_vec())
        };
        let (a, b) = (table(&from_parent), table(&own));
        assert_eq!(a, b);
        usize::from(a.is_some())
    }

    /// What a closed form says, comparable: a tree, or a bound alone.
    fn closed(form: ClosedForm) -> Option<Result<Solved, u32>> {
        match form {
            ClosedForm::Exact(s) => Some(Ok(s)),
            ClosedForm::AtLeast(b) => Some(Err(b)),
            ClosedForm::Unknown => None,
        }
    }

    /// The closed forms, the members' lookaheads, the class names and the own pair tables of a
    /// searched set's parts are the same read from its pairwise feedbacks as from the score
    /// table, and the lookahead is the least bound over the members counted one by one.
    #[test]
    fn parts_read_from_the_pairs_as_from_the_table() {
        for (rules, pool) in [
            (
                Rules::new(4, "123456", true, false).unwrap(),
                GuessPool::All,
            ),
            (Rules::new(5, "1234", true, false).unwrap(), GuessPool::All),
            (
                Rules::new(3, "012345", false, false).unwrap(),
                GuessPool::Consistent,
            ),
        ] {
            let space = CodeSpace::new(rules).unwrap();
            let bounds = Bounds::new(&space, pool, None);
            let sym = Symmetry::new(space.rules());
            let orbits = bounds.orbits(&sym);
            let (mut closed_forms, mut lookaheads, mut names, mut tables) = (0, 0, 0, 0);
            let classes = Classes::new(&space);
            for set in sets(&bounds) {
                let pairs = Pairs::new(&set, None);
                let table = (0..=TRIES_FIRST)
                    .find_map(|_| pairs.table(bounds.rows))
                    .expect("the table, once earned");
                // The set as a part of itself: the parts of these sets are mostly too small
                // for a table of their own.
                let all: Vec<u8> = (0..set.len()).map(|i| i as u8).collect();
                tables += same_tables(&bounds, &set, Some(table.part(&all)));
                names += same_names(classes.as_ref(), &bounds, &set, Some(table.part(&all)));
                for g in [0, set[set.len() / 2], space.len() as u32 - 1] {
                    let parts = Parts::new(&bounds, &set, g);
                    let at = parts.at().expect("a set of at most 256 codes");
                    for (part, at) in parts.iter().zip(at).filter(|(p, _)| p.len() > 2) {
                        let view = Some(table.part(at));
                        tables += same_tables(&bounds, part, view);
                        names += same_names(classes.as_ref(), &bounds, part, view);
                        for depth in [UNLIMITED, 4, 3, 2] {
                            let by_table = closed(bounds.closed_form_by(part, depth, view));
                            assert_eq!(by_table, closed(bounds.closed_form(part, depth)));
                            closed_forms += usize::from(by_table.is_some());
                            let n = part.len() as u32;
                            for cap in [2 * n, 2 * n + 2, 3 * n, INF] {
                                if pool == GuessPool::All && bounds.outside(part.len(), depth) < cap
                                {
                                    continue;
                                }
                                let fast = bounds.lookahead_by(part, view, &orbits, depth, cap);
                                let plain = bounds.lookahead_by(part, None, &orbits, depth, cap);
                                let mut counts = vec![0; bounds.slots];
                                let one_by_one = part
                                    .iter()
                                    .filter_map(|&m| {
                                        let d = child_limit(depth);
                                        bounds.guess_bound(m, part, &mut counts, cap, &orbits, d)
                                    })
                                    .fold(cap, |best, (b, _)| best.min(b));
                                assert_eq!((fast, plain), (one_by_one, one_by_one));
                                lookaheads += 1;
                            }
                        }
                    }
                }
            }
            assert!(
                closed_forms > 50,
                "only {closed_forms} closed forms compared"
            );
            assert!(lookaheads > 50, "only {lookaheads} lookaheads compared");
            assert!(names > 4, "only {names} names compared");
            assert!(tables > 4, "only {tables} tables compared");
        }
    }
}
