//! The flags that say what an exact search looks for, shared by `tree build` and `tree split`.

use clap::{Args as ClapArgs, ValueEnum};
use moo_core::strategy::GuessPool;
use moo_core::tree::{Objective, SearchOptions};

use crate::cli::GuessPoolArg;

/// The deepest `--max-depth`: deeper than any optimal tree of a space moo can enumerate.
const MAX_DEPTH: i64 = 1000;

/// What to optimise, as typed after `--objective`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ObjectiveArg {
    /// Fewest guesses in total over all secrets (best average); ties: smaller worst case.
    Average,
    /// Fewest guesses that always suffice; ties: fewest in total.
    Worst,
    /// Fewest guesses that always suffice, then fewest secrets needing that many, then fewest
    /// in total.
    FewestWorst,
}

/// The flags that say what an exact search looks for (`tree build`, `tree split`).
#[derive(Debug, ClapArgs)]
#[command(next_help_heading = "Search")]
pub struct SearchArgs {
    /// What the tree minimises.
    #[arg(long, value_enum, default_value = "average")]
    objective: ObjectiveArg,

    /// Only strategies that solve every secret within D guesses; if none exists, say so
    /// (a proof) and write no tree.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=MAX_DEPTH))]
    max_depth: Option<u32>,

    /// Which codes the strategy may guess.
    #[arg(long, value_enum, default_value = "all")]
    guesses: GuessPoolArg,
}

impl SearchArgs {
    /// The library's options for these flags.
    pub fn options(&self) -> SearchOptions {
        let objective = match self.objective {
            ObjectiveArg::Average => Objective::Average,
            ObjectiveArg::Worst => Objective::Worst,
            ObjectiveArg::FewestWorst => Objective::FewestWorst,
        };
        SearchOptions::new(objective)
            .with_max_depth(self.max_depth)
            .with_guesses(GuessPool::from(self.guesses))
    }
}
