//! Work that plays every secret: benchmarks, strategy trees, and the Explorer's checked trees.

use moo_core::strategy::{self, StrategyOptions};
use moo_core::{CodeSpace, DecisionTree, EvalError, EvalOptions, Evaluation, Preset, Stop};
use serde::{Deserialize, Serialize};

use crate::bench;
use crate::rules::{check_offered, rules_within, RulesIn, RulesReport, BENCH, TREES};
use crate::spaces::check_size;
use crate::treeview::{self, TreeView};
use crate::{ErrorCode, Job, Service, ServiceError, Work};

/// A benchmark: the rules, and the strategies to measure.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BenchBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    /// Absent or empty: every registered strategy that can play the rules.
    strategies: Option<Vec<String>>,
}

/// One strategy's figures, or why it has none (the others' still count).
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum BenchRow {
    Done(Evaluation),
    Failed { strategy: String, error: String },
}

/// A benchmark's figures, one row per strategy.
#[derive(Debug, Serialize)]
pub struct BenchReport {
    #[serde(flatten)]
    rules: RulesReport,
    results: Vec<BenchRow>,
}

/// A strategy whose decision tree to build for the rules.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    strategy: Option<String>,
}

/// The largest tree file the Explorer may upload: the shipped optimal Bulls and Cows tree is
/// about 200 KB.
pub const TREE_UPLOAD_LIMIT: usize = 8 << 20;

/// The largest answer the service builds (a strategy's tree, a tree's view): an answer waits in
/// memory until its client reads it, so its size bounds what an unread answer holds. The
/// Explorer's view of the optimal Bulls and Cows tree is well within it; the trees of the blind
/// baselines (one guess per code, hundreds of thousands of nodes) are not, and are refused
/// before their answer is written.
pub const MAX_ANSWER_BYTES: usize = 4 << 20;

/// Every node of a view takes at least this many bytes of its answer (a guess, its counts,
/// the branch to it), so a tree with more than [`MAX_ANSWER_BYTES`] / this many nodes is
/// refused without building its view.
const MIN_VIEW_NODE_BYTES: usize = 64;

/// Every node of a tree file takes at least this many bytes (a guess and its branch).
const MIN_TREE_NODE_BYTES: usize = 12;

/// A tree for the Explorer: a tree file's contents to check, or a strategy whose tree to build.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TreeViewBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    /// A strategy whose tree the service builds for the rules.
    strategy: Option<String>,
    /// A tree file's contents, in the `moo tree` format (its own rules apply), kept as text and
    /// read by the tree's own parser, which caps the nesting as `moo tree verify` does.
    tree: Option<Box<serde_json::value::RawValue>>,
}

impl Service {
    /// Measures strategies against every secret, as `moo bench` does.
    pub fn bench(&self, body: BenchBody) -> Result<Job<BenchReport>, ServiceError> {
        let limit = (self.limits.bench_max_codes, BENCH);
        let rules = rules_within(body.preset, body.rules, limit.0, BENCH)?;
        let mut names: Vec<String> = Vec::new();
        for n in body.strategies.unwrap_or_default() {
            check_offered(&n)?;
            // A name given twice is measured once: its row would be the same.
            if !names.contains(&n) {
                names.push(n);
            }
        }
        let job_rules = rules.clone();
        Ok(Job::new(
            Work::Long,
            self.limits.bench_time_limit,
            rules,
            limit,
            move |service, space, stop| {
                // With no list, every strategy that can play these rules by name alone.
                let names = if names.is_empty() {
                    let mut options = StrategyOptions::default();
                    options.stop = stop.clone();
                    strategy::playable(space, &options)
                        .into_iter()
                        .map(String::from)
                        .collect()
                } else {
                    names
                };
                let cache = &service.bench_cache;
                let results = names
                    .iter()
                    .map(|n| match cache.get(&job_rules, n) {
                        Some(r) => BenchRow::Done(r),
                        None => match bench::run(space, n, &stop) {
                            Ok(r) => {
                                cache.put(&job_rules, n, &r);
                                BenchRow::Done(r)
                            }
                            Err(e) => BenchRow::Failed {
                                strategy: n.clone(),
                                error: e.message,
                            },
                        },
                    })
                    .collect();
                Ok(BenchReport {
                    rules: RulesReport::new(&job_rules),
                    results,
                })
            },
        ))
    }

    /// The decision tree of a strategy, as the JSON text `moo tree` writes.
    pub fn tree(&self, body: TreeBody) -> Result<Job<String>, ServiceError> {
        let limit = (self.limits.bench_max_codes, TREES);
        let rules = rules_within(body.preset, body.rules, limit.0, TREES)?;
        let name = strategy_named(body.strategy)?;
        Ok(Job::new(
            Work::Long,
            self.limits.bench_time_limit,
            rules,
            limit,
            move |_, space, stop| {
                let tree = grow_tree(&name, space, &stop, (MIN_TREE_NODE_BYTES, "tree"))?;
                // Written here, on the job's large stack: writing nests once per guess of the
                // longest game, thousands deep for brute force.
                let json = tree.to_json(false);
                check_answer_size(json.len(), "tree")?;
                Ok(json)
            },
        ))
    }

