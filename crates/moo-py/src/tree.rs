//! Decision trees: `moo.build_tree` (the optimal one), `moo.strategy_tree` (any deterministic
//! strategy's), and `moo.Tree` to read, verify, walk and write them.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

use moo_core::strategy as registry;
use moo_core::tree::{NodeId, Objective, Progress, Search, SearchOptions, SearchOutcome};
use moo_core::{DecisionTree, EvalOptions, Stop, StrategyOptions};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::errors::{named, quoted, Raise, SearchError, TreeError};
use crate::history::history_of;
use crate::long;
use crate::rules::{rules_of, space_of, Feedback, Rules};

register!(
    classes: [Tree, Node, TreeStats],
    functions: [build_tree, strategy_tree],
);

/// The objective from its name.
fn objective_of(name: &str) -> PyResult<Objective> {
    named(
        Objective::ALL,
        |o| o.name(),
        name,
        "objective must be \"average\" (fewest guesses in total), \"worst\" (fewest guesses that always suffice) or \"fewest-worst\"",
    )
}

/// Searches for an optimal decision tree of the whole game, as `moo tree build` does, and
/// returns it verified (every secret replayed).
///
/// `objective` is `"average"` (the fewest guesses in total), `"worst"` (the fewest that always
/// suffice) or `"fewest-worst"`; `max_depth` caps the guesses of any game; `time_limit`
/// (seconds) raises `SearchError` when it passes; `progress`, if given, is called about ten
/// times a second with a dict `{"nodes", "cached", "parts_solved", "bound", "seconds"}`.
/// Ctrl-C stops the search and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (rules, *, objective = "average", max_depth = None, guesses = "all", time_limit = None, progress = None))]
fn build_tree(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    objective: &str,
    max_depth: Option<u32>,
    guesses: &str,
    time_limit: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Tree> {
    let space = space_of(&rules_of(rules)?)?;
    let options = SearchOptions::new(objective_of(objective)?)
        .with_max_depth(max_depth)
        .with_guesses(crate::play::pool_of(guesses)?);
    let limit = long::seconds(time_limit, "time_limit")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = limit
        .map_or_else(Stop::never, Stop::after)
        .with_flag(cancel.clone());
    let counters = Progress::new();
    let start = Instant::now();
    let work = || {
        Search::whole(&space)
            .options(&options)
            .progress(&counters)
            .stop(&stop)
            .run()
    };
    let poll = |py: Python<'_>| match &progress {
        Some(callback) => {
            let report = PyDict::new(py);
            report.set_item("nodes", counters.nodes())?;
            report.set_item("cached", counters.cached())?;
            report.set_item("parts_solved", counters.parts_solved())?;
            report.set_item("bound", counters.bound())?;
            report.set_item("seconds", start.elapsed().as_secs_f64())?;
            callback.call1((report,)).map(drop)
        }
        None => Ok(()),
    };
    match long::run(py, &cancel, work, poll)?.raise()? {
        SearchOutcome::Found(found) => Tree::new(found.tree),
        SearchOutcome::Impossible { max_depth } => Err(SearchError::new_err(format!(
            "no strategy finds every secret within {max_depth} guesses: allow more (max_depth)"
        ))),
    }
}

/// The decision tree of a deterministic strategy (a name from `moo.strategies()`): its guess
/// after every history any secret reaches.
#[pyfunction]
#[pyo3(signature = (rules, strategy, *, seed = 0))]
fn strategy_tree(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    strategy: &str,
    seed: u64,
) -> PyResult<Tree> {
    let space = space_of(&rules_of(rules)?)?;
    let build = |seed: u64| {
        let mut options = StrategyOptions::default();
        options.seed = seed;
        registry::by_name(strategy, &space, &options)
    };
    let mut options = EvalOptions::default();
    options.seed = seed;
    let cancel = Arc::new(AtomicBool::new(false));
    options.cancel = Some(cancel.clone());
    let work = || moo_core::strategy_tree(&space, &build, &options, None);
    let walked = long::run(py, &cancel, work, |_| Ok(()))?.raise()?;
    Tree::new(walked.tree)
}

