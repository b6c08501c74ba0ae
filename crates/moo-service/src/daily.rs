//! The daily puzzle as the web app plays it: a daily game is a game of the store like any
//! other, started with the day's secret, so the page gets only feedback until it is over (and
//! no hints: everybody plays the day alone). Its result (the review and the share card) and
//! the player's statistics come from two routes of their own that keep nothing: the page
//! keeps the record of results in the browser and sends it with each request.

use moo_core::daily::{self, DailyError, DayResult, GameStats, Puzzle, Record};
use moo_core::review::GameReview;
use moo_core::{History, Preset};
use serde::{Deserialize, Serialize};

use crate::{Job, Service, ServiceError};

/// The largest statistics request: a record of both games for about twenty years.
pub const STATS_UPLOAD_LIMIT: usize = 2 << 20;

/// Which daily puzzle: a game and a day (`YYYY-MM-DD`, UTC).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DailyIn {
    game: Preset,
    date: daily::Date,
}

impl DailyIn {
    /// The puzzle, refused when it comes before the first or is still to come by this
    /// service's clock.
    pub(crate) fn puzzle(&self) -> Result<Puzzle, ServiceError> {
        Puzzle::playable(self.game, self.date, daily::Date::today()).map_err(invalid)
    }
}

fn invalid(e: DailyError) -> ServiceError {
    ServiceError::invalid(e.to_string())
}

/// A daily game's guesses, for its result once it is over.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyResultBody {
    game: Preset,
    date: daily::Date,
    guesses: Vec<String>,
    /// Whether the player gave up (a game not won is over only then).
    #[serde(default)]
    gave_up: bool,
}

/// A daily game's result: its review, the share card, and the entry for the player's record.
#[derive(Debug, Serialize)]
pub struct DailyResult {
    puzzle: Puzzle,
    secret: String,
    review: GameReview,
    /// The share card ([`daily::share_text`]).
    share: String,
    result: DayResult,
}

/// The player's record, and what to do to it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DailyStatsBody {
    /// Today, for the streaks: the page's day, which a test may fix.
    today: daily::Date,
    /// The record kept so far, as its JSON text (empty on a first visit).
    #[serde(default)]
    record: String,
    /// A record file to merge in, as its text.
    import: Option<String>,
    /// A result to add.
    add: Option<DayResult>,
}

/// The record after the request, and its statistics.
#[derive(Debug, Serialize)]
pub struct DailyStats {
    /// The record as JSON text: what the page keeps and exports.
    file: String,
    /// Each game's statistics.
    stats: Vec<GameStats>,
    /// With an import: how many results it added.
    imported: Option<usize>,
}

impl Service {
    /// The result of a daily game that is over: refused before, since it shows the secret.
    pub fn daily_result(&self, body: DailyResultBody) -> Result<Job<DailyResult>, ServiceError> {
        let puzzle = DailyIn {
            game: body.game,
            date: body.date,
        }
        .puzzle()?;
        let rules = puzzle.rules();
        let secret = puzzle.secret();
        if body.guesses.len() > self.limits.max_turns {
            return Err(ServiceError::invalid(format!(
                "{} guesses is more than the {} a game may have",
                body.guesses.len(),
                self.limits.max_turns
            )));
        }
        let mut history = History::new();
        for (i, text) in body.guesses.iter().enumerate() {
            let guess = rules
                .parse_code(text)
                .map_err(|e| ServiceError::invalid(format!("guess {}: {e}", i + 1)))?;
            history.push(guess, guess.score(&secret));
        }
        if !history.is_won(rules.length()) && !body.gave_up {
            return Err(ServiceError::conflict(
                "the day's result comes once its game is over: find the secret or give up",
            ));
        }
        let secret = rules.format_code(&secret);
        Ok(self.review_job(rules, history, move |review| {
            let share = daily::share_text(&puzzle, &review);
            let result = DayResult::of(&puzzle, &review);
            DailyResult {
                puzzle,
                secret,
                review,
                share,
                result,
            }
        }))
    }

    /// The player's record with an import merged in or a result added, and its statistics.
    pub fn daily_stats(&self, body: DailyStatsBody) -> Result<DailyStats, ServiceError> {
        let mut record = Record::parse(&body.record).map_err(|e| {
            ServiceError::invalid(format!(
                "the statistics kept in this browser cannot be read ({e}): import a file you exported earlier"
            ))
        })?;
        let imported = match body.import {
            Some(text) => Some(record.merge(Record::parse(&text).map_err(invalid)?)),
            None => None,
        };
        if let Some(result) = body.add {
            Puzzle::new(result.game, result.date).map_err(invalid)?;
            record.add(result);
        }
        Ok(DailyStats {
            file: record.to_json(),
            stats: Preset::ALL
                .iter()
                .map(|&game| record.stats(game, body.today))
                .collect(),
            imported,
        })
    }
}
