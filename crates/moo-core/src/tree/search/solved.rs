//! The vocabulary every part of the search shares: an exact result ([`Solved`]) and the limits
//! the recursion counts in.

use super::{SearchError, SearchOptions};
use crate::space::CodeSpace;

/// No depth limit.
pub(super) const UNLIMITED: u8 = u8::MAX;
/// No total limit.
pub(super) const INF: u32 = u32::MAX;
/// Sets at least this large read the clock whenever they are searched or probed.
pub(super) const CLOCK_SET: usize = 64;

/// An exact result for a set: its optimal total, the worst case of the tree found, and its first
/// guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Solved {
    pub(super) total: u32,
    pub(super) worst: u8,
    /// [`NO_GUESS`] when the result was borrowed from an equivalent set ([`classes`](super::classes)): its total
    /// is this set's, and a tree within `worst` exists (the other set's, relabelled), but the
    /// first guess this set's own search would choose is not known until it is searched
    /// ([`Solver::own_guess`](super::recursion::Solver::own_guess)).
    pub(super) guess: u32,
}

/// The first guess of a borrowed result (see [`Solved::guess`]).
pub(super) const NO_GUESS: u32 = u32::MAX;

/// Buffers of one entry per feedback hold this many on the stack: enough for codes of up to
/// six symbols (at most 27 feedbacks, 21 numbers on five); longer codes' buffers go to the
/// heap. At 16, every try of a five-position game took its parts' buffers from the allocator.
pub(super) const FEEDBACKS: usize = 32;

/// The depth limit left for the parts after one more guess.
pub(super) fn child_limit(depth: u8) -> u8 {
    if depth == UNLIMITED {
        UNLIMITED
    } else {
        depth - 1
    }
}

/// What a result is worth against `limit`: itself if below it, else its total as a bound.
pub(super) fn below(sol: Solved, limit: u32) -> Result<Solved, u32> {
    if sol.total < limit {
        Ok(sol)
    } else {
        Err(sol.total)
    }
}

/// The weight of a secret at the worst depth for [`Objective::FewestWorst`](super::Objective::FewestWorst): one more than any
/// total a set of `root` codes can reach within `depth` guesses, so the count at the worst
/// depth decides before the total. Every cost of the search must fit 32 bits (with room for the
/// sums of bounds), else the search is refused.
pub(super) fn weighted_cost_scale(
    codes: usize,
    root: usize,
    depth: u8,
) -> Result<u32, SearchError> {
    let weight = root as u64 * u64::from(depth) + 1;
    let most = (codes as u64 + 2) * (u64::from(depth) + weight);
    if most >= u64::from(u32::MAX / 4) {
        return Err(SearchError::TooLargeToWeigh {
            size: root,
            depth: u32::from(depth),
        });
    }
    Ok(weight as u32)
}

/// The depth limit of a search as the recursion counts it, or why the search cannot run at all.
pub(super) fn depth_cap(space: &CodeSpace, options: &SearchOptions) -> Result<u8, SearchError> {
    if !space.has_table() {
        return Err(SearchError::TooLarge {
            size: space.len(),
            limit: crate::space::TABLE_MAX_CODES,
        });
    }
    if options.max_depth == Some(0) {
        return Err(SearchError::ZeroDepth);
    }
    Ok(options
        .max_depth
        .map_or(UNLIMITED, |d| d.min(u32::from(UNLIMITED) - 1) as u8))
}
