//! `moo`: play, solve and study Bulls and Cows and Mastermind from the command line.

mod allocator;
mod cli;

use std::io;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

#[global_allocator]
static ALLOCATOR: allocator::HugePages = allocator::HugePages;

/// Bulls and Cows (MOO) and Mastermind: play, solve, get hints, benchmark strategies.
#[derive(Debug, Parser)]
#[command(name = "moo", version, about, propagate_version = true)]
#[command(after_help = "Examples:
  moo play                          guess the computer's secret (4 distinct digits)
  moo solve                         think of a secret; the computer guesses it
  moo solve --secret 4271           watch the computer solve a given secret
  moo duel --level 3                race the computer, each guessing the other's secret
  moo hint 0123=1B2C 4567=0B1C      what is left, and the best next guess
  moo review 0123=1B2C 4567=0B1C    what each guess cost against the best move
  moo play --game mastermind        4 pegs of colours 1-6, repeats allowed
  moo daily                         the day's puzzle, the same for everyone
  moo serve                         play and solve in a web browser")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// You guess the computer's secret.
    Play(cli::play::Args),
    /// Today's puzzle, the same secret for everyone: play it, then share your result.
    Daily(cli::daily::Args),
    /// The computer guesses your secret; you type the feedback.
    Solve(cli::solve::Args),
    /// You and the computer each hold a secret and take turns guessing: first to find wins.
    Duel(cli::duel::Args),
    /// The best next guess and the codes left, from a game's history.
    Hint(cli::hint::Args),
    /// What each move of a game cost against the best move, proven where the search fits.
    Review(cli::review::Args),
    /// Provably optimal strategies as decision trees: build, verify, show.
    Tree(cli::tree::Args),
    /// Every strategy against every secret: totals, histograms, times; the advisor timed.
    Bench(cli::bench::Args),
    /// Crack a long secret (hundreds of symbols) through a counting bulls-and-cows oracle.
    Crack(cli::crack::Args),
    /// Serve the game, the solver and the tree explorer in a web browser.
    Serve(cli::serve::Args),
    /// Print a shell's tab-completion script (bash, zsh, fish, powershell, elvish).
    Completions(cli::completions::Args),
    /// Print the manual page (roff), of moo or of one subcommand.
    Man(cli::man::Args),
}

fn main() -> ExitCode {
    allocator::tune();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            let _ = e.print();
            return ExitCode::from(2);
        }
        Err(e) => {
            // Help and version go to stdout, through the one path that reports a failed write
            // (help to a full disk is an error) and takes a closed pipe quietly.
            let text = e.render().to_string();
            return match cli::output::write_stdout(format_args!("{text}"))
                .and_then(|()| cli::output::flush_stdout())
            {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("error: {err:#}");
                    ExitCode::from(1)
                }
            };
        }
    };
    match run(cli).and_then(|()| cli::output::flush_stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(if err.is::<cli::UsageError>() { 2 } else { 1 })
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    // A kernel level the search cannot use is refused before anything runs, not ignored.
    moo_core::Kernel::from_env().map_err(|e| cli::UsageError(e.to_string()))?;
    match cli.command {
        Command::Play(args) => cli::play::run(args),
        Command::Daily(args) => cli::daily::run(args),
        Command::Solve(args) => cli::solve::run(args),
        Command::Duel(args) => cli::duel::run(args),
        Command::Hint(args) => cli::hint::run(args),
        Command::Review(args) => cli::review::run(args),
        Command::Tree(args) => cli::tree::run(args),
        Command::Bench(args) => cli::bench::run(args),
        Command::Crack(args) => cli::crack::run(args),
        Command::Serve(args) => cli::serve::run(args),
        Command::Completions(args) => cli::completions::run(args, Cli::command()),
        Command::Man(args) => cli::man::run(args, Cli::command()),
    }
}

/// A reader of our output that went away (`moo ... | head`) is not an error.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
