//! `scripts/verify-tree.py`, the checker that shares no code with moo, against every shipped tree
//! in both of moo's forms (JSON, gzipped or not, and `moo tree export`'s text), and against trees
//! that are wrong in each way it must catch. Python 3 is on every machine CI runs on; its absence
//! fails these tests rather than skipping them.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{json_of, moo, stdout_of};

const SCRIPT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/verify-tree.py");
const TREES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/crates/moo-core/trees");

/// Runs the verifier on `files` with `args`: (succeeded, stdout, stderr).
fn verifier(args: &[&str], files: &[&Path]) -> (bool, String, String) {
    let out = Command::new("python3")
        .arg(SCRIPT)
        .args(args)
        .args(files)
        .output()
        .expect("python3 runs (install Python 3)");
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

fn shipped() -> Vec<PathBuf> {
    let mut trees: Vec<PathBuf> = std::fs::read_dir(TREES)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    trees.sort();
    assert!(trees.len() >= 17, "{} trees", trees.len());
    trees
}

#[test]
fn every_shipped_tree_has_the_figures_moo_reports_in_both_forms() {
    let dir = tempfile::tempdir().unwrap();
    for tree in shipped() {
        let expected = json_of(moo().args(["tree", "verify", "--json"]).arg(&tree));
        let text = dir.path().join("tree.txt");
        stdout_of(moo().args(["tree", "export", "-o"]).arg(&text).arg(&tree));
        let (ok, out, err) = verifier(&["--json"], &[&tree, &text]);
        assert!(ok, "{}: {err}", tree.display());
        for line in out.lines() {
            let checked: serde_json::Value = serde_json::from_str(line).unwrap();
            for key in ["secrets", "total", "max", "at_worst", "histogram"] {
                assert_eq!(checked[key], expected[key], "{key} of {line}");
            }
        }
    }
}

/// The optimal tree of Mastermind 3x4, as JSON, to break.
fn small_tree() -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("small.json");
    moo()
        .args(["tree", "build", "--game", "mastermind", "--length", "3"])
        .args(["--symbols", "1234", "-o"])
        .arg(&file)
        .assert()
        .success();
    serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap()
}

/// The verifier's verdict on `contents` written to a file.
fn check(contents: &str, args: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("tree");
    std::fs::write(&file, contents).unwrap();
    let (ok, _, err) = verifier(args, &[&file]);
    (ok, err)
}

#[test]
fn wrong_json_trees_are_caught() {
    let good = small_tree();
    assert!(check(&good.to_string(), &[]).0);
    let (ok, err) = check(&good.to_string(), &["--expect-total", "1"]);
    assert!(!ok && err.contains("expected 1"), "{err}");

    let mut missing = good.clone();
    let children = missing["root"]["children"].as_object_mut().unwrap();
    let first = children.keys().next().unwrap().clone();
    children.remove(&first);
    let (ok, err) = check(&missing.to_string(), &[]);
    assert!(!ok && err.contains("have no branch"), "{err}");

    let mut illegal = good.clone();
    illegal["root"]["guess"] = "1235".into();
    let (ok, err) = check(&illegal.to_string(), &[]);
    assert!(!ok && err.contains("not a code"), "{err}");

    let mut other_rules = good;
    other_rules["rules"]["symbols"] = "12345".into();
    let (ok, err) = check(&other_rules.to_string(), &[]);
    assert!(!ok && err.contains("have no branch"), "{err}");
}

#[test]
fn wrong_text_trees_are_caught() {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("t.json");
    std::fs::write(&json, small_tree().to_string()).unwrap();
    let out = moo().args(["tree", "export"]).arg(&json).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(check(&text, &[]).0);
    let games: Vec<&str> = text.lines().filter(|l| !l.starts_with("# ")).collect();
    let header: Vec<&str> = text.lines().filter(|l| l.starts_with("# ")).collect();
    let join = |lines: &[&str]| lines.join("\n") + "\n";

    // A secret left out.
    let (ok, err) = check(&join(&[&header[..], &games[1..]].concat()), &[]);
    assert!(!ok && err.contains("have no line"), "{err}");
    // A secret twice.
    let twice = [&header[..], &games[..], &games[..1]].concat();
    let (ok, err) = check(&join(&twice), &[]);
    assert!(!ok && err.contains("has a line already"), "{err}");
    // Two lines that open differently: no single strategy plays both.
    let mut other = games.clone();
    let opening = if games[0].starts_with("444") {
        "333"
    } else {
        "444"
    };
    let changed = format!("{opening} {}", games[5]);
    other[5] = &changed;
    let (ok, err) = check(&join(&[&header[..], &other[..]].concat()), &[]);
    assert!(!ok && err.contains("not one strategy"), "{err}");
    // No rules.
    let (ok, err) = check(&join(&games), &[]);
    assert!(!ok && err.contains("rules"), "{err}");
}
