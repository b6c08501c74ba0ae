//! `moo solve`: the computer breaks a secret, typed feedback or a given secret.

use std::io::{self, Write};

use moo_core::advisor::Contradiction;
use moo_core::{Code, CodeSet, CodeSpace, Feedback, History, Rules};
use serde::Serialize;

use super::advice::{AdviceArgs, Guesser};
use super::input::{Input, Line, TOO_LONG};
use super::output::outln;
use super::review;
use super::RuleArgs;

/// The most guesses a strategy gets: one per code (enough for brute force) plus one, so only a
/// broken or unlucky random strategy is stopped, rather than looping for ever.
fn max_guesses(space: &CodeSpace) -> usize {
    space.len() + 1
}

/// Arguments of `moo solve`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Think of a secret; after each guess type bulls and cows (1B2C, \"1 2\", 12 or 1,2),
`undo` to take back your last answer, or `quit`.

Examples:
  moo solve
  moo solve --secret 4271 --json
  printf '0B2C\\n1B1C\\n4B\\n' | moo solve"
)]
pub struct Args {
    /// Solve this secret with no input, showing each guess and its feedback.
    #[arg(long, value_name = "CODE")]
    secret: Option<String>,

    /// With --secret: print JSON {"secret": "...", "guesses": [{"guess": "...", "feedback": "1B2C"}]}
    /// (pipe it into `moo review` for the review of every move).
    #[arg(long, requires = "secret")]
    json: bool,

    /// With --secret: after the game, print what each guess cost against the best move.
    #[arg(long, requires = "secret", conflicts_with = "json")]
    review: bool,

    #[command(flatten)]
    advice: AdviceArgs,

    #[command(flatten)]
    rules: RuleArgs,
}

#[derive(Serialize)]
struct TurnReport {
    guess: String,
    feedback: String,
}

#[derive(Serialize)]
struct SolveReport {
    secret: String,
    guesses: Vec<TurnReport>,
}

/// Runs `moo solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let secret = super::parse_secret(&rules, args.secret.as_deref())?;
    let space = CodeSpace::with_options(rules.clone(), &args.advice.table.for_heuristics())?;
    let guesser = Guesser::new(&args.advice, &space)?;
    match secret {
        Some(secret) => solve_known(&rules, &space, guesser, &secret, &args),
        None => solve_interactive(&rules, &space, guesser),
    }
}

fn solve_known(
    rules: &Rules,
    space: &CodeSpace,
    mut guesser: Guesser,
    secret: &Code,
    args: &Args,
) -> anyhow::Result<()> {
    let json = args.json;
    let mut history = History::new();
    let mut candidates = space.all();
    let mut out = io::stdout().lock();
    while !history.is_won(rules.length()) {
        anyhow::ensure!(
            history.len() < max_guesses(space),
            "the strategy did not find the secret in {} guesses",
            max_guesses(space)
        );
        let advice = guesser.advise(space, &history, &candidates)?;
        let guess = advice.code;
        let feedback = guess.score(secret);
        candidates = space.filter_code(&candidates, &guess, feedback);
        history.push(guess, feedback);
        if !json {
            writeln!(
                out,
                "guess {}: {}  {feedback}",
                history.len(),
                rules.format_code(&guess)
            )?;
        }
    }
    if json {
        let report = SolveReport {
            secret: rules.format_code(secret),
            guesses: history
                .turns()
                .iter()
                .map(|t| TurnReport {
                    guess: rules.format_code(&t.guess),
                    feedback: t.feedback.to_string(),
                })
                .collect(),
        };
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        writeln!(
            out,
            "Solved {} in {} guesses.",
            rules.format_code(secret),
            history.len()
        )?;
    }
    if args.review {
        let text = review::review_text(&guesser, space, &history)?;
        writeln!(out, "{text}")?;
    }
    Ok(())
}

