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
//! * Small sets close in O(n^2) ([`lower_bounds`]).
//! * Equivalent guesses are tried once: by the exact symmetries of the history
//!   ([`Symmetry`]), and at the large sets searched in parallel that two symbols miss entirely
//!   also by identical partitions of `S` (same parts, same winning part). Elsewhere a guess
//!   splitting `S` like an earlier one is tried again: the cache answers its parts for less
//!   than labelling every partition costs.
//! * The one-guess bounds of every guess on a set come from one bulk pass ([`bulk`]),
//!   which counts feedbacks for 64 guesses at a time with vector instructions. For the bound of
//!   a part, a cheaper pass that only notes which feedbacks occur rules most guesses out by
//!   their number of parts, and only the rest are counted ([`Bounds::min_bound_by_parts`](lower_bounds::Bounds::min_bound_by_parts)).
//! * Results are cached by candidate set (exact costs, and proven lower bounds from failed
//!   searches), since a set's cost does not depend on how it was reached; a one-bit filter in
//!   front of the cache answers most misses without a trip to memory.
//! * A failed search proves more than its limit: the least bound over every guess, each taken
//!   from how far it got ([`Solver::solve_within`](recursion::Solver::solve_within)). That is what the cache keeps, so a set met
//!   again under a larger budget is often refused without a second search.
//! * Large sets try their guesses in parallel (rayon), each thread taking the next guess in the
//!   order, sharing the best total through an atomic so every thread prunes with it; ties go to
//!   the earliest guess in the order, as sequentially.
//!
//! This file holds the public API. The objective drivers are in [`drivers`], the recursion in
//! [`recursion`], the rules that raise a tried guess's bound before its parts are searched in
//! [`prune`], what it has proven and how it stops in [`state`], the guesses worth trying in
//! [`candidates`], the bounds and closed forms in [`lower_bounds`] (level filling in [`levels`],
//! symmetries in [`orbits`], the partition kernels in [`bulk`]), the cache in [`memo`] and
//! [`classes`], the skipping of guesses that split a set like an earlier one in [`dedup`], the
//! plan written out in [`proven_plan`], the root's order for a split search in [`root`],
//! what a split run deeper asks of the search in [`for_jobs`], and the search a refutation asks
//! one position after another, its cache kept between them, in [`oracle`].
//!
//! [`Search`] is the one way in, and [`SearchOutcome`] the one way out, for every caller: the
//! CLI, the advisor (and through it the review), the bounds and the split jobs. It starts from
//! the whole game or from any position ([`Search::after`]): the candidate set a history leaves,
//! with the game's symmetries narrowed to those that fix every guess played; a split job's part
//! is a position too, searched as the whole game's search searches it, or only below a bound
//! (`Search::part`, `below`, `guesses`). It checks its [`Stop`] inside the recursion (the clock
//! every 64 sets, a shared flag at every set), so a caller's deadline or cancel ends it within a
//! few milliseconds; its cache, which may then hold unproven results, dies with it. A stopped
//! search that reports bounds ([`Search::proving`], or one asked to beat a bound) ends
//! [`SearchOutcome::Stopped`] with what it proved; one asked only for the optimum has nothing to
//! show and returns [`SearchError::Stopped`], and its outcome's type leaves the bound cases out.

#[doc(hidden)]
pub mod bench;
mod bulk;
mod candidates;
mod checkpoint;
mod classes;
mod columns;
mod dedup;
mod drivers;
mod for_jobs;
mod levels;
mod lower_bounds;
mod memo;
mod oracle;
mod orbits;
mod pairs;
mod parts;
mod progress;
mod proven_plan;
mod prune;
mod ranked;
mod recursion;
mod root;
mod rows;
mod solved;
mod spare;
mod state;
#[cfg(test)]
mod tests;

pub use self::checkpoint::{Checkpoint, CheckpointError, ProvenSets, MAX_CHECKPOINT_LINE};
pub(crate) use self::for_jobs::PositionRoot;
pub(crate) use self::oracle::Oracle;
pub use self::progress::Progress;

