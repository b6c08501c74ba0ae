//! A run of later guesses kept below the trees that the other runs of its position find, as
//! their results come into the jobs' directory: a round's runs of one position are written
//! together, and the first to find a tree bounds every other still running.

use std::path::PathBuf;
use std::sync::mpsc::{channel, RecvTimeoutError};
use std::time::Duration;

use moo_core::tree::{Ceiling, Job, JobResult, RunDir, Task};

/// How often a running job looks for new results of its position's other runs: a run of many
/// guesses takes minutes to hours, each of its guesses about a second.
const POLL: Duration = Duration::from_secs(5);

/// The result files of the other runs of `job`'s position among the `written` jobs of `dir`,
/// where `moo tree job` writes them by default; none, without reading a job file, when `job`
/// is not a run. A job file that cannot be read is passed over: the join names it.
pub(super) fn other_runs(dir: &RunDir, job: &Job, written: usize) -> Vec<PathBuf> {
    if !matches!(job.entry.task, Task::Guesses { .. }) {
        return Vec::new();
    }
    (0..written)
        .filter(|&i| i != job.entry.index)
        .filter_map(|i| {
            let other = Job::read(&dir.job(i)).ok()?;
            job.is_run_beside(&other.entry).then(|| dir.result(i))
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
        others.retain(|path| match JobResult::read(path) {
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

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use moo_core::tree::{
        exact_space, JobResult, Joined, PartOutcome, Progress, SearchOptions, Split, SplitOptions,
    };
    use moo_core::{Rules, Stop};

    use super::*;

    /// A run of later guesses that found a tree, and another run of its position: from the
    /// split of Bulls and Cows 4 of 0-7 with its parts above a tenth of the run deeper.
    fn a_tree_and_a_run_beside_it() -> (JobResult, Job) {
        let space = exact_space(Rules::new(4, "01234567", false, false).unwrap()).unwrap();
        let how = SplitOptions::default().with_share(Some(0.1));
        let (split, mut jobs) = Split::plan(&space, &SearchOptions::default(), &how).unwrap();
        let mut results = Vec::new();
        loop {
            let solved: Vec<JobResult> = jobs
                .iter()
                .map(|j| j.solve_in(&space, &Progress::new(), &Stop::never(), None))
                .collect::<Result<_, _>>()
                .unwrap();
            for tree in &solved {
                let is_run = matches!(tree.entry.task, Task::Guesses { .. });
                if !is_run || !matches!(tree.outcome, PartOutcome::Solved { .. }) {
                    continue;
                }
                if let Some(other) = jobs.iter().find(|j| j.is_run_beside(&tree.entry)) {
                    return (tree.clone(), other.clone());
                }
            }
            results.extend(solved.into_iter().map(Some));
            let Joined::Round { jobs: next, .. } = split.join(&results).unwrap() else {
                panic!("no position has two runs, one of them with a tree");
            };
            jobs = next;
        }
    }

    /// A result that comes in while the job runs lowers its ceiling within a poll or two.
    #[test]
    fn a_result_that_comes_in_while_a_run_runs_lowers_its_ceiling() {
        let (tree, run) = a_tree_and_a_run_beside_it();
        let bound = run
            .bound_from(&tree)
            .expect("a tree beside it gives a bound");
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("0001.result.json");
        let ceiling = Ceiling::new();
        let seen = watching(&run, vec![path.clone()], &ceiling, || {
            assert_eq!(ceiling.get(), u64::MAX, "nothing in yet");
            std::fs::write(&path, tree.to_json()).unwrap();
            let start = Instant::now();
            while ceiling.get() == u64::MAX && start.elapsed() < 4 * POLL {
                std::thread::sleep(Duration::from_millis(50));
            }
            ceiling.get()
        });
        assert_eq!(seen, bound);
    }

    /// A result already in lowers it before the job starts; one that cannot be read does not.
    #[test]
    fn results_already_in_lower_the_ceiling_at_once() {
        let (tree, run) = a_tree_and_a_run_beside_it();
        let tmp = tempfile::tempdir().unwrap();
        let (good, bad) = (tmp.path().join("good.json"), tmp.path().join("bad.json"));
        std::fs::write(&good, tree.to_json()).unwrap();
        std::fs::write(&bad, "{").unwrap();
        let ceiling = Ceiling::new();
        let seen = watching(&run, vec![bad, good], &ceiling, || ceiling.get());
        assert_eq!(Some(seen), run.bound_from(&tree));
    }
}
