//! The moo web server: play, solve and explore Bulls and Cows and Mastermind in a browser.
//!
//! One axum [`router`] serves a JSON API under `/api/` and a small embedded web UI (plain HTML,
//! CSS and JavaScript compiled into the binary, so nothing is fetched from elsewhere). The API
//! calls the same `moo_core` functions as the command line, and finds strategies by name through
//! the one registry, so every strategy the library registers shows up here too.
//!
//! Where state lives:
//! - A game you play (`/api/games`) is held by the server under a random id, because the secret
//!   must stay hidden from the client. Live games are capped and dropped after an idle period.
//! - The solver (`/api/solver`) keeps no state: the client sends the whole history with every
//!   request, so undo is "send one turn fewer" and a server restart loses nothing.
//!
//! - Every guess the server suggests (a hint, a solver or assistant step) comes from the one
//!   `moo_core` advisor, which decides how to choose it (a shipped tree, an exact search, a
//!   bounded heuristic); the web adds no policy of its own.
//!
//! Work that grows with the code space (advice, reviews, benchmarks, decision trees) runs on
//! worker threads, at most [`Config::advice_jobs`] pieces of advice, [`Config::review_jobs`]
//! reviews and [`Config::heavy_jobs`] benchmarks and trees at once (separate pools, so advice
//! never waits behind a review or a benchmark), at most [`Config::client_jobs`] of each per
//! client (an address, or on the loopback a connection), each under its time limit and a cancel
//! flag set when the client goes away, and only for spaces within the configured limits, so a
//! client can neither stall the async workers nor queue unbounded work.
//!
//! What a client sends and what it leaves unread is bounded too: each request body is counted
//! as it arrives against its route's limit and must arrive whole within
//! [`Config::body_deadline`]; bodies past the usual limit (tree uploads) share
//! [`Config::upload_memory`], and large answers [`Config::answer_memory`] until they are read;
//! and a full connection table closes the connection idle longest rather than make a new
//! client wait.

#![deny(missing_docs)]

mod answer;
mod api;
mod assets;
mod conns;
mod dressed;
mod error;
mod guard;
mod heavy;

use std::sync::Arc;
use std::time::Duration;

pub use moo_service::Limits;
use moo_service::Service;

/// Limits and sizes of a server.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Config {
    /// The limits of the engine behind the routes: games kept, turns, time limits, code spaces,
    /// the body size; the static site's WebAssembly build runs under the same defaults.
    pub service: Limits,
    /// How long a client has to send a request's headers, counted from the connection's start
    /// or the previous response; an idle connection is closed after it too.
    pub header_timeout: Duration,
    /// The longest pause between two pieces of a request body.
    pub body_timeout: Duration,
    /// The longest a whole request body may take to arrive, however steadily it comes.
    pub body_deadline: Duration,
    /// The longest a whole request may take, from its headers to the response (heavy work
    /// included).
    pub request_timeout: Duration,
    /// The most connections served at once; past it, a new connection takes the place of the
    /// one idle longest (waiting for a request or its body, or for its client to read an
    /// answer), and waits only if every connection is working on a request.
    pub max_connections: usize,
    /// How many benchmarks and strategy trees run at once.
    pub heavy_jobs: usize,
    /// How many pieces of advice (hints, solver and assistant steps) run at once, on workers
    /// of their own that benchmarks and trees never take.
    pub advice_jobs: usize,
    /// How many reviews of whole games run at once, on workers of their own.
    pub review_jobs: usize,
    /// How many jobs of each kind one client may run at once (a client is its address, or on
    /// the loopback, which every local client shares, its connection); its further requests
    /// wait behind its own.
    pub client_jobs: usize,
    /// The memory, in bytes, that request bodies past the service's body limit (tree uploads)
    /// may take at once; an upload that finds no room is answered 503.
    pub upload_memory: usize,
    /// The memory, in bytes, that large answers (trees and their views) may take at once, from
    /// before they are built until their clients have read them; past it they wait.
    pub answer_memory: usize,
    /// The host names (or addresses) requests may name in their Host header, besides the
    /// loopback's (`localhost`, `*.localhost`, `127.0.0.1`, `[::1]`) and the address
    /// [`serve`] is bound to: others are refused, so a web page that rebinds its own name to
    /// this server's address cannot drive it.
    pub allowed_hosts: Vec<String>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            service: Limits::default(),
            header_timeout: Duration::from_secs(10),
            body_timeout: Duration::from_secs(10),
            body_deadline: Duration::from_secs(10),
            request_timeout: Duration::from_secs(60),
            max_connections: 1024,
            heavy_jobs: 2,
            advice_jobs: 4,
            review_jobs: 1,
            client_jobs: 1,
            upload_memory: 64 << 20,
            answer_memory: 256 << 20,
            allowed_hosts: Vec::new(),
        }
    }
}

