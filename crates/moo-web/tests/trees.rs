//! Trees and benchmarks through the API, in process: the tree view, tree files in the format
//! `moo tree` reads, and benchmark figures equal to playing every secret.

use axum::http::StatusCode;
use moo_core::Rules;
use serde_json::json;

mod common;
use common::{assert_error, call, ok, post, simple_totals};

/// The Explorer's figures come from the server: a tree is checked as `moo tree verify` checks
/// it, and each node carries its own counts.
#[tokio::test]
async fn a_tree_view_is_verified_and_counted_per_node() {
    let tiny = json!({"tree": {
        "rules": {"length": 1, "symbols": "abc", "repeats": false, "no_leading": false},
        "root": {"guess": "a", "children": {"0B0C": {"guess": "b", "children": {"0B0C": {"guess": "c"}}}}}
    }});
    let view = ok(call("POST", "/api/trees/view", Some(&tiny.to_string())).await);
    assert_eq!(view["stats"]["total"], 6);
    assert_eq!(view["nodes"][0]["histogram"], json!([1, 1, 1]));
    // Branch keys in every form `moo tree verify` reads, not only 0B0C.
    let keys = json!({"tree": {
        "rules": {"length": 1, "symbols": "abc", "repeats": false, "no_leading": false},
        "root": {"guess": "a", "children": {"0b0c": {"guess": "b", "children": {"00": {"guess": "c"}}}}}
    }});
    let view = ok(call("POST", "/api/trees/view", Some(&keys.to_string())).await);
    assert_eq!(view["nodes"][0]["children"][0]["feedback"], "0B0C");
    // A tree that never reaches secret c is refused, as `moo tree verify` refuses it.
    let broken = json!({"tree": {
        "rules": {"length": 1, "symbols": "abc", "repeats": false, "no_leading": false},
        "root": {"guess": "a", "children": {"0B0C": {"guess": "b"}}}
    }});
    assert_error(
        call("POST", "/api/trees/view", Some(&broken.to_string())).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "no branch",
    );
    // A built tree agrees with the core's harness.
    let view = ok(call(
        "POST",
        "/api/trees/view",
        Some(r#"{"preset":"mastermind","strategy":"simple"}"#),
    )
    .await);
    let (secrets, total) = simple_totals(Rules::mastermind());
    assert_eq!(view["nodes"][0]["secrets"], secrets);
    assert_eq!(view["nodes"][0]["total"], total);
}

#[tokio::test]
async fn bench_figures_match_playing_every_secret() {
    let bench = ok(call(
        "POST",
        "/api/bench",
        Some(r#"{"preset":"mastermind","strategies":["simple"]}"#),
    )
    .await);
    let result = &bench["results"][0];
    let (secrets, total) = simple_totals(Rules::mastermind());
    assert_eq!(result["secrets"], secrets);
    assert_eq!(result["total"], total);
}

#[tokio::test]
async fn trees_come_in_the_format_moo_tree_reads() {
    let app = moo_web::router(moo_web::Config::default());
    let tree = ok(post(
        &app,
        "/api/trees",
        r#"{"preset":"mastermind","strategy":"knuth"}"#,
    )
    .await);
    let tree = moo_core::DecisionTree::from_json(&tree.to_string()).unwrap();
    let stats = tree.verify().unwrap();
    moo_core::published::KNUTH
        .compare(&moo_core::Histogram::from_counts(stats.histogram))
        .unwrap();
    for (body, needle) in [
        (
            r#"{"preset":"mastermind","strategy":"random"}"#,
            "not deterministic",
        ),
        // Brute force over 5040 codes asks millions of guesses, each a node: refused once the
        // tree could no longer fit in an answer.
        (
            r#"{"preset":"bulls","strategy":"enumerate"}"#,
            "too large to send: it has more than 349525 guesses",
        ),
    ] {
        let got = post(&app, "/api/trees", body).await;
        assert_error(got, StatusCode::UNPROCESSABLE_ENTITY, needle);
    }
}

#[tokio::test]
async fn trees_are_offered_only_for_strategies_that_have_one() {
    let (_, list) = call("GET", "/api/strategies", None).await;
    let deterministic = |name: &str| {
        list["strategies"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no {name} in {list}"))["deterministic"]
            .clone()
    };
    assert_eq!(deterministic("random"), json!(false));
    assert!(
        !list.to_string().contains("--"),
        "command-line flags in {list}"
    );
    assert_eq!(deterministic("knuth"), json!(true));
    assert_error(
        call("POST", "/api/trees", Some(r#"{"preset":"mastermind"}"#)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
        "name the strategy",
    );
}
