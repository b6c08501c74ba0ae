//! The JSON API under `/api/`; the README's "Web server" section documents each route.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use moo_core::strategy::{self, StrategyOptions};
use moo_core::{CodeSpace, EvalOptions, Feedback, History, Knowledge, Preset, Rules, Strategy};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bench;
use crate::error::{ApiError, ApiJson};
use crate::games::Game;
use crate::spaces::check_size;
use crate::AppState;

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
        .route("/api/bench", post(run_bench))
        .route("/api/trees", get(list_trees).post(strategy_tree))
        .fallback(|| async {
            ApiError::not_found("no such API route: see the README's web server section")
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take that HTTP method: see the README's web server section",
            )
        })
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// The strategy used when the client names none: the best one this build has.
pub(crate) fn default_strategy() -> &'static str {
    ["optimal", "knuth", "simple"]
        .into_iter()
        .find(|want| strategy::names().any(|n| n == *want))
        .or_else(|| strategy::names().next())
        .unwrap_or("simple")
}

/// Builds the strategy `name`, or with no name the first of the preferred strategies that can
/// play this space (an exact strategy may support only some rules), then any other.
fn build_strategy(
    name: Option<&str>,
    space: &CodeSpace,
) -> Result<(String, Box<dyn Strategy>), ApiError> {
    let options = StrategyOptions::default();
    if let Some(name) = name {
        check_offered(name)?;
        let s = strategy::by_name(name, space, &options)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        return Ok((name.to_string(), s));
    }
    let preferred = ["optimal", "knuth", "simple"]
        .into_iter()
        .filter(|want| strategy::names().any(|n| n == *want));
    let mut last = None;
    for n in preferred.chain(offered_strategies()) {
        match strategy::by_name(n, space, &options) {
            Ok(s) => return Ok((n.to_string(), s)),
            Err(e) => last = Some(e),
        }
    }
    Err(ApiError::unprocessable(last.map_or_else(
        || "no strategy is registered".to_string(),
        |e| e.to_string(),
    )))
}

/// Either a preset name or full rules; neither means Bulls and Cows.
fn pick_rules(preset: Option<Preset>, rules: Option<Rules>) -> Result<Rules, ApiError> {
    match (preset, rules) {
        (Some(_), Some(_)) => Err(ApiError::unprocessable(
            "give either \"preset\" or \"rules\", not both",
        )),
        (Some(p), None) => Ok(p.rules()),
        (None, Some(r)) => Ok(r),
        (None, None) => Ok(Rules::bulls()),
    }
}

fn rules_json(rules: &Rules) -> Value {
    json!({
        "rules": rules,
        "description": rules.describe(),
        "space_size": rules.space_size().to_string(),
    })
}

async fn presets() -> Json<Value> {
    let list: Vec<Value> = Preset::ALL
        .iter()
        .map(|p| {
            let mut v = rules_json(&p.rules());
            v["name"] = json!(p.name());
            v
        })
        .collect();
    Json(json!({ "presets": list }))
}

/// The strategies a page can offer: all registered ones but `tree:FILE`, which needs a file on
/// the server's disk (the explorer loads tree files in the browser instead).
fn offered_strategies() -> impl Iterator<Item = &'static str> {
    strategy::names().filter(|n| !n.starts_with("tree:"))
}

/// Refuses a strategy name the server does not offer.
///
/// `tree:PATH` would make the server read any file it can: its contents could come back in the
/// parse error, `/dev/stdin` would hold a job slot forever and `/dev/zero` would fill memory.
fn check_offered(name: &str) -> Result<(), ApiError> {
    if offered_strategies().any(|n| n == name) {
        return Ok(());
    }
    let choices = offered_strategies().collect::<Vec<_>>().join(", ");
    Err(ApiError::unprocessable(if name.starts_with("tree:") {
        format!("strategy {name:?} would read a file on the server, which the API does not do: open tree files in the explorer page instead, or choose among {choices}")
    } else {
        format!("unknown strategy {name:?}: choose among {choices}")
    }))
}

