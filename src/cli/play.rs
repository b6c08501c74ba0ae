//! `moo play`: the computer keeps a secret and you guess it.

use std::io::{self, Write};
use std::time::Duration;

use anyhow::Context;
use moo_core::{Code, CodeSpace, History, Rules};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::input::{Input, Line, TOO_LONG};
use super::{advice, review, RuleArgs};

/// Arguments of `moo play`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Type a guess per line, or: hint, history, give up (or quit), help.

Examples:
  moo play
  moo play --seed 7
  moo play --game mastermind
  moo play --length 3 --symbols abcdef --repeats"
)]
pub struct Args {
    /// Seed for the secret, for a reproducible game [default: a fresh random secret].
    #[arg(long)]
    seed: Option<u64>,

    /// The most time a hint may take, such as 500ms, 2s or 1m (an exact search that does not
    /// finish in time gives way to a heuristic, and the hint says so).
    #[arg(long, value_name = "DURATION", default_value = advice::DEFAULT_TIME_LIMIT, value_parser = advice::parse_time_limit)]
    time_limit: Duration,

    #[command(flatten)]
    rules: RuleArgs,
}

/// Runs `moo play`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let mut rng = match args.seed {
        Some(seed) => ChaCha8Rng::seed_from_u64(seed),
        None => ChaCha8Rng::from_entropy(),
    };
    let secret = rules.random_code(&mut rng);
    Game::new(rules, secret, args.time_limit).run(&mut Input::stdin())
}

struct Game {
    rules: Rules,
    secret: Code,
    history: History,
    /// Built on the first `hint`: plain play never needs to enumerate the codes.
    space: Option<CodeSpace>,
    /// Chooses hints; built with the space, and kept so hints along one game share its cache.
    guesser: Option<advice::Guesser>,
    time_limit: Duration,
}

impl Game {
    fn new(rules: Rules, secret: Code, time_limit: Duration) -> Game {
        Game {
            rules,
            secret,
            history: History::new(),
            space: None,
            guesser: None,
            time_limit,
        }
    }

    fn run(mut self, input: &mut Input) -> anyhow::Result<()> {
        let mut out = io::stdout().lock();
        writeln!(
            out,
            "I have a secret: {}. Guess it! (also: hint, history, give up, help)",
            self.rules
        )?;
        loop {
            let prompt = format!("guess {}> ", self.history.len() + 1);
            let line = match input.ask(&prompt)? {
                Line::Text(t) => t,
                Line::TooLong => {
                    writeln!(out, "{TOO_LONG}")?;
                    continue;
                }
                Line::End => anyhow::bail!(
                    "input ended before the game was over; the secret was {}",
                    self.rules.format_code(&self.secret)
                ),
            };
            match line.to_lowercase().as_str() {
                "give up" | "giveup" | "quit" | "q" | "exit" => {
                    writeln!(
                        out,
                        "The secret was {}.",
                        self.rules.format_code(&self.secret)
                    )?;
                    return self.offer_review(input, &mut out);
                }
                "history" => self.show_history(&mut out)?,
                "hint" => self.hint(&mut out)?,
                "help" | "?" => writeln!(
                    out,
                    "Type a guess of {} ({}), or: hint (how many codes remain and a good guess), history, give up.",
                    self.rules.length(),
                    self.rules
                )?,
                _ => match self.rules.parse_code(&line) {
                    Err(e) => writeln!(out, "not counted: {e}")?,
                    Ok(guess) => {
                        let feedback = guess.score(&self.secret);
                        self.history.push(guess, feedback);
                        writeln!(
                            out,
                            "guess {}: {}  {feedback}",
                            self.history.len(),
                            self.rules.format_code(&guess)
                        )?;
                        if feedback.is_win(self.rules.length()) {
                            let n = self.history.len();
                            writeln!(
                                out,
                                "You got it in {n} guess{}!",
                                if n == 1 { "" } else { "es" }
                            )?;
                            return self.offer_review(input, &mut out);
                        }
                    }
                },
            }
        }
    }

    fn show_history(&self, out: &mut impl Write) -> io::Result<()> {
        if self.history.is_empty() {
            return writeln!(out, "No guesses yet.");
        }
        for (i, t) in self.history.turns().iter().enumerate() {
            writeln!(
                out,
                "  {:>2}. {}  {}",
                i + 1,
                self.rules.format_code(&t.guess),
                t.feedback
            )?;
        }
        Ok(())
    }

    /// The code space and guesser that hints and the review use, built on first use; `None`,
    /// with the reason printed, for a game too large to list its codes.
    fn helpers(
        &mut self,
        out: &mut impl Write,
    ) -> anyhow::Result<Option<(&CodeSpace, &mut advice::Guesser)>> {
        if self.space.is_none() {
            match CodeSpace::new(self.rules.clone()) {
                Ok(space) => self.space = Some(space),
                Err(e) => {
                    writeln!(out, "no hint or review for this game: {e}")?;
                    return Ok(None);
                }
            }
        }
        let space = self.space.as_ref().expect("just built");
        if self.guesser.is_none() {
            self.guesser = Some(advice::Guesser::new(
                &advice::AdviceArgs::with_time_limit(self.time_limit),
                space,
            )?);
        }
        let guesser = self.guesser.as_mut().expect("just built");
        Ok(Some((space, guesser)))
    }

    /// After the game, offers the review of every move and prints it if asked.
    fn offer_review(&mut self, input: &mut Input, out: &mut impl Write) -> anyhow::Result<()> {
        if self.history.is_empty() {
            return Ok(());
        }
        writeln!(
            out,
            "Type `review` to see what each guess cost against the best move, or press Enter to finish."
        )?;
        let Line::Text(answer) = input.ask("review> ")? else {
            return Ok(());
        };
        if !matches!(answer.to_lowercase().as_str(), "review" | "r" | "y" | "yes") {
            return Ok(());
        }
        let history = self.history.clone();
        if let Some((space, guesser)) = self.helpers(out)? {
            writeln!(out, "{}", review::review_text(guesser, space, &history)?)?;
        }
        Ok(())
    }

    fn hint(&mut self, out: &mut impl Write) -> anyhow::Result<()> {
        let history = self.history.clone();
        let Some((space, guesser)) = self.helpers(out)? else {
            return Ok(());
        };
        let position = guesser
            .position(space, &history, 0)
            .context("no hint available")?;
        let advice = position
            .advice
            .expect("a game in play is neither won nor contradictory");
        let n = position.remaining;
        writeln!(
            out,
            "{n} code{} still possible. {}",
            if n == 1 { " is" } else { "s are" },
            advice.explanation
        )?;
        if let Some(note) = advice::note_line(&advice) {
            writeln!(out, "{note}")?;
        }
        Ok(())
    }
}
