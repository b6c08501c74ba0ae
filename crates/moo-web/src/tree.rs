//! The decision tree of a deterministic strategy, in the format `moo tree` writes.
//!
//! A deterministic strategy answers the same knowledge with the same guess, so its play against
//! every secret is one tree: `{"guess": "0123", "children": {"0B1C": NODE, ...}}`, where the
//! all-bulls answer has no child and a node without children is a single candidate. Walking the
//! tree asks the strategy once per node instead of once per secret and turn, which is what makes
//! benchmarking costly strategies over a whole space affordable. The explorer page reads the same
//! format, so trees written by `moo tree build` load there as well.

use std::collections::BTreeMap;
use std::time::Instant;

use moo_core::{CodeSet, CodeSpace, History, Knowledge, Strategy};
use serde::Serialize;

use crate::error::ApiError;

/// No strategy worth showing needs this many guesses; one that does is stuck.
pub(crate) const MAX_DEPTH: usize = 40;

/// One node of a decision tree.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Node {
    pub guess: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub children: BTreeMap<String, Node>,
}

/// A tree and what it took to solve every secret.
pub(crate) struct Grown {
    pub root: Node,
    /// `histogram[i]`: secrets solved with `i + 1` guesses.
    pub histogram: Vec<usize>,
}

/// Grows the tree of `strategy` over the whole space, giving up at `deadline`.
pub(crate) fn grow(
    strategy: &mut dyn Strategy,
    space: &CodeSpace,
    deadline: Instant,
) -> Result<Grown, ApiError> {
    let mut histogram = Vec::new();
    let mut history = History::new();
    let root = grow_node(
        strategy,
        space,
        &mut history,
        &space.all(),
        &mut histogram,
        deadline,
    )?;
    Ok(Grown { root, histogram })
}

fn grow_node(
    strategy: &mut dyn Strategy,
    space: &CodeSpace,
    history: &mut History,
    candidates: &CodeSet,
    histogram: &mut Vec<usize>,
    deadline: Instant,
) -> Result<Node, ApiError> {
    if Instant::now() > deadline {
        return Err(ApiError::unavailable(
            "the decision tree took longer than the server's time limit: try smaller rules",
        ));
    }
    let depth = history.len() + 1;
    if depth > MAX_DEPTH {
        return Err(ApiError::unprocessable(format!(
            "strategy {:?} needed more than {MAX_DEPTH} guesses for some secret: it is not making progress",
            strategy.name()
        )));
    }
    let guess = strategy
        .next_guess(&Knowledge {
            space,
            history,
            candidates,
        })
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let index = space.index_of(&guess).ok_or_else(|| {
        ApiError::unprocessable(format!(
            "strategy {:?} guessed a code outside the rules",
            strategy.name()
        ))
    })?;
    let length = space.length();
    let mut children = BTreeMap::new();
    for (feedback, part) in space.partition(index, candidates) {
        if feedback.is_win(length) {
            if histogram.len() < depth {
                histogram.resize(depth, 0);
            }
            histogram[depth - 1] += part.len();
            continue;
        }
        history.push(guess, feedback);
        let child = grow_node(strategy, space, history, &part, histogram, deadline);
        history.undo();
        children.insert(feedback.to_string(), child?);
    }
    Ok(Node {
        guess: space.rules().format_code(&guess),
        children,
    })
}
