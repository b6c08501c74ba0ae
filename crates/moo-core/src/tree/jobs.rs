//! One exact search split into independent jobs, for running on several machines, and the
//! results joined back into one tree.
//!
//! The search of a whole game is a choice of first guess and, under it, one independent
//! subproblem per feedback: the candidate set that feedback leaves, searched with the symmetries
//! that fix the first guess ([`super::Search::after`]). Those subproblems share nothing but a cache, so
//! each can be a job of its own: [`Split::plan`] lists one per first guess the search would try
//! (one per symmetry class: 1 for Bulls and Cows, 5 for Mastermind) and feedback, a job file
//! names only the rules, options and history it starts from, and [`Job::solve`] proves its
//! subproblem's optimum on whatever machine runs it. [`Split::join`] then adds up each first
//! guess's parts and makes the root's choice itself, with the rules of the single search:
//! the smallest total, then (for the average) the smallest worst case, then the search's own
//! order of first guesses. The joined tree is replayed ([`DecisionTree::verify_in`]) before it
//! is returned, so a wrong or tampered result cannot give a tree that does not solve the game,
//! and each total a result claims must be what its tree does.
//!
//! Every file of one split carries the split's fingerprint, a hash of what was split and of the
//! list of jobs, so a result of another split (other rules, options, or another version of the
//! job list) is refused by name instead of being joined.
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
//! tree may be another of them.

use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::search::{PartPlans, Search, SearchOutcome};
use super::{
    DecisionTree, Node, NodeId, Objective, PlanMove, Progress, SearchError, SearchOptions, SetPlan,
    TreeError, TreeStats,
};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::pool::GuessPool;
use crate::rules::Rules;
use crate::space::{CodeSpace, SpaceError};
use crate::stop::Stop;

/// The `format` of a split's manifest.
pub const SPLIT_FORMAT: &str = "moo-tree-split/1";
/// The `format` of a job file.
pub const JOB_FORMAT: &str = "moo-tree-job/1";
/// The `format` of a job's result file.
pub const RESULT_FORMAT: &str = "moo-tree-result/1";

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

/// One job in a split's list: a first guess and a feedback.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobEntry {
    /// Its position in the list, which names its files.
    pub index: usize,
    /// The first guess, as text.
    pub guess: String,
    /// The feedback to it, `1B2C`.
    pub feedback: String,
    /// How many secrets give that feedback (the size of the subproblem).
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
    /// The objective, by its command-line name.
    pub objective: String,
    /// The guess pool, by its command-line name.
    pub guesses: String,
    /// The depth limit of the whole tree, if any.
    pub max_depth: Option<u32>,
    /// The first guesses tried, one per symmetry class, in the order the search tries them
    /// (which breaks ties between them).
    pub first_guesses: Vec<String>,
    /// Every job.
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
    /// How many jobs the split has.
    pub jobs: usize,
    /// The rules searched.
    pub rules: Rules,
    /// The objective, by its command-line name.
    pub objective: String,
    /// The guess pool, by its command-line name.
    pub guesses: String,
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
    },
    /// Proven: no strategy solves every secret within the depth limit.
    Impossible {
        /// The depth that is not enough.
        max_depth: u32,
    },
}

impl Split {
    /// Lists the jobs of the search of `space` under `options`: one per first guess the search
    /// would try and feedback that guess can get, besides the win. Returns the manifest and
    /// every job, in the same order.
    pub fn plan(
        space: &CodeSpace,
        options: &SearchOptions,
    ) -> Result<(Split, Vec<Job>), SplitError> {
        let objective = objective_name(options.objective);
        let order = Search::whole(space).options(options).first_guesses(None)?;
        let rules = space.rules().clone();
        let length = space.length();
        let all = space.all();
        let mut jobs = Vec::new();
        for &g in &order {
            for (feedback, part) in space.partition(g as usize, &all) {
                if feedback.is_win(length) {
                    continue;
                }
                jobs.push(JobEntry {
                    index: jobs.len(),
                    guess: rules.format_code(&space.code(g as usize)),
                    feedback: feedback.to_string(),
                    size: part.len(),
                });
            }
        }
        let mut split = Split {
            format: SPLIT_FORMAT.to_string(),
            fingerprint: String::new(),
            rules,
            objective: objective.to_string(),
            guesses: pool_name(options.guesses).to_string(),
            max_depth: options.max_depth,
            first_guesses: order
                .iter()
                .map(|&g| space.rules().format_code(&space.code(g as usize)))
                .collect(),
            jobs,
        };
        split.fingerprint = split.compute_fingerprint();
        let jobs = split.jobs.iter().map(|e| split.job(e.clone())).collect();
        Ok((split, jobs))
    }

