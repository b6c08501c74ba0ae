//! A resumable search: what is proven about large sets, appended to a file as it is proven.
//!
//! A set's exact cost, or a lower bound from a failed search, is a fact about the set alone (for
//! given rules, guess pool, objective and depth limit), whichever path reached it. So a search
//! that writes those facts down as it goes can be killed at any moment and started again: the
//! new run loads every fact into its cache before it starts and skips the work behind them,
//! finishing with the same tree. Only sets of at least [`Checkpoint::DEFAULT_MIN_SET`] codes are
//! written (the second- and third-level subproblems of a big game, where the hours go); smaller
//! ones are quick to redo and would make the file huge.
//!
//! The file is plain text: a header line naming the search, then one line per fact,
//! `tag depth bound total worst guess members checksum`, with `-` for the exact fields of a
//! bound. Each line is appended with one write and ends with a checksum of the rest, so the
//! line a killed process left half-written is recognised and ignored.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::memo::{Entry, Memo};
use super::solved::Solved;
use super::SearchOptions;
use crate::space::CodeSpace;
use crate::stop::Stop;

/// The first line's first word, with the format version.
const MAGIC: &str = "moo-tree-checkpoint/1";

/// Why a checkpoint cannot be used.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CheckpointError {
    /// Reading or writing the file failed.
    #[error("checkpoint {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// The file was written by a search of other rules or options.
    #[error("checkpoint {path} belongs to another search ({found}), not this one ({wanted}): use another file, or delete it to start over")]
    OtherSearch {
        /// The file.
        path: PathBuf,
        /// The search the file is for.
        found: String,
        /// The search asked for.
        wanted: String,
    },
}

/// One proven fact read from the file.
struct Record {
    tag: u8,
    depth: u8,
    entry: Entry,
    set: Vec<u32>,
}

/// An open checkpoint file: the facts it held when opened, and the file to append new ones to.
pub struct Checkpoint {
    path: PathBuf,
    file: Mutex<File>,
    records: Vec<Record>,
    /// Lines that were not whole (a killed writer's last line).
    damaged: usize,
    written: AtomicU64,
    failed: AtomicU64,
    min_set: usize,
    /// For tests: cancel this after so many facts are written, to interrupt a search at a
    /// reproducible point.
    cancel_after: Option<(u64, Stop)>,
}

impl std::fmt::Debug for Checkpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Checkpoint")
            .field("path", &self.path)
            .field("loaded", &self.records.len())
            .field("written", &self.written())
            .finish()
    }
}

impl Checkpoint {
    /// Sets smaller than this are not written down.
    pub const DEFAULT_MIN_SET: usize = 40;

