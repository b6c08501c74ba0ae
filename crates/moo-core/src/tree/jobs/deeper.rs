//! Parts split at their second guess: which parts go deeper, the pieces of round 1, the
//! guesses of round 2, and the part each settles into once its rounds are in.
//!
//! Which parts: the cost of a part's search grows much faster than its size, so a part's share
//! of the run is estimated as its size squared over the sum of every part's, and a part above
//! the share asked for goes deeper. Round 1 solves the pieces under the part's first second
//! guess (the one its search tries first, with the least lower bound), each alone and without
//! a bound, as the part's search solves them; their sum is the bound round 2 must beat. Its
//! jobs try each other second guess whose lower bound is below that bound, in the part's own
//! way, so most fail early with a proven lower bound.

use super::join::graft;
use super::plan::FirstPart;
use super::{DeepPart, JobEntry, JobResult, PartOutcome, Split, SplitError, Task};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::space::CodeSpace;
use crate::tree::search::root_guess_bound;

/// Which of `parts` go deeper: those whose estimated share of the run exceeds `share`.
/// A part of one secret is solved by its next guess and has no pieces, so it never goes deeper.
pub(super) fn heavy_parts(parts: &[FirstPart], share: f64) -> Vec<bool> {
    let cost = |p: &FirstPart| (p.set.len() as f64).powi(2);
    let whole: f64 = parts.iter().map(cost).sum();
    parts
        .iter()
        .map(|p| p.set.len() > 1 && cost(p) > share * whole)
        .collect()
}

/// The pieces `second` leaves of `set`, the win left out, in feedback order.
pub(super) fn pieces(space: &CodeSpace, set: &CodeSet, second: u32) -> Vec<(Feedback, CodeSet)> {
    space
        .partition(second as usize, set)
        .into_iter()
        .filter(|(f, _)| !f.is_win(space.length()))
        .collect()
}

/// How many second guesses of a deep part round 1 solves, the first ones in the part's order:
/// the best is often the second or third, and round 2's jobs prune with the best of them.
pub(super) const FIRST_SECONDS: usize = 3;

/// One deep part's round 1: for each second guess it solved, in the part's order, the guess
/// and its pieces' results in feedback order.
fn round_one<'r>(
    d: &DeepPart,
    results: &'r [Option<JobResult>],
    split: &'r Split,
) -> Vec<(&'r str, Vec<&'r JobResult>)> {
    let mut solved: Vec<(&str, Vec<&JobResult>)> = Vec::new();
    for e in split
        .jobs
        .iter()
        .filter(|e| e.guess == d.guess && e.feedback == d.feedback)
    {
        let (Task::Piece { guess, .. }, Some(Some(r))) = (&e.task, results.get(e.index)) else {
            continue;
        };
        match solved.last_mut() {
            Some((g, pieces)) if *g == guess.as_str() => pieces.push(r),
            _ => solved.push((guess, vec![r])),
        }
    }
    solved
}

/// The part's total under one second guess, from round 1's pieces: each secret's second guess,
/// and the pieces' totals after it.
fn pieces_total(d: &DeepPart, pieces: &[&JobResult]) -> Result<u64, SplitError> {
    let mut total = d.size as u64;
    for r in pieces {
        match &r.outcome {
            // What a piece's total claims must be what its histogram says: the join picks the
            // second guess from the totals and replays only the trees it keeps.
            PartOutcome::Solved {
                total: t,
                histogram,
                ..
            } if *t == histogram_total(histogram) => total += t,
            PartOutcome::Solved { .. } => {
                return Err(SplitError::Mismatch {
                    index: r.entry.index,
                    reason: "its total is not what its histogram adds up to".into(),
                })
            }
            _ => {
                return Err(SplitError::Mismatch {
                    index: r.entry.index,
                    reason: "a piece of a part answers without its subtree".into(),
                })
            }
        }
    }
    Ok(total)
}

/// The best second guess round 1 solved: its position among them, and the part's total.
fn round_one_best(
    d: &DeepPart,
    solved: &[(&str, Vec<&JobResult>)],
) -> Result<(usize, u64), SplitError> {
    let mut best: Option<(usize, u64)> = None;
    for (k, (_, pieces)) in solved.iter().enumerate() {
        let total = pieces_total(d, pieces)?;
        if best.is_none_or(|(_, t)| total < t) {
            best = Some((k, total));
        }
    }
    best.ok_or_else(|| SplitError::Malformed {
        kind: "split manifest",
        reason: format!("part {} {} has no piece", d.guess, d.feedback),
    })
}

/// Round 2's jobs, numbered after round 1's: every second guess of every deep part after those
/// round 1 solved, whose lower bound (sharpened as the part's search sharpens it before it
/// searches anything) is below the part's best total so far, tried below that total. Round 1's
/// results must all be there (checked by the caller).
pub(super) fn round_two(
    split: &Split,
    space: &CodeSpace,
    results: &[Option<JobResult>],
) -> Result<Vec<JobEntry>, SplitError> {
    let options = split.options();
    let mut jobs = Vec::new();
    for d in &split.deeper {
        let (_, bound) = round_one_best(d, &round_one(d, results, split))?;
        let part = first_part(split, space, d)?;
        let history = part.history(space);
        for (guess, lower) in d.seconds.iter().skip(FIRST_SECONDS) {
            if *lower >= bound {
                continue;
            }
            let code = code_of(split, space, guess)?;
            if root_guess_bound(space, &history, &part.set, &options, code, bound)? >= bound {
                continue;
            }
            jobs.push(JobEntry {
                index: split.jobs.len() + jobs.len(),
                guess: d.guess.clone(),
                feedback: d.feedback.clone(),
                size: d.size,
                task: Task::Guess {
                    guess: guess.clone(),
                    below: bound,
                },
            });
        }
    }
    Ok(jobs)
}

