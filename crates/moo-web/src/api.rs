//! The JSON API under `/api/`; the book's web server page (docs/src/web.md) documents each route.
//!
//! Every answer is a typed report: the advisor's `Position` as the core builds it (the same
//! object `moo hint --json` prints), or one of the small `Serialize` types below. No route
//! decides a guess or a default strategy: hints and solver steps ask the advisor.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use moo_core::strategy::{self, StrategyInfo, StrategyOptions};
use moo_core::{
    CodeSpace, DecisionTree, EvalOptions, Evaluation, Feedback, History, Preset, Rules, RulesError,
    Stop,
};
use serde::{Deserialize, Serialize};

use crate::bench;
use crate::error::{strategy_error, ApiError, ApiJson};
use crate::games::Game;
use crate::heavy::{Client, Work};
use crate::spaces::check_size;
use crate::treeview::{self, TreeView};
use crate::AppState;
use moo_core::advisor::{AdviceError, AdviceOptions, Chooser, Position};
use moo_core::review::{self, GameReview, ReviewError, ReviewOptions};

type AppResult<T> = Result<Json<T>, ApiError>;
type Shared = State<Arc<AppState>>;

pub(crate) fn routes(state: Arc<AppState>) -> Router {
    let body_limit = state.config.body_limit;
    Router::new()
        .route("/api/presets", get(presets))
        .route("/api/strategies", get(strategies))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/guesses", post(guess))
        .route("/api/games/{id}/give-up", post(give_up))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/solver", post(solver_step))
        .route("/api/review", post(review_game))
        .route("/api/bench", post(run_bench))
        .route("/api/trees", post(strategy_tree))
        .route(
            "/api/trees/view",
            post(tree_view).layer(DefaultBodyLimit::max(TREE_UPLOAD_LIMIT)),
        )
        .fallback(|| async {
            ApiError::not_found("no such API route: see the JSON API in the book's web server page (docs/src/web.md)")
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take that HTTP method: see the JSON API in the book's web server page (docs/src/web.md)",
            )
        })
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

// ---- rules -------------------------------------------------------------------------------

/// Rules as a client sends them; read here rather than through `Rules`' own serde form so a
/// refusal speaks of the page's fields, not of the command line's flags.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesIn {
    length: usize,
    symbols: String,
    repeats: bool,
    #[serde(default)]
    no_leading: bool,
}

impl RulesIn {
    fn rules(&self) -> Result<Rules, ApiError> {
        Rules::new(self.length, &self.symbols, self.repeats, self.no_leading)
            .map_err(|e| ApiError::unprocessable(rules_message(&e)))
    }
}

/// The library's message, with the two that name command-line flags said for the web.
fn rules_message(error: &RulesError) -> String {
    match error {
        RulesError::EmptyAlphabet => {
            "no symbols were given: list at least one, for example 0123456789".to_string()
        }
        RulesError::TooLong(n) => format!(
            "code length {n} is too long: at most {} symbols are supported",
            moo_core::rules::MAX_LENGTH
        ),
        RulesError::NoCodeLeft(c) => format!(
            "with {c:?} forbidden in front, no code is left: add a symbol or allow {c:?} to lead"
        ),
        other => other.to_string(),
    }
}

/// Either a preset name or full rules; neither means Bulls and Cows.
fn pick_rules(preset: Option<Preset>, rules: Option<RulesIn>) -> Result<Rules, ApiError> {
    match (preset, rules) {
        (Some(_), Some(_)) => Err(ApiError::unprocessable(
            "give either \"preset\" or \"rules\", not both",
        )),
        (Some(p), None) => Ok(p.rules()),
        (None, Some(r)) => r.rules(),
        (None, None) => Ok(Rules::bulls()),
    }
}

/// What the size limits are for, in the words of their refusals.
const SOLVER: &str = "this page";
const REVIEW: &str = "the review";
const BENCH: &str = "the benchmark";
const TREES: &str = "the Explorer";

/// The rules a request names, refused over `limit` codes before anything is enumerated; `what`
/// names the feature for the message.
fn rules_within(
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    limit: usize,
    what: &str,
) -> Result<Rules, ApiError> {
    let rules = pick_rules(preset, rules)?;
    check_size(&rules, limit, what)?;
    Ok(rules)
}

