//! The exact runs shipped with the repository: a run's state, unpacked, joins to the optimal
//! tree shipped beside it, so that the proof is the state and anyone can derive it again.

use std::path::Path;
use std::process::Command;

use crate::common::{moo, says, stdout_of};

/// A finished split run under `runs/`: its packed state, what `moo tree status --summary` says
/// of it, the totals the join prints, and the shipped tree the join must write byte for byte.
struct ShippedRun {
    tarball: &'static str,
    dir: &'static str,
    summary: &'static str,
    total: &'static str,
    average: &'static str,
    tree: &'static str,
}

/// Unpacks `run`, checks its summary, joins it (the join checks every result against the job it
/// derives from the results before it, and replays every secret) and compares the tree.
fn joins_to_its_shipped_tree(run: &ShippedRun) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let unpacked = Command::new("tar")
        .arg("xzf")
        .arg(root.join(run.tarball))
        .arg("-C")
        .arg(tmp.path())
        .status()
        .expect("tar runs");
    assert!(unpacked.success());
    let dir = tmp.path().join(run.dir);
    says(
        &stdout_of(moo().args(["tree", "status", "--summary"]).arg(&dir)),
        &[run.summary],
    );
    let joined = tmp.path().join("joined.json");
    says(
        &stdout_of(
            moo()
                .args(["tree", "join"])
                .arg(&dir)
                .arg("-o")
                .arg(&joined),
        ),
        &[run.total, run.average],
    );
    let shipped = Command::new("gzip")
        .arg("-dc")
        .arg(root.join(run.tree))
        .output()
        .expect("gzip runs");
    assert!(shipped.status.success());
    assert!(
        std::fs::read(&joined).unwrap() == shipped.stdout,
        "the join's tree differs from {}",
        run.tree
    );
}

/// Bulls and Cows 5 of 0-8's split run (`runs/bulls-5x9/`, 14.3 CPU hours) is finished: its
/// 1771 results prove 81847, and the join writes the shipped tree byte for byte.
#[test]
#[ignore = "joins 1771 results, about a minute of CPU and 350 MB in release (CI skips it); run with --ignored"]
fn the_shipped_5_of_0_8_run_joins_to_the_shipped_optimal_tree() {
    joins_to_its_shipped_tree(&ShippedRun {
        tarball: "runs/bulls-5x9/b59.tar.gz",
        dir: "b59",
        summary: "1771 jobs written (123 in round 1), 1771 with a result, 0 to run",
        total: "total     81847\n",
        average: "average   5.4132\n",
        tree: "crates/moo-core/trees/bulls-5x9-average.json.gz",
    });
}

/// Mastermind 5x7's split run (`runs/mastermind-5x7/`, 2.24 CPU hours) is finished: its 3177
/// results prove 85645, and the join writes the shipped tree byte for byte.
#[test]
#[ignore = "joins 3177 results, about 22 minutes of CPU and 650 MB in release (CI skips it); run with --ignored"]
fn the_shipped_mastermind_5x7_run_joins_to_the_shipped_optimal_tree() {
    joins_to_its_shipped_tree(&ShippedRun {
        tarball: "runs/mastermind-5x7/m57.tar.gz",
        dir: "m57",
        summary: "3177 jobs written (181 in round 1), 3177 with a result, 0 to run",
        total: "total     85645\n",
        average: "average   5.0958\n",
        tree: "crates/moo-core/trees/mastermind-5x7-average.json.gz",
    });
}
