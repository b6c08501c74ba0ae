//! The objective drivers: how each objective turns the recursion's `solve(S, limit, depth)`
//! into an optimal plan (the least total, then a smaller worst case; the first depth that
//! admits a tree; that depth again under a weight), and the per-depth columns a split search's
//! part needs. [`super::Search`] calls them; nothing here is public.

use std::sync::atomic::Ordering;

use smallvec::{smallvec, SmallVec};

use super::candidates::Candidate;
use super::checkpoint::Checkpoint;
use super::levels::{branches_of, LevelBounds};
use super::progress::Progress;
use super::proven_plan::{build_plan, Plan};
use super::ranked::Ranked;
use super::recursion::{Searching, Solver};
use super::solved::{child_limit, depth_cap, weighted_cost_scale, Solved, FEEDBACKS, INF};
use super::{Objective, SearchError, SearchOptions, SearchOutcome, SetPlan};
use crate::codeset::CodeSet;
use crate::history::History;
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// The symmetries of the game that fix every guess of `history`.
pub(super) fn history_symmetry(space: &CodeSpace, history: &History) -> Symmetry {
    history
        .turns()
        .iter()
        .fold(Symmetry::new(space.rules()), |sym, turn| {
            sym.after(turn.guess.symbols())
        })
}

/// For the worst-case objectives, the optimal plan of a part of a split search ([`super::jobs`])
/// under every depth limit the search of the whole game may give it: one per depth, from the
/// fewest guesses that solve every candidate, up to the first depth where a deeper limit can no
/// longer do better (the total is the optimum without a depth limit and, for the fewest at
/// worst, no candidate needs the last guess). Every depth is searched as the whole game's search
/// searches it: one search over the depths for the worst case, and for the fewest at worst a
/// fresh search for each depth, weighted as the whole game's. Under the fewest at worst the
/// join then gives the whole game's tree; under the worst case, whose ties among trees of equal
/// total are many, the cache a single search carries from part to part can break them
/// otherwise, so the join's tree has the same worst case and total but may be another.
/// `options.max_depth` counts from this position; empty when no tree fits it.
pub(super) fn part_columns(
    space: &CodeSpace,
    history: &History,
    candidates: &CodeSet,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
) -> Result<Vec<(u32, SetPlan)>, SearchError> {
    if candidates.is_empty() {
        return Err(SearchError::NoCandidates);
    }
    let cap = depth_cap(space, options)?;
    let sym = history_symmetry(space, history);
    let root = candidates.as_slice();
    let above = history.turns().len() as u8;
    let new_search =
        |last_level| Solver::for_options(space, options, progress, stop, root.len(), last_level);
    let solve = |search: &Solver, depth: u8| search.solve_root(root, &sym, INF, depth);
    // The optimum without a depth limit (but the cap), from a search of its own so that the
    // columns' searches see only what the whole game's would.
    let Some(target) = solve(&new_search(None), cap)? else {
        return Ok(Vec::new());
    };
    let target = u64::from(target.total);
    // The whole game's search starts at the fewest levels its root needs; no part is searched
    // with fewer guesses than that leaves.
    let whole = space.len();
    let plain = LevelBounds::new(branches_of(space), whole, None);
    let mut depth = plain
        .levels(root.len())
        .max(plain.levels(whole).saturating_sub(above))
        .max(1);
    let mut columns = Vec::new();
    let mut shared = None;
    while depth <= cap {
        progress.depth.store(u64::from(depth), Ordering::Relaxed);
        let weight = (options.objective == Objective::FewestWorst)
            .then(|| weighted_cost_scale(whole, whole, depth + above))
            .transpose()?;
        let fresh;
        let search = match weight {
            Some(w) => {
                fresh = new_search(Some((depth, w)));
                &fresh
            }
            None => shared.get_or_insert_with(|| new_search(None)),
        };
        let mut done = false;
        if let Some(s) = solve(search, depth)? {
            let plan = build_plan(search, root, &sym, depth, s, weight)?;
            // Under the weight, a deeper limit could still spare the last guess's secrets.
            let at_limit = plan.histogram.get(usize::from(depth) - 1).copied();
            done = plan.total == target && (weight.is_none() || at_limit.unwrap_or(0) == 0);
            columns.push((u32::from(depth), plan.into_set_plan()));
        }
        if done || depth == cap {
            break;
        }
        depth += 1;
    }
    Ok(columns)
}

/// A root being searched under one set of options: what every objective's driver needs.
struct Driver<'a> {
    space: &'a CodeSpace,
    root: &'a [u32],
    sym: &'a Symmetry,
    options: &'a SearchOptions,
    progress: &'a Progress,
    stop: &'a Stop,
    checkpoint: Option<&'a Checkpoint>,
    /// The depth limit as the recursion counts it ([`depth_cap`]).
    cap: u8,
    /// The guess the root must play ([`SearchOptions::first_guess`]), as a code index.
    first_guess: Option<u32>,
}

