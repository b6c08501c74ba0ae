//! A decision tree as the Explorer page browses it: checked as `moo tree verify` checks it, then
//! flattened with each node's own counts, so the page does no scoring or counting of its own.
//!
//! The view is a flat list of nodes (children point at indexes) rather than nested JSON: a
//! brute-force tree is thousands of levels deep, which nested JSON could not carry.

use moo_core::{CodeSet, CodeSpace, DecisionTree, Rules, TreeStats};
use serde::Serialize;

/// Per-node histograms are sent only for subtrees of at most this many guesses: longer ones
/// (the blind baselines) cost memory quadratic in their depth and draw as an unreadable chart.
const MAX_CHARTED_DEPTH: usize = 60;

/// A verified tree with its per-node figures.
#[derive(Debug, Serialize)]
pub struct TreeView {
    /// The tree's own rules (an uploaded tree brings them).
    pub rules: Rules,
    /// The rules in words.
    pub description: String,
    /// The whole tree's figures, as `moo tree verify` prints them.
    pub stats: TreeStats,
    /// Root first; a node's children have larger indexes than the node.
    nodes: Vec<ViewNode>,
}

/// One node: its guess, the secrets that reach it and what they still need.
#[derive(Debug, Serialize)]
pub(crate) struct ViewNode {
    pub guess: String,
    /// Secrets that reach this node.
    pub secrets: u64,
    /// Guesses those secrets need from here, this node's guess included.
    pub total: u64,
    /// The most guesses any of them needs from here.
    pub worst: u32,
    /// Whether this node's guess is itself one of the secrets (solved here).
    pub solved_here: bool,
    /// `histogram[k - 1]` secrets need `k` more guesses from here; absent past
    /// [`MAX_CHARTED_DEPTH`].
    pub histogram: Option<Vec<u64>>,
    /// One branch per answer that does not win.
    pub children: Vec<ViewBranch>,
}

/// A branch: the answer and the node it leads to.
#[derive(Debug, Serialize)]
pub(crate) struct ViewBranch {
    pub feedback: String,
    pub bulls: u8,
    pub cows: u8,
    pub node: usize,
}

/// Verifies `tree` in `space` (its own rules' space) and builds its view.
pub(crate) fn view(
    tree: &DecisionTree,
    space: &CodeSpace,
) -> Result<TreeView, moo_core::TreeError> {
    let stats = tree.verify_in(space)?;
    let rules = tree.rules();
    let nodes = tree.nodes();
    // Top down: which node's guess is one of the secrets reaching it. An explicit stack, since
    // a recursion as deep as the tree would overflow on brute-force trees.
    let mut solved_here = vec![false; nodes.len()];
    let mut stack: Vec<(usize, CodeSet)> = vec![(tree.root_id().index(), space.all())];
    while let Some((id, set)) = stack.pop() {
        let node = &nodes[id];
        let parts = space.partition_code(&node.guess, &set);
        solved_here[id] = parts.iter().any(|(f, _)| f.is_win(space.length()));
        for (feedback, child) in &node.children {
            if let Some((_, part)) = parts.iter().find(|(f, _)| f == feedback) {
                stack.push((child.index(), part.clone()));
            }
        }
    }
    // Bottom up: nodes are listed depth-first, so every child comes after its parent.
    let mut view: Vec<Option<ViewNode>> = (0..nodes.len()).map(|_| None).collect();
    for id in (0..nodes.len()).rev() {
        let node = &nodes[id];
        let here = solved_here[id];
        let mut secrets = u64::from(here);
        let mut total = u64::from(here);
        let mut worst = u32::from(here);
        let mut histogram = Some(if here { vec![1] } else { vec![0] });
        let mut children = Vec::with_capacity(node.children.len());
        for &(feedback, child) in &node.children {
            let c = view[child.index()]
                .as_ref()
                .expect("children come after their parent");
            secrets += c.secrets;
            total += c.total + c.secrets;
            worst = worst.max(c.worst + 1);
            histogram = match (histogram, &c.histogram) {
                (Some(mut h), Some(ch)) if ch.len() < MAX_CHARTED_DEPTH => {
                    if h.len() < ch.len() + 1 {
                        h.resize(ch.len() + 1, 0);
                    }
                    for (d, n) in ch.iter().enumerate() {
                        h[d + 1] += n;
                    }
                    Some(h)
                }
                _ => None,
            };
            children.push(ViewBranch {
                feedback: feedback.to_string(),
                bulls: feedback.bulls,
                cows: feedback.cows,
                node: child.index(),
            });
        }
        view[id] = Some(ViewNode {
            guess: rules.format_code(&node.guess),
            secrets,
            total,
            worst,
            solved_here: here,
            histogram,
            children,
        });
    }
    let nodes = view
        .into_iter()
        .map(|n| n.expect("every node was visited"))
        .collect();
    Ok(TreeView {
        rules: rules.clone(),
        description: rules.describe(),
        stats,
        nodes,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One symbol of three, guessed a, b, c: 3 secrets, 1 + 2 + 3 guesses.
    #[test]
    fn a_tiny_tree_counts_per_node() {
        let tree = DecisionTree::from_json(
            r#"{"rules": {"length": 1, "symbols": "abc", "repeats": false, "no_leading": false},
                "root": {"guess": "a", "children": {"0B0C": {"guess": "b", "children": {"0B0C": {"guess": "c"}}}}}}"#,
        )
        .unwrap();
        let space = CodeSpace::new(tree.rules().clone()).unwrap();
        let v = view(&tree, &space).unwrap();
        assert_eq!((v.stats.secrets, v.stats.total), (3, 6));
        let root = &v.nodes[0];
        assert_eq!((root.secrets, root.total, root.worst), (3, 6, 3));
        assert_eq!(root.histogram.as_deref(), Some(&[1, 1, 1][..]));
        let b = &v.nodes[root.children[0].node];
        assert_eq!(
            (b.guess.as_str(), b.secrets, b.total, b.worst),
            ("b", 2, 3, 2)
        );
        assert!(b.solved_here);
    }

    /// A tree that misses a secret is refused as `moo tree verify` refuses it.
    #[test]
    fn an_incomplete_tree_is_refused() {
        let tree = DecisionTree::from_json(
            r#"{"rules": {"length": 1, "symbols": "abc", "repeats": false, "no_leading": false},
                "root": {"guess": "a", "children": {"0B0C": {"guess": "b"}}}}"#,
        )
        .unwrap();
        let space = CodeSpace::new(Rules::new(1, "abc", false, false).unwrap()).unwrap();
        let err = view(&tree, &space).unwrap_err().to_string();
        assert!(err.contains("no branch"), "{err}");
    }
}
