//! One exact search split into independent jobs, for running on several machines, and the
//! results joined back into one tree.
//!
//! The search of a whole game is a choice of first guess and, under it, one independent
//! subproblem per feedback: the candidate set that feedback leaves, searched with the symmetries
//! that fix the first guess. Those subproblems share nothing but a cache, so each can be a job of
//! its own: [`Split::plan`] lists one per first guess the search would try (one per symmetry
//! class: 1 for Bulls and Cows, 5 for Mastermind) and feedback, a job file names only the rules,
//! options and history it starts from, and [`Job::solve`] proves its subproblem's optimum on
//! whatever machine runs it. [`Split::join`] then adds up each first guess's parts and makes the
//! root's choice itself, with the rules of the single search: the smallest total, then (for the
//! average) the smallest worst case, then the search's own order of first guesses. The joined
//! tree is replayed ([`DecisionTree::verify_in`]) before it is returned, so a wrong or tampered
//! result cannot give a tree that does not solve the game, and each total a result claims must
//! be what its tree does.
//!
//! **Deeper.** The first level is badly balanced (on Bulls and Cows two of 13 parts take 94% of
//! the time), so under the average objective without a depth limit a part whose estimated cost
//! exceeds its share ([`deeper`]) is split at its next guess into pieces, and a piece still too
//! large is split again the same way, in rounds that keep the single search's pruning. At a
//! position split so, the pieces of the first three guesses its search tries are solved first
//! (one job per large piece, small ones together), under the position's bound if it has one;
//! the best of them bounds the position, and the join then writes every other guess whose
//! lower bound is below that: at a part, as the guess's pieces, each with the bound the other
//! pieces' lower bounds leave it, so that a piece proving it cannot beat its bound rules its
//! guess out; below a part, as runs of many guesses each, searched as the position's search
//! tries them. The join settles each position on the cheapest guess (the earliest in the
//! search's order among equals) once its jobs are in, and writes the next round while some are
//! missing. A run may also be kept below the trees its position's other runs have found
//! ([`Job::solve_under`], [`Job::bound_from`]): it then refutes its guesses sooner, and the
//! join accepts the lower bound it proves only beside a run that found a tree below it.
//!
//! Every file of one split carries the split's fingerprint, a hash of what was split and of the
//! list of jobs, so a result of another split (other rules, options, or another version of the
//! job list) is refused by name instead of being joined. A later round's jobs follow from the
//! manifest and the results of the round before, so the join derives them again each time and
//! refuses a result that answers anything else.
//!
//! Under the worst-case objectives the root also decides the depth: the whole game's search
//! takes the least depth `D` that some first guess can meet, and gives each part of that guess
//! `D - 1` more guesses. A job cannot know `D` alone, so it proves its part's optimum for every
//! depth limit the root may give it ([`PartOutcome::Depths`]): from the part's own fewest
//! guesses up to the first depth where a deeper limit no longer does better. The join takes `D`
//! as one more than the largest fewest among some first guess's parts (the least over first
//! guesses), and each part's column at `D - 1`, or its last when `D - 1` is deeper. A part given
//! more depth than its last column is solved as well as it can be by that column. Under the
//! fewest at worst the joined tree is the single search's. Under the worst case it has the same
//! worst case and total, but trees of equal total are many there, and a single search breaks
//! their ties with what its cache carries from part to part, which a job cannot see: the joined
//! tree may be another of them. These objectives split at the first level only.

mod deeper;
mod estimate;
mod join;
mod plan;
mod read;
mod run_dir;
mod shared;
mod solve;
mod standing;
#[cfg(test)]
mod tests;
mod values;

use serde::{Deserialize, Serialize};

pub use self::estimate::{
    DrivenPart, Estimate, PartEstimate, SampledJob, DRIVE_STEP, RUN_STRIDE, SHARED_CACHE,
};
pub use self::plan::{SplitOptions, DEFAULT_SHARE};
pub use self::run_dir::{RunDir, RunFileError};
pub use self::solve::Ceiling;
use super::{DecisionTree, Objective, SearchError, TreeError, TreeStats};
use crate::pool::GuessPool;
use crate::rules::Rules;
use crate::space::{CodeSpace, SpaceError, SpaceOptions};

