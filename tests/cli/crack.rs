//! `moo crack` from the outside: exact recovery, secrets from files, trials, the table, errors.

use predicates::prelude::*;

use crate::common::moo;

fn json(args: &[&str]) -> serde_json::Value {
    let out = moo().args(args).output().expect("moo runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("valid JSON")
}

#[test]
fn exact_cracker_finds_a_typed_secret() {
    let v = json(&[
        "crack",
        "--repeats",
        "--secret",
        "call me ishmael some years ago",
        "--json",
    ]);
    assert_eq!(v["found"], "call me ishmael some years ago");
    assert_eq!(v["exact"], true);
    let queries = v["queries"].as_u64().unwrap();
    assert!(queries > 0 && queries < 30 * 36, "{queries} queries");
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn text_output_reports_secret_and_queries() {
    moo()
        .args(["crack", "--length", "40", "--seed", "3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("exact   : yes"))
        .stdout(predicate::str::contains("queries : "));
}

#[test]
fn secret_file_is_lowercased_and_filtered() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("novel.txt");
    std::fs::write(
        &path,
        "Call me Ishmael.\nSome years ago—never mind how long",
    )
    .unwrap();
    let v = json(&[
        "crack",
        "--repeats",
        "--length",
        "20",
        "--secret-file",
        path.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(v["found"], "call me ishmael some");
    assert_eq!(v["exact"], true);
}

#[test]
fn trials_report_mean_and_max_for_both_games() {
    let v = json(&[
        "crack",
        "--repeats",
        "--length",
        "60",
        "--trials",
        "3",
        "--json",
    ]);
    assert_eq!(v["all_exact"], true);
    assert_eq!(v["trials"], 3);
    assert!(v["queries_max"].as_u64().unwrap() as f64 >= v["queries_mean"].as_f64().unwrap());
    let v = json(&["crack", "--length", "60", "--trials", "2", "--json"]);
    assert_eq!(v["all_exact"], true);
    assert_eq!(v["symbols"], 300);
}

#[test]
fn genetic_baseline_counts_every_evaluation() {
    let v = json(&[
        "crack",
        "--method",
        "ga",
        "--repeats",
        "--length",
        "12",
        "--runs",
        "2",
        "--generations",
        "50",
        "--json",
    ]);
    let queries = v["queries"].as_u64().unwrap();
    // Each run: 100 initial evaluations and 99 per generation; plus one for the crowd's answer.
    assert!(
        queries > 200 && queries <= 2 * (100 + 99 * 50) + 1,
        "{queries}"
    );
    assert_eq!(v["found"].as_str().unwrap().chars().count(), 12);
}

#[test]
fn small_table_has_both_sets() {
    let out = moo()
        .args([
            "crack",
            "--table",
            "--lengths",
            "10,25",
            "--runs",
            "2",
            "--generations",
            "30",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("Secrets with repeats"));
    assert!(text.contains("Distinct secrets"));
    assert!(text.contains("Exact queries") && text.contains("Interval queries"));
    assert_eq!(text.matches("| 25 ").count(), 2, "{text}");
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    // A symbol outside the alphabet.
    moo()
        .args(["crack", "--repeats", "--symbols", "abc", "--secret", "abd"])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("'d'").and(predicate::str::contains("not in the alphabet")),
        );
    // Repeats in a distinct game.
    moo()
        .args(["crack", "--symbols", "abc", "--secret", "aba"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than once"));
    // Longer than the alphabet for distinct codes.
    moo()
        .args(["crack", "--symbols", "abc", "--length", "4"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("distinct"));
    // A length that disagrees with the secret.
    moo()
        .args(["crack", "--repeats", "--length", "5", "--secret", "abc"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("has 3 symbols"));
    // Duplicate symbols in the alphabet, and an empty one.
    moo()
        .args(["crack", "--symbols", "aab"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("more than once"));
    moo()
        .args(["crack", "--symbols", ""])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("empty"));
    // Far too long.
    moo()
        .args(["crack", "--repeats", "--length", "1000000000"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1..=5000"));
    // Zero length.
    moo()
        .args(["crack", "--length", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("0 is not in 1..=5000"));
}

#[test]
fn bad_files_are_runtime_errors() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.txt");
    moo()
        .args([
            "crack",
            "--repeats",
            "--secret-file",
            missing.to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot read"));
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    moo()
        .args([
            "crack",
            "--repeats",
            "--secret-file",
            empty.to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("holds only 0 symbols"));
    let binary = dir.path().join("binary.bin");
    std::fs::write(&binary, [0xff, 0xfe, 0x00]).unwrap();
    moo()
        .args([
            "crack",
            "--repeats",
            "--secret-file",
            binary.to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not UTF-8"));
    // Prose repeats letters, so a distinct game cannot take it.
    let text = dir.path().join("text.txt");
    std::fs::write(&text, "hello world").unwrap();
    moo()
        .args([
            "crack",
            "--symbols",
            "abcdefghijklmnopqrstuvwxyz ",
            "--length",
            "5",
            "--secret-file",
            text.to_str().unwrap(),
        ])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("more than once"));
}

#[test]
fn intervals_is_the_default_and_reports_its_cap() {
    let v = json(&[
        "crack",
        "--repeats",
        "--length",
        "80",
        "--trials",
        "2",
        "--json",
    ]);
    assert_eq!(v["method"], "intervals");
    assert_eq!(v["all_exact"], true);
    assert!(v["cap"].as_u64().unwrap() >= 4);
    let v = json(&[
        "crack", "--length", "80", "--trials", "2", "--cap", "64", "--json",
    ]);
    assert_eq!(v["cap"], 64);
    assert_eq!(v["all_exact"], true);
    // The earlier exact cracker stays available, and reports no cap.
    let v = json(&[
        "crack", "--method", "exact", "--length", "40", "--trials", "1", "--json",
    ]);
    assert_eq!(v["method"], "exact");
    assert!(v.get("cap").is_none());
}

#[test]
fn intervals_needs_fewer_queries_than_the_earlier_cracker() {
    let query = |method: &str| {
        json(&[
            "crack",
            "--repeats",
            "--method",
            method,
            "--seed",
            "5",
            "--json",
        ])["queries"]
            .as_u64()
            .unwrap()
    };
    let (intervals, exact) = (query("intervals"), query("exact"));
    assert!(intervals < exact, "intervals {intervals}, exact {exact}");
    // `tree`, the earlier name, still selects the same cracker.
    assert_eq!(query("tree"), intervals);
}

#[test]
fn cap_below_the_minimum_is_a_usage_error() {
    moo()
        .args(["crack", "--cap", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--cap"));
}
