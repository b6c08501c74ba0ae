//! `moo duel`: you and the computer each hold a secret and take turns guessing, you first. The
//! rules are moo-core's [`Duel`]; this file only reads moves and prints the report.

use std::io::{self, Write};

use anyhow::Context;
use moo_core::duel::{Duel, DuelError, Level, Move, Outcome, Phase};
use moo_core::{Advisor, CodeSpace, EvalOptions, Feedback, Stop};

use super::input::{Input, Line, TOO_LONG};
use super::output::{align_right, markdown_table, outln};
use super::{ranged, RuleArgs, UsageError};

/// Arguments of `moo duel`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "You guess first, then the computer guesses; whoever finds the other's secret
first wins, and the computer gets as many guesses as you, so both finding it in
the same round is a draw. Answer the computer's guesses with bulls and cows
(\"1B2C\": 1 in place, 2 elsewhere; also \"1 2\" or 12), or give --secret and moo
answers for you. An answer you got wrong is corrected at any turn with `fix`,
the number of the computer's guess and its right answer (`fix 2 1B1C`). Also:
history, give up, help.

Examples:
  moo duel
  moo duel --level 4 --secret 4271
  moo duel --game mastermind --level 1 --seed 7
  moo duel --levels                  each level's strength over every secret"
)]
pub struct Args {
    /// How strong the computer plays, from 1 to 4: 1 guesses any code still possible at random,
    /// 2 plays Knuth's method, 3 the most informative guess, 4 proven best play.
    #[arg(long, default_value_t = 2, value_parser = ranged(Level::ALL.len() as u64))]
    level: usize,

    /// Seed for the computer's secret and its random guesses, for a reproducible duel [default:
    /// a fresh random secret].
    #[arg(long)]
    seed: Option<u64>,

    /// Your secret: moo answers the computer's guesses from it instead of asking you.
    #[arg(long, value_name = "CODE")]
    secret: Option<String>,

    /// Print how strong each level is (its average and worst guesses over every secret of the
    /// game, the beginner's draws seeded by --seed) and exit.
    #[arg(long, conflicts_with_all = ["secret", "level"])]
    levels: bool,

    #[command(flatten)]
    rules: RuleArgs,
}

/// Runs `moo duel`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let space = CodeSpace::new(rules.clone())
        .context("the computer keeps the codes that fit your answers")?;
    if args.levels {
        return print_levels(&space, args.seed.unwrap_or(0));
    }
    let level = Level::from_number(args.level).map_err(|e| UsageError(e.to_string()))?;
    let yours = super::parse_secret(&rules, args.secret.as_deref())?;
    let seed = args.seed.unwrap_or_else(rand::random);
    let duel = Duel::new(&rules, level, seed, yours)?;
    Referee {
        space,
        advisor: Advisor::new(),
        duel,
    }
    .run(&mut Input::stdin())
}

/// `moo duel --levels`: each level against every secret, as the book's duel page shows it.
fn print_levels(space: &CodeSpace, seed: u64) -> anyhow::Result<()> {
    let mut table = markdown_table(["level", "name", "plays", "average", "worst"]);
    for level in Level::ALL {
        let info = level.info();
        let mut options = EvalOptions::default();
        options.seed = seed;
        let e = level
            .strength(space, &options)
            .with_context(|| format!("level {} did not finish", info.number))?;
        table.add_row([
            info.number.to_string(),
            info.name.to_string(),
            info.strategy.to_string(),
            format!("{:.4}", e.histogram.average()),
            e.histogram.max().to_string(),
        ]);
    }
    align_right(&mut table, [0, 3, 4]);
    outln!(
        "{}: guesses to find each of the {} secrets, one game each (random draws seeded with {seed})",
        space.rules().describe(),
        space.len()
    )?;
    outln!("{table}")
}

/// Reads the player's moves and plays them.
struct Referee {
    space: CodeSpace,
    advisor: Advisor,
    duel: Duel,
}

