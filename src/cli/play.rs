//! `moo play`: the computer keeps a secret and you guess it, or with `--adversary` keeps none
//! and answers so that the game lasts as long as it can.

use std::io::{self, Write};
use std::time::Duration;

use anyhow::Context;
use moo_core::adversary::{self, AnswerMethod, CHALLENGE};
use moo_core::daily::Puzzle;
use moo_core::{hard, Adversary, AdversaryOptions, Code, CodeSet, CodeSpace, History, Rules, Stop};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::input::{Input, Line, TOO_LONG};
use super::{advice, review, RuleArgs};

/// Arguments of `moo play`.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Type a guess per line, or: hint, history, give up (or quit), help.

Each answer reads like 1B2C: 1 bull (a right symbol in the right place) and 2 cows (a right
symbol in the wrong place). In Mastermind the bulls are the black pegs and the cows the white
ones. 4B0C on a 4-symbol code means you found the secret.

Examples:
  moo play
  moo play --seed 7
  moo play --game mastermind
  moo play --adversary
  moo play --hard                   every guess must fit every answer so far
  moo play --length 3 --symbols abcdef --repeats"
)]
pub struct Args {
    /// Seed for the secret, for a reproducible game [default: a fresh random secret].
    #[arg(long)]
    seed: Option<u64>,

    /// The most time a hint (or an adversary's answer) may take, such as 500ms, 2s or 1m: an
    /// exact search that does not finish in time gives way to a heuristic, and the hint or the
    /// answer says so [default: 1s, and 2s for the adversary's answers].
    #[arg(long, value_name = "DURATION", value_parser = advice::parse_time_limit)]
    time_limit: Option<Duration>,

    /// Play against an adversary that holds no secret: it answers each guess so that the game
    /// lasts as long as possible against perfect play from there on, and at the end shows a
    /// secret that fits every answer. On Bulls and Cows, winning in 7 guesses takes perfect play.
    #[arg(long)]
    adversary: bool,

    /// Hard mode: every guess must be a code that could still be the secret, given the answers
    /// so far. A guess that could not is refused without using a turn, naming the earlier
    /// answer it contradicts; hints then suggest only such codes.
    #[arg(long)]
    hard: bool,
    /// Hints also give the figures behind them: the groups a guess splits the codes into and
    /// the information it gains, in bits.
    #[arg(long)]
    verbose: bool,

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
    if args.adversary {
        let time_limit = args.time_limit.unwrap_or(adversary::DEFAULT_ANSWER_TIME);
        let space = CodeSpace::new(rules.clone())
            .context("the adversary keeps every code that fits its answers")?;
        let maker = Maker::Adversary {
            candidates: space.all(),
            adversary: Adversary::new(),
            options: AdversaryOptions::default().with_answer_time(Some(time_limit)),
        };
        let mut game = Game::new(rules, maker, time_limit);
        game.space = Some(space);
        game.hard = args.hard;
        game.verbose = args.verbose;
        return game.run(&mut Input::stdin());
    }
    let secret = rules.random_code(&mut rng);
    // The hints' own default, so that `moo play` and `moo hint` think alike.
    let time_limit = args.time_limit.unwrap_or_else(|| {
        advice::parse_time_limit(advice::DEFAULT_TIME_LIMIT).expect("a valid default")
    });
    let mut game = Game::new(rules, Maker::Secret(secret), time_limit);
    game.hard = args.hard;
    game.verbose = args.verbose;
    game.run(&mut Input::stdin())
}

/// Who answers the guesses.
enum Maker {
    /// A secret drawn at the start.
    Secret(Code),
    /// No secret: the adversary, and the codes that still fit its answers.
    Adversary {
        candidates: CodeSet,
        adversary: Adversary,
        options: AdversaryOptions,
    },
}

pub(super) struct Game {
    rules: Rules,
    maker: Maker,
    history: History,
    /// Built on the first `hint`: plain play never needs to enumerate the codes.
    space: Option<CodeSpace>,
    /// Chooses hints; built with the space, and kept so hints along one game share its cache.
    guesser: Option<advice::Guesser>,
    time_limit: Duration,
    /// Hard mode: only guesses that could still be the secret count.
    hard: bool,
    /// A daily puzzle's game: no hints, no repeated guess, and the review and the share card
    /// at the end.
    daily: Option<Puzzle>,
    /// Hints add the advisor's own explanation, with its figures.
    verbose: bool,
}

impl Game {
    fn new(rules: Rules, maker: Maker, time_limit: Duration) -> Game {
        Game {
            rules,
            maker,
            history: History::new(),
            space: None,
            guesser: None,
            time_limit,
            hard: false,
            daily: None,
            verbose: false,
        }
    }

