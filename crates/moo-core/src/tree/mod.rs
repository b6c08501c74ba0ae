//! Decision trees: a complete strategy written out as data, its verification, and the exact
//! search that finds optimal ones.
//!
//! A strategy that is deterministic is nothing but a tree: the first guess at the root, one branch
//! per feedback, the next guess below it. Writing it out lets anyone check a claimed optimum by
//! replaying every secret ([`DecisionTree::verify`]) without trusting the search that made it, and
//! lets `moo` ship the optimal Bulls and Cows strategy as a file instead of a minute of search.
//!
//! The JSON form is `{"rules": {...}, "root": NODE}` with
//! `NODE = {"guess": "0123", "children": {"0B1C": NODE, ...}}`. The winning feedback ends the game
//! and has no branch; a node without children is a guess that must be the secret. Parsing checks
//! the syntax (legal codes, possible feedbacks); [`DecisionTree::verify`] checks the meaning.
//!
//! The search below makes optimal trees; the tree of any other deterministic strategy comes from
//! [`crate::eval::strategy_tree`], the same walk that counts `moo bench`'s figures, so a written
//! tree and the benchmark of its strategy cannot disagree.

mod jobs;
mod refutation;
mod search;

pub use jobs::{
    array_range, exact_space, Ceiling, Column, DeepPart, DrivenPart, Estimate, Job, JobEntry,
    JobResult, Joined, OpenGuess, OpenPart, PartEstimate, PartOutcome, Piece, RunDir, RunFileError,
    SampledJob, SettledPart, Split, SplitError, SplitOptions, Standing, Step, Task, Unreduced,
    DEFAULT_SHARE, DRIVE_STEP, JOB_FORMAT, RESULT_FORMAT, RUN_STRIDE, SHARED_CACHE, SPLIT_FORMAT,
};
pub use refutation::{
    answers, most_won, Measured, Refutation, RefutationError, RefutationEstimate, RefutationStats,
    REFUTATION_FORMAT,
};
#[doc(hidden)]
pub use search::bench;
pub use search::{
    Checkpoint, CheckpointError, Objective, OptimalTree, PlanMove, Progress, ProvenSets, Search,
    SearchError, SearchOptions, SearchOutcome, SetPlan, Subgame, WholeGame, CLASSES_AFTER,
    DEFAULT_CACHE_BYTES, MAX_CHECKPOINT_LINE,
};

/// The largest tree file read, in bytes (64 MiB): hundreds of times the shipped Bulls and Cows
/// tree, and a bound on what a link to `/dev/zero` can cost.
pub const MAX_TREE_FILE: u64 = 64 << 20;

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::histogram::Histogram;
use crate::rules::Rules;
use crate::space::{CodeSpace, SpaceError};
use crate::text::{excerpt, shorten};

/// Why a tree was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TreeError {
    /// A tree given as a shipped one ([`crate::strategy::provide_shipped_tree`]) is not one.
    #[error("{0}")]
    NotShipped(String),
    /// The text is not JSON of the tree form.
    #[error("not a decision tree: {0} (expected {{\"rules\": {{...}}, \"root\": {{\"guess\": ..., \"children\": {{...}}}}}})")]
    Malformed(String),
    /// A node's guess is not a legal code.
    #[error("at {path}: {reason}")]
    BadGuess {
        /// Where, as the guesses and feedbacks leading there.
        path: String,
        /// Why the guess is illegal.
        reason: String,
    },
    /// A branch key is not a possible feedback.
    #[error("at {path}: branch {key:?} is not a possible feedback: {reason}")]
    BadFeedback {
        /// Where.
        path: String,
        /// The key as written.
        key: String,
        /// Why it is rejected.
        reason: String,
    },
    /// A secret reaches a node whose guess does not end the game and has no branch for it.
    #[error("at {path}: secret {secret} answers {feedback} to {guess} but the tree has no branch {feedback}")]
    MissingBranch {
        /// Where.
        path: String,
        /// A secret that gets stuck there.
        secret: String,
        /// The guess of the node.
        guess: String,
        /// The feedback without a branch.
        feedback: Feedback,
    },
    /// A branch that no secret can reach.
    #[error("at {path}: branch {feedback} after {guess} is never taken: no secret consistent with the feedback so far answers {feedback}")]
    DeadBranch {
        /// Where.
        path: String,
        /// The guess of the node.
        guess: String,
        /// The unreachable feedback.
        feedback: Feedback,
    },
    /// The tree's rules allow too many codes to replay.
    #[error("cannot replay the tree: {0}")]
    Space(#[from] SpaceError),
    /// The tree is for other rules than the game asked for.
    #[error("the tree is for {tree}, not {wanted}")]
    OtherRules {
        /// The tree's rules, described.
        tree: String,
        /// The rules asked for, described.
        wanted: String,
    },
}

