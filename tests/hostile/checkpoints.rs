//! Checkpoints, progress logs and tree files: a file that is not a checkpoint is never
//! overwritten, special files are refused, a forged fact is an error naming it, and moo reads
//! the deepest trees it writes.

use std::path::Path;
use std::time::Duration;

use crate::harness::{check, s, small_build, Case, NOTES, SYMBOLS_64, TAMPERED};

/// `--checkpoint` never overwrites a file that is not a checkpoint (a tree was once destroyed).
#[test]
fn checkpoints_never_overwrite_another_file() {
    check(
        "checkpoints_never_overwrite_another_file",
        vec![
            onto_another_file("a tree file", "tree.json").check(tree_unchanged),
            onto_another_file("a text file", "notes.txt").check(notes_unchanged),
            onto_another_file("a Latin-1 file", "latin1.txt"),
            onto_another_file("a 64 MiB file", "big.json"),
            Case::owned(
                "30.3 --checkpoint new file",
                small_build(&["--checkpoint", "new.ckpt"]),
                0,
            )
            .creates("new.ckpt")
            .creates("x.json")
            .check(x_json_is_private),
        ],
    );
}

/// `--checkpoint` onto `file`, which is `what` and no checkpoint: refused, naming the file.
fn onto_another_file(what: &str, file: &str) -> Case {
    Case::fails(
        format!("30.3 --checkpoint onto {what}"),
        small_build(&["--checkpoint", file]),
        &format!("{file} is not a moo checkpoint"),
    )
}

/// Devices, FIFOs and directories are refused as checkpoints, promptly.
#[test]
fn special_files_are_refused_as_checkpoints() {
    let c = refused_promptly(
        "--checkpoint",
        &[
            ("zero", "not a regular file"),
            ("zero.json", "not a regular file"),
            ("fifo", "not a regular file"),
            ("adir", "not a regular file"),
        ],
    );
    check("special_files_are_refused_as_checkpoints", c);
}

/// And as progress logs.
#[test]
fn special_files_are_refused_as_progress_logs() {
    let mut c = refused_promptly(
        "--progress-log",
        &[
            ("fifo", "not a regular file"),
            ("null", "not a regular file"),
            ("adir", "it is a directory"),
            ("nonexistent/x.log", "cannot write the progress log"),
        ],
    );
    c.push(
        Case::owned(
            "30.4 --progress-log new file",
            small_build(&["--progress-log", "log.txt"]),
            0,
        )
        .creates("log.txt")
        .creates("x.json"),
    );
    check("special_files_are_refused_as_progress_logs", c);
}

/// The cases of a build writing `flag` onto each named special file, which must fail within 20
/// seconds saying what is wrong with it.
fn refused_promptly(flag: &str, files: &[(&str, &str)]) -> Vec<Case> {
    files
        .iter()
        .map(|&(name, what)| {
            Case::owned(format!("30.4 {flag} {name}"), small_build(&[flag, name]), 1)
                .devices()
                .says(what)
                .within(Duration::from_secs(20))
        })
        .collect()
}

/// Tampered facts: an error naming the line or the falsehood, never a panic or a worse tree;
/// and a line past the cap (a checkpoint is read a line at a time, with no cap on the file, as
/// a search of hours writes gigabytes, but one on a line, which no fact comes near).
#[test]
fn forged_checkpoints_are_refused() {
    let mut c = Vec::new();

    for (name, guess, root) in TAMPERED {
        let mut args = build_with_checkpoint(name);
        if *root {
            args.push("--json".into());
        }
        let case = Case::owned(format!("30.5 --checkpoint with guess {guess}"), args, 1);
        c.push(if *root {
            case.says("holds a false fact: the tree built from its facts costs 6318 in total, not the 5625 they claim")
        } else {
            case.says(&format!("{name}, line 2: guess {guess} is not a code of this game"))
        });
    }

    c.push(Case::fails(
        "30.5 --checkpoint with a line of 16 MiB",
        build_with_checkpoint("long-line.ckpt"),
        "long-line.ckpt, line 2: the line is longer than 16777216 bytes",
    ));

    check("forged_checkpoints_are_refused", c);
}

/// `moo tree build` of Mastermind 4x6 into `x.json`, with the checkpoint `name`.
fn build_with_checkpoint(name: &str) -> Vec<String> {
    s(&[
        "tree",
        "build",
        "--game",
        "mastermind",
        "-o",
        "x.json",
        "--checkpoint",
        name,
    ])
}

/// moo reads its own deep trees (serde_json's 128 levels refused them), and refuses nesting
/// past any tree it writes without overflowing its stack.
#[test]
fn deep_trees_are_read_and_deeper_nesting_refused() {
    check(
        "deep_trees_are_read_and_deeper_nesting_refused",
        vec![
            Case::new(
                "30.9 tree verify of a 64-guess-deep tree",
                &["tree", "verify", "deep.json"],
                0,
            ),
            Case::new(
                "30.9 tree show of a 64-guess-deep tree",
                &["tree", "show", "deep.json"],
                0,
            ),
            Case::new(
                "30.9 hint --strategy tree: of a 64-guess-deep tree",
                &[
                    "hint",
                    "--length",
                    "1",
                    "--symbols",
                    SYMBOLS_64,
                    "--strategy",
                    "tree:deep.json",
                ],
                0,
            ),
            Case::new(
                "30.9 tree verify of braces nested 100000 deep",
                &["tree", "verify", "nested.json"],
                1,
            )
            .says("nests 100002 levels deep"),
        ],
    );
}

fn notes_unchanged(dir: &Path) -> Result<(), String> {
    match std::fs::read_to_string(dir.join("notes.txt")) {
        Ok(text) if text == NOTES => Ok(()),
        other => Err(format!("notes.txt was changed: {other:?}")),
    }
}

fn tree_unchanged(dir: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(dir.join("tree.json")).map_err(|e| e.to_string())?;
    if text.starts_with("{\"rules\"") && text.len() > 1000 {
        Ok(())
    } else {
        Err(format!(
            "tree.json became {:?}",
            &text[..text.len().min(60)]
        ))
    }
}

/// The tree file written under the private umask is private.
fn x_json_is_private(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.join("x.json"))
        .map_err(|e| e.to_string())?
        .permissions()
        .mode();
    if mode & 0o077 == 0 {
        Ok(())
    } else {
        Err(format!(
            "x.json has mode {:o} under umask 077",
            mode & 0o777
        ))
    }
}
