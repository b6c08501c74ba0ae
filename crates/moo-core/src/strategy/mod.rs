//! Strategies: how the code breaker picks its next guess.
//!
//! Every strategy implements one trait, [`Strategy`], and is found by name through one registry
//! ([`names`], [`by_name`]), which the CLI, the benchmark and the web server all share. One
//! harness, [`play`], plays any strategy against a known secret; [`crate::eval`] plays one against
//! every secret.
//!
//! Strategies sit above the exact search: `optimal` plays a tree the search found or the crate
//! ships ([`TreeStrategy`]), while the search itself knows nothing of strategies. What both
//! share lies below them: which codes may be guessed ([`GuessPool`]) and the symmetry reductions
//! (the crate's `symmetry` module).

mod book;
mod cows;
mod enumerate;
mod lookahead;
mod partition;
mod random;
mod refine;
mod registry;
mod sample;
mod simple;
mod tree;

pub use book::{
    build_opening, classes, is_arena, Book, Opening, OpeningPlan, SecondGuess, BOOK_SEED, SEEDS,
    THIRD_BUDGET, THIRD_MIN_CANDIDATES,
};
pub use cows::Cows;
pub use enumerate::Enumerate;
pub use partition::{
    partition_stats, Choice, PartitionScore, PartitionStats, PartitionStrategy, Sampling,
};
pub use random::Random;
pub use registry::{by_name, describe, info_of, list, names, playable, Cost, StrategyInfo};
pub use simple::Simple;
pub use tree::{
    missing_shipped_trees, provide_shipped_tree, shipped, shipped_totals, shipped_trees, Located,
    TreeStrategy, FAILURE_MEMORY, ON_DEMAND_MAX_CODES, ON_DEMAND_TIME,
};

pub use crate::pool::GuessPool;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::history::History;
use crate::space::CodeSpace;
use crate::stop::Stop;

/// Why a strategy could not produce a guess.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StrategyError {
    /// No code fits the feedback so far.
    #[error("no code fits all the feedback given so far: one of the answers must be wrong")]
    NoCandidates,
    /// The name matches no registered strategy.
    #[error("unknown strategy {name:?}: choose one of {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The registered names, comma-separated.
        known: String,
    },
    /// The strategy cannot play these rules.
    #[error("strategy {name:?} cannot play {rules}: {reason}")]
    Unsupported {
        /// The strategy.
        name: String,
        /// The rules, described.
        rules: String,
        /// Why not.
        reason: String,
    },
    /// The strategy gave up (for example a random strategy at its guess cap).
    #[error("strategy {0:?} gave up")]
    GaveUp(String),
}

/// Options shared by every strategy; each uses those that apply to it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct StrategyOptions {
    /// Which codes may be guessed.
    pub guesses: GuessPool,
    /// The seed of strategies that draw random numbers (and of the partition heuristics'
    /// samples on big games).
    pub seed: u64,
    /// The most (guess, candidate) pairs a partition heuristic scores per guess before it
    /// samples ([`Sampling::max_pairs`]).
    pub max_pairs: u64,
    /// When work done while building a strategy must stop: the on-the-spot search of `optimal`
    /// takes the caller's deadline and cancel flag, so a request that is cancelled or out of
    /// time frees its thread at once.
    pub stop: Stop,
}

impl Default for StrategyOptions {
    fn default() -> StrategyOptions {
        StrategyOptions {
            guesses: GuessPool::default(),
            seed: 0,
            max_pairs: Sampling::DEFAULT_MAX_PAIRS,
            stop: Stop::never(),
        }
    }
}

/// What the code breaker knows when choosing a guess.
#[derive(Debug, Clone, Copy)]
pub struct Knowledge<'a> {
    /// The code space of the game.
    pub space: &'a CodeSpace,
    /// The turns so far.
    pub history: &'a History,
    /// The codes still consistent with the history (never empty when a strategy is asked).
    pub candidates: &'a CodeSet,
}

impl<'a> Knowledge<'a> {
    /// What is known after `history` in `space`, whose consistent codes are `candidates`.
    pub const fn new(
        space: &'a CodeSpace,
        history: &'a History,
        candidates: &'a CodeSet,
    ) -> Knowledge<'a> {
        Knowledge {
            space,
            history,
            candidates,
        }
    }
}

/// A code-breaking strategy.
///
/// Deterministic strategies answer the same knowledge with the same guess, which lets evaluation
/// share work between secrets with a common prefix of play.
pub trait Strategy: Send {
    /// The registry name of the strategy.
    fn name(&self) -> &str;

    /// The next guess; it need not be a candidate.
    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError>;

    /// Whether the guess depends only on the knowledge (no randomness, no hidden state).
    fn is_deterministic(&self) -> bool {
        true
    }
}

/// Plays `strategy` against `secret` until it wins or `max_guesses` guesses are used; returns the
/// history either way (it ends in a win unless the cap was hit).
pub fn play(
    strategy: &mut dyn Strategy,
    space: &CodeSpace,
    secret: &Code,
    max_guesses: usize,
) -> Result<History, StrategyError> {
    let mut history = History::new();
    let mut candidates = space.all();
    let length = space.length();
    while history.len() < max_guesses && !history.is_won(length) {
        if candidates.is_empty() {
            return Err(StrategyError::NoCandidates);
        }
        let guess = strategy.next_guess(&Knowledge::new(space, &history, &candidates))?;
        let feedback = guess.score(secret);
        candidates = space.filter_code(&candidates, &guess, feedback);
        history.push(guess, feedback);
    }
    Ok(history)
}