/// The index of a node in a [`DecisionTree`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The position of the node in [`DecisionTree::nodes`].
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The id of the node at `index` of a node list being built.
    pub(crate) fn new(index: u32) -> NodeId {
        NodeId(index)
    }
}

/// One guess of the strategy and where each answer leads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The code to guess here.
    pub guess: Code,
    /// The next node for each non-winning feedback, in feedback-index order.
    pub children: Vec<(Feedback, NodeId)>,
}

impl Node {
    /// The node reached after `feedback`, if the tree has that branch.
    pub fn child(&self, feedback: Feedback) -> Option<NodeId> {
        self.children
            .iter()
            .find(|(f, _)| *f == feedback)
            .map(|&(_, id)| id)
    }
}

/// A complete deterministic strategy for one set of rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionTree {
    rules: Rules,
    /// Nodes in depth-first order; the root is first.
    nodes: Vec<Node>,
}

/// What replaying every secret through a tree measured.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TreeStats {
    /// How many secrets the rules allow.
    pub secrets: u64,
    /// Guesses summed over every secret (the winning guess counts).
    pub total: u64,
    /// `total / secrets`.
    pub average: f64,
    /// The most guesses any secret needs.
    pub max: u32,
    /// How many secrets need `max` guesses (what the fewest-at-worst objective minimises after
    /// `max`).
    pub at_worst: u64,
    /// `histogram[k - 1]` secrets are solved with exactly `k` guesses.
    pub histogram: Vec<u64>,
}

impl TreeStats {
    fn from_histogram(histogram: Histogram) -> TreeStats {
        TreeStats {
            secrets: histogram.solved(),
            total: histogram.total(),
            average: histogram.average(),
            max: histogram.max() as u32,
            at_worst: histogram
                .max()
                .checked_sub(1)
                .map_or(0, |i| histogram.counts()[i]),
            histogram: histogram.into_counts(),
        }
    }
}

impl DecisionTree {
    /// The rules the tree plays.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The root node (the first guess).
    pub fn root(&self) -> &Node {
        &self.nodes[0]
    }

    /// The root's id.
    pub fn root_id(&self) -> NodeId {
        NodeId(0)
    }

    /// A node by id.
    ///
    /// # Panics
    /// If the id comes from another tree and is out of range.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// Every node, root first, depth-first.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Reads a tree from its JSON form, checking the syntax (not yet that it solves every secret:
    /// see [`DecisionTree::verify`]).
    ///
    /// A tree nests once per guess of its longest game, so serde_json's limit of 128 levels
    /// would refuse trees moo writes itself (64 symbols of length 1 take 64 guesses); instead
    /// the nesting is capped at [`MAX_TREE_DEPTH`] guesses, checked by a scan before parsing,
    /// and the parser's stack grows on the heap as deep as the tree goes.
    pub fn from_json(text: &str) -> Result<DecisionTree, TreeError> {
        let depth = nesting(text);
        if depth > 2 * MAX_TREE_DEPTH + 2 {
            return Err(TreeError::Malformed(format!(
                "the tree nests {depth} levels deep, more than any tree of at most {MAX_TREE_DEPTH} guesses"
            )));
        }
        let mut parser = serde_json::Deserializer::from_str(text);
        parser.disable_recursion_limit();
        let raw = RawTree::deserialize(&mut parser)
            .and_then(|raw| parser.end().map(|()| raw))
            .map_err(|e| TreeError::Malformed(shorten(&e.to_string(), 200)))?;
        DecisionTree::from_raw(raw)
    }

    /// The JSON form, pretty-printed when `pretty`.
    pub fn to_json(&self, pretty: bool) -> String {
        let raw = self.to_raw();
        let out = if pretty {
            serde_json::to_string_pretty(&raw)
        } else {
            serde_json::to_string(&raw)
        };
        out.expect("a tree of strings always serializes")
    }