/// The code space a split, a job, a join or an estimate searches in: with the score table
/// however large, since an exact search cannot run without it (5 pegs of 8 colours take 1.1 GB),
/// where the default table stops at 11000 codes for the heuristics' sake.
pub fn exact_space(rules: Rules) -> Result<CodeSpace, SpaceError> {
    CodeSpace::with_options(rules, &SpaceOptions::default().with_table_bytes(u64::MAX))
}

/// The `format` of a split's manifest.
pub const SPLIT_FORMAT: &str = "moo-tree-split/4";
/// The `format` of a job file.
pub const JOB_FORMAT: &str = "moo-tree-job/4";
/// The `format` of a job's result file.
pub const RESULT_FORMAT: &str = "moo-tree-result/4";

/// Why a split, a job or a join cannot go on.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SplitError {
    /// The rules give no code space.
    #[error(transparent)]
    Space(#[from] SpaceError),
    /// The search cannot run on these rules or options.
    #[error(transparent)]
    Search(#[from] SearchError),
    /// A file is not what it should be.
    #[error("not a {kind} file of this version of moo: {reason}")]
    Malformed {
        /// Which kind of file was expected.
        kind: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A file belongs to another split.
    #[error("{what} belongs to another split (fingerprint {found}, this split is {wanted}): split again into an empty directory, or join the directory it came from")]
    OtherSplit {
        /// Which file, as the job it claims to be.
        what: String,
        /// Its fingerprint.
        found: String,
        /// The split's.
        wanted: String,
    },
    /// A result or job file does not match the job it claims to be.
    #[error("job {index}: {reason}")]
    Mismatch {
        /// The job's index.
        index: usize,
        /// What does not match.
        reason: String,
    },
    /// Some jobs have no result yet.
    #[error("{} of {jobs} jobs have no result yet (jobs {}): run `moo tree job` for them, then join again", missing.len(), ranges(missing))]
    Missing {
        /// The jobs without a result.
        missing: Vec<usize>,
        /// How many jobs the split has.
        jobs: usize,
    },
    /// The joined tree does not replay as the results claim.
    #[error("the joined tree is not valid ({0}): a result file is damaged or was not written by `moo tree job`")]
    Tree(TreeError),
    /// The results claim another worst case than their trees give.
    #[error("the results claim a worst case of {claimed} guesses ({claimed_at_worst} secrets) but their trees take {replayed} ({replayed_at_worst} secrets): a result file is damaged or was not written by `moo tree job`")]
    DisagreeWorst {
        /// The worst case the results claim.
        claimed: u32,
        /// How many secrets they claim need it.
        claimed_at_worst: u64,
        /// The worst case of the joined tree.
        replayed: u32,
        /// How many secrets need it in the joined tree.
        replayed_at_worst: u64,
    },
    /// The results claim another total than their trees give.
    #[error("the results claim {claimed} guesses in total but their trees take {replayed}: a result file is damaged or was not written by `moo tree job`")]
    Disagree {
        /// The sum the results claim.
        claimed: u64,
        /// What replaying the joined tree gives.
        replayed: u64,
    },
}

/// One job in a split's list: a first guess and a feedback (the part), and what to prove
/// about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobEntry {
    /// Its position in the list of every round, which names its files.
    pub index: usize,
    /// The first guess, as text.
    pub guess: String,
    /// The feedback to it, `1B2C`.
    pub feedback: String,
    /// How many secrets the position the job searches holds.
    pub size: usize,
    /// What the job proves about the part.
    pub task: Task,
}

/// What a job proves about its part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Task {
    /// The part's optimum.
    Part,
    /// Some pieces of a position below a part split deeper: the sets that the guess `guess`
    /// and each piece's feedback leave at the position `path` leads to, each piece's first
    /// optimum (no tie-break on the worst case below the root), one after another.
    Pieces {
        /// The guesses and feedbacks after the first that lead to the position (none: the
        /// part itself).
        path: Vec<Step>,
        /// The guess at the position whose pieces these are.
        guess: String,
        /// The pieces, largest first (a losing guess fails sooner), each with its proven lower
        /// bound.
        pieces: Vec<Piece>,
        /// `None`: every piece's optimum. `Some(s)`: the guess is worth trying only if its
        /// pieces' totals exceed their lower bounds by less than `s` in all, so each piece is
        /// solved only below its lower bound plus what is left of `s` after the pieces before
        /// it, and the first that cannot be ends the job with a proven lower bound instead.
        spare: Option<u64>,
    },
    /// A run of the guesses a position below a part split deeper tries after its first ones:
    /// the cheapest subtree of the position whose root plays one of them, if below `below`
    /// (the earliest among equals), as [`PartOutcome::Solved`]; else
    /// [`PartOutcome::AtLeast`]. Most such guesses are refuted at once, so one job holds many.
    Guesses {
        /// The guesses and feedbacks after the first that lead to the position.
        path: Vec<Step>,
        /// The guesses, in the position's search order.
        guesses: Vec<String>,
        /// The total to stay below: the best of the position's first guesses, or its own bound.
        below: u64,
    },
}