    /// The job file of one entry.
    fn job(&self, entry: JobEntry) -> Job {
        Job {
            format: JOB_FORMAT.to_string(),
            fingerprint: self.fingerprint.clone(),
            jobs: self.jobs.len(),
            rules: self.rules.clone(),
            objective: self.objective.clone(),
            guesses: self.guesses.clone(),
            max_depth: self.max_depth,
            entry,
        }
    }

    /// A hash of everything the split is (FNV-1a over its JSON with an empty fingerprint):
    /// enough to tell one split's files from another's, not a defence against forgery.
    fn compute_fingerprint(&self) -> String {
        let mut copy = self.clone();
        copy.fingerprint = String::new();
        let text = serde_json::to_string(&copy).unwrap_or_default();
        format!("{:016x}", fnv(&text))
    }

    /// Reads a manifest, checking its format and fingerprint.
    pub fn from_json(text: &str) -> Result<Split, SplitError> {
        let split = parse(text, "split manifest", SPLIT_FORMAT, |s: &Split| &s.format)?;
        if split.compute_fingerprint() != split.fingerprint {
            return Err(SplitError::Malformed {
                kind: "split manifest",
                reason: "its fingerprint does not match its contents (it was edited)".into(),
            });
        }
        if split.jobs.iter().enumerate().any(|(i, e)| e.index != i) {
            return Err(SplitError::Malformed {
                kind: "split manifest",
                reason: "its jobs are not numbered 0, 1, 2, ...".into(),
            });
        }
        Ok(split)
    }

    /// The manifest as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks that `result` is this split's answer to job `index`.
    pub fn check_result(&self, index: usize, result: &JobResult) -> Result<(), SplitError> {
        if result.fingerprint != self.fingerprint {
            return Err(SplitError::OtherSplit {
                what: format!("the result of job {index}"),
                found: result.fingerprint.clone(),
                wanted: self.fingerprint.clone(),
            });
        }
        match self.jobs.get(index) {
            Some(entry) if *entry == result.entry => Ok(()),
            Some(entry) => Err(SplitError::Mismatch {
                index,
                reason: format!(
                    "the result answers {} {} ({} secrets), but the job is {} {} ({} secrets)",
                    result.entry.guess,
                    result.entry.feedback,
                    result.entry.size,
                    entry.guess,
                    entry.feedback,
                    entry.size
                ),
            }),
            None => Err(SplitError::Mismatch {
                index,
                reason: format!("the split has only {} jobs", self.jobs.len()),
            }),
        }
    }

    /// Joins one result per job (`None` for those missing) into the tree the search of the
    /// whole game finds: for each first guess its parts' totals add up, the best first guess is
    /// chosen as the search chooses it, and the tree is replayed before it is returned.
    pub fn join(&self, results: &[Option<JobResult>]) -> Result<Joined, SplitError> {
        let missing: Vec<usize> = (0..self.jobs.len())
            .filter(|&i| !matches!(results.get(i), Some(Some(_))))
            .collect();
        if !missing.is_empty() {
            return Err(SplitError::Missing {
                missing,
                jobs: self.jobs.len(),
            });
        }
        let results: Vec<&JobResult> = results.iter().flatten().collect();
        for (i, r) in results.iter().enumerate() {
            self.check_result(i, r)?;
        }
        let space = CodeSpace::new(self.rules.clone())?;
        let nodes = results.iter().map(|r| r.nodes).sum();
        let seconds = results.iter().map(|r| r.seconds).sum();
        let objective = objective_of(&self.objective).ok_or_else(|| SplitError::Malformed {
            kind: "split manifest",
            reason: format!(
                "unknown objective {:?}",
                crate::text::excerpt(&self.objective)
            ),
        })?;
        let chosen = if objective == Objective::Average {
            self.choose_average(space.len() as u64, &results)
        } else {
            self.choose_depth(&space, objective, &results)?
        };
        let Some(chosen) = chosen else {
            return Ok(Joined::Impossible {
                max_depth: self.max_depth.unwrap_or(0),
            });
        };
        let (tree, stats) = self.assemble(&space, &chosen.guess, &chosen.parts)?;
        if stats.total != chosen.total {
            return Err(SplitError::Disagree {
                claimed: chosen.total,
                replayed: stats.total,
            });
        }
        if let Some((worst, at_worst)) = chosen.worst {
            if (stats.max, stats.at_worst) != (worst, at_worst) {
                return Err(SplitError::DisagreeWorst {
                    claimed: worst,
                    claimed_at_worst: at_worst,
                    replayed: stats.max,
                    replayed_at_worst: stats.at_worst,
                });
            }
        }
        Ok(Joined::Found {
            tree,
            stats,
            nodes,
            seconds,
        })
    }

