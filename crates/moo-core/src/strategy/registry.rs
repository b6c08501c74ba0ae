//! The one list of strategies, by name.

use super::{
    Cows, Enumerate, PartitionScore, PartitionStrategy, Random, Sampling, Simple, Strategy,
    StrategyError, StrategyOptions,
};
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
        name: "knuth",
        about: "minimax (Knuth 1976): the guess whose largest feedback class is smallest",
        build: |_, o| partition(PartitionScore::Minimax, o),
    },
    Entry {
        name: "expected-size",
        about: "the guess that leaves the fewest codes on average (smallest sum of squared class sizes)",
        build: |_, o| partition(PartitionScore::ExpectedSize, o),
    },
    Entry {
        name: "entropy",
        about: "the guess whose feedback carries the most information (largest entropy)",
        build: |_, o| partition(PartitionScore::Entropy, o),
    },
    Entry {
        name: "most-parts",
        about: "the guess with the most distinct possible feedbacks (Kooi 2005)",
        build: |_, o| partition(PartitionScore::MostParts, o),
    },
    Entry {
        name: "cows",
        about: "find the secret's symbols from bulls + cows alone (an absent block first), then arrange them",
        build: |_, _| Ok(Box::new(Cows)),
    },
    Entry {
        name: "enumerate",
        about: "brute force: every code in alphabet order until one hits, ignoring feedback",
        build: |_, _| Ok(Box::<Enumerate>::default()),
    },
    Entry {
        name: "random",
        about: "a uniformly random code every turn, ignoring feedback (a baseline; uses --seed)",
        build: |_, o| Ok(Box::new(Random::new(o.seed))),
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

fn partition(
    score: PartitionScore,
    options: &StrategyOptions,
) -> Result<Box<dyn Strategy>, StrategyError> {
    Ok(Box::new(
        PartitionStrategy::new(score, options.guesses)
            .with_sampling(Sampling::new(options.max_pairs, options.seed)),
    ))
}

/// The names of every registered strategy, in a stable order.
pub fn names() -> impl Iterator<Item = &'static str> {
    ENTRIES.iter().map(|e| e.name)
}

/// The registered strategies that can play `space` by name alone, in registry order: every
/// entry but the `tree:FILE` pattern, less those that refuse these rules (such as `optimal` for a
/// game too large to search on the spot). Building each is the only sure test, so this may run
/// an on-the-spot search once per process.
pub fn playable(space: &CodeSpace, options: &StrategyOptions) -> Vec<&'static str> {
    ENTRIES
        .iter()
        .filter(|e| e.name != TREE_PREFIX_NAME && (e.build)(space, options).is_ok())
        .map(|e| e.name)
        .collect()
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