/// What an objective's driver proved: the search that holds the proof, the root's solution
/// within `depth`, the last-level weight it was found under, and for the average the solution
/// before its worst case was reduced (when that changed it and it was asked for).
struct Driven<'a> {
    search: Solver<'a>,
    sol: Solved,
    depth: u8,
    weight: Option<u32>,
    unreduced: Option<Solved>,
}

impl<'a> Driver<'a> {
    /// A fresh search of this root, under a last-level weight if any, loading the checkpoint's
    /// results for it first.
    fn new_search(&self, last_level: Option<(u8, u32)>) -> Solver<'a> {
        let mut search = Solver::for_options(
            self.space,
            self.options,
            self.progress,
            self.stop,
            self.root.len(),
            last_level,
        );
        let tag = last_level.map_or(0, |(depth, _)| depth);
        if let Some(checkpoint) = self.checkpoint {
            checkpoint.load_into(tag, &search.state.memo, self.space.len());
            search.state.checkpoint = Some((checkpoint, tag));
        }
        search
    }

    fn solve(&self, search: &Solver, limit: u32, depth: u8) -> Result<Option<Solved>, SearchError> {
        match self.first_guess {
            None => search.solve_root(self.root, self.sym, limit, depth),
            Some(guess) => self.solve_forced(search, guess, limit, depth),
        }
    }

    /// [`Driver::solve`] with the root's guess forced: that guess tried as the root tries any
    /// of its own (the same bound, the same solving of its parts), and no other. The recursion
    /// below the root is untouched, so its subtrees are the ones the free search writes.
    fn solve_forced(
        &self,
        search: &Solver,
        guess: u32,
        limit: u32,
        depth: u8,
    ) -> Result<Option<Solved>, SearchError> {
        let bounds = &search.bounds;
        let child_depth = child_limit(depth);
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; bounds.slots];
        let candidate = bounds
            .split_bound(guess, self.root, &mut counts, limit, child_depth)
            .and_then(|split| bounds.bound_of_split(self.root.len(), split, child_depth))
            .map(|(bound, member)| Candidate {
                guess,
                bound,
                member,
            })
            .filter(|c| c.bound < limit);
        // No candidate: the guess cannot beat the limit or fit the depth.
        let sol = candidate.and_then(|c| {
            let ranked = Ranked::new(self.root);
            let node = Searching {
                set: self.root,
                sym: self.sym,
                ranked: &ranked,
                depth,
            };
            search.try_candidate(&node, c, limit).ok()
        });
        if search.state.halted() {
            Err(SearchError::Stopped)
        } else {
            Ok(sol)
        }
    }

    /// The least total; among trees with it, the smallest worst case: the same total is asked
    /// for within one guess less until that is proven impossible. [`SearchOutcome::Impossible`]
    /// when no tree fits the depth limit.
    fn average(&self, unreduced: Unreduced) -> Result<SearchOutcome<Driven<'a>>, SearchError> {
        let search = self.new_search(None);
        let Some(mut best) = self.solve(&search, INF, self.cap)? else {
            return Ok(SearchOutcome::Impossible {
                max_depth: self.options.max_depth.unwrap_or(0),
            });
        };
        if self.progress.borrowed() > 0 {
            // Borrowed parts report the worst case of their class's first tree, which can be
            // deeper than this tree's own: the reduction below starts from the tree.
            let plan = build_plan(&search, self.root, self.sym, self.cap, best, None)?;
            best.worst = plan.worst as u8;
        }
        let first = best;
        let mut depth = self.cap;
        while best.worst > search.bounds.levels(self.root.len()) {
            match self.solve(&search, best.total + 1, best.worst - 1)? {
                Some(s) => {
                    depth = best.worst - 1;
                    best = s;
                }
                None => break,
            }
        }
        Ok(SearchOutcome::Found(Driven {
            search,
            sol: best,
            depth,
            weight: None,
            unreduced: (unreduced == Unreduced::Keep && depth != self.cap).then_some(first),
        }))
    }

    /// The first depth that admits a tree, proving each smaller one impossible, and the least
    /// total within it. [`SearchOutcome::Impossible`] when none does within the depth limit.
    fn worst(&self) -> Result<SearchOutcome<Driven<'a>>, SearchError> {
        let search = self.new_search(None);
        let first = search.bounds.levels(self.root.len());
        // One search serves every depth; the tree found takes it along.
        let mut search = Some(search);
        self.depth_by_depth(first, |depth| {
            let held = search.as_ref().expect("taken only with the tree found");
            let Some(sol) = self.solve(held, INF, depth)? else {
                return Ok(None);
            };
            let search = search.take().expect("taken only with the tree found");
            Ok(Some(Driven {
                search,
                sol,
                depth,
                weight: None,
                unreduced: None,
            }))
        })
    }

    /// Depth by depth as for the worst case, each with its own weighted search: a cost
    /// `weight * (secrets at that depth) + total` with `weight` above any total, so the count
    /// decides first and the total breaks ties.
    fn fewest_worst(&self) -> Result<SearchOutcome<Driven<'a>>, SearchError> {
        let plain = LevelBounds::new(branches_of(self.space), self.root.len(), None);
        self.depth_by_depth(plain.levels(self.root.len()), |depth| {
            let weight = weighted_cost_scale(self.space.len(), self.root.len(), depth)?;
            let search = self.new_search(Some((depth, weight)));
            let sol = self.solve(&search, INF, depth)?;
            Ok(sol.map(|sol| Driven {
                search,
                sol,
                depth,
                weight: Some(weight),
                unreduced: None,
            }))
        })
    }

    /// The two depth-limited objectives' loop: `at` searches one depth, from `depth` up, and
    /// gives the tree if that depth admits one; past the cap the search is
    /// [`SearchOutcome::Impossible`].
    fn depth_by_depth(
        &self,
        mut depth: u8,
        mut at: impl FnMut(u8) -> Result<Option<Driven<'a>>, SearchError>,
    ) -> Result<SearchOutcome<Driven<'a>>, SearchError> {
        loop {
            if depth > self.cap {
                return Ok(SearchOutcome::Impossible {
                    max_depth: u32::from(self.cap),
                });
            }
            self.progress
                .depth
                .store(u64::from(depth), Ordering::Relaxed);
            if let Some(found) = at(depth)? {
                return Ok(SearchOutcome::Found(found));
            }
            depth += 1;
        }
    }
}

