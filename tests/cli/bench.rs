//! `moo bench` from the outside: known answers from the literature, output formats, errors.

use predicates::prelude::*;
use serde_json::Value;

use crate::common::{fails, game_args, json_histogram, json_of, moo, moo_json, says, stdout_of};
use moo_core::published::{self, Method};

/// Runs `moo bench ARGS --json` and returns the results by strategy name.
fn bench_json(args: &[&str]) -> Vec<Value> {
    let report = json_of(moo().arg("bench").args(args).arg("--json"));
    assert!(report["rules"].is_object());
    report["results"].as_array().unwrap().clone()
}

fn total_max(result: &Value) -> (u64, u64) {
    (
        result["total"].as_u64().unwrap(),
        result["max"].as_u64().unwrap(),
    )
}

/// Every published heuristic (moo_core::published, each row with its source), through
/// `moo bench --json`: totals, worst case, the secrets needing six or more, Knuth's histogram.
#[test]
fn heuristics_match_the_literature() {
    let mut rows = 0;
    for row in published::TABLE {
        let Method::Strategy(name) = row.method else {
            continue;
        };
        rows += 1;
        let mut args = game_args(&row.game);
        args.extend(["--strategy".to_string(), name.to_string()]);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let results = bench_json(&args);
        assert_eq!(results.len(), 1);
        let r = &results[0];
        assert_eq!(r["strategy"], name);
        let histogram = json_histogram(r, "gave_up");
        row.compare(&histogram).unwrap();
        assert_eq!(total_max(r), (histogram.total(), histogram.max() as u64));
    }
    assert_eq!(rows, 5);
}

#[test]
fn hard_mode_restricts_guesses() {
    let all = bench_json(&["--game", "mastermind", "-S", "knuth"]);
    let hard = bench_json(&[
        "--game",
        "mastermind",
        "-S",
        "knuth",
        "--guesses",
        "consistent",
    ]);
    // Only candidates may be guessed: Knuth's worst case is lost.
    let knuth = published::KNUTH;
    knuth.compare(&json_histogram(&all[0], "gave_up")).unwrap();
    assert!(hard[0]["max"].as_u64().unwrap() > u64::from(knuth.max.unwrap()));
}

#[test]
fn brute_force_and_cows_on_small_games() {
    let results = bench_json(&[
        "--length",
        "3",
        "--symbols",
        "012345",
        "-S",
        "enumerate,cows",
    ]);
    // 120 secrets; brute force needs i guesses for the i-th secret in alphabet order.
    assert_eq!(results[0]["total"], 120 * 121 / 2);
    assert_eq!(results[0]["max"], 120);
    assert_eq!(results[1]["gave_up"], 0);
}

