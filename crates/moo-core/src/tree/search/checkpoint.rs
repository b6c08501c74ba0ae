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
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use super::memo::{Entry, Memo};
use super::solved::{Solved, NO_GUESS, UNLIMITED};
use super::SearchOptions;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::text::{open_regular, ReadError};

/// The first line's first word, with the format version.
const MAGIC: &str = "moo-tree-checkpoint/1";

/// The longest line of a checkpoint read. A fact lists its set's members, so the longest line
/// a search writes is a few bytes per code of its game; the file itself has no cap, since a
/// search of hours writes gigabytes, and it is read a line at a time.
pub const MAX_CHECKPOINT_LINE: u64 = 1 << 24;

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
    /// The file cannot be read: a device, a pipe, a directory.
    #[error("checkpoint {0}")]
    Read(ReadError),
    /// The file is something else than a checkpoint, which moo never overwrites.
    #[error("{path} is not a moo checkpoint ({why}), so moo will not write its checkpoint there: give --checkpoint a new file name, or the name of a checkpoint")]
    NotACheckpoint {
        /// The file.
        path: PathBuf,
        /// What it holds instead.
        why: String,
    },
    /// A fact in the file does not fit the game: the file was edited or damaged.
    #[error("checkpoint {path}, line {line}: {why}; the file was edited or damaged: delete it to start over")]
    BadFact {
        /// The file.
        path: PathBuf,
        /// The line (1 is the header).
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// The facts of the file give a tree that costs more than they claim: one of them is false.
    #[error("checkpoint {path} holds a false fact: the tree built from its facts costs {replayed} in total, not the {claimed} they claim; the file was edited or damaged: delete it to start over")]
    FalseFact {
        /// The file.
        path: PathBuf,
        /// The total the facts claim.
        claimed: u64,
        /// The total of the tree built from them, played out.
        replayed: String,
    },
    /// A file read for a lower bound ([`ProvenSets::read`]) is no checkpoint of this game's
    /// search under the default options.
    #[error("{path} cannot bound this game: {why}; name the --checkpoint file of a `moo tree build` of the same game, without --objective, --max-depth or --guesses")]
    NotThisGame {
        /// The file.
        path: PathBuf,
        /// What it is instead.
        why: String,
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

/// What a fact of the file says, for a search other than the one that loads it into its cache.
#[derive(Debug, Clone, Copy)]
pub(super) struct Fact {
    /// Which search proved it.
    pub(super) tag: u8,
    /// A lower bound on the set's total, [`INF`](super::solved::INF) when nothing fits the depth.
    pub(super) bound: u32,
    /// Whether the set was solved within the depth.
    pub(super) exact: bool,
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
    /// The file to append to, and whether the next fact must start a fresh line first (the
    /// file ended with a line cut short, or a write failed partway).
    file: Mutex<(File, bool)>,
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
        let wanted = header(space, options);
        let mut lines = Lines::open(path)?;
        let first = match &mut lines {
            Some(lines) => lines.next()?.map(str::to_owned),
            None => None,
        };
        // Checked before the file is opened for writing, so another file is never touched.
        let restart = is_fresh(path, first.as_deref(), &wanted)?;
        let (records, damaged, cut_short) = match lines {
            Some(mut lines) if !restart => {
                let (records, damaged) = read_facts(&mut lines, space)?;
                (records, damaged, !lines.ended_whole)
            }
            _ => (Vec::new(), 0, false),
        };
        let file = open_to_append(path, restart, &wanted)?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            // The fresh line a cut-short file needs is written with the first new fact, not
            // now: a resumed run on a full disk still reads every fact and finishes.
            file: Mutex::new((file, cut_short)),
            records,
            damaged,
            written: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            min_set: Checkpoint::DEFAULT_MIN_SET,
            cancel_after: None,
        })
    }

    /// The error for a search whose plan, built with this file's facts, claimed `claimed` in
    /// total but plays out as `replayed` (`None`: it does not solve every secret).
    pub(super) fn false_fact(&self, claimed: u64, replayed: Option<u64>) -> CheckpointError {
        CheckpointError::FalseFact {
            path: self.path.clone(),
            claimed,
            replayed: replayed.map_or("more (it does not solve every secret)".into(), |t| {
                t.to_string()
            }),
        }
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

    /// Every fact the file held when opened: its set, depth and what was proven, with its tag.
    pub(super) fn facts(&self) -> impl Iterator<Item = (&[u32], u8, Fact)> {
        self.records.iter().map(|r| {
            let fact = Fact {
                tag: r.tag,
                bound: r.entry.bound,
                exact: r.entry.exact.is_some(),
            };
            (r.set.as_slice(), r.depth, fact)
        })
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
        let sum = crate::text::fnv1a(&line);
        line += &format!(" {sum:016x}\n");
        let mut guard = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (file, fresh_line) = &mut *guard;
        if *fresh_line {
            line.insert(0, '\n');
        }
        if file.write_all(line.as_bytes()).is_err() {
            // Part of the line may be in the file: the next fact starts a line of its own, and
            // this one's checksum makes the part ignored when the file is read.
            *fresh_line = true;
            self.failed.fetch_add(1, Ordering::Relaxed);
        } else {
            *fresh_line = false;
            let n = self.written.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some((after, stop)) = &self.cancel_after {
                if n >= *after {
                    stop.cancel();
                }
            }
        }
    }
}

