//! The one list of strategies, by name.

use super::{
    Cows, Enumerate, PartitionScore, PartitionStrategy, Random, Simple, Strategy, StrategyError,
    StrategyOptions,
};
use crate::space::CodeSpace;

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
];

fn partition(
    score: PartitionScore,
    options: &StrategyOptions,
) -> Result<Box<dyn Strategy>, StrategyError> {
    Ok(Box::new(PartitionStrategy::new(score, options.guesses)))
}

/// The names of every registered strategy, in a stable order.
pub fn names() -> impl Iterator<Item = &'static str> {
    ENTRIES.iter().map(|e| e.name)
}

/// The one-line description of a strategy.
pub fn describe(name: &str) -> Option<&'static str> {
    ENTRIES.iter().find(|e| e.name == name).map(|e| e.about)
}

/// Builds the strategy called `name` for `space`.
pub fn by_name(
    name: &str,
    space: &CodeSpace,
    options: &StrategyOptions,
) -> Result<Box<dyn Strategy>, StrategyError> {
    let entry = ENTRIES
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| StrategyError::Unknown {
            name: name.to_string(),
            known: names().collect::<Vec<_>>().join(", "),
        })?;
    (entry.build)(space, options)
}
