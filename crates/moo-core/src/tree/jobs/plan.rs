//! Planning a split: the first-level parts, which of them go deeper, round 1's jobs, and the
//! manifest that names them.

use std::collections::HashMap;

use super::deeper::{heavy_parts, DeepPosition, Deeper};
use super::shared::FirstPart;
use super::{
    parse, DeepPart, Job, JobEntry, JobResult, Split, SplitError, Task, JOB_FORMAT, SPLIT_FORMAT,
};
use crate::space::CodeSpace;
use crate::tree::{Objective, Search, SearchOptions};

/// How a split cuts the search into jobs.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct SplitOptions {
    /// The largest share of the whole run's work a first-level part may be estimated to hold
    /// before it is split at its second guess (the estimate grows as the square of the part's
    /// size); `None` keeps every part whole. Only the average objective without a depth limit
    /// splits deeper.
    pub share: Option<f64>,
}

/// The share [`SplitOptions`] aims at by default: 2% of the run.
pub const DEFAULT_SHARE: f64 = 0.02;

impl Default for SplitOptions {
    fn default() -> SplitOptions {
        SplitOptions {
            share: Some(DEFAULT_SHARE),
        }
    }
}

impl SplitOptions {
    /// Parts estimated above `share` of the run go deeper (`None`: none does).
    pub fn with_share(mut self, share: Option<f64>) -> SplitOptions {
        self.share = share;
        self
    }
}

/// Every part the first guesses of `order` leave, in that order: one per guess and feedback
/// other than the win.
fn first_parts(space: &CodeSpace, order: &[u32]) -> Vec<FirstPart> {
    let all = space.all();
    let mut parts = Vec::new();
    for &guess in order {
        for (feedback, set) in space.partition(guess as usize, &all) {
            if !feedback.is_win(space.length()) {
                parts.push(FirstPart {
                    guess,
                    feedback,
                    set,
                });
            }
        }
    }
    parts
}

impl Split {
    /// Lists round 1's jobs of the search of `space` under `options`: one per first guess the
    /// search would try and feedback that guess can get, besides the win, except that a part
    /// estimated above `how.share` of the run (average objective, no depth limit) is split at
    /// its second guess: its round 1 solves the pieces its first second guess leaves, and the
    /// join writes round 2. Returns the manifest and every job of round 1, in the same order.
    pub fn plan(
        space: &CodeSpace,
        options: &SearchOptions,
        how: &SplitOptions,
    ) -> Result<(Split, Vec<Job>), SplitError> {
        let order = Search::whole(space).options(options).first_guesses(None)?;
        let rules = space.rules();
        let parts = first_parts(space, &order);
        let deeper_allowed = options.objective == Objective::Average && options.max_depth.is_none();
        let (heavy, threshold) = match how.share {
            Some(share) if deeper_allowed => heavy_parts(&parts, share),
            _ => (vec![false; parts.len()], u64::MAX),
        };
        let mut jobs = Vec::new();
        let mut deeper = Vec::new();
        // Round 1 of a part split deeper is what its positions need with no result in yet.
        let mut below = Deeper::new(space, options.clone(), threshold, HashMap::new());
        for (part, heavy) in parts.iter().zip(heavy) {
            let guess = rules.format_code(&space.code(part.guess as usize));
            let feedback = part.feedback.to_string();
            if !heavy {
                jobs.push(JobEntry {
                    index: jobs.len(),
                    guess,
                    feedback,
                    size: part.set.len(),
                    task: Task::Part,
                });
                continue;
            }
            below.node(&DeepPosition::part(space, part))?;
            for mut e in below.wanted.drain(..) {
                e.index = jobs.len();
                jobs.push(e);
            }
            deeper.push(DeepPart {
                guess,
                feedback,
                size: part.set.len(),
            });
        }
        let mut split = Split {
            format: SPLIT_FORMAT.to_string(),
            fingerprint: String::new(),
            rules: rules.clone(),
            objective: options.objective,
            guesses: options.guesses,
            max_depth: options.max_depth,
            first_guesses: order
                .iter()
                .map(|&g| rules.format_code(&space.code(g as usize)))
                .collect(),
            deeper,
            heavy: threshold,
            jobs,
        };
        split.fingerprint = split.compute_fingerprint();
        let jobs = split.jobs.iter().map(|e| split.job(e.clone())).collect();
        Ok((split, jobs))
    }

