//! Load on the real `moo serve`: hundreds of concurrent games played to the end through the API,
//! while slow and malformed clients hammer the same port; and fair service:
//! a client's advice answered within 1 s while others loop reviews and a thousand connections
//! dribble their bodies, and a thousand unread answers that leave the server's memory small.
//! The full-size fair-service runs are `#[ignore]`d (they hold 1000 connections for a minute);
//! a shorter version of each runs every time.
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

// ---- fair service -------------------------------------------------------------------------

/// A Bulls and Cows game of 10 digits against the `n`th secret, as a review body: forty weak
/// guesses and the secret, each scored by the core, the secret's place in the digits' arrangements differing from game
/// to game so no review repeats another's work. Its first moves are the review's expensive part
/// (3,628,800 codes), which used to hold an advice worker for up to 10 s.
fn ten_digit_review(n: u64) -> Value {
    let rules = Rules::new(10, "0123456789", false, false).unwrap();
    let arrangement = |mut k: u64| {
        let mut digits: Vec<char> = "0123456789".chars().collect();
        let mut out = String::new();
        for left in (1..=10u64).rev() {
            out.push(digits.remove((k % left) as usize));
            k /= left;
        }
        out
    };
    let secret = arrangement(n.wrapping_mul(2_654_435_761) % 3_628_800);
    let secret_code = rules.parse_code(&secret).unwrap();
    let history: Vec<Value> = (0..40)
        .map(|k| arrangement(n.wrapping_mul(7_919) + k * 104_729))
        .chain([secret])
        .map(|guess| {
            let feedback = rules.parse_code(&guess).unwrap().score(&secret_code);
            json!({"guess": guess, "feedback": feedback.to_string()})
        })
        .collect();
    json!({"rules": {"length": 10, "symbols": "0123456789", "repeats": false}, "history": history})
}

/// Keeps `n` connections open that each send a request's headers and then one body byte every
/// 4 s, reconnecting when the server closes one; returns how many times it reconnected.
async fn slow_bodies(port: u16, n: usize, stop: Arc<Mutex<bool>>) -> usize {
    let head = b"POST /api/games HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n";
    let one = |stop: Arc<Mutex<bool>>| async move {
        let mut reconnects = 0;
        while !*stop.lock().unwrap() {
            let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)).await else {
                tokio::time::sleep(Duration::from_millis(500)).await;
                continue;
            };
            if stream.write_all(head).await.is_ok() {
                while !*stop.lock().unwrap() && stream.write_all(b" ").await.is_ok() {
                    // Sleep in short steps, so the run ends soon after `stop`.
                    for _ in 0..40 {
                        if *stop.lock().unwrap() {
                            break;
                        }
                        tokio::time::sleep(Duration::from_millis(100)).await;
                    }
                }
            }
            reconnects += 1;
        }
        reconnects
    };
    let tasks: Vec<_> = (0..n).map(|_| tokio::spawn(one(stop.clone()))).collect();
    let mut reconnects = 0;
    for t in tasks {
        reconnects += t.await.unwrap();
    }
    reconnects
}

/// The server's peak resident memory so far, in KiB.
fn peak_resident_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("VmHWM in /proc/PID/status")
}

