//! The pieces of a part's search that a split run deeper needs ([`crate::tree::jobs`]): the
//! guesses the part's root tries, in its order; one of them tried under an upper bound, as the
//! root tries every guess after its first; and the first optimum of a position, as the search of
//! the whole game keeps it for a set below its root (no tie-break on the worst case there).
//!
//! Only the average objective without a depth limit splits deeper: the worst-case objectives
//! make their root choose a depth that a part cannot know, which the first-level split handles.

use smallvec::SmallVec;

use super::bounds::PartBounds;
use super::candidates::{candidates, Candidate};
use super::dedup::SplitDedup;
use super::plan::build_plan;
use super::recursion::Solver;
use super::solved::{child_limit, depth_cap, FEEDBACKS, INF};
use super::{history_symmetry, Objective, Progress, SearchError, SearchOptions, SetPlan};
use crate::codeset::CodeSet;
use crate::history::History;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// What trying one guess at a position's root under an upper bound proved.
#[derive(Debug, Clone)]
pub(crate) enum GuessTrial {
    /// The guess's subtree, whose total is below the bound.
    Below(SetPlan),
    /// A proven lower bound on the total of any tree with this guess at the root: the upper
    /// bound or more.
    AtLeast(u64),
}

/// The guesses the search of `candidates` (the position `history` leaves) tries at its root,
/// in the order it tries them, each with its proven one-guess lower bound on the position's
/// total; guesses that split the set as an earlier one does are left out, as the search leaves
/// them out (they cost the same, and the earlier wins ties).
pub(crate) fn root_guesses(
    space: &CodeSpace,
    history: &History,
    candidates_left: &CodeSet,
    options: &SearchOptions,
) -> Result<Vec<(u32, u64)>, SearchError> {
    let cap = deeper_cap(space, options)?;
    let progress = Progress::new();
    let stop = Stop::never();
    let search = Solver::new(space, options.guesses, &progress, &stop, 0, None, 0);
    let sym = history_symmetry(space, history);
    let set = candidates_left.as_slice();
    let mut cands =
        root_candidates(&search, set, &sym, cap, &stop).expect("a search that never stops");
    cands.sort_unstable_by_key(Candidate::order);
    let mut dedup = SplitDedup::new(set, search.bounds.slots, search.bounds.win);
    Ok(cands
        .into_iter()
        .filter(|c| dedup.is_new_split(search.bounds.row(c.guess)))
        .map(|c| (c.guess, u64::from(c.bound)))
        .collect())
}

/// Tries `guess` at the root of the position `history` leaves, as the search of that position
/// tries a guess: with no bound its parts are solved at once on every thread, under a bound
/// each part's bound is sharpened first and the parts are solved largest first within what the
/// others leave, so a losing guess fails early. Returns [`SearchError::Stopped`] soon after
/// `stop` fires.
#[allow(clippy::too_many_arguments)]
pub(crate) fn try_root_guess(
    space: &CodeSpace,
    history: &History,
    candidates_left: &CodeSet,
    options: &SearchOptions,
    guess: u32,
    below: Option<u64>,
    progress: &Progress,
    stop: &Stop,
) -> Result<GuessTrial, SearchError> {
    let cap = deeper_cap(space, options)?;
    let sym = history_symmetry(space, history);
    let set = candidates_left.as_slice();
    let search = Solver::for_options(space, options, progress, stop, set.len(), None);
    let limit = below.map_or(INF, |b| u32::try_from(b).unwrap_or(INF));
    let cands = root_candidates(&search, set, &sym, cap, stop).ok_or(SearchError::Stopped)?;
    let Some(&c) = cands.iter().find(|c| c.guess == guess) else {
        // Not a guess the search would try here: it cannot fit the depth.
        return Ok(GuessTrial::AtLeast(u64::from(INF)));
    };
    if c.bound >= limit {
        return Ok(GuessTrial::AtLeast(u64::from(c.bound)));
    }
    let tried = search.try_guess(set, &sym, c, limit, cap, limit == INF);
    if search.state.halted() {
        return Err(SearchError::Stopped);
    }
    match tried {
        Ok(sol) => Ok(GuessTrial::Below(
            build_plan(&search, set, &sym, cap, sol, None)?.into_set_plan(),
        )),
        Err(at_least) => Ok(GuessTrial::AtLeast(u64::from(at_least.max(limit)))),
    }
}

/// A lower bound on the total of the position `history` leaves with `guess` at its root, from
/// its parts' closed forms and one-guess lookaheads (what the search tries before it searches
/// any part), proven only up to `limit`: once the bound reaches the limit it may stop there.
/// Cheap: no part is searched.
pub(crate) fn root_guess_bound(
    space: &CodeSpace,
    history: &History,
    candidates_left: &CodeSet,
    options: &SearchOptions,
    guess: u32,
    limit: u64,
) -> Result<u64, SearchError> {
    let cap = deeper_cap(space, options)?;
    let progress = Progress::new();
    let stop = Stop::never();
    let sym = history_symmetry(space, history);
    let set = candidates_left.as_slice();
    let search = Solver::for_options(space, options, &progress, &stop, set.len(), None);
    let limit = u32::try_from(limit).unwrap_or(INF);
    let cands = root_candidates(&search, set, &sym, cap, &stop).expect("a search that never stops");
    let Some(&c) = cands.iter().find(|c| c.guess == guess) else {
        return Ok(u64::from(INF));
    };
    if c.bound >= limit {
        return Ok(u64::from(c.bound));
    }
    let parts = search.bounds.parts(set, c.guess);
    let parts: SmallVec<[&[u32]; FEEDBACKS]> = parts.iter().collect();
    let child_sym = sym.after(space.code(guess as usize).symbols());
    let child_depth = child_limit(cap);
    let mut bounds = PartBounds::new(&search.bounds, &parts, child_depth, c.bound, limit);
    let sharpened = search
        .sharpen_by_closed_forms(&parts, child_depth, &mut bounds)
        .and_then(|_| search.sharpen_by_lookahead(&parts, &child_sym, child_depth, &mut bounds));
    Ok(u64::from(match sharpened {
        Ok(()) => bounds.total,
        Err(at_least) => at_least,
    }))
}

/// The first optimal plan of the position `history` leaves, as the search of the whole game
/// keeps it for a set below its root: the earliest guess in the search's order that reaches the
/// least total, with no tie-break on the worst case. Returns [`SearchError::Stopped`] soon after
/// `stop` fires.
pub(crate) fn first_optimum(
    space: &CodeSpace,
    history: &History,
    candidates_left: &CodeSet,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
) -> Result<SetPlan, SearchError> {
    if candidates_left.is_empty() {
        return Err(SearchError::NoCandidates);
    }
    let cap = deeper_cap(space, options)?;
    let sym = history_symmetry(space, history);
    let set = candidates_left.as_slice();
    let search = Solver::for_options(space, options, progress, stop, set.len(), None);
    let sol = search
        .solve_root(set, &sym, INF, cap)?
        .expect("without a depth limit every set has a tree");
    Ok(build_plan(&search, set, &sym, cap, sol, None)?.into_set_plan())
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
