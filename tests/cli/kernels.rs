//! `MOO_KERNEL` and `moo tree kernels`: every kernel level this CPU runs builds the same trees,
//! each build says which level it ran at, and a level that cannot run is refused up front.

use predicates::prelude::*;

use crate::common::{json_of, moo};

/// The levels `moo tree kernels --supported` lists, lowest first.
fn supported() -> Vec<String> {
    let out = moo()
        .args(["tree", "kernels", "--supported"])
        .env_remove("MOO_KERNEL")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Games whose searches take each kind of bulk pass: 14 feedbacks counted in nibbles
/// (Mastermind 4x6, 5625), 20 feedbacks of indexes up to 30 (five pegs of three colours, the OR
/// pass of bits or planes), and a distinct game (3 of 0-9, no leading zero).
const GAMES: [&[&str]; 3] = [
    &["--game", "mastermind"],
    &["--game", "mastermind", "--length", "5", "--symbols", "123"],
    &["--length", "3", "--no-leading-zero"],
];

#[test]
fn every_level_builds_the_same_tree_and_says_which_it_ran() {
    let levels = supported();
    assert_eq!(levels.first().map(String::as_str), Some("scalar"));
    let dir = tempfile::tempdir().unwrap();
    for (g, game) in GAMES.iter().enumerate() {
        let mut first: Option<Vec<u8>> = None;
        for level in &levels {
            let file = dir.path().join(format!("{g}-{level}.json"));
            let report = json_of(
                moo()
                    .env("MOO_KERNEL", level)
                    .args(["tree", "build", "--json", "--threads", "2", "-o"])
                    .arg(&file)
                    .args(*game),
            );
            assert_eq!(report["kernel"], level.as_str(), "{game:?}");
            if g == 0 {
                assert_eq!(report["total"], 5625, "{level}");
            }
            let tree = std::fs::read(&file).unwrap();
            match &first {
                None => first = Some(tree),
                Some(want) => assert!(*want == tree, "{game:?}: {level} built another tree"),
            }
        }
    }
}

#[test]
fn kernels_lists_every_level_and_marks_the_one_in_use() {
    let levels = supported();
    let report = json_of(
        moo()
            .args(["tree", "kernels", "--json"])
            .env("MOO_KERNEL", "scalar"),
    );
    assert_eq!(report["active"], "scalar");
    assert_eq!(report["detected"], levels.last().unwrap().as_str());
    let listed: Vec<&str> = report["levels"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["supported"] == true)
        .map(|l| l["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, levels);
    moo()
        .args(["tree", "kernels"])
        .env("MOO_KERNEL", "scalar")
        .assert()
        .success()
        .stdout(predicate::str::contains("scalar  in use"));
}

#[test]
fn an_unusable_kernel_is_a_usage_error_before_anything_runs() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("never.json");
    moo()
        .env("MOO_KERNEL", "sse9")
        .args(["tree", "build", "--length", "2", "-o"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("unknown kernel \"sse9\""))
        .stderr(predicate::str::contains("scalar, avx2, avx512, vbmi"));
    assert!(!file.exists());
    // A level above this CPU's names what it has instead.
    let levels = supported();
    for level in ["avx2", "avx512", "vbmi"] {
        if !levels.iter().any(|l| l == level) {
            moo()
                .env("MOO_KERNEL", level)
                .args(["solve", "--secret", "0123"])
                .assert()
                .code(2)
                .stderr(predicate::str::contains(format!(
                    "cannot run the {level} kernel"
                )));
        }
    }
}
