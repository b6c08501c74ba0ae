//! The pieces of a search that a split run deeper needs ([`crate::tree::jobs`]): the guesses a
//! position's root tries, in its order, with each one's pieces and their proven lower bounds;
//! and the first optimum of a position below an upper bound, as the search of the whole game
//! keeps it for a set below its root (no tie-break on the worst case there).
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
use super::{history_symmetry, Objective, Progress, SearchError, SearchOptions, SetPlan};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// What solving a position under an upper bound proved.
#[derive(Debug, Clone)]
pub(crate) enum GuessTrial {
    /// The position's first optimal subtree, whose total is below the bound.
    Below(SetPlan),
    /// A proven lower bound on the total of any tree of the position: the upper bound or more.
    AtLeast(u64),
}

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

/// The first optimal plan of the position `history` leaves, if its total is below `below`
/// (every plan is, without a bound), as the search of the whole game keeps it for a set below
/// its root; else a proven lower bound of `below` or more. Returns [`SearchError::Stopped`]
/// soon after `stop` fires.
pub(crate) fn first_optimum_below(
    space: &CodeSpace,
    history: &History,
    candidates_left: &CodeSet,
    options: &SearchOptions,
    below: Option<u64>,
    progress: &Progress,
    stop: &Stop,
) -> Result<GuessTrial, SearchError> {
    let (cap, sym, set) = job_start(space, history, candidates_left, options)?;
    let search = Solver::for_options(space, options, progress, stop, set.len(), None);
    let limit = below.map_or(INF, |b| u32::try_from(b).unwrap_or(INF));
    match search.solve_root(set, &sym, limit, cap)? {
        Some(sol) => Ok(GuessTrial::Below(
            build_plan(&search, set, &sym, cap, sol, None)?.into_set_plan(),
        )),
        None => Ok(GuessTrial::AtLeast(u64::from(limit))),
    }
}

/// The cheapest subtree of the position `history` leaves among those whose root plays one of
/// `guesses` (in the position's search order), if below `below`: the earliest of them among
/// equals, each later guess tried only below the best so far, as the search of the position
/// tries them. One solver, so one cache, serves every guess: a run of guesses is one job of a
/// split. `None` when a guess is not one the search tries there. Returns
/// [`SearchError::Stopped`] soon after `stop` fires.
///
/// `ceiling` is read before each guess and bounds it too: another run of the same position
/// that found a tree lowers it while this one runs. The trial is then below the least bound
/// read, or a lower bound of it (which [`RunTrial::bound`] gives), since every guess was tried
/// under that or more.
#[allow(clippy::too_many_arguments)]
pub(crate) fn best_guess_below(
    space: &CodeSpace,
    history: &History,
    candidates_left: &CodeSet,
    options: &SearchOptions,
    guesses: &[u32],
    below: u64,
    ceiling: &(dyn Fn() -> u64 + Sync),
    progress: &Progress,
    stop: &Stop,
) -> Result<Option<RunTrial>, SearchError> {
    let (cap, sym, set) = job_start(space, history, candidates_left, options)?;
    let search = Solver::for_options(space, options, progress, stop, set.len(), None);
    let cands = root_candidates(&search, set, &sym, cap, stop).ok_or(SearchError::Stopped)?;
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
            return Ok(None);
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
    let trial = match best {
        // Found under a higher ceiling than the last one read: proven only that far.
        Some(sol) if u64::from(sol.total) < bound => {
            GuessTrial::Below(build_plan(&search, set, &sym, cap, sol, None)?.into_set_plan())
        }
        _ => GuessTrial::AtLeast(bound),
    };
    Ok(Some(RunTrial { trial, bound }))
}

/// What [`best_guess_below`] proved of a run of guesses, and the bound it ended under: its
/// own, or lower, from its ceiling.
pub(crate) struct RunTrial {
    /// A tree below `bound`, or the lower bound `bound`.
    pub(crate) trial: GuessTrial,
    /// The least of its bound and every ceiling it read.
    pub(crate) bound: u64,
}

/// What a job's search of the position `history` leaves starts from: the depth cap, the
/// position's symmetries and its set, which must not be empty.
fn job_start<'c>(
    space: &CodeSpace,
    history: &History,
    candidates_left: &'c CodeSet,
    options: &SearchOptions,
) -> Result<(u8, Symmetry, &'c [u32]), SearchError> {
    if candidates_left.is_empty() {
        return Err(SearchError::NoCandidates);
    }
    let cap = deeper_cap(space, options)?;
    Ok((
        cap,
        history_symmetry(space, history),
        candidates_left.as_slice(),
    ))
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
