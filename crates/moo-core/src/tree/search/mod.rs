//! The exact search for optimal decision trees: depth-first branch and bound on total guesses.
//!
//! `solve(S, limit, depth)` returns the cheapest tree for candidate set `S` if its total is below
//! `limit`, or proves that none is. Every pruning step is a proven lower bound, so the result is
//! optimal, not merely good:
//!
//! * Level filling: with `r` non-winning feedbacks, at most 1 secret is solved by the next guess,
//!   `r` by the one after, `r^2` after that; a set of `n` needs at least `LB(n)` guesses in total
//!   and `LEVELS(n)` guesses for its worst secret.
//! * One-step lookahead: a guess costs `n + sum LB(|part|)` at least, computed from its actual
//!   partition; guesses are tried cheapest bound first (a good upper bound comes early), and the
//!   loop stops at the first guess whose bound reaches the best total found.
//! * Children are solved largest first with the budget left after the others' lower bounds, so a
//!   bad guess fails as soon as one part is too expensive.
//! * Small sets close in O(n^2): if a candidate splits the others into singletons the set costs
//!   `2n - 1`, which is the level bound.
//! * Equivalent guesses are tried once: by the exact symmetries of the history
//!   ([`Symmetry`]), and at the large sets searched in parallel also by identical partitions of
//!   `S` (same parts, same winning part). Elsewhere a guess splitting `S` like an earlier one is
//!   tried again: its parts are then answered by the cache, which measured cheaper than
//!   labelling every guess's partition to find the 2-9% that repeat.
//! * The one-guess bounds of every guess on a set come from one bulk pass ([`bulk`]),
//!   which counts feedbacks for 64 guesses at a time with vector instructions. For the bound of
//!   a part, a cheaper pass that only notes which feedbacks occur rules most guesses out by
//!   their number of parts, and only the rest are counted ([`Search::min_bound_by_parts`]).
//! * Results are cached by candidate set (exact costs, and proven lower bounds from failed
//!   searches), since a set's cost does not depend on how it was reached; a one-bit filter in
//!   front of the cache answers most misses without a trip to memory.
//! * A failed search proves more than its limit: the least bound over every guess, each taken
//!   from how far it got ([`Search::solve_within`]). That is what the cache keeps, so a set met
//!   again under a larger budget is often refused without a second search.
//! * Large sets try their guesses in parallel (rayon), each thread taking the next guess in the
//!   order, sharing the best total through an atomic so every thread prunes with it; ties go to
//!   the earliest guess in the order, as sequentially.
//!
//! This file holds the recursion; the bounds and closed forms are in [`bounds`], the cache in
//! [`memo`], the skipping of guesses that split a set like an earlier one in [`dedup`].
//!
//! The search starts from any position ([`search_set`]): the candidate set a history leaves, with
//! the game's symmetries narrowed to those that fix every guess played. It checks its [`Stop`]
//! inside the recursion (the clock every 64 sets, a shared flag at every set), so a caller's
//! deadline or cancel ends it within a few milliseconds; a stopped search returns
//! [`SearchError::Stopped`] and its cache, which may hold unproven results, dies with it.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::OnceLock;

use rayon::prelude::*;
use smallvec::{smallvec, SmallVec};

mod bounds;
mod bulk;
mod checkpoint;
mod classes;
mod dedup;
mod memo;
mod spare;

pub use self::checkpoint::{Checkpoint, CheckpointError};

use self::bounds::{ClosedForm, LevelBounds};
use self::bulk::{mark_below, marked, Splitter, MAX_SET};
use self::classes::Classes;
use self::dedup::SplitDedup;
use self::memo::{Entry, Memo, MEMO_BUDGET};
use super::{DecisionTree, Node, NodeId, TreeStats};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::pool::GuessPool;
use crate::space::{CodeSpace, CompactTable};
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// What an optimal tree minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
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

/// Why the search could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The space has no score table, which the search relies on.
    #[error("an exact search needs the score table, and the table of these rules' {size} codes takes {} MB, more than allowed (by default tables up to {limit} codes): allow it more memory (`--table-memory` in the CLI), or use a shorter code or fewer symbols", (*size as u64).pow(2) / 1_000_000)]
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
    /// `moves[0]` is the position's candidate set and the optimal guess (a code index); then
    /// every set the plan reaches, depth first, with its guess, so a caller can cache them and
    /// answer later turns without searching.
    pub moves: Vec<(CodeSet, u32)>,
}

/// Live counters of a running search, readable from another thread (for progress display).
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    memo: AtomicU64,
    bound: AtomicU64,
    solved: AtomicU64,
    depth: AtomicU64,
    borrowed: AtomicU64,
}

impl Progress {
    /// A new set of counters.
    pub fn new() -> Progress {
        Progress {
            bound: AtomicU64::new(u64::MAX),
            ..Progress::default()
        }
    }

    /// Candidate sets searched so far (cache hits and closed forms included).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Candidate sets in the cache.
    pub fn cached(&self) -> u64 {
        self.memo.load(Ordering::Relaxed)
    }

    /// The best total proven so far for the whole game, if one is known yet.
    pub fn bound(&self) -> Option<u64> {
        Some(self.bound.load(Ordering::Relaxed)).filter(|&b| b != u64::MAX)
    }

    /// The depth limit being tried, for the objectives that try one depth after another
    /// (worst case, fewest at worst); `None` before the first or for the average.
    pub fn depth(&self) -> Option<u32> {
        Some(self.depth.load(Ordering::Relaxed) as u32).filter(|&d| d != 0)
    }

    /// Candidate sets answered from the cache by the result of another set equal to them up to
    /// relabelling symbols and permuting positions (see [`SearchOptions::classes`]).
    pub fn borrowed(&self) -> u64 {
        self.borrowed.load(Ordering::Relaxed)
    }

    /// How many of the first guess's parts have been solved exactly.
    pub fn parts_solved(&self) -> u64 {
        self.solved.load(Ordering::Relaxed)
    }
}

/// No depth limit.
const UNLIMITED: u8 = u8::MAX;
/// No total limit.
const INF: u32 = u32::MAX;
/// How many of a node's candidates are put in order at a time (see [`Search::search_node`]).
const SORT_CHUNK: usize = 32;
/// Sets at least this large try their guesses in parallel.
const PARALLEL_MIN: usize = 150;
/// Sets at least this large read the clock whenever they are searched or probed.
pub(super) const CLOCK_SET: usize = 64;

/// An exact result for a set: its optimal total, the worst case of the tree found, and its first
/// guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Solved {
    total: u32,
    worst: u8,
    /// [`NO_GUESS`] when the result was borrowed from an equivalent set ([`classes`]): its total
    /// is this set's, and a tree within `worst` exists (the other set's, relabelled), but the
    /// first guess this set's own search would choose is not known until it is searched
    /// ([`Search::own_guess`]).
    guess: u32,
}

/// The first guess of a borrowed result (see [`Solved::guess`]).
const NO_GUESS: u32 = u32::MAX;

