//! Each part's own one-guess lookahead, for the parts no earlier rule bounded: the last rule,
//! since it costs one scan per part, but it rejects most losing guesses before any part is
//! searched in depth.

use super::{Known, PartBounds, PartRule, TriedGuess};
use crate::tree::search::solved::{child_limit, CLOCK_SET, INF};

/// The least one-guess bound over a part's guesses
/// ([`Bounds::lookahead_by`](crate::tree::search::lower_bounds::Bounds::lookahead_by)), smallest part
/// first: its scan is the cheapest, and a small part's best guess misses more feedbacks, so its
/// bound rises furthest above the level bound.
pub(super) struct Lookahead;

impl PartRule for Lookahead {
    fn sharpen(&self, tried: &TriedGuess, bounds: &mut PartBounds) -> Result<(), u32> {
        // A lone part is searched next anyway, and its search starts from the same scan.
        if tried.parts.len() < 2 {
            return Ok(());
        }
        for i in (0..tried.parts.len()).rev() {
            if bounds.known[i] != Known::Level {
                continue;
            }
            let b = bounds.bounds[i];
            let cap = bounds.limit - (bounds.total - b);
            let sharper = part_bound(tried, i, b, cap);
            if sharper > b {
                bounds.raise(i, sharper, Known::Bounded)?;
            }
        }
        Ok(())
    }
}

/// A lower bound on the total of part `i` from a one-guess lookahead, at least `known`, a
/// bound already proven. If no guess stays below `cap`, `cap` itself is the bound returned,
/// which is all the rule needs to reject. Not remembered in the cache: parts seldom recur, so
/// the bounds of millions of parts took most of its budget and pushed out the searched sets'
/// results, which are dearer to prove again. The set's ranked guesses ([`TriedGuess::ranked`])
/// give the same bound from fewer guesses; the part's pairwise feedbacks, if any, are what a
/// lookahead over its members alone reads.
fn part_bound(tried: &TriedGuess, i: usize, known: u32, cap: u32) -> u32 {
    let (bounds, part, depth) = (tried.bounds, tried.parts[i], tried.depth);
    let n = part.len();
    if bounds.levels(n) > depth {
        return INF;
    }
    // The lookahead of a large set is a bulk pass of its own; once stopped, any bound will
    // do, since nothing found after the stop is believed.
    if tried.state.must_stop(n >= CLOCK_SET) {
        return cap;
    }
    let at = tried.at.get(i).copied();
    let best = bounds
        .counts_parts_first(n, depth, cap)
        .then(|| {
            tried
                .ranked
                .min_bound(bounds, (part, at), child_limit(depth), cap)
        })
        .flatten()
        .unwrap_or_else(|| {
            let pairs = tried.part_pairs(i);
            bounds.lookahead_by(part, pairs, &bounds.orbits(tried.sym), depth, cap)
        });
    best.max(known)
}
