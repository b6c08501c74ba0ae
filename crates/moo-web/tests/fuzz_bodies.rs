//! Every POST route of the API fed arbitrary bytes and near-miss JSON, in process.
//!
//! A client can send anything, so each answer must be a success or a 4xx carrying
//! `{"error": "..."}`: never a 5xx (a job that panicked or ran away), never a panic in a handler,
//! and never a request that breaks the server for the next one. Random bytes mostly test the
//! JSON extractor, so most cases are bodies of the right shape with one or more values that are
//! wrong in the ways people get them wrong: unknown presets and strategies, rules that fail
//! validation, numbers past any integer type, codes and feedback of every bad kind, fields of
//! the wrong type, and names that reach into the server's files (`tree:PATH`).
//!
//! All cases share one router, as clients share one server, and after each case the server must
//! still start and play a normal game. The space limits are lowered so that bodies which happen
//! to be valid cost milliseconds, not the seconds of a real Bulls and Cows search.

use std::sync::OnceLock;
use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use axum::Router;
use proptest::prelude::*;
use serde_json::{json, Map, Value};
use tower::ServiceExt;

/// The one server all cases talk to.
fn app() -> Router {
    static APP: OnceLock<Router> = OnceLock::new();
    APP.get_or_init(|| {
        let mut config = moo_web::Config::default();
        // Every case starts a game; the cap has its own test in games.rs.
        config.service.max_games = 1 << 20;
        config.service.solver_max_codes = 64;
        config.service.bench_max_codes = 64;
        // Generous, so a loaded CI machine never turns a valid body into a 503.
        config.service.time_limit = Duration::from_secs(120);
        moo_web::router(config)
    })
    .clone()
}

fn runtime() -> &'static tokio::runtime::Runtime {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    RUNTIME.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap()
    })
}

/// Sends one request and returns the status and the body as JSON (`None` if it is not JSON).
fn send(
    method: &str,
    uri: &str,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> (StatusCode, Option<Value>) {
    let mut request = Request::builder().method(method).uri(uri);
    if let Some(t) = content_type {
        request = request.header(header::CONTENT_TYPE, t);
    }
    let request = request.body(Body::from(body)).unwrap();
    runtime().block_on(async {
        let response = app().oneshot(request).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 26)
            .await
            .unwrap();
        (status, parse(&bytes))
    })
}

/// The body as JSON. The tree of brute force nests twice per guess, past serde_json's default
/// limit of 128 levels once a space has 64 codes, and such a tree is still a valid answer.
fn parse(bytes: &[u8]) -> Option<Value> {
    use serde::Deserialize;
    let mut reader = serde_json::Deserializer::from_slice(bytes);
    reader.disable_recursion_limit();
    let value = Value::deserialize(&mut reader).ok()?;
    reader.end().ok()?;
    Some(value)
}

/// The answer any body must get: a success with JSON, or a 4xx with a JSON error message.
fn check_answer(
    what: &str,
    (status, body): &(StatusCode, Option<Value>),
) -> Result<(), TestCaseError> {
    prop_assert!(
        status.is_success() || status.is_client_error(),
        "{}: {} {:?}",
        what,
        status,
        body
    );
    let Some(body) = body else {
        return Err(TestCaseError::fail(format!(
            "{what}: {status} without a JSON body"
        )));
    };
    if status.is_client_error() {
        let message = body["error"].as_str().unwrap_or_default();
        prop_assert!(!message.is_empty(), "{}: {} {}", what, status, body);
    }
    Ok(())
}

/// A new game on a small preset, and a guess in it: the server still works.
fn still_serves() -> Result<(), TestCaseError> {
    let id = start_game();
    let (status, body) = post(
        &format!("/api/games/{id}/guesses"),
        json!({ "guess": "1234" }),
    );
    prop_assert_eq!(status, StatusCode::OK, "{:?}", body);
    let body = body.unwrap();
    prop_assert_eq!(body["turns"].as_array().map(Vec::len), Some(1));
    Ok(())
}

fn start_game() -> String {
    let (status, body) = post("/api/games", json!({ "preset": "mastermind", "seed": 7 }));
    assert_eq!(status, StatusCode::CREATED, "{body:?}");
    body.unwrap()["id"].as_str().unwrap().to_string()
}

/// Posts a near miss `body` to `uri`: the answer must be a proper one (see [`check_answer`]),
/// and the server must still serve a game after it.
fn near_miss(uri: &str, body: Value) -> Result<(), TestCaseError> {
    check_answer(uri, &post(uri, body))?;
    still_serves()
}

