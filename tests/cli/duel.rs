//! `moo duel`: the outcomes, typed answers and their repair, and refusals.

use crate::common::{run, run_ok, says};

/// The computer's secret of a seeded duel, learned by giving up at once.
fn its_secret(seed: &str) -> String {
    let out = run_ok(&["duel", "--seed", seed, "--secret", "9876"], "give up\n");
    out.lines()
        .find_map(|l| l.strip_prefix("My secret was "))
        .expect("giving up shows the computer's secret")
        .trim_end_matches('.')
        .to_string()
}

/// Found on the first guess while the beginner's first random guess misses: a win.
#[test]
fn a_duel_is_won_by_finding_the_secret_first() {
    let secret = its_secret("5");
    let out = run_ok(
        &["duel", "--seed", "5", "--level", "1", "--secret", "9876"],
        &format!("{secret}\n"),
    );
    assert!(
        out.contains(&format!("your guess 1: {secret}  4B0C")),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "You found my secret {secret} in 1 guess and I did not find yours: you win!"
        )),
        "{out}"
    );
}

/// Perfect play opens with 0123: a player whose secret it is loses in one round, unless they
/// find the computer's secret in that round too, which draws.
#[test]
fn a_duel_is_lost_or_drawn_in_the_same_round() {
    let secret = its_secret("5");
    let miss = if secret == "4567" { "5678" } else { "4567" };
    let args = ["duel", "--seed", "5", "--level", "4", "--secret", "0123"];
    let out = run_ok(&args, &format!("{miss}\n"));
    assert!(out.contains("my guess 1: 0123  4B0C"), "{out}");
    assert!(
        out.contains(&format!(
            "I found your secret 0123 in 1 guess: I win. My secret was {secret}."
        )),
        "{out}"
    );
    let out = run_ok(&args, &format!("{secret}\n"));
    assert!(
        out.contains(&format!(
            "We both found the other's secret in 1 guess: a draw. My secret was {secret}."
        )),
        "{out}"
    );
}

/// Typed answers: two that no code fits stop the duel until one is fixed, a guess meanwhile is
/// refused, and the duel goes on from the fixed answer.
#[test]
fn typed_answers_that_contradict_are_fixed_and_the_duel_goes_on() {
    let input = "0123\n0B0C\n4567\n0b0c\n8901\nfix 9 1B\nfix 2\nfix 2 0B2C\n8901\n4b\n";
    let out = run_ok(&["duel", "--seed", "1", "--level", "2"], input);
    says(
        &out,
        &[
            "my guess 1: 0123  How does it score against your secret?",
            "360 codes fit your answers.",
            "no code fits all the answers: one of them must be wrong",
            "not counted: after the number of my guess, type its right answer, such as `fix 8901 1B1C`",
            "not counted: the computer has made 2 guesses, so there is no guess 9 to fix",
            "84 codes fit your answers.",
            "your guess 3: 8901",
        ],
    );
    // The last answer says the computer's third guess is the secret: it wins.
    says(&out, &["I found your secret", "I win. My secret was "]);
}

#[test]
fn bad_flags_and_bad_moves_are_explained() {
    let (code, _, err) = run(&["duel", "--level", "5"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("5 is not in 1..=4"), "{err}");
    let (code, _, err) = run(&["duel", "--secret", "0012"], "");
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("bad --secret: \"0012\" repeats '0'"), "{err}");
    let (code, out, err) = run(
        &["duel", "--seed", "2", "--secret", "9876"],
        "012\n4B\n0123\n0123\n",
    );
    assert_eq!(code, 1);
    says(
        &out,
        &[
            "not counted: \"012\" has 3 symbols",
            "not counted: \"4B\"",
            "not counted: you already guessed 0123 (guess 1)",
        ],
    );
    assert!(
        err.contains("error: input ended before the duel was over; my secret was "),
        "{err}"
    );
}

/// The book's table of the levels' strength: each level stronger than the last, the perfect
/// one at the proven optimum of 26274 guesses over 5040 secrets (5.2131 on average).
#[test]
fn duel_levels_prints_each_level_strength() {
    says(
        &run_ok(&["duel", "--levels"], ""),
        &[
            "5040 secrets",
            "|     4 | Perfect     | optimal |  5.2131 |     7 |",
            "| Beginner    | random  |",
        ],
    );
}