/// Buffers of one entry per feedback hold this many on the stack: enough for codes of up to
/// four symbols (at most 14 feedbacks); longer codes' buffers (5 symbols: 20 feedbacks) go to
/// the heap, as all of them did before.
const FEEDBACKS: usize = 16;

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
/// needs both to assemble the same tree ([`super::split`]).
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

/// For the worst-case objectives, the optimal plan of a part of a split search ([`super::split`])
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
    let plain = LevelBounds::new(Search::branches_of(space), whole, None);
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

/// A solved position, written out: every node of the optimal tree in depth-first order, with the
/// set it is reached with.
struct Plan {
    total: u64,
    worst: u32,
    histogram: Vec<u64>,
    nodes: Vec<PlanNode>,
}

impl Plan {
    /// The plan as the public [`SetPlan`].
    fn into_set_plan(self) -> SetPlan {
        SetPlan {
            total: self.total,
            worst: self.worst,
            histogram: self.histogram,
            moves: self
                .nodes
                .into_iter()
                .map(|n| (CodeSet::from_sorted(n.set), n.guess))
                .collect(),
        }
    }
}

/// One node of a [`Plan`]: the tree node, and the candidate set and guess index behind it.
struct PlanNode {
    node: Node,
    set: Vec<u32>,
    guess: u32,
}

/// The search both entry points share: the optimal plan for `root` (sorted code indexes) under
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
    let new_search = |last_level: Option<(u8, u32)>| {
        let mut search =
            Search::for_options(space, options, progress, stop, root.len(), last_level);
        let tag = last_level.map_or(0, |(depth, _)| depth);
        if let Some(checkpoint) = checkpoint {
            checkpoint.load_into(tag, &search.memo, space.len());
            search.checkpoint = Some((checkpoint, tag));
        }
        search
    };
    let solve = |search: &Search, limit: u32, depth: u8| search.solve_root(root, sym, limit, depth);
    // The average's first optimum, before its worst case was reduced, when that changed it.
    let mut unreduced = None;
    let (search, sol, depth, weight) = match options.objective {
        Objective::Average => {
            let search = new_search(None);
            let Some(mut best) = solve(&search, INF, cap)? else {
                return Ok(Err(options.max_depth.unwrap_or(0)));
            };
            if progress.borrowed() > 0 {
                // Borrowed parts report the worst case of their class's first tree, which can
                // be deeper than this tree's own: the reduction below starts from the tree.
                best.worst = build_plan(&search, root, sym, cap, best, None)?.worst as u8;
            }
            let first = best;
            // Among trees with this total, the smallest worst case: ask for the same total
            // within one guess less until that is proven impossible.
            let mut depth = cap;
            while best.worst > search.levels(root.len()) {
                match solve(&search, best.total + 1, best.worst - 1)? {
                    Some(s) => {
                        depth = best.worst - 1;
                        best = s;
                    }
                    None => break,
                }
            }
            if keep_unreduced && depth != cap {
                unreduced = Some(first);
            }
            (search, best, depth, None)
        }
        Objective::Worst => {
            // The first depth that admits a tree, proving each smaller one impossible.
            let search = new_search(None);
            let mut depth = search.levels(root.len());
            loop {
                if depth > cap {
                    return Ok(Err(u32::from(cap)));
                }
                progress.depth.store(u64::from(depth), Ordering::Relaxed);
                if let Some(s) = solve(&search, INF, depth)? {
                    break (search, s, depth, None);
                }
                depth += 1;
            }
        }
        Objective::FewestWorst => {
            // Depth by depth as for the worst case, each with its own weighted search: a cost
            // `weight * (secrets at that depth) + total` with `weight` above any total, so the
            // count decides first and the total breaks ties.
            let plain = LevelBounds::new(Search::branches_of(space), root.len(), None);
            let mut depth = plain.levels(root.len());
            loop {
                if depth > cap {
                    return Ok(Err(u32::from(cap)));
                }
                progress.depth.store(u64::from(depth), Ordering::Relaxed);
                let weight = weighted_cost_scale(space.len(), root.len(), depth)?;
                let search = new_search(Some((depth, weight)));
                if let Some(s) = solve(&search, INF, depth)? {
                    break (search, s, depth, Some(weight));
                }
                depth += 1;
            }
        }
    };
    let plan = build_plan(&search, root, sym, depth, sol, weight)?;
    progress.bound.store(plan.total, Ordering::Relaxed);
    let unreduced = match unreduced {
        Some(first) => Some(build_plan(&search, root, sym, cap, first, None)?),
        None => None,
    };
    Ok(Ok((plan, unreduced)))
}

/// Writes out the tree of `sol`, a solution of `root` within `depth` guesses, as a plan.
fn build_plan(
    search: &Search,
    root: &[u32],
    sym: &Symmetry,
    depth: u8,
    sol: Solved,
    weight: Option<u32>,
) -> Result<Plan, SearchError> {
    let mut nodes = Vec::new();
    let built = search.build(root, sym, depth, sol, 1, &mut nodes);
    if search.halted() || built.is_none() {
        return Err(SearchError::Stopped);
    }
    let mut histogram: Vec<u64> = Vec::new();
    for (n, level) in &nodes {
        if n.set.binary_search(&n.guess).is_ok() {
            let level = *level as usize;
            if histogram.len() < level {
                histogram.resize(level, 0);
            }
            histogram[level - 1] += 1;
        }
    }
    let total: u64 = histogram
        .iter()
        .enumerate()
        .map(|(k, &c)| (k as u64 + 1) * c)
        .sum();
    let at_depth = histogram.get(usize::from(depth) - 1).copied().unwrap_or(0);
    let cost = total + weight.map_or(0, |w| u64::from(w) * at_depth);
    if cost != u64::from(sol.total) {
        // Only facts read from a file can make a plan cost other than the search proved.
        match search.checkpoint {
            Some((c, _)) => {
                let error = c.false_fact(u64::from(sol.total), Some(cost));
                return Err(SearchError::Checkpoint(error.to_string()));
            }
            None => debug_assert_eq!(cost, u64::from(sol.total)),
        }
    }
    Ok(Plan {
        total,
        worst: histogram.len() as u32,
        histogram,
        nodes: nodes.into_iter().map(|(n, _)| n).collect(),
    })
}

/// The weight of a secret at the worst depth for [`Objective::FewestWorst`]: one more than any
/// total a set of `root` codes can reach within `depth` guesses, so the count at the worst
/// depth decides before the total. Every cost of the search must fit 32 bits (with room for the
/// sums of bounds), else the search is refused.
fn weighted_cost_scale(codes: usize, root: usize, depth: u8) -> Result<u32, SearchError> {
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

/// A candidate guess at a node, with its proven lower bound.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    guess: u32,
    bound: u32,
    member: bool,
}

impl Candidate {
    /// The order guesses are tried in: cheapest bound first, members before other codes at
    /// equal bounds, then by index (so the order is total and the tree does not depend on the
    /// sort).
    fn order(&self) -> (u32, bool, u32) {
        (self.bound, !self.member, self.guess)
    }

