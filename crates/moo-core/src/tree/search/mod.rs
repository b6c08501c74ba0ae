//! The exact search for optimal decision trees: depth-first branch and bound on total guesses.
//!
//! `solve(S, limit, depth)` returns the cheapest tree for candidate set `S` if its total is below
//! `limit`, or proves that none is. Every pruning step is a proven lower bound, so the result is
//! optimal, not merely good:
//!
//! * Level filling ([`levels`]): a set of `n` needs at least `LB(n)` guesses in total and
//!   `LEVELS(n)` for its worst secret.
//! * One-step lookahead: a guess costs `n + sum LB(|part|)` at least, computed from its actual
//!   partition; guesses are tried cheapest bound first (a good upper bound comes early), and the
//!   loop stops at the first guess whose bound reaches the best total found.
//! * Children are solved largest first with the budget left after the others' lower bounds, so a
//!   bad guess fails as soon as one part is too expensive.
//! * Small sets close in O(n^2) ([`bounds`]).
//! * Equivalent guesses are tried once: by the exact symmetries of the history
//!   ([`Symmetry`]), and at the large sets searched in parallel also by identical partitions of
//!   `S` (same parts, same winning part). Elsewhere a guess splitting `S` like an earlier one is
//!   tried again: its parts are then answered by the cache, which measured cheaper than
//!   labelling every guess's partition to find the 2-9% that repeat.
//! * The one-guess bounds of every guess on a set come from one bulk pass ([`bulk`]),
//!   which counts feedbacks for 64 guesses at a time with vector instructions. For the bound of
//!   a part, a cheaper pass that only notes which feedbacks occur rules most guesses out by
//!   their number of parts, and only the rest are counted ([`Bounds::min_bound_by_parts`](bounds::Bounds::min_bound_by_parts)).
//! * Results are cached by candidate set (exact costs, and proven lower bounds from failed
//!   searches), since a set's cost does not depend on how it was reached; a one-bit filter in
//!   front of the cache answers most misses without a trip to memory.
//! * A failed search proves more than its limit: the least bound over every guess, each taken
//!   from how far it got ([`Search::solve_within`](recursion::Search::solve_within)). That is what the cache keeps, so a set met
//!   again under a larger budget is often refused without a second search.
//! * Large sets try their guesses in parallel (rayon), each thread taking the next guess in the
//!   order, sharing the best total through an atomic so every thread prunes with it; ties go to
//!   the earliest guess in the order, as sequentially.
//!
//! This file holds the public API and the objective drivers. The recursion is in [`recursion`],
//! what it has proven and how it stops in [`state`], the guesses worth trying in [`candidates`],
//! the bounds and closed forms in [`bounds`] (level filling in [`levels`], symmetries in
//! [`orbits`], the partition kernels in [`bulk`]), the cache in [`memo`] and [`classes`], the
//! skipping of guesses that split a set like an earlier one in [`dedup`], the plan written out
//! in [`plan`], and the root's order for a split search in [`root`].
//!
//! The search starts from any position ([`search_set`]): the candidate set a history leaves, with
//! the game's symmetries narrowed to those that fix every guess played. It checks its [`Stop`]
//! inside the recursion (the clock every 64 sets, a shared flag at every set), so a caller's
//! deadline or cancel ends it within a few milliseconds; a stopped search returns
//! [`SearchError::Stopped`] and its cache, which may hold unproven results, dies with it.

use std::sync::atomic::Ordering;

mod bounds;
mod bulk;
mod candidates;
mod checkpoint;
mod classes;
mod dedup;
mod levels;
mod memo;
mod orbits;
mod part;
mod plan;
mod progress;
mod recursion;
mod root;
mod solved;
mod spare;
mod state;
#[cfg(test)]
mod tests;

pub use self::checkpoint::{Checkpoint, CheckpointError};
pub(crate) use self::part::{
    first_optimum, root_guess_bound, root_guesses, try_root_guess, GuessTrial,
};
pub use self::progress::Progress;
pub(crate) use self::root::{first_guesses, first_guesses_at};