    /// The game of a daily puzzle.
    pub(super) fn daily(puzzle: Puzzle) -> Game {
        let mut game = Game::new(
            puzzle.rules(),
            Maker::Secret(puzzle.secret()),
            moo_core::review::DEFAULT_MOVE_TIME,
        );
        game.daily = Some(puzzle);
        game
    }

    /// The game's opening lines: what the secret is, and the adversary's and hard mode's terms.
    fn greet(&self, out: &mut impl Write) -> anyhow::Result<()> {
        match &self.maker {
            Maker::Secret(_) if self.daily.is_some() => {
                let p = self.daily.as_ref().expect("a daily game");
                writeln!(
                    out,
                    "Daily puzzle #{} of {} ({}): {}. Guess the day's secret! (also: history, give up, help)",
                    p.number, p.date, p.game_title(), self.rules
                )?;
            }
            Maker::Secret(_) => writeln!(
                out,
                "I have a secret: {}. Guess it! (also: hint, history, give up, help)",
                self.rules
            )?,
            Maker::Adversary { .. } => {
                writeln!(
                    out,
                    "I hold no secret: {}. I answer each guess so that the game lasts as long as I can make it, and at the end I show a code that fits every answer. Guess! (also: hint, history, give up, help)",
                    self.rules
                )?;
                if self.rules == Rules::bulls() {
                    writeln!(out, "{CHALLENGE}")?;
                }
            }
        }
        if self.hard {
            writeln!(
                out,
                "Hard mode: every guess must be a code that could still be the secret, given the answers so far."
            )?;
        }
        Ok(())
    }

    pub(super) fn run(mut self, input: &mut Input) -> anyhow::Result<()> {
        let mut out = io::stdout().lock();
        self.greet(&mut out)?;
        loop {
            let prompt = format!("guess {}> ", self.history.len() + 1);
            let line = match input.ask(&prompt)? {
                Line::Text(t) => t,
                Line::TooLong => {
                    writeln!(out, "{TOO_LONG}")?;
                    continue;
                }
                Line::End => {
                    anyhow::bail!("input ended before the game was over; {}", self.reveal())
                }
            };
            match line.to_lowercase().as_str() {
                "give up" | "giveup" | "quit" | "q" | "exit" => {
                    writeln!(out, "{}.", capitalised(&self.reveal()))?;
                    return self.offer_review(input, &mut out);
                }
                "history" => self.show_history(&mut out)?,
                "hint" if self.daily.is_some() => writeln!(
                    out,
                    "The daily puzzle has no hints: everybody finds the day's secret alone."
                )?,
                "hint" => self.hint(&mut out)?,
                "help" | "?" => writeln!(
                    out,
                    "Type a guess of {} ({}), or: hint (how many codes remain and a good guess), history, give up.",
                    self.rules.length(),
                    self.rules
                )?,
                _ => match self.rules.parse_code(&line) {
                    Err(e) => writeln!(out, "not counted: {e}")?,
                    // A repeat tells nothing new: refused without using a turn, as on the web.
                    Ok(guess) if self.repeats(&guess) => {
                        let turns = self.history.turns();
                        let i = turns.iter().position(|t| t.guess == guess).unwrap_or(0);
                        writeln!(
                            out,
                            "not counted: you already guessed {} (guess {}), and it answered {}: the same guess always gets the same answer, so try another code",
                            self.rules.format_code(&guess),
                            i + 1,
                            turns[i].feedback.words(&self.rules)
                        )?;
                    }
                    Ok(guess) => {
                        if self.hard {
                            if let Err(e) = hard::check(&self.rules, &self.history, &guess) {
                                writeln!(out, "not counted: {e}")?;
                                continue;
                            }
                        }
                        let (feedback, note) = self.answer(&guess);
                        self.history.push(guess, feedback);
                        writeln!(
                            out,
                            "guess {}: {}  {feedback}{note}",
                            self.history.len(),
                            self.rules.format_code(&guess)
                        )?;
                        if feedback.is_win(self.rules.length()) {
                            self.celebrate(&mut out)?;
                            return self.offer_review(input, &mut out);
                        }
                    }
                },
            }
        }
    }

    /// The lines after a win: the guesses it took, and against the adversary the code it kept
    /// and how the game stands against its challenge.
    fn celebrate(&self, out: &mut impl Write) -> anyhow::Result<()> {
        let n = self.history.len();
        writeln!(
            out,
            "You got it in {n} guess{}!",
            if n == 1 { "" } else { "es" }
        )?;
        if matches!(self.maker, Maker::Adversary { .. }) {
            let verdict = match n {
                ..=7 if self.rules == Rules::bulls() => {
                    " You beat the challenge: against the adversary nobody wins in fewer than 7."
                }
                _ if self.rules == Rules::bulls() => {
                    " The challenge is to win in 7: perfect play always can."
                }
                _ => "",
            };
            writeln!(out, "{}.{verdict}", capitalised(&self.reveal()))?;
        }
        Ok(())
    }

