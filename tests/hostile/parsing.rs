//! Parsing: signs, invisible and combining symbols, conflicting flags and missing parts are
//! usage errors (exit 2) that say why; missing files are runtime errors (exit 1).

use crate::harness::{check, s, Case};

/// Symbols no alphabet may hold: invisible, bidirectional, combining, control, private, unassigned.
const ODD: [(&str, char); 8] = [
    ("U+202E", '\u{202E}'),
    ("U+200F", '\u{200F}'),
    ("U+200B", '\u{200B}'),
    ("U+FEFF", '\u{FEFF}'),
    ("U+0301", '\u{0301}'),
    ("U+0000-like control", '\u{0007}'),
    ("U+E000 private use", '\u{E000}'),
    ("U+0378 unassigned", '\u{0378}'),
];

/// Feedback with a sign or a stray comma is not read as a number.
#[test]
fn signed_feedback_is_refused() {
    let mut c = Vec::new();

    for feedback in ["-1B", "-1b2c", "1B-", "-1 2", "1 2-", ",1 2"] {
        c.push(
            Case::owned(
                format!("6 hint 0123={feedback}"),
                s(&["hint", &format!("0123={feedback}")]),
                2,
            )
            .says("cannot read"),
        );
    }

    check("signed_feedback_is_refused", c);
}

/// A case for each of [`ODD`]: `what` names the command, `args` makes its arguments from the
/// symbol, and the refusal says `says`.
fn odd_cases(what: &str, args: impl Fn(char) -> Vec<String>, says: &str) -> Vec<Case> {
    ODD.iter()
        .map(|&(name, ch)| Case::owned(format!("6 {what} with {name}"), args(ch), 2).says(says))
        .collect()
}

/// `hint --symbols` refuses each of [`ODD`].
#[test]
fn alphabets_with_odd_symbols_are_refused_by_hint() {
    let args = |ch| s(&["hint", "--symbols", &format!("abc{ch}d")]);
    check(
        "alphabets_with_odd_symbols_are_refused_by_hint",
        odd_cases("hint --symbols", args, "cannot be used"),
    );
}

/// `crack --symbols` refuses each of [`ODD`].
#[test]
fn alphabets_with_odd_symbols_are_refused_by_crack() {
    let args = |ch| {
        let symbols = format!("abc{ch}d");
        s(&["crack", "--repeats", "--length", "3", "--symbols", &symbols])
    };
    check(
        "alphabets_with_odd_symbols_are_refused_by_crack",
        odd_cases("crack --symbols", args, "cannot be used"),
    );
}

/// `crack --secret` refuses each of [`ODD`] as outside the alphabet.
#[test]
fn secrets_with_odd_symbols_are_refused() {
    let args = |ch| s(&["crack", "--repeats", "--secret", &format!("ab{ch}c")]);
    check(
        "secrets_with_odd_symbols_are_refused",
        odd_cases("crack --secret", args, "not in the alphabet"),
    );
}

/// A combining mark after a symbol is named; `--repeats --distinct` conflict.
#[test]
fn combining_marks_and_conflicting_flags_are_refused() {
    check(
        "combining_marks_and_conflicting_flags_are_refused",
        vec![
            Case::new(
                "6 hint abe+U+0301 over abcde",
                &[
                    "hint",
                    "--symbols",
                    "abcde",
                    "--length",
                    "3",
                    "abe\u{0301}=1B",
                ],
                2,
            )
            .says("U+0301"),
            Case::new(
                "6 hint --repeats --distinct",
                &["hint", "--repeats", "--distinct"],
                2,
            )
            .says("cannot be used with"),
            Case::new(
                "6 crack --repeats --distinct",
                &["crack", "--repeats", "--distinct", "--length", "5"],
                2,
            )
            .says("cannot be used with"),
        ],
    );
}

/// Turns with no `=`, no guess, no feedback, an impossible answer or a repeat.
#[test]
fn malformed_turns_are_usage_errors() {
    check(
        "malformed_turns_are_usage_errors",
        vec![
            Case::new("6 hint 0123 (no =)", &["hint", "0123"], 2),
            Case::new("6 hint =1B (no guess)", &["hint", "=1B"], 2),
            Case::new("6 hint 0123= (no feedback)", &["hint", "0123="], 2),
            Case::new("6 hint 0123=5B (impossible)", &["hint", "0123=5B"], 2),
            Case::new("6 hint 0023=1B (repeat)", &["hint", "0023=1B"], 2),
        ],
    );
}

/// Strategies that do not exist and tree files that are missing or of other rules.
#[test]
fn unknown_strategies_and_missing_files_are_refused() {
    check(
        "unknown_strategies_and_missing_files_are_refused",
        vec![
            Case::new(
                "6 solve --strategy nonsense",
                &["solve", "--secret", "0123", "--strategy", "nonsense"],
                2,
            ),
            Case::new("6 bench -S nonsense", &["bench", "-S", "nonsense"], 2),
            Case::new(
                "6 solve --strategy tree:missing",
                &["solve", "--secret", "0123", "--strategy", "tree:missing"],
                1,
            )
            .says("No such file"),
            Case::new(
                "6 bench -S tree:missing",
                &["bench", "-S", "tree:missing"],
                1,
            ),
            Case::new("6 tree verify missing", &["tree", "verify", "missing"], 1)
                .says("No such file"),
            Case::new("6 tree show missing", &["tree", "show", "missing"], 1),
            Case::new(
                "6 hint --strategy tree:tree.json (other rules)",
                &["hint", "--strategy", "tree:tree.json"],
                1,
            ),
        ],
    );
}
