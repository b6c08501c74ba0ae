#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

/// Builder methods of an options struct: each `with_field(value)` sets one public field and
/// returns the options, so `Options::default().with_a(x).with_b(y)` reads as one value. The
/// options structs are `#[non_exhaustive]`, so callers outside the crate cannot set the fields
/// by a struct literal, and every field needs one of these, all the same but for name and type.
macro_rules! with_setters {
    ($options:ty { $($(#[$doc:meta])* $setter:ident: $field:ident: $ty:ty;)* }) => {
        impl $options {
            $(
                $(#[$doc])*
                pub fn $setter(mut self, $field: $ty) -> $options {
                    self.$field = $field;
                    self
                }
            )*
        }
    };
}

pub mod adversary;
pub mod advisor;
pub mod bound;
pub mod code;
pub mod codeset;
pub mod daily;
pub mod duel;
pub mod eval;
pub mod feedback;
pub mod hard;
pub mod histogram;
pub mod history;
pub mod kernel;
pub mod pool;
pub mod published;
pub mod review;
pub mod rules;
pub mod space;
pub mod stop;
pub mod strategy;
mod symmetry;
pub mod text;
pub mod tree;

pub use adversary::{Adversary, AdversaryAnswer, AdversaryOptions, AnswerMethod};
pub use advisor::{Advice, AdviceError, AdviceOptions, Advisor, Chooser, Position};
pub use code::Code;
pub use codeset::CodeSet;
pub use duel::{Duel, DuelError, DuelReport, Level, Move, Outcome, Phase};
pub use eval::{
    evaluate, strategy_tree, EvalError, EvalOptions, Evaluation, GuessTimes, RunSummary,
    StrategyTree,
};
pub use feedback::{Feedback, FeedbackError};
pub use histogram::Histogram;
pub use history::{History, Repair, Turn};
pub use kernel::{Kernel, KernelError};
pub use pool::GuessPool;
pub use review::{review, GameReview, MoveReview, ReviewError, ReviewOptions, Verdict};
pub use rules::{CodeError, Preset, Rules, RulesError};
pub use space::{CodeSpace, SpaceError};
pub use stop::Stop;
pub use strategy::{Knowledge, Strategy, StrategyError, StrategyOptions};
pub use tree::{DecisionTree, Objective, SearchOptions, SearchOutcome, TreeError, TreeStats};

/// `log2(x)`, the same to the last bit on every target: the platform's own (glibc natively, a
/// port in WebAssembly) may differ in the last place, and the entropy scores and estimates it
/// feeds decide between guesses, so the browser build would otherwise answer otherwise.
pub(crate) fn log2(x: f64) -> f64 {
    libm::log2(x)
}

/// A uniform index below `n`, drawn the same on every target: `gen_range` over `usize` draws
/// 64-bit words natively and 32-bit ones in WebAssembly, so a seeded sample (the advisor's on
/// the biggest games, a random strategy's guesses) would differ between the two builds.
pub(crate) fn index_below(rng: &mut impl rand::Rng, n: usize) -> usize {
    rng.gen_range(0..n as u64) as usize
}
