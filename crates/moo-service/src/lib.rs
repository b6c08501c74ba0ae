//! What the moo web app asks of the engine, free of any transport: one set of serde request and
//! response types, and one [`Service`] that answers them.
//!
//! Two transports carry it. `moo serve` (the `moo-web` crate) maps each HTTP route to a call
//! here and runs heavy calls on worker threads under its fair-share limits; the static site
//! (the `moo-wasm` crate) runs this very crate compiled to WebAssembly in a Web Worker and
//! routes the page's requests with [`Service::dispatch`]. The page cannot tell them apart: the
//! same request gets the same JSON answer, and every error carries a machine-readable
//! [`ErrorCode`] beside its message.
//!
//! A call that searches or plays every secret comes back as a [`Job`]: checked and ready, but
//! not yet run, so a transport decides where and when it runs (a worker thread, a Web Worker)
//! and under which [`Stop`]. Every guess suggested (a hint, a solver or assistant step) comes
//! from the one `moo_core` advisor, which decides how to choose it; this layer adds no policy
//! of its own.

#![deny(missing_docs)]

mod bench;
mod daily;
mod duel;
mod error;
mod games;
mod long;
mod play;
mod route;
mod rules;
mod solve;
mod spaces;
mod treeview;

use std::sync::Arc;
use std::time::Duration;

use moo_core::advisor::Advisor;
use moo_core::Adversary;
use moo_core::{CodeSpace, GuessPool, Rules, Stop};

pub use daily::{DailyResult, DailyResultBody, DailyStats, DailyStatsBody, STATS_UPLOAD_LIMIT};
pub use duel::{DuelMove, DuelOut, NewDuel};
pub use error::{body_error, plain, ErrorCode, ServiceError};
pub use long::{
    BenchBody, BenchReport, TreeBody, TreeViewBody, MAX_ANSWER_BYTES, TREE_UPLOAD_LIMIT,
};
pub use play::{GameReport, GuessBody, Guessed, NewGame};
pub use route::{body_limit, read_body, to_json, Reply};
pub use rules::{Presets, Strategies};
pub use solve::{ReviewBody, SolverBody, SolverStep};
pub use treeview::TreeView;

/// The limits of a service: how many games it keeps, how big and how long its work may be.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Limits {
    /// The most games kept at once; past it, a new game replaces a finished one, or the game
    /// idle longest if nobody has touched it for [`Limits::evict_idle`] (a game never played)
    /// or [`Limits::evict_played`] (a game in play); otherwise it is refused.
    pub max_games: usize,
    /// The most turns a game or a solver history may have: far more than any game needs, and a
    /// bound on the work of every hint and on the size of every answer, which lists the turns.
    pub max_turns: usize,
    /// A client's share of a full store: when the store is full, a client holding more gives
    /// up its game played longest ago to a new one, so one client cannot keep the store full
    /// for everyone.
    pub client_games: usize,
    /// How long a game may go without a move before it is dropped (reading it does not count).
    pub idle_expiry: Duration,
    /// How long a game nobody has played yet must have gone untouched before a new game may
    /// take its place when the store is full.
    pub evict_idle: Duration,
    /// How long a game with a move in it must have gone untouched before a new game may take
    /// its place: a player thinking over the next guess keeps the game, whoever fills the
    /// store meanwhile (on a loopback server every client has the same address, so the owner's
    /// address cannot tell a player's game from a script's).
    pub evict_played: Duration,
    /// How long one piece of advice (a hint, a solver or assistant step) may take, waiting
    /// included: past it the advisor answers with the best guess it has.
    pub time_limit: Duration,
    /// How long the review of a whole game may take, waiting included: each move gets at most
    /// `time_limit` and its share of what is left, and figures its proofs do not reach in time
    /// are estimated, marked as such; a review that runs out before its last move answers 503.
    pub review_time_limit: Duration,
    /// How long a benchmark or a strategy tree may run or wait: they play every secret.
    pub bench_time_limit: Duration,
    /// The largest code space for hints and the solver: it is enumerated and held in memory
    /// (the advisor bounds the time by sampling, not the memory).
    pub solver_max_codes: usize,
    /// The largest code space for benchmarks and strategy trees (they play every secret).
    pub bench_max_codes: usize,
    /// How many code spaces (with their score tables) are kept in memory for reuse.
    pub cached_spaces: usize,
    /// The largest request body accepted, in bytes (a tree file uploaded to the Explorer may
    /// be up to [`TREE_UPLOAD_LIMIT`]).
    pub body_limit: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_games: 1000,
            max_turns: 500,
            client_games: 100,
            idle_expiry: Duration::from_secs(30 * 60),
            evict_idle: Duration::from_secs(60),
            evict_played: Duration::from_secs(10 * 60),
            time_limit: Duration::from_secs(2),
            review_time_limit: Duration::from_secs(10),
            bench_time_limit: Duration::from_secs(20),
            solver_max_codes: moo_core::space::MAX_CODES,
            bench_max_codes: 5040,
            cached_spaces: 3,
            body_limit: 16 * 1024,
        }
    }
}