impl Referee {
    fn run(mut self, input: &mut Input) -> anyhow::Result<()> {
        let mut out = io::stdout().lock();
        let info = self.duel.level().info();
        writeln!(
            out,
            "Duel against level {} ({}: {}). {}. I have a secret and you have yours; you guess first, and whoever finds the other's secret first wins. I get as many guesses as you, so we can draw. (also: history, give up, help)",
            info.number,
            info.name,
            info.about,
            self.duel.rules()
        )?;
        if self.duel.report().answered_for_you {
            writeln!(out, "I answer my guesses from your secret.")?;
        } else {
            writeln!(
                out,
                "Keep your secret to yourself: after each of my guesses, tell me how it scores against it (1B2C: 1 in place, 2 elsewhere; also \"1 2\" or 12)."
            )?;
        }
        loop {
            let phase = self.duel.phase();
            if phase == Phase::Over {
                return self.finish(&mut out);
            }
            let prompt = match phase {
                Phase::YourGuess => format!("your guess {}> ", self.duel.yours().len() + 1),
                Phase::YourAnswer => "answer> ".to_string(),
                _ => "fix> ".to_string(),
            };
            let line = match input.ask(&prompt)? {
                Line::Text(t) => t,
                Line::TooLong => {
                    writeln!(out, "{TOO_LONG}")?;
                    continue;
                }
                Line::End => anyhow::bail!(
                    "input ended before the duel was over; my secret was {}",
                    self.secret_now()
                ),
            };
            match line.to_lowercase().as_str() {
                "give up" | "giveup" | "quit" | "q" | "exit" => {
                    self.play(Move::GiveUp, &mut out)?;
                    continue;
                }
                "history" => {
                    self.show_history(&mut out)?;
                    continue;
                }
                "help" | "?" => {
                    writeln!(out, "{}", self.help(phase))?;
                    continue;
                }
                _ => {}
            }
            let mv = match self.read_move(phase, &line) {
                Ok(mv) => mv,
                Err(e) => {
                    writeln!(out, "not counted: {e}")?;
                    continue;
                }
            };
            self.play(mv, &mut out)?;
        }
    }