fn post(uri: &str, body: Value) -> (StatusCode, Option<Value>) {
    send("POST", uri, Some("application/json"), render(&body))
}

// ---- values people get wrong ---------------------------------------------------------------

/// Stands for a number no JSON parser turns into an integer; spliced in by [`render`].
const BIG: &str = "\u{1}big\u{1}";

/// The body as bytes, with each [`BIG`] replaced by `1e400`.
fn render(body: &Value) -> Vec<u8> {
    body.to_string()
        .replace(&Value::from(BIG).to_string(), "1e400")
        .into_bytes()
}

const SYMBOLS: &str = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+*";

fn number() -> impl Strategy<Value = Value> {
    prop_oneof![
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop::num::f64::NORMAL.prop_map(Value::from),
        Just(Value::from(BIG)),
        Just(json!(-1)),
        Just(json!(0)),
    ]
}

/// Something of a wrong type for most fields.
fn junk() -> impl Strategy<Value = Value> {
    prop_oneof![
        number(),
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        Just(json!([])),
        Just(json!({})),
        // Deep, but within the parser's nesting limit so it gets past the JSON syntax check.
        Just(serde_json::from_str(&format!("{}{}", "[".repeat(100), "]".repeat(100))).unwrap()),
    ]
}

fn preset() -> impl Strategy<Value = Value> {
    prop_oneof![
        3 => prop::sample::select(vec!["bulls", "mastermind"]).prop_map(Value::from),
        1 => prop::sample::select(vec!["Bulls", "chess", ""]).prop_map(Value::from),
        1 => junk(),
    ]
}

/// Rules: tiny valid ones (playable within the lowered limits), ones that fail validation,
/// huge valid ones, and wrong shapes.
fn rules() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => (1usize..=3, 1usize..=5, any::<bool>(), any::<bool>()).prop_map(|(l, n, r, z)| {
            json!({ "length": l, "symbols": &SYMBOLS[..n], "repeats": r, "no_leading": z })
        }),
        1 => (0usize..=20, 0usize..=64, any::<bool>()).prop_map(|(l, n, r)| {
            json!({ "length": l, "symbols": &SYMBOLS[..n], "repeats": r })
        }),
        1 => (number(), "\\PC{0,70}", junk()).prop_map(|(l, s, r)| {
            json!({ "length": l, "symbols": s, "repeats": r })
        }),
        1 => prop::sample::select(vec![
            json!({ "length": 15, "symbols": SYMBOLS, "repeats": true }),
            json!({ "length": 4, "symbols": "0012", "repeats": true }),
            json!({ "length": 2, "symbols": "0 1", "repeats": true }),
            json!({ "length": 1, "symbols": "0", "repeats": true, "no_leading": true }),
            json!({ "length": 4 }),
            json!({ "length": 2, "symbols": "01", "repeats": true, "colours": 3 }),
        ]),
        1 => junk(),
    ]
}

/// Strategy names: registered ones, unknown ones, and ones naming files on the server.
fn strategy_name() -> impl Strategy<Value = Value> {
    let names = vec![
        "psychic",
        "",
        "tree:",
        "tree:/dev/zero",
        "tree:/dev/stdin",
        "tree:/etc/passwd",
        "tree:../../Cargo.toml",
        "Simple",
    ];
    let registered: Vec<&'static str> = moo_core::strategy::names().collect();
    prop_oneof![
        6 => prop::sample::select(registered).prop_map(Value::from),
        2 => prop::sample::select(names).prop_map(Value::from),
        1 => junk(),
    ]
}

/// Code texts: plausible ones for the tiny rules, and anything.
fn code_text() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => "[0-4]{1,3}".prop_map(Value::from),
        1 => "[0-4 ,_-]{0,8}".prop_map(Value::from),
        1 => "\\PC{0,8}".prop_map(Value::from),
        1 => junk(),
    ]
}

/// Code texts for codes of `length` from `symbols`: mostly right, else a symbol short or over.
fn code_like(symbols: &str, length: usize) -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => regex(&format!("[{symbols}]{{{length}}}")).prop_map(Value::from),
        1 => regex(&format!("[{symbols}]{{0,{}}}", length + 2)).prop_map(Value::from),
        1 => code_text(),
    ]
}

fn regex(pattern: &str) -> impl Strategy<Value = String> {
    proptest::string::string_regex(pattern).unwrap()
}

