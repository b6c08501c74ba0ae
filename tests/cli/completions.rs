//! `moo completions` and `moo man`: generated from the CLI definition, so they must know every
//! subcommand and flag of the binary that prints them.

use crate::common::{moo_fails, moo_stdout, run, says};

/// Every top-level subcommand; a new one must show up in completions and the manual too.
const SUBCOMMANDS: &[&str] = &[
    "play",
    "solve",
    "hint",
    "tree",
    "bench",
    "crack",
    "serve",
    "completions",
    "man",
];

#[test]
fn every_shell_completes_every_subcommand_and_flag() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, out, err) = run(&["completions", shell], "");
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(err.is_empty(), "{shell}: {err}");
        for sub in SUBCOMMANDS {
            assert!(out.contains(sub), "{shell} completions miss {sub}");
        }
        // Flags and values of nested subcommands are there too.
        for word in ["objective", "mastermind", "verify"] {
            assert!(out.contains(word), "{shell} completions miss {word}");
        }
    }
}

#[test]
fn an_unknown_shell_is_a_usage_error() {
    let (code, out, err) = run(&["completions", "tcsh"], "");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.contains("bash"), "{err}");
}

#[test]
fn the_manual_lists_every_subcommand() {
    let page = moo_stdout(["man"]);
    says(&page, &[".TH moo 1", ".SH SYNOPSIS"]);
    for sub in SUBCOMMANDS {
        // roff escapes the hyphen of moo-play(1).
        assert!(
            page.contains(&format!("moo\\-{sub}(1)")),
            "the manual misses {sub}"
        );
    }
}

#[test]
fn a_subcommand_has_its_own_page() {
    let page = moo_stdout(["man", "tree", "build"]);
    says(
        &page,
        &[
            ".TH moo-tree-build 1",
            "\\fBmoo tree build\\fR",
            "\\-\\-objective",
        ],
    );

    moo_fails(["man", "tree", "plant"], 2, &["build, verify, show"]);
}