/// What a checkpoint proves about the sets it names, read without writing to it: every set's
/// best proven lower bound, which is its optimal total when the set was solved.
///
/// A lower bound on a game's optimum ([`crate::bound::lower_bound_from`]) may count a part at its
/// proven optimum, or a failed search's bound, where a run of `moo tree build --checkpoint` has
/// settled it. Only facts that hold for every strategy are kept: those of a search of the average
/// objective over every guess with no depth limit (the file's header says so, or it is refused),
/// proven without a depth limit.
#[derive(Debug, Clone, Default)]
pub struct ProvenSets {
    bounds: std::collections::HashMap<Box<[u32]>, (u32, bool)>,
}

impl ProvenSets {
    /// Reads the facts of the checkpoint at `path`, written by the search of `space` under the
    /// default options. The file is only read, never created or changed.
    pub fn read(path: &Path, space: &CodeSpace) -> Result<ProvenSets, CheckpointError> {
        let wanted = header(space, &SearchOptions::default());
        let Some(mut lines) = Lines::open(path)? else {
            return Err(CheckpointError::Io {
                path: path.to_path_buf(),
                source: std::io::Error::new(
                    std::io::ErrorKind::NotFound,
                    "no such file: name the --checkpoint file of a tree build",
                ),
            });
        };
        let first = lines.next()?.unwrap_or("").to_owned();
        // The messages of a resumed search tell how to start afresh, which is no advice here.
        check_header(path, &first, &wanted).map_err(|e| match e {
            CheckpointError::NotACheckpoint { path, why } => CheckpointError::NotThisGame {
                path,
                why: format!("it is not a moo checkpoint ({why})"),
            },
            CheckpointError::OtherSearch {
                path,
                found,
                wanted,
                ..
            } => CheckpointError::NotThisGame {
                path,
                why: format!("it belongs to another search ({found}), not this one ({wanted})"),
            },
            e => e,
        })?;
        let (records, _) = read_facts(&mut lines, space)?;
        let mut bounds = std::collections::HashMap::new();
        for r in records
            .into_iter()
            .filter(|r| r.tag == 0 && r.depth == UNLIMITED)
        {
            let known = bounds.entry(r.set.into_boxed_slice()).or_insert((0, false));
            if r.entry.bound > known.0 || (r.entry.bound == known.0 && r.entry.exact.is_some()) {
                *known = (r.entry.bound, r.entry.exact.is_some());
            }
        }
        Ok(ProvenSets { bounds })
    }

    /// How many sets the file proves something about.
    pub fn len(&self) -> usize {
        self.bounds.len()
    }

    /// Whether it proves nothing.
    pub fn is_empty(&self) -> bool {
        self.bounds.is_empty()
    }