/// The first-level part a deep part names.
fn first_part(split: &Split, space: &CodeSpace, d: &DeepPart) -> Result<FirstPart, SplitError> {
    let guess = code_of(split, space, &d.guess)?;
    let feedback =
        Feedback::parse(&d.feedback, space.length()).map_err(|e| SplitError::Malformed {
            kind: "split manifest",
            reason: format!("part {} {}: {e}", d.guess, d.feedback),
        })?;
    let set = space.filter(&space.all(), guess as usize, feedback);
    if set.len() != d.size {
        return Err(SplitError::Malformed {
            kind: "split manifest",
            reason: format!(
                "part {} {} does not hold {} secrets",
                d.guess, d.feedback, d.size
            ),
        });
    }
    Ok(FirstPart {
        guess,
        feedback,
        set,
    })
}

/// The index of a code the manifest names.
fn code_of(split: &Split, space: &CodeSpace, text: &str) -> Result<u32, SplitError> {
    split
        .rules
        .parse_code(text)
        .ok()
        .and_then(|c| space.index_of(&c))
        .map(|i| i as u32)
        .ok_or_else(|| SplitError::Malformed {
            kind: "split manifest",
            reason: format!("{text:?} is not a code of its rules"),
        })
}

/// Each deep part settled as if one job had solved it whole: the cheapest second guess (the
/// earliest in the part's order among equals), with its subtree. `second` holds round 2's
/// results, one per job of [`round_two`], checked by the caller.
pub(super) fn settle(
    split: &Split,
    space: &CodeSpace,
    results: &[Option<JobResult>],
    second: &[&JobResult],
) -> Result<Vec<JobResult>, SplitError> {
    let mut settled = Vec::new();
    for d in &split.deeper {
        let solved = round_one(d, results, split);
        let (k, mut best_total) = round_one_best(d, &solved)?;
        let (guess, pieces) = &solved[k];
        // Round 1's best holds unless a later second guess beat it.
        let mut choice = None;
        for r in second
            .iter()
            .filter(|r| r.entry.guess == d.guess && r.entry.feedback == d.feedback)
        {
            if let Some(total) = guess_total(r)? {
                if total < best_total {
                    best_total = total;
                    choice = Some(r);
                }
            }
        }
        let best = match choice {
            Some(r) => r.outcome.clone(),
            None => assemble_pieces(split, space, d, guess, pieces)?,
        };
        let mut result = pieces[0].clone();
        result.entry = JobEntry {
            index: pieces[0].entry.index,
            guess: d.guess.clone(),
            feedback: d.feedback.clone(),
            size: d.size,
            task: Task::Part,
        };
        result.outcome = best;
        settled.push(result);
    }
    Ok(settled)
}

/// A round 2 result's total when it beat its bound, `None` when it proved it cannot.
fn guess_total(r: &JobResult) -> Result<Option<u64>, SplitError> {
    let Task::Guess { below, .. } = r.entry.task else {
        return Ok(None);
    };
    let bad = |reason: &str| SplitError::Mismatch {
        index: r.entry.index,
        reason: reason.to_string(),
    };
    match &r.outcome {
        PartOutcome::Solved { total, .. } if *total < below => Ok(Some(*total)),
        PartOutcome::Solved { .. } => Err(bad("it claims a tree at or above its bound")),
        PartOutcome::AtLeast { bound } if *bound >= below => Ok(None),
        PartOutcome::AtLeast { .. } => Err(bad("it claims a lower bound below its bound")),
        _ => Err(bad("it answers another kind of job")),
    }
}

/// The part's subtree under the second guess `second`, from its round 1 pieces.
fn assemble_pieces(
    split: &Split,
    space: &CodeSpace,
    d: &DeepPart,
    second: &str,
    pieces: &[&JobResult],
) -> Result<PartOutcome, SplitError> {
    let guess = space.code(code_of(split, space, second)? as usize);
    let mut children = Vec::new();
    let mut histogram = vec![0u64];
    let mut covered = 0;
    for r in pieces {
        let (
            Task::Piece { feedback, .. },
            PartOutcome::Solved {
                tree, histogram: h, ..
            },
        ) = (&r.entry.task, &r.outcome)
        else {
            continue;
        };
        let f = Feedback::parse(feedback, space.length()).map_err(|e| SplitError::Mismatch {
            index: r.entry.index,
            reason: e.to_string(),
        })?;
        children.push((f, tree, r.entry.index));
        covered += r.entry.size;
        if histogram.len() < h.len() + 1 {
            histogram.resize(h.len() + 1, 0);
        }
        for (k, &c) in h.iter().enumerate() {
            histogram[k + 1] += c;
        }
    }
    // The second guess itself, when it is one of the part's secrets, is solved at once.
    histogram[0] = (d.size - covered.min(d.size)) as u64;
    Ok(PartOutcome::Solved {
        total: histogram_total(&histogram),
        worst: histogram.len() as u32,
        histogram,
        tree: graft(split, guess, &children)?,
        unreduced: None,
    })
}

/// Guesses summed over the secrets of `histogram[k - 1]` secrets needing `k` guesses each.
fn histogram_total(histogram: &[u64]) -> u64 {
    histogram
        .iter()
        .enumerate()
        .map(|(k, &c)| (k as u64 + 1) * c)
        .sum()
}