    /// [`Candidate::order`] packed in one integer, which compares faster: code indexes fit 31
    /// bits (a score table has at most [`crate::space::TABLE_LIMIT_CODES`] codes).
    fn key(&self) -> u64 {
        debug_assert!(self.guess < 1 << 31);
        (u64::from(self.bound) << 32) | (u64::from(!self.member) << 31) | u64::from(self.guess)
    }

    fn from_key(key: u64) -> Candidate {
        Candidate {
            guess: key as u32 & !(1 << 31),
            bound: (key >> 32) as u32,
            member: key & (1 << 31) == 0,
        }
    }
}

/// One search in progress: the game's tables, the cache, and how to stop.
struct Search<'a> {
    space: &'a CodeSpace,
    pool: GuessPool,
    n_codes: usize,
    /// Feedback numbers `0..slots`, of which `win` is the win: the compact table's numbering
    /// when there is one, else the feedback indexes.
    slots: usize,
    win: usize,
    alphabet: usize,
    /// The level-filling bounds.
    bounds: LevelBounds,
    /// The bulk split of sets small enough for it (none for degenerate games).
    splitter: Option<Splitter>,
    /// The score table renumbered to the feedbacks that occur, when it fits: the search reads
    /// it instead of the space's, so that the bulk passes can gather feedbacks by lookups
    /// into 16-entry tables.
    compact: Option<&'a CompactTable>,
    memo: Memo,
    /// The game's relabellings and a cache of results by class of sets equal up to them
    /// ([`classes`]), for the games whose codes they can name.
    classes: Option<(Classes, Memo)>,
    /// Sets are named for the cache of classes once this many have been searched.
    classes_after: u64,
    progress: &'a Progress,
    /// When to give up.
    stop: &'a Stop,
    /// Set once `stop` has fired: every search still running returns at once, and nothing more
    /// is cached.
    halted: AtomicBool,
    /// The size of the set the search started from (its parts count as progress).
    root_len: usize,
    /// Which guesses are canonical ([`Symmetry::is_canonical`]) once the only symmetries left
    /// rename unplayed symbols, one bit per code, by the symbols played; made when first asked
    /// for. Empty for alphabets over [`ORBIT_ALPHABET`].
    orbits: Vec<OnceLock<Box<[u64]>>>,
    /// Where to append what is proven about large sets, and this search's tag there.
    checkpoint: Option<(&'a Checkpoint, u8)>,
}

