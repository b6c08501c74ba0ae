//! Joining the results: the deep parts settled, the root's first guess chosen as the single
//! search chooses it, the tree assembled and replayed.

use std::collections::HashMap;

use super::deeper::{key, DeepPosition, Deeper};
use super::shared::{graft, solved_total, Derivation, FirstPart};
use super::values::{Derived, Value};
use super::{
    Column, DeepPart, JobEntry, JobResult, Joined, OpenGuess, OpenPart, PartOutcome, Split,
    SplitError, Task, RESULT_FORMAT,
};
use crate::feedback::Feedback;
use crate::space::CodeSpace;
use crate::tree::{DecisionTree, Objective, Search, TreeStats};

impl Split {
    /// Joins one result per job of every round so far (`None` for those missing) into the
    /// tree the search of the whole game finds: for each first guess its parts' totals add up,
    /// the best first guess is chosen as the search chooses it, and the tree is replayed before
    /// it is returned. When round 1 is in and parts split deeper have no round 2 yet, returns
    /// that round's jobs instead ([`Joined::Round`]).
    pub fn join(&self, results: &[Option<JobResult>]) -> Result<Joined, SplitError> {
        let space = super::exact_space(self.rules.clone())?;
        let Rounds {
            derived,
            round,
            next,
            jobs,
        } = self.rounds(&space, results, false)?;
        if !next.is_empty() {
            return Ok(Joined::Round {
                round: round + 1,
                jobs: next.into_iter().map(|e| self.job(e)).collect(),
                standing: self.standing_of(&space, results, derived),
            });
        }
        let settled = derived.parts;
        let parts: Vec<&JobResult> = self
            .jobs
            .iter()
            .filter(|e| e.task == Task::Part)
            .filter_map(|e| results[e.index].as_ref())
            .chain(&settled)
            .collect();
        let every = || results.iter().take(jobs).flatten();
        let nodes = every().map(|r| r.nodes).sum();
        let seconds = every().map(|r| r.seconds).sum();
        let chosen = if self.objective == Objective::Average {
            self.choose_average(space.len() as u64, &parts)
        } else {
            self.choose_depth(&space, &parts)?
        };
        let Some(chosen) = chosen else {
            return Ok(Joined::Impossible {
                max_depth: self.max_depth.unwrap_or(0),
            });
        };
        let (tree, stats) = self.assemble(&space, &chosen.guess, &chosen.parts)?;
        chosen.check(&stats)?;
        Ok(Joined::Found {
            tree,
            stats,
            nodes,
            seconds,
            jobs,
        })
    }

    /// Every round so far, each derived from the results of those before it, up to the first
    /// that none of its jobs has a result for yet ([`Rounds::next`]; none once every part is
    /// settled). Each result in is checked against the job derived. A round with only some of
    /// its results is refused, the missing jobs named, unless `partial`: then its results
    /// count too, and the rounds stop there (how far a round still running has got).
    pub(super) fn rounds(
        &self,
        space: &CodeSpace,
        results: &[Option<JobResult>],
        partial: bool,
    ) -> Result<Rounds, SplitError> {
        let check = |round: &[JobEntry], so_far: usize| {
            if partial {
                self.check_answers(round, results)
            } else {
                self.check_round(round, results, so_far)
            }
        };
        check(&self.jobs, self.jobs.len())?;
        let mut known: Vec<JobEntry> = self.jobs.clone();
        let mut round = 1;
        loop {
            let mut derived = self.settle(space, &known, results)?;
            let next = numbered(std::mem::take(&mut derived.wanted), known.len());
            if next.iter().all(|e| missing(results, e.index)) {
                return Ok(Rounds {
                    derived,
                    round,
                    next,
                    jobs: known.len(),
                });
            }
            round += 1;
            known.extend(next.iter().cloned());
            check(&next, known.len())?;
        }
    }

