//! Games a player plays against a secret the service holds, or against the adversary, which
//! holds none: start, guess, give up, ask a hint.

use moo_core::adversary::{self, AdversaryOptions, AnswerMethod};
use moo_core::advisor::{AdviceError, AdviceOptions, Chooser, Position};
use moo_core::{hard, CodeSet, Preset};
use serde::{Deserialize, Serialize};

use crate::error::strategy_error;
use crate::games::{Adversarial, Game};
use crate::rules::{pick_rules, RulesIn, RulesReport};
use crate::spaces::check_size;
use crate::{Client, ErrorCode, Job, Service, ServiceError, Work};

/// A new game: its rules (a preset, full rules, or neither for Bulls and Cows) and a seed that
/// makes its secret reproducible.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    /// Makes the secret reproducible.
    seed: Option<SeedIn>,
    /// A game against the adversary, which holds no secret and answers each guess so that the
    /// game lasts as long as possible.
    #[serde(default)]
    adversary: bool,
    /// Hard mode: every guess must be a code that could still be the secret.
    #[serde(default)]
    hard: bool,
    /// A daily puzzle's game: the day's secret, no seed, no hints.
    daily: Option<crate::daily::DailyIn>,
}

/// What the adversary's games may hold: it keeps the codes that fit its answers, and its
/// exact search fits only games this small.
const ADVERSARY_MAX_CODES: usize = 10_000;

/// What the adversary says on the one game where the challenge is known.
const ADVERSARY: &str = "the adversary";

/// A seed as a client sends it: a string of decimal digits, as the page sends every seed (a
/// JSON number above 2^53 loses digits in JavaScript, and a link would then replay another
/// game), or a number, for clients that can carry every `u64` in one.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(crate) enum SeedIn {
    Number(u64),
    Text(String),
}

impl SeedIn {
    /// The seed, or why it is none.
    pub(crate) fn value(self) -> Result<u64, ServiceError> {
        match self {
            SeedIn::Number(n) => Ok(n),
            SeedIn::Text(text) => text.trim().parse().map_err(|_| {
                ServiceError::invalid(format!(
                    "the seed {:?} is not a whole number from 0 to {}: a game's link carries the seed it was started with, so check that the link is whole",
                    moo_core::text::excerpt(&text),
                    u64::MAX
                ))
            }),
        }
    }
}

#[derive(Debug, Serialize)]
struct TurnOut {
    guess: String,
    feedback: String,
    bulls: u8,
    cows: u8,
}

/// A game as its player may see it: the secret only once it is over.
#[derive(Debug, Serialize)]
pub struct GameReport {
    id: String,
    #[serde(flatten)]
    rules: RulesReport,
    turns: Vec<TurnOut>,
    won: bool,
    over: bool,
    gave_up: bool,
    /// Once over: the secret, or against the adversary a code that fits every answer.
    secret: Option<String>,
    /// Whether the game is against the adversary, which holds no secret.
    adversary: bool,
    /// Against the adversary: the turns (from 1) whose answer is the heuristic's, the search for
    /// the hardest answer not finishing in time.
    heuristic_turns: Vec<usize>,
    /// Against the adversary on Bulls and Cows: the challenge it sets.
    challenge: Option<&'static str>,
    /// Hard mode: every guess must be a code that could still be the secret.
    hard: bool,
    /// A daily puzzle's game: which day's.
    daily: Option<moo_core::daily::Puzzle>,
    /// The symbols no code left contains, for the page's keypad to mark; absent on games too
    /// large to enumerate at every guess.
    ruled_out: Option<String>,
}

impl GameReport {
    fn new(id: &str, game: &Game) -> GameReport {
        let rules = &game.rules;
        GameReport {
            id: id.to_string(),
            rules: RulesReport::new(rules),
            turns: game
                .history
                .turns()
                .iter()
                .map(|t| TurnOut {
                    guess: rules.format_code(&t.guess),
                    feedback: t.feedback.to_string(),
                    bulls: t.feedback.bulls,
                    cows: t.feedback.cows,
                })
                .collect(),
            won: game.history.is_won(rules.length()),
            over: game.is_over(),
            gave_up: game.gave_up,
            secret: game.is_over().then(|| rules.format_code(&game.secret)),
            adversary: game.adversary.is_some(),
            heuristic_turns: game
                .adversary
                .as_ref()
                .map(|a| a.heuristic_turns.clone())
                .unwrap_or_default(),
            challenge: (game.adversary.is_some() && *rules == moo_core::Rules::bulls())
                .then_some(adversary::CHALLENGE),
            hard: game.hard,
            daily: game.daily,
            ruled_out: game
                .history
                .ruled_out(rules)
                .map(|s| s.into_iter().collect()),
        }
    }
}