use self::drivers::{history_symmetry, part_columns, search_from, Root, Unreduced};
use self::for_jobs::JobAt;
use self::proven_plan::Plan;
use super::{DecisionTree, TreeStats};
use crate::code::Code;
use crate::codeset::CodeSet;
use crate::history::History;
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;
use std::convert::Infallible;
use std::marker::PhantomData;

/// What an optimal tree minimises. Serialized by its [`name`](Objective::name).
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

    /// The objective's name, as the command line takes it and files record it: `average`,
    /// `worst` or `fewest-worst`.
    ///
    /// ```
    /// use moo_core::tree::Objective;
    /// for objective in Objective::ALL {
    ///     let json = serde_json::to_string(&objective).unwrap();
    ///     assert_eq!(json, format!("\"{}\"", objective.name()));
    /// }
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Objective::Average => "average",
            Objective::Worst => "worst",
            Objective::FewestWorst => "fewest-worst",
        }
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
    /// The root's guess, when the tree must open with it: the optimal tree among those that
    /// do (`None`: any guess). Only the root is restricted; every later guess is the search's
    /// own, so forced to the optimal tree's opening the search writes the optimal tree.
    pub first_guess: Option<Code>,
}

/// How many candidate sets a search goes through before sets equal up to relabelling start to
/// share results ([`SearchOptions::classes_after`]). Naming a set costs more than searching a
/// small one, and a search this short meets few sets again up to relabelling, while the long
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
            first_guess: None,
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

    /// The cache size these options give.
    fn cache_budget(&self) -> u64 {
        self.cache_bytes.unwrap_or(DEFAULT_CACHE_BYTES)
    }
}

with_setters!(SearchOptions {
    /// Only trees that solve every secret within `max_depth` guesses (`None`: no limit).
    with_max_depth: max_depth: Option<u32>;
    /// Which codes may be guessed.
    with_guesses: guesses: GuessPool;
    /// The most memory the search's cache may take, in bytes (`None`: the default).
    with_cache_bytes: cache_bytes: Option<u64>;
    /// Whether sets equal up to the game's symmetries share cache entries (see
    /// [`SearchOptions::classes`]).
    with_classes: classes: bool;
    /// How many candidate sets a search goes through before it starts naming them (see
    /// [`SearchOptions::classes_after`]).
    with_classes_after: classes_after: u64;
    /// Only trees that open with `first_guess` (`None`: any opening; see
    /// [`SearchOptions::first_guess`]).
    with_first_guess: first_guess: Option<Code>;
});

/// The search cache's size when the options name none: 640 MiB, counted as allocated, which
/// keeps Mastermind 5x6 under 1 GB in all with the score tables. The games up to Mastermind 4x9
/// need less; larger ones forget their smallest sets when it is full, which costs time, never
/// exactness (measured in the book's `docs/src/performance.md`).
pub const DEFAULT_CACHE_BYTES: u64 = 640 << 20;

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
    /// The forced first guess ([`SearchOptions::first_guess`]) is no code of the game.
    #[error("the first guess cannot be played: {reason}")]
    FirstGuess {
        /// What is wrong with it, naming it.
        reason: String,
    },
    /// A run of guesses given to a split job's search names a guess the search does not try at
    /// its position (one splitting it as an earlier guess does, or one a symmetry makes the
    /// same).
    #[error("guess {guess} is not one the search tries at this position")]
    NotTried {
        /// The guess, as a code index.
        guess: u32,
    },
    /// The position has no candidate left, so there is nothing to search.
    #[error("no code is consistent with the history: check the answers given")]
    NoCandidates,
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

