//! Helpers shared by the CLI tests: one way to run `moo` and read what it printed, as ripgrep's
//! `tests/util.rs` gives every test one command builder, so that a test says what it runs and what
//! it expects, never how to collect a child's output.

use std::ffi::OsStr;

use assert_cmd::Command;
use moo_core::published::Game;
use serde_json::Value;

/// The `moo` binary under test, with no terminal and no colour.
pub fn moo() -> Command {
    let mut cmd = Command::cargo_bin("moo").expect("the moo binary is built");
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Runs a prepared `moo` command, asserts that it succeeds, and returns what it printed.
pub fn stdout_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).expect("stdout is UTF-8")
}

/// Runs a prepared `moo` command, asserts that it succeeds, and parses what it printed as JSON.
pub fn json_of(cmd: &mut Command) -> Value {
    let text = stdout_of(cmd);
    serde_json::from_str(&text).unwrap_or_else(|e| {
        let start: String = text.chars().take(300).collect();
        panic!("moo printed no JSON ({e}): {start:?}")
    })
}

/// Runs a prepared `moo` command, asserts that it exits with `code` and that its stderr says
/// each of `wants`, and returns the stderr.
#[track_caller]
pub fn fails(cmd: &mut Command, code: i32, wants: &[&str]) -> String {
    let out = cmd.assert().code(code).get_output().stderr.clone();
    let stderr = String::from_utf8(out).expect("stderr is UTF-8");
    says(&stderr, wants);
    stderr
}

/// Asserts that `text` (what moo printed) holds each of `wants`, showing all of it when one is
/// missing: most tests check several lines of one output, and a list says that in one place.
#[track_caller]
pub fn says(text: &str, wants: &[&str]) {
    for want in wants {
        assert!(text.contains(want), "lacks {want:?}: {text}");
    }
}

/// `moo ARGS`, which must succeed: what it printed, parsed as JSON.
pub fn moo_json<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> Value {
    json_of(moo().args(args))
}

/// `moo ARGS`, which must succeed: what it printed.
pub fn moo_stdout<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(args: I) -> String {
    stdout_of(moo().args(args))
}

/// `moo ARGS`, which must exit with `code` and say each of `says` on stderr: the stderr.
pub fn moo_fails<I: IntoIterator<Item = S>, S: AsRef<OsStr>>(
    args: I,
    code: i32,
    says: &[&str],
) -> String {
    fails(moo().args(args), code, says)
}

/// Runs `moo` with `args` and `stdin`, returning (exit code, stdout, stderr), for the tests that
/// read both streams or an exit code that may vary.
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = moo()
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("moo runs");
    (
        out.status
            .code()
            .expect("moo exits normally, not by a signal"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Runs `moo` with `args` and `stdin`, asserts that it exits 0 (showing its stderr if not), and
/// returns its stdout: the usual start of a test of an interactive command.
#[track_caller]
pub fn run_ok(args: &[&str], stdin: &str) -> String {
    let (code, out, err) = run(args, stdin);
    assert_eq!(code, 0, "{err}");
    out
}

/// The rule flags that select a published game.
pub fn game_args(game: &Game) -> Vec<String> {
    vec![
        "--length".into(),
        game.length.to_string(),
        "--symbols".into(),
        game.symbols.into(),
        if game.repeats {
            "--repeats"
        } else {
            "--distinct"
        }
        .into(),
    ]
}

/// The histogram in a `--json` report, with the games given up.
pub fn json_histogram(report: &serde_json::Value, gave_up: &str) -> moo_core::Histogram {
    let counts = report["histogram"]
        .as_array()
        .expect("the report has a histogram")
        .iter()
        .map(|c| c.as_u64().expect("counts are whole numbers"))
        .collect();
    let mut histogram = moo_core::Histogram::from_counts(counts);
    histogram.give_up(report[gave_up].as_u64().unwrap_or(0));
    histogram
}
