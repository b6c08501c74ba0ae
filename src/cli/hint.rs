//! `moo hint`: what a game's history leaves, and the best next guess.

use anyhow::Context;
use moo_core::strategy::{GuessPool, StrategyOptions};
use moo_core::{CodeSpace, Feedback, History, Rules};
use serde::Serialize;

use super::{advice, GuessPoolArg, RuleArgs, UsageError};

/// Arguments of `moo hint`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo hint 0123=1B2C 4567=0B1C
  moo hint --game mastermind 1122=1B0C --json")]
pub struct Args {
    /// The turns so far, each GUESS=FEEDBACK (feedback as 1B2C, \"1 2\", 12 or 1,2).
    #[arg(value_name = "GUESS=FEEDBACK")]
    turns: Vec<String>,

    /// The strategy that picks the guess [default: the best available].
    #[arg(long)]
    strategy: Option<String>,

    /// Which codes the guess may be: any code, or only codes still possible.
    #[arg(long, value_enum, default_value = "all")]
    guesses: GuessPoolArg,

    /// List at most this many remaining codes (0 lists none).
    #[arg(long, default_value_t = 40, value_name = "N")]
    list: usize,

    /// Print JSON: {"remaining": N, "candidates": [...], "best_guess": "..."}.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    rules: RuleArgs,
}

#[derive(Serialize)]
struct Report {
    remaining: usize,
    candidates: Vec<String>,
    best_guess: Option<String>,
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
    let candidates = history.candidates(&space);
    if candidates.is_empty() {
        anyhow::bail!(advice::contradiction(&space, &history));
    }
    let won = history.is_won(rules.length());
    let mut options = StrategyOptions::default();
    options.guesses = GuessPool::from(args.guesses);
    let best = if won {
        None
    } else {
        let mut strategies = advice::strategies(args.strategy.as_deref(), &space, &options)?;
        Some(advice::next_guess(
            &mut strategies,
            &space,
            &history,
            &candidates,
        )?)
    };
    let names: Vec<String> = candidates
        .iter()
        .map(|i| rules.format_code(&space.code(i)))
        .collect();

    if args.json {
        let report = Report {
            remaining: candidates.len(),
            candidates: names,
            best_guess: best.map(|(code, _)| rules.format_code(&code)),
        };
        println!("{}", serde_json::to_string(&report)?);
        return Ok(());
    }

    if won {
        println!("Solved: the secret is {}.", names[0]);
        return Ok(());
    }
    let n = candidates.len();
    println!(
        "{n} code{} remain{}.",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" }
    );
    if args.list > 0 {
        let shown = &names[..n.min(args.list)];
        println!("{}", shown.join(" "));
        if n > shown.len() {
            println!("... and {} more (--list N shows more)", n - shown.len());
        }
    }
    let (guess, strategy) = best.expect("a game not won gets a guess");
    println!(
        "{}",
        advice::explain(&space, &candidates, &guess, &strategy)
    );
    Ok(())
}