    /// The best proven lower bound on the optimal total of the set of these code indices
    /// (ascending), and whether it is the set's optimum.
    pub fn bound(&self, members: &[u32]) -> Option<(u32, bool)> {
        self.bounds.get(members).copied()
    }
}

/// A checkpoint's lines, read one at a time: the file of a long search holds gigabytes, more than
/// is worth holding in memory as text beside the facts read from it.
struct Lines {
    path: PathBuf,
    reader: BufReader<File>,
    buf: Vec<u8>,
    /// The line number of the last line read (1 is the header).
    number: usize,
    /// Whether the last line read ended with a newline: a killed writer's last line does not.
    ended_whole: bool,
}

impl Lines {
    /// The lines of the checkpoint at `path`, `None` if there is none yet, through the one
    /// guarded opener: regular files only.
    fn open(path: &Path) -> Result<Option<Lines>, CheckpointError> {
        let file = match open_regular(path) {
            Ok(file) => file,
            Err(ReadError::Io { error, .. }) if error.kind() == std::io::ErrorKind::NotFound => {
                return Ok(None)
            }
            Err(e) => return Err(CheckpointError::Read(e)),
        };
        Ok(Some(Lines {
            path: path.to_path_buf(),
            reader: BufReader::with_capacity(1 << 20, file),
            buf: Vec::new(),
            number: 0,
            ended_whole: true,
        }))
    }

    /// The next line, with its newline if it has one; `None` at the end of the file.
    fn next(&mut self) -> Result<Option<&str>, CheckpointError> {
        self.buf.clear();
        let read = (&mut self.reader)
            .take(MAX_CHECKPOINT_LINE + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|source| CheckpointError::Io {
                path: self.path.clone(),
                source,
            })?;
        if read == 0 {
            return Ok(None);
        }
        self.number += 1;
        let not_a_checkpoint = |why: &str| CheckpointError::NotACheckpoint {
            path: self.path.clone(),
            why: why.to_owned(),
        };
        if self.buf.len() as u64 > MAX_CHECKPOINT_LINE {
            return Err(if self.number == 1 {
                not_a_checkpoint("its first line is longer than any checkpoint's header")
            } else {
                self.bad_line(format!(
                    "the line is longer than {MAX_CHECKPOINT_LINE} bytes, more than any fact takes"
                ))
            });
        }
        self.ended_whole = self.buf.ends_with(b"\n");
        match std::str::from_utf8(&self.buf) {
            Ok(line) => Ok(Some(line)),
            Err(_) if self.number == 1 => Err(not_a_checkpoint("it is not text")),
            Err(_) => Err(not_a_checkpoint(&format!(
                "line {} is not text",
                self.number
            ))),
        }
    }

    /// The error for a line of the file that cannot be a fact.
    fn bad_line(&self, why: String) -> CheckpointError {
        CheckpointError::BadFact {
            path: self.path.clone(),
            line: self.number,
            why,
        }
    }
}

/// Whether the file starts afresh (it is empty, or holds only a header cut short), given its
/// `first` line; an error if it is no checkpoint or another search's.
fn is_fresh(path: &Path, first: Option<&str>, wanted: &str) -> Result<bool, CheckpointError> {
    match first {
        None => Ok(true),
        // A header cut short by a killed run (a line without its newline is the file's last):
        // nothing in the file to lose.
        Some(first) if !first.ends_with('\n') => {
            if !(first.starts_with(MAGIC) || MAGIC.starts_with(first)) {
                return Err(not_a_checkpoint(path, first));
            }
            Ok(true)
        }
        Some(first) => check_header(path, first, wanted).map(|()| false),
    }
}

/// Whether the whole first line `first` is the header of the search `wanted`: an error if it is
/// no checkpoint's or another search's.
fn check_header(path: &Path, first: &str, wanted: &str) -> Result<(), CheckpointError> {
    let found = first.trim_end();
    if !found.starts_with(MAGIC) {
        return Err(not_a_checkpoint(path, found));
    }
    if found != wanted {
        return Err(CheckpointError::OtherSearch {
            path: path.to_path_buf(),
            found: found.to_string(),
            wanted: wanted.to_string(),
        });
    }
    Ok(())
}

