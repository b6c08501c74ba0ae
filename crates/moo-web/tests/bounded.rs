//! The server's time bound, in a test binary of its own: cargo runs test binaries one after
//! another, so no other test's searches share the process's thread pools and the times measured
//! are this test's alone.

use std::time::{Duration, Instant};

use axum::http::StatusCode;

mod common;
use common::{ok, post};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_big_solver_request_is_bounded_and_the_server_stays_responsive() {
    let config = moo_web::Config::default();
    let limit = config.service.time_limit;
    let app = moo_web::router(config);
    // Mastermind once first, so the check below measures waiting on the big request, not the
    // first build of the Mastermind space on a machine shared with the compiler.
    let (status, _) = post(&app, "/api/solver", r#"{"preset":"mastermind"}"#).await;
    assert_eq!(status, StatusCode::OK);
    // 1024 codes with no tree: the advisor must answer within the server's limit.
    let start = Instant::now();
    let step = ok(post(
        &app,
        "/api/solver",
        r#"{"rules":{"length":10,"symbols":"12","repeats":true}}"#,
    )
    .await);
    assert!(step["advice"]["guess"].is_string(), "{step}");
    assert_eq!(step["remaining"], 1024);
    // The limit plus the heavy pool's grace: a real bound, generous for a loaded machine.
    let took = start.elapsed();
    assert!(took < limit + Duration::from_secs(1), "{took:?}");
    // Nothing is left holding a lock or a worker: a plain request right after is quick.
    let start = Instant::now();
    let step = ok(post(
        &app,
        "/api/solver",
        r#"{"preset":"mastermind","history":[{"guess":"1122","feedback":"1B0C"}]}"#,
    )
    .await);
    assert!(step["advice"]["proven_optimal"] == true, "{step}");
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}