fn feedback_text() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => "[0-3][bB][0-3][cC]".prop_map(Value::from),
        1 => "[0-9 ,/bcw-]{0,6}".prop_map(Value::from),
        1 => "[0-9]{10,30}".prop_map(Value::from),
        1 => "\\PC{0,8}".prop_map(Value::from),
        1 => junk(),
    ]
}

/// An object with each of `fields` present with its probability, and sometimes a field nobody
/// asked for; rarely not an object at all.
fn object(fields: Vec<(&'static str, f64, BoxedStrategy<Value>)>) -> impl Strategy<Value = Value> {
    let fields: Vec<_> = fields
        .into_iter()
        .map(|(k, p, v)| prop::option::weighted(p, v).prop_map(move |v| (k, v)))
        .collect();
    let shaped = (fields, prop::option::weighted(0.05, junk())).prop_map(|(fields, extra)| {
        let mut map = Map::new();
        for (k, v) in fields.into_iter().filter_map(|(k, v)| v.map(|v| (k, v))) {
            map.insert(k.to_string(), v);
        }
        if let Some(v) = extra {
            map.insert("extra".to_string(), v);
        }
        Value::Object(map)
    });
    prop_oneof![19 => shaped, 1 => junk()]
}

fn turn() -> impl Strategy<Value = Value> {
    object(vec![
        ("guess", 0.95, code_text().boxed()),
        ("feedback", 0.95, feedback_text().boxed()),
    ])
}

fn history() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::collection::vec(turn(), 0..6).prop_map(Value::from),
        1 => junk(),
    ]
}

/// Solver bodies whose history is mostly made of codes of the rules, so that most reach the
/// solver itself (consistent histories, contradictions, wins) rather than the parser's refusal.
fn solver_body() -> impl Strategy<Value = Value> {
    let fitting = (1usize..=3, 1usize..=5, any::<bool>())
        .prop_flat_map(|(length, n, repeats)| {
            let symbols = &SYMBOLS[..n];
            let feedback = (0..=length)
                .prop_flat_map(move |bulls| (Just(bulls), 0..=length - bulls))
                .prop_map(|(bulls, cows)| Value::from(format!("{bulls}B{cows}C")));
            let turn = (
                code_like(symbols, length),
                prop_oneof![4 => feedback, 1 => feedback_text()],
            )
                .prop_map(|(guess, feedback)| json!({ "guess": guess, "feedback": feedback }));
            (
                Just(json!({ "length": length, "symbols": symbols, "repeats": repeats })),
                prop::option::of(strategy_name()),
                prop::collection::vec(turn, 0..5),
            )
        })
        .prop_map(|(rules, strategy, history)| {
            let mut body = json!({ "rules": rules, "history": history });
            if let Some(name) = strategy {
                body["strategy"] = name;
            }
            body
        });
    let loose = game_body(vec![
        ("strategy", 0.5, strategy_name().boxed()),
        ("history", 0.7, history().boxed()),
    ]);
    prop_oneof![3 => fitting, 1 => loose]
}

/// A body that names its game by preset (sometimes) or rules (mostly), with `more` fields, as
/// the solver, the bench and the trees take it.
fn game_body(more: Vec<(&'static str, f64, BoxedStrategy<Value>)>) -> impl Strategy<Value = Value> {
    let mut fields = vec![
        ("preset", 0.1, preset().boxed()),
        ("rules", 0.9, rules().boxed()),
    ];
    fields.extend(more);
    object(fields)
}

fn strategies_list() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::collection::vec(strategy_name(), 0..3).prop_map(Value::from),
        1 => junk(),
    ]
}

// ---- the properties ------------------------------------------------------------------------

/// The POST routes; `{id}` becomes a live game's id.
const ROUTES: [&str; 7] = [
    "/api/games",
    "/api/games/{id}/guesses",
    "/api/games/{id}/give-up",
    "/api/solver",
    "/api/review",
    "/api/bench",
    "/api/trees",
];

