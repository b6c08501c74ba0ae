//! Playing a decision tree as a [`Strategy`], and the optimal tree shipped for Bulls and Cows.

use std::sync::{Arc, OnceLock};

use super::{search, DecisionTree, Progress, SearchOptions, SearchOutcome, TreeError};
use crate::code::Code;
use crate::rules::Rules;
use crate::space::CodeSpace;
use crate::strategy::{GuessPool, Knowledge, Strategy, StrategyError, StrategyOptions};

/// The optimal-average tree for Bulls and Cows (4 distinct digits 0-9, 26274 guesses in total),
/// as written by `moo tree build --objective average`.
pub const BULLS_AVERAGE_JSON: &str = include_str!("../../trees/bulls-4x10-average.json");

/// Spaces up to this many codes get an optimal tree searched on demand (a second or so).
pub const ON_DEMAND_MAX_CODES: usize = 1296;

/// The shipped optimal Bulls and Cows tree, parsed once.
pub fn optimal_bulls_tree() -> Arc<DecisionTree> {
    static TREE: OnceLock<Arc<DecisionTree>> = OnceLock::new();
    TREE.get_or_init(|| {
        Arc::new(
            DecisionTree::from_json(BULLS_AVERAGE_JSON)
                .expect("the shipped tree parses (checked by a test)"),
        )
    })
    .clone()
}

/// Plays the guesses of a decision tree.
#[derive(Debug, Clone)]
pub struct TreeStrategy {
    name: String,
    tree: Arc<DecisionTree>,
}

impl TreeStrategy {
    /// A strategy following `tree` in `space`, which must be for the same rules.
    pub fn new(
        name: impl Into<String>,
        tree: Arc<DecisionTree>,
        space: &CodeSpace,
    ) -> Result<TreeStrategy, StrategyError> {
        let name = name.into();
        if tree.rules() != space.rules() {
            return Err(StrategyError::Unsupported {
                name,
                rules: space.rules().describe(),
                reason: format!("the tree is for {}", tree.rules().describe()),
            });
        }
        Ok(TreeStrategy { name, tree })
    }

    /// The strategy registered as `optimal`: the shipped tree for Bulls and Cows, or a tree
    /// searched now for spaces of at most [`ON_DEMAND_MAX_CODES`] codes.
    pub fn optimal(
        space: &CodeSpace,
        options: &StrategyOptions,
    ) -> Result<TreeStrategy, StrategyError> {
        if space.rules() == &Rules::bulls() && options.guesses == GuessPool::All {
            return TreeStrategy::new("optimal", optimal_bulls_tree(), space);
        }
        let unsupported = |reason: String| StrategyError::Unsupported {
            name: "optimal".into(),
            rules: space.rules().describe(),
            reason,
        };
        if space.len() > ON_DEMAND_MAX_CODES {
            let mode = match options.guesses {
                GuessPool::All => "",
                GuessPool::Consistent => " --guesses consistent",
            };
            return Err(unsupported(format!(
                "no optimal tree ships for these rules and {} codes are too many to search on the spot; \
                 build one with `moo tree build <rule flags>{mode} -o tree.json` and use --strategy tree:tree.json",
                space.len()
            )));
        }
        let search_options = SearchOptions {
            guesses: options.guesses,
            ..SearchOptions::default()
        };
        match search(space, &search_options, &Progress::new()) {
            Ok(SearchOutcome::Found { tree, .. }) => {
                TreeStrategy::new("optimal", Arc::new(tree), space)
            }
            Ok(SearchOutcome::Impossible { .. }) => {
                Err(unsupported("the search found no tree".into()))
            }
            Err(e) => Err(unsupported(e.to_string())),
        }
    }

    /// The strategy registered as `tree:FILE`: reads, checks and verifies a tree file.
    pub fn from_file(path: &str, space: &CodeSpace) -> Result<TreeStrategy, StrategyError> {
        let name = format!("tree:{path}");
        let unsupported = |reason: String| StrategyError::Unsupported {
            name: name.clone(),
            rules: space.rules().describe(),
            reason,
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| unsupported(format!("cannot read {path}: {e}")))?;
        let tree = DecisionTree::from_json(&text).map_err(|e| unsupported(e.to_string()))?;
        if tree.rules() != space.rules() {
            return Err(unsupported(format!(
                "{path} is a tree for {}",
                tree.rules().describe()
            )));
        }
        tree.verify_in(space)
            .map_err(|e: TreeError| unsupported(format!("{path} is not a valid tree: {e}")))?;
        TreeStrategy::new(name.clone(), Arc::new(tree), space)
    }

    /// The tree being played.
    pub fn tree(&self) -> &DecisionTree {
        &self.tree
    }
}

impl Strategy for TreeStrategy {
    fn name(&self) -> &str {
        &self.name
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        let mut node = self.tree.root();
        let rules = self.tree.rules();
        for turn in knowledge.history.turns() {
            if turn.guess != node.guess {
                return Err(StrategyError::Unsupported {
                    name: self.name.clone(),
                    rules: rules.describe(),
                    reason: format!(
                        "the game left the tree: it guesses {} here, not {}",
                        rules.format_code(&node.guess),
                        rules.format_code(&turn.guess)
                    ),
                });
            }
            // A verified tree has a branch for every feedback some secret can give, so a missing
            // one means the answers contradict each other.
            let child = node
                .child(turn.feedback)
                .ok_or(StrategyError::NoCandidates)?;
            node = self.tree.node(child);
        }
        Ok(node.guess)
    }
}