/// How every search ends, from every root: what it found, or what it proved instead. `T`
/// depends on the root: an [`OptimalTree`] for the whole game, a [`SetPlan`] from a position.
///
/// `B` is the type of the proven lower bounds a search reports when it ends without the optimum.
/// A search that is asked only for the optimum reports none (`B` is [`Infallible`]), so its
/// [`AtLeast`](SearchOutcome::AtLeast) and [`Stopped`](SearchOutcome::Stopped) cannot occur and a
/// `match` leaves them out; a stop then is [`SearchError::Stopped`], since it has nothing to
/// show. A search told to report its bounds ([`Search::proving`]), or to beat a bound, has `B =
/// u64`: the bound is on the total over the root's candidates, the winning guesses counted.
#[derive(Debug, Clone)]
pub enum SearchOutcome<T, B = Infallible> {
    /// The optimum (below the bound, for a search asked to beat one).
    Found(T),
    /// Proven: no tree beats the bound the search was asked to beat; every tree of the root
    /// costs at least `bound` in total, which is that bound or more.
    AtLeast {
        /// The proven lower bound.
        bound: B,
    },
    /// Proven: no strategy solves every candidate within `max_depth` guesses (counted from the
    /// root).
    Impossible {
        /// The depth that is not enough.
        max_depth: u32,
    },
    /// Stopped by its [`Stop`] before it finished; `bound` is a lower bound on the root's total
    /// proven so far.
    Stopped {
        /// The proven lower bound.
        bound: B,
    },
}

impl<T, B> SearchOutcome<T, B> {
    /// The outcome with what was found turned into something else by `f`.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> SearchOutcome<U, B> {
        match self {
            SearchOutcome::Found(found) => SearchOutcome::Found(f(found)),
            SearchOutcome::AtLeast { bound } => SearchOutcome::AtLeast { bound },
            SearchOutcome::Impossible { max_depth } => SearchOutcome::Impossible { max_depth },
            SearchOutcome::Stopped { bound } => SearchOutcome::Stopped { bound },
        }
    }

    /// What was found, or `None` if the search ended otherwise.
    pub fn found(self) -> Option<T> {
        match self {
            SearchOutcome::Found(found) => Some(found),
            _ => None,
        }
    }
}

impl<T> SearchOutcome<T> {
    /// The outcome as one that may report bounds, for a caller that handles both kinds alike.
    pub fn with_bounds(self) -> SearchOutcome<T, u64> {
        match self {
            SearchOutcome::Found(found) => SearchOutcome::Found(found),
            SearchOutcome::Impossible { max_depth } => SearchOutcome::Impossible { max_depth },
        }
    }
}

/// An optimal tree of the whole game, verified by replaying every secret.
#[derive(Debug, Clone)]
pub struct OptimalTree {
    /// The tree.
    pub tree: DecisionTree,
    /// Its replayed statistics.
    pub stats: TreeStats,
}

/// The root of a search of the whole game: every code, under all the game's symmetries
/// ([`Search::whole`]).
#[derive(Debug, Clone, Copy)]
pub struct WholeGame;

/// The root of a search from the position a history leaves: its candidates, under the game's
/// symmetries that fix every guess played ([`Search::after`]).
#[derive(Debug, Clone, Copy)]
pub struct Subgame<'a> {
    history: &'a History,
    candidates: &'a CodeSet,
}

/// The root of a search of one part of a split search ([`super::jobs`]): a position, searched
/// the way the whole game's search searches it, or, given a bound to beat, for its first
/// optimum below it as the whole game's search keeps it for a set below its root.
#[derive(Clone, Copy)]
pub(crate) struct JobPart<'a> {
    at: Subgame<'a>,
    below: Option<u64>,
    run: Option<GuessRun<'a>>,
}

/// A run of a position's guesses, one job of a split ([`Search::guesses`]).
#[derive(Clone, Copy)]
pub(crate) struct GuessRun<'a> {
    /// The guesses (code indexes), in the position's search order.
    guesses: &'a [u32],
    /// Read before each guess, bounding it too: another run of the same position that found a
    /// tree lowers it while this one runs.
    ceiling: &'a (dyn Fn() -> u64 + Sync),
}

impl std::fmt::Debug for JobPart<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JobPart")
            .field("at", &self.at)
            .field("below", &self.below)
            .field("guesses", &self.run.map(|r| r.guesses))
            .finish()
    }
}

