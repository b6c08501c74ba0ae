//! Bad input through the API, in process, one test per kind: each gets its status and a message
//! that tells a web user what was wrong.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use serde_json::json;
use tower::ServiceExt;

mod common;
use common::{assert_error, call, call_with, post};

#[tokio::test]
async fn malformed_json_is_refused() {
    assert_error(
        call("POST", "/api/games", Some(r#"{"preset": "#)).await,
        StatusCode::BAD_REQUEST,
        "not valid JSON",
    );
    assert_error(
        call("POST", "/api/games", Some(r#"{"preset": "chess"}"#)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "preset",
    );
    assert_error(
        call("POST", "/api/solver", Some(r#"{"histroy": []}"#)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "histroy",
    );
    assert_error(
        call(
            "POST",
            "/api/games",
            Some(r#"{"preset":"bulls","rules":{"length":3,"symbols":"abc","repeats":false}}"#),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "either",
    );
}

#[tokio::test]
async fn a_body_without_json_content_type_is_refused() {
    let app = moo_web::router(moo_web::Config::default());
    let req = Request::builder()
        .method("POST")
        .uri("/api/games")
        .body(Body::from("{}"))
        .unwrap();
    let res = app.oneshot(req).await.unwrap();
    assert_eq!(res.status(), StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn an_unknown_game_id_is_refused() {
    assert_error(
        call("GET", "/api/games/0123abcd", None).await,
        StatusCode::NOT_FOUND,
        "no live game",
    );
    assert_error(
        call("POST", "/api/games/x/guesses", Some(r#"{"guess":"0123"}"#)).await,
        StatusCode::NOT_FOUND,
        "POST /api/games",
    );
    assert_error(
        call("GET", "/api/games/x/hint", None).await,
        StatusCode::NOT_FOUND,
        "no live game",
    );
}

#[tokio::test]
async fn an_invalid_code_is_refused() {
    let app = moo_web::router(moo_web::Config::default());
    let (_, g) = post(&app, "/api/games", "{}").await;
    let uri = format!("/api/games/{}/guesses", g["id"].as_str().unwrap());
    for (guess, needle) in [("0012", "repeats '0'"), ("12", "4"), ("01a3", "'a'")] {
        let got = call_with(
            app.clone(),
            "POST",
            &uri,
            Some(&json!({ "guess": guess }).to_string()),
        )
        .await;
        assert_error(got, StatusCode::UNPROCESSABLE_ENTITY, needle);
    }
    let bad_feedback = call(
        "POST",
        "/api/solver",
        Some(r#"{"history":[{"guess":"0123","feedback":"3B1C"}]}"#),
    )
    .await;
    assert_error(bad_feedback, StatusCode::UNPROCESSABLE_ENTITY, "turn 1");
}

#[tokio::test]
async fn invalid_rules_and_too_large_spaces_are_refused_with_the_limit() {
    assert_error(
        call(
            "POST",
            "/api/games",
            Some(r#"{"rules":{"length":5,"symbols":"0123","repeats":false}}"#),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "at least 5 symbols",
    );
    let big = r#"{"rules":{"length":8,"symbols":"0123456789","repeats":true}}"#;
    // Playing needs no enumeration, so any valid rules can be played...
    let (status, game) = call("POST", "/api/games", Some(big)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    // ...but the solver, benchmark and trees refuse spaces over their limits, and say the limit.
    let limit = moo_core::space::MAX_CODES.to_string();
    assert_error(
        call("POST", "/api/solver", Some(big)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        &limit,
    );
    assert_error(
        call("POST", "/api/bench", Some(big)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "at most 5040 codes",
    );
    assert_error(
        call("POST", "/api/trees", Some(big)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "at most 5040 codes",
    );
}

#[tokio::test]
async fn oversized_bodies_are_refused() {
    let body = json!({ "guess": "7".repeat(100_000) }).to_string();
    assert_error(
        call("POST", "/api/games", Some(&body)).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        "larger than",
    );
}

#[tokio::test]
async fn unknown_routes_methods_and_strategies_are_refused() {
    assert_error(
        call("GET", "/api/nothing", None).await,
        StatusCode::NOT_FOUND,
        "no such API route",
    );
    assert_error(
        call("DELETE", "/api/games", None).await,
        StatusCode::METHOD_NOT_ALLOWED,
        "method",
    );
    assert_error(
        call("POST", "/api/solver", Some(r#"{"strategy":"psychic"}"#)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "psychic",
    );
    assert_error(
        call("POST", "/api/bench", Some(r#"{"strategies":["psychic"]}"#)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "psychic",
    );
}

#[tokio::test]
async fn messages_speak_to_web_users_not_to_programmers() {
    for (body, status) in [
        // A wrong type: no Rust type names, no parser positions.
        (
            r#"{"preset":"bulls","history":[{"guess":1234,"feedback":"0B0C"}]}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (r#"{"rules":"bulls"}"#, StatusCode::UNPROCESSABLE_ENTITY),
        // Rules the library refuses with a command-line flag in its message.
        (
            r#"{"rules":{"length":4,"symbols":"","repeats":true}}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            r#"{"rules":{"length":1,"symbols":"0","repeats":true,"no_leading":true}}"#,
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
    ] {
        for route in ["/api/solver", "/api/games"] {
            let (got, v) = call("POST", route, Some(body)).await;
            assert_eq!(got, status, "{body}: {v}");
            let msg = v["error"].as_str().unwrap();
            for jargon in ["line 1", "column", "struct", "--", "RulesSpec"] {
                assert!(
                    !msg.contains(jargon),
                    "{route} {body}: {msg:?} says {jargon:?}"
                );
            }
        }
    }
}

#[tokio::test]
async fn the_size_limit_is_said_and_the_game_cap_says_how_long_to_wait() {
    let config = moo_web::Config::default();
    let body = json!({ "guess": "7".repeat(100_000) }).to_string();
    assert_error(
        call("POST", "/api/games", Some(&body)).await,
        StatusCode::PAYLOAD_TOO_LARGE,
        &config.service.body_limit.to_string(),
    );
    // A full store: the wait is the one a game must be idle before a new one may replace it
    // (games live 30 minutes idle, so "a few minutes" would be wrong both ways).
    let mut config = moo_web::Config::default();
    config.service.max_games = 1;
    let wait = format!("{} seconds", config.service.evict_idle.as_secs());
    let app = moo_web::router(config);
    post(&app, "/api/games", "{}").await;
    let (status, full) = post(&app, "/api/games", "{}").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{full}");
    let msg = full["error"].as_str().unwrap();
    assert!(msg.contains(&wait) && !msg.contains("few minutes"), "{msg}");
}
