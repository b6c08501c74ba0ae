//! A run of later guesses kept below the trees that the other runs of its position find, as
//! their results come into the jobs' directory: a round's runs of one position are written
//! together, and the first to find a tree bounds every other still running.

use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use moo_core::tree::{Ceiling, Job};

use super::jobs::{read_job, read_result};

/// How often a running job looks for new results of its position's other runs: a run of many
/// guesses takes minutes to hours, each of its guesses about a second.
const POLL: Duration = Duration::from_secs(5);

/// The result files of the other runs of `job`'s position among the `written` jobs of `dir`,
/// where `moo tree job` writes them by default. A job file that cannot be read is passed over:
/// the join names it.
pub(super) fn other_runs(dir: &Path, job: &Job, written: usize) -> Vec<PathBuf> {
    (0..written)
        .filter(|&i| i != job.entry.index)
        .filter_map(|i| {
            let other = read_job(&dir.join(super::jobs::job_name(i))).ok()?;
            job.is_run_beside(&other.entry)
                .then(|| dir.join(super::jobs::result_name(i)))
        })
        .collect()
}

/// Runs `work` while `ceiling` is lowered by the results of the runs at `others` that are in
/// now and that come in until it ends. A result that cannot be read is passed over.
pub(super) fn watching<T>(
    job: &Job,
    mut others: Vec<PathBuf>,
    ceiling: &Ceiling,
    work: impl FnOnce() -> T,
) -> T {
    let mut look = move || {
        others.retain(|path| match read_result(path) {
            Ok(Some(result)) => {
                if let Some(bound) = job.bound_from(&result) {
                    ceiling.lower(bound);
                }
                false
            }
            Ok(None) => true,
            Err(_) => false,
        });
        !others.is_empty()
    };
    if !look() {
        return work();
    }
    std::thread::scope(|scope| {
        let (done, wait) = channel::<()>();
        scope.spawn(move || {
            while let Err(RecvTimeoutError::Timeout) = wait.recv_timeout(POLL) {
                if !look() {
                    break;
                }
            }
        });
        let out = work();
        drop(done);
        out
    })
}