async fn strategies() -> Json<Value> {
    let list: Vec<Value> = offered_strategies()
        .map(|n| json!({ "name": n, "about": strategy::describe(n) }))
        .collect();
    Json(json!({ "default": default_strategy(), "strategies": list }))
}

// ---- games -------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    preset: Option<Preset>,
    rules: Option<Rules>,
    /// Makes the secret reproducible.
    seed: Option<u64>,
}

#[derive(Debug, Serialize)]
struct TurnOut {
    guess: String,
    feedback: String,
    bulls: u8,
    cows: u8,
}

fn game_json(id: &str, game: &Game) -> Value {
    let rules = &game.rules;
    let turns: Vec<TurnOut> = game
        .history
        .turns()
        .iter()
        .map(|t| TurnOut {
            guess: rules.format_code(&t.guess),
            feedback: t.feedback.to_string(),
            bulls: t.feedback.bulls,
            cows: t.feedback.cows,
        })
        .collect();
    let mut v = rules_json(rules);
    v["id"] = json!(id);
    v["turns"] = json!(turns);
    v["won"] = json!(game.history.is_won(rules.length()));
    v["over"] = json!(game.is_over());
    v["secret"] = if game.is_over() {
        json!(rules.format_code(&game.secret))
    } else {
        Value::Null
    };
    v
}

async fn new_game(
    State(state): Shared,
    ApiJson(body): ApiJson<NewGame>,
) -> Result<(StatusCode, Json<Value>), ApiError> {
    let rules = pick_rules(body.preset, body.rules)?;
    let (id, game) = state.games.create(rules, body.seed)?;
    Ok((StatusCode::CREATED, Json(game_json(&id, &game))))
}

async fn game_state(State(state): Shared, Path(id): Path<String>) -> AppResult<Value> {
    state.games.with(&id, |g| Ok(Json(game_json(&id, g))))
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
) -> AppResult<Value> {
    state.games.with(&id, |g| {
        if g.is_over() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "this game is over: start a new one with POST /api/games",
            ));
        }
        let code = g
            .rules
            .parse_code(&body.guess)
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        let feedback = code.score(&g.secret);
        g.history.push(code, feedback);
        Ok(Json(game_json(&id, g)))
    })
}

async fn give_up(State(state): Shared, Path(id): Path<String>) -> AppResult<Value> {
    state.games.with(&id, |g| {
        if !g.is_over() {
            g.gave_up = true;
        }
        Ok(Json(game_json(&id, g)))
    })
}

async fn hint(State(state): Shared, Path(id): Path<String>) -> AppResult<Value> {
    let (rules, history) = state
        .games
        .with(&id, |g| Ok((g.rules.clone(), g.history.clone())))?;
    check_size(&rules, state.config.solver_max_codes, "hints")?;
    let job_state = state.clone();
    let value = state
        .heavy
        .run(move |_| {
            let space = job_state
                .spaces
                .get(&rules, job_state.config.solver_max_codes, "hints")?;
            let candidates = history.candidates(&space);
            let (name, mut s) = build_strategy(None, &space)?;
            let guess = if history.is_won(rules.length()) || candidates.is_empty() {
                None
            } else {
                let code = s
                    .next_guess(&Knowledge {
                        space: &space,
                        history: &history,
                        candidates: &candidates,
                    })
                    .map_err(|e| ApiError::unprocessable(e.to_string()))?;
                Some(rules.format_code(&code))
            };
            Ok(json!({ "remaining": candidates.len(), "guess": guess, "strategy": name }))
        })
        .await?;
    Ok(Json(value))
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
    rules: Option<Rules>,
    strategy: Option<String>,
    #[serde(default)]
    history: Vec<TurnIn>,
}

