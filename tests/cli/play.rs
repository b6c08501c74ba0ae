//! `moo play`.

use crate::common::{fails, moo, moo_fails, run, run_ok, says, stdout_of};

/// The secret of a seeded game, learned by giving up.
fn secret_for(seed: &str, extra: &[&str]) -> String {
    let mut args = vec!["play", "--seed", seed];
    args.extend_from_slice(extra);
    let out = run_ok(&args, "give up\n");
    out.lines()
        .find_map(|l| l.strip_prefix("The secret was "))
        .expect("giving up reveals the secret")
        .trim_end_matches('.')
        .to_string()
}

#[test]
fn a_seeded_game_is_reproducible_and_winnable() {
    let secret = secret_for("42", &[]);
    assert_eq!(secret, secret_for("42", &[]));
    assert_eq!(secret.len(), 4);
    says(
        &run_ok(&["play", "--seed", "42"], &format!("{secret}\n")),
        &[
            &format!("guess 1: {secret}  4B0C"),
            "You got it in 1 guess!",
        ],
    );
}

#[test]
fn invalid_guesses_are_explained_and_not_counted() {
    let secret = secret_for("7", &[]);
    let input = format!("012\n01a3\n0113\n{secret}\n");
    says(
        &run_ok(&["play", "--seed", "7"], &input),
        &[
            "not counted: \"012\" has 3 symbols, but codes have 4",
            "not counted: \"01a3\" uses 'a'",
            "not counted: \"0113\" repeats '1'",
            "You got it in 1 guess!",
        ],
    );
}

#[test]
fn history_and_hint_commands() {
    says(
        &run_ok(
            &["play", "--seed", "1"],
            "0123\n4567\nhistory\nhint\ngive up\n",
        ),
        &[
            "   1. 0123  ",
            "   2. 4567  ",
            "still possible. Try ",
            "The secret was ",
        ],
    );
}

/// Hints speak plain words; the advisor's figures (groups, bits) only with --verbose.
#[test]
fn hints_speak_plainly_unless_verbose() {
    let out = run_ok(
        &["play", "--seed", "1"],
        "0123
hint
give up
",
    );
    assert!(out.contains("will be left"), "{out}");
    for word in ["bits", "group"] {
        assert!(!out.contains(word), "{word}: {out}");
    }
    let (_, verbose, _) = run(
        &["play", "--seed", "1", "--verbose"],
        "0123
hint
give up
",
    );
    assert!(verbose.contains("bits"), "{verbose}");
}

/// A repeated guess is refused in words and uses no turn, as on the web.
#[test]
fn a_repeated_guess_is_refused_without_a_turn() {
    let secret = secret_for("3", &[]);
    let first = if secret == "0123" { "4567" } else { "0123" };
    let out = run_ok(
        &["play", "--seed", "3"],
        &format!("{first}\n{first}\n{secret}\n"),
    );
    assert!(
        out.contains(&format!(
            "not counted: you already guessed {first} (guess 1), and it answered "
        )),
        "{out}"
    );
    says(&out, &[" bull", "You got it in 2 guesses!"]);
}

/// `moo play --help` says what an answer like 1B2C means.
#[test]
fn help_explains_bulls_and_cows() {
    let help = crate::common::moo_stdout(["play", "--help"]);
    says(
        &help,
        &[
            "1 bull (a right symbol in the right place)",
            "cows (a right",
        ],
    );
}

#[test]
fn mastermind_game_with_repeats() {
    let secret = secret_for("5", &["--game", "mastermind"]);
    assert!(secret.chars().all(|c| ('1'..='6').contains(&c)), "{secret}");
    let out = run_ok(
        &["play", "--seed", "5", "--game", "mastermind"],
        &format!("1122\n{secret}\n"),
    );
    assert!(out.contains("You got it in"), "{out}");
}

#[test]
fn input_ending_mid_game_is_an_error_that_reveals_the_secret() {
    fails(
        moo().args(["play", "--seed", "3"]).write_stdin("0123\n"),
        1,
        &["error: input ended before the game was over; the secret was "],
    );
}