    /// What the results of `known` jobs (those in checked by the caller) derive: the parts
    /// split deeper they settle, each as if one job had solved it whole, and what they prove
    /// of the others; and the jobs that positions below the others still want (numbered from 0,
    /// in the order derived), none once every part is settled.
    pub(super) fn settle(
        &self,
        space: &CodeSpace,
        known: &[JobEntry],
        results: &[Option<JobResult>],
    ) -> Result<Derivation, SplitError> {
        let done: HashMap<String, &JobResult> = known
            .iter()
            .filter(|e| e.task != Task::Part)
            .filter_map(|e| Some((key(e), results.get(e.index)?.as_ref()?)))
            .collect();
        let mut deeper = Deeper::new(space, self.options(), self.heavy, done);
        let mut derived = Derivation {
            parts: Vec::new(),
            open: Vec::new(),
            best: Vec::new(),
            wanted: Vec::new(),
        };
        for d in &self.deeper {
            let part = first_part(self, space, d)?;
            match deeper.node(&DeepPosition::part(space, &part))? {
                Derived::Value(value) => derived.parts.extend(self.part_result(d, value)),
                Derived::Waiting { lower, best, open } => {
                    let best = best.and_then(|b| self.part_result(d, *b));
                    let rules = space.rules();
                    derived.open.push(OpenPart {
                        part: d.clone(),
                        lower,
                        upper: best.as_ref().and_then(solved_total),
                        guesses: open
                            .into_iter()
                            .map(|(g, lower)| OpenGuess {
                                guess: rules.format_code(&space.code(g as usize)),
                                lower,
                            })
                            .collect(),
                    });
                    derived.best.extend(best);
                }
            }
        }
        derived.wanted = deeper.wanted;
        Ok(derived)
    }

    /// A subtree of part `d` as if one job had solved the part to it; `None` for a bound (a
    /// part has none to be ruled out by).
    fn part_result(&self, d: &DeepPart, value: Value) -> Option<JobResult> {
        let Value::Tree {
            total,
            histogram,
            tree,
            index,
        } = value
        else {
            return None;
        };
        Some(JobResult {
            format: RESULT_FORMAT.to_string(),
            fingerprint: self.fingerprint.clone(),
            entry: JobEntry {
                index,
                guess: d.guess.clone(),
                feedback: d.feedback.clone(),
                size: d.size,
                task: Task::Part,
            },
            outcome: PartOutcome::Solved {
                total,
                worst: histogram.len() as u32,
                histogram,
                tree,
                unreduced: None,
            },
            nodes: 0,
            seconds: 0.0,
            cpu_seconds: None,
            peak_bytes: None,
            tightened: None,
            kernel: None,
            host: None,
        })
    }

    /// Checks that each job of `round` with a result is answered by it.
    pub(super) fn check_answers(
        &self,
        round: &[JobEntry],
        results: &[Option<JobResult>],
    ) -> Result<(), SplitError> {
        for e in round {
            if let Some(Some(r)) = results.get(e.index) {
                self.check_answer(e, r)?;
            }
        }
        Ok(())
    }