    /// The average objective's first guess and its parts' subtrees: the smallest total, then the
    /// smallest worst case, then the earlier in the search's order, with each part's subtree as
    /// the search of the whole game keeps it. `None` when no first guess fits the depth limit.
    fn choose_average<'r>(&self, secrets: u64, results: &[&'r JobResult]) -> Option<Chosen<'r>> {
        // (total, worst, position in the search's order) of the best first guess so far, and
        // the worst case of the first guess the search finds before its tie-break.
        let mut best: Option<(u64, u32, usize)> = None;
        let mut first: Option<(u64, u32)> = None;
        for (rank, guess) in self.first_guesses.iter().enumerate() {
            let mut total = secrets;
            let mut worst = 1;
            let mut first_worst = 1;
            let mut possible = true;
            for r in results.iter().filter(|r| r.entry.guess == *guess) {
                match &r.outcome {
                    PartOutcome::Solved {
                        total: t,
                        worst: w,
                        unreduced,
                        ..
                    } => {
                        total += t;
                        worst = worst.max(w + 1);
                        first_worst =
                            first_worst.max(unreduced.as_ref().map_or(*w, |u| u.worst) + 1);
                    }
                    PartOutcome::Depths { .. } | PartOutcome::Impossible { .. } => possible = false,
                }
            }
            if !possible {
                continue;
            }
            // The smallest total, then the smallest worst case, then the earlier in the order:
            // the choice `search` makes for the average objective.
            if best.is_none_or(|(t, w, _)| (total, worst) < (t, w)) {
                best = Some((total, worst, rank));
            }
            if first.is_none_or(|(t, _)| total < t) {
                first = Some((total, first_worst));
            }
        }
        let ((total, worst, rank), (_, first_worst)) = (best?, first?);
        let guess = self.first_guesses[rank].clone();
        let mut parts = Vec::new();
        for r in results.iter().filter(|r| r.entry.guess == guess) {
            let PartOutcome::Solved {
                tree, unreduced, ..
            } = &r.outcome
            else {
                continue;
            };
            // The search of the whole game builds its parts within the depth its root ends
            // with: no limit when its tie-break could not lower its worst case, so every part
            // keeps its first optimum; else the parts whose first optimum fits keep it.
            let tree = match unreduced {
                Some(u) if first_worst == worst || u.worst < worst => &u.tree,
                _ => tree,
            };
            parts.push((*r, tree));
        }
        Some(Chosen {
            guess,
            parts,
            total,
            worst: None,
        })
    }

    /// A worst-case objective's first guess and its parts' subtrees: the least depth `D` some
    /// first guess meets, then among the guesses that meet it the fewest secrets at `D` (for the
    /// fewest at worst) and the smallest total, then the earlier in the order the search tries
    /// them at `D`. `None` when no first guess fits the depth limit.
    fn choose_depth<'r>(
        &self,
        space: &CodeSpace,
        objective: Objective,
        results: &[&'r JobResult],
    ) -> Result<Option<Chosen<'r>>, SplitError> {
        // Each first guess's depth: one more than its parts' largest fewest.
        let mut depths: Vec<(&str, u32)> = Vec::new();
        for guess in &self.first_guesses {
            let mut depth = Some(1);
            for r in results.iter().filter(|r| r.entry.guess == *guess) {
                depth = match (&r.outcome, depth) {
                    (PartOutcome::Depths { columns }, Some(d)) => {
                        let fewest = check_columns(r, columns)?;
                        Some(d.max(fewest + 1))
                    }
                    (PartOutcome::Impossible { .. }, _) => None,
                    (PartOutcome::Solved { .. }, _) => {
                        return Err(SplitError::Mismatch {
                            index: r.entry.index,
                            reason: "it answers the average objective, not the worst case".into(),
                        })
                    }
                    (_, None) => None,
                };
            }
            if let Some(d) = depth {
                depths.push((guess, d));
            }
        }
        let Some(depth) = depths.iter().map(|&(_, d)| d).min() else {
            return Ok(None);
        };
        let options = SearchOptions::new(objective)
            .with_max_depth(self.max_depth)
            .with_guesses(pool_of(&self.guesses).unwrap_or(GuessPool::All));
        let order = Search::whole(space)
            .options(&options)
            .first_guesses(Some(depth))?;
        // The best first guess so far, in the order it is tried at this depth, and its cost:
        // (secrets at the depth for the fewest at worst, total).
        let mut best: Option<((u64, u64), Chosen<'r>)> = None;
        for g in order {
            let text = self.rules.format_code(&space.code(g as usize));
            let Some(&(guess, _)) = depths.iter().find(|&&(t, d)| t == text && d == depth) else {
                continue;
            };
            let (mut at_worst, mut total) = (0, space.len() as u64);
            let mut parts = Vec::new();
            for r in results.iter().filter(|r| r.entry.guess == guess) {
                let PartOutcome::Depths { columns } = &r.outcome else {
                    continue;
                };
                // The column the root's depth leaves the part, or the last when deeper.
                let column = columns
                    .iter()
                    .rev()
                    .find(|c| c.depth < depth)
                    .expect("checked: the guess's depth exceeds every part's fewest");
                if column.depth + 1 == depth {
                    at_worst += column.at_limit();
                }
                total += column.total;
                parts.push((*r, &column.tree));
            }
            let cost = match objective {
                Objective::FewestWorst => (at_worst, total),
                _ => (0, total),
            };
            if best.as_ref().is_none_or(|(c, _)| cost < *c) {
                let chosen = Chosen {
                    guess: guess.to_string(),
                    parts,
                    total,
                    worst: Some((depth, at_worst)),
                };
                best = Some((cost, chosen));
            }
        }
        match best {
            Some((_, chosen)) => Ok(Some(chosen)),
            None => Err(SplitError::Malformed {
                kind: "split manifest",
                reason: format!("none of its first guesses is the search's at depth {depth}"),
            }),
        }
    }

    /// The tree of first guess `guess` over its parts' subtrees, replayed.
    fn assemble(
        &self,
        space: &CodeSpace,
        guess_text: &str,
        parts: &[(&JobResult, &DecisionTree)],
    ) -> Result<(DecisionTree, TreeStats), SplitError> {
        let guess = self
            .rules
            .parse_code(guess_text)
            .map_err(|e| SplitError::Malformed {
                kind: "split manifest",
                reason: format!("its first guess {guess_text:?} is not a code of its rules: {e}"),
            })?;
        let mut nodes_out = vec![Node {
            guess,
            children: Vec::new(),
        }];
        let mut children = Vec::new();
        let length = self.rules.length();
        for (r, tree) in parts {
            if tree.rules() != &self.rules {
                return Err(SplitError::Mismatch {
                    index: r.entry.index,
                    reason: "its subtree is for other rules".into(),
                });
            }
            let feedback =
                Feedback::parse(&r.entry.feedback, length).map_err(|e| SplitError::Mismatch {
                    index: r.entry.index,
                    reason: e.to_string(),
                })?;
            let offset = nodes_out.len() as u32;
            children.push((feedback, NodeId(offset)));
            nodes_out.extend(tree.nodes().iter().map(|n| {
                Node {
                    guess: n.guess,
                    children: n
                        .children
                        .iter()
                        .map(|&(f, id)| (f, NodeId(id.0 + offset)))
                        .collect(),
                }
            }));
        }
        children.sort_by_key(|&(f, _)| f.index(length));
        nodes_out[0].children = children;
        let tree = DecisionTree::from_nodes(self.rules.clone(), nodes_out);
        let stats = tree.verify_in(space).map_err(SplitError::Tree)?;
        Ok((tree, stats))
    }
}