/// A decision tree: the guess to play after every history a secret can reach. Read one with
/// `Tree.load` (moo's JSON tree files, gzipped or not) or `Tree.from_json`, make one with
/// `build_tree` or `strategy_tree`.
#[pyclass(module = "moo", frozen)]
pub(crate) struct Tree {
    tree: Arc<DecisionTree>,
    stats: moo_core::TreeStats,
}

impl Tree {
    /// The tree, verified.
    fn new(tree: DecisionTree) -> PyResult<Tree> {
        let stats = tree.verify().raise()?;
        Ok(Tree {
            tree: Arc::new(tree),
            stats,
        })
    }
}

#[pymethods]
impl Tree {
    /// Reads a tree from its JSON text and verifies that it finds every secret.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Tree> {
        let tree = py.detach(|| DecisionTree::from_json(text)).raise()?;
        py.detach(|| tree.verify()).raise()?;
        Tree::new(tree)
    }

    /// Reads a tree file (`.json`, or `.json.gz` as moo ships them) and verifies it.
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Tree> {
        let bytes = std::fs::read(&path).map_err(|e| {
            TreeError::new_err(format!("cannot read the tree file {}: {e}", path.display()))
        })?;
        let bytes = if bytes.starts_with(&[0x1f, 0x8b]) {
            // Python's own gzip, so the module carries no decompressor of its own.
            let raw = PyBytes::new(py, &bytes);
            py.import("gzip")?
                .call_method1("decompress", (raw,))?
                .extract::<Vec<u8>>()?
        } else {
            bytes
        };
        let text = String::from_utf8(bytes).map_err(|_| {
            TreeError::new_err(format!(
                "{} is not a tree file: it is neither UTF-8 JSON nor gzipped JSON",
                path.display()
            ))
        })?;
        Tree::from_json(py, &text)
    }

    /// The tree as JSON, as moo's tree files hold it.
    #[pyo3(signature = (pretty = false))]
    fn to_json(&self, pretty: bool) -> String {
        self.tree.to_json(pretty)
    }

    /// Writes the tree to `path` as JSON.
    fn save(&self, path: std::path::PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.tree.to_json(false)).map_err(|e| {
            TreeError::new_err(format!(
                "cannot write the tree file {}: {e}",
                path.display()
            ))
        })
    }

    /// The rules of the game the tree plays.
    #[getter]
    fn rules(&self) -> Rules {
        Rules {
            inner: self.tree.rules().clone(),
        }
    }

    /// The tree's figures, from replaying every secret: total, average, worst case and
    /// histogram.
    #[getter]
    fn stats(&self) -> TreeStats {
        TreeStats::from(&self.stats)
    }

    /// Replays every secret again and returns the figures (raises `TreeError` if some secret is
    /// not found).
    fn verify(&self, py: Python<'_>) -> PyResult<TreeStats> {
        let tree = &self.tree;
        py.detach(|| tree.verify())
            .raise()
            .map(|s| TreeStats::from(&s))
    }

    /// The first guess.
    #[getter]
    fn root(&self) -> Node {
        Node {
            tree: self.tree.clone(),
            id: self.tree.root_id(),
        }
    }

    /// The guess the tree plays after `history` (pairs of a guess and its answer), or `None`
    /// once the game is won; `TreeError` when the history leaves the tree.
    fn next_guess(&self, history: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
        let rules = self.tree.rules();
        let history = history_of(rules, history)?;
        let mut id = self.tree.root_id();
        for (i, turn) in history.turns().iter().enumerate() {
            let node = self.tree.node(id);
            if node.guess != turn.guess {
                return Err(TreeError::new_err(format!(
                    "turn {}: the tree plays {} here, not {}",
                    i + 1,
                    rules.format_code(&node.guess),
                    rules.format_code(&turn.guess)
                )));
            }
            if turn.feedback.is_win(rules.length()) {
                return Ok(None);
            }
            id = node.child(turn.feedback).ok_or_else(|| {
                TreeError::new_err(format!(
                    "turn {}: no secret gives the answer {} here",
                    i + 1,
                    turn.feedback
                ))
            })?;
        }
        Ok(Some(rules.format_code(&self.tree.node(id).guess)))
    }

    /// The guesses the tree plays when the secret is `secret`, the winning one last.
    fn play(&self, secret: &str) -> PyResult<Vec<String>> {
        let rules = self.tree.rules();
        let secret = rules.parse_code(secret).raise()?;
        let mut id = self.tree.root_id();
        let mut guesses = Vec::new();
        loop {
            let node = self.tree.node(id);
            guesses.push(rules.format_code(&node.guess));
            let answer = node.guess.score(&secret);
            if answer.is_win(rules.length()) {
                return Ok(guesses);
            }
            id = node.child(answer).ok_or_else(|| {
                TreeError::new_err(format!(
                    "the tree does not find {} (no branch for {answer} after {})",
                    rules.format_code(&secret),
                    guesses.join(", ")
                ))
            })?;
        }
    }

    /// The tree's first `depth` levels as indented text.
    #[pyo3(signature = (depth = 2))]
    fn render(&self, depth: usize) -> String {
        self.tree.render(depth)
    }

    fn __len__(&self) -> usize {
        self.tree.nodes().len()
    }

    fn __repr__(&self) -> String {
        format!(
            "Tree({}, total={}, average={:.4}, max={}, nodes={})",
            self.tree.rules().describe(),
            self.stats.total,
            self.stats.average,
            self.stats.max,
            self.tree.nodes().len()
        )
    }
}

