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

/// The script's requests, one a line: method, path (`{id}` stands for the game the script
/// started on each side) and the body, if any, after a space; `#` starts a comment line.
const SCRIPT: &str = r#"
GET /api/presets
GET /api/strategies
POST /api/games {"seed":"12345678901234567890"}
GET /api/games/{id}
POST /api/games/{id}/guesses {"guess":"0123"}
POST /api/games/{id}/guesses {"guess":"0123"}
POST /api/games/{id}/guesses {"guess":"0012"}
POST /api/games/{id}/guesses {"gues":"4567"}
POST /api/games/{id}/guesses {"guess":"4567"}
GET /api/games/{id}/hint
POST /api/games/{id}/give-up
POST /api/games/{id}/guesses {"guess":"8901"}
GET /api/games/{id}/hint
GET /api/games/0123456789abcdef/hint
POST /api/games {"seed":"x"}
POST /api/games {"preset":"mastermind","rules":{"length":4,"symbols":"123456","repeats":true}}
POST /api/games {"rules":{"length":3,"symbols":"","repeats":false}}
POST /api/solver {"history":[{"guess":"0123","feedback":"1B1C"}]}
POST /api/solver {"preset":"mastermind","history":[{"guess":"1122","feedback":"1B0C"}],"list":5}
POST /api/solver {"history":[{"guess":"0123","feedback":"4B1C"}]}
POST /api/solver {"history":[{"guess":"0123","feedback":"0B0C"},{"guess":"4567","feedback":"0B0C"}]}
POST /api/solver {"strategy":"nope"}
POST /api/solver {"strategy":"knuth"}
POST /api/review {"history":[{"guess":"0123","feedback":"0B1C"},{"guess":"4567","feedback":"1B1C"}]}
POST /api/review {"preset":"mastermind","history":[{"guess":"1122","feedback":"1B1C"},{"guess":"1344","feedback":"4B0C"}]}
POST /api/bench {"rules":{"length":3,"symbols":"012345","repeats":false},"strategies":["simple","knuth","simple"]}
POST /api/trees {"rules":{"length":3,"symbols":"01234","repeats":true},"strategy":"knuth"}
POST /api/trees {"rules":{"length":3,"symbols":"01234","repeats":true}}
POST /api/trees/view {"rules":{"length":3,"symbols":"0123","repeats":false},"strategy":"simple"}
POST /api/trees/view {"tree":{"nope":1}}
POST /api/trees/view {}
POST /api/solver {"history": [}
POST /api/solver [1,2]
GET /api/solver
GET /api/nothing
# The daily puzzle: feedback only and no hints until the end, then its result and record.
POST /api/games {"daily":{"game":"bulls","date":"2024-01-01"}}
POST /api/games/{id}/guesses {"guess":"0123"}
GET /api/games/{id}/hint
POST /api/daily/result {"game":"bulls","date":"2024-01-01","guesses":["0123"]}
POST /api/daily/result {"game":"bulls","date":"2024-01-01","guesses":["0123","4951"]}
POST /api/daily/stats {"today":"2024-01-02","add":{"game":"bulls","date":"2024-01-01","guesses":2,"won":true,"cost":0.1}}
POST /api/daily/stats {"today":"2024-01-02","import":"{}"}
POST /api/games {"daily":{"game":"mastermind","date":"2023-12-31"}}
POST /api/games {"daily":{"game":"bulls","date":"2024-01-01"},"seed":"1"}
# Against the adversary: no secret, and at the end a code that fits every answer.
POST /api/games {"adversary":true,"seed":"5"}
POST /api/games/{id}/guesses {"guess":"0123"}
POST /api/games/{id}/give-up
POST /api/games {"adversary":true,"rules":{"length":3,"symbols":"1234","repeats":true}}
POST /api/games/{id}/guesses {"guess":"112"}
POST /api/games/{id}/guesses {"guess":"134"}
GET /api/games/{id}/hint
POST /api/games/{id}/give-up
POST /api/games {"adversary":true,"rules":{"length":6,"symbols":"0123456789","repeats":false}}
DELETE /api/games/{id}
# The duel: a round lost at once (perfect play opens with the secret 0123), moves out of
# turn, bad levels and secrets, and typed answers.
POST /api/duels {"seed":"5","level":4,"secret":"0123"}
GET /api/duels/{id}
POST /api/duels/{id}/moves {"answer":"1B1C"}
POST /api/duels/{id}/moves {"guess":"4567"}
POST /api/duels/{id}/moves "give_up"
POST /api/duels {"level":0}
POST /api/duels {"seed":"3","secret":"0012"}
POST /api/duels {"seed":"3","level":1}
POST /api/duels/{id}/moves {"guess":"0123"}
POST /api/duels/{id}/moves {"answer":"0B0C"}
POST /api/duels/{id}/moves {"fix":{"turn":1,"answer":"1B1C"}}
POST /api/duels/{id}/moves {"dance":1}
# Hard mode: 4567 cannot be seed 3's secret once 0123 got 1 bull and 1 cow.
POST /api/games {"hard":true,"seed":"3"}
POST /api/games/{id}/guesses {"guess":"0123"}
POST /api/games/{id}/guesses {"guess":"4567"}
GET /api/games/{id}/hint
"#;

/// The requests of [`SCRIPT`] as (method, path, body).
fn steps() -> impl Iterator<Item = (&'static str, &'static str, Option<&'static str>)> {
    SCRIPT
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let mut words = line.splitn(3, ' ');
            let method = words.next().unwrap();
            let path = words.next().unwrap();
            (method, path, words.next())
        })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_router_and_the_in_browser_dispatch_answer_alike() {
    let app = moo_web::router(moo_web::Config::default());
    let service = Service::new(Limits::default());
    let (mut server_game, mut browser_game) = (String::new(), String::new());
    for (method, path, body) in steps() {
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