/// Two clients loop 10-digit reviews and `slow` connections dribble their bodies, while a third
/// client asks for Mastermind solver steps, Bulls and Cows hints and new games for `run`, ten
/// rounds a second: each must answer within 1 s (p99), none refused. The run outlasts the
/// whole-body deadline, so the slow connections are cut off and come back during it.
async fn fair_service(slow: usize, run: Duration) {
    let server = Server::start();
    let port = server.port();
    let base = format!("http://127.0.0.1:{port}");
    let stop = Arc::new(Mutex::new(false));
    let client: Http = Client::builder(TokioExecutor::new()).build_http();
    let dribblers = tokio::spawn(slow_bodies(port, slow, stop.clone()));
    let reviewers: Vec<_> = (0..2u64)
        .map(|who| {
            let (client, base, stop) = (client.clone(), base.clone(), stop.clone());
            tokio::spawn(async move {
                let mut answers = Vec::new();
                let mut n = who * 1_000_000;
                while !*stop.lock().unwrap() {
                    n += 1;
                    let body = ten_digit_review(n);
                    let start = Instant::now();
                    let (status, answer, _) =
                        send(&client, &base, Method::POST, "/api/review", Some(body)).await;
                    assert!(
                        status == StatusCode::OK || status == StatusCode::SERVICE_UNAVAILABLE,
                        "{status} {answer}"
                    );
                    answers.push((status.as_u16(), start.elapsed()));
                }
                answers
            })
        })
        .collect();
    // Let the reviews and the slow connections take hold first.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (status, game, _) = send(
        &client,
        &base,
        Method::POST,
        "/api/games",
        Some(json!({"preset": "bulls", "seed": 3})),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let hint = format!("/api/games/{}/hint", game["id"].as_str().unwrap());
    let mut latencies = Vec::new();
    let start = Instant::now();
    let mut i = 0;
    while start.elapsed() < run {
        i += 1;
        let step = json!({"preset": "mastermind", "history": [{"guess": "1122", "feedback": format!("{}B0C", i % 2)}]});
        for (method, path, body, want) in [
            (Method::POST, "/api/solver", Some(step), StatusCode::OK),
            (Method::GET, hint.as_str(), None, StatusCode::OK),
            (
                Method::POST,
                "/api/games",
                Some(json!({"preset": "mastermind"})),
                StatusCode::CREATED,
            ),
        ] {
            let (status, answer, took) = send(&client, &base, method, path, body).await;
            assert_eq!(status, want, "{path} #{i}: {answer}");
            latencies.push(took);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    *stop.lock().unwrap() = true;
    let mut reviews = Vec::new();
    for r in reviewers {
        reviews.extend(r.await.unwrap());
    }
    let reconnects = dribblers.await.unwrap();
    latencies.sort();
    let n = latencies.len();
    let p99 = percentile(&latencies, 0.99);
    println!(
        "fair: {n} solver steps, hints and new games of a third client in {:.0} s: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; \
         while 2 clients looped 10-digit reviews ({} answered 200, {} 503, the longest in {:.1} s) and {slow} connections sent a body byte every 4 s \
         (closed and reopened {reconnects} times)",
        run.as_secs_f64(),
        percentile(&latencies, 0.5).as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        latencies[n - 1].as_secs_f64() * 1e3,
        reviews.iter().filter(|(s, _)| *s == 200).count(),
        reviews.iter().filter(|(s, _)| *s == 503).count(),
        reviews.iter().map(|(_, t)| t.as_secs_f64()).fold(0.0, f64::max),
    );
    assert!(p99 < Duration::from_secs(1), "p99 {p99:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn advice_answers_within_a_second_beside_reviews_and_slow_bodies() {
    fair_service(100, Duration::from_secs(12)).await;
}

/// The full-size run of the figures in docs/src/limits.md.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "holds 1000 connections for a minute; run it with --ignored"]
async fn advice_answers_within_a_second_beside_reviews_and_a_thousand_slow_bodies() {
    fair_service(1000, Duration::from_secs(60)).await;
}

/// `n` connections ask for the largest answers the API builds (the 50-byte request that used
/// to build 128 MB, and the Bulls and Cows tree of `cows`, whose view of 1.3 MB is the largest
/// of the Explorer's choices) and never read them; the server's peak
/// memory stays under 1 GB and another client is served meanwhile.
async fn unread_answers(n: usize) {
    let server = Server::start();
    let port = server.port();
    let base = format!("http://127.0.0.1:{port}");
    let client: Http = Client::builder(TokioExecutor::new()).build_http();
    let bodies = [
        r#"{"preset":"mastermind","strategy":"enumerate"}"#,
        r#"{"preset":"bulls","strategy":"cows"}"#,
    ];
    let mut held = Vec::new();
    for i in 0..n {
        let body = bodies[i % 2];
        let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)).await else {
            panic!("connection {i} refused");
        };
        let request = format!(
            "POST /api/trees/view HTTP/1.1\r\nHost: localhost\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).await.unwrap();
        held.push(stream);
    }
    // While they wait unread, another client plays on.
    let mut slowest = Duration::ZERO;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        let (status, answer, took) = send(
            &client,
            &base,
            Method::POST,
            "/api/solver",
            Some(
                json!({"preset": "mastermind", "history": [{"guess": "1122", "feedback": "1B0C"}]}),
            ),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{answer}");
        slowest = slowest.max(took);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let peak = peak_resident_kib(server.pid());
    // Only now read the status lines, to say what became of the requests.
    let mut statuses = std::collections::BTreeMap::new();
    for mut stream in held {
        let mut head = [0u8; 12];
        let status =
            match tokio::time::timeout(Duration::from_millis(20), stream.read_exact(&mut head))
                .await
            {
                Ok(Ok(_)) => String::from_utf8_lossy(&head[9..12]).into_owned(),
                _ => "none yet".to_string(),
            };
        *statuses.entry(status).or_insert(0) += 1;
    }
    println!(
        "unread: {n} requests for the largest tree views left unread (answers {statuses:?}); \
         server peak resident {} MB; another client's solver steps answered within {:.3} s",
        peak / 1024,
        slowest.as_secs_f64()
    );
    assert!(
        peak < 1 << 20,
        "the server's peak resident memory was {peak} KiB"
    );
    assert!(slowest < Duration::from_secs(1), "{slowest:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unread_answers_leave_the_memory_small() {
    unread_answers(100).await;
}

/// The full-size run of the figures in docs/src/limits.md.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "holds 1000 connections; run it with --ignored"]
async fn a_thousand_unread_answers_leave_the_memory_under_a_gigabyte() {
    unread_answers(1000).await;
}