    /// A tree checked as `moo tree verify` checks it, with each node's figures, either built
    /// from a strategy or uploaded, as the JSON text of a [`TreeView`]: the Explorer shows only
    /// what this returns. A view whose answer would pass [`MAX_ANSWER_BYTES`] is refused.
    pub fn tree_view(&self, body: TreeViewBody) -> Result<Job<String>, ServiceError> {
        let limit = (self.limits.bench_max_codes, TREES);
        let time_limit = self.limits.bench_time_limit;
        match (body.tree, body.strategy) {
            (Some(_), Some(_)) => Err(ServiceError::invalid(
                "give either a \"tree\" or a \"strategy\" to build one, not both",
            )),
            (None, None) => Err(ServiceError::invalid(
                "give a \"tree\" to check, or a \"strategy\" whose tree to build",
            )),
            (Some(value), None) => {
                if body.preset.is_some() || body.rules.is_some() {
                    return Err(ServiceError::invalid(
                        "a tree file carries its own rules: send it without \"preset\" or \"rules\"",
                    ));
                }
                let tree = DecisionTree::from_json(value.get())
                    .map_err(|e| ServiceError::invalid(e.to_string()))?;
                let rules = tree.rules().clone();
                check_size(&rules, limit.0, limit.1)?;
                Ok(Job::new(
                    Work::Long,
                    time_limit,
                    rules,
                    limit,
                    move |_, space, _| view_text(&tree, space),
                ))
            }
            (None, Some(name)) => {
                let rules = rules_within(body.preset, body.rules, limit.0, TREES)?;
                check_offered(&name)?;
                Ok(Job::new(
                    Work::Long,
                    time_limit,
                    rules,
                    limit,
                    move |_, space, stop| {
                        let tree =
                            grow_tree(&name, space, &stop, (MIN_VIEW_NODE_BYTES, "tree's view"))?;
                        bench::on_long_pool(|| view_text(&tree, space))
                    },
                ))
            }
        }
    }
}

/// The view of `tree` as JSON text, refused if it would pass [`MAX_ANSWER_BYTES`].
fn view_text(tree: &DecisionTree, space: &CodeSpace) -> Result<String, ServiceError> {
    within_answer_cap(tree.nodes().len(), MIN_VIEW_NODE_BYTES, "tree's view")?;
    let view: TreeView =
        treeview::view(tree, space).map_err(|e| ServiceError::invalid(e.to_string()))?;
    let json = crate::to_json(&view)?;
    check_answer_size(json.len(), "tree's view")?;
    Ok(json)
}

/// Refuses an answer of `nodes` nodes, each at least `node_bytes` long, that cannot fit in
/// [`MAX_ANSWER_BYTES`], before anything is written.
fn within_answer_cap(nodes: usize, node_bytes: usize, what: &str) -> Result<(), ServiceError> {
    if nodes.saturating_mul(node_bytes) > MAX_ANSWER_BYTES {
        return Err(too_large_answer(format!("it has {nodes} guesses"), what));
    }
    Ok(())
}

/// Refuses an answer of `bytes` past [`MAX_ANSWER_BYTES`].
fn check_answer_size(bytes: usize, what: &str) -> Result<(), ServiceError> {
    if bytes > MAX_ANSWER_BYTES {
        return Err(too_large_answer(format!("it takes {bytes} bytes"), what));
    }
    Ok(())
}

fn too_large_answer(size: String, what: &str) -> ServiceError {
    ServiceError::new(
        422,
        ErrorCode::AnswerTooLarge,
        format!(
            "this {what} is too large to send: {size}, and this server sends at most {MAX_ANSWER_BYTES} bytes; \
             choose a strategy that adapts to the answers (not a blind baseline), or smaller rules"
        ),
    )
}

/// The strategy a tree request names, or a refusal listing those that have trees.
fn strategy_named(name: Option<String>) -> Result<String, ServiceError> {
    let Some(name) = name else {
        return Err(ServiceError::invalid(format!(
            "name the strategy whose tree to build, one of {}",
            strategy::list()
                .filter(|s| s.deterministic)
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    check_offered(&name)?;
    Ok(name)
}

/// The decision tree of the strategy `name`, grown within `stop` on the pool of long jobs, for
/// an answer of `what` whose nodes take at least `node_bytes` each: growing stops as soon as
/// the answer could not fit in [`MAX_ANSWER_BYTES`], so a blind baseline's tree (hundreds of
/// thousands of guesses) is refused without being grown whole.
fn grow_tree(
    name: &str,
    space: &CodeSpace,
    stop: &Stop,
    (node_bytes, what): (usize, &str),
) -> Result<DecisionTree, ServiceError> {
    let build = bench::builder(name, space, stop);
    let mut options = EvalOptions::default();
    options.deadline = stop.deadline();
    options.cancel = stop.flag().cloned();
    let max_nodes = MAX_ANSWER_BYTES / node_bytes;
    let grown =
        bench::on_long_pool(|| moo_core::strategy_tree(space, &build, &options, Some(max_nodes)))
            .map_err(|e| match e {
            EvalError::TooManyNodes { max, .. } => {
                too_large_answer(format!("it has more than {max} guesses"), what)
            }
            e => ServiceError::from_eval(e, "the decision tree"),
        })?;
    Ok(grown.tree)
}