#[test]
fn huge_and_binary_lines_do_not_break_the_game() {
    let secret = secret_for("9", &[]);
    let mut input = vec![b'7'; 100_000];
    input.push(b'\n');
    input.extend_from_slice(b"\xff\xfe12\n");
    input.extend_from_slice(format!("{secret}\n").as_bytes());
    let stdout = stdout_of(moo().args(["play", "--seed", "9"]).write_stdin(input));
    says(
        &stdout,
        &[
            "that line is too long",
            "not counted:",
            "You got it in 1 guess!",
        ],
    );
}

#[test]
fn bad_rules_are_usage_errors() {
    for (args, want) in [
        (
            vec!["play", "--length", "0"],
            "code length must be at least 1",
        ),
        (vec!["play", "--length", "11"], "allow repeats"),
        (vec!["play", "--symbols", "0120"], "appears more than once"),
        (vec!["play", "--symbols", ""], "alphabet is empty"),
        (vec!["play", "--length", "16", "--repeats"], "too long"),
    ] {
        let err = moo_fails(args, 2, &[want]);
        assert!(err.starts_with("error: invalid rules: "), "{err}");
    }
    moo_fails(["play", "--game", "chess"], 2, &["invalid value 'chess'"]);
}

#[test]
fn the_adversary_answers_from_piped_input_and_shows_a_secret_that_fits() {
    let out = run_ok(&["play", "--adversary"], "0123\n4567\ngive up\n");
    says(
        &out,
        &["I hold no secret", "win Bulls and Cows in 7 against it"],
    );
    // Every first guess is the same up to renaming digits, and 0B1C leaves the codes that need
    // the most guesses after it.
    assert!(out.contains("guess 1: 0123  0B1C"), "{out}");
    let secret = out
        .lines()
        .find_map(|l| l.strip_prefix("A secret that fits every answer: "))
        .expect("giving up shows a code that fits")
        .split(' ')
        .next()
        .unwrap();
    let rules = moo_core::Rules::bulls();
    let secret = rules.parse_code(secret).unwrap();
    for line in out.lines().filter(|l| l.starts_with("guess ")) {
        let mut words = line.split_whitespace().skip(2);
        let guess = rules.parse_code(words.next().unwrap()).unwrap();
        let answer = moo_core::Feedback::parse(words.next().unwrap(), 4).unwrap();
        assert_eq!(guess.score(&secret), answer, "{line}");
    }
}

#[test]
fn the_adversary_plays_mastermind_to_the_end() {
    // Mastermind 2x3 has nine codes: guessing them all in order wins at the latest at the last.
    let codes: Vec<String> = (1..=3)
        .flat_map(|a| (1..=3).map(move |b| format!("{a}{b}")))
        .collect();
    let out = run_ok(
        &[
            "play",
            "--adversary",
            "--game",
            "mastermind",
            "--length",
            "2",
            "--symbols",
            "123",
        ],
        &format!("{}\n\n", codes.join("\n")),
    );
    says(&out, &["You got it in", "A secret that fits every answer:"]);
    assert!(!out.contains("in 7 against"), "{out}");
}

/// Hard mode refuses a guess no code left could be, naming the answer it contradicts, and the
/// refusal uses no turn.
#[test]
fn hard_mode_refuses_an_impossible_guess_without_using_a_turn() {
    let secret = secret_for("3", &[]);
    let out = run_ok(
        &["play", "--seed", "3", "--hard"],
        &format!("0123\n4567\n{secret}\n"),
    );
    says(
        &out,
        &[
            "Hard mode: every guess must be a code",
            "guess 1: 0123  1B1C",
            "not counted: 4567 is not possible: guess 1, 0123, got 1 bull and 1 cow, but if the secret were 4567 it would have got 0 bulls and 0 cows.",
            &format!("guess 2: {secret}  4B0C"),
        ],
    );
    // Without hard mode the same guess counts.
    let (_, out, _) = run(&["play", "--seed", "3"], "0123\n4567\ngive up\n");
    assert!(out.contains("guess 2: 4567  0B"), "{out}");
}