/// One guess and its feedback on the way from a part to a position below it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The guess, as text.
    pub guess: String,
    /// The feedback to it.
    pub feedback: String,
}

/// One piece of a [`Task::Pieces`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Piece {
    /// The feedback to the job's guess that leaves the piece.
    pub feedback: String,
    /// How many secrets it holds.
    pub size: usize,
    /// Its proven lower bound (guesses after the job's guess, summed over its secrets).
    pub lower: u64,
}

/// A first-level part split deeper: the join settles it from the pieces' jobs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeepPart {
    /// The first guess, as text.
    pub guess: String,
    /// The feedback to it.
    pub feedback: String,
    /// How many secrets give that feedback.
    pub size: usize,
}

/// What a split is: the search `moo tree build` would run, and its jobs. Written as the
/// manifest of the jobs' directory.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Split {
    /// [`SPLIT_FORMAT`].
    pub format: String,
    /// A hash of everything below, which every job and result repeats.
    pub fingerprint: String,
    /// The rules searched.
    pub rules: Rules,
    /// The objective.
    pub objective: Objective,
    /// The guess pool.
    pub guesses: GuessPool,
    /// The depth limit of the whole tree, if any.
    pub max_depth: Option<u32>,
    /// The first guesses tried, one per symmetry class, in the order the search tries them
    /// (which breaks ties between them).
    pub first_guesses: Vec<String>,
    /// The parts split deeper.
    pub deeper: Vec<DeepPart>,
    /// A set of `n` secrets below a part split deeper is solved by one job when `n * n` is at
    /// most this, else split again at its next guess; one job's pieces hold at most this much
    /// of `n * n` in all.
    pub heavy: u64,
    /// Round 1's jobs; the join writes the next round's.
    pub jobs: Vec<JobEntry>,
}

/// One subproblem, as a file a machine can run alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Job {
    /// [`JOB_FORMAT`].
    pub format: String,
    /// The split's fingerprint.
    pub fingerprint: String,
    /// How many jobs round 1 of the split has.
    pub jobs: usize,
    /// The rules searched.
    pub rules: Rules,
    /// The objective.
    pub objective: Objective,
    /// The guess pool.
    pub guesses: GuessPool,
    /// The depth limit of the whole tree, if any (the job gets one guess less).
    pub max_depth: Option<u32>,
    /// Which job this is, and the history it starts from.
    #[serde(flatten)]
    pub entry: JobEntry,
}

