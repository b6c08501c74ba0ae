//! The web server under hostile clients: slow drips, half-sent bodies, idle and surplus
//! connections, a full game store, clients that hang up, scripts that flood it, foreign Host
//! names; each test starts its own server in-process.

use std::time::{Duration, Instant};

/// One HTTP/1.1 request on a fresh connection: (status, body).
async fn http(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    exchange(stream, method, path, body).await
}

/// Sends one request on `stream` and reads the whole answer: (status, body).
async fn exchange(
    mut stream: tokio::net::TcpStream,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = status_of(&text);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// The status code of an HTTP answer's first line; 0 when there is none (the server closed the
/// connection without answering).
fn status_of(answer: &str) -> u16 {
    answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0)
}

/// How long until the server closes a connection that sends `prefix` and then drips one byte
/// of `drip` every 100 ms (or nothing, if `drip` is empty), giving up after `limit`.
async fn time_to_close(
    addr: std::net::SocketAddr,
    prefix: &'static str,
    drip: &'static str,
    limit: Duration,
) -> Duration {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let start = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(prefix.as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let dripper = tokio::spawn(async move {
        for b in drip
            .bytes()
            .cycle()
            .take(if drip.is_empty() { 0 } else { 10_000 })
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if writer.write_all(&[b]).await.is_err() {
                break;
            }
        }
        // Keep the writing half open; the server must close the connection itself.
        tokio::time::sleep(Duration::from_secs(3600)).await;
        drop(writer);
    });
    let mut buf = [0u8; 1024];
    let closed = tokio::time::timeout(limit, async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await;
    dripper.abort();
    assert!(
        closed.is_ok(),
        "the server kept a slow connection open past {limit:?}"
    );
    start.elapsed()
}

/// Slow clients are cut off by the timeouts while a normal game starts and is played at once;
/// a full connection table makes new clients wait, not fail; a full game store says when to
/// come back and makes room from idle games.
/// Starts a game with a seed, so the secret is known, and plays it to the win; returns the time.
async fn play_seeded_game(addr: std::net::SocketAddr) -> Duration {
    let start = Instant::now();
    let (id, secret) = seeded_game(addr).await;
    let first = if secret == "0123" { "4567" } else { "0123" };
    for guess in [first, secret.as_str()] {
        let (status, answer) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/guesses"),
            &format!(r#"{{"guess": "{guess}"}}"#),
        )
        .await;
        assert_eq!(status, 200, "{answer}");
        if guess == secret {
            let state: serde_json::Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(state["won"], true, "{answer}");
        }
    }
    start.elapsed()
}

/// Starts a game of Bulls and Cows with a seed, so its secret is known: (its id, the secret).
async fn seeded_game(addr: std::net::SocketAddr) -> (String, String) {
    let id = created_id(
        http(
            addr,
            "POST",
            "/api/games",
            r#"{"seed": 12, "preset": "bulls"}"#,
        )
        .await,
    );
    let rules = moo_core::Rules::bulls();
    let mut draw = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(12);
    let secret = rules.format_code(&rules.random_code(&mut draw));
    (id, secret)
}

/// The id of the game an answer of `POST /api/games` created, which must have succeeded.
fn created_id((status, created): (u16, String)) -> String {
    assert_eq!(status, 201, "{created}");
    let game: serde_json::Value = serde_json::from_str(&created).unwrap();
    game["id"].as_str().unwrap().to_string()
}

/// A full store: the 503 says when a place frees, and an idle game then makes room.
async fn full_store_frees_a_place(addr: std::net::SocketAddr) {
    for _ in 0..20 {
        assert_eq!(http(addr, "POST", "/api/games", "{}").await.0, 201);
    }
    let (status, full) = http(addr, "POST", "/api/games", "{}").await;
    assert_eq!(status, 503, "{full}");
    assert!(full.contains("try again in"), "{full}");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(http(addr, "POST", "/api/games", "{}").await.0, 201);
}

/// A full connection table of idle connections: the one idle longest gives way, so a new
/// client is answered at once instead of waiting for a slot.
async fn full_connection_table_makes_room(addr: std::net::SocketAddr) {
    let mut hogs = Vec::new();
    for _ in 0..16 {
        hogs.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let start = Instant::now();
    let (status, _) = http(addr, "GET", "/api/presets", "").await;
    let waited = start.elapsed();
    println!(
        "server: with 16 of 16 connections held idle, a new request was answered after {:.2} s",
        waited.as_secs_f64()
    );
    assert_eq!(status, 200);
    assert!(
        waited < Duration::from_secs(1),
        "the new client waited {waited:?}"
    );
    drop(hogs);
}

#[test]
fn slow_clients_are_cut_off_and_normal_games_go_on() {
    let timeout = Duration::from_secs(1);
    let mut config = moo_web::Config::default();
    config.header_timeout = timeout;
    config.body_timeout = timeout;
    config.request_timeout = Duration::from_secs(5);
    config.max_connections = 16;
    config.service.max_games = 20;
    config.service.evict_idle = Duration::from_secs(1);
    with_server(config, |addr| async move {
        // Generous: the close must come after the timeout and well before the old 50 s.
        let limit = timeout + Duration::from_secs(9);

        // Five slow-drip connections: headers one byte every 100 ms, never finished.
        let mut slow = Vec::new();
        for _ in 0..5 {
            slow.push(tokio::spawn(time_to_close(
                addr,
                "POST /api/games HTTP/1.1\r\n",
                "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                limit,
            )));
        }
        // A body declared as 1000 bytes of which one is sent; an idle connection.
        let body = tokio::spawn(time_to_close(
            addr,
            "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
            "",
            limit,
        ));
        let idle = tokio::spawn(time_to_close(addr, "", "", limit));

        // Meanwhile a normal game: start it with a seed, so the secret is known, and play it.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let played = play_seeded_game(addr).await;

        let mut closes = Vec::new();
        for handle in slow {
            closes.push(handle.await.unwrap());
        }
        let body_close = body.await.unwrap();
        let idle_close = idle.await.unwrap();
        println!(
            "server: a game started and played in {:.1} ms while 5 slow-drip connections were open; \
             they were closed after {} s, a half-sent body after {:.2} s, an idle connection after {:.2} s \
             (timeouts {:.0} s)",
            played.as_secs_f64() * 1000.0,
            closes.iter().map(|d| format!("{:.2}", d.as_secs_f64())).collect::<Vec<_>>().join(", "),
            body_close.as_secs_f64(),
            idle_close.as_secs_f64(),
            timeout.as_secs_f64(),
        );
        // A player expects under 100 ms; on a loaded 2-core machine allow far more.
        assert!(played < Duration::from_secs(3), "the game took {played:?}");
        for close in closes.iter().chain([&body_close, &idle_close]) {
            assert!(
                *close >= timeout.mul_f64(0.8),
                "closed too early: {close:?}"
            );
        }

        full_store_frees_a_place(addr).await;

        full_connection_table_makes_room(addr).await;
    });
}

/// Connections that each send a body byte every 400 ms (never pausing long
/// enough to time out) and outnumber the connection table cannot make a normal client wait:
/// the connection idle longest gives way to it; and each of them is closed once its body has
/// taken longer than the whole-body deadline.
#[test]
fn slow_bodies_cannot_hold_the_connection_table() {
    use tokio::io::AsyncWriteExt;
    let mut config = moo_web::Config::default();
    config.max_connections = 16;
    with_server(config, |addr| async move {
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let drippers: Vec<_> = (0..20)
            .map(|_| {
                let stop = stop.clone();
                tokio::spawn(async move {
                    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
                    let head = "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
                    if stream.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        if stream.write_all(b" ").await.is_err() {
                            return;
                        }
                        tokio::time::sleep(Duration::from_millis(400)).await;
                    }
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut slowest = Duration::ZERO;
        for _ in 0..5 {
            let start = Instant::now();
            let answer = tokio::time::timeout(
                Duration::from_secs(5),
                http(addr, "GET", "/api/presets", ""),
            )
            .await;
            let took = start.elapsed();
            assert_eq!(answer.map(|a| a.0), Ok(200), "no answer after {took:?}");
            slowest = slowest.max(took);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        println!(
            "server: 20 connections dripping bodies into a table of 16, a normal request answered within {:.3} s",
            slowest.as_secs_f64()
        );
        assert!(slowest < Duration::from_secs(1), "{slowest:?}");
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for d in drippers {
            d.await.unwrap();
        }
    });
}

/// On a loopback server every client has the address 127.0.0.1, so the
/// address cannot tell the browser's player from a script. A script creating 1100 games (more
/// than the store's 1000) cannot evict the game the player is in the middle of: once the store
/// holds only games nobody may take yet, the script is refused with 503.
#[test]
fn a_local_script_cannot_evict_a_game_in_play() {
    with_server(moo_web::Config::default(), |addr| async move {
        let (id, secret) = seeded_game(addr).await;
        let path = format!("/api/games/{id}");
        let [first, second] = ["0123", "4567", "8901"]
            .into_iter()
            .filter(|g| *g != secret)
            .take(2)
            .collect::<Vec<_>>()[..]
        else {
            unreachable!()
        };
        let guess = |g: &str| format!(r#"{{"guess": "{g}"}}"#);
        let (status, answer) = http(addr, "POST", &format!("{path}/guesses"), &guess(first)).await;
        assert_eq!(status, 200, "{answer}");
        let (mut made, mut refused) = (0, 0);
        for _ in 0..1100 {
            let (status, answer) = http(addr, "POST", "/api/games", "{}").await;
            match status {
                201 => made += 1,
                503 => {
                    assert!(answer.contains(r#""code":"busy""#), "{answer}");
                    refused += 1;
                }
                _ => panic!("{status} {answer}"),
            }
        }
        println!("server: a local script made {made} games and was refused {refused}; the game in play lives on");
        let (status, answer) = http(addr, "GET", &path, "").await;
        assert_eq!(status, 200, "the game in play was evicted: {answer}");
        let (status, answer) = http(addr, "POST", &format!("{path}/guesses"), &guess(second)).await;
        assert_eq!(status, 200, "{answer}");
    });
}

/// One HTTP/1.1 request on a fresh connection from the loopback address `from` (so the server
/// sees a client of its own): (status, body).
async fn http_from(
    from: [u8; 4],
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String) {
    exchange(connect_from(from, addr).await, method, path, body).await
}

async fn connect_from(from: [u8; 4], addr: std::net::SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::from((from, 0)))
        .expect("any 127.x.y.z address is the loopback on Linux");
    socket.connect(addr).await.unwrap()
}

/// Sends a request from `from` and hangs up after `after`, as a client that gives up does.
async fn hang_up_after(
    from: [u8; 4],
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    after: Duration,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = connect_from(from, addr).await;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut sink = Vec::new();
    let _ = tokio::time::timeout(after, stream.read_to_end(&mut sink)).await;
}

/// The `n`th arrangement of the ten digits in lexicographic order: the first few thousand
/// differ only in their last digits.
fn nth_permutation(mut n: usize) -> String {
    let mut digits: Vec<char> = "0123456789".chars().collect();
    let mut out = String::new();
    for k in (0..10).rev() {
        let f: usize = (1..=k).product();
        out.push(digits.remove(n / f));
        n %= f;
    }
    out
}

/// A benchmark of 10 binary digits with repeats, naming `optimal` as often as
/// the 16 KiB body limit allows.
fn optimal_bench_body(limit: usize) -> String {
    let head = r#"{"rules":{"length":10,"symbols":"01","repeats":true},"strategies":["#;
    let mut body = head.to_string();
    let mut first = true;
    while body.len() + r#","optimal"]}"#.len() < limit {
        if !first {
            body.push(',');
        }
        body.push_str(r#""optimal""#);
        first = false;
    }
    body.push_str("]}");
    body
}

/// While two clients post the benchmark that used to hold both
/// workers for 80 s and two more hold the longest histories the server allows, a third
/// client's Mastermind solver step and Bulls and Cows hint each answer within 1 s, 20 times in
/// a row; and both benchmark workers are free within a second of their clients hanging up.
/// The benchmark clients hang up after half a second: both workers must be free again within a
/// second (they were busy 10 s more before), which two small benchmarks from two other clients,
/// started at the hang-up, show by being answered at once.
async fn workers_free_when_clients_hang_up(addr: std::net::SocketAddr, bench: &str) {
    let hang = [[127, 0, 0, 2], [127, 0, 0, 3]].map(|from| {
        let bench = bench.to_string();
        tokio::spawn(async move {
            hang_up_after(
                from,
                addr,
                "POST",
                "/api/bench",
                &bench,
                Duration::from_millis(500),
            )
            .await
        })
    });
    for h in hang {
        h.await.unwrap();
    }
    let hung_up = Instant::now();
    let small = r#"{"rules":{"length":2,"symbols":"012","repeats":true},"strategies":["simple"]}"#;
    let probes = [[127, 0, 0, 20], [127, 0, 0, 21]].map(|from| {
        tokio::spawn(async move { http_from(from, addr, "POST", "/api/bench", small).await })
    });
    for p in probes {
        let (status, answer) = p.await.unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    let freed = hung_up.elapsed();
    println!(
        "server: both benchmark workers answered other clients {:.2} s after their clients hung up",
        freed.as_secs_f64()
    );
    assert!(
        freed < Duration::from_millis(1500),
        "the workers were busy {freed:?} after the hang-up"
    );
}

/// Two clients' 10-digit games, each played to the turn cap with guesses that differ only in
/// their last digits: the guess past the cap is refused, and every answer stays small.
async fn games_at_the_turn_cap(
    addr: std::net::SocketAddr,
    max_turns: usize,
) -> Vec<([u8; 4], String)> {
    let ten = r#"{"rules":{"length":10,"symbols":"0123456789","repeats":false}}"#;
    let mut ids = Vec::new();
    for from in [[127, 0, 0, 4], [127, 0, 0, 5]] {
        let created = http_from(from, addr, "POST", "/api/games", ten).await;
        ids.push((from, created_id(created)));
    }
    for (from, id) in &ids {
        let path = format!("/api/games/{id}/guesses");
        let mut refused = None;
        for turn in 1..=20_000 {
            let guess = format!(r#"{{"guess":"{}"}}"#, nth_permutation(turn));
            let (status, answer) = http_from(*from, addr, "POST", &path, &guess).await;
            if status != 200 {
                assert_eq!(status, 409, "{answer}");
                assert!(
                    answer.contains(&format!("limit of {max_turns} turns")),
                    "{answer}"
                );
                refused = Some(turn);
                break;
            }
            // Every answer lists the turns, so the cap bounds its size too.
            assert!(
                answer.len() < 100 * max_turns + 1000,
                "{} bytes at turn {turn}",
                answer.len()
            );
        }
        assert_eq!(refused, Some(max_turns + 1));
    }
    ids
}

/// The third client plays on under the load: each answer within 1 s, 20 times in a row.
async fn third_client_plays_on(addr: std::net::SocketAddr, me: [u8; 4]) {
    let created = http_from(
        me,
        addr,
        "POST",
        "/api/games",
        r#"{"preset":"bulls","seed":3}"#,
    )
    .await;
    let hint = format!("/api/games/{}/hint", created_id(created));
    let mut slowest = Duration::ZERO;
    for i in 0..20 {
        let step = format!(
            r#"{{"preset":"mastermind","history":[{{"guess":"1122","feedback":"{}B0C"}}]}}"#,
            i % 2
        );
        for (method, path, body) in [
            ("POST", "/api/solver", step.as_str()),
            ("GET", hint.as_str(), ""),
        ] {
            let start = Instant::now();
            let (status, answer) = http_from(me, addr, method, path, body).await;
            let took = start.elapsed();
            slowest = slowest.max(took);
            assert_eq!(status, 200, "{method} {path} #{i}: {answer}");
            assert!(answer.contains("\"advice\""), "{answer}");
            assert!(
                took < Duration::from_secs(1),
                "{method} {path} #{i} took {took:?}"
            );
        }
    }
    println!(
        "server: 20 solver steps and 20 hints under load, the slowest in {:.3} s",
        slowest.as_secs_f64()
    );
}

#[test]
fn advice_answers_while_benchmarks_and_long_histories_load_the_server() {
    let _serial = crate::SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let config = moo_web::Config::default();
    let (body_limit, max_turns) = (config.service.body_limit, config.service.max_turns);
    with_server(config, |addr| async move {
        let bench = optimal_bench_body(body_limit);
        assert!(bench.len() <= body_limit && bench.len() > body_limit - 20);

        workers_free_when_clients_hang_up(addr, &bench).await;

        // The third client has been playing: its first solver steps are done (a Mastermind
        // step searches the game once, which the load below would only slow down; waiting
        // behind others is what is measured).
        let me = [127, 0, 0, 6];
        for feedback in ["0B0C", "1B0C"] {
            let step = format!(
                r#"{{"preset":"mastermind","history":[{{"guess":"1122","feedback":"{feedback}"}}]}}"#
            );
            assert_eq!(
                http_from(me, addr, "POST", "/api/solver", &step).await.0,
                200
            );
        }

        // The load: two benchmark clients post the benchmark again and again...
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut load = Vec::new();
        for from in [[127, 0, 0, 2], [127, 0, 0, 3]] {
            let (bench, done) = (bench.clone(), done.clone());
            load.push(tokio::spawn(async move {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    let (status, answer) =
                        http_from(from, addr, "POST", "/api/bench", &bench).await;
                    assert!(status == 200 || status == 503, "{status} {answer}");
                }
            }));
        }
        // ...and two clients play guesses that differ only in their last digits in a 10-digit
        // game as often as the server allows (20000 times, if it let them), then ask for hints
        // without end, hanging up on every other one.
        let ids = games_at_the_turn_cap(addr, max_turns).await;
        for (from, id) in ids {
            let done = done.clone();
            load.push(tokio::spawn(async move {
                let path = format!("/api/games/{id}/hint");
                let mut n = 0;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    n += 1;
                    if n % 2 == 0 {
                        hang_up_after(from, addr, "GET", &path, "", Duration::from_millis(300))
                            .await;
                    } else {
                        let (status, answer) = http_from(from, addr, "GET", &path, "").await;
                        assert!(status == 200 || status == 503, "{status} {answer}");
                    }
                }
            }));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;

        third_client_plays_on(addr, me).await;
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        for task in load {
            // A request in flight ends within its own limits.
            tokio::time::timeout(Duration::from_secs(60), task)
                .await
                .unwrap()
                .unwrap();
        }
    });
}

/// Sends `request` as it is on a fresh connection and reads the answer until the server closes
/// it or `limit` passes: (status, the whole answer).
async fn raw(addr: std::net::SocketAddr, request: &str, limit: Duration) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let _ = tokio::time::timeout(limit, stream.read_to_end(&mut response)).await;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = status_of(&text);
    (status, text)
}

/// The body of an answer, parsed as the JSON error every error answer must be.
fn json_error(answer: &str) -> String {
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let value: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not a JSON body ({e}): {answer:?}"));
    value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no \"error\" in {answer:?}"))
        .to_string()
}

/// A Host allow-list, JSON for every error the server
/// shapes, no long id echoed whole, an early 413 for a body declared too large.
#[test]
fn the_server_answers_only_its_own_names_and_always_in_json() {
    let mut config = moo_web::Config::default();
    config.allowed_hosts = vec!["moo.example".into()];
    with_server(config, |addr| async move {
        let limit = Duration::from_secs(5);
        let request = |method: &str, path: &str, host: &str, extra: &str| {
            format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: 2\r\n\r\n{{}}")
        };
        // DNS rebinding: the attacker's name is refused, ours and the allowed ones are not.
        let (status, answer) = raw(
            addr,
            &request("POST", "/api/games", "attacker.example", ""),
            limit,
        )
        .await;
        assert_eq!(status, 421, "{answer}");
        assert!(json_error(&answer).contains("--allow-host"), "{answer}");
        for host in [
            "localhost:8080",
            "127.0.0.1",
            &addr.to_string(),
            "moo.example:80",
        ] {
            let (status, answer) = raw(addr, &request("POST", "/api/games", host, ""), limit).await;
            assert_eq!(status, 201, "{host}: {answer}");
        }
        // Errors of the framework, as JSON.
        for (method, path, want) in [
            ("GET", "/api/games/%ff", 400),
            ("POST", "/", 405),
            ("TRACE", "/", 405),
            ("DELETE", "/api/solver", 405),
        ] {
            let (status, answer) = raw(addr, &request(method, path, "localhost", ""), limit).await;
            assert_eq!(status, want, "{method} {path}: {answer}");
            json_error(&answer);
        }
        // A 60 KB id is not echoed whole.
        let id = "a".repeat(60_000);
        let (status, answer) = raw(
            addr,
            &request("GET", &format!("/api/games/{id}"), "localhost", ""),
            limit,
        )
        .await;
        assert_eq!(status, 404, "{}", &answer[..answer.len().min(300)]);
        assert!(json_error(&answer).len() < 1000, "{} bytes", answer.len());
        // A body declared too large gets its 413 at once, not a 100 Continue and a wait.
        let start = Instant::now();
        let (status, answer) = raw(
            addr,
            "POST /api/solver HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n",
            Duration::from_secs(3),
        )
        .await;
        assert_eq!(status, 413, "{answer}");
        assert!(!answer.contains("100 Continue"), "{answer}");
        assert!(json_error(&answer).contains("limit of"), "{answer}");
        assert!(
            start.elapsed() < Duration::from_secs(3),
            "{:?}",
            start.elapsed()
        );
    });
}

/// An empty Host header and two Host headers (ours, then another) are refused
/// like a foreign name, and every answer (the page, an API answer, an error) carries the
/// security headers: a policy that loads only the server's own scripts and styles and forbids
/// framing, no framing in older browsers, no type sniffing.
#[test]
fn empty_and_repeated_host_headers_are_refused_and_every_answer_has_security_headers() {
    with_server(moo_web::Config::default(), |addr| async move {
        let limit = Duration::from_secs(5);
        let post = |hosts: &str| {
            format!("POST /api/games HTTP/1.1\r\n{hosts}Connection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}")
        };
        let (status, answer) = raw(addr, &post("Host: \r\n"), limit).await;
        assert_eq!(status, 421, "{answer}");
        json_error(&answer);
        let (status, answer) = raw(
            addr,
            &post("Host: localhost\r\nHost: attacker.example\r\n"),
            limit,
        )
        .await;
        assert_eq!(status, 400, "{answer}");
        assert!(
            json_error(&answer).contains("more than one Host"),
            "{answer}"
        );
        let (status, answer) =
            raw(addr, &post("Host: localhost\r\nHost: localhost\r\n"), limit).await;
        assert_eq!(status, 400, "{answer}");
        let get = |path: &str| {
            format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        };
        let (status, created) = raw(addr, &post("Host: localhost\r\n"), limit).await;
        assert_eq!(status, 201, "{created}");
        for (what, answer) in [
            ("the page", raw(addr, &get("/"), limit).await.1),
            ("a script", raw(addr, &get("/app.js"), limit).await.1),
            (
                "an API answer",
                raw(addr, &get("/api/presets"), limit).await.1,
            ),
            ("a created game", created),
            (
                "an error",
                raw(addr, &get("/api/games/none"), limit).await.1,
            ),
            (
                "a foreign host",
                raw(addr, &post("Host: attacker.example\r\n"), limit)
                    .await
                    .1,
            ),
        ] {
            let head = answer
                .split_once("\r\n\r\n")
                .map_or(answer.as_str(), |(h, _)| h)
                .to_ascii_lowercase();
            for want in [
                "content-security-policy: default-src 'self'; script-src 'self'; style-src 'self';",
                "frame-ancestors 'none'",
                "x-frame-options: deny",
                "x-content-type-options: nosniff",
            ] {
                assert!(head.contains(want), "{what} lacks {want:?}: {head}");
            }
        }
    });
}

/// `moo_web::serve` on a free port of the loopback: its address, and the task to abort.
async fn start(
    config: moo_web::Config,
) -> (
    std::net::SocketAddr,
    tokio::task::JoinHandle<std::io::Result<()>>,
) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    (addr, tokio::spawn(moo_web::serve(listener, config)))
}

/// Runs `test` against [`start`]'s server of `config`, on the two-worker [`runtime`], and
/// stops the server after it.
fn with_server<F: std::future::Future<Output = ()>>(
    config: moo_web::Config,
    test: impl FnOnce(std::net::SocketAddr) -> F,
) {
    runtime().block_on(async {
        let (addr, server) = start(config).await;
        test(addr).await;
        server.abort();
    });
}

/// The two-worker runtime each server test runs its server and clients on.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