    /// Opens the checkpoint at `path` for the search of `space` under `options`, creating it if
    /// it does not exist, and reads the facts it holds.
    pub fn open(
        path: &Path,
        space: &CodeSpace,
        options: &SearchOptions,
    ) -> Result<Checkpoint, CheckpointError> {
        let io = |source| CheckpointError::Io {
            path: path.to_path_buf(),
            source,
        };
        let wanted = header(space, options);
        let text = match std::fs::read(path) {
            Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(io(e)),
        };
        let mut lines = text.split_inclusive('\n');
        let mut records = Vec::new();
        let mut damaged = 0;
        let mut file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        match lines.next() {
            // A file that is empty, or whose header was cut short, starts over.
            None => file
                .write_all(format!("{wanted}\n").as_bytes())
                .map_err(io)?,
            Some(first) if !first.ends_with('\n') && text.len() == first.len() => {
                file.set_len(0).map_err(io)?;
                file.write_all(format!("{wanted}\n").as_bytes())
                    .map_err(io)?;
            }
            Some(first) => {
                let found = first.trim_end();
                if found != wanted {
                    return Err(CheckpointError::OtherSearch {
                        path: path.to_path_buf(),
                        found: found.to_string(),
                        wanted,
                    });
                }
                for line in lines {
                    match line.strip_suffix('\n').and_then(parse) {
                        Some(record) => records.push(record),
                        None => damaged += 1,
                    }
                }
                // Start on a fresh line if the last one was cut short.
                if !text.ends_with('\n') {
                    file.write_all(b"\n").map_err(io)?;
                }
            }
        }
        Ok(Checkpoint {
            path: path.to_path_buf(),
            file: Mutex::new(file),
            records,
            damaged,
            written: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            min_set: Checkpoint::DEFAULT_MIN_SET,
            cancel_after: None,
        })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Facts read from the file when it was opened.
    pub fn loaded(&self) -> usize {
        self.records.len()
    }

    /// Lines of the file that were not whole facts (at most the last line a killed run was
    /// writing), ignored.
    pub fn damaged(&self) -> usize {
        self.damaged
    }

    /// Facts appended since the file was opened.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    /// Facts that could not be written (a full disk, say).
    pub fn failed(&self) -> u64 {
        self.failed.load(Ordering::Relaxed)
    }

    /// Writes down sets of at least `min_set` codes (tests use small games).
    #[cfg(test)]
    pub(crate) fn with_min_set(mut self, min_set: usize) -> Checkpoint {
        self.min_set = min_set;
        self
    }

    /// Cancels `stop` once `facts` facts have been written (tests interrupt a search with it).
    #[cfg(test)]
    pub(crate) fn cancel_after(mut self, facts: u64, stop: Stop) -> Checkpoint {
        self.cancel_after = Some((facts, stop));
        self
    }

    /// Puts every fact of the search tagged `tag` into `memo`, for a space of `codes` codes.
    pub(super) fn load_into(&self, tag: u8, memo: &Memo, codes: usize) {
        for r in self.records.iter().filter(|r| r.tag == tag) {
            if r.set.last().is_some_and(|&m| (m as usize) < codes) {
                memo.put(&r.set, r.depth, r.entry);
            }
        }
    }

    /// Appends what was proven about `set` within `depth` guesses, if the set is large enough
    /// to be worth it. A failed write is only counted ([`Checkpoint::failed`]): the search goes
    /// on, since its result does not depend on the file; only a resumed run would lose the fact.
    pub(super) fn record(&self, tag: u8, set: &[u32], depth: u8, entry: Entry) {
        if set.len() < self.min_set {
            return;
        }
        let mut line = format!("{tag} {depth} {}", entry.bound);
        match entry.exact {
            Some(s) => line += &format!(" {} {} {}", s.total, s.worst, s.guess),
            None => line += " - - -",
        }
        line.push(' ');
        for (i, m) in set.iter().enumerate() {
            if i > 0 {
                line.push(',');
            }
            line += &m.to_string();
        }
        let sum = checksum(&line);
        line += &format!(" {sum:016x}\n");
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if file.write_all(line.as_bytes()).is_err() {
            self.failed.fetch_add(1, Ordering::Relaxed);
        } else {
            let n = self.written.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some((after, stop)) = &self.cancel_after {
                if n >= *after {
                    stop.cancel();
                }
            }
        }
    }
}

/// The header line: the format and everything the facts depend on.
fn header(space: &CodeSpace, options: &SearchOptions) -> String {
    let rules = serde_json::to_string(space.rules()).unwrap_or_default();
    format!(
        "{MAGIC} rules={rules} objective={:?} guesses={:?} max_depth={:?}",
        options.objective, options.guesses, options.max_depth
    )
}

/// FNV-1a: enough to tell a whole line from a cut or garbled one.
fn checksum(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn parse(line: &str) -> Option<Record> {
    let (body, sum) = line.rsplit_once(' ')?;
    if u64::from_str_radix(sum, 16).ok()? != checksum(body) {
        return None;
    }
    let mut fields = body.split(' ');
    let tag = fields.next()?.parse().ok()?;
    let depth = fields.next()?.parse().ok()?;
    let bound = fields.next()?.parse().ok()?;
    let (total, worst, guess) = (fields.next()?, fields.next()?, fields.next()?);
    let exact = match (total, worst, guess) {
        ("-", "-", "-") => None,
        _ => Some(Solved {
            total: total.parse().ok()?,
            worst: worst.parse().ok()?,
            guess: guess.parse().ok()?,
        }),
    };
    let set = fields
        .next()?
        .split(',')
        .map(|m| m.parse().ok())
        .collect::<Option<Vec<u32>>>()?;
    if fields.next().is_some() || !set.windows(2).all(|w| w[0] < w[1]) {
        return None;
    }
    Some(Record {
        tag,
        depth,
        entry: Entry { bound, exact },
        set,
    })
}