/// A job's proven answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobResult {
    /// [`RESULT_FORMAT`].
    pub format: String,
    /// The split's fingerprint.
    pub fingerprint: String,
    /// Which job was solved.
    #[serde(flatten)]
    pub entry: JobEntry,
    /// What the search proved.
    pub outcome: PartOutcome,
    /// Candidate sets searched.
    pub nodes: u64,
    /// Wall-clock time of the search, in seconds.
    pub seconds: f64,
    /// CPU time (user and system) of the whole process that ran the job, in seconds, when the
    /// runner measured it: what a share of the run is counted in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu_seconds: Option<f64>,
    /// The most memory the process that ran the job held at once (its peak resident set), in
    /// bytes, when the runner measured it: what a batch system's task must be given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_bytes: Option<u64>,
    /// For a run of later guesses ([`Task::Guesses`]) whose [`Ceiling`] fell below its job's
    /// bound while it ran: the bound it ended under. Another run of its position had found a
    /// tree below its total, so it needed only to beat that; its lower bound, if it found no
    /// tree, is this one and not its job's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tightened: Option<u64>,
    /// The kernel level the job's search ran at ([`crate::Kernel::active`]); absent in
    /// results written before it was recorded, and in subtrees a join derived.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<crate::Kernel>,
    /// The name of the machine that ran the job, when the runner recorded it: a join's claims
    /// rest on each job's own search, and the report says which machines ran them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
}

/// What a job proved about its part, counting guesses after the first one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum PartOutcome {
    /// The part's optimal subtree.
    Solved {
        /// Guesses summed over the part's secrets, the first guess not counted.
        total: u64,
        /// The most guesses any of them needs after the first, the smallest among trees of
        /// this total.
        worst: u32,
        /// `histogram[k - 1]` secrets need exactly `k` more guesses.
        histogram: Vec<u64>,
        /// The subtree, rooted at the part's next guess.
        tree: DecisionTree,
        /// The search's first optimal subtree, of the same total but a larger worst case, when
        /// the worst-case tie-break replaced it: the search of the whole game keeps this one
        /// whenever the other parts fix its worst case anyway.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unreduced: Option<Unreduced>,
    },
    /// Under a worst-case objective, the part's optimal subtree for each depth limit the join
    /// may give it.
    Depths {
        /// One per depth limit (counting guesses after the first), from the fewest that solve
        /// every secret of the part up to the first where a deeper limit does no better.
        columns: Vec<Column>,
    },
    /// No tree solves the part within the guesses the depth limit leaves.
    Impossible {
        /// The guesses left after the first one.
        max_depth: u32,
    },
    /// A piece of a [`Task::Pieces`] with a spare cannot be solved below its bound: any tree
    /// of it costs at least this.
    AtLeast {
        /// The proven lower bound (the piece's bound or more).
        bound: u64,
    },
    /// A [`Task::Pieces`]'s answer: one outcome per piece, in order, each
    /// [`PartOutcome::Solved`] but the last, which may be [`PartOutcome::AtLeast`]; the pieces
    /// after it are not tried (their guess cannot beat the bound).
    Pieces {
        /// The pieces' outcomes.
        pieces: Vec<PartOutcome>,
    },
}

/// A part's optimal subtree within one depth limit, under a worst-case objective.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Column {
    /// The depth limit, counting guesses after the first.
    pub depth: u32,
    /// Guesses summed over the part's secrets, the first guess not counted.
    pub total: u64,
    /// `histogram[k - 1]` secrets need exactly `k` more guesses.
    pub histogram: Vec<u64>,
    /// The subtree, rooted at the part's next guess.
    pub tree: DecisionTree,
}

impl Column {
    /// How many of the part's secrets need every guess of the depth limit.
    pub fn at_limit(&self) -> u64 {
        let k = self.depth as usize;
        if k == 0 {
            return 0;
        }
        self.histogram.get(k - 1).copied().unwrap_or(0)
    }
}

/// A part's optimal subtree before the worst-case tie-break.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unreduced {
    /// Its worst case, counting guesses after the first.
    pub worst: u32,
    /// `histogram[k - 1]` secrets need exactly `k` more guesses.
    pub histogram: Vec<u64>,
    /// The subtree.
    pub tree: DecisionTree,
}