/// What the search of a job's part found.
pub(crate) enum PartPlans {
    /// Under the average: the optimal plan, and the plan before its worst-case tie-break when
    /// that changed it (see [`Search::part`]).
    Plan {
        plan: SetPlan,
        unreduced: Option<SetPlan>,
    },
    /// Under the worst-case objectives: the optimal plan under every depth limit the whole
    /// game's search may give the part, shallowest first.
    Columns(Vec<(u32, SetPlan)>),
}

/// What the search of a job's part below a bound found ([`Search::below`]): the first optimum,
/// and the least bound it was searched under (lower than asked when a run's ceiling lowered it).
pub(crate) struct PlanBelow {
    pub(crate) plan: SetPlan,
    pub(crate) bound: u64,
}

/// The exact search, the one way in: a root, then what to search for, how to report progress,
/// when to stop and (for the whole game) where to keep a checkpoint, then [`Search::run`].
/// Every setting but the root has a default: the average objective with no depth limit, no
/// progress to watch, never stopped, no checkpoint. Runs on the current rayon pool.
///
/// ```
/// use std::time::Duration;
///
/// use moo_core::tree::{Objective, Search, SearchOptions, SearchOutcome};
/// use moo_core::{CodeSpace, Feedback, History, Rules, Stop};
///
/// let space = CodeSpace::new(Rules::new(3, "012345", false, false)?)?;
/// // The whole game, for the fewest guesses that always suffice.
/// let options = SearchOptions::new(Objective::Worst);
/// let SearchOutcome::Found(optimal) = Search::whole(&space).options(&options).run()? else {
///     unreachable!("no depth limit");
/// };
/// assert_eq!(optimal.stats.max, 5);
/// // From a position, within 3 more guesses, stopped after a minute at most and then saying
/// // what it proved.
/// let mut history = History::new();
/// history.push(space.rules().parse_code("012")?, Feedback::new(0, 1));
/// let candidates = history.candidates(&space);
/// let options = SearchOptions::default().with_max_depth(Some(3));
/// let stop = Stop::after(Duration::from_secs(60));
/// let search = Search::after(&space, &history, &candidates)
///     .options(&options)
///     .stop(&stop)
///     .proving();
/// match search.run()? {
///     SearchOutcome::Found(plan) => println!("{} guesses in all from here", plan.total),
///     SearchOutcome::Impossible { max_depth } => println!("not within {max_depth} guesses"),
///     SearchOutcome::Stopped { bound } => println!("stopped: {bound} guesses in all at least"),
///     SearchOutcome::AtLeast { .. } => unreachable!("no bound to beat was given"),
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[must_use = "a search does nothing until it is run"]
pub struct Search<'a, R, B = Infallible> {
    space: &'a CodeSpace,
    root: R,
    options: Option<&'a SearchOptions>,
    progress: Option<&'a Progress>,
    stop: Option<&'a Stop>,
    checkpoint: Option<&'a Checkpoint>,
    /// The type of the bounds its outcome reports ([`SearchOutcome`]).
    bounds: PhantomData<B>,
}

impl<'a, R> Search<'a, R> {
    fn with_root(space: &'a CodeSpace, root: R) -> Search<'a, R> {
        Search {
            space,
            root,
            options: None,
            progress: None,
            stop: None,
            checkpoint: None,
            bounds: PhantomData,
        }
    }
}

impl<'a, R, B> Search<'a, R, B> {
    /// The same search, its outcome reporting bounds of type `C` ([`SearchOutcome`]).
    fn retyped<C>(self) -> Search<'a, R, C> {
        Search {
            space: self.space,
            root: self.root,
            options: self.options,
            progress: self.progress,
            stop: self.stop,
            checkpoint: self.checkpoint,
            bounds: PhantomData,
        }
    }

