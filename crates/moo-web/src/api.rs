//! The JSON API under `/api/`; the book's web server page (docs/src/web.md) documents each route.
//!
//! Each route is one call of the transport-free [`moo_service::Service`], which the static
//! site's WebAssembly build answers too: the request and answer types are its, so the two
//! cannot drift apart. What is the server's own is here: reading bodies, the client's address,
//! and running each [`Job`] on a worker of its kind within its time limit.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Extension;
use axum::{Json, Router};
use moo_core::advisor::Position;
use moo_core::review::GameReview;
use moo_service::{
    BenchBody, BenchReport, DailyResult, DailyResultBody, DailyStats, DuelMove, DuelOut,
    GameReport, GuessBody, Guessed, Job, NewDuel, NewGame, Presets, ReviewBody, ServiceError,
    SolverBody, SolverStep, Strategies, TreeBody, Work, MAX_ANSWER_BYTES, STATS_UPLOAD_LIMIT,
    TREE_UPLOAD_LIMIT,
};

use crate::conns::Conn;
use crate::error::{ApiError, ApiJson, ApiText};
use crate::heavy::Client;
use crate::AppState;

type AppResult<T> = Result<Json<T>, ApiError>;
type Shared = State<Arc<AppState>>;

pub(crate) fn routes(state: Arc<AppState>) -> Router {
    let body_limit = state.config.service.body_limit;
    Router::new()
        .route("/api/presets", get(presets))
        .route("/api/strategies", get(strategies))
        .route("/api/games", post(new_game))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/guesses", post(guess))
        .route("/api/games/{id}/give-up", post(give_up))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/duels", post(new_duel))
        .route("/api/duels/{id}", get(duel_state))
        .route("/api/duels/{id}/moves", post(duel_move))
        .route("/api/solver", post(solver_step))
        .route("/api/review", post(review_game))
        .route("/api/bench", post(run_bench))
        .route("/api/trees", post(strategy_tree))
        .route(
            "/api/trees/view",
            post(tree_view).layer(DefaultBodyLimit::max(TREE_UPLOAD_LIMIT)),
        )
        .route("/api/daily/result", post(daily_result))
        .route(
            "/api/daily/stats",
            post(daily_stats).layer(DefaultBodyLimit::max(STATS_UPLOAD_LIMIT)),
        )
        .fallback(crate::assets::fallback)
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "this route does not take that HTTP method: see the JSON API in the book's web server page (docs/src/web.md)",
            )
        })
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(state)
}

/// Runs `job` for `client` on a worker of its kind within its time limit.
async fn run<T: Send + 'static>(
    state: &Arc<AppState>,
    client: Client,
    job: Result<Job<T>, ServiceError>,
) -> Result<T, ApiError> {
    let job = job?;
    let service = state.service.clone();
    state
        .heavy
        .run(job.work, client, job.time_limit, move |stop| {
            job.run(&service, stop).map_err(ApiError::from)
        })
        .await
}

async fn presets(State(state): Shared) -> Json<Presets> {
    Json(state.service.presets())
}

async fn strategies(State(state): Shared) -> Json<Strategies> {
    Json(state.service.strategies())
}

async fn new_game(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<NewGame>,
) -> Result<(StatusCode, Json<GameReport>), ApiError> {
    // Only a remote address tells players apart: on the loopback the store protects games in
    // play by when they were played instead.
    let game = state.service.new_game(body, client.remote_addr())?;
    Ok((StatusCode::CREATED, Json(game)))
}

async fn game_state(State(state): Shared, Path(id): Path<String>) -> AppResult<GameReport> {
    Ok(Json(state.service.game(&id)?))
}

async fn guess(
    State(state): Shared,
    client: Client,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<GuessBody>,
) -> AppResult<GameReport> {
    match state.service.guess(&id, body)? {
        Guessed::Answered(report) => Ok(Json(report)),
        Guessed::Job(job) => Ok(Json(run(&state, client, Ok(job)).await?)),
    }
}

async fn give_up(State(state): Shared, Path(id): Path<String>) -> AppResult<GameReport> {
    Ok(Json(state.service.give_up(&id)?))
}

async fn hint(State(state): Shared, client: Client, Path(id): Path<String>) -> AppResult<Position> {
    let job = state.service.hint(&id);
    Ok(Json(run(&state, client, job).await?))
}

