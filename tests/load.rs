//! Load on the real `moo serve`: hundreds of concurrent games played to the end through the API,
//! while slow and malformed clients hammer the same port.
//!
//! Every game is checked once it is over: the server's record of turns must be exactly the
//! guesses this client sent, in order, each with the true score against the revealed secret, so
//! a lost, mixed-up or mis-scored game fails the test. Every request loop is bounded in count and
//! the whole test in time; it talks only to 127.0.0.1. Run it with `--nocapture` to see the
//! throughput and latency percentiles it measures.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Method, Request, StatusCode};
use hyper_util::client::legacy::{connect::HttpConnector, Client};
use hyper_util::rt::TokioExecutor;
use moo_core::{CodeSpace, Feedback, Rules};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

// Only `moo serve` is loaded here: the static site's helpers go unused.
#[path = "common/server.rs"]
#[allow(dead_code)]
mod server;
use server::Server;

/// Games played at once.
const GAMES: usize = 300;
/// Slow clients that dribble a request one byte at a time for the whole run.
const SLOW_CLIENTS: usize = 20;
/// Malformed requests sent while the games run.
const MALFORMED: usize = 200;
/// The whole test must finish within this.
const BUDGET: Duration = Duration::from_secs(120);

type Http = Client<HttpConnector, Body>;

/// Sends one JSON request and returns the status, the parsed body and the time it took.
async fn send(
    client: &Http,
    base: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
) -> (StatusCode, Value, Duration) {
    let mut req = Request::builder()
        .method(method)
        .uri(format!("{base}{path}"));
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(Body::from(body.map(|b| b.to_string()).unwrap_or_default()))
        .unwrap();
    let start = Instant::now();
    let res = client.request(req).await.expect("the server answers");
    let status = res.status();
    let bytes = axum::body::to_bytes(Body::new(res.into_body()), 1 << 20)
        .await
        .expect("the body arrives");
    let elapsed = start.elapsed();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value, elapsed)
}

/// Plays one Mastermind game to the win with the simple strategy, checked turn by turn against
/// its own filtering and at the end against the revealed secret. Returns each request's latency.
async fn play_one(client: Http, base: String, space: Arc<CodeSpace>, seed: u64) -> Vec<Duration> {
    let rules = space.rules().clone();
    let mut latencies = Vec::new();
    let (status, game, t) = send(
        &client,
        &base,
        Method::POST,
        "/api/games",
        Some(json!({"preset": "mastermind", "seed": seed})),
    )
    .await;
    latencies.push(t);
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let id = game["id"].as_str().expect("a game id").to_string();
    let mut candidates = space.all();
    let mut sent = Vec::new();
    loop {
        assert!(sent.len() < 10, "game {id}: simple needs at most 9 guesses");
        let guess = space.code(candidates.first().expect("the secret stays a candidate"));
        let text = rules.format_code(&guess);
        let (status, game, t) = send(
            &client,
            &base,
            Method::POST,
            &format!("/api/games/{id}/guesses"),
            Some(json!({"guess": text})),
        )
        .await;
        latencies.push(t);
        assert_eq!(status, StatusCode::OK, "game {id}: {game}");
        sent.push(text);
        let turns = game["turns"].as_array().expect("turns");
        assert_eq!(
            turns.len(),
            sent.len(),
            "game {id}: a turn was lost or added"
        );
        let last = turns.last().unwrap();
        let feedback = Feedback::parse(last["feedback"].as_str().unwrap(), 4).unwrap();
        candidates = space.filter_code(&candidates, &guess, feedback);
        if game["won"] == true {
            break;
        }
    }
    let (status, game, t) = send(
        &client,
        &base,
        Method::GET,
        &format!("/api/games/{id}"),
        None,
    )
    .await;
    latencies.push(t);
    assert_eq!(status, StatusCode::OK);
    let secret = rules
        .parse_code(
            game["secret"]
                .as_str()
                .expect("a won game shows its secret"),
        )
        .unwrap();
    let turns = game["turns"].as_array().unwrap();
    assert_eq!(turns.len(), sent.len(), "game {id}");
    for (turn, guess) in turns.iter().zip(&sent) {
        assert_eq!(
            turn["guess"].as_str(),
            Some(guess.as_str()),
            "game {id}: mixed-up turn"
        );
        let code = rules.parse_code(guess).unwrap();
        assert_eq!(
            turn["feedback"].as_str().unwrap(),
            code.score(&secret).to_string(),
            "game {id}: wrong score"
        );
    }
    latencies
}

