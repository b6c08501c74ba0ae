//! The solver and the assistant (the client holds the history and sends it whole with every
//! step, so undo is one turn fewer and nothing is lost on a restart), and the review of a game.

use std::time::Duration;

use moo_core::advisor::{Advice, AdviceOptions, Advisor, Chooser, Position};
use moo_core::review::{self, GameReview, ReviewError, ReviewOptions};
use moo_core::{CodeSpace, Feedback, History, Preset, Rules, Stop};
use serde::{Deserialize, Serialize};

use crate::play::advice_error;
use crate::rules::{check_offered, rules_within, RulesIn, REVIEW, SOLVER};
use crate::{Job, Service, ServiceError, Work};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnIn {
    guess: String,
    feedback: String,
}

/// A solver or assistant step: the rules, the history so far, and optionally a strategy to
/// follow and how many codes left to list.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolverBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    /// A strategy to follow instead of the advisor's own choice.
    strategy: Option<String>,
    #[serde(default)]
    history: Vec<TurnIn>,
    /// How many of the codes left to list (at most [`MAX_LIST`]).
    list: Option<usize>,
}

/// The most codes left a solver step lists, and how many unless asked.
const MAX_LIST: usize = 10_000;
const DEFAULT_LIST: usize = 50;

/// A solver step: the advisor's position, and for its guess every answer with the codes each
/// leaves, so the page can offer the possible ones as buttons.
#[derive(Debug, Serialize)]
pub struct SolverStep {
    #[serde(flatten)]
    position: Position,
    answers: Vec<Answer>,
}

#[derive(Debug, Serialize)]
struct Answer {
    feedback: String,
    bulls: u8,
    cows: u8,
    /// Codes left after this answer (0: it would contradict an earlier one).
    remaining: usize,
    win: bool,
}

/// A game to review: its rules and every turn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    history: Vec<TurnIn>,
}

/// Reads the client's history of the solver, naming the turn of the first bad value; at most
/// `max_turns` turns.
fn read_history(
    rules: &Rules,
    turns: &[TurnIn],
    max_turns: usize,
) -> Result<History, ServiceError> {
    // One guess per code is the most any strategy needs (the body limit bounds it further).
    let codes = usize::try_from(rules.space_size()).unwrap_or(usize::MAX);
    let most = codes.min(max_turns);
    if turns.len() > most {
        let why = if most == codes {
            format!("the {codes} codes of these rules")
        } else {
            format!("the server's limit of {max_turns} turns")
        };
        return Err(ServiceError::invalid(format!(
            "the history has {} turns, more than {why}",
            turns.len()
        )));
    }
    let mut history = History::new();
    for (i, t) in turns.iter().enumerate() {
        let guess = rules
            .parse_code(&t.guess)
            .map_err(|e| ServiceError::invalid(format!("turn {}: {e}", i + 1)))?;
        let feedback = Feedback::parse(&t.feedback, rules.length())
            .map_err(|e| ServiceError::invalid(format!("turn {}: {e}", i + 1)))?;
        history.push(guess, feedback);
    }
    Ok(history)
}

/// Every answer to `guess` with the candidates it leaves.
fn answers(space: &CodeSpace, history: &History, guess: &str, stop: &Stop) -> Vec<Answer> {
    let rules = space.rules();
    let length = rules.length();
    let Some(index) = rules
        .parse_code(guess)
        .ok()
        .and_then(|c| space.index_of(&c))
    else {
        return Vec::new();
    };
    // Past the time limit the page gets the guess without the answers' counts.
    let Ok(candidates) = history.candidates_until(space, stop) else {
        return Vec::new();
    };
    let mut counts = [0u32; 256];
    space.partition_counts(index, &candidates, &mut counts);
    Feedback::all(length)
        .map(|f| Answer {
            feedback: f.to_string(),
            bulls: f.bulls,
            cows: f.cows,
            remaining: counts[f.index(length)] as usize,
            win: f.is_win(length),
        })
        .collect()
}