use self::bounds::branches_of;
use self::levels::LevelBounds;
use self::memo::MEMO_BUDGET;
use self::plan::{build_plan, Plan};
use self::recursion::Search;
use self::solved::{depth_cap, weighted_cost_scale, Solved, INF};
use super::{DecisionTree, TreeStats};
use crate::codeset::CodeSet;
use crate::history::History;
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// What an optimal tree minimises, named in files as on the command line (`fewest-worst`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// The fewest guesses in total over all secrets (the best average); ties go to the smaller
    /// worst case.
    #[default]
    Average,
    /// The fewest guesses that always suffice; ties go to the fewest in total.
    Worst,
    /// The fewest guesses that always suffice, then the fewest secrets that need that many,
    /// then the fewest in total.
    FewestWorst,
}

impl Objective {
    /// Every objective, for listings.
    pub const ALL: [Objective; 3] = [Objective::Average, Objective::Worst, Objective::FewestWorst];

    /// The objective's position in [`Objective::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What to search for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct SearchOptions {
    /// What to minimise.
    pub objective: Objective,
    /// Only trees that solve every secret within this many guesses.
    pub max_depth: Option<u32>,
    /// Which codes may be guessed.
    pub guesses: GuessPool,
    /// The most memory the search's cache may take, in bytes (`None`: [`DEFAULT_CACHE_BYTES`]).
    /// A full cache forgets its smallest sets to make room, so a smaller cache costs time, never
    /// exactness.
    pub cache_bytes: Option<u64>,
    /// Whether candidate sets equal up to relabelling symbols and permuting positions share
    /// their cache entries (on by default). The trees are the same either way; off only to
    /// measure what the sharing saves.
    pub classes: bool,
    /// How many candidate sets a search goes through before it starts naming sets for that
    /// sharing (default [`CLASSES_AFTER`]).
    pub classes_after: u64,
}

/// How many candidate sets a search goes through before sets equal up to relabelling start to
/// share results ([`SearchOptions::classes_after`]). Naming a set costs more than searching a
/// small one, and a search this short meets few sets again up to relabelling (Mastermind 4x6,
/// about 12 thousand sets in all: naming from the start made it a tenth slower), while the long
/// searches it pays for go on for hundreds of thousands of sets or more.
pub const CLASSES_AFTER: u64 = 1 << 14;

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            objective: Objective::default(),
            max_depth: None,
            guesses: GuessPool::default(),
            cache_bytes: None,
            classes: true,
            classes_after: CLASSES_AFTER,
        }
    }
}

impl SearchOptions {
    /// Options for `objective`, with no depth limit and any code as a guess.
    pub fn new(objective: Objective) -> SearchOptions {
        SearchOptions {
            objective,
            ..SearchOptions::default()
        }
    }

    /// Only trees that solve every secret within `max_depth` guesses (`None`: no limit).
    pub fn with_max_depth(mut self, max_depth: Option<u32>) -> SearchOptions {
        self.max_depth = max_depth;
        self
    }

    /// Which codes may be guessed.
    pub fn with_guesses(mut self, guesses: GuessPool) -> SearchOptions {
        self.guesses = guesses;
        self
    }

    /// The most memory the search's cache may take, in bytes (`None`: the default).
    pub fn with_cache_bytes(mut self, cache_bytes: Option<u64>) -> SearchOptions {
        self.cache_bytes = cache_bytes;
        self
    }

    /// Whether sets equal up to the game's symmetries share cache entries (see
    /// [`SearchOptions::classes`]).
    pub fn with_classes(mut self, classes: bool) -> SearchOptions {
        self.classes = classes;
        self
    }

    /// How many candidate sets a search goes through before it starts naming them (see
    /// [`SearchOptions::classes_after`]).
    pub fn with_classes_after(mut self, classes_after: u64) -> SearchOptions {
        self.classes_after = classes_after;
        self
    }

    /// The cache size these options give.
    fn cache_budget(&self) -> u64 {
        self.cache_bytes.unwrap_or(DEFAULT_CACHE_BYTES)
    }
}

/// The search cache's size when the options name none: 3 GiB, counted as allocated. Bulls and
/// Cows 4x10 needs about 0.12 GB; 5 symbols of 0-7 fill it.
pub const DEFAULT_CACHE_BYTES: u64 = MEMO_BUDGET;

