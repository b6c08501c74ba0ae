//! The pieces of a search that a split run deeper needs ([`crate::tree::jobs`]): the guesses a
//! position's root tries, in its order, with each one's pieces and their proven lower bounds;
//! and the first optimum of a position below an upper bound, as the search of the whole game
//! keeps it for a set below its root (no tie-break on the worst case there), alone or among a
//! run of its guesses. Jobs reach those through [`super::Search::part`] with `below` and
//! `guesses`, which end in the same [`super::SearchOutcome`] as every search.
//!
//! Only the average objective without a depth limit splits deeper: the worst-case objectives
//! make their root choose a depth that a part cannot know, which the first-level split handles.

use smallvec::SmallVec;

use super::candidates::{candidates, Candidate};
use super::dedup::keep_new_splits;
use super::parts::Parts;
use super::proven_plan::build_plan;
use super::prune::{self, PartBounds, TriedGuess};
use super::ranked::Ranked;
use super::recursion::{Searching, Solver};
use super::solved::{child_limit, depth_cap, Solved, FEEDBACKS, INF};
use super::{
    history_symmetry, Objective, PlanBelow, Progress, SearchError, SearchOptions, SearchOutcome,
};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// The root of a position a split goes into, as its search sees it before it searches any
/// part: the guesses it tries, in its order, and for one of them each piece's proven lower
/// bound. The join of a split reads it to decide which pieces are worth a job and what bound
/// each may use.
pub(crate) struct PositionRoot<'a> {
    space: &'a CodeSpace,
    set: &'a [u32],
    sym: Symmetry,
    cap: u8,
    search: Solver<'a>,
    /// The guesses tried, in the search's order, those splitting the set as an earlier one does
    /// left out.
    cands: Vec<Candidate>,
    /// The set's guesses ranked for the lookaheads of every guess's pieces.
    ranked: Ranked<'a>,
}

impl<'a> PositionRoot<'a> {
    /// The root of `candidates` (the position `history` leaves).
    pub(crate) fn new(
        space: &'a CodeSpace,
        history: &History,
        candidates_left: &'a CodeSet,
        options: &SearchOptions,
        progress: &'a Progress,
        stop: &'a Stop,
    ) -> Result<PositionRoot<'a>, SearchError> {
        let cap = deeper_cap(space, options)?;
        let search = Solver::new(space, options.guesses, progress, stop, 0, None, 0);
        let sym = history_symmetry(space, history);
        let set = candidates_left.as_slice();
        let mut cands =
            root_candidates(&search, set, &sym, cap, stop).ok_or(SearchError::Stopped)?;
        cands.sort_unstable_by_key(Candidate::order);
        keep_new_splits(&search.bounds, set, &mut cands);
        Ok(PositionRoot {
            space,
            set,
            sym,
            cap,
            search,
            cands,
            ranked: Ranked::new(set),
        })
    }

    /// The guesses the search tries, in its order, each with its one-guess lower bound on the
    /// position's total.
    pub(crate) fn guesses(&self) -> Vec<(u32, u64)> {
        self.cands
            .iter()
            .map(|c| (c.guess, u64::from(c.bound)))
            .collect()
    }

    /// `guess`'s lower bound on the position's total, sharpened as the search sharpens it before
    /// it searches a part (closed forms, then each part's one-guess lookahead), and each
    /// non-winning piece's own bound within it, in feedback order. `None` for a guess the search
    /// does not try here.
    pub(crate) fn pieces(&self, guess: u32) -> Option<(u64, Vec<(Feedback, u64)>)> {
        let c = self.cands.iter().find(|c| c.guess == guess)?;
        let bounds = &self.search.bounds;
        let parts = Parts::new(bounds, self.set, c.guess);
        let parts: SmallVec<[&[u32]; FEEDBACKS]> = parts.iter().collect();
        let tried = TriedGuess {
            bounds,
            state: &self.search.state,
            parts: &parts,
            pairs: &[],
            at: &[],
            ranked: &self.ranked,
            sym: &self.sym.after(self.space.code(guess as usize).symbols()),
            depth: child_limit(self.cap),
        };
        let mut bounds = PartBounds::new(bounds, &parts, tried.depth, c.bound, INF);
        // Without a limit no rule can reject the guess. The root has searched nothing, so the
        // cache adds nothing either: the rules the search applies, as it applies them.
        let _ = prune::sharpen(&tried, &mut bounds);
        let mut pieces: Vec<(Feedback, u64)> = parts
            .iter()
            .zip(&bounds.bounds)
            .map(|(p, &b)| {
                (
                    self.space.score(guess as usize, p[0] as usize),
                    u64::from(b),
                )
            })
            .collect();
        let length = self.space.length();
        pieces.sort_by_key(|(f, _)| f.index(length));
        Some((u64::from(bounds.total), pieces))
    }
}

