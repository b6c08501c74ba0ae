//! The rules that raise a tried guess's bound before any of its parts is searched in depth.
//!
//! A try starts from the one-guess bound of its guess: the set's size plus each part's level
//! bound. Each rule here proves more of some parts and raises their bounds; once the sum
//! reaches the limit the guess is rejected, and no part is searched. A rule is one type
//! implementing [`PartRule`] over a read-only view of the try ([`TriedGuess`]), in a file of
//! its own, and [`RULES`] lists them in the order the search applies them: cheapest proof
//! first, so a guess an early rule rejects costs none of the later ones. Adding a rule is one
//! file and one line of that list; the guess loop ([`super::recursion`]) never changes (the
//! book's chapter "Adding a pruning rule" walks through one).
//!
//! A rule must only raise a part's bound to what it proves: a bound one too high prunes the
//! optimum, and the search then writes a worse tree as if it were optimal.

mod cached;
mod closed_forms;
mod lookahead;

use smallvec::SmallVec;

use self::cached::Cached;
use self::closed_forms::ClosedForms;
use self::lookahead::Lookahead;
use super::lower_bounds::Bounds;
use super::pairs::PartPairs;
use super::ranked::Ranked;
use super::solved::FEEDBACKS;
use super::state::State;
use crate::symmetry::Symmetry;

/// The rules in the order every try applies them.
const RULES: &[&dyn PartRule] = &[&ClosedForms, &Cached, &Lookahead];

/// One way to prove more of a tried guess's parts than their level bounds.
pub(super) trait PartRule: Sync {
    /// Raises the bounds of the parts this rule proves more of ([`PartBounds::raise`]),
    /// returning the `Err` of the first raise that rejects the guess.
    fn sharpen(&self, tried: &TriedGuess, bounds: &mut PartBounds) -> Result<(), u32>;
}

/// Applies every rule of [`RULES`] in turn: `Err` with the guess's bound, `limit` or more, as
/// soon as one rejects it.
pub(super) fn sharpen(tried: &TriedGuess, bounds: &mut PartBounds) -> Result<(), u32> {
    for rule in RULES {
        rule.sharpen(tried, bounds)?;
    }
    Ok(())
}

/// A tried guess's parts as the rules see them: what the search has proven and the tables it
/// gathered, none of which a rule may change.
pub(super) struct TriedGuess<'t, 'a> {
    /// The game's tables and bounds.
    pub(super) bounds: &'t Bounds<'a>,
    /// The search's caches and how it stops.
    pub(super) state: &'t State<'a>,
    /// The non-winning parts, largest first.
    pub(super) parts: &'t [&'t [u32]],
    /// Each part's pairwise feedbacks, read from the searched set's table, when it has one
    /// (empty otherwise).
    pub(super) pairs: &'t [Option<PartPairs<'t>>],
    /// Each part's members' positions in the searched set, when known (empty otherwise).
    pub(super) at: &'t [&'t [u8]],
    /// The searched set's guesses ranked for its parts' lookaheads.
    pub(super) ranked: &'t Ranked<'t>,
    /// The symmetries left once the guess is played.
    pub(super) sym: &'t Symmetry,
    /// The guesses left for each part.
    pub(super) depth: u8,
}

impl<'t> TriedGuess<'t, '_> {
    /// Part `i`'s pairwise feedbacks, when the searched set gathered its table.
    pub(super) fn part_pairs(&self, i: usize) -> Option<PartPairs<'t>> {
        self.pairs.get(i).copied().flatten()
    }
}

/// How much of a part's cost its bound is known to cover.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Known {
    /// Only its level bound, which a lookahead may raise.
    Level,
    /// A proven bound of its own, from a closed form or the cache: a lookahead would seldom
    /// prove more, but the cache may.
    Bounded,
    /// Its cost: a closed form, or a part of one or two codes, whose level bound is exact.
    Exact,
}

/// The bounds of one guess's parts as the rules sharpen them.
pub(super) struct PartBounds {
    /// Each part's proven bound, largest part first.
    pub(super) bounds: SmallVec<[u32; FEEDBACKS]>,
    /// What each part's bound covers.
    pub(super) known: SmallVec<[Known; FEEDBACKS]>,
    /// The guess's bound: the set's size plus the parts' bounds.
    pub(super) total: u32,
    /// The total the guess must stay below.
    pub(super) limit: u32,
}

impl PartBounds {
    /// The level bounds of `parts` with `child_depth` guesses left, for a guess whose bound
    /// from them is `total`.
    pub(super) fn new(
        bounds: &Bounds,
        parts: &[&[u32]],
        child_depth: u8,
        total: u32,
        limit: u32,
    ) -> PartBounds {
        PartBounds {
            bounds: parts
                .iter()
                .map(|p| bounds.total(p.len(), child_depth))
                .collect(),
            known: parts
                .iter()
                .map(|p| {
                    if p.len() < 3 {
                        Known::Exact
                    } else {
                        Known::Level
                    }
                })
                .collect(),
            total,
            limit,
        }
    }

    /// Raises part `i`'s bound to `b`, which `known` now covers; `Err` with the guess's bound
    /// once it cannot beat the limit.
    pub(super) fn raise(&mut self, i: usize, b: u32, known: Known) -> Result<(), u32> {
        self.known[i] = known;
        self.total = self.total.saturating_add(b - self.bounds[i]);
        self.bounds[i] = b;
        if self.total >= self.limit {
            Err(self.total)
        } else {
            Ok(())
        }
    }
}
