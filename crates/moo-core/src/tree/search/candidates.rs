//! The guesses worth trying at a node, each with its proven lower bound, and the order they are
//! tried in: cheapest bound first, so a good total comes early and the loop stops at the first
//! guess whose bound reaches it.

use smallvec::{smallvec, SmallVec};

use super::bounds::Bounds;
use super::bulk::{mark_above, mark_below, marked};
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
    } else if let Some(least) = bulk_candidates(bounds, set, orbits, limit, child_depth, &mut out) {
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

/// [`candidates`] from one bulk pass, when it applies ([`Bounds::with_bulk_bounds`]): pushes the
/// guesses below `limit` that `orbits` leaves onto `out` and returns the least bound of the
/// others.
fn bulk_candidates(
    bounds: &Bounds,
    set: &[u32],
    orbits: &Orbits,
    limit: u32,
    child_depth: u8,
    out: &mut Vec<Candidate>,
) -> Option<u32> {
    if let Some(least) = sparse_candidates(bounds, set, orbits, limit, child_depth, out) {
        return Some(least);
    }
    bounds.with_bulk_bounds(set, child_depth, |each, splits| {
        spare::with(&spare::MARKS, |below| {
            let least = mark_below(each, limit, below);
            orbits.mask(below);
            out.reserve(below.iter().map(|w| w.count_ones() as usize).sum());
            for g in marked(below) {
                // Marked orbits are already masked out of `below`.
                if let Orbits::Check(_) = orbits {
                    if !orbits.tries(bounds.space, g) {
                        continue;
                    }
                }
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

/// [`sparse_candidates`] splits guesses one by one only when at most one guess in this many is
/// left below the limit by its parts floor: one guess split alone costs a few dozen times what
/// the bulk pass spends on it (Mastermind 4x8 and 5x5 measured alike at 8 to 128, see the
/// book's `docs/src/performance.md`).
const SPARSE_SHARE: usize = 32;

/// [`bulk_candidates`] when few guesses can beat `limit`: a guess making `p` parts (the winning
/// one included) costs at least `3n - p - member` (a part of `c` costs at least `2c - 1`), which
/// the cheaper bulk pass that only notes which feedbacks occur gives for every guess
/// ([`Bounds::with_part_scores`]). Only the guesses that floor leaves below the limit are split
/// one by one; the others' floors bound what is left out. `None` when the pass does not apply
/// or leaves too many guesses for splitting one by one to pay.
fn sparse_candidates(
    bounds: &Bounds,
    set: &[u32],
    orbits: &Orbits,
    limit: u32,
    child_depth: u8,
    out: &mut Vec<Candidate>,
) -> Option<u32> {
    // The floor ignores a last-level weight, under which it seldom rules a guess out.
    if bounds.level.weighted() {
        return None;
    }
    let n = set.len() as u32;
    // A guess scoring `s` (its parts, plus one if a member) is below the limit only if
    // `3n - s < limit`.
    let level = u8::try_from((3 * n).checked_sub(limit)?).ok()?;
    bounds
        .with_part_scores(set, |scores, rows| {
            spare::with(&spare::MARKS, |marks| {
                let rest = mark_above(scores, level, marks);
                orbits.mask(marks);
                let count: usize = marks.iter().map(|w| w.count_ones() as usize).sum();
                if count * SPARSE_SHARE > bounds.n_codes {
                    return None;
                }
                // A score of 0 is a guess that teaches nothing, never worth its cost.
                let mut left_out = if rest > 0 {
                    3 * n - u32::from(rest)
                } else {
                    INF
                };
                let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; bounds.slots];
                for g in marked(marks) {
                    if let Orbits::Check(_) = orbits {
                        if !orbits.tries(bounds.space, g) {
                            continue;
                        }
                    }
                    let Some((bound, member)) = bounds
                        .split_bound_by_rows(g, rows, &mut counts, INF, child_depth)
                        .and_then(|split| bounds.bound_of_split(set.len(), split, child_depth))
                    else {
                        continue;
                    };
                    if bound < limit {
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

/// A guess worth trying at a node searched one guess after another, ordered as
/// [`Candidate::order`]: `floor` when its bound is only the parts floor, which its exact bound
/// can raise but never lower, so a floor in the order is a place the guess cannot come before.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Pending {
    /// [`Candidate::key`].
    pub(super) key: u64,
    /// Whether the bound in `key` is the parts floor rather than the one-guess bound.
    pub(super) floor: bool,
}

/// The guesses worth trying at a node with a limit, each with its parts floor `3n - p - member`
/// ([`sparse_candidates`]) for a bound, and the least floor of those left out ([`INF`] if
/// none): for a search that wants them in order and stops after a few, the exact bound of a
/// guess is worth counting only when its floor comes first ([`Bounds::split_bound_by_rows`]).
/// The same guesses as [`candidates`] keeps, and no others, once each floor is raised to its
/// exact bound. `None` when the parts floor does not apply ([`sparse_candidates`]), or when
/// only members are worth trying.
pub(super) fn floor_candidates(
    bounds: &Bounds,
    set: &[u32],
    orbits: &Orbits,
    limit: u32,
    depth: u8,
) -> Option<(Vec<Pending>, u32)> {
    if bounds.level.weighted() || bounds.pool != GuessPool::All {
        return None;
    }
    let n = set.len() as u32;
    if bounds.outside(set.len(), depth) >= limit {
        return None;
    }
    let level = u8::try_from((3 * n).checked_sub(limit)?).ok()?;
    bounds.with_part_scores(set, |scores, _| {
        spare::with(&spare::MARKS, |marks| {
            let rest = mark_above(scores, level, marks);
            orbits.mask(marks);
            let left_out = if rest > 0 {
                3 * n - u32::from(rest)
            } else {
                INF
            };
            let mut out = Vec::new();
            let pending = |g: usize, member: bool| Pending {
                key: Candidate {
                    guess: g as u32,
                    bound: 3 * n - u32::from(scores[g]),
                    member,
                }
                .key(),
                floor: true,
            };
            // The members first, their marks cleared, so the rest are the other codes.
            for &s in set {
                let (word, bit) = (s as usize / 64, 1u64 << (s % 64));
                if marks[word] & bit != 0 {
                    marks[word] &= !bit;
                    if orbits.tries(bounds.space, s as usize) {
                        out.push(pending(s as usize, true));
                    }
                }
            }
            for g in marked(marks) {
                if let Orbits::Check(_) = orbits {
                    if !orbits.tries(bounds.space, g) {
                        continue;
                    }
                }
                out.push(pending(g, false));
            }
            (out, left_out)
        })
    })
}