/// Reads the client's history of the solver, naming the turn of the first bad value.
fn read_history(rules: &Rules, turns: &[TurnIn]) -> Result<History, ApiError> {
    // One guess per code is the most any strategy needs (the body limit bounds it further).
    let most = usize::try_from(rules.space_size()).unwrap_or(usize::MAX);
    if turns.len() > most {
        return Err(ApiError::unprocessable(format!(
            "the history has {} turns, more than the {most} codes of these rules",
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

async fn solver_step(State(state): Shared, ApiJson(body): ApiJson<SolverBody>) -> AppResult<Value> {
    let rules = pick_rules(body.preset, body.rules)?;
    let limit = state.config.solver_max_codes;
    check_size(&rules, limit, "the solver")?;
    let history = read_history(&rules, &body.history)?;
    let job_state = state.clone();
    let value = state
        .heavy
        .run(move |_| {
            let space = job_state.spaces.get(&rules, limit, "the solver")?;
            let (name, mut s) = build_strategy(body.strategy.as_deref(), &space)?;
            let candidates = history.candidates(&space);
            let length = rules.length();
            let code = |c: &moo_core::Code| rules.format_code(c);
            // The history as the server read it, so the client shows answers in one form.
            let turns: Vec<Value> = history
                .turns()
                .iter()
                .map(|t| json!({ "guess": code(&t.guess), "feedback": t.feedback.to_string() }))
                .collect();
            if history.is_won(length) {
                let secret = history.turns().last().map(|t| code(&t.guess));
                return Ok(json!({
                    "status": "solved", "strategy": name, "remaining": 1, "secret": secret,
                    "history": turns,
                    "message": format!("solved in {} guesses", history.len()),
                }));
            }
            if candidates.is_empty() {
                let repairs: Vec<Value> = history
                    .repairs(&space)
                    .iter()
                    .map(|r| {
                        let t = history.turns()[r.turn];
                        let alternatives: Vec<Value> = r
                            .alternatives
                            .iter()
                            .map(|(f, n)| json!({ "feedback": f.to_string(), "remaining": n }))
                            .collect();
                        json!({
                            "turn": r.turn + 1, "guess": code(&t.guess),
                            "given": t.feedback.to_string(), "alternatives": alternatives,
                        })
                    })
                    .collect();
                let message = if repairs.is_empty() {
                    "no code fits all these answers, and changing any single answer would not fix it: more than one answer is wrong".to_string()
                } else {
                    let fixes: Vec<String> = repairs
                        .iter()
                        .map(|r| {
                            format!(
                                "turn {} ({} answered {}) could have been {}",
                                r["turn"],
                                r["guess"].as_str().unwrap_or_default(),
                                r["given"].as_str().unwrap_or_default(),
                                r["alternatives"]
                                    .as_array()
                                    .map(|a| a
                                        .iter()
                                        .map(|x| x["feedback"].as_str().unwrap_or_default())
                                        .collect::<Vec<_>>()
                                        .join(" or "))
                                    .unwrap_or_default()
                            )
                        })
                        .collect();
                    format!(
                        "no code fits all these answers; one of them must be wrong: {}",
                        fixes.join("; ")
                    )
                };
                return Ok(json!({
                    "status": "contradiction", "strategy": name, "remaining": 0, "history": turns,
                    "repairs": repairs, "message": message,
                }));
            }
            let guess = s
                .next_guess(&Knowledge {
                    space: &space,
                    history: &history,
                    candidates: &candidates,
                })
                .map_err(|e| ApiError::unprocessable(e.to_string()))?;
            let index = space.index_of(&guess).ok_or_else(|| {
                ApiError::unprocessable(format!("strategy {name:?} guessed a code outside the rules"))
            })?;
            let parts = space.partition(index, &candidates);
            let possible: Vec<Value> = parts
                .iter()
                .map(|(f, p)| {
                    json!({
                        "feedback": f.to_string(), "bulls": f.bulls, "cows": f.cows,
                        "remaining": p.len(), "win": f.is_win(length),
                    })
                })
                .collect();
            let other: Vec<String> = Feedback::all(length)
                .filter(|f| !parts.iter().any(|(p, _)| p == f))
                .map(|f| f.to_string())
                .collect();
            Ok(json!({
                "status": "guess", "strategy": name, "remaining": candidates.len(), "history": turns,
                "turn": history.len() + 1, "guess": code(&guess),
                "feedback": possible, "other_feedback": other,
            }))
        })
        .await?;
    Ok(Json(value))
}

// ---- bench and trees ---------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BenchBody {
    preset: Option<Preset>,
    rules: Option<Rules>,
    /// Absent or empty: every registered strategy that can play the rules.
    strategies: Option<Vec<String>>,
}

async fn run_bench(State(state): Shared, ApiJson(body): ApiJson<BenchBody>) -> AppResult<Value> {
    let rules = pick_rules(body.preset, body.rules)?;
    let limit = state.config.bench_max_codes;
    check_size(&rules, limit, "the benchmark")?;
    let names: Vec<String> = match body.strategies {
        Some(list) => {
            for n in &list {
                check_offered(n)?;
            }
            list
        }
        None => Vec::new(),
    };
    let job_state = state.clone();
    let job_rules = rules.clone();
    let results = state
        .heavy
        .run(move |deadline| {
            let space = job_state.spaces.get(&job_rules, limit, "the benchmark")?;
            // With no list, every strategy that can play these rules by name alone.
            let names = if names.is_empty() {
                strategy::playable(&space, &StrategyOptions::default())
                    .into_iter()
                    .map(String::from)
                    .collect()
            } else {
                names
            };
            // One strategy failing (say, past the time limit) still leaves the others' figures.
            let results: Vec<Value> = names
                .iter()
                .map(|n| match job_state.bench_cache.get(&job_rules, n) {
                    Some(r) => json!(r),
                    None => match bench::run(&space, n, deadline) {
                        Ok(r) => {
                            job_state.bench_cache.put(&job_rules, &r);
                            json!(r)
                        }
                        Err(e) => json!({ "strategy": n, "error": e.message }),
                    },
                })
                .collect();
            Ok(results)
        })
        .await?;
    let mut v = rules_json(&rules);
    v["results"] = json!(results);
    Ok(Json(v))
}

async fn list_trees() -> Json<Value> {
    let trees: Vec<Value> = Preset::ALL
        .iter()
        .flat_map(|p| {
            strategy::names()
                .filter(|n| !n.starts_with("tree:"))
                .map(move |n| {
                    json!({
                        "label": format!("{n} on {}", p.name()),
                        "preset": p.name(), "strategy": n,
                    })
                })
        })
        .collect();
    Json(json!({ "trees": trees }))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TreeBody {
    preset: Option<Preset>,
    rules: Option<Rules>,
    strategy: Option<String>,
}

/// The most nodes a tree sent to a client may have: brute force asks millions of guesses over the
/// 5040 Bulls and Cows secrets, each a node, far more than anyone can browse.
const MAX_NODES: usize = 1_000_000;

async fn strategy_tree(
    State(state): Shared,
    ApiJson(body): ApiJson<TreeBody>,
) -> Result<Response, ApiError> {
    let rules = pick_rules(body.preset, body.rules)?;
    let limit = state.config.bench_max_codes;
    check_size(&rules, limit, "strategy trees")?;
    let job_state = state.clone();
    let json = state
        .heavy
        .run(move |deadline| {
            let space = job_state.spaces.get(&rules, limit, "strategy trees")?;
            let (name, _) = build_strategy(body.strategy.as_deref(), &space)?;
            let build = bench::builder(&name, &space);
            let mut options = EvalOptions::default();
            options.deadline = Some(deadline);
            let grown = moo_core::strategy_tree(&space, &build, &options, Some(MAX_NODES))
                .map_err(|e| ApiError::from_eval(e, "the decision tree"))?;
            // Written here, on the job's large stack: writing nests once per guess of the
            // longest game, thousands deep for brute force.
            Ok(grown.tree.to_json(false))
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}
