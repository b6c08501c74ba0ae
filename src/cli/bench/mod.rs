//! `moo bench`: measurements, one subcommand each. With no subcommand it benchmarks strategies
//! (`strategies`), as it always has; `advisor`, `review` and `arena` time the advisor in the three
//! ways moo serves it (one position, a whole game's review, CodinGame's arena).

mod advisor;
mod arena;
mod plot;
mod review;
mod strategies;

use clap::Subcommand;

/// Arguments of `moo bench`.
#[derive(Debug, clap::Args)]
#[command(
    args_conflicts_with_subcommands = true,
    after_help = "Examples:
  moo bench                                      every strategy, Bulls and Cows
  moo bench --game mastermind -S knuth           Knuth's 5801 guesses over 1296 secrets
  moo bench -S knuth,entropy --guesses consistent --json
  moo bench -S random,enumerate,cows --runs 10 --seed 1
  moo bench --plot histograms.svg                the histograms side by side
  moo bench --length 10 -S simple,entropy --secrets 200 --seed 1
                                                 200 random secrets of 10 digits, each guess timed
  moo bench arena --secrets 200 --seed 1         the advisor scored as CodinGame's arena scores bots"
)]
pub struct Args {
    #[command(subcommand)]
    command: Option<BenchCommand>,

    #[command(flatten)]
    strategies: strategies::Args,
}

#[derive(Debug, Subcommand)]
enum BenchCommand {
    /// Time the advisor on many positions and count the moves it proves optimal.
    ///
    /// The advisor is the default of `solve` and `hint`; each position after --openings gets
    /// one with an empty cache.
    Advisor(advisor::Args),
    /// Time the review of whole games (`moo review`) and count the moves it proves.
    ///
    /// Games against seeded secrets are played by one strategy; each move's proofs run within
    /// --time-limit, each game with an empty cache.
    Review(review::Args),
    /// Score the advisor as CodinGame's "Bulls and Cows 2" arena scores a bot.
    ///
    /// The arena plays distinct digits with no leading zero, lengths 1 to 10, on one thread
    /// with a time limit per guess; its score weighs one game of length 1 and five of each
    /// other length.
    Arena(arena::Args),
}

/// Runs `moo bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    match args.command {
        None => strategies::run(args.strategies),
        Some(BenchCommand::Advisor(a)) => advisor::command(a),
        Some(BenchCommand::Review(a)) => review::command(a),
        Some(BenchCommand::Arena(a)) => arena::command(a),
    }
}