/// The first guess a join chose, with each part's result and the subtree it keeps.
struct Chosen<'r> {
    guess: String,
    parts: Vec<(&'r JobResult, &'r DecisionTree)>,
    /// The total the results claim.
    total: u64,
    /// The worst case and the secrets at it the results claim (worst-case objectives).
    worst: Option<(u32, u64)>,
}

/// Checks that a result's columns are one per depth from its fewest on, and returns the fewest.
fn check_columns(r: &JobResult, columns: &[Column]) -> Result<u32, SplitError> {
    let bad = |reason: &str| SplitError::Mismatch {
        index: r.entry.index,
        reason: reason.to_string(),
    };
    let first = columns
        .first()
        .ok_or_else(|| bad("it has no depth column (an impossible part says so)"))?;
    // No search goes 255 guesses deep: a deeper column is not a search's.
    if columns
        .iter()
        .any(|c| c.depth == 0 || c.depth >= u32::from(u8::MAX))
        || columns.windows(2).any(|w| w[1].depth != w[0].depth + 1)
    {
        return Err(bad(
            "its depth columns are not one per depth from its fewest",
        ));
    }
    Ok(first.depth)
}

impl Job {
    /// Reads a job file, checking its format.
    pub fn from_json(text: &str) -> Result<Job, SplitError> {
        parse(text, "job", JOB_FORMAT, |j: &Job| &j.format)
    }

