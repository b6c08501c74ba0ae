//! The checker on every refutation shipped in `refutations/`, each against the claim its game's
//! optimal worst case makes (the figures of the book's exact-results page, one less), and on
//! refutations broken in each way it must catch.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const SHIPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../refutations");

/// Each shipped refutation's file stem and the guesses it proves not enough: one fewer than the
/// game's optimal worst case.
const CLAIMS: &[(&str, u32)] = &[
    ("bulls-4x9", 5),
    ("bulls-4x10", 6),
    ("mastermind-3x4", 3),
    ("mastermind-3x5", 4),
    ("mastermind-3x6", 4),
    ("mastermind-3x7", 5),
    ("mastermind-3x8", 5),
    ("mastermind-3x9", 5),
    ("mastermind-3x10", 6),
    ("mastermind-4x6", 4),
    ("mastermind-4x7", 5),
    ("mastermind-4x8", 5),
    ("mastermind-5x5", 4),
    ("mastermind-5x6", 5),
];

/// Runs the checker on `file` (a path, or `-` with `stdin`): (succeeded, stdout, stderr).
fn check(file: &str, stdin: Option<&str>) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_refutation-check"))
        .arg(file)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the checker runs");
    let mut input = child.stdin.take().expect("piped");
    input
        .write_all(stdin.unwrap_or("").as_bytes())
        .expect("the checker reads its input");
    drop(input);
    let out = child.wait_with_output().expect("the checker ends");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn shipped(stem: &str) -> PathBuf {
    Path::new(SHIPPED).join(format!("{stem}.txt.gz"))
}

/// The text of a shipped refutation.
fn text_of(stem: &str) -> String {
    let file = std::fs::File::open(shipped(stem)).expect("the refutation is shipped");
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .expect("gzip of UTF-8 text");
    text
}

/// The refutations whose check takes minutes, with their claims: the ignored test below checks
/// them (`refutation-check` gives each one's time).
const SLOW: &[(&str, u32)] = &[
    ("bulls-4x10-no-leading", 6),
    ("bulls-5x9", 6),
    ("mastermind-4x9", 6),
];

#[test]
fn every_shipped_refutation_proves_its_claim() {
    let mut files: Vec<String> = std::fs::read_dir(SHIPPED)
        .expect("refutations/ is shipped")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let mut listed: Vec<String> = CLAIMS
        .iter()
        .chain(SLOW)
        .map(|(s, _)| format!("{s}.txt.gz"))
        .collect();
    listed.sort();
    assert_eq!(files, listed, "refutations/ and this test's list differ");
    for (stem, within) in CLAIMS {
        let (ok, out, err) = check(shipped(stem).to_str().unwrap(), None);
        assert!(ok, "{stem}: {err}");
        let claim = format!("within {within} guesses\n");
        assert!(
            out.starts_with("verified: no strategy wins") && out.contains(&claim),
            "{stem}: {out}"
        );
    }
}

#[test]
#[ignore = "minutes of CPU: run with --ignored"]
fn the_longest_shipped_refutations_prove_their_claims() {
    for (stem, within) in SLOW {
        let (ok, out, err) = check(shipped(stem).to_str().unwrap(), None);
        assert!(ok, "{stem}: {err}");
        let claim = format!("within {within} guesses\n");
        assert!(out.contains(&claim), "{stem}: {out}");
    }
}

/// `text` with the first line `pick` accepts removed, with the closing "." of the position it
/// opens when it opens one.
fn without_entry(text: &str, pick: impl Fn(&str) -> bool) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|l| pick(l)).expect("such an entry");
    let mut end = at + 1;
    if lines[at].ends_with('>') {
        let mut depth = 1;
        while depth > 0 {
            depth += i32::from(lines[end].ends_with('>')) - i32::from(lines[end] == ".");
            end += 1;
        }
    }
    let kept: Vec<&str> = lines[..at].iter().chain(&lines[end..]).copied().collect();
    kept.join("\n") + "\n"
}

#[test]
fn a_missing_entry_is_found() {
    let text = text_of("mastermind-4x7");
    let broken = without_entry(&text, |l| l.ends_with('>') && !l.starts_with("1111"));
    let (ok, _, err) = check("-", Some(&broken));
    assert!(!ok);
    assert!(
        err.contains("is not refuted") && err.contains("is listed nowhere"),
        "{err}"
    );
    // Bulls and Cows 4x10: an entry left to the two-guess test.
    let text = text_of("bulls-4x10");
    let broken = without_entry(&text, |l| l.ends_with("try"));
    let (ok, _, err) = check("-", Some(&broken));
    assert!(!ok && err.contains("is not refuted"), "{err}");
}

#[test]
fn a_claim_one_guess_longer_fails() {
    // Mastermind 4x7 is won within 6 guesses: the refutation of 5 cannot pass for 6.
    let text = text_of("mastermind-4x7").replace("within 5\n", "within 6\n");
    let (ok, _, err) = check("-", Some(&text));
    assert!(!ok, "{err}");
}

#[test]
fn malformed_files_are_refused_with_the_line() {
    let good = text_of("mastermind-4x7");
    let edit = |from: &str, to: &str| good.replacen(from, to, 1);
    let entry = "1112 0B0C >";
    let cases: Vec<(String, &str)> = vec![
        ("hello\n".into(), "line 1: expected \"moo-refutation 1\""),
        (edit("length 4", "length 0"), "the length must be"),
        (
            edit("symbols 1234567", "symbols 1123"),
            "different characters",
        ),
        (
            edit("repeats yes", "repeats maybe"),
            "expected \"yes\" or \"no\"",
        ),
        (edit(entry, "1112 0B0C ?"), "unknown kind"),
        (edit(entry, "1119 0B0C >"), "is not a code of the game"),
        (edit(entry, "1112 4B0C >"), "wins"),
        (edit(entry, "1112 3B1C >"), "no answer a code of length 4"),
        (edit(entry, "1112 0B0D >"), "is not an answer"),
        (edit(entry, "1112 4B0C"), "expected \"GUESS ANSWER try\""),
        (
            good.trim_end().trim_end_matches('.').into(),
            "it ends where",
        ),
        (format!("{good}2345 0B0C >\n"), "follows the root's closing"),
    ];
    for (text, want) in cases {
        let (ok, _, err) = check("-", Some(&text));
        assert!(!ok && err.contains(want), "wanted {want:?}: {err}");
    }
    let (ok, _, err) = check("/nonexistent/refutation.txt", None);
    assert!(!ok && err.contains("cannot open it"), "{err}");
}
