//! `POST /api/review`: the core's review of a game, as `moo review --json` prints it.

use std::time::Duration;

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::{json, Value};
use tower::ServiceExt;

async fn post(config: moo_web::Config, body: Value) -> (StatusCode, Value) {
    let request = Request::builder()
        .method("POST")
        .uri("/api/review")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    let response = moo_web::router(config).oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 24)
        .await
        .unwrap();
    (status, serde_json::from_slice(&bytes).unwrap())
}

fn patient() -> moo_web::Config {
    let mut config = moo_web::Config::default();
    // Generous, so a loaded machine still proves every move.
    config.service.time_limit = Duration::from_secs(60);
    config.service.review_time_limit = Duration::from_secs(120);
    config
}

fn history(turns: &[(&str, &str)]) -> Value {
    turns
        .iter()
        .map(|(g, f)| json!({ "guess": g, "feedback": f }))
        .collect()
}

#[tokio::test]
async fn a_mastermind_game_is_reviewed_move_by_move() {
    let body = json!({
        "preset": "mastermind",
        "history": history(&[("1122", "1B0C"), ("1122", "1B0C"), ("1344", "0B2C")]),
    });
    let (status, v) = post(patient(), body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["proven"], true);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    // Koyama and Lai: 5625 guesses over the 1296 secrets.
    assert_eq!(v["optimal_expected"], 5625.0 / 1296.0);
    assert_eq!(moves[1]["repeats_turn"], 1);
    assert_eq!(moves[1]["cost"], 1.0);
    assert_eq!(moves[1]["told_nothing_apart"], true);
    let sum: f64 = moves.iter().map(|m| m["cost"].as_f64().unwrap()).sum();
    assert_eq!(v["total_cost"].as_f64().unwrap(), sum);
}

#[tokio::test]
async fn contradictions_are_reported_and_bad_turns_refused() {
    let body = json!({
        "preset": "bulls",
        "history": history(&[("0123", "0B0C"), ("4567", "0B0C")]),
    });
    let (status, v) = post(patient(), body).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert!(v["moves"].as_array().unwrap().is_empty());
    assert_eq!(v["contradiction"]["single_change_fixes"], true);

    let after_win = json!({
        "preset": "bulls",
        "history": history(&[("0123", "4B"), ("4567", "0B0C")]),
    });
    let (status, v) = post(patient(), after_win).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"]
        .as_str()
        .unwrap()
        .contains("after the game was won"));

    let bad = json!({ "preset": "bulls", "history": history(&[("0123", "5B")]) });
    let (status, v) = post(patient(), bad).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].as_str().unwrap().contains("turn 1"));
}

#[tokio::test]
async fn a_review_out_of_time_says_so_rather_than_hanging() {
    let mut config = moo_web::Config::default();
    config.service.review_time_limit = Duration::from_millis(1);
    // 7 digits: 604800 codes, far too many to prove anything in a millisecond.
    let rules = moo_core::Rules::new(7, "0123456789", false, false).unwrap();
    let secret = rules.parse_code("9876543").unwrap();
    let turns: Vec<(&str, String)> = ["0123456", "7890123", "9876540"]
        .into_iter()
        .map(|g| (g, rules.parse_code(g).unwrap().score(&secret).to_string()))
        .collect();
    let turns: Vec<(&str, &str)> = turns.iter().map(|(g, f)| (*g, f.as_str())).collect();
    let body = json!({
        "rules": { "length": 7, "symbols": "0123456789", "repeats": false },
        "history": history(&turns),
    });
    let (status, v) = post(config, body).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{v}");
    assert!(v["error"].as_str().is_some(), "{v}");
}
