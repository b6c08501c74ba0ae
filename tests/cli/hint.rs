//! `moo hint`.

use crate::common::{moo_fails, moo_json, moo_stdout, says};

#[test]
fn remaining_codes_match_a_brute_force_count() {
    let v = moo_json(["hint", "0123=1B2C", "4567=0B1C", "--json", "--list", "5040"]);
    let rules = moo_core::Rules::bulls();
    let (a, b) = (
        rules.parse_code("0123").unwrap(),
        rules.parse_code("4567").unwrap(),
    );
    let space = moo_core::CodeSpace::new(rules.clone()).unwrap();
    let expected: Vec<String> = space
        .codes()
        .iter()
        .filter(|c| a.score(c).to_string() == "1B2C" && b.score(c).to_string() == "0B1C")
        .map(|c| rules.format_code(c))
        .collect();
    assert_eq!(v["remaining"].as_u64().unwrap() as usize, expected.len());
    let listed: Vec<String> = v["candidates"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    assert_eq!(listed, expected);
    assert_eq!(v["advice"]["guess"].as_str().unwrap().len(), 4);
    assert_eq!(v["turns"][1]["feedback"], "0B1C");
    assert_eq!(v["won"], false);
    assert!(v["contradiction"].is_null());
}

#[test]
fn off_the_shipped_tree_the_hint_is_still_proven_optimal() {
    // 8901 after 4567=0B1C is no move of the shipped tree under any symmetry.
    let v = moo_json([
        "hint",
        "4567=0B1C",
        "8901=1B1C",
        "--json",
        "--time-limit",
        "60s",
    ]);
    let advice = &v["advice"];
    assert_eq!(advice["method"], "exact", "{advice}");
    assert_eq!(advice["proven_optimal"], true);
    assert_eq!(advice["strategy"], "optimal");
    let remaining = v["remaining"].as_u64().unwrap();
    let total = advice["total_guesses"].as_u64().unwrap();
    // Every code left needs this guess and at least one more, bar the guess itself.
    assert!(total >= 2 * remaining - 1, "{advice}");
    assert_eq!(v["candidates"].as_array().unwrap().len(), 40);

    let out = moo_stdout(["hint", "4567=0B1C", "8901=1B1C", "--time-limit", "60s"]);
    says(&out, &["(optimal, by an exact search)", "Proven optimal: "]);
}

/// With no leading zero, an opening with a 0 in it (no image of the optimal tree's
/// 1234) is answered from the tree shipped for 1023, at once and proven, with the exact
/// search's own figures (which it could not reach within the default second).
#[test]
fn with_no_leading_zero_an_opening_with_a_zero_is_answered_from_its_shipped_tree() {
    let args = ["hint", "--length", "4", "--no-leading-zero", "1023=0B2C"];
    let out = moo_stdout(args);
    says(
        &out,
        &[
            "Best next guess: 2451 (optimal, from the shipped tree)",
            "Proven optimal: 4507 guesses in total for the 1050 codes left",
        ],
    );
    let v = moo_json(args.iter().chain(&["--json"]));
    let advice = &v["advice"];
    assert_eq!(advice["method"], "tree", "{advice}");
    assert_eq!(advice["proven_optimal"], true);
    assert_eq!(advice["total_guesses"], 4507);
    assert_eq!(v["remaining"], 1050);
}

/// An exact search cut short by the time limit says so and names the flag that gives it more
/// time (the CLI matches the advisor's reason, not its words). 0123 played twice for 0B0C is
/// off the shipped tree, and 360 codes take longer than a millisecond to search.
#[test]
fn a_search_cut_short_names_the_time_limit_flag() {
    let args = ["hint", "0123=0B0C", "0123=0B0C", "--time-limit", "1ms"];
    let out = moo_stdout(args);
    assert!(
        out.contains("did not finish within the time limit")
            && out.contains("; --time-limit allows more)"),
        "{out}"
    );
    let v = moo_json(args.iter().chain(&["--json"]));
    let note = v["advice"]["note"].as_str().unwrap();
    assert!(
        note.starts_with("not proven optimal: the exact search of the 360 codes left"),
        "{note}"
    );
}

#[test]
fn ten_digit_games_get_a_bounded_hint() {
    let v = moo_json([
        "hint",
        "--length",
        "10",
        "0123456789=2B8C",
        "--json",
        "--list",
        "0",
    ]);
    // Two digits in place (C(10, 2) ways), the other eight all displaced (D(8) = 14833).
    assert_eq!(v["remaining"], 45 * 14833);
    assert_eq!(v["advice"]["method"], "heuristic");
    assert_eq!(v["advice"]["proven_optimal"], false);
    assert_eq!(v["advice"]["guess"].as_str().unwrap().len(), 10);
}

#[test]
fn time_limits_are_checked_as_usage() {
    for bad in ["0s", "fast", "3 days"] {
        moo_fails(["hint", "--time-limit", bad], 2, &["--time-limit"]);
    }
}

#[test]
fn text_output_explains_the_best_guess() {
    let out = moo_stdout(["hint", "--game", "mastermind", "1122=1B0C", "--list", "3"]);
    assert!(out.starts_with("256 codes remain.\n"), "{out}");
    says(
        &out,
        &[
            "... and 253 more",
            "Best next guess: ",
            "splits the 256 codes into ",
        ],
    );
}

#[test]
fn a_won_history_names_the_secret() {
    let out = moo_stdout(["hint", "0123=2B2C", "0132=4B"]);
    assert_eq!(out, "Solved: the secret is 0132.\n");
}

#[test]
fn contradictions_name_the_answer_to_change() {
    let err = moo_fails(["hint", "0123=0B0C", "4567=0B0C"], 1, &[]);
    assert!(
        err.starts_with("error: no code fits all the answers"),
        "{err}"
    );
    assert!(
        err.contains("if the answer to guess 1 (0123) was not 0B0C but"),
        "{err}"
    );
}

/// Turns are command-line arguments, so any that does not parse is a usage error (exit 2).
#[test]
fn malformed_turns_are_usage_errors() {
    for (args, want) in [
        (
            vec!["hint", "0123"],
            "turn 1 (\"0123\") must be GUESS=FEEDBACK",
        ),
        (
            vec!["hint", "0123=9B"],
            "turn 1: bad feedback: feedback 9B0C is impossible",
        ),
        (
            vec!["hint", "0123=1B2C", "01=1B"],
            "turn 2: bad guess: \"01\" has 2 symbols",
        ),
        (vec!["hint", "0123=x"], "cannot read \"x\" as feedback"),
    ] {
        moo_fails(args, 2, &[want]);
    }
}

#[test]
fn spaces_too_large_are_refused_with_the_limit() {
    moo_fails(
        ["hint", "--length", "9", "--repeats"],
        1,
        &["these rules allow 1000000000 codes, more than the 4000000"],
    );
}