impl Service {
    /// The rules, history and advice options of a solver request, checked.
    fn position_of(
        &self,
        body: SolverBody,
    ) -> Result<(Rules, History, AdviceOptions), ServiceError> {
        let limit = self.limits.solver_max_codes;
        let rules = rules_within(body.preset, body.rules, limit, SOLVER)?;
        let history = read_history(&rules, &body.history, self.limits.max_turns)?;
        let mut options = AdviceOptions::default();
        if let Some(name) = body.strategy {
            check_offered(&name)?;
            options.strategy = Some(name);
        }
        Ok((rules, history, options))
    }

    /// A solver or assistant step: the advisor's guess (or the named strategy's) for the
    /// history, with every answer it can get.
    pub fn solver(&self, body: SolverBody) -> Result<Job<SolverStep>, ServiceError> {
        let list = body.list.unwrap_or(DEFAULT_LIST).min(MAX_LIST);
        let (rules, history, options) = self.position_of(body)?;
        Ok(self.solver_job(rules, move |service, space, stop| {
            let position = service
                .advisor
                .position(space, &history, list, Chooser::Advisor(&options, &stop))
                .map_err(advice_error)?;
            let answers = position
                .advice
                .as_ref()
                .map(|a| answers(space, &history, &a.guess, &stop))
                .unwrap_or_default();
            Ok(SolverStep { position, answers })
        }))
    }

    /// The advice on a position of a fresh advisor (no cache from earlier requests), as
    /// `moo bench advisor` times it: what the static site's speed benchmark runs in the browser
    /// and natively, side by side. The `list` of the body is ignored.
    pub fn fresh_advice(&self, body: SolverBody) -> Result<Job<Advice>, ServiceError> {
        let (rules, history, options) = self.position_of(body)?;
        Ok(self.solver_job(rules, move |_, space, stop| {
            let candidates = history
                .candidates_until(space, &stop)
                .map_err(|e| ServiceError::unavailable(e.to_string()))?;
            Advisor::new()
                .advise(
                    space,
                    &history,
                    &candidates,
                    Chooser::Advisor(&options, &stop),
                )
                .map_err(advice_error)
        }))
    }

    /// A solver's job on `rules`: advice, which a player waits for, within the solver's limits.
    fn solver_job<T>(
        &self,
        rules: Rules,
        run: impl FnOnce(&Service, &CodeSpace, Stop) -> Result<T, ServiceError> + Send + 'static,
    ) -> Job<T> {
        Job::new(
            Work::Advice,
            self.limits.time_limit,
            rules,
            (self.limits.solver_max_codes, SOLVER),
            run,
        )
    }

    /// What each move of a game cost against the best move: the core's review as it is, the
    /// same object `moo review --json` prints. A player waits for it, as for a hint.
    pub fn review(&self, body: ReviewBody) -> Result<Job<GameReview>, ServiceError> {
        let limit = self.limits.solver_max_codes;
        let rules = rules_within(body.preset, body.rules, limit, REVIEW)?;
        let history = read_history(&rules, &body.history, self.limits.max_turns)?;
        Ok(self.review_job(rules, history, |review| review))
    }

    /// The job reviewing `history`, each move within the advice time limit, answering what
    /// `then` makes of the review: the review route's and the daily result's, alike.
    pub(crate) fn review_job<T: 'static>(
        &self,
        rules: Rules,
        history: History,
        then: impl FnOnce(GameReview) -> T + Send + 'static,
    ) -> Job<T> {
        let move_time: Duration = self.limits.time_limit;
        Job::new(
            Work::Review,
            self.limits.review_time_limit,
            rules,
            (self.limits.solver_max_codes, REVIEW),
            move |service, space, stop| {
                let options = ReviewOptions::default().with_move_time(Some(move_time));
                review::review(&service.advisor, space, &history, &options, &stop)
                    .map(then)
                    .map_err(|e| match e {
                        ReviewError::Stopped { .. } => ServiceError::unavailable(format!(
                            "{e}: try a shorter game, or again later"
                        )),
                        e => ServiceError::invalid(e.to_string()),
                    })
            },
        )
    }
}
