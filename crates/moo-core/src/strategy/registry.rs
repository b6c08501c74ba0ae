//! The one list of strategies, by name.

use super::{
    Cows, Enumerate, PartitionScore, PartitionStrategy, Random, Sampling, Simple, Strategy,
    StrategyError, StrategyOptions, TreeStrategy,
};
use crate::space::CodeSpace;

/// Builds a strategy for a space.
type Builder = fn(&CodeSpace, &StrategyOptions) -> Result<Box<dyn Strategy>, StrategyError>;

/// How much work a strategy's guess takes, so front ends can tell users what to expect and
/// pick what to run by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Cost {
    /// No scoring at all: a scan of the candidates or a table lookup.
    Instant,
    /// One guess ahead: partitions scored, on samples when a game is too large to score in full.
    Lookahead,
    /// An optimal tree: shipped, or searched once per process for small games.
    Exact,
    /// Ignores feedback: a game can take as many guesses as there are codes.
    Blind,
}

/// What the front ends know about a registered strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[non_exhaustive]
pub struct StrategyInfo {
    /// The registry name.
    pub name: &'static str,
    /// One line on what it guesses.
    pub about: &'static str,
    /// Whether its guess depends only on the position (no randomness, no hidden state).
    pub deterministic: bool,
    /// Whether `moo bench` runs it when no strategy is named.
    pub bench_default: bool,
    /// How much work a guess takes.
    pub cost: Cost,
}

/// A registered strategy: what is known about it, and how to build it for a space.
struct Entry {
    info: StrategyInfo,
    build: Builder,
}

const fn info(
    name: &'static str,
    about: &'static str,
    deterministic: bool,
    bench_default: bool,
    cost: Cost,
) -> StrategyInfo {
    StrategyInfo {
        name,
        about,
        deterministic,
        bench_default,
        cost,
    }
}

const ENTRIES: &[Entry] = &[
    Entry {
        info: info(
            "simple",
            "guess the first code still possible, in alphabet order",
            true,
            true,
            Cost::Instant,
        ),
        build: |_, _| Ok(Box::new(Simple)),
    },
    Entry {
        info: info(
            "knuth",
            "minimax (Knuth 1976): the guess whose largest feedback class is smallest",
            true,
            true,
            Cost::Lookahead,
        ),
        build: |_, o| partition(PartitionScore::Minimax, o),
    },
    Entry {
        info: info(
            "expected-size",
            "the guess that leaves the fewest codes on average (smallest sum of squared class sizes)",
            true,
            true,
            Cost::Lookahead,
        ),
        build: |_, o| partition(PartitionScore::ExpectedSize, o),
    },
    Entry {
        info: info(
            "entropy",
            "the guess whose feedback carries the most information (largest entropy)",
            true,
            true,
            Cost::Lookahead,
        ),
        build: |_, o| partition(PartitionScore::Entropy, o),
    },
    Entry {
        info: info(
            "most-parts",
            "the guess with the most distinct possible feedbacks (Kooi 2005)",
            true,
            true,
            Cost::Lookahead,
        ),
        build: |_, o| partition(PartitionScore::MostParts, o),
    },
    Entry {
        info: info(
            "cows",
            "find the secret's symbols from bulls + cows alone (an absent block first), then arrange them",
            true,
            true,
            Cost::Instant,
        ),
        build: |_, _| Ok(Box::new(Cows)),
    },
    Entry {
        info: info(
            "enumerate",
            "brute force: every code in alphabet order until one hits, ignoring feedback",
            true,
            true,
            Cost::Blind,
        ),
        build: |_, _| Ok(Box::<Enumerate>::default()),
    },
    Entry {
        info: info(
            "random",
            "a uniformly random code every turn, ignoring feedback (a baseline; uses the seed); with consistent guesses, a random code still possible",
            false,
            true,
            Cost::Blind,
        ),
        build: |_, o| Ok(Box::new(Random::new(o.seed).with_guesses(o.guesses))),
    },
    Entry {
        info: info(
            "optimal",
            "the proven fewest-guesses-on-average tree (shipped for Bulls and Cows, searched on the spot for games of up to 1296 codes)",
            true,
            false,
            Cost::Exact,
        ),
        build: |space, options| Ok(Box::new(TreeStrategy::optimal(space, options)?)),
    },
];

fn partition(
    score: PartitionScore,
    options: &StrategyOptions,
) -> Result<Box<dyn Strategy>, StrategyError> {
    Ok(Box::new(
        PartitionStrategy::new(score, options.guesses)
            .with_sampling(Sampling::new(options.max_pairs, options.seed)),
    ))
}

/// Every registered strategy, in a stable order.
pub fn list() -> impl Iterator<Item = &'static StrategyInfo> {
    ENTRIES.iter().map(|e| &e.info)
}

/// What the registry knows about `name`.
pub fn info_of(name: &str) -> Option<&'static StrategyInfo> {
    list().find(|i| i.name == name)
}

/// The names of every registered strategy, in a stable order.
pub fn names() -> impl Iterator<Item = &'static str> {
    list().map(|i| i.name)
}

/// The registered strategies that can play `space`, in registry order, less those that refuse
/// these rules (such as `optimal` for a game too large to search on the spot). Building each
/// is the only sure test, so this may run an on-the-spot search once per process.
pub fn playable(space: &CodeSpace, options: &StrategyOptions) -> Vec<&'static str> {
    ENTRIES
        .iter()
        .filter(|e| (e.build)(space, options).is_ok())
        .map(|e| e.info.name)
        .collect()
}

/// The one-line description of a strategy.
pub fn describe(name: &str) -> Option<&'static str> {
    info_of(name).map(|i| i.about)
}

/// Builds the strategy called `name` for `space`.
pub fn by_name(
    name: &str,
    space: &CodeSpace,
    options: &StrategyOptions,
) -> Result<Box<dyn Strategy>, StrategyError> {
    let entry = ENTRIES
        .iter()
        .find(|e| e.info.name == name)
        .ok_or_else(|| StrategyError::Unknown {
            name: name.to_string(),
            known: names().collect::<Vec<_>>().join(", "),
        })?;
    (entry.build)(space, options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn names_are_unique_and_every_entry_builds_for_bulls_and_cows() {
        let mut seen = std::collections::HashSet::new();
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        for i in list() {
            assert!(seen.insert(i.name), "{} twice", i.name);
            let s = by_name(i.name, &space, &StrategyOptions::default()).unwrap();
            assert_eq!(s.name(), i.name);
            assert_eq!(s.is_deterministic(), i.deterministic, "{}", i.name);
        }
    }

    #[test]
    fn an_unknown_name_lists_the_known_ones() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let err = by_name("tree:x.json", &space, &StrategyOptions::default())
            .err()
            .unwrap();
        assert!(err.to_string().contains("knuth, expected-size"), "{err}");
    }
}
