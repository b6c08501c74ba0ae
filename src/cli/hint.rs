//! `moo hint`: what a game's history leaves, and the best next guess.

use moo_core::strategy::{GuessPool, StrategyOptions};
use moo_core::text::excerpt;
use moo_core::{CodeSpace, Feedback, History, Rules};
use serde::Serialize;

use super::output::outln;
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
        outln!("{}", serde_json::to_string(&report)?)?;
        return Ok(());
    }

    if won {
        outln!("Solved: the secret is {}.", names[0])?;
        return Ok(());
    }
    let n = candidates.len();
    outln!(
        "{n} code{} remain{}.",
        if n == 1 { "" } else { "s" },
        if n == 1 { "s" } else { "" }
    )?;
    if args.list > 0 {
        let shown = &names[..n.min(args.list)];
        outln!("{}", shown.join(" "))?;
        if n > shown.len() {
            outln!("... and {} more (--list N shows more)", n - shown.len())?;
        }
    }
    let (guess, strategy) = best.expect("a game not won gets a guess");
    outln!(
        "{}",
        advice::explain(&space, &candidates, &guess, &strategy)
    )?;
    Ok(())
}
