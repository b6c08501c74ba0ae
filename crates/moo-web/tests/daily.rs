//! The daily puzzle's routes: the day's game answers feedback only, refuses hints, and shows the
//! secret once over; its result needs the game over; the record's statistics refuse a bad file.

mod common;

use axum::http::StatusCode;
use common::{assert_error, call_with, ok, post};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_daily_game_shows_its_secret_only_at_the_end() {
    let app = moo_web::router(moo_web::Config::default());
    let call = |method: &'static str, uri: String, body: Option<String>| {
        let app = app.clone();
        async move { call_with(app, method, &uri, body.as_deref()).await }
    };
    let day = json!({"daily": {"game": "bulls", "date": "2024-01-01"}}).to_string();
    let (status, game) = call("POST", "/api/games".into(), Some(day)).await;
    assert_eq!(status, StatusCode::CREATED);
    assert_eq!(
        game["daily"],
        json!({"game": "bulls", "date": "2024-01-01", "number": 1})
    );
    let id = game["id"].as_str().unwrap().to_string();
    let guess = |g: &str| Some(json!({ "guess": g }).to_string());
    let (_, game) = call("POST", format!("/api/games/{id}/guesses"), guess("0123")).await;
    assert_eq!(game["secret"], json!(null));
    assert!(!game.to_string().contains("4951"), "{game}");
    assert_error(
        call("GET", format!("/api/games/{id}/hint"), None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no hints",
    );
    let result = |guesses: &[&str], gave_up: bool| {
        Some(
            json!({"game": "bulls", "date": "2024-01-01", "guesses": guesses, "gave_up": gave_up})
                .to_string(),
        )
    };
    assert_error(
        call("POST", "/api/daily/result".into(), result(&["0123"], false)).await,
        StatusCode::CONFLICT,
        "once its game is over",
    );
    let (_, game) = call("POST", format!("/api/games/{id}/guesses"), guess("4951")).await;
    assert_eq!(
        (game["won"].clone(), game["secret"].clone()),
        (json!(true), json!("4951"))
    );
    let r = ok(call(
        "POST",
        "/api/daily/result".into(),
        result(&["0123", "4951"], false),
    )
    .await);
    assert_eq!(r["secret"], "4951");
    assert!(
        r["share"]
            .as_str()
            .unwrap()
            .starts_with("moo daily #1 · Bulls and Cows · solved in 2\n"),
        "{r}"
    );
    assert_eq!(r["result"]["guesses"], 2);
    let (status, r) = call("POST", "/api/daily/result".into(), result(&[], true)).await;
    assert_eq!(
        (status, r["share"].clone()),
        (
            StatusCode::OK,
            json!("moo daily #1 · Bulls and Cows · not solved after 0\n\nno guess played")
        )
    );
    for (body, needle) in [
        (
            json!({"daily": {"game": "bulls", "date": "2023-12-31"}}),
            "no daily puzzle on 2023-12-31",
        ),
        (
            json!({"daily": {"game": "bulls", "date": "9999-01-01"}}),
            "is not out yet",
        ),
        (
            json!({"daily": {"game": "bulls", "date": "2024-01-01"}, "preset": "bulls"}),
            "leave out",
        ),
    ] {
        assert_error(
            call("POST", "/api/games".into(), Some(body.to_string())).await,
            StatusCode::UNPROCESSABLE_ENTITY,
            needle,
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_record_counts_streaks_and_refuses_a_bad_file() {
    let app = moo_web::router(moo_web::Config::default());
    let add = |date: &str| json!({"game": "mastermind", "date": date, "guesses": 5, "won": true, "cost": 0.5});
    let mut record = String::new();
    for date in ["2026-03-01", "2026-03-02"] {
        let body = json!({"today": "2026-03-02", "record": record, "add": add(date)});
        let r = ok(post(&app, "/api/daily/stats", &body.to_string()).await);
        record = r["file"].as_str().unwrap().to_string();
        if date == "2026-03-02" {
            assert_eq!(r["stats"][1]["current_streak"], 2, "{r}");
            assert_eq!(r["stats"][1]["distribution"], json!([0, 0, 0, 0, 2]));
            assert_eq!(r["stats"][0]["played"], 0);
        }
    }
    let bad = json!({"today": "2026-03-02", "record": record, "import": "{\"version\": 7}"});
    assert_error(
        post(&app, "/api/daily/stats", &bad.to_string()).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "version 7, and this moo reads version 1",
    );
    let again = json!({"today": "2026-03-03", "record": record, "import": record});
    let (_, r) = post(&app, "/api/daily/stats", &again.to_string()).await;
    assert_eq!(
        (
            r["imported"].clone(),
            r["stats"][1]["current_streak"].clone()
        ),
        (json!(0), json!(2))
    );
}