/// The index of the root's forced guess ([`SearchOptions::first_guess`]), checked: a code of
/// the game and, when only codes still possible may be guessed, one of `root`.
fn first_guess(
    space: &CodeSpace,
    root: &[u32],
    options: &SearchOptions,
) -> Result<Option<u32>, SearchError> {
    let Some(code) = options.first_guess else {
        return Ok(None);
    };
    let rules = space.rules();
    let refuse = |reason: String| SearchError::FirstGuess { reason };
    rules.check_code(&code).map_err(|e| refuse(e.to_string()))?;
    let guess = rules.format_code(&code);
    let index = space
        .index_of(&code)
        .ok_or_else(|| refuse(format!("{guess} is no code of {}", rules.describe())))?
        as u32;
    if options.guesses == GuessPool::Consistent && root.binary_search(&index).is_err() {
        return Err(refuse(format!(
            "{guess} is not still possible, and only codes still possible may be guessed here (--guesses consistent)"
        )));
    }
    Ok(Some(index))
}

/// A root and the settings it is searched under: what [`search_from`] takes.
pub(super) struct Root<'a> {
    pub(super) space: &'a CodeSpace,
    /// The root's candidates, sorted code indexes.
    pub(super) set: &'a [u32],
    pub(super) sym: &'a Symmetry,
    pub(super) options: &'a SearchOptions,
    pub(super) progress: &'a Progress,
    pub(super) stop: &'a Stop,
    pub(super) checkpoint: Option<&'a Checkpoint>,
}

/// Whether a search under the average also gives its plan from before the worst-case
/// tie-break, which a split search's part needs (see [`super::Search::part`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Unreduced {
    Keep,
    Drop,
}

/// The search every entry point shares: the optimal plan for `root` under its options, or
/// [`SearchOutcome::Impossible`] when no tree fits the depth limit. With a checkpoint, the
/// results it holds are loaded first and new ones appended as they are proven.
pub(super) fn search_from(
    root: Root<'_>,
    unreduced: Unreduced,
) -> Result<SearchOutcome<(Plan, Option<Plan>)>, SearchError> {
    let Root {
        space,
        set: root,
        sym,
        options,
        progress,
        stop,
        checkpoint,
    } = root;
    let cap = depth_cap(space, options)?;
    let at = Driver {
        space,
        root,
        sym,
        options,
        progress,
        stop,
        checkpoint,
        cap,
        first_guess: first_guess(space, root, options)?,
    };
    let driven = match options.objective {
        Objective::Average => at.average(unreduced)?,
        Objective::Worst => at.worst()?,
        Objective::FewestWorst => at.fewest_worst()?,
    };
    let Driven {
        search,
        sol,
        depth,
        weight,
        unreduced,
    } = match driven {
        SearchOutcome::Found(driven) => driven,
        SearchOutcome::Impossible { max_depth } => {
            return Ok(SearchOutcome::Impossible { max_depth })
        }
    };
    let plan = build_plan(&search, root, sym, depth, sol, weight)?;
    progress.bound.store(plan.total, Ordering::Relaxed);
    let unreduced = match unreduced {
        Some(first) => Some(build_plan(&search, root, sym, cap, first, None)?),
        None => None,
    };
    Ok(SearchOutcome::Found((plan, unreduced)))
}