    /// The answer to `guess`, and a note to print after it when the adversary could not prove
    /// its answer the hardest in time.
    fn answer(&mut self, guess: &Code) -> (moo_core::Feedback, &'static str) {
        match &mut self.maker {
            Maker::Secret(secret) => (guess.score(secret), ""),
            Maker::Adversary {
                candidates,
                adversary,
                options,
            } => {
                let space = self.space.as_ref().expect("built with the adversary");
                let a = adversary.answer(
                    space,
                    &self.history,
                    candidates,
                    guess,
                    options,
                    &Stop::never(),
                );
                *candidates = space.filter_code(candidates, guess, a.feedback);
                let note = match a.method {
                    AnswerMethod::Exact => "",
                    AnswerMethod::Heuristic => {
                        "  (a heuristic answer: the search for the hardest one ran out of time)"
                    }
                };
                (a.feedback, note)
            }
        }
    }

    /// The secret, or with the adversary a code that fits every answer.
    fn reveal(&self) -> String {
        match &self.maker {
            Maker::Secret(secret) => format!("the secret was {}", self.rules.format_code(secret)),
            Maker::Adversary { candidates, .. } => {
                let space = self.space.as_ref().expect("built with the adversary");
                let code = adversary::a_secret(space, candidates)
                    .expect("the answers always leave a code");
                format!(
                    "a secret that fits every answer: {} ({} code{} fit{})",
                    self.rules.format_code(&code),
                    candidates.len(),
                    if candidates.len() == 1 { "" } else { "s" },
                    if candidates.len() == 1 { "s" } else { "" }
                )
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
            let mut args = advice::AdviceArgs::with_time_limit(self.time_limit);
            if self.hard {
                args.guesses = super::GuessPoolArg::Consistent;
            }
            self.guesser = Some(advice::Guesser::new(&args, space)?);
        }
        let guesser = self.guesser.as_mut().expect("just built");
        Ok(Some((space, guesser)))
    }

    fn repeats(&self, guess: &Code) -> bool {
        self.history.turns().iter().any(|t| t.guess == *guess)
    }

    /// After the game, offers the review of every move and prints it if asked; a daily game
    /// prints it with its share card, unasked.
    fn offer_review(&mut self, input: &mut Input, out: &mut impl Write) -> anyhow::Result<()> {
        if let Some(puzzle) = self.daily {
            let space = CodeSpace::new(self.rules.clone())?;
            return show_daily_result(&puzzle, &space, &self.history, out);
        }
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
        let p = &advice.partition;
        let codes = |k: usize| format!("{k} code{}", if k == 1 { "" } else { "s" });
        // Plain words by default; the advisor's figures (groups, bits) with --verbose.
        let plain = if n == 1 {
            format!("It is {}.", advice.guess)
        } else {
            format!(
                "Try {}: at worst {} will be left, about {:.1} on average.{}",
                advice.guess,
                codes(p.largest),
                p.expected_size,
                if p.is_candidate {
                    " It could be the secret."
                } else {
                    ""
                }
            )
        };
        writeln!(
            out,
            "{n} code{} still possible. {plain}",
            if n == 1 { " is" } else { "s are" }
        )?;
        if self.verbose {
            writeln!(out, "{}", advice.explanation)?;
        }
        if let Some(note) = advice::note_line(&advice) {
            writeln!(out, "{note}")?;
        }
        Ok(())
    }
}

/// `text` with its first letter in capitals.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The end of a daily game: the review of every move, then the share card.
fn show_daily_result(
    puzzle: &Puzzle,
    space: &CodeSpace,
    history: &History,
    out: &mut impl Write,
) -> anyhow::Result<()> {
    // The web's limits (2 s a move), so the card is the one the page would show.
    let options = moo_core::review::ReviewOptions::default();
    let review = moo_core::review::review(
        &moo_core::Advisor::new(),
        space,
        history,
        &options,
        &Stop::never(),
    )
    .context("the game could not be reviewed")?;
    if !review.moves.is_empty() {
        writeln!(out, "{}", review::render(&review))?;
    }
    writeln!(
        out,
        "\nShare your result (it does not give the secret away):\n\n{}",
        moo_core::daily::share_text(puzzle, &review)
    )?;
    Ok(())
}
