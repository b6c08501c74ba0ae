//! `moo hint`: what a game's history leaves, and the best next guess.

use moo_core::text::excerpt;
use moo_core::{CodeSpace, Feedback, History, Rules};

use super::advice::{self, AdviceArgs, Guesser};
use super::output::outln;
use super::{RuleArgs, UsageError};

/// Arguments of `moo hint`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo hint 0123=1B2C 4567=0B1C
  moo hint --game mastermind 1122=1B0C --json")]
pub struct Args {
    /// The turns so far, each GUESS=FEEDBACK (feedback as 1B2C, "1 2", 12 or 1,2).
    #[arg(value_name = "GUESS=FEEDBACK")]
    turns: Vec<String>,

    /// List at most this many remaining codes, in text and in JSON (0 lists none).
    #[arg(long, default_value_t = 40, value_name = "N")]
    list: usize,

    /// Print the position as JSON: {"turns", "remaining", "candidates", "won", "advice",
    /// "contradiction"}, the same object the web API answers.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    advice: AdviceArgs,

    #[command(flatten)]
    rules: RuleArgs,
}

/// The most turns a history may have: far more than any game needs, and a bound on the work.
pub const MAX_TURNS: usize = 10_000;

/// Reads `GUESS=FEEDBACK` turns into a history; any malformed turn is a usage error.
pub fn parse_turns(rules: &Rules, turns: &[String]) -> anyhow::Result<History> {
    if turns.len() > MAX_TURNS {
        return Err(UsageError(format!(
            "{} turns is too many: give at most {MAX_TURNS}",
            turns.len()
        ))
        .into());
    }
    let mut history = History::new();
    for (i, turn) in turns.iter().enumerate() {
        let (guess, feedback) = turn.split_once('=').ok_or_else(|| {
            UsageError(format!(
                "turn {} ({:?}) must be GUESS=FEEDBACK, for example 0123=1B2C",
                i + 1,
                excerpt(turn)
            ))
        })?;
        let guess = rules
            .parse_code(guess)
            .map_err(|e| UsageError(format!("turn {}: bad guess: {e}", i + 1)))?;
        let feedback = Feedback::parse(feedback, rules.length())
            .map_err(|e| UsageError(format!("turn {}: bad feedback: {e}", i + 1)))?;
        history.push(guess, feedback);
    }
    Ok(history)
}

/// Runs `moo hint`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let history = parse_turns(&rules, &args.turns)?;
    let space = CodeSpace::with_options(rules.clone(), &args.advice.table.for_heuristics())?;
    let mut guesser = Guesser::new(&args.advice, &space)?;
    let position = guesser.position(&space, &history, args.list)?;
    if args.json {
        outln!("{}", serde_json::to_string(&position)?)?;
    }
    // A contradiction is an error (exit 1) in JSON too; the report above says what to fix.
    if let Some(c) = position.contradiction {
        anyhow::bail!(c);
    }
    if args.json {
        return Ok(());
    }
    if position.won {
        let last = history.turns().last().expect("a won game has a turn");
        outln!("Solved: the secret is {}.", rules.format_code(&last.guess))?;
        return Ok(());
    }
    let n = position.remaining;
    outln!(
        "{n} code{} remain{}.",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" }
    )?;
    if args.list > 0 {
        outln!("{}", position.candidates.join(" "))?;
        if n > position.candidates.len() {
            outln!(
                "... and {} more (--list N shows more)",
                n - position.candidates.len()
            )?;
        }
    }
    let advice = position.advice.expect("a game not won gets a guess");
    outln!("{}", advice.explanation)?;
    if let Some(note) = advice::note_line(&advice) {
        outln!("{note}")?;
    }
    Ok(())
}