/// The facts of the lines after the header, each checked against the game, and how many
/// lines were not whole.
fn read_facts(
    lines: &mut Lines,
    space: &CodeSpace,
) -> Result<(Vec<Record>, usize), CheckpointError> {
    let mut records = Vec::new();
    let mut damaged = 0;
    while let Some(line) = lines.next()? {
        match line.strip_suffix('\n').and_then(parse) {
            Some(record) => {
                check_fact(&record, space).map_err(|why| lines.bad_line(why))?;
                records.push(record);
            }
            None => damaged += 1,
        }
    }
    Ok((records, damaged))
}

/// The checkpoint file opened for appending, a regular file only: emptied and given the
/// `wanted` header if it starts afresh, else left as it is (a last line cut short gets its
/// newline with the first new fact, [`Checkpoint::record`]).
fn open_to_append(path: &Path, restart: bool, wanted: &str) -> Result<File, CheckpointError> {
    let io = |source| CheckpointError::Io {
        path: path.to_path_buf(),
        source,
    };
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(CheckpointError::Read(ReadError::NotRegular {
            path: path.display().to_string(),
        }));
    }
    if restart {
        file.set_len(0).map_err(io)?;
        file.write_all(format!("{wanted}\n").as_bytes())
            .map_err(io)?;
    }
    Ok(file)
}

/// The refusal of a file whose first line, `first`, is no checkpoint header.
fn not_a_checkpoint(path: &Path, first: &str) -> CheckpointError {
    CheckpointError::NotACheckpoint {
        path: path.to_path_buf(),
        why: format!(
            "its first line, {:?}, is not a {MAGIC} header",
            crate::text::excerpt(first)
        ),
    }
}

/// Whether a fact fits the game of `space`: its members and guess are codes of it, and its
/// figures are ones a search can prove. Facts are trusted once loaded, so a bad one must be
/// refused here, not met as a panic or a worse tree.
fn check_fact(record: &Record, space: &CodeSpace) -> Result<(), String> {
    let codes = space.len();
    let n = record.set.len();
    if let Some(&m) = record.set.last().filter(|&&m| m as usize >= codes) {
        return Err(format!(
            "member {m} is not a code of this game, which has {codes}"
        ));
    }
    if record.set.is_empty() {
        return Err("the set of codes is empty".into());
    }
    if let Some(s) = record.entry.exact {
        if s.guess != NO_GUESS && s.guess as usize >= codes {
            return Err(format!(
                "guess {} is not a code of this game, which has {codes}",
                s.guess
            ));
        }
        if s.guess != NO_GUESS {
            let set: crate::CodeSet = record.set.iter().map(|&m| m as usize).collect();
            let mut counts = [0u32; 256];
            space.partition_counts(s.guess as usize, &set, &mut counts);
            if counts.iter().any(|&c| c as usize == n) && !set.contains(s.guess as usize) {
                return Err(format!(
                    "guess {} does not split the set: every member gives it the same answer",
                    s.guess
                ));
            }
        }
        if s.total != record.entry.bound {
            return Err(format!(
                "a solved set's total {} differs from its bound {}",
                s.total, record.entry.bound
            ));
        }
        // Every member is guessed at least once and all but one at least twice.
        if (s.total as usize) < 2 * n - 1 {
            return Err(format!(
                "a total of {} is impossible for {n} codes (at least {})",
                s.total,
                2 * n - 1
            ));
        }
        if s.worst == 0 || s.worst >= 0x80 || usize::from(s.worst) > n {
            return Err(format!(
                "a worst case of {} guesses is impossible for {n} codes",
                s.worst
            ));
        }
    }
    Ok(())
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
fn parse(line: &str) -> Option<Record> {
    let (body, sum) = line.rsplit_once(' ')?;
    if u64::from_str_radix(sum, 16).ok()? != crate::text::fnv1a(body) {
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
