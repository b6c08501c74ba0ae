//! `moo review`: what each move of a game cost against the best move.

use std::io::{self, IsTerminal, Read};
use std::time::Duration;

use moo_core::review::{self, GameReview, ReviewOptions};
use moo_core::strategy::GuessPool;
use moo_core::text::excerpt;
use moo_core::{Advisor, CodeSpace, Feedback, History, Rules, Stop};
use serde::Deserialize;

use super::advice::{parse_time_limit, Guesser};
use super::hint::{parse_turns, MAX_TURNS};
use super::output::{align_right, markdown_table, outln};
use super::{GuessPoolArg, RuleArgs, TableArgs, UsageError};

/// How long one move's proofs may take when no `--time-limit` is given.
pub const DEFAULT_MOVE_TIME: &str = "2s";

/// The most bytes read from standard input: far more than 10000 turns of JSON.
const MAX_INPUT: u64 = 4 << 20;

/// Arguments of `moo review`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Each move's cost is the guesses it added on average against the best move, \
with every later move played perfectly; 0 means the move was as good as the best. Figures are \
proven by exact search where it finishes within the time limit, and marked ~ as estimates elsewhere.

Examples:
  moo review 0123=1B2C 4567=0B1C 1845=1B1C
  moo review --game mastermind 1122=1B0C 1344=0B2C
  moo solve --secret 4271 --json | moo review
  moo review --json 0123=0B2C 1245=1B2C 6217=1B2C 4271=4B"
)]
pub struct Args {
    /// The turns, each GUESS=FEEDBACK (feedback as 1B2C, "1 2", 12 or 1,2); without any, the
    /// game is read from standard input: the JSON of `moo solve --json` or `moo hint --json`,
    /// or GUESS=FEEDBACK turns separated by spaces or lines.
    #[arg(value_name = "GUESS=FEEDBACK")]
    turns: Vec<String>,

    /// Print the review as JSON, the same object the web API's /api/review answers.
    #[arg(long)]
    json: bool,

    /// The most time the proofs of one move may take, such as 500ms, 2s or 1m; a move whose
    /// proofs do not finish in time gets estimated figures, marked as such.
    #[arg(long, value_name = "DURATION", default_value = DEFAULT_MOVE_TIME, value_parser = parse_time_limit)]
    time_limit: Duration,

    /// The most time the whole review may take, such as 30s or 10m: each move then gets at most
    /// its share of what is left (and at most --time-limit), and a review that cannot finish in
    /// time stops with an error naming how many moves it reviewed [default: no bound beyond
    /// --time-limit per move].
    #[arg(long, value_name = "DURATION", value_parser = parse_time_limit)]
    total_time: Option<Duration>,

    /// Which codes the best move may guess: any code, or only codes still possible ("hard mode").
    #[arg(long, value_enum, default_value = "all")]
    guesses: GuessPoolArg,

    /// The seed of sampling on games too large to score in full.
    #[arg(long, default_value_t = 0)]
    seed: u64,

    #[command(flatten)]
    table: TableArgs,

    #[command(flatten)]
    rules: RuleArgs,
}

/// Runs `moo review`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let history = if args.turns.is_empty() {
        read_stdin(&rules)?
    } else {
        parse_turns(&rules, &args.turns)?
    };
    let space = CodeSpace::with_options(rules, &args.table.for_heuristics())?;
    let mut options = ReviewOptions::default()
        .with_move_time(Some(args.time_limit))
        .with_guesses(GuessPool::from(args.guesses));
    options.seed = args.seed;
    // A move's share of a total bound can be too short for a proof it would have cached for
    // the moves after it, so the whole is bounded only when asked.
    let stop = args.total_time.map_or_else(Stop::never, Stop::after);
    let review = review::review(&Advisor::new(), &space, &history, &options, &stop).map_err(
        |e| match e {
            review::ReviewError::Stopped { .. } => {
                anyhow::anyhow!("{e}: give it more time with --total-time")
            }
            e => e.into(),
        },
    )?;
    if args.json {
        outln!("{}", serde_json::to_string(&review)?)?;
    } else {
        outln!("{}", render(&review))?;
    }
    // A contradiction is an error (exit 1) in JSON too; the report says what to fix.
    if let Some(c) = review.contradiction {
        anyhow::bail!(c);
    }
    Ok(())
}

/// Reviews a game `guesser` played or advised in this process (with its settings and its
/// advisor's cache of proven moves) and renders it for the terminal.
pub fn review_text(
    guesser: &Guesser,
    space: &CodeSpace,
    history: &History,
) -> anyhow::Result<String> {
    let review = review::review(
        guesser.advisor(),
        space,
        history,
        &guesser.review_options(),
        &Stop::never(),
    )?;
    Ok(render(&review))
}