    /// The job as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks that the job is `split`'s job `index`, as the manifest lists it.
    pub fn check(&self, split: &Split) -> Result<(), SplitError> {
        if self.fingerprint != split.fingerprint {
            return Err(SplitError::OtherSplit {
                what: format!("job {}", self.entry.index),
                found: self.fingerprint.clone(),
                wanted: split.fingerprint.clone(),
            });
        }
        if split.job(self.entry.clone()) != *self
            || split.jobs.get(self.entry.index) != Some(&self.entry)
        {
            return Err(SplitError::Mismatch {
                index: self.entry.index,
                reason: "the job file differs from the split's list".into(),
            });
        }
        Ok(())
    }

    /// Whether `result` is this job's answer (same split, same subproblem).
    pub fn is_answered_by(&self, result: &JobResult) -> bool {
        result.format == RESULT_FORMAT
            && result.fingerprint == self.fingerprint
            && result.entry == self.entry
    }

    /// Proves the job's subproblem: the optimal subtree of the candidates its history leaves,
    /// with one guess less of the depth limit, exactly as the search of the whole game solves
    /// that part (same objective and tie rule, same symmetries). Runs on the current rayon pool;
    /// returns [`SearchError::Stopped`] soon after `stop` fires.
    pub fn solve(&self, progress: &Progress, stop: &Stop) -> Result<JobResult, SplitError> {
        let bad = |reason: String| SplitError::Mismatch {
            index: self.entry.index,
            reason,
        };
        let objective = objective_of(&self.objective).ok_or_else(|| {
            bad(format!(
                "unknown objective {:?}",
                crate::text::excerpt(&self.objective)
            ))
        })?;
        let guesses = pool_of(&self.guesses).ok_or_else(|| {
            bad(format!(
                "unknown guess pool {:?}",
                crate::text::excerpt(&self.guesses)
            ))
        })?;
        let space = CodeSpace::new(self.rules.clone())?;
        let guess = self
            .rules
            .parse_code(&self.entry.guess)
            .map_err(|e| bad(e.to_string()))?;
        let feedback = Feedback::parse(&self.entry.feedback, self.rules.length())
            .map_err(|e| bad(e.to_string()))?;
        if feedback.is_win(self.rules.length()) {
            return Err(bad("the winning feedback is not a subproblem".into()));
        }
        let mut history = History::new();
        history.push(guess, feedback);
        let candidates: CodeSet = history.candidates(&space);
        if candidates.len() != self.entry.size || candidates.is_empty() {
            return Err(bad(format!(
                "{} {} leaves {} secrets, the job says {}",
                self.entry.guess,
                self.entry.feedback,
                candidates.len(),
                self.entry.size
            )));
        }
        let start = Instant::now();
        let left = self.max_depth.map(|d| d.saturating_sub(1));
        let outcome = if left == Some(0) {
            PartOutcome::Impossible { max_depth: 0 }
        } else {
            let options = SearchOptions::new(objective)
                .with_max_depth(left)
                .with_guesses(guesses);
            let tree_of = |plan: &SetPlan| {
                plan_tree(&space, &plan.moves)
                    .ok_or_else(|| bad("the search's plan does not cover its part".into()))
            };
            let search = Search::part(&space, &history, &candidates)
                .options(&options)
                .progress(progress)
                .stop(stop);
            match search.run()? {
                SearchOutcome::Found(PartPlans::Columns(columns)) => PartOutcome::Depths {
                    columns: columns
                        .into_iter()
                        .map(|(depth, plan)| {
                            Ok(Column {
                                depth,
                                total: plan.total,
                                tree: tree_of(&plan)?,
                                histogram: plan.histogram,
                            })
                        })
                        .collect::<Result<_, SplitError>>()?,
                },
                SearchOutcome::Found(PartPlans::Plan { plan, unreduced }) => PartOutcome::Solved {
                    total: plan.total,
                    worst: plan.worst,
                    tree: tree_of(&plan)?,
                    histogram: plan.histogram,
                    unreduced: match unreduced {
                        Some(u) => Some(Unreduced {
                            worst: u.worst,
                            tree: tree_of(&u)?,
                            histogram: u.histogram,
                        }),
                        None => None,
                    },
                },
                SearchOutcome::Impossible { max_depth } => PartOutcome::Impossible { max_depth },
            }
        };
        Ok(JobResult {
            format: RESULT_FORMAT.to_string(),
            fingerprint: self.fingerprint.clone(),
            entry: self.entry.clone(),
            outcome,
            nodes: progress.nodes(),
            seconds: start.elapsed().as_secs_f64(),
        })
    }
}