impl<'a> Search<'a> {
    fn new(
        space: &'a CodeSpace,
        pool: GuessPool,
        progress: &'a Progress,
        stop: &'a Stop,
        root_len: usize,
        last_level: Option<(u8, u32)>,
        cache_bytes: u64,
    ) -> Search<'a> {
        let n = space.len();
        let (seen, win) = Search::feedbacks_of(space);
        let branches = Search::count_branches(&seen, win);
        let bounds = LevelBounds::new(branches, n, last_level);
        let compact = space.compact_table();
        let (feedbacks, bulk_win) = match compact {
            Some(c) => {
                let rank = c.feedbacks().iter().position(|&f| usize::from(f) == win);
                let all = (0..c.feedbacks().len() as u8).collect();
                (
                    all,
                    rank.expect("every code scores a win against itself") as u8,
                )
            }
            None => {
                let all = (0..seen.len())
                    .filter(|&f| seen[f] || f == win)
                    .map(|f| f as u8)
                    .collect();
                (all, win as u8)
            }
        };
        // The splitter learns its thresholds from the unweighted bound; a weighted search only
        // uses its parts count, which needs no bound.
        let plain = LevelBounds::new(branches, MAX_SET.min(n), None);
        let splitter = Splitter::new(
            feedbacks,
            bulk_win,
            bounds.plain_totals().unwrap_or(plain.table(0).totals()),
        );
        Search {
            space,
            pool,
            n_codes: n,
            slots: compact.map_or(space.rules().feedback_slots(), |c| c.feedbacks().len()),
            win: usize::from(bulk_win),
            alphabet: space.rules().alphabet().len(),
            bounds,
            splitter,
            compact,
            memo: Memo::new(n, cache_bytes),
            classes: None,
            classes_after: CLASSES_AFTER,
            progress,
            stop,
            halted: AtomicBool::new(false),
            root_len,
            checkpoint: None,
            orbits: if space.rules().alphabet().len() <= ORBIT_ALPHABET {
                (0..1usize << space.rules().alphabet().len())
                    .map(|_| OnceLock::new())
                    .collect()
            } else {
                Vec::new()
            },
        }
    }

    /// Which guesses `sym` leaves to be tried: one per orbit.
    fn orbits<'s>(&'s self, sym: &'s Symmetry) -> Orbits<'s> {
        if sym.is_identity(self.alphabet) {
            return Orbits::All;
        }
        let Some(played) = sym.played_when_trivial() else {
            return Orbits::Check(sym);
        };
        let Some(cell) = self.orbits.get(played as usize) else {
            return Orbits::Check(sym);
        };
        Orbits::Marked(cell.get_or_init(|| {
            let mut marks = vec![0u64; self.n_codes.div_ceil(64)];
            for g in 0..self.n_codes {
                if sym.is_canonical(self.space.code(g).symbols()) {
                    marks[g / 64] |= 1 << (g % 64);
                }
            }
            marks.into_boxed_slice()
        }))
    }

    /// Which feedback indexes occur in `space`, and the winning one's index.
    fn feedbacks_of(space: &CodeSpace) -> (Vec<bool>, usize) {
        let length = space.length();
        let mut seen = vec![false; space.rules().feedback_slots()];
        for g in 0..space.len() {
            if let Some(row) = space.score_row(g) {
                for &f in row {
                    seen[usize::from(f)] = true;
                }
            }
        }
        (seen, Feedback::win(length).index(length))
    }

    /// The non-winning feedbacks that occur in `space` (at least one): the most parts besides
    /// the winning one a guess can make, the `r` of level filling.
    fn branches_of(space: &CodeSpace) -> usize {
        let (seen, win) = Search::feedbacks_of(space);
        Search::count_branches(&seen, win)
    }

    /// The non-winning feedbacks among `seen` (at least one).
    fn count_branches(seen: &[bool], win: usize) -> usize {
        seen.iter()
            .enumerate()
            .filter(|&(i, &s)| s && i != win)
            .count()
            .max(1)
    }

    /// Whether the search has been stopped (one load).
    fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }

    /// Counts one more set searched, of `n` codes, and says whether the search must stop. The
    /// clock is read every 64 sets, which keeps its cost out of the profile, and at every set of
    /// [`CLOCK_SET`] codes or more, whose bulk passes cost far more than a clock read (one set of
    /// a 1024-code game takes milliseconds), so the search stops within a few milliseconds of
    /// the deadline on any game.
    fn tick(&self, n: usize) -> bool {
        let seen = self.progress.nodes.fetch_add(1, Ordering::Relaxed);
        self.must_stop(seen.is_multiple_of(64) || n >= CLOCK_SET)
    }

    /// Whether the search must stop, reading the clock only if `read_clock`.
    pub(super) fn must_stop(&self, read_clock: bool) -> bool {
        if self.halted() {
            return true;
        }
        if (read_clock && self.stop.is_stopped()) || self.stop.is_cancelled() {
            self.halted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    fn levels(&self, n: usize) -> u8 {
        self.bounds.levels(n)
    }

    /// Makes sets equal up to the game's symmetries share results, if the game's codes can be
    /// named up to them ([`Classes::new`]), in a cache of their own that takes a quarter of
    /// `cache_bytes`: each of its entries answers a whole class, but only sets of
    /// [`classes::CLASS_MIN`] members or more are named, once `after` sets have been searched.
    fn share_classes(&mut self, cache_bytes: u64, after: u64) {
        if let Some(classes) = Classes::new(self.space) {
            self.classes_after = after;
            self.memo = Memo::new(self.n_codes, cache_bytes - cache_bytes / 4);
            self.classes = Some((classes, Memo::new(self.n_codes, cache_bytes / 4)));
        }
    }

    /// A search under `options` from a root of `root_len` codes.
    fn for_options(
        space: &'a CodeSpace,
        options: &SearchOptions,
        progress: &'a Progress,
        stop: &'a Stop,
        root_len: usize,
        last_level: Option<(u8, u32)>,
    ) -> Search<'a> {
        let mut search = Search::new(
            space,
            options.guesses,
            progress,
            stop,
            root_len,
            last_level,
            options.cache_budget(),
        );
        if options.classes {
            search.share_classes(options.cache_budget(), options.classes_after);
        }
        search
    }

    /// [`Search::solve`] of a root, checked for a stop before it is believed: a stopped search
    /// returns `None` or a tree that is not proven optimal.
    fn solve_root(
        &self,
        root: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
    ) -> Result<Option<Solved>, SearchError> {
        let sol = self
            .solve(root, sym, limit, depth)
            .and_then(|sol| self.own_guess(root, sym, depth, sol));
        if self.halted() {
            Err(SearchError::Stopped)
        } else {
            Ok(sol)
        }
    }

    /// What the cache knows about `set` within `depth` guesses. A result without the depth limit
    /// still helps: its bound holds under any limit, and its tree is optimal under the limit too
    /// when it already fits.
    fn lookup(&self, set: &[u32], depth: u8) -> Option<Entry> {
        let own = self.memo.get(set, depth);
        if depth == UNLIMITED || own.is_some_and(|e| e.exact.is_some()) {
            return own;
        }
        let free = self.memo.get(set, UNLIMITED);
        match (own, free) {
            (own, Some(free)) => {
                let exact = free.exact.filter(|s| s.worst <= depth);
                let bound = free.bound.max(own.map_or(0, |e| e.bound));
                Some(Entry {
                    bound: exact.map_or(bound, |s| s.total),
                    exact,
                })
            }
            (own, None) => own,
        }
    }

    /// Guess `g`'s row of the score table, in the search's numbering of feedbacks (the compact
    /// table's when there is one: see [`Search::feedback_index`]).
    fn row(&self, g: u32) -> &[u8] {
        match self.compact {
            Some(c) => c.row(g as usize),
            None => self
                .space
                .score_row(g as usize)
                .expect("the search runs only with a score table"),
        }
    }

    /// The feedback index of feedback `f` in the search's numbering.
    fn feedback_index(&self, f: u8) -> usize {
        usize::from(self.compact.map_or(f, |c| c.feedbacks()[usize::from(f)]))
    }

    /// The cheapest tree for `set` with every secret solved within `depth` guesses, if its total
    /// is below `limit`; `None` proves there is none.
    fn solve(&self, set: &[u32], sym: &Symmetry, limit: u32, depth: u8) -> Option<Solved> {
        self.solve_within(set, sym, limit, depth).ok()
    }

    /// [`Search::solve`], and when it fails, a proven lower bound on the set's total (`limit` or
    /// more; [`INF`] when no tree fits `depth`). A failure usually proves more than the limit
    /// asked, and the cache keeps what it proves: a set met again under a larger budget is then
    /// often refused without a second search.
    fn solve_within(
        &self,
        set: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
    ) -> Result<Solved, u32> {
        if self.tick(set.len()) {
            return Err(limit);
        }
        let n = set.len();
        if depth == 0 || self.levels(n) > depth {
            return Err(INF);
        }
        let floor = self.bounds.total(n, depth);
        if floor >= limit {
            return Err(floor);
        }
        match n {
            1 => {
                return Ok(Solved {
                    total: self.bounds.total(1, depth),
                    worst: 1,
                    guess: set[0],
                })
            }
            2 => {
                return Ok(Solved {
                    total: self.bounds.total(2, depth),
                    worst: 2,
                    guess: set[0],
                })
            }
            _ => {}
        }
        let below = |sol: Solved| {
            if sol.total < limit {
                Ok(sol)
            } else {
                Err(sol.total)
            }
        };
        let mut bound = floor;
        match self.closed_form(set, depth) {
            ClosedForm::Exact(sol) => return below(sol),
            ClosedForm::AtLeast(b) if b >= limit => return Err(b),
            ClosedForm::AtLeast(b) => bound = bound.max(b),
            ClosedForm::Unknown => {}
        }
        if let Some(entry) = self.lookup(set, depth) {
            if let Some(sol) = entry.exact {
                return below(sol);
            }
            if entry.bound >= limit {
                return Err(entry.bound);
            }
            bound = bound.max(entry.bound);
        }
        let class = self.class_of(set);
        if let (Some(key), Some((_, classes))) = (&class, &self.classes) {
            if let Some(entry) = classes.get(key, depth) {
                let answered = entry.exact.is_some() || entry.bound >= limit;
                if answered {
                    self.progress.borrowed.fetch_add(1, Ordering::Relaxed);
                }
                if let Some(sol) = entry.exact {
                    let sol = Solved {
                        guess: NO_GUESS,
                        ..sol
                    };
                    // Kept under the set itself too, where the parts' bounds are looked up.
                    self.memo.put(
                        set,
                        depth,
                        Entry {
                            bound: sol.total,
                            exact: Some(sol),
                        },
                    );
                    return below(sol);
                }
                if entry.bound >= limit {
                    self.memo.put(set, depth, entry);
                    return Err(entry.bound);
                }
                bound = bound.max(entry.bound);
            }
        }
        let result = self.search_node(set, sym, limit, depth, bound);
        if self.halted() {
            // Neither a tree nor a failure found after the stop is proven.
            return Err(limit);
        }
        let entry = match result {
            Ok(sol) => Entry {
                bound: sol.total,
                exact: Some(sol),
            },
            Err(at_least) => Entry {
                bound: at_least.max(limit),
                exact: None,
            },
        };
        if self.memo.put(set, depth, entry) {
            self.progress.memo.fetch_add(1, Ordering::Relaxed);
        }
        if let (Some(key), Some((_, classes))) = (&class, &self.classes) {
            classes.put(key, depth, entry);
        }
        if let Some((checkpoint, tag)) = self.checkpoint {
            checkpoint.record(tag, set, depth, entry);
        }
        result.map_err(|_| entry.bound)
    }

    /// The guesses worth trying at a node, each with its lower bound, in no particular order
    /// ([`Candidate::order`] gives the order they are tried in), and the least bound of those
    /// left out ([`INF`] if none): guesses that cannot beat `limit` or fit `depth`.
    fn candidates(
        &self,
        set: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
    ) -> (Vec<Candidate>, u32) {
        let n = set.len();
        let child_depth = child_limit(depth);
        let orbits = self.orbits(sym);
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.slots];
        let mut out = Vec::new();
        let mut left_out = INF;
        let mut consider = |g: u32, out: &mut Vec<Candidate>, left_out: &mut u32| {
            if !orbits.tries(self.space, g as usize) {
                return;
            }
            let Some(split) = self.split_bound(g, set, &mut counts, limit, child_depth) else {
                // Counting stopped at the limit, so the limit is all it proved.
                *left_out = (*left_out).min(limit);
                return;
            };
            let Some((bound, member)) = self.bound_of_split(n, split, child_depth) else {
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
        let outside = self.bounds.outside(n, depth);
        if self.pool == GuessPool::Consistent || outside >= limit {
            if self.pool == GuessPool::All {
                left_out = outside;
            }
            set.iter()
                .for_each(|&g| consider(g, &mut out, &mut left_out));
        } else if let Some(least) = self.with_bulk_bounds(set, child_depth, |bounds, splits| {
            spare::with(&spare::MARKS, |below| {
                let least = mark_below(bounds, limit, below);
                if let Orbits::Marked(canonical) = orbits {
                    for (b, c) in below.iter_mut().zip(canonical) {
                        *b &= c;
                    }
                }
                out.reserve(below.iter().map(|w| w.count_ones() as usize).sum());
                for g in marked(below) {
                    // Marked orbits are already masked out of `below`.
                    if let Orbits::Check(_) = orbits {
                        if !orbits.tries(self.space, g) {
                            continue;
                        }
                    }
                    out.push(Candidate {
                        guess: g as u32,
                        bound: bounds[g],
                        member: splits.member(g),
                    });
                }
                least
            })
        }) {
            left_out = left_out.min(least);
        } else {
            // The sets too large for the bulk pass take longest here: look at the clock now and
            // then, and return nothing once stopped (the caller then gives up too).
            for g in 0..self.n_codes as u32 {
                if g % 256 == 255 && self.stop.is_stopped() {
                    self.halted.store(true, Ordering::Relaxed);
                    return (Vec::new(), limit);
                }
                consider(g, &mut out, &mut left_out);
            }
        }
        (out, left_out)
    }

    fn search_node(
        &self,
        set: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
        bound: u32,
    ) -> Result<Solved, u32> {
        let (mut cands, left_out) = self.candidates(set, sym, limit, depth);
        // The least bound over every guess not (yet) proven to cost more: what a failure proves.
        let mut least = left_out;
        let Some(first_bound) = cands.iter().map(|c| c.bound).min() else {
            return Err(least.max(bound));
        };
        if first_bound.max(bound) >= limit {
            return Err(least.min(first_bound).max(bound));
        }
        let n = set.len();
        if n >= PARALLEL_MIN && cands.len() > 1 {
            let mut dedup = SplitDedup::new(set, self.slots, self.win);
            cands.sort_unstable_by_key(Candidate::order);
            let cands: Vec<Candidate> = cands
                .into_iter()
                .filter(|c| dedup.is_new_split(self.row(c.guess)))
                .collect();
            let mut rest = &cands[..];
            // With no limit yet, the first guess's parts are independent: solve them in parallel
            // to get a bound for the others.
            let best = AtomicU64::new(pack(limit, 0));
            let mut sols: Vec<Result<Solved, u32>> = vec![Err(INF); cands.len()];
            if limit == INF {
                sols[0] = self.try_guess(set, sym, cands[0], INF, depth, true);
                if let Ok(sol) = sols[0] {
                    best.store(pack(sol.total, 0), Ordering::Relaxed);
                }
                rest = &cands[1..];
            }
            let offset = cands.len() - rest.len();
            let try_one = |k: usize, c: Candidate| {
                let i = (k + offset) as u32;
                let (total, index) = unpack(best.load(Ordering::Relaxed));
                // A guess beats the best if cheaper, or as cheap and earlier in the order.
                let limit_here = total.saturating_add(u32::from(i < index));
                if c.bound >= limit_here {
                    return Err(c.bound);
                }
                let sol = self.try_guess(set, sym, c, limit_here, depth, false)?;
                best.fetch_min(pack(sol.total, i), Ordering::Relaxed);
                Ok(sol)
            };
            // Each worker takes the next guess in the order, so the guesses under way at any
            // time are the next few a sequential search would try, and each starts with every
            // total found before it. Split into ranges instead (`par_iter`), a thread started
            // halfway down the order, under limits the guesses before would have tightened.
            // No leading zero on two threads: 4.97 million sets searched that way and 4.68
            // million this way (as many as on one thread); 31.3 and 31.5 s against 29.6 and
            // 30.2 s, in alternating runs.
            let next = AtomicUsize::new(0);
            let workers = rayon::current_num_threads().min(rest.len());
            let results: Vec<(usize, Result<Solved, u32>)> = (0..workers)
                .into_par_iter()
                .flat_map_iter(|_| {
                    let mut mine = Vec::new();
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&c) = rest.get(k) else { break };
                        mine.push((k, try_one(k, c)));
                    }
                    mine
                })
                .collect();
            for (k, result) in results {
                sols[offset + k] = result;
            }
            let (total, index) = unpack(best.load(Ordering::Relaxed));
            if total >= limit {
                // Nothing beat the limit, so every guess failed against it.
                let failed = sols.iter().filter_map(|s| s.err()).min().unwrap_or(INF);
                return Err(least.min(failed).max(bound));
            }
            return sols[index as usize];
        }
        let mut best: Option<Solved> = None;
        let mut limit = limit;
        // A node tries a few dozen of its hundreds of candidates before the bound stops it, so
        // they are sorted a chunk at a time, as the loop reaches them: `keys[..sorted]` are the
        // smallest, in order. The keys are distinct, so the order is the full sort's.
        let mut keys: Vec<u64> = cands.iter().map(Candidate::key).collect();
        let mut sorted = 0;
        for i in 0..keys.len() {
            if i == sorted {
                let end = (sorted + SORT_CHUNK).min(keys.len());
                if end < keys.len() {
                    keys[sorted..].select_nth_unstable(end - sorted - 1);
                }
                keys[sorted..end].sort_unstable();
                sorted = end;
            }
            let c = Candidate::from_key(keys[i]);
            if c.bound >= limit {
                least = least.min(c.bound);
                break;
            }
            let parallel = limit == INF && best.is_none();
            match self.try_guess(set, sym, c, limit, depth, parallel) {
                Ok(sol) => {
                    limit = sol.total;
                    best = Some(sol);
                }
                Err(at_least) => least = least.min(at_least),
            }
        }
        best.ok_or(least.max(bound))
    }

    /// The cost of guessing `c.guess` at this node, if below `limit`; if not, a proven lower
    /// bound on it (`limit` or more).
    fn try_guess(
        &self,
        set: &[u32],
        sym: &Symmetry,
        c: Candidate,
        limit: u32,
        depth: u8,
        parallel: bool,
    ) -> Result<Solved, u32> {
        let parts = self.parts(set, c.guess);
        let parts: SmallVec<[&[u32]; FEEDBACKS]> = parts.iter().collect();
        let child_sym = sym.after(self.space.code(c.guess as usize).symbols());
        let child_depth = child_limit(depth);
        let mut worst = 1u8;
        let mut total = c.bound;
        if parallel && limit == INF {
            let sols: Vec<Result<Solved, u32>> = parts
                .par_iter()
                .map(|p| {
                    let s = self.solve_within(p, &child_sym, INF, child_depth);
                    if set.len() == self.root_len {
                        self.progress.solved.fetch_add(1, Ordering::Relaxed);
                    }
                    s
                })
                .collect();
            for (p, s) in parts.iter().zip(sols) {
                let s = s.map_err(|_| INF)?;
                total += s.total - self.bounds.total(p.len(), child_depth);
                worst = worst.max(s.worst + 1);
            }
        } else {
            // Sharpen each part's bound with what is already proven, so a guess whose later
            // parts are known to be expensive fails before any part is searched. First the
            // closed forms of the parts small enough for one, which need no trip to memory;
            // then what the cache knows of the others (and of the small parts whose closed form
            // is only a bound), largest first. `from_cache` marks the parts whose bound needs no
            // lookahead: those settled either way, and parts of one or two codes, whose level
            // bound is exact.
            //
            // The closed forms are taken here, before any lookahead, and not only when a part
            // is searched: a guess is then rejected before the lookaheads of its larger parts,
            // and the parts they settle are not looked up (those of 3 to 5 codes alone were 27%
            // of all lookups, and every one of 3 codes missed). No leading zero: 24.4 and
            // 25.5 s against 31.6 and 32.0 s; Bulls and Cows on one thread, 6.2 and 6.3 s
            // against 7.4 and 7.6 s. Taken before the lookups, so a guess their bounds reject
            // is not looked up at all: no leading zero 22.8 to 23.5 s against 23.8 to 25.1 s,
            // in alternating runs.
            //
            // Lookups stop as soon as the guess fails: most miss the CPU's caches, and the
            // failure bound proven with fewer of them measured no worse (no leading zero,
            // together with the marks of `bulk::mark_equal`: 34.1 to 34.4 s against 35.2 to
            // 35.4 s without either, in alternating runs).
            let mut from_cache: SmallVec<[bool; FEEDBACKS]> = smallvec![false; parts.len()];
            let mut bounds: SmallVec<[u32; FEEDBACKS]> = parts
                .iter()
                .map(|p| self.bounds.total(p.len(), child_depth))
                .collect();
            // The parts to look up, smallest first.
            let mut to_look_up: SmallVec<[usize; FEEDBACKS]> = SmallVec::new();
            for (i, p) in parts.iter().enumerate().rev() {
                let lb = bounds[i];
                let b = if p.len() < 3 {
                    lb
                } else {
                    match self.closed_form(p, child_depth) {
                        ClosedForm::Exact(sol) => sol.total,
                        ClosedForm::AtLeast(b) => {
                            to_look_up.push(i);
                            b.max(lb)
                        }
                        ClosedForm::Unknown => {
                            to_look_up.push(i);
                            continue;
                        }
                    }
                };
                from_cache[i] = true;
                bounds[i] = b;
                total = total.saturating_add(b - lb);
                if total >= limit {
                    return Err(total);
                }
            }
            for &i in to_look_up.iter().rev() {
                if let Some(e) = self.lookup(parts[i], child_depth) {
                    let b = bounds[i].max(e.bound);
                    from_cache[i] = true;
                    total = total.saturating_add(b - bounds[i]);
                    bounds[i] = b;
                    if total >= limit {
                        return Err(total);
                    }
                }
            }
            // Then with each part's own one-guess lookahead, which costs one scan per part but
            // rejects most losing guesses before any part is searched in depth.
            if parts.len() > 1 {
                for ((p, b), &known) in parts.iter().zip(bounds.iter_mut()).zip(&from_cache) {
                    if known {
                        continue;
                    }
                    let cap = limit - (total - *b);
                    let sharper = self.lookahead_bound(p, &child_sym, child_depth, *b, cap);
                    if sharper > *b {
                        total = total.saturating_add(sharper - *b);
                        *b = sharper;
                        if total >= limit {
                            return Err(total);
                        }
                    }
                }
            }
            for (p, &b) in parts.iter().zip(&bounds) {
                let budget = limit - (total - b);
                let s = self
                    .solve_within(p, &child_sym, budget, child_depth)
                    .map_err(|at_least| total.saturating_add(at_least - b))?;
                total += s.total - b;
                worst = worst.max(s.worst + 1);
            }
        }
        if total < limit {
            Ok(Solved {
                total,
                worst,
                guess: c.guess,
            })
        } else {
            Err(total)
        }
    }

    /// The non-winning parts of `set` under guess `g`, largest first (ties in feedback order),
    /// each sorted: one counting pass and one buffer for all of them (and one for the feedbacks),
    /// since this runs for every guess tried and a vector per part was a tenth of the search's
    /// time in the allocator.
    fn parts(&self, set: &[u32], g: u32) -> Parts {
        // The feedbacks first, then the counts: the table reads of a small set are scattered,
        // and with no counter update between them many can be under way at once (Bulls and
        // Cows on one thread: 34.9 against 38.2 s, medians of 3).
        let row = self.row(g);
        let scores: SmallVec<[u8; 256]> = set.iter().map(|&s| row[s as usize]).collect();
        let mut counts: SmallVec<[u32; FEEDBACKS]> = smallvec![0; self.slots];
        for &f in &scores {
            counts[usize::from(f)] += 1;
        }
        counts[self.win] = 0;
        let mut order: SmallVec<[u8; FEEDBACKS]> = (0..self.slots as u8)
            .filter(|&f| counts[usize::from(f)] > 0)
            .collect();
        // Stable, so equal sizes stay in feedback order, as the trees depend on it.
        order.sort_by_key(|&f| std::cmp::Reverse(counts[usize::from(f)]));
        let mut ends = SmallVec::new();
        let mut at = 0;
        for &f in &order {
            let len = counts[usize::from(f)];
            // `counts` now holds where the part's next member goes.
            counts[usize::from(f)] = at;
            at += len;
            ends.push(at as usize);
        }
        let mut members: SmallVec<[u32; 64]> = smallvec![0; at as usize];
        for (&s, &f) in set.iter().zip(&scores) {
            let f = usize::from(f);
            if f != self.win {
                members[counts[f] as usize] = s;
                counts[f] += 1;
            }
        }
        Parts { members, ends }
    }

    /// The name of `set`'s class for the cache of classes, if the game has one and the set is
    /// worth naming ([`Classes::worth`]).
    fn class_of(&self, set: &[u32]) -> Option<Vec<u32>> {
        let (classes, _) = self.classes.as_ref()?;
        if !Classes::worth(set.len()) {
            return None;
        }
        if self.progress.nodes() < self.classes_after {
            return None;
        }
        // Each member's feedback counts over the set: a relabelling keeps them, so only the
        // members with the least counts need to be tried as anchors.
        let mut counts = vec![0u16; self.slots];
        let spread: Vec<u64> = set
            .iter()
            .map(|&a| {
                let row = self.row(a);
                counts.fill(0);
                for &s in set {
                    counts[usize::from(row[s as usize])] += 1;
                }
                counts
                    .iter()
                    .fold(0, |h, &c| memo::hash_combine(h, u64::from(c)))
            })
            .collect();
        let mut key = Vec::with_capacity(set.len());
        classes.key(self.space, set, &spread, &mut key);
        (!key.is_empty()).then_some(key)
    }

    /// `sol` with this set's own first guess. A result borrowed from an equivalent set
    /// ([`NO_GUESS`]) is searched again under its known total: the search then keeps the first
    /// guess in its order that reaches that total, the one a search of this set alone would
    /// have kept, so the trees written do not depend on which set of a class came first.
    /// `None` only if the search was stopped meanwhile.
    fn own_guess(&self, set: &[u32], sym: &Symmetry, depth: u8, sol: Solved) -> Option<Solved> {
        if sol.guess != NO_GUESS {
            return Some(sol);
        }
        let own = self
            .search_node(set, sym, sol.total + 1, depth, sol.total)
            .ok()?;
        debug_assert_eq!(own.total, sol.total);
        self.memo.put(
            set,
            depth,
            Entry {
                bound: own.total,
                exact: Some(own),
            },
        );
        Some(own)
    }

    /// Writes out the tree of an exact result, depth first, each node with its set and level
    /// (1 for `set`), looking the children up in the cache (or re-solving them when they were
    /// closed forms). `None` if the search was stopped meanwhile.
    fn build(
        &self,
        set: &[u32],
        sym: &Symmetry,
        depth: u8,
        sol: Solved,
        level: u32,
        nodes: &mut Vec<(PlanNode, u32)>,
    ) -> Option<NodeId> {
        let id = NodeId(nodes.len() as u32);
        nodes.push((
            PlanNode {
                node: Node {
                    guess: self.space.code(sol.guess as usize),
                    children: Vec::new(),
                },
                set: set.to_vec(),
                guess: sol.guess,
            },
            level,
        ));
        let length = self.space.length();
        let row = self.row(sol.guess);
        let mut parts: Vec<(u8, Vec<u32>)> = Vec::new();
        for &s in set {
            let f = row[s as usize];
            if usize::from(f) == self.win {
                continue;
            }
            match parts.iter_mut().find(|(g, _)| *g == f) {
                Some((_, p)) => p.push(s),
                None => parts.push((f, vec![s])),
            }
        }
        parts.sort_by_key(|(f, _)| *f);
        let child_sym = sym.after(self.space.code(sol.guess as usize).symbols());
        let child_depth = child_limit(depth);
        let mut children = Vec::new();
        for (f, part) in parts {
            let child = self
                .solve(&part, &child_sym, INF, child_depth)
                .and_then(|c| self.own_guess(&part, &child_sym, child_depth, c));
            let Some(child) = child else {
                assert!(self.halted(), "a part of an optimal tree has a tree");
                return None;
            };
            let child_id = self.build(&part, &child_sym, child_depth, child, level + 1, nodes)?;
            children.push((
                Feedback::from_index(self.feedback_index(f), length),
                child_id,
            ));
        }
        nodes[id.index()].0.node.children = children;
        Some(id)
    }
}

