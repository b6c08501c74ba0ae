//! The API's routes for transports without an HTTP router of their own: the in-browser engine
//! hands every request the page makes to [`Service::dispatch`], which answers what `moo serve`
//! answers to the same method, path and body.

use moo_core::Stop;
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::long::TREE_UPLOAD_LIMIT;
use crate::{body_error, ErrorCode, Job, Service, ServiceError};

/// An answer: its HTTP status and its JSON body.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reply {
    /// The HTTP status `moo serve` answers with.
    pub status: u16,
    /// The JSON body.
    pub body: String,
}

/// Where the API's routes are documented, for the refusals of the ones that do not exist.
const SEE_BOOK: &str = "see the JSON API in the book's web server page (docs/src/web.md)";

/// The routes, by method and path; `{id}` is a game's id.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Route<'a> {
    Presets,
    Strategies,
    NewGame,
    Game(&'a str),
    Guess(&'a str),
    GiveUp(&'a str),
    Hint(&'a str),
    NewDuel,
    Duel(&'a str),
    DuelMove(&'a str),
    Solver,
    Review,
    Bench,
    Tree,
    TreeView,
    DailyResult,
    DailyStats,
}

impl<'a> Route<'a> {
    /// The route of `method` and `path` (a query string is ignored, as the server ignores it).
    fn of(method: &str, path: &'a str) -> Result<Route<'a>, ServiceError> {
        let path = path.split_once('?').map_or(path, |(p, _)| p);
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        let (route, wants) = match parts.as_slice() {
            ["api", "presets"] => (Route::Presets, "GET"),
            ["api", "strategies"] => (Route::Strategies, "GET"),
            ["api", "games"] => (Route::NewGame, "POST"),
            ["api", "games", id] if !id.is_empty() => (Route::Game(id), "GET"),
            ["api", "games", id, "guesses"] if !id.is_empty() => (Route::Guess(id), "POST"),
            ["api", "games", id, "give-up"] if !id.is_empty() => (Route::GiveUp(id), "POST"),
            ["api", "games", id, "hint"] if !id.is_empty() => (Route::Hint(id), "GET"),
            ["api", "duels"] => (Route::NewDuel, "POST"),
            ["api", "duels", id] if !id.is_empty() => (Route::Duel(id), "GET"),
            ["api", "duels", id, "moves"] if !id.is_empty() => (Route::DuelMove(id), "POST"),
            ["api", "solver"] => (Route::Solver, "POST"),
            ["api", "review"] => (Route::Review, "POST"),
            ["api", "bench"] => (Route::Bench, "POST"),
            ["api", "trees"] => (Route::Tree, "POST"),
            ["api", "trees", "view"] => (Route::TreeView, "POST"),
            ["api", "daily", "result"] => (Route::DailyResult, "POST"),
            ["api", "daily", "stats"] => (Route::DailyStats, "POST"),
            _ => {
                return Err(ServiceError::not_found(
                    ErrorCode::NoSuchRoute,
                    format!("no such API route: {SEE_BOOK}"),
                ))
            }
        };
        if !method.eq_ignore_ascii_case(wants) {
            return Err(ServiceError::new(
                405,
                ErrorCode::WrongMethod,
                format!("this route does not take that HTTP method: {SEE_BOOK}"),
            ));
        }
        Ok(route)
    }

    /// The largest body the route takes.
    fn body_limit(&self, limit: usize) -> usize {
        match self {
            Route::TreeView => TREE_UPLOAD_LIMIT,
            Route::DailyStats => crate::STATS_UPLOAD_LIMIT,
            _ => limit,
        }
    }
}

/// The largest body the route of `method` and `path` takes, where the service's own limit is
/// `limit` (a tree upload takes more); a path that is no route takes `limit`.
pub fn body_limit(method: &str, path: &str, limit: usize) -> usize {
    Route::of(method, path).map_or(limit, |route| route.body_limit(limit))
}

/// The body read as `T`, refused as the server refuses it.
pub fn read_body<T: DeserializeOwned>(body: &str) -> Result<T, ServiceError> {
    let mut json = serde_json::Deserializer::from_str(body);
    let value: T = serde_path_to_error::deserialize(&mut json)
        .map_err(|e| body_error(e.inner(), Some(&e.path().to_string())))?;
    // Trailing characters after the value are refused, as serde_json::from_str refuses them.
    json.end().map_err(|e| body_error(&e, None))?;
    Ok(value)
}

/// A 200 answer of `value`.
fn ok(value: &impl Serialize) -> Result<(u16, String), ServiceError> {
    Ok((200, to_json(value)?))
}

/// An answer as JSON text.
pub fn to_json(value: &impl Serialize) -> Result<String, ServiceError> {
    serde_json::to_string(value)
        .map_err(|e| ServiceError::internal(format!("the answer could not be written: {e}")))
}

impl Service {
    /// Answers `method` `path` with `body` (empty for none) as `moo serve` would, running any
    /// job on this thread; `stop` makes the [`Stop`] a job runs under from its time limit (the
    /// caller adds a cancel flag there if it has one).
    pub fn dispatch(
        &self,
        method: &str,
        path: &str,
        body: &str,
        stop: impl Fn(std::time::Duration) -> Stop,
    ) -> Reply {
        match self.answer(method, path, body, &stop) {
            Ok((status, body)) => Reply { status, body },
            Err(e) => Reply {
                status: e.status,
                body: e.to_json(),
            },
        }
    }

    /// Runs `job` on this thread under the stop its time limit makes.
    fn run_inline<T>(
        &self,
        job: Job<T>,
        stop: &dyn Fn(std::time::Duration) -> Stop,
    ) -> Result<T, ServiceError> {
        let stop = stop(job.time_limit);
        job.run(self, stop)
    }

    fn answer(
        &self,
        method: &str,
        path: &str,
        body: &str,
        stop: &dyn Fn(std::time::Duration) -> Stop,
    ) -> Result<(u16, String), ServiceError> {
        let route = Route::of(method, path)?;
        let limit = route.body_limit(self.limits.body_limit);
        if body.len() > limit {
            return Err(ServiceError::new(
                413,
                ErrorCode::TooLarge,
                format!("the request body is larger than this server's limit of {limit} bytes: send a shorter history"),
            ));
        }
        match route {
            Route::Presets => ok(&self.presets()),
            Route::Strategies => ok(&self.strategies()),
            Route::NewGame => Ok((201, to_json(&self.new_game(read_body(body)?, None)?)?)),
            Route::Game(id) => ok(&self.game(id)?),
            Route::Guess(id) => match self.guess(id, read_body(body)?)? {
                crate::Guessed::Answered(report) => ok(&report),
                crate::Guessed::Job(job) => ok(&self.run_inline(job, stop)?),
            },
            Route::GiveUp(id) => ok(&self.give_up(id)?),
            Route::Hint(id) => ok(&self.run_inline(self.hint(id)?, stop)?),
            Route::NewDuel => Ok((201, to_json(&self.new_duel(read_body(body)?, None)?)?)),
            Route::Duel(id) => ok(&self.duel(id)?),
            Route::DuelMove(id) => {
                ok(&self.run_inline(self.duel_move(id, read_body(body)?)?, stop)?)
            }
            Route::Solver => ok(&self.run_inline(self.solver(read_body(body)?)?, stop)?),
            Route::Review => ok(&self.run_inline(self.review(read_body(body)?)?, stop)?),
            Route::Bench => ok(&self.run_inline(self.bench(read_body(body)?)?, stop)?),
            // Already JSON text, as the core writes a tree.
            Route::Tree => Ok((200, self.run_inline(self.tree(read_body(body)?)?, stop)?)),
            Route::TreeView => Ok((
                200,
                self.run_inline(self.tree_view(read_body(body)?)?, stop)?,
            )),
            Route::DailyResult => ok(&self.run_inline(self.daily_result(read_body(body)?)?, stop)?),
            Route::DailyStats => ok(&self.daily_stats(read_body(body)?)?),
        }
    }
}