    /// Checks that every job of `round` has a result that answers it: the missing ones are
    /// named, of `so_far` jobs in all.
    fn check_round(
        &self,
        round: &[JobEntry],
        results: &[Option<JobResult>],
        so_far: usize,
    ) -> Result<(), SplitError> {
        let absent: Vec<usize> = round
            .iter()
            .map(|e| e.index)
            .filter(|&i| missing(results, i))
            .collect();
        if !absent.is_empty() {
            return Err(SplitError::Missing {
                missing: absent,
                jobs: so_far,
            });
        }
        self.check_answers(round, results)
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
                    _ => possible = false,
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

    /// Each first guess's depth under a worst-case objective: one more than its parts' largest
    /// fewest; a guess with a part that no depth fits is left out.
    fn guess_depths(&self, results: &[&JobResult]) -> Result<Vec<(&str, u32)>, SplitError> {
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
                    (_, None) => None,
                    (_, _) => {
                        return Err(SplitError::Mismatch {
                            index: r.entry.index,
                            reason: "it answers the average objective, not the worst case".into(),
                        })
                    }
                };
            }
            if let Some(d) = depth {
                depths.push((guess, d));
            }
        }
        Ok(depths)
    }

    /// A worst-case objective's first guess and its parts' subtrees: the least depth `D` some
    /// first guess meets, then among the guesses that meet it the fewest secrets at `D` (for the
    /// fewest at worst) and the smallest total, then the earlier in the order the search tries
    /// them at `D`. `None` when no first guess fits the depth limit.
    fn choose_depth<'r>(
        &self,
        space: &CodeSpace,
        results: &[&'r JobResult],
    ) -> Result<Option<Chosen<'r>>, SplitError> {
        let depths = self.guess_depths(results)?;
        let Some(depth) = depths.iter().map(|&(_, d)| d).min() else {
            return Ok(None);
        };
        let options = self.options();
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
            let cost = match self.objective {
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
    pub(super) fn assemble(
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
        let length = self.rules.length();
        let mut children = Vec::new();
        for (r, tree) in parts {
            let feedback =
                Feedback::parse(&r.entry.feedback, length).map_err(|e| SplitError::Mismatch {
                    index: r.entry.index,
                    reason: e.to_string(),
                })?;
            children.push((feedback, *tree, r.entry.index));
        }
        let tree = graft(&self.rules, guess, &children)?;
        let stats = tree.verify_in(space).map_err(SplitError::Tree)?;
        Ok((tree, stats))
    }
}

/// What [`Split::rounds`] derives.
pub(super) struct Rounds {
    /// What the results of the rounds' jobs derive.
    pub(super) derived: Derivation,
    /// How many rounds there are (round 1 is the split's).
    pub(super) round: usize,
    /// The next round's jobs, numbered after the others: none has a result yet.
    pub(super) next: Vec<JobEntry>,
    /// How many jobs the rounds have in all.
    pub(super) jobs: usize,
}

/// `entries` numbered from `start` in their order, as a round's jobs.
fn numbered(entries: Vec<JobEntry>, start: usize) -> Vec<JobEntry> {
    entries
        .into_iter()
        .enumerate()
        .map(|(i, mut e)| {
            e.index = start + i;
            e
        })
        .collect()
}

/// Whether job `index` has no result.
fn missing(results: &[Option<JobResult>], index: usize) -> bool {
    !matches!(results.get(index), Some(Some(_)))
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

impl Chosen<'_> {
    /// Checks the replayed tree against what the results claim.
    fn check(&self, stats: &TreeStats) -> Result<(), SplitError> {
        if stats.total != self.total {
            return Err(SplitError::Disagree {
                claimed: self.total,
                replayed: stats.total,
            });
        }
        if let Some((worst, at_worst)) = self.worst {
            if (stats.max, stats.at_worst) != (worst, at_worst) {
                return Err(SplitError::DisagreeWorst {
                    claimed: worst,
                    claimed_at_worst: at_worst,
                    replayed: stats.max,
                    replayed_at_worst: stats.at_worst,
                });
            }
        }
        Ok(())
    }
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

/// The first-level part a deep part names.
pub(super) fn first_part(
    split: &Split,
    space: &CodeSpace,
    d: &DeepPart,
) -> Result<FirstPart, SplitError> {
    let bad = |reason: String| SplitError::Malformed {
        kind: "split manifest",
        reason,
    };
    let guess = split
        .rules
        .parse_code(&d.guess)
        .ok()
        .and_then(|c| space.index_of(&c))
        .ok_or_else(|| bad(format!("{:?} is not a code of its rules", d.guess)))?;
    let feedback = Feedback::parse(&d.feedback, space.length())
        .map_err(|e| bad(format!("part {} {}: {e}", d.guess, d.feedback)))?;
    let set = space.filter(&space.all(), guess, feedback);
    if set.len() != d.size {
        return Err(bad(format!(
            "part {} {} does not hold {} secrets",
            d.guess, d.feedback, d.size
        )));
    }
    Ok(FirstPart {
        guess: guess as u32,
        feedback,
        set,
    })
}