/// One node of a tree: its guess, and the node each answer leads to.
#[pyclass(module = "moo", frozen)]
pub(crate) struct Node {
    tree: Arc<DecisionTree>,
    id: NodeId,
}

#[pymethods]
impl Node {
    /// The guess played here.
    #[getter]
    fn guess(&self) -> String {
        self.tree
            .rules()
            .format_code(&self.tree.node(self.id).guess)
    }

    /// The node each possible answer leads to (the winning answer leads nowhere).
    #[getter]
    fn children(&self) -> Vec<(Feedback, Node)> {
        self.tree
            .node(self.id)
            .children
            .iter()
            .map(|&(feedback, id)| {
                (
                    Feedback::from(feedback),
                    Node {
                        tree: self.tree.clone(),
                        id,
                    },
                )
            })
            .collect()
    }

    /// The node `answer` leads to, or `None` if no secret gives it here.
    fn child(&self, answer: &Bound<'_, PyAny>) -> PyResult<Option<Node>> {
        let feedback = crate::history::feedback_of(answer, self.tree.rules().length())?;
        Ok(self.tree.node(self.id).child(feedback).map(|id| Node {
            tree: self.tree.clone(),
            id,
        }))
    }

    fn __repr__(&self) -> String {
        format!(
            "Node(guess={}, children={})",
            quoted(&self.guess()),
            self.tree.node(self.id).children.len()
        )
    }
}

/// A tree's figures from replaying every secret.
#[pyclass(module = "moo", frozen, get_all)]
pub(crate) struct TreeStats {
    /// How many secrets the rules allow.
    secrets: u64,
    /// Guesses summed over every secret, the winning guess counted.
    total: u64,
    /// `total / secrets`.
    average: f64,
    /// The most guesses any secret needs.
    max: u32,
    /// How many secrets need `max` guesses.
    at_worst: u64,
    /// `histogram[k - 1]` secrets are found with exactly `k` guesses.
    histogram: Vec<u64>,
}

impl From<&moo_core::TreeStats> for TreeStats {
    fn from(s: &moo_core::TreeStats) -> TreeStats {
        TreeStats {
            secrets: s.secrets,
            total: s.total,
            average: s.average,
            max: s.max,
            at_worst: s.at_worst,
            histogram: s.histogram.clone(),
        }
    }
}

#[pymethods]
impl TreeStats {
    fn __repr__(&self) -> String {
        format!(
            "TreeStats(secrets={}, total={}, average={:.4}, max={}, histogram={:?})",
            self.secrets, self.total, self.average, self.max, self.histogram
        )
    }
}
