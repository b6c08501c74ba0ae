//! `moo tree refute`: the refutations shipped in `refutations/` are what the command writes,
//! byte for byte, and claims it cannot refute are refused. That each refutation is a proof is
//! `refutation-check`'s to say (crates/refutation-check/tests).

use std::io::Read;
use std::path::Path;

use crate::common::{json_of, moo, moo_fails};

const SHIPPED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/refutations");

/// The claim of the shipped `mastermind-4x7` refutation: none wins Mastermind 4x7 within 5.
const MASTERMIND_4X7: &[&str] = &[
    "--game",
    "mastermind",
    "--symbols",
    "1234567",
    "--within",
    "5",
];

/// The claim of the shipped `mastermind-3x10` refutation: none wins Mastermind 3x10 within 6.
const MASTERMIND_3X10: &[&str] = &[
    "--game",
    "mastermind",
    "--length",
    "3",
    "--symbols",
    "0123456789",
    "--within",
    "6",
];

/// The text of a shipped refutation.
fn shipped(stem: &str) -> String {
    let file = std::fs::File::open(Path::new(SHIPPED).join(format!("{stem}.txt.gz"))).unwrap();
    let mut text = String::new();
    flate2::read::GzDecoder::new(file)
        .read_to_string(&mut text)
        .unwrap();
    text
}

#[test]
fn the_quick_shipped_refutations_are_written_again_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let games: [(&str, &[&str]); 4] = [
        ("mastermind-4x7", MASTERMIND_4X7),
        ("mastermind-3x10", MASTERMIND_3X10),
        ("mastermind-4x6", &["--game", "mastermind", "--within", "4"]),
        ("bulls-4x9", &["--symbols", "123456789", "--within", "5"]),
    ];
    for (stem, args) in games {
        let file = dir.path().join(format!("{stem}.txt"));
        let report = json_of(
            moo()
                .args(["tree", "refute", "--json", "--threads", "2", "-o"])
                .arg(&file)
                .args(args),
        );
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text, shipped(stem), "{stem}");
        assert_eq!(report["bytes"], text.len() as u64, "{stem}");
        let positions: u64 = report["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .sum();
        // One closing line per position; one entry line per position below the root and per
        // part left to the two-guess test.
        assert_eq!(text.lines().filter(|l| *l == ".").count() as u64, positions);
        assert_eq!(report["deeper"], positions - 1, "{stem}");
    }
}

/// A run given a checkpoint leaves there what its oracle proved about large sets; a second run
/// from it answers the same questions with fewer searches, logs its progress, and writes the same
/// refutation.
#[test]
fn a_checkpoint_spares_the_searches_of_a_second_run_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (checkpoint, log) = (dir.path().join("r.ckpt"), dir.path().join("r.log"));
    let run = |name: &str| {
        let file = dir.path().join(name);
        let report = json_of(
            moo()
                .args(["tree", "refute", "--json", "--threads", "1", "-o"])
                .arg(&file)
                .arg("--checkpoint")
                .arg(&checkpoint)
                .arg("--progress-log")
                .arg(&log)
                .args(MASTERMIND_4X7),
        );
        (std::fs::read_to_string(&file).unwrap(), report)
    };
    let (first, before) = run("first.txt");
    let (second, after) = run("second.txt");
    assert_eq!(first, shipped("mastermind-4x7"));
    assert_eq!(second, first);
    assert_eq!(before["checkpoint_loaded"], 0);
    let loaded = after["checkpoint_loaded"].as_u64().unwrap();
    assert!(loaded > 0, "{after}");
    assert_eq!(before["asked"], after["asked"]);
    assert!(
        after["searched"].as_u64() < before["searched"].as_u64(),
        "{before}\n{after}"
    );
    let lines = std::fs::read_to_string(&log).unwrap();
    assert_eq!(lines.matches(" started: ").count(), 2, "{lines}");
    assert_eq!(lines.matches(" ended: ").count(), 2, "{lines}");
}

/// `--estimate` follows random paths instead of writing: its figures agree with what the writer
/// writes, within a few standard errors, and the same seed gives the same figures on any number
/// of threads.
#[test]
fn an_estimate_agrees_with_the_refutation_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.txt");
    let claim = MASTERMIND_3X10;
    let written = json_of(
        moo()
            .args(["tree", "refute", "--json", "-o"])
            .arg(&file)
            .args(claim),
    );
    let estimate = |threads: &str| {
        let mut report = json_of(
            moo()
                .args([
                    "tree",
                    "refute",
                    "--json",
                    "--estimate",
                    "3000",
                    "--seed",
                    "7",
                ])
                .args(["--threads", threads])
                .args(claim),
        );
        report.as_object_mut().unwrap().remove("seconds");
        report
    };
    let (one, two) = (estimate("1"), estimate("2"));
    assert_eq!(one, two);
    assert_eq!(one["won_on_the_way"], 0);
    let close = |estimated: &serde_json::Value, exact: u64, what: &str| {
        let (mean, error) = (
            estimated["mean"].as_f64().unwrap(),
            estimated["error"].as_f64().unwrap(),
        );
        assert!(
            (mean - exact as f64).abs() <= 4.0 * error.max(1e-9),
            "{what}: estimated {mean} ± {error}, written {exact}"
        );
    };
    let levels = written["positions"].as_array().unwrap();
    for (d, (e, w)) in one["positions"]
        .as_array()
        .unwrap()
        .iter()
        .zip(levels)
        .enumerate()
    {
        close(
            e,
            w.as_u64().unwrap(),
            &format!("positions after {d} guesses"),
        );
    }
    for what in ["deeper", "tried", "counted", "bytes", "scorings"] {
        close(&one[what], written[what].as_u64().unwrap(), what);
    }
    // The estimate writes nothing, so it takes no output.
    moo_fails(
        [
            "tree",
            "refute",
            "--within",
            "3",
            "--estimate",
            "10",
            "-o",
            "x.txt",
        ],
        2,
        &["--output"],
    );
}

#[test]
fn a_claim_that_holds_is_not_refuted_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("r.txt");
    // Knuth's 5 guesses always win Mastermind.
    moo_fails(
        [
            "tree",
            "refute",
            "--game",
            "mastermind",
            "--within",
            "5",
            "-o",
            file.to_str().unwrap(),
        ],
        2,
        &[
            "a strategy wins every secret within 5 guesses",
            "--objective worst",
        ],
    );
    assert!(!file.exists());
    moo_fails(
        [
            "tree",
            "refute",
            "--within",
            "0",
            "-o",
            file.to_str().unwrap(),
        ],
        2,
        &["--within"],
    );
    moo_fails(["tree", "refute", "--within", "3"], 2, &["--output"]);
}