/// What joining the results gave.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum Joined {
    /// The optimal tree, verified.
    Found {
        /// The tree.
        tree: DecisionTree,
        /// Its replayed statistics.
        stats: TreeStats,
        /// Candidate sets searched by all jobs together.
        nodes: u64,
        /// The jobs' search times added up, in seconds.
        seconds: f64,
        /// How many jobs the rounds had in all.
        jobs: usize,
    },
    /// Proven: no strategy solves every secret within the depth limit.
    Impossible {
        /// The depth that is not enough.
        max_depth: u32,
    },
    /// Every job so far is done, and these follow: run them, then join again.
    Round {
        /// The round's number (round 1 is the split's).
        round: usize,
        /// The round's jobs.
        jobs: Vec<Job>,
        /// How far the rounds so far have got.
        standing: Standing,
    },
}

/// How far the results so far have got with the parts split deeper
/// ([`Split::standing`], [`Joined::Round`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[non_exhaustive]
pub struct Standing {
    /// The parts whose optima the results prove, in the manifest's order.
    pub settled: Vec<SettledPart>,
    /// The others, each with the lower bound the results prove and the cheapest subtree they
    /// have found, in the manifest's order.
    pub open: Vec<OpenPart>,
    /// The whole game's optimal total is at least this: one guess per secret, then each
    /// part's optimum or proven lower bound, for the best first guess. Only for the average
    /// objective without a depth limit, and once every part solved whole has its result.
    pub lower: Option<u64>,
    /// The total of the best strategy the results have found so far
    /// ([`Split::standing_with_strategy`]): each part's optimum where it is settled, else the
    /// cheapest subtree found for it. Only for the average objective without a depth limit,
    /// and once some first guess has a subtree for every part.
    pub upper: Option<u64>,
}

/// A part split deeper whose optimum the rounds so far have proven.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SettledPart {
    /// The part.
    #[serde(flatten)]
    pub part: DeepPart,
    /// Its optimal total, counting guesses after the first.
    pub total: u64,
}

/// A part split deeper that the results so far leave open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenPart {
    /// The part.
    #[serde(flatten)]
    pub part: DeepPart,
    /// Every strategy for it takes at least this many guesses after the first, summed over
    /// its secrets.
    pub lower: u64,
    /// The cheapest subtree for it the results have found so far (a second guess whose every
    /// piece is solved), counted the same way; `None` before one is.
    pub upper: Option<u64>,
    /// The second guesses that may still beat that subtree (every one before there is one):
    /// what is left to search in the part. The least bound first, so that the first one's is
    /// [`OpenPart::lower`].
    pub guesses: Vec<OpenGuess>,
}

/// A second guess that may still be the best for an [`OpenPart`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OpenGuess {
    /// The guess, as text.
    pub guess: String,
    /// Every strategy with it as the part's second guess takes at least this many guesses
    /// after the first, summed over the part's secrets.
    pub lower: u64,
}

/// Reads a file of this module's `kind`, refusing any other format than `expected`.
pub(super) fn parse<T: serde::de::DeserializeOwned>(
    text: &str,
    kind: &'static str,
    expected: &str,
    format: impl Fn(&T) -> &String,
) -> Result<T, SplitError> {
    let value: T = serde_json::from_str(text).map_err(|e| SplitError::Malformed {
        kind,
        reason: crate::text::shorten(&e.to_string(), 200),
    })?;
    let found = format(&value);
    if found != expected {
        return Err(SplitError::Malformed {
            kind,
            reason: format!("its format is {:?}", crate::text::excerpt(found)),
        });
    }
    Ok(value)
}

/// `0-3, 7, 9-10`: job numbers, compactly.
fn ranges(jobs: &[usize]) -> String {
    runs(jobs).join(", ")
}

/// `0-3,7,9-10`: job numbers as a batch system's array takes them (`sbatch --array`).
pub fn array_range(jobs: &[usize]) -> String {
    runs(jobs).join(",")
}

/// Runs of consecutive job numbers, each as `a-b` or `a`.
fn runs(jobs: &[usize]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut i = 0;
    while i < jobs.len() {
        let mut j = i;
        while j + 1 < jobs.len() && jobs[j + 1] == jobs[j] + 1 {
            j += 1;
        }
        out.push(if i == j {
            jobs[i].to_string()
        } else {
            format!("{}-{}", jobs[i], jobs[j])
        });
        i = j + 1;
    }
    out
}