    /// The plain-text form other solvers' users can read without a JSON parser: a header of
    /// comment lines starting with `# ` (one of them `# rules: ` and the rules as JSON, as in the
    /// JSON form; no game line starts so, since no symbol is a space), then one line per secret, in the code space's order, holding the guesses that
    /// find it, in order and separated by one space, the secret last. A line's length is its
    /// secret's guess count, and the lines together are the strategy (the same answers always
    /// lead to the same next guess). The tree is verified first, as [`DecisionTree::verify`].
    pub fn to_text(&self) -> Result<String, TreeError> {
        let space = CodeSpace::new(self.rules.clone())?;
        self.verify_in(&space)?;
        let rules = serde_json::to_string(&self.rules).expect("rules always serialize");
        let mut out = format!(
            "# moo decision tree, plain text: one line per secret, the guesses that find it, the secret last\n# rules: {rules}\n"
        );
        for secret in space.codes() {
            let mut node = self.root();
            loop {
                out.push_str(&self.rules.format_code(&node.guess));
                let answer = node.guess.score(secret);
                if answer.is_win(self.rules.length()) {
                    out.push('\n');
                    break;
                }
                out.push(' ');
                let child = node
                    .child(answer)
                    .expect("a verified tree finds every secret");
                node = self.node(child);
            }
        }
        Ok(out)
    }

    /// Replays every secret of the rules through the tree: each guess must be legal (checked when
    /// parsing), every secret must reach a winning guess, and every branch must be taken by some
    /// secret. Returns the first problem found, in depth-first order.
    pub fn verify(&self) -> Result<TreeStats, TreeError> {
        let space = CodeSpace::new(self.rules.clone())?;
        self.verify_in(&space)
    }

    /// [`DecisionTree::verify`] with a code space already built for the tree's rules.
    pub fn verify_in(&self, space: &CodeSpace) -> Result<TreeStats, TreeError> {
        if space.rules() != &self.rules {
            return Err(TreeError::OtherRules {
                tree: self.rules.describe(),
                wanted: space.rules().describe(),
            });
        }
        let mut histogram = Histogram::new();
        let mut path = Vec::new();
        self.verify_node(space, NodeId(0), &space.all(), 1, &mut path, &mut histogram)?;
        Ok(TreeStats::from_histogram(histogram))
    }

    /// Every node's total under the tree, indexed as [`DecisionTree::nodes`]: the guesses that
    /// the codes reaching the node take from there on, its own guess and the winning one counted.
    /// For an optimal tree each is the optimal total of the node's codes, since a subtree of an
    /// optimal tree is optimal for its own codes. The tree must be verified.
    ///
    /// # Panics
    /// If `space` is not for the tree's rules.
    pub fn subtree_totals(&self, space: &CodeSpace) -> Vec<u64> {
        assert_eq!(
            space.rules(),
            &self.rules,
            "a space of the tree's own rules"
        );
        let mut sizes = vec![0u64; self.nodes.len()];
        let mut stack = vec![(NodeId(0), space.all())];
        while let Some((id, set)) = stack.pop() {
            sizes[id.index()] = set.len() as u64;
            let node = self.node(id);
            for (feedback, part) in space.partition_code(&node.guess, &set) {
                if let Some(child) = node.child(feedback) {
                    stack.push((child, part));
                }
            }
        }
        // Depth-first order puts every child after its parent: sum from the back.
        let mut totals = sizes;
        for i in (0..self.nodes.len()).rev() {
            let below: u64 = self.nodes[i]
                .children
                .iter()
                .map(|&(_, c)| {
                    debug_assert!(c.index() > i, "children come after their parent");
                    totals[c.index()]
                })
                .sum();
            totals[i] += below;
        }
        totals
    }