impl JobResult {
    /// Reads a result file, checking its format.
    pub fn from_json(text: &str) -> Result<JobResult, SplitError> {
        parse(text, "job result", RESULT_FORMAT, |r: &JobResult| &r.format)
    }

    /// The result as JSON (one line: the subtree makes it long).
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// The subtree a plan describes: `moves[0]` is its root's set and guess, then the plans of its
/// parts depth first in feedback order, as [`super::Search::after`] writes them. `None` if the moves do
/// not cover every part.
fn plan_tree(space: &CodeSpace, moves: &[PlanMove]) -> Option<DecisionTree> {
    fn add(
        space: &CodeSpace,
        moves: &[PlanMove],
        next: &mut usize,
        nodes: &mut Vec<Node>,
    ) -> Option<NodeId> {
        let PlanMove { set, guess: g, .. } = moves.get(*next)?;
        *next += 1;
        let id = NodeId(nodes.len() as u32);
        nodes.push(Node {
            guess: space.code(*g as usize),
            children: Vec::new(),
        });
        let length = space.length();
        let mut children = Vec::new();
        for (feedback, part) in space.partition(*g as usize, set) {
            if feedback.is_win(length) {
                continue;
            }
            if moves.get(*next).map(|m| &m.set) != Some(&part) {
                return None;
            }
            children.push((feedback, add(space, moves, next, nodes)?));
        }
        nodes[id.index()].children = children;
        Some(id)
    }
    let mut nodes = Vec::new();
    let mut next = 0;
    add(space, moves, &mut next, &mut nodes)?;
    Some(DecisionTree::from_nodes(space.rules().clone(), nodes))
}

/// The command-line name of an objective the split handles.
fn objective_name(objective: Objective) -> &'static str {
    match objective {
        Objective::Average => "average",
        Objective::Worst => "worst",
        Objective::FewestWorst => "fewest-worst",
    }
}

/// The objective of a command-line name, if it is one.
fn objective_of(name: &str) -> Option<Objective> {
    Objective::ALL
        .into_iter()
        .find(|&o| objective_name(o) == name)
}

/// The guess pool of a command-line name, if it is one.
fn pool_of(name: &str) -> Option<GuessPool> {
    [GuessPool::All, GuessPool::Consistent]
        .into_iter()
        .find(|&p| pool_name(p) == name)
}

/// The command-line name of a guess pool.
fn pool_name(pool: GuessPool) -> &'static str {
    match pool {
        GuessPool::All => "all",
        GuessPool::Consistent => "consistent",
    }
}