/// The parts of a set under one guess, one after another in `members`; part `i` ends at
/// `ends[i]`.
struct Parts {
    members: SmallVec<[u32; 64]>,
    ends: SmallVec<[usize; FEEDBACKS]>,
}

impl Parts {
    fn iter(&self) -> impl Iterator<Item = &[u32]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let part = &self.members[start..end];
            start = end;
            part
        })
    }
}

/// The depth limit left for the parts after one more guess.
fn child_limit(depth: u8) -> u8 {
    if depth == UNLIMITED {
        UNLIMITED
    } else {
        depth - 1
    }
}

/// The largest alphabet whose canonical guesses are kept by the symbols played (a bit set of
/// the codes for each of `2^alphabet` sets of symbols, made only for those met).
const ORBIT_ALPHABET: usize = 12;

/// Which guesses a node's symmetries leave to be tried ([`Search::orbits`]).
enum Orbits<'s> {
    /// Every guess: no symmetry is left.
    All,
    /// The guesses marked, one bit per code: only unplayed symbols can be renamed, and the
    /// canonical guesses for the symbols played are known.
    Marked(&'s [u64]),
    /// Those that [`Symmetry::is_canonical`] accepts.
    Check(&'s Symmetry),
}

impl Orbits<'_> {
    /// Whether guess `g` of `space` is tried.
    #[inline]
    fn tries(&self, space: &CodeSpace, g: usize) -> bool {
        match self {
            Orbits::All => true,
            Orbits::Marked(marks) => marks[g / 64] & (1 << (g % 64)) != 0,
            Orbits::Check(sym) => sym.is_canonical(space.code(g).symbols()),
        }
    }
}

