//! Running one job: the position its history leaves, searched as the search of the whole game
//! searches it there.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use web_time::Instant;

use super::read::read_run;
use super::values::Value;
use super::{
    parse, Column, Job, JobEntry, JobResult, PartOutcome, Piece, Split, SplitError, Task,
    Unreduced, JOB_FORMAT, RESULT_FORMAT,
};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::tree::search::{PartPlans, PlanBelow};
use crate::tree::SearchError;
use crate::tree::{
    DecisionTree, Node, NodeId, Objective, PlanMove, Progress, Search, SearchOptions,
    SearchOutcome, SetPlan,
};

impl Job {
    /// Reads a job file, checking its format.
    pub fn from_json(text: &str) -> Result<Job, SplitError> {
        parse(text, "job", JOB_FORMAT, |j: &Job| &j.format)
    }

    /// The job as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Checks that the job is one of `split`'s: round 1's as the manifest lists it, or a later
    /// round's of the same split (whose entry the join checks again against the results it
    /// derives from).
    pub fn check(&self, split: &Split) -> Result<(), SplitError> {
        if self.fingerprint != split.fingerprint {
            return Err(SplitError::OtherSplit {
                what: format!("job {}", self.entry.index),
                found: self.fingerprint.clone(),
                wanted: split.fingerprint.clone(),
            });
        }
        let listed = match split.jobs.get(self.entry.index) {
            Some(entry) => *entry == self.entry,
            None => split
                .deeper
                .iter()
                .any(|d| d.guess == self.entry.guess && d.feedback == self.entry.feedback),
        };
        if split.job(self.entry.clone()) != *self || !listed {
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

    /// Proves what the job asks of its position, exactly as the search of the whole game
    /// solves it there (same objective and tie rule, same symmetries): a part's optimal
    /// subtree with one guess less of the depth limit, a piece's first optimum, or a second
    /// guess's subtree below its bound. Runs on the current rayon pool; returns
    /// [`crate::tree::SearchError::Stopped`] soon after `stop` fires.
    pub fn solve(&self, progress: &Progress, stop: &Stop) -> Result<JobResult, SplitError> {
        self.solve_in(
            &super::exact_space(self.rules.clone())?,
            progress,
            stop,
            None,
        )
    }

    /// [`Job::solve`] in `space`, the code space of the job's rules, built once for many jobs
    /// run in one process, with a search cache of `cache_bytes` (default:
    /// [`crate::tree::DEFAULT_CACHE_BYTES`]). A job of more than minutes can fill the default
    /// cache, and a full cache forgets sets that the search then meets again: more cache, where the machine has
    /// it, is less time, never another result.
    pub fn solve_in(
        &self,
        space: &CodeSpace,
        progress: &Progress,
        stop: &Stop,
        cache_bytes: Option<u64>,
    ) -> Result<JobResult, SplitError> {
        self.solve_under(space, progress, stop, cache_bytes, &Ceiling::new())
    }

    /// [`Job::solve_in`], a run of later guesses ([`Task::Guesses`]) also kept below
    /// `ceiling`, which the caller lowers while it runs as other runs of its position find
    /// trees ([`Job::bound_from`]): each guess after that needs only to beat theirs, and is
    /// refuted far sooner. The result's total, if it finds a tree, is the same; if it finds
    /// none, its lower bound may be the lower ceiling ([`JobResult::tightened`]), which the
    /// join accepts only beside a run that found a tree below it. Other jobs ignore `ceiling`.
    pub fn solve_under(
        &self,
        space: &CodeSpace,
        progress: &Progress,
        stop: &Stop,
        cache_bytes: Option<u64>,
        ceiling: &Ceiling,
    ) -> Result<JobResult, SplitError> {
        let history = self.history()?;
        let candidates: CodeSet = history.candidates(space);
        let deeper = !matches!(self.entry.task, Task::Part);
        if deeper && (self.objective != Objective::Average || self.max_depth.is_some()) {
            return Err(
                self.bad("only the average objective without a depth limit splits deeper".into())
            );
        }
        let start = Instant::now();
        let options = SearchOptions::new(self.objective)
            .with_guesses(self.guesses)
            .with_cache_bytes(cache_bytes);
        let at = JobSearch {
            space,
            history: &history,
            candidates: &candidates,
            progress,
            stop,
        };
        let mut tightened = None;
        let outcome = match &self.entry.task {
            Task::Part => {
                self.check_size(candidates.len(), self.entry.size)?;
                self.solve_part(&at, options)?
            }
            Task::Pieces {
                guess,
                pieces,
                spare,
                ..
            } => {
                let size = pieces.iter().map(|p| p.size).sum();
                self.check_size(size, self.entry.size)?;
                self.solve_pieces(&at, &options, guess, pieces, *spare)?
            }
            Task::Guesses { guesses, below, .. } => {
                self.check_size(candidates.len(), self.entry.size)?;
                let (outcome, bound) =
                    self.solve_guesses(&at, &options, guesses, *below, ceiling)?;
                tightened = Some(bound).filter(|b| b < below);
                outcome
            }
        };
        Ok(JobResult {
            format: RESULT_FORMAT.to_string(),
            fingerprint: self.fingerprint.clone(),
            entry: self.entry.clone(),
            outcome,
            nodes: progress.nodes(),
            seconds: start.elapsed().as_secs_f64(),
            cpu_seconds: None,
            peak_bytes: None,
            tightened,
            kernel: Some(crate::Kernel::active()),
            host: None,
        })
    }

    /// Refuses a position of another size than the job says.
    fn check_size(&self, found: usize, said: usize) -> Result<(), SplitError> {
        if found != said || found == 0 {
            return Err(self.bad(format!(
                "its history leaves {found} secrets, the job says {said}"
            )));
        }
        Ok(())
    }

    /// The pieces `guess` leaves at the position, one after another, each its first optimum
    /// below its lower bound plus what is left of `spare`; the first that cannot be ends the
    /// job with its proven lower bound.
    fn solve_pieces(
        &self,
        at: &JobSearch,
        options: &SearchOptions,
        guess: &str,
        pieces: &[Piece],
        spare: Option<u64>,
    ) -> Result<PartOutcome, SplitError> {
        let length = self.rules.length();
        let code = self
            .rules
            .parse_code(guess)
            .map_err(|e| self.bad(e.to_string()))?;
        let mut left = spare;
        let mut outcomes = Vec::new();
        for p in pieces {
            let feedback =
                Feedback::parse(&p.feedback, length).map_err(|e| self.bad(e.to_string()))?;
            if feedback.is_win(length) {
                return Err(self.bad("the winning feedback is not a piece".into()));
            }
            let mut history = at.history.clone();
            history.push(code, feedback);
            let set = at.space.filter_code(at.candidates, &code, feedback);
            self.check_size(set.len(), p.size)?;
            let below = left.map(|s| p.lower.saturating_add(s));
            let search = Search::part(at.space, &history, &set)
                .options(options)
                .progress(at.progress)
                .stop(at.stop)
                .below(below);
            match search.run()? {
                SearchOutcome::Found(PlanBelow { plan, .. }) => {
                    if plan.total < p.lower {
                        return Err(self.bad(format!(
                            "piece {} costs {}, below the lower bound {} the job gives it",
                            p.feedback, plan.total, p.lower
                        )));
                    }
                    left = left.map(|s| s - (plan.total - p.lower));
                    outcomes.push(self.solved(at.space, plan, None)?);
                }
                SearchOutcome::AtLeast { bound } => {
                    outcomes.push(PartOutcome::AtLeast { bound });
                    break;
                }
                outcome => return Err(unexpected(outcome)),
            }
        }
        Ok(PartOutcome::Pieces { pieces: outcomes })
    }

    /// The cheapest subtree of the position whose root plays one of `guesses`, if below
    /// `below` and `ceiling`, else a proven lower bound; and the bound it ended under.
    fn solve_guesses(
        &self,
        at: &JobSearch,
        options: &SearchOptions,
        guesses: &[String],
        below: u64,
        ceiling: &Ceiling,
    ) -> Result<(PartOutcome, u64), SplitError> {
        let indexes = guesses
            .iter()
            .map(|g| {
                let code = self
                    .rules
                    .parse_code(g)
                    .map_err(|e| self.bad(e.to_string()))?;
                at.space
                    .index_of(&code)
                    .map(|i| i as u32)
                    .ok_or_else(|| self.bad(format!("its guess {g} is not a code of the game")))
            })
            .collect::<Result<Vec<u32>, SplitError>>()?;
        let ceiling = || ceiling.get();
        let search = Search::part(at.space, at.history, at.candidates)
            .options(options)
            .progress(at.progress)
            .stop(at.stop)
            .below(Some(below))
            .guesses(&indexes, &ceiling);
        match search.run() {
            Ok(SearchOutcome::Found(PlanBelow { plan, bound })) => {
                Ok((self.solved(at.space, plan, None)?, bound))
            }
            Ok(SearchOutcome::AtLeast { bound }) => Ok((PartOutcome::AtLeast { bound }, bound)),
            Err(SearchError::NotTried { .. }) => {
                Err(self.bad("one of its guesses is not one the search tries there".into()))
            }
            Ok(outcome) => Err(unexpected(outcome)),
            Err(e) => Err(e.into()),
        }
    }

    /// Whether `other` is another run of this run's position: a [`Task::Guesses`] job at the
    /// same position under the same bound, with other guesses. `false` when this job is not a
    /// run.
    pub fn is_run_beside(&self, other: &JobEntry) -> bool {
        let (
            Task::Guesses { path, below, .. },
            Task::Guesses {
                path: their_path,
                below: their_below,
                ..
            },
        ) = (&self.entry.task, &other.task)
        else {
            return false;
        };
        other.guess == self.entry.guess
            && other.feedback == self.entry.feedback
            && other.task != self.entry.task
            && their_path == path
            && their_below == below
    }

    /// What `result`, of another run of this run's position ([`Job::is_run_beside`]), lets
    /// this run stay below: one more than its total, if it found a tree. A tree of that total
    /// still wins here if it comes first in the position's order, so the join picks the same
    /// tree whichever run ran first. `None` for any other result.
    pub fn bound_from(&self, result: &JobResult) -> Option<u64> {
        let Task::Guesses { below, .. } = &self.entry.task else {
            return None;
        };
        let ours = result.fingerprint == self.fingerprint && result.format == RESULT_FORMAT;
        if !ours || !self.is_run_beside(&result.entry) {
            return None;
        }
        match read_run(result, *below).ok()? {
            Value::Tree { total, .. } => Some(total + 1),
            Value::AtLeast(_) => None,
        }
    }

    /// The history the job's position follows: the first guess and its feedback, then the
    /// steps of a position below the part.
    fn history(&self) -> Result<History, SplitError> {
        let length = self.rules.length();
        let mut history = History::new();
        let feedback = |text: &str| {
            let f = Feedback::parse(text, length).map_err(|e| self.bad(e.to_string()))?;
            if f.is_win(length) {
                return Err(self.bad("the winning feedback is not a subproblem".into()));
            }
            Ok(f)
        };
        let code = |text: &str| {
            self.rules
                .parse_code(text)
                .map_err(|e| self.bad(e.to_string()))
        };
        history.push(code(&self.entry.guess)?, feedback(&self.entry.feedback)?);
        if let Task::Pieces { path, .. } | Task::Guesses { path, .. } = &self.entry.task {
            for step in path {
                history.push(code(&step.guess)?, feedback(&step.feedback)?);
            }
        }
        Ok(history)
    }

    fn bad(&self, reason: String) -> SplitError {
        SplitError::Mismatch {
            index: self.entry.index,
            reason,
        }
    }

    /// A whole first-level part, with one guess less of the depth limit.
    fn solve_part(
        &self,
        at: &JobSearch,
        options: SearchOptions,
    ) -> Result<PartOutcome, SplitError> {
        let left = self.max_depth.map(|d| d.saturating_sub(1));
        if left == Some(0) {
            return Ok(PartOutcome::Impossible { max_depth: 0 });
        }
        let options = options.with_max_depth(left);
        let JobSearch {
            space,
            history,
            candidates,
            progress,
            stop,
        } = *at;
        let search = Search::part(space, history, candidates)
            .options(&options)
            .progress(progress)
            .stop(stop);
        match search.run()? {
            SearchOutcome::Found(PartPlans::Columns(columns)) => {
                let columns = columns
                    .into_iter()
                    .map(|(depth, plan)| {
                        Ok(Column {
                            depth,
                            total: plan.total,
                            tree: self.tree_of(space, &plan)?,
                            histogram: plan.histogram,
                        })
                    })
                    .collect::<Result<_, SplitError>>()?;
                Ok(PartOutcome::Depths { columns })
            }
            SearchOutcome::Found(PartPlans::Plan { plan, unreduced }) => {
                self.solved(space, plan, unreduced)
            }
            SearchOutcome::Impossible { max_depth } => Ok(PartOutcome::Impossible { max_depth }),
        }
    }

    /// A solved outcome of `plan`, with the plan before the worst-case tie-break if any.
    fn solved(
        &self,
        space: &CodeSpace,
        plan: SetPlan,
        unreduced: Option<SetPlan>,
    ) -> Result<PartOutcome, SplitError> {
        let unreduced = match unreduced {
            Some(u) => Some(Unreduced {
                worst: u.worst,
                tree: self.tree_of(space, &u)?,
                histogram: u.histogram,
            }),
            None => None,
        };
        Ok(PartOutcome::Solved {
            total: plan.total,
            worst: plan.worst,
            tree: self.tree_of(space, &plan)?,
            histogram: plan.histogram,
            unreduced,
        })
    }

    fn tree_of(&self, space: &CodeSpace, plan: &SetPlan) -> Result<DecisionTree, SplitError> {
        plan_tree(space, &plan.moves)
            .ok_or_else(|| self.bad("the search's plan does not cover its position".into()))
    }
}

/// The position a job searches, and how the search reports and stops.
#[derive(Clone, Copy)]
struct JobSearch<'a> {
    space: &'a CodeSpace,
    history: &'a History,
    candidates: &'a CodeSet,
    progress: &'a Progress,
    stop: &'a Stop,
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
/// parts depth first in feedback order, as the search writes them. `None` if the moves do not
/// cover every part.
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

/// A bound shared with a running job, which may fall while it runs: the least of what
/// [`Job::bound_from`] gives from the results of other runs of its position, as they come in.
/// Clones share it.
#[derive(Debug, Clone)]
pub struct Ceiling(Arc<AtomicU64>);

impl Ceiling {
    /// No bound yet.
    pub fn new() -> Ceiling {
        Ceiling(Arc::new(AtomicU64::new(u64::MAX)))
    }

    /// Lowers it to `bound`, if that is lower.
    pub fn lower(&self, bound: u64) {
        self.0.fetch_min(bound, Ordering::Relaxed);
    }

    /// Its value now.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

impl Default for Ceiling {
    fn default() -> Ceiling {
        Ceiling::new()
    }
}

/// What a job makes of the outcomes of its search below a bound that give it no result: a stop
/// is the job's [`SearchError::Stopped`], so that its runner sees it as every other stop.
fn unexpected(outcome: SearchOutcome<PlanBelow, u64>) -> SplitError {
    match outcome {
        SearchOutcome::Stopped { .. } => SplitError::Search(SearchError::Stopped),
        SearchOutcome::Impossible { .. } => {
            unreachable!("a search below a bound has no depth limit")
        }
        SearchOutcome::Found(_) | SearchOutcome::AtLeast { .. } => {
            unreachable!("the caller takes what it found or proved")
        }
    }
}