/// The shared state of a server.
pub(crate) struct AppState {
    pub config: Config,
    /// The engine: games, spaces, the one advisor (its clones share one cache), benchmarks.
    pub service: Arc<Service>,
    pub heavy: heavy::Heavy,
}

/// The web UI and the JSON API, as one axum router, behind the Host check, the early 413 and
/// the JSON rewrap of every error answer.
pub fn router(config: Config) -> axum::Router {
    let guard = Arc::new(guard::Guard {
        hosts: guard::LOCAL_HOSTS
            .iter()
            .map(|h| h.to_string())
            .chain(
                config
                    .allowed_hosts
                    .iter()
                    .map(|h| h.trim().to_ascii_lowercase()),
            )
            .collect(),
        body_limit: config.service.body_limit,
        body_deadline: config.body_deadline,
        uploads: Arc::new(tokio::sync::Semaphore::new(config.upload_memory)),
    });
    let state = Arc::new(AppState {
        service: Arc::new(Service::new(config.service.clone())),
        heavy: heavy::Heavy::new(
            (config.advice_jobs, config.review_jobs, config.heavy_jobs),
            config.client_jobs,
            config.answer_memory,
        ),
        config,
    });
    api::routes(state)
        .merge(assets::routes())
        .layer(axum::middleware::from_fn_with_state(guard, guard::guard))
}

/// Serves [`router`] on an already bound listener until the process ends.
///
/// Binding is left to the caller so it can bind port 0 and learn the real port first.
///
/// Each connection is served by hyper's HTTP/1 server with the timeouts of `config`, so a client
/// that sends its request a byte at a time, declares a body it never sends, or keeps a
/// connection open doing nothing is cut off, and at most [`Config::max_connections`] are
/// served at once: a new one takes the place of the one idle longest.
pub async fn serve(listener: tokio::net::TcpListener, mut config: Config) -> std::io::Result<()> {
    use hyper_util::rt::{TokioIo, TokioTimer};
    use hyper_util::service::TowerToHyperService;
    use tower_http::timeout::{RequestBodyTimeoutLayer, TimeoutLayer};

    // The bound address is a name of the server too (a LAN address, say).
    match listener.local_addr()?.ip() {
        std::net::IpAddr::V4(ip) => config.allowed_hosts.push(ip.to_string()),
        std::net::IpAddr::V6(ip) => config.allowed_hosts.push(format!("[{ip}]")),
    }
    let table = Arc::new(conns::Table::new(config.max_connections));
    let app = tower::ServiceBuilder::new()
        .layer(TimeoutLayer::with_status_code(
            axum::http::StatusCode::REQUEST_TIMEOUT,
            config.request_timeout,
        ))
        .layer(RequestBodyTimeoutLayer::new(config.body_timeout))
        .service(router(config.clone()));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(config.header_timeout);
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(accepted) => accepted,
            Err(_) => {
                // Out of file descriptors, or a connection reset before it was accepted: wait a
                // moment rather than spin, as axum::serve does.
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let conn = table.admit().await;
        // Every request of the connection carries its client, for the fair share of the
        // workers, and its connection, which the guard marks working or idle.
        let client = heavy::Client {
            addr: Some(peer.ip()),
            connection: Some(conn.id),
        };
        let carried = conn.clone();
        let service = tower::ServiceBuilder::new()
            .map_request(move |mut request: axum::http::Request<_>| {
                request.extensions_mut().insert(client);
                request.extensions_mut().insert(carried.clone());
                request
            })
            .service(app.clone());
        let connection = http.serve_connection(
            TokioIo::new(dressed::Dressed::new(stream)),
            TowerToHyperService::new(service),
        );
        let table = table.clone();
        tokio::spawn(async move {
            // A client that breaks off or times out is no error of the server's; a connection
            // the table closes is dropped with whatever it was reading or sending.
            tokio::select! {
                _ = connection => {}
                _ = conn.closed() => {}
            }
            table.remove(&conn);
        });
    }
}