/// The refusal of a space without a table: more memory helps only within the table's cap.
fn too_large(size: usize, limit: usize) -> String {
    let mb = (size as u64).pow(2) / 1_000_000;
    if size > crate::space::TABLE_LIMIT_CODES {
        format!(
            "an exact search needs the score table, which is built for at most {} codes, and these rules allow {size}: use a shorter code or fewer symbols",
            crate::space::TABLE_LIMIT_CODES
        )
    } else {
        format!(
            "an exact search needs the score table, and the table of these rules' {size} codes takes {mb} MB, more than allowed (by default tables up to {limit} codes): allow it more memory (`--table-memory` in the CLI), or use a shorter code or fewer symbols"
        )
    }
}

/// Why the search could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The space has no score table, which the search relies on.
    #[error("{}", too_large(*size, *limit))]
    TooLarge {
        /// Codes in the space.
        size: usize,
        /// The most codes with a score table by default.
        limit: usize,
    },
    /// A depth limit of zero allows no guess at all.
    #[error("--max-depth must be at least 1")]
    ZeroDepth,
    /// The fewest-at-worst objective's costs would not fit the search's 32-bit arithmetic.
    #[error("the fewest-at-worst objective cannot weigh {size} codes over {depth} guesses: use a smaller game or another objective")]
    TooLargeToWeigh {
        /// Codes in the position.
        size: usize,
        /// The depth it would have weighed.
        depth: u32,
    },
    /// The search was stopped before it finished.
    #[error("the search was stopped by its time limit or a cancel")]
    Stopped,
    /// A checkpoint's facts gave a tree that does not play out as they claim.
    #[error("{0}")]
    Checkpoint(String),
    /// The position has no candidate left, so there is nothing to search.
    #[error("no code is consistent with the history: check the answers given")]
    NoCandidates,
}

/// The result of a search.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum SearchOutcome {
    /// An optimal tree and its statistics.
    Found {
        /// The tree.
        tree: DecisionTree,
        /// Its replayed statistics.
        stats: TreeStats,
    },
    /// Proven: no strategy solves every secret within `max_depth` guesses.
    Impossible {
        /// The depth that is not enough.
        max_depth: u32,
    },
}

/// The result of a search from a position ([`search_set`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum SetOutcome {
    /// An optimal plan from the position.
    Solved(SetPlan),
    /// Proven: no strategy solves every candidate within `max_depth` more guesses.
    Impossible {
        /// The depth (counted from the position) that is not enough.
        max_depth: u32,
    },
}

/// An optimal strategy from a position, as the guess for every candidate set it reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetPlan {
    /// Guesses summed over every candidate from here on, the winning guess counted.
    pub total: u64,
    /// The most guesses any candidate needs from here.
    pub worst: u32,
    /// `histogram[k - 1]` candidates need exactly `k` more guesses.
    pub histogram: Vec<u64>,
    /// `moves[0]` is the position's candidate set and the optimal guess; then every set the plan
    /// reaches, depth first, with its guess and total, so a caller can cache them and answer
    /// later turns without searching.
    pub moves: Vec<PlanMove>,
}

/// One position of a [`SetPlan`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanMove {
    /// The candidate set the plan reaches.
    pub set: CodeSet,
    /// The guess the plan plays there (a code index).
    pub guess: u32,
    /// Guesses summed over the set's candidates from there on under the plan, the winning
    /// guess counted: the set's optimal total.
    pub total: u64,
}

/// Finds an optimal tree for `space` under `options`, or proves none exists within the depth
/// limit. Runs on the current rayon pool; `progress` is updated as it goes.
pub fn search(
    space: &CodeSpace,
    options: &SearchOptions,
    progress: &Progress,
) -> Result<SearchOutcome, SearchError> {
    search_whole(space, options, progress, &Stop::never(), None)
}

/// [`search`] that stops soon after `stop` fires, with [`SearchError::Stopped`].
pub fn search_until(
    space: &CodeSpace,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
) -> Result<SearchOutcome, SearchError> {
    search_whole(space, options, progress, stop, None)
}

/// [`search`] that writes what it proves about large sets to `checkpoint` as it goes, after
/// loading what the file already holds, so a run that was interrupted resumes where it stopped
/// and finishes with the same tree. Stops soon after `stop` fires, with
/// [`SearchError::Stopped`]; what was written stays valid for the next run.
pub fn search_checkpointed(
    space: &CodeSpace,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
    checkpoint: &Checkpoint,
) -> Result<SearchOutcome, SearchError> {
    search_whole(space, options, progress, stop, Some(checkpoint))
}

