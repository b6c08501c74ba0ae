//! `moo hint`: what a game's history leaves, and the best next guess.

use anyhow::Context;
use moo_core::{CodeSpace, Feedback, History, Rules};

use super::advice::{self, AdviceArgs, Guesser};
use super::{RuleArgs, UsageError};

/// Arguments of `moo hint`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo hint 0123=1B2C 4567=0B1C
  moo hint --game mastermind 1122=1B0C --json")]
pub struct Args {
    /// The turns so far, each GUESS=FEEDBACK (feedback as 1B2C, \"1 2\", 12 or 1,2).
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

/// Reads `GUESS=FEEDBACK` turns into a history.
pub fn parse_turns(rules: &Rules, turns: &[String]) -> anyhow::Result<History> {
    let mut history = History::new();
    for (i, turn) in turns.iter().enumerate() {
        let (guess, feedback) = turn.split_once('=').ok_or_else(|| {
            UsageError(format!(
                "turn {} ({turn:?}) must be GUESS=FEEDBACK, for example 0123=1B2C",
                i + 1
            ))
        })?;
        let guess = rules
            .parse_code(guess)
            .with_context(|| format!("turn {}: bad guess", i + 1))?;
        let feedback = Feedback::parse(feedback, rules.length())
            .with_context(|| format!("turn {}: bad feedback", i + 1))?;
        history.push(guess, feedback);
    }
    Ok(history)
}

/// Runs `moo hint`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let history = parse_turns(&rules, &args.turns)?;
    let space = CodeSpace::new(rules.clone())?;
    let mut guesser = Guesser::new(&args.advice, &space)?;
    let position = guesser.position(&space, &history, args.list)?;
    if args.json {
        println!("{}", serde_json::to_string(&position)?);
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
        println!("Solved: the secret is {}.", rules.format_code(&last.guess));
        return Ok(());
    }
    let n = position.remaining;
    println!(
        "{n} code{} remain{}.",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" }
    );
    if args.list > 0 {
        println!("{}", position.candidates.join(" "));
        if n > position.candidates.len() {
            println!(
                "... and {} more (--list N shows more)",
                n - position.candidates.len()
            );
        }
    }
    let advice = position.advice.expect("a game not won gets a guess");
    println!("{}", advice.explanation);
    if let Some(note) = advice::note_line(&advice) {
        println!("{note}");
    }
    Ok(())
}