fn pack(total: u32, index: u32) -> u64 {
    (u64::from(total) << 32) | u64::from(index)
}

fn unpack(x: u64) -> (u32, u32) {
    ((x >> 32) as u32, x as u32)
}

/// The depth limit of a search as the recursion counts it, or why the search cannot run at all.
fn depth_cap(space: &CodeSpace, options: &SearchOptions) -> Result<u8, SearchError> {
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

/// The first guesses a search of the whole space under `options` tries, in the order it tries
/// them: one per symmetry class, cheapest lower bound first, without the guesses that cannot
/// fit the depth limit. [`super::split`] makes its jobs from these and breaks ties between equal
/// first guesses by this order, as the search does.
pub(crate) fn first_guesses(
    space: &CodeSpace,
    options: &SearchOptions,
) -> Result<Vec<u32>, SearchError> {
    let cap = depth_cap(space, options)?;
    Ok(root_order(space, options, cap, None))
}

/// The first guesses the search of the whole space under a worst-case objective tries when it
/// gets to depth limit `depth`, in the order it tries them (its bounds depend on the depth, and
/// for the fewest at worst on the depth's weight). [`super::split`] breaks ties between equal
/// first guesses by this order, as the search does.
pub(crate) fn first_guesses_at(
    space: &CodeSpace,
    options: &SearchOptions,
    depth: u32,
) -> Result<Vec<u32>, SearchError> {
    let cap = depth_cap(space, options)?;
    let depth = u8::try_from(depth).unwrap_or(cap).min(cap);
    let last_level = match options.objective {
        Objective::FewestWorst => {
            Some((depth, weighted_cost_scale(space.len(), space.len(), depth)?))
        }
        _ => None,
    };
    Ok(root_order(space, options, depth, last_level))
}

/// The root's guesses in the order the search tries them within `depth`.
fn root_order(
    space: &CodeSpace,
    options: &SearchOptions,
    depth: u8,
    last_level: Option<(u8, u32)>,
) -> Vec<u32> {
    let root: Vec<u32> = (0..space.len() as u32).collect();
    let sym = Symmetry::new(space.rules());
    let progress = Progress::new();
    let stop = Stop::never();
    // Only the bounds are needed, not the cache: the smallest one will do.
    let search = Search::new(
        space,
        options.guesses,
        &progress,
        &stop,
        root.len(),
        last_level,
        0,
    );
    let (mut cands, _) = search.candidates(&root, &sym, INF, depth);
    cands.sort_unstable_by_key(Candidate::order);
    cands.into_iter().map(|c| c.guess).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// Every set two guesses can leave in `space`, from a few first guesses, with the symmetry
    /// the search would have there.
    fn sets(space: &CodeSpace) -> Vec<(Vec<u32>, Symmetry)> {
        let all: Vec<u32> = (0..space.len() as u32).collect();
        let split = |set: &[u32], g: u32| {
            let mut parts: Vec<Vec<u32>> = vec![Vec::new(); space.rules().feedback_slots()];
            for &s in set {
                parts[usize::from(space.score_index(g as usize, s as usize))].push(s);
            }
            parts.into_iter().filter(|p| p.len() > 2)
        };
        let mut out = Vec::new();
        let root = Symmetry::new(space.rules());
        for g in [0, space.len() as u32 / 2] {
            let sym = root.after(space.code(g as usize).symbols());
            for part in split(&all, g) {
                for h in [1, space.len() as u32 / 3] {
                    let sym2 = sym.after(space.code(h as usize).symbols());
                    out.extend(split(&part, h).map(|p| (p, sym2.clone())));
                }
                out.push((part, sym.clone()));
            }
        }
        out
    }

    /// A failed search's bound is proven: never above the optimum, never below the limit asked.
    #[test]
    fn failures_bound_the_optimum() {
        for rules in [
            Rules::new(3, "012345", false, false).unwrap(),
            Rules::new(3, "1234", true, false).unwrap(),
        ] {
            let space = CodeSpace::new(rules).unwrap();
            let (progress, stop) = (Progress::new(), Stop::never());
            let fresh = || Search::new(&space, GuessPool::All, &progress, &stop, 1, None, 1 << 24);
            let sets = sets(&space);
            assert!(sets.len() > 20);
            for (set, sym) in &sets {
                for depth in [UNLIMITED, 3] {
                    let Ok(opt) = fresh().solve_within(set, sym, INF, depth) else {
                        assert_eq!(fresh().solve_within(set, sym, 1000, depth), Err(INF));
                        continue;
                    };
                    // One search reused across limits, as the recursion reuses its cache.
                    let shared = fresh();
                    for limit in (set.len() as u32..opt.total + 3).rev() {
                        for search in [&fresh(), &shared] {
                            match search.solve_within(set, sym, limit, depth) {
                                Ok(sol) => {
                                    assert!(limit > opt.total);
                                    assert_eq!(sol, opt);
                                }
                                Err(lb) => {
                                    assert!(limit <= opt.total, "{set:?} failed under {limit}");
                                    assert!(lb >= limit && lb <= opt.total, "{lb} for {opt:?}");
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// The guesses a node tries are the canonical ones, whether its symmetries are checked code by
    /// code or read from the bits kept by the symbols played, and those bits are shared only by
    /// histories that play the same symbols.
    #[test]
    fn orbits_try_the_canonical_guesses() {
        for rules in [
            Rules::new(4, "0123456789", false, true).unwrap(),
            Rules::new(4, "123456", true, false).unwrap(),
            Rules::new(3, "012345", false, false).unwrap(),
        ] {
            let space = CodeSpace::new(rules).unwrap();
            let (progress, stop) = (Progress::new(), Stop::never());
            let search = Search::new(&space, GuessPool::All, &progress, &stop, 1, None, 1 << 24);
            let n = space.len();
            let mut histories: Vec<[usize; 2]> = [0, n / 2, n - 1]
                .into_iter()
                .flat_map(|g| [1, n / 3, n / 5, n - 2].map(|h| [g, h]))
                .collect();
            // Two guesses with repeats that no permutation of positions fixes together, where
            // the game has them.
            let index = |symbols: &[u8]| {
                space.index_of(&crate::code::Code::from_symbols(&symbols[..space.length()]))
            };
            if let (Some(g), Some(h)) = (index(&[0, 0, 1, 2]), index(&[0, 1, 0, 3])) {
                histories.push([g, h]);
            }
            let root = Symmetry::new(space.rules());
            let mut marked = 0;
            for [g, h] in histories {
                let first = root.after(space.code(g).symbols());
                let second = first.after(space.code(h).symbols());
                for sym in [&root, &first, &second] {
                    let orbits = search.orbits(sym);
                    marked += usize::from(matches!(orbits, Orbits::Marked(_)));
                    for c in 0..n {
                        assert_eq!(
                            orbits.tries(&space, c),
                            sym.is_canonical(space.code(c).symbols()),
                            "{:?} after {:?} and {:?}",
                            space.code(c),
                            space.code(g),
                            space.code(h)
                        );
                    }
                }
            }
            assert!(
                marked > 0,
                "no history left only unplayed symbols to rename"
            );
        }
    }

    /// The bulk pass's test of the largest part, `c <= largest_within(d)`, is the level bound's
    /// `levels(c) <= d`, for every part size it sees and every depth left.
    #[test]
    fn largest_within_matches_the_level_test() {
        for (branches, n) in [(13usize, 5040usize), (2, 300), (1, 20)] {
            let bounds = LevelBounds::new(branches, n, None);
            for depth in (0..=12).chain([UNLIMITED - 1, UNLIMITED]) {
                let largest = usize::from(bounds.largest_within(depth));
                for c in 0..=MAX_SET.min(n) {
                    assert_eq!(
                        c <= largest,
                        bounds.levels(c) <= depth,
                        "{branches} branches, part of {c}, {depth} left"
                    );
                }
            }
        }
    }
}
