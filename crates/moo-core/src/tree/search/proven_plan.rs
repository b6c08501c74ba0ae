//! The plan a search proves, written out: every node of the optimal tree in depth-first order,
//! with the candidate set it is reached with, read back from the search's cache (or re-solved
//! where a closed form answered). The whole game's tree and the advisor's cached moves both come
//! from it.

use super::recursion::Solver;
use super::solved::{child_limit, Solved, INF};
use super::{PlanMove, SearchError, SetPlan};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::symmetry::Symmetry;
use crate::tree::{Node, NodeId};

/// A solved position, written out: every node of the optimal tree in depth-first order, with the
/// set it is reached with.
pub(super) struct Plan {
    pub(super) total: u64,
    pub(super) worst: u32,
    pub(super) histogram: Vec<u64>,
    pub(super) nodes: Vec<PlanNode>,
}

impl Plan {
    /// The plan as the public [`SetPlan`], each move with its total.
    pub(super) fn into_set_plan(self) -> SetPlan {
        let totals = subtree_totals(&self.nodes);
        SetPlan {
            total: self.total,
            worst: self.worst,
            histogram: self.histogram,
            moves: self
                .nodes
                .into_iter()
                .zip(totals)
                .map(|(n, total)| PlanMove {
                    set: CodeSet::from_sorted(n.set),
                    guess: n.guess,
                    total,
                })
                .collect(),
        }
    }
}

/// The total of every node's subtree: a code solved at level `j` costs a node at level `i` above
/// it `j - i + 1` guesses. Depth first, a node's ancestors are the nodes still open when it is
/// reached.
fn subtree_totals(nodes: &[PlanNode]) -> Vec<u64> {
    let mut totals = vec![0u64; nodes.len()];
    let mut open: Vec<usize> = Vec::new();
    for (j, n) in nodes.iter().enumerate() {
        while open.last().is_some_and(|&i| nodes[i].level >= n.level) {
            open.pop();
        }
        open.push(j);
        if n.set.binary_search(&n.guess).is_ok() {
            for &i in &open {
                totals[i] += u64::from(n.level - nodes[i].level + 1);
            }
        }
    }
    totals
}

/// One node of a [`Plan`]: the tree node, the candidate set and guess index behind it, and its
/// level (1 for the plan's root).
pub(super) struct PlanNode {
    pub(super) node: Node,
    set: Vec<u32>,
    guess: u32,
    level: u32,
}

/// Writes out the tree of `sol`, a solution of `root` within `depth` guesses, as a plan.
pub(super) fn build_plan(
    search: &Solver,
    root: &[u32],
    sym: &Symmetry,
    depth: u8,
    sol: Solved,
    weight: Option<u32>,
) -> Result<Plan, SearchError> {
    let mut nodes = Vec::new();
    let built = write_tree(search, root, sym, depth, sol, 1, &mut nodes);
    if search.state.halted() || built.is_none() {
        return Err(SearchError::Stopped);
    }
    let mut histogram: Vec<u64> = Vec::new();
    for n in &nodes {
        if n.set.binary_search(&n.guess).is_ok() {
            let level = n.level as usize;
            if histogram.len() < level {
                histogram.resize(level, 0);
            }
            histogram[level - 1] += 1;
        }
    }
    let total: u64 = histogram
        .iter()
        .enumerate()
        .map(|(k, &c)| (k as u64 + 1) * c)
        .sum();
    let at_depth = histogram.get(usize::from(depth) - 1).copied().unwrap_or(0);
    let cost = total + weight.map_or(0, |w| u64::from(w) * at_depth);
    if cost != u64::from(sol.total) {
        // Only facts read from a file can make a plan cost other than the search proved.
        match search.state.checkpoint {
            Some((c, _)) => {
                let error = c.false_fact(u64::from(sol.total), Some(cost));
                return Err(SearchError::Checkpoint(error.to_string()));
            }
            None => debug_assert_eq!(cost, u64::from(sol.total)),
        }
    }
    Ok(Plan {
        total,
        worst: histogram.len() as u32,
        histogram,
        nodes,
    })
}

/// Writes out the tree of an exact result, depth first, each node with its set and level
/// (1 for `set`), looking the children up in the cache (or re-solving them when they were
/// closed forms). `None` if the search was stopped meanwhile.
fn write_tree(
    search: &Solver,
    set: &[u32],
    sym: &Symmetry,
    depth: u8,
    sol: Solved,
    level: u32,
    nodes: &mut Vec<PlanNode>,
) -> Option<NodeId> {
    let id = NodeId(nodes.len() as u32);
    nodes.push(PlanNode {
        node: Node {
            guess: search.bounds.space.code(sol.guess as usize),
            children: Vec::new(),
        },
        set: set.to_vec(),
        guess: sol.guess,
        level,
    });
    let length = search.bounds.space.length();
    let row = search.bounds.row(sol.guess);
    let mut parts: Vec<(u8, Vec<u32>)> = Vec::new();
    for &s in set {
        let f = row[s as usize];
        if usize::from(f) == search.bounds.win {
            continue;
        }
        match parts.iter_mut().find(|(g, _)| *g == f) {
            Some((_, p)) => p.push(s),
            None => parts.push((f, vec![s])),
        }
    }
    parts.sort_by_key(|(f, _)| *f);
    let child_sym = sym.after(search.bounds.space.code(sol.guess as usize).symbols());
    let child_depth = child_limit(depth);
    let mut children = Vec::new();
    for (f, part) in parts {
        let child = search
            .solve(&part, &child_sym, INF, child_depth)
            .and_then(|c| search.own_guess(&part, &child_sym, child_depth, c));
        let Some(child) = child else {
            assert!(
                search.state.halted(),
                "a part of an optimal tree has a tree"
            );
            return None;
        };
        let child_id = write_tree(
            search,
            &part,
            &child_sym,
            child_depth,
            child,
            level + 1,
            nodes,
        )?;
        children.push((
            Feedback::from_index(search.bounds.feedback_index(f), length),
            child_id,
        ));
    }
    nodes[id.index()].node.children = children;
    Some(id)
}