    /// The move a line means in `phase`, or why it means none.
    fn read_move(&self, phase: Phase, line: &str) -> Result<Move, String> {
        let rules = self.duel.rules();
        // `fix` is taken at any turn: a player who finds a slip corrects it, one after another.
        let fixing = line
            .split_whitespace()
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("fix"));
        match phase {
            _ if fixing => self.read_fix(line),
            Phase::YourGuess => rules
                .parse_code(line)
                .map(Move::Guess)
                .map_err(|e| e.to_string()),
            Phase::YourAnswer => Feedback::parse(line, rules.length())
                .map(Move::Answer)
                .map_err(|e| e.to_string()),
            _ => self.read_fix(line),
        }
    }

    /// A fix, `fix 2 1B1C` (or, when the duel waits for one, `2 1B1C`).
    fn read_fix(&self, line: &str) -> Result<Move, String> {
        let mut words = line.split_whitespace();
        let first = words.next().unwrap_or_default();
        let turn = if first.eq_ignore_ascii_case("fix") {
            words.next().unwrap_or_default()
        } else {
            first
        };
        let turn: usize = turn.parse().map_err(|_| {
            "type `fix`, the number of my guess and its right answer, such as `fix 2 1B1C`"
                .to_string()
        })?;
        let answer = words.collect::<Vec<_>>().join(" ");
        if answer.is_empty() {
            return Err(format!(
                "after the number of my guess, type its right answer, such as `fix {turn} 1B1C`"
            ));
        }
        let feedback =
            Feedback::parse(&answer, self.duel.rules().length()).map_err(|e| e.to_string())?;
        Ok(Move::Fix { turn, feedback })
    }

    /// Plays `mv` and prints what happened, or why it was refused.
    fn play(&mut self, mv: Move, out: &mut impl Write) -> anyhow::Result<()> {
        let (mine, yours) = (self.duel.its().len(), self.duel.yours().len());
        match self
            .duel
            .play(mv, &self.space, &self.advisor, &Stop::never())
        {
            Ok(()) => {}
            Err(e @ DuelError::Advice(_)) => return Err(e.into()),
            Err(e) => {
                writeln!(out, "not counted: {e}")?;
                return Ok(());
            }
        }
        let rules = self.duel.rules().clone();
        if matches!(mv, Move::Guess(_)) {
            for (whose, history, i) in [
                ("your", self.duel.yours(), yours),
                ("my", self.duel.its(), mine),
            ] {
                if let Some(t) = history.turns().get(i) {
                    writeln!(
                        out,
                        "{whose} guess {}: {}  {}  ({})",
                        i + 1,
                        rules.format_code(&t.guess),
                        t.feedback,
                        t.feedback.words(&rules)
                    )?;
                }
            }
        }
        if let Some(guess) = self.duel.pending() {
            writeln!(
                out,
                "my guess {}: {}  How does it score against your secret?",
                self.duel.its().len() + 1,
                rules.format_code(&guess)
            )?;
        }
        if let Some(c) = &self.duel.report().contradiction {
            writeln!(out, "{c}")?;
            writeln!(
                out,
                "Type `fix`, the number of my guess and its right answer, such as `fix {} 1B1C`, or `give up`.",
                c.repairs.first().map_or(1, |r| r.turn)
            )?;
        } else if matches!(mv, Move::Answer(_) | Move::Fix { .. }) {
            let n = self.duel.report().computer_left;
            writeln!(
                out,
                "{n} code{} your answers.",
                if n == 1 { " fits" } else { "s fit" }
            )?;
        }
        Ok(())
    }

    /// The computer's secret, shown once the duel is over.
    fn secret_now(&self) -> String {
        let mut copy = self.duel.clone();
        let _ = copy.play(Move::GiveUp, &self.space, &self.advisor, &Stop::never());
        copy.report().secret.unwrap_or_default()
    }

    fn finish(&self, out: &mut impl Write) -> anyhow::Result<()> {
        let report = self.duel.report();
        let secret = report.secret.clone().unwrap_or_default();
        let n = report.you.len();
        let guesses = |n: usize| format!("{n} guess{}", if n == 1 { "" } else { "es" });
        let found = report
            .computer
            .last()
            .map(|t| t.guess.clone())
            .unwrap_or_default();
        match report.outcome {
            Some(Outcome::Won) => writeln!(
                out,
                "You found my secret {secret} in {} and I did not find yours: you win!",
                guesses(n)
            )?,
            Some(Outcome::Lost) => writeln!(
                out,
                "I found your secret {found} in {}: I win. My secret was {secret}.",
                guesses(n)
            )?,
            Some(Outcome::Drawn) => writeln!(
                out,
                "We both found the other's secret in {}: a draw. My secret was {secret}.",
                guesses(n)
            )?,
            _ => writeln!(out, "My secret was {secret}.")?,
        }
        Ok(())
    }

    fn show_history(&self, out: &mut impl Write) -> io::Result<()> {
        let report = self.duel.report();
        if report.you.is_empty() {
            return writeln!(out, "No guesses yet.");
        }
        for (i, t) in report.you.iter().enumerate() {
            write!(out, "  {:>2}. you: {}  {}", i + 1, t.guess, t.feedback)?;
            match report.computer.get(i) {
                Some(c) => writeln!(out, "   me: {}  {}", c.guess, c.feedback)?,
                None => writeln!(out)?,
            }
        }
        Ok(())
    }

    fn help(&self, phase: Phase) -> String {
        let rules = self.duel.rules();
        match phase {
            Phase::YourGuess => format!(
                "Type a guess of {} ({rules}), or: fix 2 1B1C (to correct an answer you gave), history, give up.",
                rules.length()
            ),
            Phase::YourAnswer => "Type how my guess scores against your secret: bulls (right symbol, right place) and cows (right symbol, wrong place), as 1B2C, \"1 2\" or 12; or: fix 2 1B1C (to correct an answer you gave), history, give up.".to_string(),
            _ => "No code fits all your answers: type `fix`, the number of my guess and its right answer, such as `fix 2 1B1C`; or: history, give up.".to_string(),
        }
    }
}