/// The outcome of a guess: the game, or against the adversary the job that answers it.
pub enum Guessed {
    /// Answered already: the game after the guess.
    Answered(GameReport),
    /// Against the adversary: the search for its answer, which then plays the guess.
    Job(Job<GameReport>),
}

/// A guess in a game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GuessBody {
    guess: String,
}

/// How many of the codes left a hint lists.
const HINT_LIST: usize = 20;

impl Service {
    /// Starts a game for `client`.
    pub fn new_game(&self, body: NewGame, client: Client) -> Result<GameReport, ServiceError> {
        if let Some(daily) = &body.daily {
            if body.preset.is_some()
                || body.rules.is_some()
                || body.seed.is_some()
                || body.adversary
            {
                return Err(ServiceError::invalid(
                    "a daily game takes its game and day alone: leave out \"preset\", \"rules\", \"seed\" and \"adversary\"",
                ));
            }
            let puzzle = daily.puzzle()?;
            let (id, _) = self.games.create(puzzle.rules(), None, client)?;
            return self.games.with(&id, |g| {
                g.secret = puzzle.secret();
                g.daily = Some(puzzle);
                // Hard mode is the player's own rule, so the day's puzzle may be played under it.
                g.hard = body.hard;
                Ok(GameReport::new(&id, g))
            });
        }
        let rules = pick_rules(body.preset, body.rules)?;
        let seed = body.seed.map(SeedIn::value).transpose()?;
        if body.adversary {
            check_size(&rules, ADVERSARY_MAX_CODES, ADVERSARY)?;
        }
        let codes = rules.space_size() as usize;
        let (id, game) = self.games.create(rules, seed, client)?;
        if !body.adversary && !body.hard {
            return Ok(GameReport::new(&id, &game));
        }
        self.games.with(&id, |g| {
            g.hard = body.hard;
            if !body.adversary {
                return Ok(GameReport::new(&id, g));
            }
            g.adversary = Some(Adversarial {
                candidates: CodeSet::full(codes),
                heuristic_turns: Vec::new(),
            });
            // No secret: the drawn one stands in until the first answer, which sets it to a
            // code that fits (it is shown only at the end).
            Ok(GameReport::new(&id, g))
        })
    }

    /// The game `id` as its player may see it.
    pub fn game(&self, id: &str) -> Result<GameReport, ServiceError> {
        self.games.read(id, |g| Ok(GameReport::new(id, g)))
    }

    /// Plays a guess in the game `id`: answered at once against a secret, by a job against the
    /// adversary (its search takes up to the advice time limit).
    pub fn guess(&self, id: &str, body: GuessBody) -> Result<Guessed, ServiceError> {
        let max_turns = self.limits.max_turns;
        let turn = self.games.with(id, |g| {
            if g.is_over() {
                return Err(ServiceError::conflict(
                    "this game is over: start a new one with POST /api/games",
                ));
            }
            if g.history.len() >= max_turns {
                return Err(ServiceError::conflict(format!(
                    "this game has reached the server's limit of {max_turns} turns: give up to see the secret, or start a new game"
                )));
            }
            let code = g
                .rules
                .parse_code(&body.guess)
                .map_err(|e| ServiceError::invalid(e.to_string()))?;
            refuse_wasted(g, &code)?;
            if let Some(a) = &g.adversary {
                return Ok(Err((code, g.rules.clone(), g.history.clone(), a.candidates.clone())));
            }
            let feedback = code.score(&g.secret);
            g.history.push(code, feedback);
            Ok(Ok(GameReport::new(id, g)))
        })?;
        let (code, rules, history, candidates) = match turn {
            Ok(report) => return Ok(Guessed::Answered(report)),
            Err(adversarial) => adversarial,
        };
        let id = id.to_string();
        Ok(Guessed::Job(Job::new(
            Work::Advice,
            self.limits.time_limit,
            rules,
            (ADVERSARY_MAX_CODES, ADVERSARY),
            move |service, space, stop| {
                // The job's stop bounds the search; past it the answer is the heuristic's.
                let options = AdversaryOptions::default().with_answer_time(None);
                let answer =
                    service
                        .adversary
                        .answer(space, &history, &candidates, &code, &options, &stop);
                if stop.is_cancelled() {
                    return Err(ServiceError::unavailable(
                        "the guess was cancelled before the adversary answered: play it again",
                    ));
                }
                let left = space.filter_code(&candidates, &code, answer.feedback);
                service.games.with(&id, |g| {
                    if g.history.len() != history.len() {
                        return Err(ServiceError::conflict(
                            "another guess was played in this game at the same time: reload the game",
                        ));
                    }
                    g.history.push(code, answer.feedback);
                    g.secret = adversary::a_secret(space, &left)
                        .expect("the adversary's answers always leave a code");
                    let a = g.adversary.as_mut().expect("a game against the adversary");
                    a.candidates = left;
                    if answer.method == AnswerMethod::Heuristic {
                        a.heuristic_turns.push(g.history.len());
                    }
                    Ok(GameReport::new(&id, g))
                })
            },
        )))
    }