fn route_uri(route: &str) -> String {
    if route.contains("{id}") {
        route.replace("{id}", &start_game())
    } else {
        route.to_string()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn arbitrary_bytes_get_a_json_4xx(
        route in prop::sample::select(ROUTES.to_vec()),
        bytes in prop::collection::vec(any::<u8>(), 0..200),
        content_type in prop::sample::select(vec![
            Some("application/json"),
            Some("application/json; charset=utf-8"),
            Some("text/plain"),
            None,
        ]),
    ) {
        let uri = route_uri(route);
        let answer = send("POST", &uri, content_type, bytes);
        check_answer(&uri, &answer)?;
        still_serves()?;
    }

    #[test]
    fn new_game_near_misses(body in object(vec![
        ("preset", 0.3, preset().boxed()),
        ("rules", 0.7, rules().boxed()),
        ("seed", 0.5, prop_oneof![4 => any::<u64>().prop_map(Value::from), 1 => junk()].boxed()),
    ])) {
        near_miss("/api/games", body)?;
    }

    #[test]
    fn guess_near_misses(
        // The game is Mastermind: 4 of the symbols 1-6.
        body in object(vec![("guess", 0.95, code_like("1-6", 4).boxed())]),
        id in prop_oneof![Just(None), "[0-9a-f]{0,40}".prop_map(Some)],
    ) {
        let id = id.unwrap_or_else(start_game);
        let uri = format!("/api/games/{id}/guesses");
        near_miss(&uri, body)?;
    }

    #[test]
    fn give_up_near_misses(
        body in junk(),
        id in prop_oneof![Just(None), "[0-9a-f]{0,40}".prop_map(Some)],
    ) {
        let id = id.unwrap_or_else(start_game);
        let uri = format!("/api/games/{id}/give-up");
        near_miss(&uri, body)?;
    }

    #[test]
    fn solver_near_misses(body in solver_body()) {
        near_miss("/api/solver", body)?;
    }

    #[test]
    fn review_near_misses(body in solver_body()) {
        // The review takes no strategy: a body naming one is a near miss of its own.
        near_miss("/api/review", body)?;
    }

    #[test]
    fn bench_near_misses(body in game_body(vec![
        ("strategies", 0.5, strategies_list().boxed()),
    ])) {
        near_miss("/api/bench", body)?;
    }

    #[test]
    fn tree_near_misses(body in game_body(vec![
        ("strategy", 0.7, strategy_name().boxed()),
    ])) {
        near_miss("/api/trees", body)?;
    }
}

/// `tree:PATH` used to reach `TreeStrategy::from_file`: the server read any file named, quoting
/// parts of it back in the parse error, and `/dev/stdin` or `/dev/zero` held a job slot forever
/// or filled memory. Now such names are refused before anything is opened.
#[test]
fn strategies_that_would_read_server_files_are_refused() {
    let rules = json!({ "length": 2, "symbols": "012", "repeats": false });
    for name in [
        "tree:/dev/stdin",
        "tree:/dev/zero",
        "tree:FILE",
        "tree:Cargo.toml",
    ] {
        for (uri, body) in [
            ("/api/solver", json!({ "rules": rules, "strategy": name })),
            ("/api/trees", json!({ "rules": rules, "strategy": name })),
            (
                "/api/bench",
                json!({ "rules": rules, "strategies": [name] }),
            ),
        ] {
            let (status, answer) = post(uri, body);
            assert_eq!(
                status,
                StatusCode::UNPROCESSABLE_ENTITY,
                "{uri} {name}: {answer:?}"
            );
            let message = answer.unwrap()["error"].as_str().unwrap().to_string();
            assert!(
                message.contains(name) && message.contains("would read a file on the server"),
                "{uri} {name}: {message}"
            );
        }
    }
}

/// The lowered limits still leave room for real work, so the properties above reach the
/// handlers' computations and not only their refusals.
#[test]
fn valid_bodies_succeed_under_the_lowered_limits() {
    let rules = json!({ "length": 2, "symbols": "012", "repeats": false });
    let (status, game) = post("/api/games", json!({ "rules": rules, "seed": 1 }));
    assert_eq!(status, StatusCode::CREATED, "{game:?}");
    let history = json!([{ "guess": "01", "feedback": "0B1C" }]);
    for (uri, body) in [
        ("/api/solver", json!({ "rules": rules, "history": history })),
        (
            "/api/solver",
            json!({ "rules": rules, "strategy": "knuth" }),
        ),
        ("/api/bench", json!({ "rules": rules })),
        (
            "/api/trees",
            json!({ "rules": rules, "strategy": "simple" }),
        ),
        // The deepest tree the limits allow: 64 guesses of brute force, nested past 128 levels.
        (
            "/api/trees",
            json!({ "rules": { "length": 3, "symbols": "0123", "repeats": true }, "strategy": "enumerate" }),
        ),
    ] {
        let (status, answer) = post(uri, body);
        assert_eq!(status, StatusCode::OK, "{uri}: {answer:?}");
        assert!(answer.is_some(), "{uri}: not JSON");
    }
}
