//! The two transports of the one service answer alike: every request the pages make (and the
//! bad ones a client can send), through `moo serve`'s router and through
//! `Service::dispatch`, the routing the WebAssembly build runs in the browser, gets the same
//! status and the same JSON, timings aside. The WebAssembly build itself is compared with the
//! native one in the browser by the static site's end-to-end test.

mod common;

use moo_service::{Limits, Service};
use serde_json::Value;

/// Timings differ run to run; everything else must not.
fn without_timings(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|k, _| {
                !(k.contains("second") || k.contains("elapsed") || k.ends_with("_ms"))
            });
            map.values_mut().for_each(without_timings);
        }
        Value::Array(items) => items.iter_mut().for_each(without_timings),
        _ => {}
    }
}

/// A request of the script: method, path (`{id}` stands for the game the script started on
/// each side) and body.
type Step = (&'static str, &'static str, Option<&'static str>);

const SCRIPT: &[Step] = &[
    ("GET", "/api/presets", None),
    ("GET", "/api/strategies", None),
    (
        "POST",
        "/api/games",
        Some(r#"{"seed":"12345678901234567890"}"#),
    ),
    ("GET", "/api/games/{id}", None),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"0123"}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"0123"}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"0012"}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"gues":"4567"}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"4567"}"#),
    ),
    ("GET", "/api/games/{id}/hint", None),
    ("POST", "/api/games/{id}/give-up", None),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"8901"}"#),
    ),
    ("GET", "/api/games/{id}/hint", None),
    ("GET", "/api/games/0123456789abcdef/hint", None),
    ("POST", "/api/games", Some(r#"{"seed":"x"}"#)),
    (
        "POST",
        "/api/games",
        Some(r#"{"preset":"mastermind","rules":{"length":4,"symbols":"123456","repeats":true}}"#),
    ),
    (
        "POST",
        "/api/games",
        Some(r#"{"rules":{"length":3,"symbols":"","repeats":false}}"#),
    ),
    (
        "POST",
        "/api/solver",
        Some(r#"{"history":[{"guess":"0123","feedback":"1B1C"}]}"#),
    ),
    (
        "POST",
        "/api/solver",
        Some(r#"{"preset":"mastermind","history":[{"guess":"1122","feedback":"1B0C"}],"list":5}"#),
    ),
    (
        "POST",
        "/api/solver",
        Some(r#"{"history":[{"guess":"0123","feedback":"4B1C"}]}"#),
    ),
    (
        "POST",
        "/api/solver",
        Some(
            r#"{"history":[{"guess":"0123","feedback":"0B0C"},{"guess":"4567","feedback":"0B0C"}]}"#,
        ),
    ),
    ("POST", "/api/solver", Some(r#"{"strategy":"nope"}"#)),
    ("POST", "/api/solver", Some(r#"{"strategy":"knuth"}"#)),
    (
        "POST",
        "/api/review",
        Some(
            r#"{"history":[{"guess":"0123","feedback":"0B1C"},{"guess":"4567","feedback":"1B1C"}]}"#,
        ),
    ),
    (
        "POST",
        "/api/review",
        Some(
            r#"{"preset":"mastermind","history":[{"guess":"1122","feedback":"1B1C"},{"guess":"1344","feedback":"4B0C"}]}"#,
        ),
    ),
    (
        "POST",
        "/api/bench",
        Some(
            r#"{"rules":{"length":3,"symbols":"012345","repeats":false},"strategies":["simple","knuth","simple"]}"#,
        ),
    ),
    (
        "POST",
        "/api/trees",
        Some(r#"{"rules":{"length":3,"symbols":"01234","repeats":true},"strategy":"knuth"}"#),
    ),
    (
        "POST",
        "/api/trees",
        Some(r#"{"rules":{"length":3,"symbols":"01234","repeats":true}}"#),
    ),
    (
        "POST",
        "/api/trees/view",
        Some(r#"{"rules":{"length":3,"symbols":"0123","repeats":false},"strategy":"simple"}"#),
    ),
    ("POST", "/api/trees/view", Some(r#"{"tree":{"nope":1}}"#)),
    ("POST", "/api/trees/view", Some(r#"{}"#)),
    ("POST", "/api/solver", Some(r#"{"history": [}"#)),
    ("POST", "/api/solver", Some(r#"[1,2]"#)),
    ("GET", "/api/solver", None),
    ("GET", "/api/nothing", None),
    // The daily puzzle: feedback only and no hints until the end, then its result and record.
    (
        "POST",
        "/api/games",
        Some(r#"{"daily":{"game":"bulls","date":"2024-01-01"}}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"0123"}"#),
    ),
    ("GET", "/api/games/{id}/hint", None),
    (
        "POST",
        "/api/daily/result",
        Some(r#"{"game":"bulls","date":"2024-01-01","guesses":["0123"]}"#),
    ),
    (
        "POST",
        "/api/daily/result",
        Some(r#"{"game":"bulls","date":"2024-01-01","guesses":["0123","4951"]}"#),
    ),
    (
        "POST",
        "/api/daily/stats",
        Some(
            r#"{"today":"2024-01-02","add":{"game":"bulls","date":"2024-01-01","guesses":2,"won":true,"cost":0.1}}"#,
        ),
    ),
    (
        "POST",
        "/api/daily/stats",
        Some(r#"{"today":"2024-01-02","import":"{}"}"#),
    ),
    (
        "POST",
        "/api/games",
        Some(r#"{"daily":{"game":"mastermind","date":"2023-12-31"}}"#),
    ),
    (
        "POST",
        "/api/games",
        Some(r#"{"daily":{"game":"bulls","date":"2024-01-01"},"seed":"1"}"#),
    ),
    // Against the adversary: no secret, and at the end a code that fits every answer.
    (
        "POST",
        "/api/games",
        Some(r#"{"adversary":true,"seed":"5"}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"0123"}"#),
    ),
    ("POST", "/api/games/{id}/give-up", None),
    (
        "POST",
        "/api/games",
        Some(r#"{"adversary":true,"rules":{"length":3,"symbols":"1234","repeats":true}}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"112"}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"134"}"#),
    ),
    ("GET", "/api/games/{id}/hint", None),
    ("POST", "/api/games/{id}/give-up", None),
    (
        "POST",
        "/api/games",
        Some(r#"{"adversary":true,"rules":{"length":6,"symbols":"0123456789","repeats":false}}"#),
    ),
    ("DELETE", "/api/games/{id}", None),
    // The duel: a round lost at once (perfect play opens with the secret 0123), moves out of
    // turn, bad levels and secrets, and typed answers.
    (
        "POST",
        "/api/duels",
        Some(r#"{"seed":"5","level":4,"secret":"0123"}"#),
    ),
    ("GET", "/api/duels/{id}", None),
    (
        "POST",
        "/api/duels/{id}/moves",
        Some(r#"{"answer":"1B1C"}"#),
    ),
    ("POST", "/api/duels/{id}/moves", Some(r#"{"guess":"4567"}"#)),
    ("POST", "/api/duels/{id}/moves", Some(r#""give_up""#)),
    ("POST", "/api/duels", Some(r#"{"level":0}"#)),
    (
        "POST",
        "/api/duels",
        Some(r#"{"seed":"3","secret":"0012"}"#),
    ),
    ("POST", "/api/duels", Some(r#"{"seed":"3","level":1}"#)),
    ("POST", "/api/duels/{id}/moves", Some(r#"{"guess":"0123"}"#)),
    (
        "POST",
        "/api/duels/{id}/moves",
        Some(r#"{"answer":"0B0C"}"#),
    ),
    (
        "POST",
        "/api/duels/{id}/moves",
        Some(r#"{"fix":{"turn":1,"answer":"1B1C"}}"#),
    ),
    ("POST", "/api/duels/{id}/moves", Some(r#"{"dance":1}"#)),
    // Hard mode: 4567 cannot be seed 3's secret once 0123 got 1 bull and 1 cow.
    ("POST", "/api/games", Some(r#"{"hard":true,"seed":"3"}"#)),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"0123"}"#),
    ),
    (
        "POST",
        "/api/games/{id}/guesses",
        Some(r#"{"guess":"4567"}"#),
    ),
    ("GET", "/api/games/{id}/hint", None),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_and_the_in_browser_dispatch_answer_alike() {
    let app = moo_web::router(moo_web::Config::default());
    let service = Service::new(Limits::default());
    let (mut server_game, mut browser_game) = (String::new(), String::new());
    for &(method, path, body) in SCRIPT {
        let (served, mut server) = common::call_with(
            app.clone(),
            method,
            &path.replace("{id}", &server_game),
            body,
        )
        .await;
        let path_here = path.replace("{id}", &browser_game);
        let reply = tokio::task::block_in_place(|| {
            service.dispatch(
                method,
                &path_here,
                body.unwrap_or(""),
                moo_core::Stop::after,
            )
        });
        let mut browser: Value = serde_json::from_str(&reply.body).unwrap();
        if method == "POST" && ["/api/games", "/api/duels"].contains(&path) && reply.status == 201 {
            server_game = server["id"].as_str().unwrap().to_string();
            browser_game = browser["id"].as_str().unwrap().to_string();
        }
        for (answer, id) in [(&mut server, &server_game), (&mut browser, &browser_game)] {
            if answer["id"].as_str() == Some(id.as_str()) {
                answer["id"] = Value::from("the game");
            }
            without_timings(answer);
        }
        let what = format!("{method} {path} {}", body.unwrap_or(""));
        assert_eq!(
            served.as_u16(),
            reply.status,
            "{what}: {server} against {browser}"
        );
        assert_eq!(server, browser, "{what}");
        if reply.status >= 400 {
            assert!(browser["code"].is_string(), "{what}: no code in {browser}");
        }
    }
}
