//! `moo solve`.

use crate::common::{fails, moo, moo_fails, moo_json, run, run_ok, says};

#[test]
fn solves_a_given_secret_and_reports_json() {
    let v = moo_json(["solve", "--secret", "4271", "--json"]);
    assert_eq!(v["secret"], "4271");
    let guesses = v["guesses"].as_array().unwrap();
    let last = guesses.last().unwrap();
    assert_eq!(last["guess"], "4271");
    assert_eq!(last["feedback"], "4B0C");
    // Every reported feedback is the true score of its guess.
    let rules = moo_core::Rules::bulls();
    let secret = rules.parse_code("4271").unwrap();
    for g in guesses {
        let guess = rules.parse_code(g["guess"].as_str().unwrap()).unwrap();
        assert_eq!(guess.score(&secret).to_string(), g["feedback"]);
    }
}

#[test]
fn every_strategy_in_the_registry_solves_a_secret() {
    let space = moo_core::CodeSpace::new(moo_core::Rules::mastermind()).unwrap();
    for name in moo_core::strategy::names() {
        match moo_core::strategy::by_name(name, &space, &Default::default()) {
            // A strategy that cannot play these rules says so when named; one that ignores
            // feedback (random) may rightly give up at its cap.
            Err(_) => continue,
            Ok(s) if !s.is_deterministic() => continue,
            Ok(_) => {}
        }
        let v = moo_json([
            "solve",
            "--game",
            "mastermind",
            "--secret",
            "6412",
            "--strategy",
            name,
            "--json",
        ]);
        assert_eq!(
            v["guesses"].as_array().unwrap().last().unwrap()["feedback"],
            "4B0C",
            "{name}"
        );
    }
}

/// Plays the interactive solver as an honest user who knows the secret.
fn answer_honestly(args: &[&str], secret: &str) -> (i32, String) {
    let rules = moo_core::Rules::bulls();
    let s = rules.parse_code(secret).unwrap();
    // The solver is deterministic, so the honest answers can be found by replaying its guesses.
    let mut answers = String::new();
    for _ in 0..12 {
        let (_, out, _) = run(args, &answers);
        let guess = out
            .lines()
            .rev()
            .find_map(|l| l.strip_prefix("guess "))
            .and_then(|l| l.split(": ").nth(1))
            .map(|l| l.split_whitespace().next().unwrap().to_string())
            .expect("the solver shows a guess");
        let feedback = rules.parse_code(&guess).unwrap().score(&s);
        answers.push_str(&format!("{feedback}\n"));
        if feedback.is_win(4) {
            let (code, out, _) = run(args, &answers);
            return (code, out);
        }
    }
    panic!("no win in 12 guesses");
}

#[test]
fn interactive_solve_with_honest_answers() {
    let (code, out) = answer_honestly(&["solve"], "9508");
    assert_eq!(code, 0);
    assert!(out.contains("Solved: your secret is 9508"), "{out}");
}

/// When one code is left the solver says so and plays it, instead of asking for an answer.
#[test]
fn one_code_left_is_named_not_asked() {
    let (code, out) = answer_honestly(&["solve", "--strategy", "simple"], "9508");
    assert_eq!(code, 0);
    assert!(
        out.contains("(the only code left that fits your answers)"),
        "{out}"
    );
    assert!(!out.contains("(1 code possible)"), "{out}");
    assert!(out.contains("Solved: your secret is 9508"), "{out}");
}

#[test]
fn feedback_in_every_typed_form() {
    // 0123 against secret 1032 is 0B4C, typed five ways, each answered with an undo.
    for typed in ["0B4C", "0b 4c", "0 4", "04", "0,4"] {
        let (code, out, err) = run(
            &["solve", "--strategy", "simple"],
            &format!("{typed}\nquit\n"),
        );
        assert_eq!(code, 0, "{typed}: {err}");
        assert!(out.contains("guess 2: "), "{typed}: {out}");
        assert!(out.contains("(9 codes possible)"), "{typed}: {out}");
    }
}

#[test]
fn bad_feedback_is_explained_and_asked_again() {
    let out = run_ok(
        &["solve", "--strategy", "simple"],
        "5B0C\n3B1C\nhello\nquit\n",
    );
    assert!(
        out.contains(
            "feedback 5B0C is impossible for a 4-symbol code: bulls + cows must be at most 4"
        ),
        "{out}"
    );
    says(
        &out,
        &[
            "feedback 3B1C is impossible",
            "cannot read \"hello\" as feedback",
        ],
    );
    assert!(
        !out.contains("guess 2:"),
        "bad answers must not count: {out}"
    );
}

#[test]
fn contradictions_name_the_answer_to_change_and_undo_recovers() {
    // With "simple", 0123 then 4567 come first; 0B0C to both leaves only 8 and 9 for four places.
    let input = "0B0C\n0B0C\nundo\n0B2C\nquit\n";
    let (code, out, _) = run(&["solve", "--strategy", "simple"], input);
    assert_eq!(code, 0, "{out}");
    says(
        &out,
        &[
            "no code fits all the answers",
            "if the answer to guess 2 (4567) was not 0B0C but",
            "Took back 4567 = 0B0C",
        ],
    );
}

#[test]
fn input_ending_early_is_an_error() {
    fails(
        moo().arg("solve").write_stdin("0B1C\n"),
        1,
        &["input ended before the secret was found"],
    );
}

#[test]
fn bad_arguments() {
    moo_fails(
        ["solve", "--secret", "11"],
        2,
        &["bad --secret: \"11\" has 2 symbols, but codes have 4"],
    );
    moo_fails(
        ["solve", "--strategy", "psychic"],
        2,
        &["unknown strategy \"psychic\": choose one of"],
    );
    // --json needs --secret.
    moo_fails(["solve", "--json"], 2, &[]);
}

#[test]
fn ten_digits_are_solved_with_a_sampled_heuristic() {
    // 3,628,800 codes: every choice after the first scores a sample, within the pair budget.
    let v = moo_json([
        "solve",
        "--length",
        "10",
        "--secret",
        "9876543210",
        "--strategy",
        "entropy",
        "--json",
    ]);
    let last = v["guesses"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last["guess"], "9876543210");
    assert_eq!(last["feedback"], "10B0C");
}
