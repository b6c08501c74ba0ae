//! The one list of strategies, by name.

use super::{Simple, Strategy, StrategyError, StrategyOptions};
use crate::space::CodeSpace;
use crate::tree::TreeStrategy;

/// Builds a strategy for a space.
type Builder = fn(&CodeSpace, &StrategyOptions) -> Result<Box<dyn Strategy>, StrategyError>;

/// A registered strategy: its name, a one-line description, and how to build it for a space.
struct Entry {
    name: &'static str,
    about: &'static str,
    build: Builder,
}

const ENTRIES: &[Entry] = &[
    Entry {
        name: "simple",
        about: "guess the first code still possible, in alphabet order",
        build: |_, _| Ok(Box::new(Simple)),
    },
    Entry {
        name: "optimal",
        about: "the proven fewest-guesses-on-average tree (shipped for Bulls and Cows, searched on the spot for small games)",
        build: |space, options| Ok(Box::new(TreeStrategy::optimal(space, options)?)),
    },
    Entry {
        name: TREE_PREFIX_NAME,
        about: "follow the decision tree in FILE (as written by `moo tree build`)",
        build: |_, _| unreachable!("tree:FILE is built from its file name in by_name"),
    },
];

/// The listed name of the tree-file strategy; any `tree:<path>` selects it.
const TREE_PREFIX_NAME: &str = "tree:FILE";

/// The names of every registered strategy, in a stable order.
pub fn names() -> impl Iterator<Item = &'static str> {
    ENTRIES.iter().map(|e| e.name)
}

/// The one-line description of a strategy.
pub fn describe(name: &str) -> Option<&'static str> {
    let name = if name.starts_with("tree:") {
        TREE_PREFIX_NAME
    } else {
        name
    };
    ENTRIES.iter().find(|e| e.name == name).map(|e| e.about)
}

/// Builds the strategy called `name` for `space`.
pub fn by_name(
    name: &str,
    space: &CodeSpace,
    options: &StrategyOptions,
) -> Result<Box<dyn Strategy>, StrategyError> {
    if let Some(path) = name.strip_prefix("tree:") {
        return Ok(Box::new(TreeStrategy::from_file(path, space)?));
    }
    let entry = ENTRIES
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| StrategyError::Unknown {
            name: name.to_string(),
            known: names().collect::<Vec<_>>().join(", "),
        })?;
    (entry.build)(space, options)
}