/// Who asks: a client address when the transport knows one, so each holds at most its share of
/// the game store; the in-browser engine has one client only.
pub type Client = Option<std::net::IpAddr>;

/// The engine behind the web app: the game store, the cached code spaces, the one advisor and
/// the benchmark cache, shared by every request.
pub struct Service {
    limits: Limits,
    games: games::Games,
    spaces: spaces::Spaces,
    advisor: Advisor,
    /// The adversary of every game without a secret, sharing what it has proven.
    adversary: Adversary,
    bench_cache: bench::BenchCache,
}

impl Service {
    /// A service with `limits`.
    pub fn new(limits: Limits) -> Service {
        Service {
            games: games::Games::new(limits.max_games, limits.idle_expiry, limits.evict_idle)
                .with_per_client(limits.client_games)
                .with_evict_played(limits.evict_played),
            spaces: spaces::Spaces::new(limits.cached_spaces),
            advisor: Advisor::new(),
            adversary: Adversary::new(),
            bench_cache: bench::BenchCache::default(),
            limits,
        }
    }

    /// The limits it was made with.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }
}

/// Which kind of worker a [`Job`] wants: transports that run jobs on worker pools keep advice
/// apart from long work, so a hint never waits behind a benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Work {
    /// A hint, a solver or assistant step: a player waits for it, within a short limit.
    Advice,
    /// The review of a whole game: a player waits for it too, but it may take the longer
    /// [`Limits::review_time_limit`], so it has workers of its own and never holds advice's.
    Review,
    /// A benchmark or a strategy tree: every secret is played.
    Long,
}

type JobFn<T> = Box<dyn FnOnce(&Service, &CodeSpace, Stop) -> Result<T, ServiceError> + Send>;

/// A checked call that is ready to run: the rules' code space is found or built when it runs,
/// and the work stops at the [`Stop`] the transport gives it.
#[must_use = "a job does nothing until it is run"]
pub struct Job<T> {
    /// Which kind of worker it wants.
    pub work: Work,
    /// How long it may take, waiting for a worker included.
    pub time_limit: Duration,
    rules: Rules,
    max_codes: usize,
    what: &'static str,
    run: JobFn<T>,
}

impl<T> Job<T> {
    fn new(
        work: Work,
        time_limit: Duration,
        rules: Rules,
        (max_codes, what): (usize, &'static str),
        run: impl FnOnce(&Service, &CodeSpace, Stop) -> Result<T, ServiceError> + Send + 'static,
    ) -> Job<T> {
        Job {
            work,
            time_limit,
            rules,
            max_codes,
            what,
            run: Box::new(run),
        }
    }

    /// The job with another time limit.
    pub fn with_time_limit(mut self, time_limit: Duration) -> Job<T> {
        self.time_limit = time_limit;
        self
    }

    /// Runs the job on this thread on `service`, within `stop`.
    pub fn run(self, service: &Service, stop: Stop) -> Result<T, ServiceError> {
        let trees = moo_core::strategy::missing_shipped_trees(&self.rules, GuessPool::All);
        if !trees.is_empty() {
            let mut error = ServiceError::new(
                503,
                ErrorCode::NeedsTrees,
                format!(
                    "the engine needs the shipped trees {} for {}, which this page has not given it yet",
                    trees.join(", "),
                    self.rules.describe()
                ),
            );
            error.trees = trees.into_iter().map(String::from).collect();
            return Err(error);
        }
        let space: Arc<CodeSpace> = service.spaces.get(&self.rules, self.max_codes, self.what)?;
        (self.run)(service, &space, stop)
    }
}