    fn verify_node(
        &self,
        space: &CodeSpace,
        id: NodeId,
        set: &CodeSet,
        depth: usize,
        path: &mut Vec<(Code, Feedback)>,
        histogram: &mut Histogram,
    ) -> Result<(), TreeError> {
        let node = self.node(id);
        let length = space.length();
        let guess = node.guess;
        let parts = space.partition_code(&guess, set);
        for (feedback, part) in &parts {
            if feedback.is_win(length) {
                histogram.won(depth, part.len() as u64);
            } else if node.child(*feedback).is_none() {
                return Err(TreeError::MissingBranch {
                    path: self.describe_path(path),
                    secret: self
                        .rules
                        .format_code(&space.code(part.first().unwrap_or(0))),
                    guess: self.rules.format_code(&guess),
                    feedback: *feedback,
                });
            }
        }
        for &(feedback, child) in &node.children {
            let Some((_, part)) = parts.iter().find(|(f, _)| *f == feedback) else {
                return Err(TreeError::DeadBranch {
                    path: self.describe_path(path),
                    guess: self.rules.format_code(&guess),
                    feedback,
                });
            };
            path.push((guess, feedback));
            deep(|| self.verify_node(space, child, part, depth + 1, path, histogram))?;
            path.pop();
        }
        Ok(())
    }

    fn describe_path(&self, path: &[(Code, Feedback)]) -> String {
        describe_path(&self.rules, path)
    }

    /// Builds a tree from nodes listed depth-first, root first. Used by the search and by the
    /// walk of a strategy's tree ([`crate::eval::strategy_tree`]).
    pub(crate) fn from_nodes(rules: Rules, nodes: Vec<Node>) -> DecisionTree {
        DecisionTree { rules, nodes }
    }

    fn from_raw(raw: RawTree) -> Result<DecisionTree, TreeError> {
        let mut nodes = Vec::new();
        let mut path = Vec::new();
        add_raw(&raw.rules, &raw.root, &mut path, &mut nodes)?;
        Ok(DecisionTree {
            rules: raw.rules,
            nodes,
        })
    }

    fn to_raw(&self) -> RawTree {
        fn raw(tree: &DecisionTree, id: NodeId) -> RawNode {
            let node = tree.node(id);
            RawNode {
                guess: tree.rules.format_code(&node.guess),
                children: node
                    .children
                    .iter()
                    .map(|&(f, c)| (f.to_string(), deep(|| raw(tree, c))))
                    .collect(),
            }
        }
        RawTree {
            rules: self.rules.clone(),
            root: raw(self, NodeId(0)),
        }
    }
}

/// `0123 1B2C, 4567 0B1C` or `the root`.
fn describe_path(rules: &Rules, path: &[(Code, Feedback)]) -> String {
    if path.is_empty() {
        return "the root".to_string();
    }
    let steps: Vec<String> = path
        .iter()
        .map(|(g, f)| format!("{} {f}", rules.format_code(g)))
        .collect();
    format!("the node after {}", steps.join(", "))
}

fn add_raw(
    rules: &Rules,
    raw: &RawNode,
    path: &mut Vec<(Code, Feedback)>,
    nodes: &mut Vec<Node>,
) -> Result<NodeId, TreeError> {
    let guess = rules
        .parse_code(&raw.guess)
        .map_err(|e| TreeError::BadGuess {
            path: describe_path(rules, path),
            reason: e.to_string(),
        })?;
    let length = rules.length();
    let id = NodeId(nodes.len() as u32);
    nodes.push(Node {
        guess,
        children: Vec::new(),
    });
    let mut children = Vec::with_capacity(raw.children.len());
    for (key, child) in &raw.children {
        let bad = |reason: String| TreeError::BadFeedback {
            path: describe_path(rules, path),
            key: excerpt(key),
            reason,
        };
        let feedback = Feedback::parse(key, length).map_err(|e| bad(e.to_string()))?;
        if feedback.is_win(length) {
            return Err(bad(format!(
                "{feedback} wins the game, so it has no branch"
            )));
        }
        if children.iter().any(|&(f, _)| f == feedback) {
            return Err(bad(format!("{feedback} appears twice")));
        }
        path.push((guess, feedback));
        let child_id = deep(|| add_raw(rules, child, path, nodes))?;
        path.pop();
        children.push((feedback, child_id));
    }
    children.sort_by_key(|&(f, _)| f.index(length));
    nodes[id.index()].children = children;
    Ok(id)
}