/// Rules with what a page shows of them.
#[derive(Debug, Serialize)]
struct RulesReport {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'static str>,
    rules: Rules,
    description: String,
    /// A string: big spaces overflow JavaScript's exact integers.
    space_size: String,
}

impl RulesReport {
    fn new(rules: &Rules) -> RulesReport {
        RulesReport {
            name: None,
            rules: rules.clone(),
            description: rules.describe(),
            space_size: rules.space_size().to_string(),
        }
    }
}

#[derive(Debug, Serialize)]
struct Presets {
    presets: Vec<RulesReport>,
}

async fn presets() -> Json<Presets> {
    let presets = Preset::ALL
        .iter()
        .map(|p| RulesReport {
            name: Some(p.name()),
            ..RulesReport::new(&p.rules())
        })
        .collect();
    Json(Presets { presets })
}

// ---- strategies ----------------------------------------------------------------------------

/// Refuses a strategy name the registry does not know, pointing a tree file's user to the
/// explorer page, which reads tree files in the browser (the server reads no files).
fn check_offered(name: &str) -> Result<(), ApiError> {
    if strategy::info_of(name).is_some() {
        return Ok(());
    }
    let choices = strategy::names().collect::<Vec<_>>().join(", ");
    Err(ApiError::unprocessable(if name.starts_with("tree:") {
        format!("strategy {name:?} would read a file on the server, which the API does not do: open tree files in the explorer page instead, or choose among {choices}")
    } else {
        format!("unknown strategy {name:?}: choose among {choices}")
    }))
}

/// The registry's own entries, as the command line sees them.
#[derive(Debug, Serialize)]
struct Strategies {
    strategies: Vec<&'static StrategyInfo>,
}

async fn strategies() -> Json<Strategies> {
    Json(Strategies {
        strategies: strategy::list().collect(),
    })
}

// ---- games -------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    /// Makes the secret reproducible.
    seed: Option<SeedIn>,
}

/// A seed as a client sends it: a string of decimal digits, as the page sends every seed (a
/// JSON number above 2^53 loses digits in JavaScript, and a link would then replay another
/// game), or a number, for clients that can carry every `u64` in one.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum SeedIn {
    Number(u64),
    Text(String),
}

impl SeedIn {
    /// The seed, or why it is none.
    fn value(self) -> Result<u64, ApiError> {
        match self {
            SeedIn::Number(n) => Ok(n),
            SeedIn::Text(text) => text.trim().parse().map_err(|_| {
                ApiError::unprocessable(format!(
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
struct GameReport {
    id: String,
    #[serde(flatten)]
    rules: RulesReport,
    turns: Vec<TurnOut>,
    won: bool,
    over: bool,
    gave_up: bool,
    secret: Option<String>,
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
        }
    }
}

async fn new_game(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<NewGame>,
) -> Result<(StatusCode, Json<GameReport>), ApiError> {
    let rules = pick_rules(body.preset, body.rules)?;
    let seed = body.seed.map(SeedIn::value).transpose()?;
    let (id, game) = state.games.create(rules, seed, client.0)?;
    Ok((StatusCode::CREATED, Json(GameReport::new(&id, &game))))
}

async fn game_state(State(state): Shared, Path(id): Path<String>) -> AppResult<GameReport> {
    state.games.read(&id, |g| Ok(Json(GameReport::new(&id, g))))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GuessBody {
    guess: String,
}

async fn guess(
    State(state): Shared,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<GuessBody>,
) -> AppResult<GameReport> {
    let max_turns = state.config.max_turns;
    state.games.with(&id, |g| {
        if g.is_over() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this game is over: start a new one with POST /api/games",
            ));
        }
        if g.history.len() >= max_turns {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!("this game has reached the server's limit of {max_turns} turns: give up to see the secret, or start a new game"),
            ));
        }
        let code = g
            .rules
            .parse_code(&body.guess)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        // A repeat tells nothing new, so it is refused like an invalid code and costs no turn.
        if let Some(i) = g.history.turns().iter().position(|t| t.guess == code) {
            let earlier = g.history.turns()[i].feedback;
            return Err(ApiError::unprocessable(format!(
                "you already guessed {} (guess {}), and it answered {earlier}: the same guess always gets the same answer, so try another code",
                g.rules.format_code(&code),
                i + 1
            )));
        }
        let feedback = code.score(&g.secret);
        g.history.push(code, feedback);
        Ok(Json(GameReport::new(&id, g)))
    })
}

async fn give_up(State(state): Shared, Path(id): Path<String>) -> AppResult<GameReport> {
    state.games.with(&id, |g| {
        if !g.is_over() {
            g.gave_up = true;
        }
        Ok(Json(GameReport::new(&id, g)))
    })
}

/// How many of the codes left a hint lists.
const HINT_LIST: usize = 20;

async fn hint(State(state): Shared, client: Client, Path(id): Path<String>) -> AppResult<Position> {
    let (rules, history) = state.games.read(&id, |g| {
        if g.gave_up {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this game was given up, so it gets no more hints: start a new one",
            ));
        }
        Ok((g.rules.clone(), g.history.clone()))
    })?;
    let limit = (state.config.solver_max_codes, "a hint");
    check_size(&rules, limit.0, limit.1)?;
    let options = AdviceOptions::default();
    let position = on_space(
        &state,
        (Work::Advice, client),
        state.config.time_limit,
        rules,
        limit,
        move |app, space, stop| {
            app.advisor
                .position(
                    space,
                    &history,
                    HINT_LIST,
                    Chooser::Advisor(&options, &stop),
                )
                .map_err(advice_error)
        },
    )
    .await?;
    Ok(Json(position))
}