/// Reads a file of this module's `kind`, refusing any other format than `expected`.
fn parse<T: serde::de::DeserializeOwned>(
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

/// FNV-1a, 64 bits.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `0-3, 7, 9-10`: job numbers, compactly.
fn ranges(jobs: &[usize]) -> String {
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
    out.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tree::{OptimalTree, Search, SearchOutcome};

    /// The joined tree and the single search's, with their statistics, for `options`.
    fn joined_and_searched(
        space: &CodeSpace,
        options: &SearchOptions,
    ) -> ((DecisionTree, TreeStats), (DecisionTree, TreeStats)) {
        let (split, joined) = split_and_join(space, options);
        assert!(!split.jobs.is_empty());
        let what = format!("{} {options:?}", space.rules());
        let Joined::Found { tree, stats, .. } = joined else {
            panic!("{what}: the join finds a tree");
        };
        let SearchOutcome::Found(OptimalTree {
            tree: single,
            stats: single_stats,
        }) = Search::whole(space).options(options).run().unwrap()
        else {
            panic!("{what}: the search finds a tree");
        };
        ((tree, stats), (single, single_stats))
    }

    /// Splits, solves every job in process and joins.
    fn split_and_join(space: &CodeSpace, options: &SearchOptions) -> (Split, Joined) {
        let (split, jobs) = Split::plan(space, options).unwrap();
        let results: Vec<Option<JobResult>> = jobs
            .iter()
            .map(|job| {
                let result = job.solve(&Progress::new(), &Stop::never()).unwrap();
                // Through the file form, as between machines.
                Some(JobResult::from_json(&result.to_json()).unwrap())
            })
            .collect();
        let joined = split.join(&results).unwrap();
        (split, joined)
    }

    #[test]
    fn joined_trees_are_the_searchs_trees() {
        let games = [
            (
                Rules::new(3, "1234", true, false).unwrap(),
                GuessPool::All,
                None,
            ),
            (
                Rules::new(3, "1234", true, false).unwrap(),
                GuessPool::Consistent,
                None,
            ),
            (
                Rules::new(3, "012345", false, false).unwrap(),
                GuessPool::All,
                None,
            ),
            (
                Rules::new(3, "0123456789", false, false).unwrap(),
                GuessPool::All,
                Some(6),
            ),
            (
                Rules::new(3, "012345", false, true).unwrap(),
                GuessPool::All,
                None,
            ),
        ];
        for (rules, pool, max_depth) in games {
            let space = CodeSpace::new(rules.clone()).unwrap();
            let options = SearchOptions::new(Objective::Average)
                .with_guesses(pool)
                .with_max_depth(max_depth);
            let ((joined_tree, joined_stats), (tree, stats)) =
                joined_and_searched(&space, &options);
            assert_eq!(joined_stats, stats, "{rules} {pool:?} {max_depth:?}");
            assert_eq!(joined_tree, tree, "{rules} {pool:?} {max_depth:?}");
        }
    }

    #[test]
    fn an_impossible_depth_is_proven_by_the_join() {
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        let options = SearchOptions::new(Objective::Average).with_max_depth(Some(3));
        let (_, joined) = split_and_join(&space, &options);
        assert!(matches!(joined, Joined::Impossible { max_depth: 3 }));
    }

    #[test]
    fn results_of_another_split_or_missing_ones_are_refused() {
        let space = CodeSpace::new(Rules::new(3, "1234", true, false).unwrap()).unwrap();
        let (a, jobs) = Split::plan(&space, &SearchOptions::default()).unwrap();
        let options = SearchOptions::default().with_guesses(GuessPool::Consistent);
        let (b, other_jobs) = Split::plan(&space, &options).unwrap();
        assert_ne!(a.fingerprint, b.fingerprint);
        let foreign = other_jobs[0]
            .solve(&Progress::new(), &Stop::never())
            .unwrap();
        assert!(matches!(
            a.check_result(0, &foreign),
            Err(SplitError::OtherSplit { .. })
        ));
        assert!(!jobs[0].is_answered_by(&foreign));
        let mut results: Vec<Option<JobResult>> = vec![None; jobs.len()];
        results[1] = Some(jobs[1].solve(&Progress::new(), &Stop::never()).unwrap());
        match a.join(&results) {
            Err(SplitError::Missing { missing, jobs: n }) => {
                assert_eq!(n, jobs.len());
                assert_eq!(missing.len(), jobs.len() - 1);
                assert!(!missing.contains(&1));
            }
            other => panic!("expected the missing jobs, got {other:?}"),
        }
        let mut edited: serde_json::Value = serde_json::from_str(&a.to_json()).unwrap();
        edited["max_depth"] = 9.into();
        assert!(matches!(
            Split::from_json(&edited.to_string()),
            Err(SplitError::Malformed { .. })
        ));
        assert_eq!(Split::from_json(&a.to_json()).unwrap(), a);
    }

    #[test]
    fn joined_worst_case_trees_match_the_searchs_trees() {
        let games = [
            (Rules::new(3, "1234", true, false).unwrap(), None),
            (Rules::new(3, "012345", false, false).unwrap(), None),
            (Rules::new(3, "0123456789", false, true).unwrap(), None),
            (Rules::new(3, "0123456789", false, false).unwrap(), Some(7)),
            (Rules::new(4, "123456", true, false).unwrap(), None),
        ];
        for (rules, max_depth) in games {
            let space = CodeSpace::new(rules.clone()).unwrap();
            for objective in [Objective::Worst, Objective::FewestWorst] {
                let options = SearchOptions::new(objective).with_max_depth(max_depth);
                let ((joined_tree, joined_stats), (tree, stats)) =
                    joined_and_searched(&space, &options);
                let what = format!("{rules} {objective:?} {max_depth:?}");
                assert_eq!(
                    (joined_stats.max, joined_stats.total),
                    (stats.max, stats.total),
                    "{what}"
                );
                // The fewest at worst leaves few ties, and the join breaks them as the search
                // does; the worst case may break its many ties otherwise (see the module).
                if objective == Objective::FewestWorst {
                    assert_eq!(joined_stats, stats, "{what}");
                    assert_eq!(joined_tree, tree, "{what}");
                }
            }
        }
    }

    #[test]
    fn an_impossible_worst_case_is_proven_by_the_join() {
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        for objective in [Objective::Worst, Objective::FewestWorst] {
            let options = SearchOptions::new(objective).with_max_depth(Some(3));
            let (_, joined) = split_and_join(&space, &options);
            assert!(matches!(joined, Joined::Impossible { max_depth: 3 }));
        }
    }

    #[test]
    fn a_false_count_at_the_worst_depth_is_refused() {
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        let options = SearchOptions::new(Objective::FewestWorst);
        let (split, jobs) = Split::plan(&space, &options).unwrap();
        let mut results: Vec<Option<JobResult>> = jobs
            .iter()
            .map(|job| Some(job.solve(&Progress::new(), &Stop::never()).unwrap()))
            .collect();
        let Joined::Found { stats, .. } = split.join(&results).unwrap() else {
            panic!("the join finds a tree");
        };
        // Move one secret of a part from the worst depth up a level in its claim only.
        let worst = stats.max as usize;
        let edited = results.iter_mut().flatten().any(|r| {
            let PartOutcome::Depths { columns } = &mut r.outcome else {
                return false;
            };
            let Some(c) = columns.iter_mut().find(|c| c.depth as usize == worst - 1) else {
                return false;
            };
            if c.at_limit() == 0 {
                return false;
            }
            c.histogram[worst - 2] -= 1;
            c.histogram[worst - 3] += 1;
            true
        });
        assert!(edited);
        assert!(matches!(
            split.join(&results),
            Err(SplitError::DisagreeWorst { .. })
        ));
    }

    #[test]
    fn absurd_depth_columns_are_refused() {
        let space = CodeSpace::new(Rules::new(3, "1234", true, false).unwrap()).unwrap();
        let (split, jobs) = Split::plan(&space, &SearchOptions::new(Objective::Worst)).unwrap();
        let results: Vec<Option<JobResult>> = jobs
            .iter()
            .map(|job| Some(job.solve(&Progress::new(), &Stop::never()).unwrap()))
            .collect();
        for depth in [0, u32::MAX] {
            let mut edited = results.clone();
            let Some(Some(r)) = edited.first_mut() else {
                panic!("a result");
            };
            let PartOutcome::Depths { columns } = &mut r.outcome else {
                panic!("a worst-case job answers with depth columns");
            };
            columns[0].depth = depth;
            assert!(
                matches!(split.join(&edited), Err(SplitError::Mismatch { .. })),
                "{depth}"
            );
        }
    }

    #[test]
    fn ranges_are_compact() {
        assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3, 7, 9-10");
        assert_eq!(ranges(&[4]), "4");
    }
}