/// A job's search of the position `history` leaves ([`super::JobPart`]), under its settings.
pub(super) struct JobAt<'a> {
    pub(super) space: &'a CodeSpace,
    pub(super) history: &'a History,
    pub(super) candidates: &'a CodeSet,
    pub(super) options: &'a SearchOptions,
    pub(super) progress: &'a Progress,
    pub(super) stop: &'a Stop,
}

impl JobAt<'_> {
    /// The first optimal plan of the position, if its total is below `below` (every plan is,
    /// without a bound), as the search of the whole game keeps it for a set below its root;
    /// else a proven lower bound of `below` or more. [`SearchError::Stopped`] soon after the
    /// stop fires.
    pub(super) fn first_optimum_below(
        &self,
        below: Option<u64>,
    ) -> Result<SearchOutcome<PlanBelow, u64>, SearchError> {
        let (cap, sym, set) = self.start()?;
        let search = self.solver(set);
        let limit = below.map_or(INF, |b| u32::try_from(b).unwrap_or(INF));
        match search.solve_root(set, &sym, limit, cap)? {
            Some(sol) => Ok(SearchOutcome::Found(PlanBelow {
                plan: build_plan(&search, set, &sym, cap, sol, None)?.into_set_plan(),
                bound: below.unwrap_or(u64::MAX),
            })),
            None => Ok(SearchOutcome::AtLeast {
                bound: u64::from(limit),
            }),
        }
    }

    /// The cheapest subtree of the position among those whose root plays one of `guesses`, if
    /// below `below` and every `ceiling` read (see [`super::Search::guesses`]); the bound in
    /// the outcome is the least of those. [`SearchError::Stopped`] soon after the stop fires.
    pub(super) fn best_guess_below(
        &self,
        guesses: &[u32],
        below: u64,
        ceiling: &(dyn Fn() -> u64 + Sync),
    ) -> Result<SearchOutcome<PlanBelow, u64>, SearchError> {
        let (cap, sym, set) = self.start()?;
        let search = self.solver(set);
        let cands =
            root_candidates(&search, set, &sym, cap, self.stop).ok_or(SearchError::Stopped)?;
        let ranked = Ranked::new(set);
        let node = Searching {
            set,
            sym: &sym,
            ranked: &ranked,
            depth: cap,
        };
        let mut bound = below;
        let mut best: Option<Solved> = None;
        for &g in guesses {
            let Some(&c) = cands.iter().find(|c| c.guess == g) else {
                return Err(SearchError::NotTried { guess: g });
            };
            bound = bound.min(ceiling());
            let limit = u32::try_from(bound).unwrap_or(INF);
            // A later guess wins only if cheaper: the earlier keeps a tie.
            let limit_here = best.as_ref().map_or(limit, |b| b.total.min(limit));
            if c.bound >= limit_here {
                continue;
            }
            if let Ok(sol) = search.try_guess(&node, c, limit_here) {
                best = Some(sol);
            }
            if search.state.halted() {
                return Err(SearchError::Stopped);
            }
        }
        Ok(match best {
            // Found under a higher ceiling than the last one read: proven only that far.
            Some(sol) if u64::from(sol.total) < bound => SearchOutcome::Found(PlanBelow {
                plan: build_plan(&search, set, &sym, cap, sol, None)?.into_set_plan(),
                bound,
            }),
            _ => SearchOutcome::AtLeast { bound },
        })
    }

    /// What a job's search of the position starts from: the depth cap, the position's
    /// symmetries and its set, which must not be empty.
    fn start(&self) -> Result<(u8, Symmetry, &[u32]), SearchError> {
        if self.candidates.is_empty() {
            return Err(SearchError::NoCandidates);
        }
        let cap = deeper_cap(self.space, self.options)?;
        Ok((
            cap,
            history_symmetry(self.space, self.history),
            self.candidates.as_slice(),
        ))
    }

    /// A fresh search of `set` under the job's options.
    fn solver(&self, set: &[u32]) -> Solver<'_> {
        Solver::for_options(
            self.space,
            self.options,
            self.progress,
            self.stop,
            set.len(),
            None,
        )
    }
}

/// The depth limit of a deeper split's search, which only the average objective without a
/// depth limit has.
fn deeper_cap(space: &CodeSpace, options: &SearchOptions) -> Result<u8, SearchError> {
    let cap = depth_cap(space, options)?;
    debug_assert!(
        options.objective == Objective::Average && options.max_depth.is_none(),
        "only the average objective without a depth limit splits deeper (the caller checks)"
    );
    Ok(cap)
}

/// The guesses the search of `set` tries at its root, each with its one-guess bound, in no
/// particular order: what every root function here starts from. `None` once `stop` fires.
fn root_candidates(
    search: &Solver<'_>,
    set: &[u32],
    sym: &Symmetry,
    cap: u8,
    stop: &Stop,
) -> Option<Vec<Candidate>> {
    candidates(
        &search.bounds,
        set,
        &search.bounds.orbits(sym),
        INF,
        cap,
        stop,
    )
    .map(|(c, _)| c)
}