    /// Gives the game `id` up, which shows its secret.
    pub fn give_up(&self, id: &str) -> Result<GameReport, ServiceError> {
        self.games.with(id, |g| {
            if !g.is_over() {
                g.gave_up = true;
            }
            Ok(GameReport::new(id, g))
        })
    }

    /// The advisor's position in the game `id`: its best guess and the codes left.
    pub fn hint(&self, id: &str) -> Result<Job<Position>, ServiceError> {
        let (rules, history, hard) = self.games.read(id, |g| {
            if g.gave_up {
                return Err(ServiceError::conflict(
                    "this game was given up, so it gets no more hints: start a new one",
                ));
            }
            if g.daily.is_some() {
                return Err(ServiceError::invalid(
                    "the daily puzzle has no hints: everybody finds the day's secret alone",
                ));
            }
            Ok((g.rules.clone(), g.history.clone(), g.hard))
        })?;
        let limit = (self.limits.solver_max_codes, "a hint");
        check_size(&rules, limit.0, limit.1)?;
        let mut options = AdviceOptions::default();
        if hard {
            // A hint in hard mode must be a guess the game accepts.
            options.guesses = moo_core::GuessPool::Consistent;
        }
        Ok(Job::new(
            Work::Advice,
            self.limits.time_limit,
            rules,
            limit,
            move |service, space, stop| {
                service
                    .advisor
                    .position(
                        space,
                        &history,
                        HINT_LIST,
                        Chooser::Advisor(&options, &stop),
                    )
                    .map_err(advice_error)
            },
        ))
    }
}

/// The advisor's refusal: only a strategy the client named can fail (the advisor's own policy
/// always has a guess, and a won or contradictory game is a position, not an error).
pub(crate) fn advice_error(error: AdviceError) -> ServiceError {
    match error {
        AdviceError::Strategy(e) => strategy_error(e),
        e @ AdviceError::Stopped { .. } => ServiceError::unavailable(e.to_string()),
        other => ServiceError::invalid(other.to_string()),
    }
}

/// The refusal of a game id no live game has.
pub(crate) fn no_such_game(message: String) -> ServiceError {
    ServiceError::not_found(ErrorCode::NoSuchGame, message)
}

/// Refuses, at no cost of a turn, a guess that tells nothing new (a repeat) or that hard mode
/// forbids (one no code left could be); checked before the adversary searches.
fn refuse_wasted(g: &Game, code: &moo_core::Code) -> Result<(), ServiceError> {
    if let Some(i) = g.history.turns().iter().position(|t| t.guess == *code) {
        let earlier = g.history.turns()[i].feedback;
        return Err(ServiceError::invalid(format!(
            "you already guessed {} (guess {}), and it answered {}: the same guess always gets the same answer, so try another code",
            g.rules.format_code(code),
            i + 1,
            earlier.words(&g.rules)
        )));
    }
    if g.hard {
        hard::check(&g.rules, &g.history, code)
            .map_err(|e| ServiceError::invalid(e.to_string()))?;
    }
    Ok(())
}