/// The advisor's refusal: only a strategy the client named can fail (the advisor's own policy
/// always has a guess, and a won or contradictory game is a position, not an error).
fn advice_error(error: AdviceError) -> ApiError {
    match error {
        AdviceError::Strategy(e) => strategy_error(e),
        e @ AdviceError::Stopped { .. } => ApiError::unavailable(e.to_string()),
        other => ApiError::unprocessable(other.to_string()),
    }
}

// ---- solver ------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TurnIn {
    guess: String,
    feedback: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolverBody {
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
struct SolverStep {
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

/// Reads the client's history of the solver, naming the turn of the first bad value; at most
/// `max_turns` turns.
fn read_history(rules: &Rules, turns: &[TurnIn], max_turns: usize) -> Result<History, ApiError> {
    // One guess per code is the most any strategy needs (the body limit bounds it further).
    let codes = usize::try_from(rules.space_size()).unwrap_or(usize::MAX);
    let most = codes.min(max_turns);
    if turns.len() > most {
        let why = if most == codes {
            format!("the {codes} codes of these rules")
        } else {
            format!("the server's limit of {max_turns} turns")
        };
        return Err(ApiError::unprocessable(format!(
            "the history has {} turns, more than {why}",
            turns.len()
        )));
    }
    let mut history = History::new();
    for (i, t) in turns.iter().enumerate() {
        let guess = rules
            .parse_code(&t.guess)
            .map_err(|e| ApiError::unprocessable(format!("turn {}: {e}", i + 1)))?;
        let feedback = Feedback::parse(&t.feedback, rules.length())
            .map_err(|e| ApiError::unprocessable(format!("turn {}: {e}", i + 1)))?;
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

async fn solver_step(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<SolverBody>,
) -> AppResult<SolverStep> {
    let limit = state.config.solver_max_codes;
    let rules = rules_within(body.preset, body.rules, limit, SOLVER)?;
    let history = read_history(&rules, &body.history, state.config.max_turns)?;
    let mut options = AdviceOptions::default();
    if let Some(name) = body.strategy {
        check_offered(&name)?;
        options.strategy = Some(name);
    }
    let list = body.list.unwrap_or(DEFAULT_LIST).min(MAX_LIST);
    let step = on_space(
        &state,
        (Work::Advice, client),
        state.config.time_limit,
        rules,
        (limit, SOLVER),
        move |app, space, stop| {
            let position = app
                .advisor
                .position(space, &history, list, Chooser::Advisor(&options, &stop))
                .map_err(advice_error)?;
            let answers = position
                .advice
                .as_ref()
                .map(|a| answers(space, &history, &a.guess, &stop))
                .unwrap_or_default();
            Ok(SolverStep { position, answers })
        },
    )
    .await?;
    Ok(Json(step))
}

// ---- review ------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ReviewBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    history: Vec<TurnIn>,
}

/// What each move of a game cost against the best move: the core's review as it is, the same
/// object `moo review --json` prints.
async fn review_game(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<ReviewBody>,
) -> AppResult<GameReview> {
    let limit = state.config.solver_max_codes;
    let rules = rules_within(body.preset, body.rules, limit, REVIEW)?;
    let history = read_history(&rules, &body.history, state.config.max_turns)?;
    let move_time = state.config.time_limit;
    // A player waits for it, as for a hint: it runs on the advice workers.
    let review = on_space(
        &state,
        (Work::Advice, client),
        state.config.review_time_limit,
        rules,
        (limit, REVIEW),
        move |app, space, stop| {
            let options = ReviewOptions::default().with_move_time(Some(move_time));
            review::review(&app.advisor, space, &history, &options, &stop).map_err(|e| match e {
                ReviewError::Stopped { .. } => {
                    ApiError::unavailable(format!("{e}: try a shorter game, or again later"))
                }
                e => ApiError::unprocessable(e.to_string()),
            })
        },
    )
    .await?;
    Ok(Json(review))
}

/// Runs `job` on a worker of `work` for `client` within `time_limit`, given the server's state and
/// the space of `rules` (refused over `max_codes` codes; `what` names the feature in the refusal).
async fn on_space<T: Send + 'static>(
    state: &Arc<AppState>,
    (work, client): (Work, Client),
    time_limit: Duration,
    rules: Rules,
    (max_codes, what): (usize, &'static str),
    job: impl FnOnce(&AppState, &CodeSpace, Stop) -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let shared = state.clone();
    state
        .heavy
        .run(work, client, time_limit, move |stop| {
            let space = shared.spaces.get(&rules, max_codes, what)?;
            job(&shared, &space, stop)
        })
        .await
}

// ---- bench and trees ---------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BenchBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    /// Absent or empty: every registered strategy that can play the rules.
    strategies: Option<Vec<String>>,
}

/// One strategy's figures, or why it has none (the others' still count).
#[derive(Debug, Serialize)]
#[serde(untagged)]
enum BenchRow {
    Done(Evaluation),
    Failed { strategy: String, error: String },
}

#[derive(Debug, Serialize)]
struct BenchReport {
    #[serde(flatten)]
    rules: RulesReport,
    results: Vec<BenchRow>,
}

async fn run_bench(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<BenchBody>,
) -> AppResult<BenchReport> {
    let rules = rules_within(body.preset, body.rules, state.config.bench_max_codes, BENCH)?;
    let names: Vec<String> = match body.strategies {
        Some(list) => {
            let mut names: Vec<String> = Vec::with_capacity(list.len());
            for n in list {
                check_offered(&n)?;
                // A name given twice is measured once: its row would be the same.
                if !names.contains(&n) {
                    names.push(n);
                }
            }
            names
        }
        None => Vec::new(),
    };
    let job_rules = rules.clone();
    let limit = (state.config.bench_max_codes, BENCH);
    let time_limit = state.config.bench_time_limit;
    let results = on_space(
        &state,
        (Work::Long, client),
        time_limit,
        rules.clone(),
        limit,
        move |app, space, stop| {
            // With no list, every strategy that can play these rules by name alone.
            let names = if names.is_empty() {
                let mut options = StrategyOptions::default();
                options.stop = stop.clone();
                strategy::playable(space, &options)
                    .into_iter()
                    .map(String::from)
                    .collect()
            } else {
                names
            };
            let results = names
                .iter()
                .map(|n| match app.bench_cache.get(&job_rules, n) {
                    Some(r) => BenchRow::Done(r),
                    None => match bench::run(space, n, &stop) {
                        Ok(r) => {
                            app.bench_cache.put(&job_rules, n, &r);
                            BenchRow::Done(r)
                        }
                        Err(e) => BenchRow::Failed {
                            strategy: n.clone(),
                            error: e.message,
                        },
                    },
                })
                .collect();
            Ok(results)
        },
    )
    .await?;
    Ok(Json(BenchReport {
        rules: RulesReport::new(&rules),
        results,
    }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    strategy: Option<String>,
}

/// The most nodes a tree sent to a client may have: brute force asks millions of guesses over the
/// 5040 Bulls and Cows secrets, each a node, far more than anyone can browse.
const MAX_NODES: usize = 1_000_000;

async fn strategy_tree(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<TreeBody>,
) -> Result<Response, ApiError> {
    let rules = rules_within(body.preset, body.rules, state.config.bench_max_codes, TREES)?;
    let Some(name) = body.strategy else {
        return Err(ApiError::unprocessable(format!(
            "name the strategy whose tree to build, one of {}",
            strategy::list()
                .filter(|s| s.deterministic)
                .map(|s| s.name)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    };
    check_offered(&name)?;
    let limit = (state.config.bench_max_codes, TREES);
    let time_limit = state.config.bench_time_limit;
    let work = (Work::Long, client);
    let json = on_space(
        &state,
        work,
        time_limit,
        rules,
        limit,
        move |_, space, stop| {
            let tree = grow_tree(&name, space, &stop)?;
            // Written here, on the job's large stack: writing nests once per guess of the
            // longest game, thousands deep for brute force.
            Ok(tree.to_json(false))
        },
    )
    .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

/// The decision tree of the strategy `name`, grown within `stop` on the pool of long jobs.
fn grow_tree(name: &str, space: &CodeSpace, stop: &Stop) -> Result<DecisionTree, ApiError> {
    let build = bench::builder(name, space, stop);
    let mut options = EvalOptions::default();
    options.deadline = stop.deadline();
    options.cancel = stop.flag().cloned();
    let grown = bench::long_pool()
        .install(|| moo_core::strategy_tree(space, &build, &options, Some(MAX_NODES)))
        .map_err(|e| ApiError::from_eval(e, "the decision tree"))?;
    Ok(grown.tree)
}

/// The largest tree file the Explorer may upload: the shipped optimal Bulls and Cows tree is
/// about 200 KB.
const TREE_UPLOAD_LIMIT: usize = 8 << 20;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeViewBody {
    preset: Option<Preset>,
    rules: Option<RulesIn>,
    /// A strategy whose tree the server builds for the rules.
    strategy: Option<String>,
    /// A tree file's contents, in the `moo tree` format (its own rules apply).
    tree: Option<serde_json::Value>,
}

/// A tree checked as `moo tree verify` checks it, with each node's figures, either built from a
/// strategy or uploaded: the Explorer shows only what this returns.
async fn tree_view(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<TreeViewBody>,
) -> AppResult<TreeView> {
    let limit = (state.config.bench_max_codes, TREES);
    let time_limit = state.config.bench_time_limit;
    let work = (Work::Long, client);
    match (body.tree, body.strategy) {
        (Some(_), Some(_)) => Err(ApiError::unprocessable(
            "give either a \"tree\" or a \"strategy\" to build one, not both",
        )),
        (None, None) => Err(ApiError::unprocessable(
            "give a \"tree\" to check, or a \"strategy\" whose tree to build",
        )),
        (Some(value), None) => {
            if body.preset.is_some() || body.rules.is_some() {
                return Err(ApiError::unprocessable(
                    "a tree file carries its own rules: send it without \"preset\" or \"rules\"",
                ));
            }
            let tree = DecisionTree::from_json(&value.to_string())
                .map_err(|e| ApiError::unprocessable(e.to_string()))?;
            let rules = tree.rules().clone();
            check_size(&rules, limit.0, limit.1)?;
            let view = on_space(
                &state,
                work,
                time_limit,
                rules,
                limit,
                move |_, space, _| {
                    treeview::view(&tree, space).map_err(|e| ApiError::unprocessable(e.to_string()))
                },
            )
            .await?;
            Ok(Json(view))
        }
        (None, Some(name)) => {
            let rules = rules_within(body.preset, body.rules, limit.0, TREES)?;
            check_offered(&name)?;
            let view = on_space(
                &state,
                work,
                time_limit,
                rules,
                limit,
                move |_, space, stop| {
                    let tree = grow_tree(&name, space, &stop)?;
                    bench::long_pool()
                        .install(|| treeview::view(&tree, space))
                        .map_err(|e| ApiError::unprocessable(e.to_string()))
                },
            )
            .await?;
            Ok(Json(view))
        }
    }
}