/// A game as `moo solve --json` (`guesses`) or `moo hint --json` (`turns`) prints it.
#[derive(Debug, Deserialize)]
struct GameJson {
    #[serde(alias = "turns")]
    guesses: Vec<TurnJson>,
}

#[derive(Debug, Deserialize)]
struct TurnJson {
    guess: String,
    feedback: String,
}

/// Reads the game from standard input: JSON, or GUESS=FEEDBACK turns.
fn read_stdin(rules: &Rules) -> anyhow::Result<History> {
    let stdin = io::stdin();
    if stdin.is_terminal() {
        return Err(UsageError(
            "give the turns as GUESS=FEEDBACK arguments (for example `moo review 0123=1B2C 4567=0B1C`), or pipe a game into standard input"
                .into(),
        )
        .into());
    }
    let mut text = String::new();
    stdin
        .lock()
        .take(MAX_INPUT + 1)
        .read_to_string(&mut text)
        .map_err(|e| UsageError(format!("could not read the game from standard input: {e}")))?;
    if text.len() as u64 > MAX_INPUT {
        return Err(UsageError(format!(
            "standard input holds more than {} MiB: a game has at most {MAX_TURNS} turns",
            MAX_INPUT >> 20
        ))
        .into());
    }
    let trimmed = text.trim_start();
    if !trimmed.starts_with('{') {
        let turns: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        if turns.is_empty() {
            return Err(UsageError(
                "standard input holds no turns: give GUESS=FEEDBACK turns, or the JSON of `moo solve --json`"
                    .into(),
            )
            .into());
        }
        return parse_turns(rules, &turns);
    }
    let game: GameJson = serde_json::from_str(trimmed).map_err(|e| {
        UsageError(format!(
            "standard input is not a game as `moo solve --json` prints it ({{\"guesses\": [{{\"guess\": ..., \"feedback\": ...}}]}}): {}",
            excerpt(&e.to_string())
        ))
    })?;
    if game.guesses.len() > MAX_TURNS {
        return Err(UsageError(format!(
            "{} turns is too many: give at most {MAX_TURNS}",
            game.guesses.len()
        ))
        .into());
    }
    let mut history = History::new();
    for (i, t) in game.guesses.iter().enumerate() {
        let guess = rules
            .parse_code(&t.guess)
            .map_err(|e| UsageError(format!("turn {}: bad guess: {e}", i + 1)))?;
        let feedback = Feedback::parse(&t.feedback, rules.length())
            .map_err(|e| UsageError(format!("turn {}: bad feedback: {e}", i + 1)))?;
        history.push(guess, feedback);
    }
    Ok(history)
}

/// The review as a table and a summary, for people.
pub fn render(review: &GameReview) -> String {
    if let Some(c) = &review.contradiction {
        return c.message.clone();
    }
    let mut table = markdown_table([
        "turn",
        "guess",
        "answer",
        "codes left",
        "best guess",
        "cost",
        "verdict",
        "notes",
    ]);
    for m in &review.moves {
        let approx = if m.proven { "" } else { "~" };
        let cost = if m.is_best {
            format!("{approx}0 (best)")
        } else {
            format!("{approx}{:.3}", m.cost)
        };
        let mut notes = Vec::new();
        if let Some(t) = m.repeats_turn {
            notes.push(format!("repeats guess {t}"));
        }
        if m.told_nothing_apart && m.repeats_turn.is_none() {
            notes.push("told no code apart".to_string());
        }
        if !m.could_be_secret && !m.told_nothing_apart {
            notes.push("could not be the secret".to_string());
        }
        let luck = m.luck.left as f64 - m.luck.expected_left;
        if m.before > 2 && luck.abs() > 0.25 * m.luck.expected_left {
            notes.push(format!(
                "{} ({} left, {:.1} on average)",
                if luck < 0.0 { "lucky" } else { "unlucky" },
                m.luck.left,
                m.luck.expected_left
            ));
        }
        table.add_row([
            m.turn.to_string(),
            m.played.guess.clone(),
            m.played.feedback.clone(),
            format!("{} -> {}", m.before, m.after),
            if m.is_best {
                m.played.guess.clone()
            } else {
                m.best_guess.clone()
            },
            cost,
            format!("{approx}{} {}", m.verdict.symbol(), m.verdict),
            notes.join("; "),
        ]);
    }
    align_right(&mut table, [0, 3, 5]);
    let mut text = format!("{table}\n{}", review.summary);
    if !review.proven {
        text.push_str("\n~ marks estimates (their verdicts too): the exact search did not finish within the time limit (--time-limit allows more).");
    }
    text
}