/// The search of the whole space, written out as a verified tree.
fn search_whole(
    space: &CodeSpace,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
    checkpoint: Option<&Checkpoint>,
) -> Result<SearchOutcome, SearchError> {
    let root: Vec<u32> = (0..space.len() as u32).collect();
    let sym = Symmetry::new(space.rules());
    let plan = match search_from(
        space, &root, &sym, options, progress, stop, checkpoint, false,
    )? {
        Ok((plan, _)) => plan,
        Err(max_depth) => return Ok(SearchOutcome::Impossible { max_depth }),
    };
    let total = plan.total;
    let nodes = plan.nodes.into_iter().map(|n| n.node).collect();
    let tree = DecisionTree::from_nodes(space.rules().clone(), nodes);
    let stats = match (tree.verify_in(space), checkpoint) {
        (Ok(stats), _) if stats.total == total => stats,
        // Only facts read from a file can make a plan that its replay does not confirm.
        (replayed, Some(c)) => {
            let replayed = replayed.ok().map(|s| s.total);
            return Err(SearchError::Checkpoint(
                c.false_fact(total, replayed).to_string(),
            ));
        }
        (replayed, None) => {
            panic!("the search built a tree that does not replay as planned: {replayed:?}")
        }
    };
    Ok(SearchOutcome::Found { tree, stats })
}

/// Exact search from the position a history leaves: the optimal plan for `candidates` (the set
/// `history` leaves in `space`) under `options`, whose depth limit counts from this position.
/// Equivalent guesses are pruned with the symmetries of the game that fix every guess of the
/// history. Runs on the current rayon pool; returns [`SearchError::Stopped`] soon after `stop`
/// fires.
pub fn search_set(
    space: &CodeSpace,
    history: &History,
    candidates: &CodeSet,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
) -> Result<SetOutcome, SearchError> {
    Ok(
        match search_part(space, history, candidates, options, progress, stop, false)? {
            Ok((plan, _)) => SetOutcome::Solved(plan),
            Err(max_depth) => SetOutcome::Impossible { max_depth },
        },
    )
}

/// [`search_set`], and with `keep_unreduced` for the average objective also the plan the
/// search had before its worst-case tie-break, built without the depth limit that tie-break
/// imposed (`None` when the tie-break changed nothing). A search of the whole game keeps its
/// parts' unreduced plans whenever its own worst case cannot be reduced, so a split search
/// needs both to assemble the same tree ([`super::jobs`]).
pub(crate) fn search_part(
    space: &CodeSpace,
    history: &History,
    candidates: &CodeSet,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
    keep_unreduced: bool,
) -> Result<Result<(SetPlan, Option<SetPlan>), u32>, SearchError> {
    debug_assert!(
        *candidates == history.candidates(space),
        "the candidates are the set the history leaves"
    );
    if candidates.is_empty() {
        return Err(SearchError::NoCandidates);
    }
    let sym = history_symmetry(space, history);
    let root = candidates.as_slice();
    let (plan, unreduced) = match search_from(
        space,
        root,
        &sym,
        options,
        progress,
        stop,
        None,
        keep_unreduced,
    )? {
        Ok(plans) => plans,
        Err(max_depth) => return Ok(Err(max_depth)),
    };
    Ok(Ok((
        plan.into_set_plan(),
        unreduced.map(Plan::into_set_plan),
    )))
}

/// The symmetries of the game that fix every guess of `history`.
fn history_symmetry(space: &CodeSpace, history: &History) -> Symmetry {
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
pub(crate) fn search_part_columns(
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
        |last_level| Search::for_options(space, options, progress, stop, root.len(), last_level);
    let solve = |search: &Search, depth: u8| search.solve_root(root, &sym, INF, depth);
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
struct Root<'a> {
    space: &'a CodeSpace,
    root: &'a [u32],
    sym: &'a Symmetry,
    options: &'a SearchOptions,
    progress: &'a Progress,
    stop: &'a Stop,
    checkpoint: Option<&'a Checkpoint>,
    /// The depth limit as the recursion counts it ([`depth_cap`]).
    cap: u8,
}

/// What an objective's driver proved: the search that holds the proof, the root's solution
/// within `depth`, the last-level weight it was found under, and for the average the solution
/// before its worst case was reduced (when that changed it and it was asked for).
struct Driven<'a> {
    search: Search<'a>,
    sol: Solved,
    depth: u8,
    weight: Option<u32>,
    unreduced: Option<Solved>,
}