    /// What to search for (default: [`SearchOptions::default`]). A depth limit counts from the
    /// root.
    pub fn options(mut self, options: &'a SearchOptions) -> Search<'a, R, B> {
        self.options = Some(options);
        self
    }

    /// Counters the search updates as it goes, for a display on another thread.
    pub fn progress(mut self, progress: &'a Progress) -> Search<'a, R, B> {
        self.progress = Some(progress);
        self
    }

    /// Stops the search soon after `stop` fires (within milliseconds), with
    /// [`SearchOutcome::Stopped`] when it reports bounds, else [`SearchError::Stopped`].
    pub fn stop(mut self, stop: &'a Stop) -> Search<'a, R, B> {
        self.stop = Some(stop);
        self
    }

    /// Runs `f` with the settings, filling in the defaults of those not given.
    fn with_settings<T>(&self, f: impl FnOnce(&SearchOptions, &Progress, &Stop) -> T) -> T {
        let (default_options, default_progress, never) =
            (SearchOptions::default(), Progress::new(), Stop::never());
        f(
            self.options.unwrap_or(&default_options),
            self.progress.unwrap_or(&default_progress),
            self.stop.unwrap_or(&never),
        )
    }
}

impl<'a> Search<'a, WholeGame> {
    /// A search of the whole game of `space`.
    pub fn whole(space: &'a CodeSpace) -> Search<'a, WholeGame> {
        Search::with_root(space, WholeGame)
    }

    /// Writes what the search proves about large sets to `checkpoint` as it goes, after
    /// loading what the file already holds, so a run that was interrupted resumes where it
    /// stopped and finishes with the same tree. What was written before a stop stays valid for
    /// the next run.
    pub fn checkpoint(mut self, checkpoint: &'a Checkpoint) -> Search<'a, WholeGame> {
        self.checkpoint = Some(checkpoint);
        self
    }

    /// Finds an optimal tree, or proves none exists within the depth limit.
    pub fn run(self) -> Result<SearchOutcome<OptimalTree>, SearchError> {
        self.with_settings(|options, progress, stop| {
            let space = self.space;
            let root: Vec<u32> = (0..space.len() as u32).collect();
            let sym = Symmetry::new(space.rules());
            let at = Root {
                space,
                set: &root,
                sym: &sym,
                options,
                progress,
                stop,
                checkpoint: self.checkpoint,
            };
            match search_from(at, Unreduced::Drop)? {
                SearchOutcome::Found((plan, _)) => self.written_out(plan).map(SearchOutcome::Found),
                SearchOutcome::Impossible { max_depth } => {
                    Ok(SearchOutcome::Impossible { max_depth })
                }
            }
        })
    }

    /// The plan of the whole game written out as a tree, verified by replaying it.
    fn written_out(&self, plan: Plan) -> Result<OptimalTree, SearchError> {
        let space = self.space;
        let total = plan.total;
        let nodes = plan.nodes.into_iter().map(|n| n.node).collect();
        let tree = DecisionTree::from_nodes(space.rules().clone(), nodes);
        let stats = match (tree.verify_in(space), self.checkpoint) {
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
        Ok(OptimalTree { tree, stats })
    }

    /// The first guesses this search tries, in the order it tries them: one per symmetry
    /// class, cheapest lower bound first, without the guesses that cannot fit the depth limit.
    /// With `depth`, those a worst-case objective tries when it gets to that depth limit (its
    /// bounds depend on the depth, and for the fewest at worst on the depth's weight).
    /// [`super::jobs`] makes its jobs from these and breaks ties between equal first guesses
    /// by this order, as the search does.
    pub(crate) fn first_guesses(&self, depth: Option<u32>) -> Result<Vec<u32>, SearchError> {
        self.with_settings(|options, _, _| match depth {
            None => root::first_guesses(self.space, options),
            Some(depth) => root::first_guesses_at(self.space, options, depth),
        })
    }
}

impl<'a> Search<'a, WholeGame, u64> {
    /// Finds an optimal tree, or proves none exists within the depth limit, or says what it
    /// proved before it was stopped.
    pub fn run(self) -> Result<SearchOutcome<OptimalTree, u64>, SearchError> {
        let space = self.space;
        let optimum = self.retyped::<Infallible>().run();
        reporting_stop(optimum, space, space.len())
    }
}

impl<'a, R> Search<'a, R> {
    /// The same search, reporting what it proved when it ends without the optimum: stopped, it
    /// returns [`SearchOutcome::Stopped`] with the lower bound on the total proven so far,
    /// instead of [`SearchError::Stopped`].
    pub fn proving(self) -> Search<'a, R, u64> {
        self.retyped()
    }
}

/// `outcome`, of a search asked only for the optimum, as one that reports bounds: a stop becomes
/// [`SearchOutcome::Stopped`] with the level-filling bound on the total of the root's `n`
/// candidates, which holds whatever the search reached.
fn reporting_stop<T>(
    outcome: Result<SearchOutcome<T>, SearchError>,
    space: &CodeSpace,
    n: usize,
) -> Result<SearchOutcome<T, u64>, SearchError> {
    match outcome {
        Ok(outcome) => Ok(outcome.with_bounds()),
        Err(SearchError::Stopped) => Ok(SearchOutcome::Stopped {
            bound: least_total(space, n),
        }),
        Err(e) => Err(e),
    }
}

/// The level-filling lower bound on the total of any set of `n` codes of `space`.
fn least_total(space: &CodeSpace, n: usize) -> u64 {
    let levels = levels::LevelBounds::new(levels::branches_of(space), n, None);
    u64::from(levels.total(n, 0))
}

impl<'a> Search<'a, Subgame<'a>> {
    /// A search from the position `history` leaves in `space`, whose candidates are
    /// `candidates`. Equivalent guesses are pruned with the symmetries of the game that fix
    /// every guess of the history; a depth limit counts from this position.
    pub fn after(
        space: &'a CodeSpace,
        history: &'a History,
        candidates: &'a CodeSet,
    ) -> Search<'a, Subgame<'a>> {
        debug_assert!(
            *candidates == history.candidates(space),
            "the candidates are the set the history leaves"
        );
        Search::with_root(
            space,
            Subgame {
                history,
                candidates,
            },
        )
    }

    /// Finds an optimal plan from the position, or proves none exists within the depth limit;
    /// [`SearchError::NoCandidates`] if the history leaves no code.
    pub fn run(self) -> Result<SearchOutcome<SetPlan>, SearchError> {
        let plans = self.root.plans(self.space, &self, Unreduced::Drop)?;
        Ok(plans.map(|(plan, _)| plan))
    }
}

impl<'a> Search<'a, Subgame<'a>, u64> {
    /// Finds an optimal plan from the position, or proves none exists within the depth limit,
    /// or says what it proved before it was stopped; [`SearchError::NoCandidates`] if the
    /// history leaves no code.
    pub fn run(self) -> Result<SearchOutcome<SetPlan, u64>, SearchError> {
        let found = self.root.plans(self.space, &self, Unreduced::Drop);
        let n = self.root.candidates.len();
        reporting_stop(found.map(|p| p.map(|(plan, _)| plan)), self.space, n)
    }
}

impl<'a> Subgame<'a> {
    /// The optimal plan from this position under `search`'s settings, and with
    /// [`Unreduced::Keep`] for the average objective also the plan before its worst-case
    /// tie-break (`None` when the tie-break changed nothing).
    fn plans<R, B>(
        &self,
        space: &CodeSpace,
        search: &Search<'_, R, B>,
        unreduced: Unreduced,
    ) -> Result<SearchOutcome<(SetPlan, Option<SetPlan>)>, SearchError> {
        if self.candidates.is_empty() {
            return Err(SearchError::NoCandidates);
        }
        let sym = history_symmetry(space, self.history);
        search.with_settings(|options, progress, stop| {
            let at = Root {
                space,
                set: self.candidates.as_slice(),
                sym: &sym,
                options,
                progress,
                stop,
                checkpoint: None,
            };
            Ok(search_from(at, unreduced)?.map(|(plan, unreduced)| {
                (plan.into_set_plan(), unreduced.map(Plan::into_set_plan))
            }))
        })
    }
}

impl<'a> Search<'a, JobPart<'a>> {
    /// A search of one part of a split search: the position `history` leaves, as
    /// [`Search::after`] searches it, but finding what the whole game's search needs to
    /// assemble the same tree from its parts ([`PartPlans`]). A search of the whole game keeps
    /// its parts' plans from before the worst-case tie-break whenever its own worst case cannot
    /// be reduced, so under the average the part's plan comes with that one too; under the
    /// worst-case objectives the whole game's search may give the part any of several depth
    /// limits, so the part is searched under each ([`drivers::part_columns`]).
    pub(crate) fn part(
        space: &'a CodeSpace,
        history: &'a History,
        candidates: &'a CodeSet,
    ) -> Search<'a, JobPart<'a>> {
        let Search { root, .. } = Search::after(space, history, candidates);
        Search::with_root(
            space,
            JobPart {
                at: root,
                below: None,
                run: None,
            },
        )
    }

    /// Only the position's first optimum below `below` (`None`: any), as the search of the
    /// whole game keeps it for a set below its root (no worst-case tie-break there): found as
    /// [`PlanBelow`], else [`SearchOutcome::AtLeast`] with a proven bound of `below` or
    /// more. Only the average objective without a depth limit splits that deep.
    pub(crate) fn below(self, below: Option<u64>) -> Search<'a, JobPart<'a>, u64> {
        let mut search = self.retyped();
        search.root.below = below;
        search
    }

    /// Finds the part's plans, or proves none exists within the depth limit.
    pub(crate) fn run(self) -> Result<SearchOutcome<PartPlans>, SearchError> {
        let at = self.root.at;
        let average = self.with_settings(|options, _, _| options.objective == Objective::Average);
        if average {
            let plans = at.plans(self.space, &self, Unreduced::Keep)?;
            return Ok(plans.map(|(plan, unreduced)| PartPlans::Plan { plan, unreduced }));
        }
        self.with_settings(|options, progress, stop| {
            let columns = part_columns(
                self.space,
                at.history,
                at.candidates,
                options,
                progress,
                stop,
            )?;
            Ok(if columns.is_empty() {
                SearchOutcome::Impossible {
                    max_depth: options.max_depth.unwrap_or(0),
                }
            } else {
                SearchOutcome::Found(PartPlans::Columns(columns))
            })
        })
    }
}

impl<'a> Search<'a, JobPart<'a>, u64> {
    /// Only trees whose root plays one of `guesses` (code indexes, in the position's search
    /// order): the cheapest, the earliest of them among equals, each later guess tried only
    /// below the best so far, as the search of the position tries them. One search, so one
    /// cache, serves every guess: a run of guesses is one job of a split.
    /// [`SearchError::NotTried`] when a guess is not one the search tries there.
    ///
    /// `ceiling` is read before each guess and bounds it too: another run of the same position
    /// that found a tree lowers it while this one runs. The outcome is then below the least
    /// bound read, or a lower bound of it, since every guess was tried under that or more.
    pub(crate) fn guesses(
        mut self,
        guesses: &'a [u32],
        ceiling: &'a (dyn Fn() -> u64 + Sync),
    ) -> Search<'a, JobPart<'a>, u64> {
        self.root.run = Some(GuessRun { guesses, ceiling });
        self
    }

    /// Finds the first optimum below the bound, or proves there is none; stopped, says so with
    /// the root's level-filling bound.
    pub(crate) fn run(self) -> Result<SearchOutcome<PlanBelow, u64>, SearchError> {
        let JobPart { at, below, run } = self.root;
        self.with_settings(|options, progress, stop| {
            let job = JobAt {
                space: self.space,
                history: at.history,
                candidates: at.candidates,
                options,
                progress,
                stop,
            };
            let found = match run {
                None => job.first_optimum_below(below),
                Some(GuessRun { guesses, ceiling }) => {
                    job.best_guess_below(guesses, below.unwrap_or(u64::MAX), ceiling)
                }
            };
            match found {
                Err(SearchError::Stopped) => Ok(SearchOutcome::Stopped {
                    bound: least_total(self.space, at.candidates.len()),
                }),
                found => found,
            }
        })
    }
}
