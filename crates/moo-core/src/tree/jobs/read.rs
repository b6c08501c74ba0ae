//! What a later round's result gives the position that asked for it, checked against what its
//! job asked: a refused result names its job and what is wrong with it.

use super::values::{histogram_total, Value};
use super::{JobResult, PartOutcome, SplitError, Task};

/// The values a [`Task::Pieces`] result gives its pieces, checked against what the job asked:
/// each total what its histogram adds up to, at least the piece's lower bound and below its
/// bound; a lower bound only at the end, at or above its bound.
pub(super) fn read_pieces(r: &JobResult) -> Result<Vec<Value>, SplitError> {
    let bad = |reason: &str| SplitError::Mismatch {
        index: r.entry.index,
        reason: reason.to_string(),
    };
    let (Task::Pieces { pieces, spare, .. }, PartOutcome::Pieces { pieces: outcomes }) =
        (&r.entry.task, &r.outcome)
    else {
        return Err(bad("it answers another kind of job"));
    };
    if outcomes.is_empty() || outcomes.len() > pieces.len() {
        return Err(bad("it answers another number of pieces than the job has"));
    }
    let mut left = *spare;
    let mut values = Vec::new();
    for (k, (p, o)) in pieces.iter().zip(outcomes).enumerate() {
        let limit = left.map(|s| p.lower.saturating_add(s));
        match o {
            PartOutcome::Solved {
                total,
                histogram,
                tree,
                ..
            } => {
                if *total < p.lower {
                    return Err(bad("a piece claims less than its proven lower bound"));
                }
                check_tree(*total, histogram, limit).map_err(bad)?;
                left = left.map(|s| s - (total - p.lower));
                values.push(Value::Tree {
                    total: *total,
                    histogram: histogram.clone(),
                    tree: tree.clone(),
                    index: r.entry.index,
                });
            }
            PartOutcome::AtLeast { bound } if k + 1 == outcomes.len() => match limit {
                Some(l) if *bound >= l => values.push(Value::AtLeast(*bound)),
                Some(_) => return Err(bad("it claims a lower bound below its bound")),
                None => return Err(bad("a piece without a bound claims a lower bound")),
            },
            _ => return Err(bad("a piece answers another kind of job")),
        }
    }
    if outcomes.len() < pieces.len() && !matches!(values.last(), Some(Value::AtLeast(_))) {
        return Err(bad("it answers only some of its pieces"));
    }
    Ok(values)
}

/// The value a [`Task::Guesses`] result gives its position, checked against what the job
/// asked: a tree whose total is what its histogram adds up to, below `below` (and below the
/// bound the run ended under, if lower), rooted at one of the job's guesses; or a lower bound
/// at or above `below`, or at or above the bound the run ended under
/// ([`JobResult::tightened`]), which the position then checks against its other runs.
pub(super) fn read_run(r: &JobResult, below: u64) -> Result<Value, SplitError> {
    let bad = |reason: &str| SplitError::Mismatch {
        index: r.entry.index,
        reason: reason.to_string(),
    };
    let Task::Guesses { guesses, .. } = &r.entry.task else {
        return Err(bad("it answers another kind of job"));
    };
    let below = match r.tightened {
        Some(t) if t < below => t,
        Some(_) => return Err(bad("it claims to have run under a bound not below its own")),
        None => below,
    };
    match &r.outcome {
        PartOutcome::Solved {
            total,
            histogram,
            tree,
            ..
        } => {
            check_tree(*total, histogram, Some(below)).map_err(bad)?;
            let root = tree.rules().format_code(&tree.root().guess);
            if !guesses.contains(&root) {
                return Err(bad("its tree opens with a guess the job did not try"));
            }
            Ok(Value::Tree {
                total: *total,
                histogram: histogram.clone(),
                tree: tree.clone(),
                index: r.entry.index,
            })
        }
        PartOutcome::AtLeast { bound } if *bound >= below => Ok(Value::AtLeast(*bound)),
        PartOutcome::AtLeast { .. } => Err(bad("it claims a lower bound below its bound")),
        _ => Err(bad("it answers another kind of job")),
    }
}

/// Why a result's tree cannot be what it claims, if it cannot: a total other than what its
/// histogram adds up to, or not below the job's bound `below`.
fn check_tree(total: u64, histogram: &[u64], below: Option<u64>) -> Result<(), &'static str> {
    if total != histogram_total(histogram) {
        return Err("its total is not what its histogram adds up to");
    }
    if below.is_some_and(|b| total >= b) {
        return Err("it claims a tree at or above its bound");
    }
    Ok(())
}