    /// The search options the split was planned with.
    pub fn options(&self) -> SearchOptions {
        SearchOptions::new(self.objective)
            .with_max_depth(self.max_depth)
            .with_guesses(self.guesses)
    }

    /// The job file of one entry.
    pub fn job(&self, entry: JobEntry) -> Job {
        Job {
            format: JOB_FORMAT.to_string(),
            fingerprint: self.fingerprint.clone(),
            jobs: self.jobs.len(),
            rules: self.rules.clone(),
            objective: self.objective,
            guesses: self.guesses,
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
        format!("{:016x}", crate::text::fnv1a(&text))
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

    /// Checks that `result` is this split's answer to `entry` (a job of round 1, or of a later
    /// round as the join derived it).
    pub(super) fn check_answer(
        &self,
        entry: &JobEntry,
        result: &JobResult,
    ) -> Result<(), SplitError> {
        let index = entry.index;
        if result.fingerprint != self.fingerprint {
            return Err(SplitError::OtherSplit {
                what: format!("the result of job {index}"),
                found: result.fingerprint.clone(),
                wanted: self.fingerprint.clone(),
            });
        }
        if *entry != result.entry {
            return Err(SplitError::Mismatch {
                index,
                reason: format!(
                    "the result answers {}, but the job is {}",
                    describe(&result.entry),
                    describe(entry)
                ),
            });
        }
        if result.tightened.is_some() && !matches!(entry.task, Task::Guesses { .. }) {
            return Err(SplitError::Mismatch {
                index,
                reason: "only a run of later guesses can run under a lowered bound".into(),
            });
        }
        Ok(())
    }

    /// Checks that `result` is this split's answer to round 1's job `index`.
    pub fn check_result(&self, index: usize, result: &JobResult) -> Result<(), SplitError> {
        match self.jobs.get(index) {
            Some(entry) => self.check_answer(entry, result),
            None if result.fingerprint == self.fingerprint => Ok(()),
            None => Err(SplitError::OtherSplit {
                what: format!("the result of job {index}"),
                found: result.fingerprint.clone(),
                wanted: self.fingerprint.clone(),
            }),
        }
    }
}

/// A job as a reader names it: `01234 1B2C (1260 secrets)`, with what follows if any.
pub(super) fn describe(e: &JobEntry) -> String {
    format!(
        "{} {}{} ({} secrets)",
        e.guess,
        e.feedback,
        e.then(),
        e.size
    )
}

impl JobEntry {
    /// What the job does below its part, as a reader names it: empty for a whole part, else
    /// ` then 01356 1B0C then 24570 0B1C,0B2C with 12 to spare` (the way to the position, its
    /// guess and the feedbacks of the pieces, and the spare if bounded), or ` then 01356 1B0C,
    /// 40 guesses 02345..34567 below 1234` (a run of the position's guesses and its bound).
    pub fn then(&self) -> String {
        let (Task::Pieces { path, .. } | Task::Guesses { path, .. }) = &self.task else {
            return String::new();
        };
        let mut text = String::new();
        for s in path {
            text.push_str(&format!(" then {} {}", s.guess, s.feedback));
        }
        match &self.task {
            Task::Pieces {
                guess,
                pieces,
                spare,
                ..
            } => {
                let feedbacks: Vec<&str> = pieces.iter().map(|p| p.feedback.as_str()).collect();
                text.push_str(&format!(" then {guess} {}", feedbacks.join(",")));
                if let Some(s) = spare {
                    text.push_str(&format!(" with {s} to spare"));
                }
            }
            Task::Guesses { guesses, below, .. } => {
                let (first, last) = (guesses.first(), guesses.last());
                text.push_str(&format!(
                    ", {} guesses {}..{} below {below}",
                    guesses.len(),
                    first.map_or("", String::as_str),
                    last.map_or("", String::as_str)
                ));
            }
            Task::Part => {}
        }
        text
    }
}