#[test]
fn random_runs_are_reproducible_and_reported() {
    let args = [
        "--length",
        "2",
        "--symbols",
        "0123",
        "-S",
        "random,simple",
        "--runs",
        "3",
        "--seed",
        "9",
    ];
    // Everything but the times must repeat.
    let without_times = |mut results: Vec<Value>| {
        for r in &mut results {
            r.as_object_mut().unwrap().remove("seconds");
            let runs = r.get_mut("runs").and_then(Value::as_array_mut);
            for run in runs.into_iter().flatten() {
                run.as_object_mut().unwrap().remove("seconds");
            }
        }
        results
    };
    let a = without_times(bench_json(&args));
    let b = without_times(bench_json(&args));
    assert_eq!(a, b);
    let runs = a[0]["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 3);
    assert_eq!(a[0]["games"], 36);
    assert!(a[1].get("runs").is_none(), "deterministic: one evaluation");
    let other_seed = bench_json(&[
        "--length",
        "2",
        "--symbols",
        "0123",
        "-S",
        "random",
        "--runs",
        "3",
        "--seed",
        "10",
    ]);
    assert_ne!(a[0]["total"], other_seed[0]["total"]);

    says(
        &stdout_of(
            moo()
                .args(["bench", "--length", "2", "--symbols", "0123"])
                .args(["-S", "random,enumerate,cows", "--runs", "2"]),
        ),
        &["Average guesses per run", "| mean"],
    );
}

#[test]
fn give_ups_are_counted() {
    let results = bench_json(&[
        "--length",
        "2",
        "--symbols",
        "0123",
        "-S",
        "enumerate",
        "--max-guesses",
        "4",
    ]);
    assert_eq!(results[0]["gave_up"], 8);
    assert_eq!(results[0]["total"], 1 + 2 + 3 + 4);
}

#[test]
fn table_lists_every_strategy() {
    moo()
        .args(["bench", "--game", "mastermind", "-S", "knuth,simple"])
        .assert()
        .success()
        .stdout(predicate::str::contains("1296 secrets"))
        .stdout(predicate::str::contains("| knuth"))
        .stdout(predicate::str::contains("| simple"))
        .stdout(predicate::str::contains(published::KNUTH.total.to_string()));
}

#[test]
fn plots_are_written() {
    let dir = tempfile::tempdir().unwrap();
    for (file, magic) in [("h.svg", &b"<svg"[..]), ("h.png", &b"\x89PNG"[..])] {
        let path = dir.path().join(file);
        moo()
            .args(["bench", "--game", "mastermind", "-S", "knuth,entropy"])
            .arg("--plot")
            .arg(&path)
            .assert()
            .success();
        let bytes = std::fs::read(&path).unwrap();
        assert!(bytes.starts_with(magic), "{file}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["bench", "-S", "knuth,nonsense"][..],
        &["bench", "--runs", "0"],
        &["bench", "--plot", "out.gif"],
        &["bench", "--guesses", "some"],
        &["bench", "--length", "0"],
        &["bench", "--secrets", "0"],
    ] {
        moo()
            .args(args)
            .assert()
            .code(2)
            .stderr(predicate::str::is_empty().not());
    }
    fails(
        moo().args(["bench", "-S", "nonsense"]),
        2,
        &["unknown strategy \"nonsense\"", "knuth"],
    );
}

#[test]
fn big_games_play_a_seeded_sample_and_time_each_guess() {
    let run = || {
        json_of(
            moo()
                .args(["bench", "--length", "6", "-S", "simple,knuth"])
                .args(["--secrets", "5", "--seed", "3", "--json"]),
        )
    };
    let report = run();
    assert_eq!(report["sample"]["secrets"], 5);
    assert_eq!(report["sample"]["of"], 151200);
    for r in report["results"].as_array().unwrap() {
        assert_eq!(r["secrets"], 5);
        let times = &r["guess_times"];
        assert!(times["guesses"].as_u64().unwrap() >= 5);
        assert!(times["p99"].as_f64().unwrap() <= times["max"].as_f64().unwrap());
    }
    // The same seed plays the same secrets to the same totals.
    let again = run();
    for (a, b) in report["results"]
        .as_array()
        .unwrap()
        .iter()
        .zip(again["results"].as_array().unwrap())
    {
        assert_eq!(a["total"], b["total"]);
        assert_eq!(a["histogram"], b["histogram"]);
    }
    // Without --secrets a big game plays 200 of them, without the brute-force baselines.
    says(
        &stdout_of(moo().args(["bench", "--length", "5", "-S", "simple"])),
        &["200 of 30240 secrets", "p99/guess"],
    );
}

#[test]
fn too_large_rules_are_a_runtime_error() {
    fails(
        moo().args(["bench", "--length", "9", "--repeats", "-S", "simple"]),
        1,
        &["error:"],
    );
}

#[test]
fn list_names_every_strategy() {
    says(
        &stdout_of(moo().args(["bench", "--list"])),
        &["knuth", "most-parts", "cows"],
    );
}

/// Runs `moo bench arena ARGS --json`.
fn arena_json(args: &[&str]) -> Value {
    json_of(moo().args(["bench", "arena", "--json"]).args(args))
}

#[test]
fn the_arena_bench_weighs_lengths_as_codingame_does() {
    let r = arena_json(&["--secrets", "5", "--lengths", "1-3", "--seed", "2"]);
    assert_eq!(r["threads"], 1);
    assert_eq!(r["time_limit_seconds"], 0.05);
    assert_eq!(r["complete"], false);
    let lengths = r["lengths"].as_array().unwrap();
    let codes: Vec<u64> = lengths
        .iter()
        .map(|l| l["codes"].as_u64().unwrap())
        .collect();
    // Distinct digits with no leading zero: 9, 9 x 9, 9 x 9 x 8.
    assert_eq!(codes, [9, 81, 648]);
    let mut score = 0.0;
    for l in lengths {
        assert_eq!(l["games"], 5);
        let average = l["average_guesses"].as_f64().unwrap();
        assert_eq!(average, l["total_guesses"].as_f64().unwrap() / 5.0);
        assert!(l["worst_guesses"].as_f64().unwrap() >= average);
        let times = &l["guess_times"];
        assert_eq!(times["guesses"], l["total_guesses"]);
        assert!(times["p99"].as_f64().unwrap() <= times["max"].as_f64().unwrap());
        let histogram = l["histogram"].as_array().unwrap();
        let counts: Vec<u64> = histogram.iter().map(|n| n.as_u64().unwrap()).collect();
        assert_eq!(counts.iter().sum::<u64>(), 5);
        assert_eq!(counts.len() as u64, l["worst_guesses"].as_u64().unwrap());
        let guesses: u64 = counts.iter().zip(1..).map(|(n, g)| n * g).sum();
        assert_eq!(guesses, l["total_guesses"].as_u64().unwrap());
        score += l["weight"].as_f64().unwrap() * average;
    }
    // One submission's total: its mean is the score, and the chance of the default 290 over
    // three lengths of at most 6 guesses a game (1 + 10 games) is certainty.
    let submission = &r["submission"];
    assert!((submission["mean"].as_f64().unwrap() - r["score"].as_f64().unwrap()).abs() < 1e-9);
    assert_eq!(submission["against"], 290);
    assert!((submission["chance_at_most_against"].as_f64().unwrap() - 1.0).abs() < 1e-9);
    let totals: Vec<u64> = submission["quantiles"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| q[1].as_u64().unwrap())
        .collect();
    assert!(totals.windows(2).all(|w| w[0] <= w[1]), "{totals:?}");
    assert_eq!(lengths[0]["weight"], 1);
    assert_eq!(lengths[2]["weight"], 5);
    assert!((r["score"].as_f64().unwrap() - score).abs() < 1e-9);
    if std::path::Path::new("/proc/loadavg").exists() {
        assert_eq!(r["load_average_start"].as_array().unwrap().len(), 3);
        assert_eq!(r["load_average_end"].as_array().unwrap().len(), 3);
    }
    // Fewer secrets than asked: every code of length 1 is played once.
    let all = arena_json(&["--secrets", "20", "--lengths", "1"]);
    assert_eq!(all["lengths"][0]["games"], 9);
    // 1 + 2 + ... + 9 guesses, each code tried in turn: the optimal 45.
    assert_eq!(all["lengths"][0]["total_guesses"], 45);
}

/// The bench plays the games `moo solve` plays, with the same seed and time limit; length 2's
/// exact searches take milliseconds, so the 50 ms limit never decides a move there.
#[test]
fn the_arena_bench_plays_what_solve_plays_and_repeats_for_a_seed() {
    let args = ["--secrets", "6", "--lengths", "2", "--seed", "7"];
    let first = arena_json(&args);
    let again = arena_json(&args);
    assert_eq!(
        first["lengths"][0]["total_guesses"],
        again["lengths"][0]["total_guesses"]
    );

    let rules = moo_core::Rules::new(2, "0123456789", false, true).unwrap();
    let space = moo_core::CodeSpace::new(rules.clone()).unwrap();
    let mut total = 0;
    for secret in moo_core::eval::sample_secrets(&space, 6, 7).iter() {
        let secret = rules.format_code(&space.code(secret));
        let game = json_of(
            moo()
                .args(["solve", "--length", "2", "--no-leading-zero"])
                .args(["--time-limit", "50ms", "--seed", "7", "--json"])
                .args(["--secret", &secret]),
        );
        total += game["guesses"].as_array().unwrap().len() as u64;
    }
    assert_eq!(first["lengths"][0]["total_guesses"], total);
}

#[test]
fn the_arena_bench_prints_a_table_with_the_score_and_the_load() {
    moo()
        .args(["bench", "arena", "--secrets", "1", "--lengths", "2-3"])
        .assert()
        .success()
        .stdout(predicate::str::contains("| length | games | average"))
        .stdout(predicate::str::contains("p99/guess"))
        .stdout(predicate::str::contains(
            "(lengths 2 to 3 only: not comparable with the arena's total)",
        ))
        .stdout(predicate::str::contains("load average (1, 5, 15 min): "))
        // One game a length: every submission draws it again, so the total cannot vary.
        .stdout(predicate::str::contains(
            "one submission of these games (sd 0.0):",
        ));
}

#[test]
fn the_arena_bench_refuses_bad_input() {
    for (args, message) in [
        (
            &["arena", "--lengths", "0-3"][..],
            "the arena plays lengths 1 to 10",
        ),
        (
            &["arena", "--lengths", "11"],
            "the arena plays lengths 1 to 10",
        ),
        (&["arena", "--lengths", "5-2"], "such as 2-5"),
        (&["arena", "--lengths", "four"], "such as 1-10"),
        (&["arena", "--secrets", "0"], "--secrets must be at least 1"),
        (&["arena", "--time-limit", "0s"], "more than 0"),
        (
            &["arena", "--against", "290.5"],
            "invalid value '290.5' for '--against <SCORE>'",
        ),
        // The arena fixes the rules and plays the advisor: no flag may say otherwise.
        (
            &["arena", "--length", "4"],
            "unexpected argument '--length'",
        ),
        (&["arena", "-S", "knuth"], "unexpected argument '-S'"),
        (&["arena", "--no-leading-zero"], "unexpected argument"),
    ] {
        fails(moo().arg("bench").args(args), 2, &[message]);
    }
}

/// `--build-book` writes an opening book for the lengths asked (length 5, the cheapest; the
/// shipped length 10 is compared with a fresh build by moo-core's own test).
#[test]
fn the_arena_bench_builds_the_shipped_opening_book() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("book.json");
    moo()
        .args(["bench", "arena", "--lengths", "5", "--build-book"])
        .arg(&path)
        .assert()
        .success()
        .stderr(predicate::str::contains(
            "length 5: 19 second and 0 third guesses",
        ));
    let built: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(built["lengths"]["5"]["first"], "10234");
    assert_eq!(
        built["lengths"]["5"]["second"].as_object().unwrap().len(),
        19
    );
    assert_eq!(built["lengths"].as_object().unwrap().len(), 1);
    for (args, message) in [
        (
            &["--lengths", "1-4"][..],
            "the opening book covers lengths 5 to 10",
        ),
        (&["--seed", "3"], "cannot be used with"),
    ] {
        fails(
            moo()
                .args(["bench", "arena", "--build-book"])
                .arg(&path)
                .args(args),
            2,
            &[message],
        );
    }
}

/// The benches that were flags of `moo bench` are subcommands: an old command line fails
/// naming the new command, before clap complains about the flags that follow.
#[test]
fn the_old_bench_flags_name_their_subcommand() {
    for (args, command) in [
        (&["--arena", "--lengths", "2"][..], "moo bench arena"),
        (&["-S", "knuth", "--arena"], "moo bench arena"),
        (&["--lengths", "1-3"], "moo bench arena"),
        (&["--advisor", "--openings", "0123"], "moo bench advisor"),
        (&["--positions", "5"], "moo bench advisor"),
        (&["--cross-checks", "5"], "moo bench advisor"),
        (&["--review", "--secrets", "3"], "moo bench review"),
        (&["--time-limit", "1s"], "moo bench review"),
    ] {
        moo()
            .arg("bench")
            .args(args)
            .assert()
            .code(2)
            .stderr(
                predicate::str::contains(format!("is now `{command}`"))
                    .or(predicate::str::contains(format!("`{command}` or"))),
            )
            .stdout("");
    }
}

/// `moo bench review` and `moo bench advisor` take their own flags and report what they ran.
#[test]
fn the_review_and_advisor_benches_run_as_subcommands() {
    let review = json_of(
        moo()
            .args(["bench", "review", "--game", "mastermind", "-S", "knuth"])
            .args(["--secrets", "2", "--seed", "3", "--json"]),
    );
    assert_eq!(review["games"], 2);
    assert_eq!(review["strategy"], "knuth");
    assert_eq!(review["samples"].as_array().unwrap().len(), 2);

    let advisor = moo_json([
        "bench",
        "advisor",
        "--length",
        "2",
        "--cross-checks",
        "3",
        "--json",
    ]);
    // Every answer to the opening 01 of 2 distinct digits but the win: 0B0C, 0B1C, 0B2C, 1B0C.
    assert_eq!(advisor["positions"], 4);
    assert_eq!(advisor["cross_checked"], 3);
    assert_eq!(advisor["cross_check_failures"].as_array().unwrap().len(), 0);
}
