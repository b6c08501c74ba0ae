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

/// The most guesses a strategy may use on one secret: ten per code, the cap `moo bench` uses
/// (`moo_core::eval`), so baselines that enumerate codes finish, a random guesser rarely gives
/// up, and a strategy that repeats itself is stopped.
pub(crate) fn max_guesses(space: &CodeSpace) -> usize {
    10 * space.len()
}

/// One node of a decision tree.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Node {
    pub guess: String,
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub children: BTreeMap<String, Node>,
}

/// The most nodes a tree sent to a client may have (a strategy that ignores feedback has about
/// n^2 / 2 nodes for n codes, far more than anyone can browse).
pub(crate) const MAX_NODES: usize = 1_000_000;

/// A tree and what it took to solve every secret.
pub(crate) struct Grown {
    /// The tree, when it was kept.
    pub root: Option<Node>,
    /// `histogram[i]`: secrets solved with `i + 1` guesses.
    pub histogram: Vec<usize>,
}

/// The walk's running state.
struct Walk<'a> {
    space: &'a CodeSpace,
    history: History,
    histogram: Vec<usize>,
    nodes: usize,
    /// Whether to build the nodes (for the explorer) or only count (for benchmarks).
    keep: bool,
    deadline: Instant,
}

/// Walks the tree of `strategy` over the whole space, giving up at `deadline`; `keep` builds
/// the nodes too, refusing trees over [`MAX_NODES`].
pub(crate) fn grow(
    strategy: &mut dyn Strategy,
    space: &CodeSpace,
    deadline: Instant,
    keep: bool,
) -> Result<Grown, ApiError> {
    let mut walk = Walk {
        space,
        history: History::new(),
        histogram: Vec::new(),
        nodes: 0,
        keep,
        deadline,
    };
    let root = grow_node(strategy, &mut walk, &space.all())?;
    Ok(Grown {
        root: keep.then_some(root),
        histogram: walk.histogram,
    })
}

fn grow_node(
    strategy: &mut dyn Strategy,
    walk: &mut Walk<'_>,
    candidates: &CodeSet,
) -> Result<Node, ApiError> {
    let space = walk.space;
    walk.nodes += 1;
    if walk.keep && walk.nodes > MAX_NODES {
        return Err(ApiError::unprocessable(format!(
            "the tree of strategy {:?} has more than {MAX_NODES} nodes, too many to send: try smaller rules",
            strategy.name()
        )));
    }
    if Instant::now() > walk.deadline {
        return Err(ApiError::unavailable(
            "the decision tree took longer than the server's time limit: try smaller rules",
        ));
    }
    let depth = walk.history.len() + 1;
    if depth > max_guesses(space) {
        return Err(ApiError::unprocessable(format!(
            "strategy {:?} needed more than {} guesses (ten per code) for some secret: it is not making progress",
            strategy.name(),
            max_guesses(space)
        )));
    }
    let guess = strategy
        .next_guess(&Knowledge {
            space,
            history: &walk.history,
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
            if walk.histogram.len() < depth {
                walk.histogram.resize(depth, 0);
            }
            walk.histogram[depth - 1] += part.len();
            continue;
        }
        walk.history.push(guess, feedback);
        let child = grow_node(strategy, walk, &part);
        walk.history.undo();
        let child = child?;
        if walk.keep {
            children.insert(feedback.to_string(), child);
        }
    }
    Ok(Node {
        guess: if walk.keep {
            space.rules().format_code(&guess)
        } else {
            String::new()
        },
        children,
    })
}
