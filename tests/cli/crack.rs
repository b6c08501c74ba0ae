//! `moo crack` from the outside: exact recovery, secrets from files, trials, the table, errors.

use crate::common::{moo, moo_fails, moo_json as json, moo_stdout, says, stdout_of};

/// `moo crack ARGS --json`, which must succeed: the report, which is what these tests read.
fn crack_json(args: &[&str]) -> serde_json::Value {
    json(["crack"].iter().chain(args).chain(&["--json"]))
}

#[test]
fn exact_cracker_finds_a_typed_secret() {
    let v = crack_json(&["--repeats", "--secret", "call me ishmael some years ago"]);
    assert_eq!(v["found"], "call me ishmael some years ago");
    assert_eq!(v["exact"], true);
    let queries = v["queries"].as_u64().unwrap();
    assert!(queries > 0 && queries < 30 * 36, "{queries} queries");
    assert!(v["seconds"].as_f64().unwrap() >= 0.0);
}

#[test]
fn text_output_reports_secret_and_queries() {
    says(
        &stdout_of(moo().args(["crack", "--length", "40", "--seed", "3"])),
        &["exact   : yes", "queries : "],
    );
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
    let v = crack_json(&[
        "--repeats",
        "--length",
        "20",
        "--secret-file",
        path.to_str().unwrap(),
    ]);
    assert_eq!(v["found"], "call me ishmael some");
    assert_eq!(v["exact"], true);
}

#[test]
fn trials_report_mean_and_max_for_both_games() {
    let v = crack_json(&["--repeats", "--length", "60", "--trials", "3"]);
    assert_eq!(v["all_exact"], true);
    assert_eq!(v["trials"], 3);
    assert!(v["queries_max"].as_u64().unwrap() as f64 >= v["queries_mean"].as_f64().unwrap());
    let v = crack_json(&["--length", "60", "--trials", "2"]);
    assert_eq!(v["all_exact"], true);
    assert_eq!(v["symbols"], 300);
}

#[test]
fn genetic_baseline_counts_every_evaluation() {
    let v = crack_json(&[
        "--method",
        "ga",
        "--repeats",
        "--length",
        "12",
        "--runs",
        "2",
        "--generations",
        "50",
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
    let text = moo_stdout([
        "crack",
        "--table",
        "--lengths",
        "10,25",
        "--runs",
        "2",
        "--generations",
        "30",
    ]);
    assert!(text.contains("Secrets with repeats"));
    assert!(text.contains("Distinct secrets"));
    assert!(text.contains("Exact queries") && text.contains("Interval queries"));
    assert_eq!(text.matches("| 25 ").count(), 2, "{text}");
}

#[test]
fn bad_input_is_a_clear_error_not_a_panic() {
    for (args, says) in [
        // A symbol outside the alphabet.
        (
            &["--repeats", "--symbols", "abc", "--secret", "abd"][..],
            &["'d'", "not in the alphabet"][..],
        ),
        // Repeats in a distinct game.
        (
            &["--symbols", "abc", "--secret", "aba"],
            &["more than once"],
        ),
        // Longer than the alphabet for distinct codes.
        (&["--symbols", "abc", "--length", "4"], &["distinct"]),
        // A length that disagrees with the secret.
        (
            &["--repeats", "--length", "5", "--secret", "abc"],
            &["has 3 symbols"],
        ),
        // Duplicate symbols in the alphabet, and an empty one.
        (&["--symbols", "aab"], &["more than once"]),
        (&["--symbols", ""], &["empty"]),
        // Far too long.
        (&["--repeats", "--length", "1000000000"], &["1..=5000"]),
        // Zero length.
        (&["--length", "0"], &["0 is not in 1..=5000"]),
    ] {
        moo_fails(["crack"].iter().chain(args), 2, says);
    }
}

#[test]
fn bad_files_are_runtime_errors() {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, contents: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, contents).unwrap();
        path.to_str().unwrap().to_string()
    };
    let missing = dir.path().join("missing.txt").to_str().unwrap().to_string();
    for (secret_file, says) in [
        (missing, "cannot read"),
        (file("empty.txt", b""), "holds only 0 symbols"),
        (file("binary.bin", &[0xff, 0xfe, 0x00]), "not UTF-8"),
    ] {
        moo_fails(
            ["crack", "--repeats", "--secret-file", &secret_file],
            1,
            &[says],
        );
    }
    // Prose repeats letters, so a distinct game cannot take it.
    let text = file("text.txt", b"hello world");
    moo_fails(
        [
            "crack",
            "--symbols",
            "abcdefghijklmnopqrstuvwxyz ",
            "--length",
            "5",
            "--secret-file",
            &text,
        ],
        1,
        &["more than once"],
    );
}

#[test]
fn intervals_is_the_default_and_reports_its_cap() {
    let v = crack_json(&["--repeats", "--length", "80", "--trials", "2"]);
    assert_eq!(v["method"], "intervals");
    assert_eq!(v["all_exact"], true);
    assert!(v["cap"].as_u64().unwrap() >= 4);
    let v = crack_json(&["--length", "80", "--trials", "2", "--cap", "64"]);
    assert_eq!(v["cap"], 64);
    assert_eq!(v["all_exact"], true);
    // The earlier exact cracker stays available, and reports no cap.
    let v = crack_json(&["--method", "exact", "--length", "40", "--trials", "1"]);
    assert_eq!(v["method"], "exact");
    assert!(v.get("cap").is_none());
}

#[test]
fn intervals_needs_fewer_queries_than_the_earlier_cracker() {
    let query = |method: &str| {
        crack_json(&["--repeats", "--method", method, "--seed", "5"])["queries"]
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
    moo_fails(["crack", "--cap", "3"], 2, &["--cap"]);
}
