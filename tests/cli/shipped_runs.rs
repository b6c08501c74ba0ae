//! The exact runs shipped with the repository: a run's state, unpacked, joins to the optimal
//! tree shipped beside it, so that the proof is the state and anyone can derive it again.

use std::path::Path;
use std::process::Command;

use crate::common::{moo, says, stdout_of};

/// Bulls and Cows 5 of 0-8's split run (`runs/bulls-5x9/`, 14.3 CPU hours) is finished: its
/// 1771 results, checked against the jobs the join derives from them, prove 81847, and the
/// join writes the shipped tree byte for byte.
#[test]
#[ignore = "joins 1771 results, about a minute of CPU and 350 MB in release; run with --ignored"]
fn the_shipped_5_of_0_8_run_joins_to_the_shipped_optimal_tree() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let tmp = tempfile::tempdir().unwrap();
    let unpacked = Command::new("tar")
        .arg("xzf")
        .arg(root.join("runs/bulls-5x9/b59.tar.gz"))
        .arg("-C")
        .arg(tmp.path())
        .status()
        .expect("tar runs");
    assert!(unpacked.success());
    let dir = tmp.path().join("b59");
    says(
        &stdout_of(moo().args(["tree", "status", "--summary"]).arg(&dir)),
        &["1771 jobs written (123 in round 1), 1771 with a result, 0 to run"],
    );
    let joined = tmp.path().join("b59.json");
    says(
        &stdout_of(
            moo()
                .args(["tree", "join"])
                .arg(&dir)
                .arg("-o")
                .arg(&joined),
        ),
        &["total     81847\n", "average   5.4132\n"],
    );
    let shipped = Command::new("gzip")
        .arg("-dc")
        .arg(root.join("crates/moo-core/trees/bulls-5x9-average.json.gz"))
        .output()
        .expect("gzip runs");
    assert!(shipped.status.success());
    assert!(
        std::fs::read(&joined).unwrap() == shipped.stdout,
        "the join's tree differs from crates/moo-core/trees/bulls-5x9-average.json.gz"
    );
}