impl<'a> Root<'a> {
    /// A fresh search of this root, under a last-level weight if any, loading the checkpoint's
    /// results for it first.
    fn new_search(&self, last_level: Option<(u8, u32)>) -> Search<'a> {
        let mut search = Search::for_options(
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

    fn solve(&self, search: &Search, limit: u32, depth: u8) -> Result<Option<Solved>, SearchError> {
        search.solve_root(self.root, self.sym, limit, depth)
    }

    /// The least total; among trees with it, the smallest worst case: the same total is asked
    /// for within one guess less until that is proven impossible. `Err(max_depth)` when no tree
    /// fits the depth limit.
    fn average(&self, keep_unreduced: bool) -> Result<Result<Driven<'a>, u32>, SearchError> {
        let search = self.new_search(None);
        let Some(mut best) = self.solve(&search, INF, self.cap)? else {
            return Ok(Err(self.options.max_depth.unwrap_or(0)));
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
        Ok(Ok(Driven {
            search,
            sol: best,
            depth,
            weight: None,
            unreduced: (keep_unreduced && depth != self.cap).then_some(first),
        }))
    }

    /// The first depth that admits a tree, proving each smaller one impossible, and the least
    /// total within it. `Err(cap)` when none does within the depth limit.
    fn worst(&self) -> Result<Result<Driven<'a>, u32>, SearchError> {
        let search = self.new_search(None);
        let mut depth = search.bounds.levels(self.root.len());
        loop {
            if depth > self.cap {
                return Ok(Err(u32::from(self.cap)));
            }
            self.progress
                .depth
                .store(u64::from(depth), Ordering::Relaxed);
            if let Some(sol) = self.solve(&search, INF, depth)? {
                return Ok(Ok(Driven {
                    search,
                    sol,
                    depth,
                    weight: None,
                    unreduced: None,
                }));
            }
            depth += 1;
        }
    }

    /// Depth by depth as for the worst case, each with its own weighted search: a cost
    /// `weight * (secrets at that depth) + total` with `weight` above any total, so the count
    /// decides first and the total breaks ties.
    fn fewest_worst(&self) -> Result<Result<Driven<'a>, u32>, SearchError> {
        let plain = LevelBounds::new(branches_of(self.space), self.root.len(), None);
        let mut depth = plain.levels(self.root.len());
        loop {
            if depth > self.cap {
                return Ok(Err(u32::from(self.cap)));
            }
            self.progress
                .depth
                .store(u64::from(depth), Ordering::Relaxed);
            let weight = weighted_cost_scale(self.space.len(), self.root.len(), depth)?;
            let search = self.new_search(Some((depth, weight)));
            if let Some(sol) = self.solve(&search, INF, depth)? {
                return Ok(Ok(Driven {
                    search,
                    sol,
                    depth,
                    weight: Some(weight),
                    unreduced: None,
                }));
            }
            depth += 1;
        }
    }
}

/// The search every entry point shares: the optimal plan for `root` (sorted code indexes) under
/// `options`, or `Err(max_depth)` when no tree fits the depth limit. With a checkpoint, the
/// results it holds are loaded first and new ones appended as they are proven.
#[allow(clippy::too_many_arguments)]
fn search_from(
    space: &CodeSpace,
    root: &[u32],
    sym: &Symmetry,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
    checkpoint: Option<&Checkpoint>,
    keep_unreduced: bool,
) -> Result<Result<(Plan, Option<Plan>), u32>, SearchError> {
    let cap = depth_cap(space, options)?;
    let at = Root {
        space,
        root,
        sym,
        options,
        progress,
        stop,
        checkpoint,
        cap,
    };
    let driven = match options.objective {
        Objective::Average => at.average(keep_unreduced)?,
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
        Ok(driven) => driven,
        Err(max_depth) => return Ok(Err(max_depth)),
    };
    let plan = build_plan(&search, root, sym, depth, sol, weight)?;
    progress.bound.store(plan.total, Ordering::Relaxed);
    let unreduced = match unreduced {
        Some(first) => Some(build_plan(&search, root, sym, cap, first, None)?),
        None => None,
    };
    Ok(Ok((plan, unreduced)))
}
