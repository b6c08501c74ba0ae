//! Snapshots (insta) of every deterministic `--json` output and of every `--help`.
//!
//! A change to any of them fails here with a diff. When the change is meant, accept it with
//! `INSTA_UPDATE=always cargo test --test cli snapshots` (or `cargo insta review`) and commit the
//! files under `tests/cli/snapshots/` with the change. Times, temporary paths and the search's
//! node count (work done, not a result, and changed by every speed-up of the search) are
//! redacted.

use serde_json::Value;

use crate::common::{json_of, moo, stdout_of};

/// `moo ARGS`, as a terminal of 100 columns would show it.
fn moo_wide(args: &[&str]) -> assert_cmd::Command {
    let mut cmd = moo();
    // Help wraps at the terminal's width; a pipe has none, so fix it.
    cmd.env("COLUMNS", "100").args(args);
    cmd
}

/// Runs `moo ARGS` and returns its stdout, which must be the whole output of a success.
fn stdout(args: &[&str]) -> String {
    stdout_of(&mut moo_wide(args))
}

fn json(args: &[&str]) -> Value {
    json_of(&mut moo_wide(args))
}

#[test]
fn bench_json() {
    let report = json(&[
        "bench",
        "--length",
        "3",
        "--symbols",
        "012345",
        "-S",
        "knuth,random",
        "--runs",
        "2",
        "--seed",
        "1",
        "--json",
    ]);
    insta::assert_json_snapshot!(report, {
        ".results[].seconds" => "[seconds]",
        ".results[].runs[].seconds" => "[seconds]",
    });
}

#[test]
fn tree_build_json() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree.json");
    let file = file.to_str().unwrap();
    let stats = json(&[
        "tree",
        "build",
        "--length",
        "3",
        "--symbols",
        "012345",
        "-o",
        file,
        "--json",
    ]);
    insta::assert_json_snapshot!(stats, {
        ".seconds" => "[seconds]",
        ".file" => "[file]",
        ".nodes" => "[nodes]",
        // The best level this CPU has: every level builds the same tree (tests/cli/kernels.rs).
        ".kernel" => "[kernel]",
    });
    // The tree written is what `tree verify` reads back, with the same figures.
    let verified = json(&["tree", "verify", "--json", file]);
    for key in ["secrets", "total", "max", "histogram"] {
        assert_eq!(verified[key], stats[key], "{key}");
    }
}

#[test]
fn tree_verify_json() {
    let shipped = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/crates/moo-core/trees/bulls-4x10-average.json"
    );
    insta::assert_json_snapshot!(json(&["tree", "verify", "--json", shipped]));
}

#[test]
fn solve_json() {
    insta::assert_json_snapshot!(
        "solve_json_bulls",
        json(&["solve", "--secret", "4271", "--json"])
    );
    insta::assert_json_snapshot!(
        "solve_json_mastermind",
        json(&[
            "solve",
            "--game",
            "mastermind",
            "--secret",
            "6512",
            "--json"
        ])
    );
}

#[test]
fn hint_json() {
    // A minute's limit, so the exact search always finishes, whatever the machine's load.
    insta::assert_json_snapshot!(
        json(&["hint", "0123=1B2C", "4567=0B1C", "--json", "--time-limit", "60s"]),
        { ".advice.seconds" => "[seconds]" }
    );
}

#[test]
fn review_json() {
    insta::assert_json_snapshot!(
        json(&[
            "review",
            "--game",
            "mastermind",
            "1122=1B0C",
            "1344=0B2C",
            "3535=1B1C",
            "--json",
            "--time-limit",
            "60s"
        ]),
        { ".seconds" => "[seconds]", ".moves[].seconds" => "[seconds]" }
    );
}

#[test]
fn crack_json() {
    insta::assert_json_snapshot!(
        "crack_json_one_secret",
        json(&["crack", "--length", "20", "--seed", "7", "--json"]),
        { ".seconds" => "[seconds]" }
    );
    insta::assert_json_snapshot!(
        "crack_json_trials",
        json(&["crack", "--trials", "3", "--length", "12", "--seed", "7", "--json"]),
        { ".seconds_mean" => "[seconds]", ".seconds_max" => "[seconds]" }
    );
}

/// `--help` of moo and of every subcommand, found by walking the CLI's own listing so a new
/// subcommand cannot be left out.
#[test]
fn help() {
    let mut commands: Vec<Vec<String>> = vec![Vec::new()];
    let mut seen = 0;
    while seen < commands.len() {
        let command = commands[seen].clone();
        seen += 1;
        let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
        args.push("--help");
        let text = stdout(&args);
        let name = if command.is_empty() {
            "help_moo".to_string()
        } else {
            format!("help_moo_{}", command.join("_"))
        };
        insta::assert_snapshot!(name, text);
        for sub in subcommands(&text) {
            let mut path = command.clone();
            path.push(sub);
            commands.push(path);
        }
    }
    // moo, its eleven subcommands, tree's build, verify, show, export, split, job, join, status,
    // bound, refute and kernels, and bench's advisor, review and arena.
    assert_eq!(commands.len(), 27);
}

/// The names listed under "Commands:" in a help text, less `help` itself.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}
