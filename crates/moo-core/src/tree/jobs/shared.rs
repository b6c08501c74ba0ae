//! What the rounds of a split run share: the first-level parts, the tree grafted from a guess
//! and its parts' subtrees, what the results so far derive, and a solved part's total. A leaf
//! of the jobs' modules (it uses none of them but their common types in `mod.rs`), so that
//! planning, going deeper, joining and taking stock can each use it without using each other.

use super::{JobEntry, JobResult, OpenPart, PartOutcome, SplitError};
use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::rules::Rules;
use crate::space::CodeSpace;
use crate::tree::{DecisionTree, Node, NodeId};

/// A first-level part: a first guess, a feedback and the secrets they leave.
pub(super) struct FirstPart {
    pub(super) guess: u32,
    pub(super) feedback: Feedback,
    pub(super) set: CodeSet,
}

impl FirstPart {
    /// The history that leaves the part.
    pub(super) fn history(&self, space: &CodeSpace) -> History {
        let mut history = History::new();
        history.push(space.code(self.guess as usize), self.feedback);
        history
    }
}

/// What [`Split::settle`] derives from the results so far.
pub(super) struct Derivation {
    /// The parts split deeper settled, each as if one job had solved it whole.
    pub(super) parts: Vec<JobResult>,
    /// The others, each with what the results prove of it.
    pub(super) open: Vec<OpenPart>,
    /// For each open part with one, the cheapest subtree its results have found, as if one
    /// job had solved the part to it.
    pub(super) best: Vec<JobResult>,
    /// The jobs that positions below the open parts still want, numbered from 0.
    pub(super) wanted: Vec<JobEntry>,
}

/// The tree with `guess` at its root and each `(feedback, subtree, job index)` below it, in
/// feedback order; a subtree for other rules is refused by its job's index.
pub(super) fn graft(
    rules: &Rules,
    guess: Code,
    children: &[(Feedback, &DecisionTree, usize)],
) -> Result<DecisionTree, SplitError> {
    let mut nodes = vec![Node {
        guess,
        children: Vec::new(),
    }];
    let mut edges = Vec::new();
    for &(feedback, tree, index) in children {
        if tree.rules() != rules {
            return Err(SplitError::Mismatch {
                index,
                reason: "its subtree is for other rules".into(),
            });
        }
        let offset = nodes.len() as u32;
        edges.push((feedback, NodeId(offset)));
        nodes.extend(tree.nodes().iter().map(|n| {
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
    let length = rules.length();
    edges.sort_by_key(|&(f, _)| f.index(length));
    nodes[0].children = edges;
    Ok(DecisionTree::from_nodes(rules.clone(), nodes))
}

/// A part's total, if its result solved it.
pub(super) fn solved_total(r: &JobResult) -> Option<u64> {
    match r.outcome {
        PartOutcome::Solved { total, .. } => Some(total),
        _ => None,
    }
}