async fn new_duel(
    State(state): Shared,
    client: Client,
    ApiJson(body): ApiJson<NewDuel>,
) -> Result<(StatusCode, Json<DuelOut>), ApiError> {
    let duel = state.service.new_duel(body, client.remote_addr())?;
    Ok((StatusCode::CREATED, Json(duel)))
}

async fn duel_state(State(state): Shared, Path(id): Path<String>) -> AppResult<DuelOut> {
    Ok(Json(state.service.duel(&id)?))
}

async fn duel_move(
    State(state): Shared,
    client: Client,
    Path(id): Path<String>,
    ApiJson(body): ApiJson<DuelMove>,
) -> AppResult<DuelOut> {
    let job = state.service.duel_move(&id, body);
    Ok(Json(run(&state, client, job).await?))
}

/// The handlers that read a JSON body and run the service's job for it on a worker: all one
/// shape but for the service's method and the types.
macro_rules! body_jobs {
    ($($handler:ident($body:ty) -> $out:ty = $method:ident;)*) => {
        $(
            async fn $handler(
                State(state): Shared,
                client: Client,
                ApiJson(body): ApiJson<$body>,
            ) -> AppResult<$out> {
                let job = state.service.$method(body);
                Ok(Json(run(&state, client, job).await?))
            }
        )*
    };
}

body_jobs! {
    solver_step(SolverBody) -> SolverStep = solver;
    review_game(ReviewBody) -> GameReview = review;
    run_bench(BenchBody) -> BenchReport = bench;
    daily_result(DailyResultBody) -> DailyResult = daily_result;
}

async fn strategy_tree(
    State(state): Shared,
    client: Client,
    conn: Option<Extension<Arc<Conn>>>,
    ApiJson(body): ApiJson<TreeBody>,
) -> Result<Response, ApiError> {
    let job = state.service.tree(body)?;
    let (work, limit) = (job.work, job.time_limit);
    let service = state.service.clone();
    large_answer(&state, client, conn, work, limit, move |stop| {
        Ok(job.run(&service, stop)?)
    })
    .await
}

/// The Explorer's view of a tree. Its body (up to a tree file's size) is read as JSON on the
/// worker, not on the async threads that answer everybody else.
async fn tree_view(
    State(state): Shared,
    client: Client,
    conn: Option<Extension<Arc<Conn>>>,
    ApiText(body): ApiText,
) -> Result<Response, ApiError> {
    let service = state.service.clone();
    let limit = service.limits().bench_time_limit;
    large_answer(&state, client, conn, Work::Long, limit, move |stop| {
        let body = moo_service::read_body(&body)?;
        let job = service.tree_view(body)?;
        Ok(job.run(&service, stop)?)
    })
    .await
}

/// The player's statistics. The record (up to [`STATS_UPLOAD_LIMIT`]) is read on a worker, as
/// a tree is, not on the threads that answer everybody else.
async fn daily_stats(
    State(state): Shared,
    client: Client,
    ApiText(body): ApiText,
) -> AppResult<DailyStats> {
    let service = state.service.clone();
    let limit = service.limits().time_limit;
    let stats = state.heavy.run(Work::Advice, client, limit, move |_| {
        Ok(service.daily_stats(moo_service::read_body(&body)?)?)
    });
    Ok(Json(stats.await?))
}

/// Runs `job`, whose answer is JSON text of up to [`MAX_ANSWER_BYTES`], with its room in the
/// answer budget taken first, and sends the answer in pieces.
async fn large_answer<F>(
    state: &Arc<AppState>,
    client: Client,
    conn: Option<Extension<Arc<Conn>>>,
    work: Work,
    limit: std::time::Duration,
    job: F,
) -> Result<Response, ApiError>
where
    F: FnOnce(moo_core::Stop) -> Result<String, ApiError> + Send + 'static,
{
    let start = std::time::Instant::now();
    let mut room = state.heavy.answer_room(MAX_ANSWER_BYTES, limit).await?;
    let json = state
        .heavy
        .run(work, client, limit.saturating_sub(start.elapsed()), job)
        .await?;
    room.shrink_to(json.len());
    Ok(crate::answer::json_in_pieces(
        json,
        room,
        conn.map(|Extension(c)| c),
        state.config.request_timeout,
    ))
}
