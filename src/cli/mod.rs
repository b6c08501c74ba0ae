//! One module per subcommand, plus the flags they share.

pub mod advice;
pub mod bench;
pub mod completions;
pub mod crack;
pub mod daily;
pub mod duel;
pub mod hint;
pub mod input;
pub mod man;
pub mod output;
pub mod play;
pub mod progress;
pub mod review;
pub mod serve;
pub mod solve;
pub mod tree;

use std::fmt;

use anyhow::Context;
use clap::{Args as ClapArgs, ValueEnum};
use moo_core::space::SpaceOptions;
use moo_core::strategy::GuessPool;
use moo_core::{Preset, Rules};

/// An error in how moo was called (bad flag values), reported with exit code 2.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

/// The code a `--secret` flag names, if given, under `rules`; a bad one is a usage error.
pub fn parse_secret(
    rules: &Rules,
    secret: Option<&str>,
) -> Result<Option<moo_core::Code>, UsageError> {
    secret
        .map(|s| {
            rules
                .parse_code(s)
                .map_err(|e| UsageError(format!("bad --secret: {e}")))
        })
        .transpose()
}

/// Worker threads allowed per core: past a few, threads only add switching and memory.
pub const THREADS_PER_CORE: usize = 4;

/// The most worker threads `--threads` accepts: [`THREADS_PER_CORE`] per core.
pub fn max_threads() -> usize {
    THREADS_PER_CORE * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Reads `--threads`: 1 to [`max_threads`], checked when the flags are parsed.
pub fn parse_threads(text: &str) -> Result<usize, String> {
    let max = max_threads();
    let n: u64 = text.parse().map_err(|e| format!("{e}"))?;
    match usize::try_from(n) {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(format!(
            "{n} is not in 1..={max} ({THREADS_PER_CORE} per core on this machine)"
        )),
    }
}

/// The worker threads of a search: `--threads` of them, or by default one a core as rayon chooses.
pub fn worker_pool(threads: Option<usize>) -> anyhow::Result<rayon::ThreadPool> {
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = threads {
        pool = pool.num_threads(n);
    }
    pool.build().context("cannot start the worker threads")
}

/// A parser of a count from 1 to `max`, checked when the flags are parsed; clap's message gives
/// the range.
pub fn ranged(max: u64) -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=max)
}

/// A named game, as typed after `--game`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Bulls and Cows: 4 distinct digits 0-9.
    Bulls,
    /// Mastermind: 4 pegs, colours 1-6, repeats allowed.
    Mastermind,
}

impl From<GameName> for Preset {
    fn from(g: GameName) -> Preset {
        match g {
            GameName::Bulls => Preset::Bulls,
            GameName::Mastermind => Preset::Mastermind,
        }
    }
}

/// Which codes a strategy may guess, as typed after `--guesses`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GuessPoolArg {
    /// Any code, even one already ruled out.
    All,
    /// Only codes still possible ("hard mode").
    Consistent,
}

impl From<GuessPoolArg> for GuessPool {
    fn from(g: GuessPoolArg) -> GuessPool {
        match g {
            GuessPoolArg::All => GuessPool::All,
            GuessPoolArg::Consistent => GuessPool::Consistent,
        }
    }
}

/// The rule flags every subcommand takes.
#[derive(Debug, Clone, ClapArgs)]
#[command(next_help_heading = "Rules")]
pub struct RuleArgs {
    /// The game to start from; the other rule flags change it.
    #[arg(long, value_enum, default_value = "bulls")]
    pub game: GameName,

    /// Number of symbols in a code [default: 4].
    #[arg(long, short = 'l', value_name = "N")]
    pub length: Option<usize>,

    /// The symbols codes are written with, in order [bulls: 0123456789, mastermind: 123456].
    #[arg(long, short = 's', value_name = "STRING")]
    pub symbols: Option<String>,

    /// Allow a symbol to appear more than once in a code (on for mastermind).
    #[arg(long, conflicts_with = "distinct")]
    pub repeats: bool,

    /// Every symbol of a code differs (on for bulls).
    #[arg(long)]
    pub distinct: bool,

    /// The first symbol of the alphabet may not lead a code.
    #[arg(long)]
    pub no_leading_zero: bool,
}

impl RuleArgs {
    /// The validated rules; invalid flag values are a usage error.
    pub fn rules(&self) -> anyhow::Result<Rules> {
        let base = Preset::from(self.game).rules();
        let repeats = if self.repeats {
            true
        } else if self.distinct {
            false
        } else {
            base.repeats()
        };
        let symbols = self.symbols.clone().unwrap_or_else(|| base.symbols());
        Rules::new(
            self.length.unwrap_or(base.length()),
            &symbols,
            repeats,
            self.no_leading_zero,
        )
        .map_err(|e| UsageError(format!("invalid rules: {e}")).into())
    }
}

/// The flag that lets a command spend memory on the score table.
#[derive(Debug, Clone, ClapArgs)]
#[command(next_help_heading = "Memory")]
pub struct TableArgs {
    /// The most memory the score table may take, e.g. 512MiB or 2GiB (0: none). The table of n
    /// codes takes n x n bytes (5 digits of 0-9: 915 MB) and turns every score into one memory
    /// load; without it, codes are scored on the fly [default: for tree build, which needs the
    /// table, half the available memory, at most 4 GiB; elsewhere 121 MB (11000 codes), since
    /// beyond that the heuristics score codes on the fly faster than they read a table too large
    /// for the CPU's caches].
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub table_memory: Option<u64>,
}

impl TableArgs {
    /// The space options for a command whose guesses come from heuristics: the library's
    /// default table.
    pub fn for_heuristics(&self) -> SpaceOptions {
        self.or_else(|| SpaceOptions::default().table_bytes)
    }

    /// The space options for an exact search, which cannot run without the table: as large a
    /// table as memory allows.
    pub fn for_exact_search(&self) -> SpaceOptions {
        self.or_else(default_table_bytes)
    }

    /// The options with the table memory asked for, or else `default` bytes.
    fn or_else(&self, default: impl FnOnce() -> u64) -> SpaceOptions {
        SpaceOptions::default().with_table_bytes(self.table_memory.unwrap_or_else(default))
    }
}

/// The most the table takes by default: half the memory available now, so that the rest of the
/// machine keeps working, and never more than 4 GiB; the library's own default where the
/// available memory cannot be read.
fn default_table_bytes() -> u64 {
    const CAP: u64 = 4 << 30;
    available_memory()
        .map(|bytes| (bytes / 2).min(CAP))
        .unwrap_or(SpaceOptions::default().table_bytes)
}

/// `MemAvailable` from `/proc/meminfo` (Linux), in bytes.
fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Parses a size such as `512MiB`, `2 GiB` or `1000000`.
fn parse_size(text: &str) -> Result<u64, String> {
    // bytesize reads a plain number past u64 as a number with an empty unit and says so:
    // say what is wrong instead.
    let digits = text.trim();
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        return digits.parse::<u64>().map_err(|_| {
            format!("{digits} bytes is more than any machine has: give a size such as 512MiB, 2GiB or 0")
        });
    }
    text.parse::<bytesize::ByteSize>()
        .map(|size| size.as_u64())
        .map_err(|e| format!("{e}: give a size such as 512MiB, 2GiB or 0"))
}
