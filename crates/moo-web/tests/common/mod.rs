//! One request to the server's router, answered in process, for the router tests. Each test
//! binary uses its own part of these helpers.
#![allow(dead_code)]

use axum::body::Body;
use axum::http::{Request, StatusCode};
use moo_core::strategy::{self, StrategyOptions};
use moo_core::{CodeSpace, Rules};
use serde_json::Value;
use tower::ServiceExt;

/// Sends `method uri` with an optional JSON body to `app`; returns the status and the JSON
/// answer (`Null` when the body is not JSON).
pub async fn call_with(
    app: axum::Router,
    method: &str,
    uri: &str,
    body: Option<&str>,
) -> (StatusCode, Value) {
    let mut req = Request::builder().method(method).uri(uri);
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    let req = req
        .body(Body::from(body.unwrap_or("").to_string()))
        .unwrap();
    let res = app.oneshot(req).await.unwrap();
    let status = res.status();
    let bytes = axum::body::to_bytes(res.into_body(), 1 << 24)
        .await
        .unwrap();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

/// `POST uri` with the JSON `body` to `app` (a clone of it: the router is a handle): the status
/// and the answer, as [`call_with`] gives them.
pub async fn post(app: &axum::Router, uri: &str, body: &str) -> (StatusCode, Value) {
    call_with(app.clone(), "POST", uri, Some(body)).await
}

pub async fn call(method: &str, uri: &str, body: Option<&str>) -> (StatusCode, Value) {
    call_with(
        moo_web::router(moo_web::Config::default()),
        method,
        uri,
        body,
    )
    .await
}

/// The JSON answer of `got`, which must be 200 OK (the answer shown when not): most tests go
/// on to read the answer of a request that must succeed.
#[track_caller]
pub fn ok(got: (StatusCode, Value)) -> Value {
    assert_eq!(got.0, StatusCode::OK, "{}", got.1);
    got.1
}

/// A bad request must get the given status and a JSON error mentioning `needle`.
pub fn assert_error(got: (StatusCode, Value), status: StatusCode, needle: &str) {
    assert_eq!(got.0, status, "{}", got.1);
    let msg = got.1["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error field in {}", got.1));
    assert!(msg.contains(needle), "{msg:?} should mention {needle:?}");
}

/// A count as the pages write it: 5,040.
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Secrets and total guesses of the `simple` strategy over a whole space, through the core harness.
pub fn simple_totals(rules: Rules) -> (usize, usize) {
    let space = CodeSpace::new(rules).unwrap();
    let mut s = strategy::by_name("simple", &space, &StrategyOptions::default()).unwrap();
    let total = space
        .codes()
        .iter()
        .map(|secret| {
            strategy::play(s.as_mut(), &space, secret, 30)
                .unwrap()
                .len()
        })
        .sum();
    (space.len(), total)
}