impl Serialize for DecisionTree {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_raw().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for DecisionTree {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = RawTree::deserialize(deserializer)?;
        DecisionTree::from_raw(raw).map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for DecisionTree {
    /// The whole tree as indented text; see [`DecisionTree::render`] to stop at a depth.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render(usize::MAX))
    }
}

impl DecisionTree {
    /// The top `depth` levels of guesses as indented text, one line per node:
    /// `1B2C -> 4567 (37 secrets)`.
    pub fn render(&self, depth: usize) -> String {
        let space = CodeSpace::new(self.rules.clone()).ok();
        let all = space.as_ref().map(|s| s.all());
        let mut rendering = Rendering {
            tree: self,
            space: space.as_ref(),
            depth,
            out: String::new(),
        };
        rendering.node(NodeId(0), all.as_ref(), None, 0);
        rendering.out
    }
}

/// A tree being rendered as text ([`DecisionTree::render`]): what every node's line reads.
struct Rendering<'a> {
    tree: &'a DecisionTree,
    /// The tree's space, to count each node's secrets (`None` when too large to build).
    space: Option<&'a CodeSpace>,
    /// The levels to show.
    depth: usize,
    out: String,
}

impl Rendering<'_> {
    /// Node `id`'s line and those below it, `level` deep, reached by `via` with the secrets
    /// `set` (when known).
    fn node(&mut self, id: NodeId, set: Option<&CodeSet>, via: Option<Feedback>, level: usize) {
        use std::fmt::Write;
        let node = self.tree.node(id);
        let indent = "  ".repeat(level);
        let via = via.map_or(String::new(), |f| format!("{f} -> "));
        let count = set.map_or(String::new(), |s| {
            format!(
                " ({} secret{})",
                s.len(),
                if s.len() == 1 { "" } else { "s" }
            )
        });
        let _ = writeln!(
            self.out,
            "{indent}{via}{}{count}",
            self.tree.rules.format_code(&node.guess)
        );
        if level + 1 >= self.depth {
            if !node.children.is_empty() {
                let _ = writeln!(
                    self.out,
                    "{indent}  ... {} branches below",
                    node.children.len()
                );
            }
            return;
        }
        let parts = match (self.space, set) {
            (Some(space), Some(set)) => Some(space.partition_code(&node.guess, set)),
            _ => None,
        };
        for &(feedback, child) in &node.children {
            let part = parts
                .as_ref()
                .and_then(|p| p.iter().find(|(f, _)| *f == feedback).map(|(_, s)| s));
            deep(|| self.node(child, part, Some(feedback), level + 1));
        }
    }
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawTree {
    rules: Rules,
    root: RawNode,
}

struct RawNode {
    guess: String,
    children: BTreeMap<String, RawNode>,
}

/// Runs one level of a walk down a tree, on a stack grown on the heap where it runs low: a tree
/// file may nest [`MAX_TREE_DEPTH`] guesses deep, and every walk of a tree (reading, checking,
/// writing, showing, dropping) takes one call per level.
fn deep<T>(level: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(64 << 10, 1 << 20, level)
}

impl Serialize for RawNode {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        deep(|| {
            let fields = if self.children.is_empty() { 1 } else { 2 };
            let mut node = serializer.serialize_struct("RawNode", fields)?;
            node.serialize_field("guess", &self.guess)?;
            if self.children.is_empty() {
                node.skip_field("children")?;
            } else {
                node.serialize_field("children", &self.children)?;
            }
            node.end()
        })
    }
}

impl Drop for RawNode {
    /// Takes the nodes below apart level by level: dropping a deep chain recursively would
    /// overflow the stack.
    fn drop(&mut self) {
        let mut below: Vec<RawNode> = std::mem::take(&mut self.children).into_values().collect();
        while let Some(mut node) = below.pop() {
            below.extend(std::mem::take(&mut node.children).into_values());
        }
    }
}

impl<'de> Deserialize<'de> for RawNode {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields, rename = "node")]
        struct Plain {
            guess: String,
            #[serde(default)]
            children: BTreeMap<String, RawNode>,
        }
        // One call per level of the tree (see `deep`).
        deep(|| Plain::deserialize(deserializer)).map(|p| RawNode {
            guess: p.guess,
            children: p.children,
        })
    }
}

/// The most guesses deep a tree file may go: far past every tree moo writes (the server's
/// strategy trees have at most 5040 codes, so at most as many guesses in a game).
pub const MAX_TREE_DEPTH: usize = 20_000;

/// How deep the brackets and braces of a JSON text nest, strings skipped (a scan, no
/// recursion).
fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest, mut in_string, mut escaped) = (0usize, 0, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

#[cfg(test)]
mod tests;
#[cfg(test)]
pub(crate) use tests::gunzipped_tree;
