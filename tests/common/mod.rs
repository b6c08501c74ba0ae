//! Helpers shared by the CLI tests.

use assert_cmd::Command;
use moo_core::published::Game;

/// The `moo` binary under test, with no terminal and no colour.
pub fn moo() -> Command {
    let mut cmd = Command::cargo_bin("moo").expect("the moo binary is built");
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Runs a prepared `moo` command, asserts that it succeeds, and parses what it printed as JSON.
pub fn json_of(cmd: &mut Command) -> serde_json::Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("moo printed JSON")
}

/// Runs `moo` with `args` and `stdin`, returning (exit code, stdout, stderr).
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
