//! A split run's directory, the only thing its machines share: `split.json` (the manifest),
//! one `NNNN.job.json` per job and, once run, its `NNNN.result.json` beside it. Numbered so a
//! batch system's task index names its job. Every reader here takes regular files only, of at
//! most [`MAX_TREE_FILE`] bytes: a planted link to a device or a FIFO is refused, not read
//! or waited on.

use std::path::{Path, PathBuf};

use super::{Job, JobResult, Split, SplitError};
use crate::text::{read_capped, ReadError};
use crate::tree::MAX_TREE_FILE;

/// The manifest's name in a run's directory.
const MANIFEST: &str = "split.json";

/// A file of a run that could not be read, or does not hold what its name says.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RunFileError {
    /// The directory has no manifest.
    #[error("{dir} has no {MANIFEST}: it is not a directory written by `moo tree split`")]
    NotARun {
        /// The directory.
        dir: String,
    },
    /// The file could not be read (missing, not a regular file, too large, not text).
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The file was read but is not a manifest, job or result of this run.
    #[error("{path}: {error}")]
    Content {
        /// The file.
        path: String,
        /// What is wrong with it.
        error: SplitError,
    },
    /// A result file that is there but cannot be used, which running its job again mends.
    #[error("{path} (delete it and run its job again): {error}")]
    Result {
        /// The file.
        path: String,
        /// What is wrong with it.
        error: SplitError,
    },
}

/// A run's directory: where each of its files is, and reading them.
#[derive(Debug, Clone)]
pub struct RunDir {
    path: PathBuf,
}

impl RunDir {
    /// The run whose files are in `path`.
    pub fn new(path: impl Into<PathBuf>) -> RunDir {
        RunDir { path: path.into() }
    }

    /// The directory.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The manifest's path.
    pub fn manifest(&self) -> PathBuf {
        self.path.join(MANIFEST)
    }

    /// Job `index`'s file.
    pub fn job(&self, index: usize) -> PathBuf {
        self.path.join(job_name(index))
    }

    /// Job `index`'s result file.
    pub fn result(&self, index: usize) -> PathBuf {
        self.path.join(result_name(index))
    }

    /// Whether `name` is one of the run's files, among its first `written` jobs. Read from the
    /// name, not by writing every job's two names for each entry: a run of 3000 jobs has 6000
    /// entries.
    pub fn holds(name: &str, written: usize) -> bool {
        if name == MANIFEST {
            return true;
        }
        let Some(number) = name
            .strip_suffix(".job.json")
            .or_else(|| name.strip_suffix(".result.json"))
        else {
            return false;
        };
        // Only the names [`job_name`] and [`result_name`] write: no sign, no extra zeros.
        number
            .parse::<usize>()
            .is_ok_and(|i| i < written && format!("{i:04}") == number)
    }

    /// The manifest.
    pub fn read_split(&self) -> Result<Split, RunFileError> {
        let path = self.manifest();
        if !path.exists() {
            return Err(RunFileError::NotARun {
                dir: self.path.display().to_string(),
            });
        }
        let text = read_capped(&path, MAX_TREE_FILE)?;
        Split::from_json(&text).map_err(|error| RunFileError::Content {
            path: path.display().to_string(),
            error,
        })
    }

    /// How many job files the directory holds: round 1's and those of the rounds written
    /// since, numbered on from them.
    pub fn written_jobs(&self, split: &Split) -> usize {
        (split.jobs.len()..)
            .find(|&i| !self.job(i).exists())
            .unwrap_or(split.jobs.len())
    }

    /// The result of every job written so far, `None` for those without one; each checked
    /// against its round-1 entry (later rounds are checked by the join).
    pub fn read_results(&self, split: &Split) -> Result<Vec<Option<JobResult>>, RunFileError> {
        (0..self.written_jobs(split))
            .map(|index| {
                let path = self.result(index);
                let result = JobResult::read(&path)?;
                if let Some(r) = &result {
                    split
                        .check_result(index, r)
                        .map_err(|error| RunFileError::Content {
                            path: path.display().to_string(),
                            error,
                        })?;
                }
                Ok(result)
            })
            .collect()
    }
}

/// Job `index`'s file name.
fn job_name(index: usize) -> String {
    format!("{index:04}.job.json")
}

/// Job `index`'s result file name.
fn result_name(index: usize) -> String {
    format!("{index:04}.result.json")
}

impl Job {
    /// The job file at `path`.
    pub fn read(path: &Path) -> Result<Job, RunFileError> {
        let text = read_capped(path, MAX_TREE_FILE)?;
        Job::from_json(&text).map_err(|error| RunFileError::Content {
            path: path.display().to_string(),
            error,
        })
    }
}

impl JobResult {
    /// The result file at `path`, `None` if there is none; a file that is there but unreadable
    /// is an error.
    pub fn read(path: &Path) -> Result<Option<JobResult>, RunFileError> {
        if !path.exists() {
            return Ok(None);
        }
        let text = read_capped(path, MAX_TREE_FILE)?;
        JobResult::from_json(&text)
            .map(Some)
            .map_err(|error| RunFileError::Result {
                path: path.display().to_string(),
                error,
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_holds_exactly_the_names_it_writes() {
        for written in [0, 1, 12, 10_001] {
            for i in [0, 1, 11, 12, 9_999, 10_000, 10_001] {
                for name in [job_name(i), result_name(i)] {
                    assert_eq!(RunDir::holds(&name, written), i < written, "{name}");
                }
            }
        }
        assert!(RunDir::holds("split.json", 0));
        for stranger in [
            "12.job.json",
            "00012.job.json",
            "+012.job.json",
            "0001.job.json.tmp",
            "x.result.json",
        ] {
            assert!(!RunDir::holds(stranger, 100), "{stranger}");
        }
    }
}
