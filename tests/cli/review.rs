//! `moo review`, and the review `play` and `solve` offer when a game ends.

use serde_json::Value;

use crate::common::{fails, json_of, moo, moo_fails, moo_stdout, run, run_ok, stdout_of};

fn review_json(args: &[&str], stdin: &str) -> Value {
    json_of(
        moo()
            .args(["review", "--json", "--time-limit", "60s"])
            .args(args)
            .write_stdin(stdin),
    )
}

#[test]
fn a_game_of_the_solver_reviews_as_perfect_through_a_pipe() {
    let game = moo_stdout(["solve", "--secret", "4271", "--json"]);
    let v = review_json(&[], &game);
    assert_eq!(v["won"], true);
    assert_eq!(v["proven"], true);
    assert_eq!(v["total_cost"], 0.0);
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    for m in moves {
        assert_eq!(m["is_best"], true, "{m}");
        assert_eq!(m["verdict"], "best", "{m}");
        assert_eq!(m["verdict_estimated"], false, "{m}");
        assert_eq!(m["guess"], m["best_guess"]);
    }
    let table = stdout_of(
        moo()
            .args(["review", "--time-limit", "60s"])
            .write_stdin(game),
    );
    assert_eq!(table.matches("★ best").count(), 4, "{table}");
    // 26274 guesses over 5040 secrets (Tanaka 1996).
    assert_eq!(v["optimal_expected"], 26274.0 / 5040.0);
}

#[test]
fn arguments_stdin_turns_and_json_give_the_same_review() {
    let turns = ["0123=1B2C", "4567=0B1C", "1845=1B1C"];
    let from_args = review_json(&turns, "");
    let from_text = review_json(&[], &turns.join("\n"));
    let from_json = review_json(
        &[],
        r#"{"guesses": [{"guess": "0123", "feedback": "1B2C"}, {"guess": "4567", "feedback": "0 1"},
            {"guess": "1845", "feedback": "1B1C"}]}"#,
    );
    let strip = |mut v: Value| {
        v["seconds"] = Value::Null;
        for m in v["moves"].as_array_mut().unwrap() {
            m["seconds"] = Value::Null;
        }
        v
    };
    assert_eq!(strip(from_args.clone()), strip(from_text));
    assert_eq!(strip(from_args.clone()), strip(from_json));
    let m = &from_args["moves"][1];
    assert_eq!(m["could_be_secret"], false);
    assert_eq!(m["before"], 216);
    assert_eq!(m["after"], 108);
    assert!(m["cost"].as_f64().unwrap() > 0.0);
    // The cost is the difference of the totals over the codes left, in guesses.
    let cost = (m["total_after_guess"].as_u64().unwrap() - m["total_after_best"].as_u64().unwrap())
        as f64
        / 216.0;
    assert_eq!(m["cost"].as_f64().unwrap(), cost);
}

#[test]
fn text_review_marks_the_best_moves_and_what_went_wrong() {
    let out = moo_stdout([
        "review",
        "--game",
        "mastermind",
        "1122=1B0C",
        "1122=1B0C",
        "--time-limit",
        "60s",
    ]);
    assert!(out.contains("repeats guess 1"), "{out}");
    assert!(
        out.contains("| 1.000 "),
        "a repeated guess costs one guess: {out}"
    );
    assert!(out.contains("perfect play needs 4.34 on average"), "{out}");
}

#[test]
fn bad_input_is_refused_with_a_reason() {
    moo_fails(["review", "0123=5B0C"], 2, &["turn 1: bad feedback"]);
    for (stdin, says) in [
        (
            "{\"guesses\": 3}",
            "not a game as `moo solve --json` prints it",
        ),
        ("  \n", "no turns"),
    ] {
        fails(moo().arg("review").write_stdin(stdin), 2, &[says]);
    }
    moo_fails(
        ["review", "0123=4B", "4567=0B0C"],
        1,
        &["after the game was won at turn 1"],
    );
    let (code, out, err) = run(&["review", "0123=0B0C", "4567=0B0C"], "");
    assert_eq!(code, 1);
    assert!(out.contains("no code fits all the answers") && err.contains("no code fits"));
}

#[test]
fn play_and_solve_offer_the_review_when_the_game_ends() {
    let out = run_ok(&["play", "--seed", "1"], "give up\nreview\n");
    // Giving up before a guess has nothing to review.
    assert!(!out.contains("review"), "{out}");
    let out = run_ok(&["play", "--seed", "1"], "0123\ngive up\nreview\n");
    assert!(
        out.contains("Type `review`") && out.contains("| 0123  |"),
        "{out}"
    );
    let out = run_ok(&["solve"], "0B2C\n1B2C\n1B2C\n4B\nreview\n");
    assert!(out.contains("4 of 4 moves were the best possible"), "{out}");
    let out = moo_stdout(["solve", "--secret", "4271", "--review"]);
    assert!(out.contains("4 of 4 moves were the best possible"), "{out}");
}

/// A long game is reviewed move by move from the previous move's candidates, each repeat found
/// without going over the history again, and the whole review is bounded by --total-time: a
/// review that cannot finish says how far it got and which flag gives it more time.
#[test]
fn long_games_are_reviewed_whole_and_a_review_keeps_to_its_total_time() {
    let turns: Vec<String> = (0..3000).map(|_| "0123=1B1C".to_string()).collect();
    let args: Vec<&str> = turns.iter().map(String::as_str).collect();
    let review = review_json(&args, "");
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3000);
    assert_eq!(moves[2999]["repeats_turn"], 1);
    assert_eq!(moves[0]["repeats_turn"], Value::Null);
    // Seven digits: each move partitions 604800 codes, far more than a millisecond allows.
    moo_fails(
        [
            "review",
            "--length",
            "7",
            "--total-time",
            "1ms",
            "0123456=0B4C",
            "1234567=1B4C",
            "2345678=0B6C",
        ],
        1,
        &["the review stopped after", "--total-time"],
    );
}

/// A repeated turn leaves the position as it was, so it is reviewed once: 10000 repeats of a
/// 10-digit guess (the CLI's cap, over 600000 codes left) fit in a total time that one search
/// per repeat overran by minutes, and every repeat reads as the first did.
#[test]
fn repeats_in_one_position_are_reviewed_once() {
    let stdin = "0123456789=2B8C\n".repeat(10_000);
    let review = json_of(
        moo()
            .args(["review", "--json", "--length", "10", "--time-limit", "1s"])
            .args(["--total-time", "60s"])
            .write_stdin(stdin),
    );
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 10_000);
    let same = |m: &Value| {
        let mut m = m.clone();
        for key in ["turn", "repeats_turn", "seconds"] {
            m.as_object_mut().unwrap().remove(key);
        }
        m
    };
    assert_eq!(moves[9_999]["turn"], 10_000);
    assert_eq!(moves[9_999]["repeats_turn"], 1);
    assert_eq!(same(&moves[1]), same(&moves[9_999]));
    assert_eq!(moves[1]["after"], moves[0]["after"]);
}
