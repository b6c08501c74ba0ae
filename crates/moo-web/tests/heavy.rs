//! Heavy work through the API, in process: past its time limit it answers 503, and while it runs
//! light requests are still answered.

use std::time::Duration;

use axum::http::StatusCode;

mod common;
use common::{call_with, post};

#[tokio::test]
async fn work_past_the_time_limit_answers_503_and_the_server_stays_up() {
    let mut config = moo_web::Config::default();
    config.service.bench_time_limit = Duration::ZERO;
    let app = moo_web::router(config);
    let (status, bench) = post(&app, "/api/bench", r#"{"preset":"bulls"}"#).await;
    // Which deadline fires first is a race: each strategy's own check (an error row for every
    // strategy, 200) or the server's (503). Either way nothing may come back as a result.
    let errors: Vec<String> = match status {
        StatusCode::OK => bench["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| {
                r["error"]
                    .as_str()
                    .unwrap_or_else(|| panic!("a result past the limit: {r}"))
                    .to_string()
            })
            .collect(),
        StatusCode::SERVICE_UNAVAILABLE => vec![bench["error"].as_str().unwrap().to_string()],
        other => panic!("{other}: {bench}"),
    };
    assert!(!errors.is_empty());
    for e in errors {
        assert!(e.contains("limit"), "{e}");
    }
    let (status, _) = call_with(app, "GET", "/api/presets", None).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_computation_does_not_stall_other_clients() {
    let mut config = moo_web::Config::default();
    config.heavy_jobs = 1;
    config.service.bench_time_limit = Duration::from_secs(3);
    config.service.bench_max_codes = 30240;
    let app = moo_web::router(config);
    // Enumerating codes one by one against every secret of 5 distinct digits takes about 450
    // million guesses, far longer than 3 s.
    let slow = tokio::spawn(call_with(
        app.clone(),
        "POST",
        "/api/bench",
        Some(
            r#"{"rules":{"length":5,"symbols":"0123456789","repeats":false},"strategies":["enumerate"]}"#,
        ),
    ));
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Light requests are answered while it runs...
    let (status, _) = post(&app, "/api/games", "{}").await;
    assert_eq!(status, StatusCode::CREATED);
    assert!(
        !slow.is_finished(),
        "the slow benchmark should still be running"
    );
    // ...and the slow one is cut off at the limit: normally by itself, as an error row, or if the
    // machine is too loaded for it to notice in time, by the server's 503.
    let (status, bench) = slow.await.unwrap();
    let error = match status {
        StatusCode::OK => bench["results"][0]["error"].as_str().unwrap().to_string(),
        StatusCode::SERVICE_UNAVAILABLE => bench["error"].as_str().unwrap().to_string(),
        other => panic!("{other}: {bench}"),
    };
    assert!(error.contains("limit"), "{error}");
}
