//! `moo hint`.

use crate::common::run;
use serde_json::Value;

#[test]
fn remaining_codes_match_a_brute_force_count() {
    let (code, out, err) = run(&["hint", "0123=1B2C", "4567=0B1C", "--json"], "");
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
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
    assert_eq!(v["best_guess"].as_str().unwrap().len(), 4);
}

#[test]
fn text_output_explains_the_best_guess() {
    let (code, out, _) = run(
        &["hint", "--game", "mastermind", "1122=1B0C", "--list", "3"],
        "",
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("256 codes remain.\n"), "{out}");
    assert!(out.contains("... and 253 more"), "{out}");
    assert!(out.contains("Best next guess: "), "{out}");
    assert!(out.contains("splits the 256 codes into "), "{out}");
}

#[test]
fn a_won_history_names_the_secret() {
    let (code, out, _) = run(&["hint", "0123=2B2C", "0132=4B"], "");
    assert_eq!(code, 0);
    assert_eq!(out, "Solved: the secret is 0132.\n");
}

#[test]
fn contradictions_name_the_answer_to_change() {
    let (code, _, err) = run(&["hint", "0123=0B0C", "4567=0B0C"], "");
    assert_eq!(code, 1);
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
    for (args, status, want) in [
        (
            vec!["hint", "0123"],
            2,
            "turn 1 (\"0123\") must be GUESS=FEEDBACK",
        ),
        (
            vec!["hint", "0123=9B"],
            2,
            "turn 1: bad feedback: feedback 9B0C is impossible",
        ),
        (
            vec!["hint", "0123=1B2C", "01=1B"],
            2,
            "turn 2: bad guess: \"01\" has 2 symbols",
        ),
        (vec!["hint", "0123=x"], 2, "cannot read \"x\" as feedback"),
    ] {
        let (code, _, err) = run(&args, "");
        assert_eq!(code, status, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn spaces_too_large_are_refused_with_the_limit() {
    let (code, _, err) = run(&["hint", "--length", "9", "--repeats"], "");
    assert_eq!(code, 1);
    assert!(
        err.contains("these rules allow 1000000000 codes, more than the 4000000"),
        "{err}"
    );
}