/// Holds a connection open, sending a request's headers one byte at a time.
async fn slow_client(port: u16, stop: Arc<Mutex<bool>>) {
    let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)).await else {
        return;
    };
    let request = b"POST /api/games HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
    for &byte in request.iter() {
        if *stop.lock().unwrap() || stream.write_all(&[byte]).await.is_err() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
}

/// Sends one malformed request on a raw connection and returns the status line, if any.
async fn malformed(port: u16, i: usize) -> Option<String> {
    let big = "x".repeat(64 * 1024);
    let request = match i % 5 {
        0 => "\u{1}\u{2}garbage\r\n\r\n".to_string(),
        1 => "POST /api/games HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 9\r\nConnection: close\r\n\r\n{\"rules\":".to_string(),
        2 => format!("POST /api/games HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: {}\r\nConnection: close\r\n\r\n{big}", big.len()),
        3 => "POST /api/games/ffffffff/guesses HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 17\r\nConnection: close\r\n\r\n{\"guess\": \"1234\"}".to_string(),
        _ => "POST /api/solver HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 47\r\nConnection: close\r\n\r\n{\"history\": [{\"guess\": \"01\", \"feedback\": \"9\"}]}".to_string(),
    };
    let mut stream = TcpStream::connect(("127.0.0.1", port)).await.ok()?;
    let _ = stream.write_all(request.as_bytes()).await;
    let mut response = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(10), stream.read_to_end(&mut response)).await;
    let text = String::from_utf8_lossy(&response);
    text.lines().next().map(str::to_string)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hundreds_of_concurrent_games_with_slow_and_malformed_clients() {
    let server = Server::start();
    let port = server.port();
    let base = format!("http://127.0.0.1:{port}");
    let client: Http = Client::builder(TokioExecutor::new()).build_http();
    let space = Arc::new(CodeSpace::new(Rules::mastermind()).unwrap());
    let stop = Arc::new(Mutex::new(false));

    let run = async {
        let slow: Vec<_> = (0..SLOW_CLIENTS)
            .map(|_| tokio::spawn(slow_client(port, stop.clone())))
            .collect();
        let bad = tokio::spawn(async move {
            let mut statuses = Vec::new();
            for i in 0..MALFORMED {
                statuses.push((i % 5, malformed(port, i).await));
            }
            statuses
        });
        let start = Instant::now();
        let games: Vec<_> = (0..GAMES as u64)
            .map(|seed| tokio::spawn(play_one(client.clone(), base.clone(), space.clone(), seed)))
            .collect();
        let mut latencies = Vec::new();
        for g in games {
            latencies.extend(g.await.expect("every game completes and checks out"));
        }
        let elapsed = start.elapsed();
        let statuses = bad.await.unwrap();
        *stop.lock().unwrap() = true;
        for s in slow {
            s.await.unwrap();
        }
        (latencies, elapsed, statuses)
    };
    let (mut latencies, elapsed, statuses) = tokio::time::timeout(BUDGET, run)
        .await
        .expect("the load test finishes within its budget");

    // Malformed requests get a 4xx (or, for bytes that are not HTTP, a closed connection).
    for (kind, status) in statuses {
        match (kind, status.as_deref()) {
            (0, None) => {}
            (0, Some(line)) => assert!(line.starts_with("HTTP/1.1 4"), "garbage got {line}"),
            (1, Some(line)) => assert!(
                line.starts_with("HTTP/1.1 400"),
                "truncated JSON got {line}"
            ),
            (2, Some(line)) => assert!(
                line.starts_with("HTTP/1.1 413"),
                "oversized body got {line}"
            ),
            (3, Some(line)) => assert!(line.starts_with("HTTP/1.1 404"), "unknown game got {line}"),
            (4, Some(line)) => assert!(line.starts_with("HTTP/1.1 422"), "bad history got {line}"),
            (kind, None) => panic!("malformed request kind {kind} got no answer"),
            (kind, Some(line)) => panic!("malformed request kind {kind} got {line}"),
        }
    }

    // The server is still healthy afterwards.
    let (status, _, _) = send(&client, &base, Method::GET, "/api/presets", None).await;
    assert_eq!(status, StatusCode::OK);

    latencies.sort();
    let n = latencies.len();
    println!(
        "load: {GAMES} games, {n} requests in {:.2} s = {:.0} requests/s; latency p50 {:.1} ms, p90 {:.1} ms, p99 {:.1} ms, max {:.1} ms; with {SLOW_CLIENTS} slow and {MALFORMED} malformed clients",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        percentile(&latencies, 0.9).as_secs_f64() * 1e3,
        percentile(&latencies, 0.99).as_secs_f64() * 1e3,
        latencies[n - 1].as_secs_f64() * 1e3,
    );
}
