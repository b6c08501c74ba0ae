//! One search asked many questions: whether each of a stream of candidate sets can be won
//! within a number of guesses, every answer proven, with one cache kept across them.
//!
//! A refutation ([`crate::tree::refutation`]) walks down lost positions and asks, at each guess,
//! which of its parts is lost too. A fresh search per question proved again, at every level,
//! what the level above had proven and forgotten. Here the answer to a part's question leaves
//! in the cache the sets its proof went through, and a later question about one of them is
//! answered there ([`Oracle::known_lost`]) or from a search that starts from what is known; with
//! a checkpoint, that outlives the run.

use super::checkpoint::Checkpoint;
use super::recursion::Solver;
use super::solved::INF;
use super::{Objective, Progress, SearchError, SearchOptions};
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// The checkpoint tag of an oracle's facts: those of a plain search (no last-level weight).
const TAG: u8 = 0;

/// A search of the worst case over every guess, kept between questions.
pub(crate) struct Oracle<'a> {
    solver: Solver<'a>,
}

impl<'a> Oracle<'a> {
    /// An oracle for `space` with `options`' cache size and sharing of equivalent sets; the rest
    /// is fixed by what it answers: any code a guess, any opening. With a checkpoint, what the
    /// file holds is loaded first and what is proven about large sets is appended to it.
    pub(crate) fn new(
        space: &'a CodeSpace,
        options: &SearchOptions,
        progress: &'a Progress,
        stop: &'a Stop,
        checkpoint: Option<&'a Checkpoint>,
    ) -> Oracle<'a> {
        let options = Oracle::options(options);
        let mut solver = Solver::for_options(space, &options, progress, stop, space.len(), None);
        if let Some(checkpoint) = checkpoint {
            checkpoint.load_into(TAG, &solver.state.memo, space.len());
            solver.state.checkpoint = Some((checkpoint, TAG));
        }
        Oracle { solver }
    }

    /// The options an oracle searches under, for a checkpoint's header.
    pub(crate) fn options(options: &SearchOptions) -> SearchOptions {
        SearchOptions {
            objective: Objective::Worst,
            max_depth: None,
            guesses: GuessPool::All,
            first_guess: None,
            ..options.clone()
        }
    }

    /// Whether some strategy wins every code of `set` (sorted code indexes) within `guesses`
    /// guesses. `sym` holds symmetries that map the set to itself (those of the history that
    /// left it): they only spare the search equivalent guesses.
    pub(crate) fn winnable(
        &self,
        set: &[u32],
        sym: &Symmetry,
        guesses: u32,
    ) -> Result<bool, SearchError> {
        let depth = depth(guesses);
        Ok(self.solver.solve_root(set, sym, INF, depth)?.is_some())
    }

    /// Whether what the oracle has proven so far already shows that no strategy wins `set`
    /// within `guesses` guesses: its size alone, or a failed search kept in the cache. `false`
    /// says nothing.
    pub(crate) fn known_lost(&self, set: &[u32], guesses: u32) -> bool {
        let depth = depth(guesses);
        self.solver.bounds.levels(set.len()) > depth
            || self
                .solver
                .state
                .lookup(set, depth)
                .is_some_and(|e| e.bound == INF)
    }
}

/// `guesses` as the recursion's depth limit, which is below its [`UNLIMITED`](super::solved::UNLIMITED).
fn depth(guesses: u32) -> u8 {
    guesses.min(u32::from(super::solved::UNLIMITED) - 1) as u8
}