fn solve_interactive(rules: &Rules, space: &CodeSpace, mut guesser: Guesser) -> anyhow::Result<()> {
    let mut input = Input::stdin();
    let mut out = io::stdout().lock();
    writeln!(
        out,
        "Think of a secret: {rules}. I guess; you answer bulls and cows (1B2C, \"1 2\", 12 or 1,2), `undo` or `quit`."
    )?;
    let mut history = History::new();
    // The guess on the table, kept across bad answers so it is not recomputed or changed.
    let mut pending: Option<Code> = None;
    loop {
        let candidates = history.candidates(space);
        if candidates.is_empty() {
            pending = None;
            if !undo_contradiction(&mut input, &mut out, space, &history)? {
                return Ok(());
            }
            undo(&mut out, rules, &mut history)?;
            continue;
        }
        // A win is checked only once the answers are known to be consistent.
        if history.is_won(rules.length()) {
            return offer_review(&mut input, &mut out, rules, space, &history, &guesser);
        }
        anyhow::ensure!(
            history.len() < max_guesses(space),
            "the strategy did not find the secret in {} guesses",
            max_guesses(space)
        );
        // One code left: nothing to ask, it is the secret if the answers were right.
        if candidates.len() == 1 && pending.is_none() {
            let last = candidates.iter().next().map(|i| space.code(i));
            if let Some(code) = last {
                writeln!(
                    out,
                    "guess {}: {}   (the only code left that fits your answers)",
                    history.len() + 1,
                    rules.format_code(&code)
                )?;
                history.push(code, Feedback::win(rules.length()));
                continue;
            }
        }
        let guess = match pending {
            Some(g) => g,
            None => {
                let g = ask_guess(&mut out, rules, space, &history, &candidates, &mut guesser)?;
                pending = Some(g);
                g
            }
        };
        let Some(answer) = read_command(&mut input, "feedback> ")? else {
            anyhow::bail!("input ended before the secret was found");
        };
        if is_quit(&answer) {
            return Ok(());
        }
        if is_undo(&answer) {
            pending = None;
            undo(&mut out, rules, &mut history)?;
            continue;
        }
        match Feedback::parse(&answer, rules.length()) {
            Ok(feedback) => {
                history.push(guess, feedback);
                pending = None;
            }
            Err(e) => writeln!(out, "{e}")?,
        }
    }
}

/// Says why the answers contradict each other and waits for `undo` (true) or `quit` (false):
/// no guess makes sense until an answer is taken back.
fn undo_contradiction(
    input: &mut Input,
    out: &mut impl Write,
    space: &CodeSpace,
    history: &History,
) -> anyhow::Result<bool> {
    writeln!(out, "{}", Contradiction::new(space, history))?;
    writeln!(
        out,
        "Type `undo` to take back your last answer (repeat to go further back), or `quit`."
    )?;
    loop {
        match read_command(input, "undo or quit> ")?.as_deref() {
            Some(cmd) if is_undo(cmd) => return Ok(true),
            Some(cmd) if is_quit(cmd) => return Ok(false),
            Some(other) => writeln!(
                out,
                "{other:?}: type `undo` to take back your last answer, or `quit`."
            )?,
            None => anyhow::bail!("input ended while the answers contradicted each other"),
        }
    }
}

/// Announces the win and shows the game's review if the user asks for it.
fn offer_review(
    input: &mut Input,
    out: &mut impl Write,
    rules: &Rules,
    space: &CodeSpace,
    history: &History,
    guesser: &Guesser,
) -> anyhow::Result<()> {
    let n = history.len();
    writeln!(
        out,
        "Solved: your secret is {}, found in {n} guess{}.",
        rules.format_code(&history.turns()[n - 1].guess),
        if n == 1 { "" } else { "es" }
    )?;
    writeln!(
        out,
        "Type `review` to see what each guess cost against the best move, or press Enter to finish."
    )?;
    if let Some(answer) = read_command(input, "review> ")? {
        if matches!(answer.to_lowercase().as_str(), "review" | "r" | "y" | "yes") {
            let text = review::review_text(guesser, space, history)?;
            writeln!(out, "{text}")?;
        }
    }
    Ok(())
}

/// The strategy's next guess, shown with how many codes are still possible.
fn ask_guess(
    out: &mut impl Write,
    rules: &Rules,
    space: &CodeSpace,
    history: &History,
    candidates: &CodeSet,
    guesser: &mut Guesser,
) -> anyhow::Result<Code> {
    let g = guesser.advise(space, history, candidates)?.code;
    writeln!(
        out,
        "guess {}: {}   ({} code{} possible)",
        history.len() + 1,
        rules.format_code(&g),
        candidates.len(),
        if candidates.len() == 1 { "" } else { "s" }
    )?;
    Ok(g)
}

/// Reads one command, as typed; `None` at the end of input. Over-long lines are refused here.
fn read_command(input: &mut Input, prompt: &str) -> anyhow::Result<Option<String>> {
    loop {
        match input.ask(prompt)? {
            Line::Text(t) => return Ok(Some(t)),
            Line::TooLong => outln!("{TOO_LONG}")?,
            Line::End => return Ok(None),
        }
    }
}

fn is_quit(cmd: &str) -> bool {
    matches!(
        cmd.to_ascii_lowercase().as_str(),
        "quit" | "q" | "exit" | "give up"
    )
}

fn is_undo(cmd: &str) -> bool {
    cmd.eq_ignore_ascii_case("undo")
}

fn undo(out: &mut impl Write, rules: &Rules, history: &mut History) -> io::Result<()> {
    match history.undo() {
        Some(t) => writeln!(
            out,
            "Took back {} = {}; guessing again.",
            rules.format_code(&t.guess),
            t.feedback
        ),
        None => writeln!(out, "Nothing to undo yet."),
    }
}
