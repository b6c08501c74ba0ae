//! `moo tree refute`: a proof that no strategy always wins within a number of guesses, written
//! as a file that `refutation-check` (a program sharing no code with moo) verifies by counting.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args as ClapArgs;
use moo_core::tree::{
    Checkpoint, Progress, Refutation, RefutationError, RefutationStats, SearchError, SearchOptions,
};
use moo_core::CodeSpace;
use serde::Serialize;

use super::super::output::{outln, write_file};
use super::super::{parse_threads, worker_pool, RuleArgs, TableArgs, UsageError};
use super::{open_log, warn_unwritten, with_progress};

/// The flags of `moo tree refute`.
#[derive(Debug, ClapArgs)]
pub struct RefuteArgs {
    /// The guesses no strategy wins within: one fewer than the game's optimal worst case.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=64))]
    within: u32,

    /// Where to write the refutation (plain text; gzip-compressed if the name ends in .gz).
    #[arg(long, short = 'o', value_name = "FILE")]
    output: PathBuf,

    /// Worker threads for the exact search that picks what to write, at most 4 per core
    /// [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,

    /// The most memory the exact search's cache may take, e.g. 4GiB [default: 640 MiB]. One
    /// search answers every question the writing asks, so what it keeps spares searching again.
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::parse_size)]
    cache_memory: Option<u64>,

    /// Append what the search proves about large candidate sets to FILE as it goes, after
    /// loading what FILE already holds: a run stopped and started again with the same FILE
    /// resumes where it was. The refutation does not rest on FILE: its checker proves it alone.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,

    /// Append a progress line to FILE every minute (for long runs without a terminal).
    #[arg(long, value_name = "FILE")]
    progress_log: Option<PathBuf>,

    /// Print the refutation's size as JSON on stdout.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    rules: RuleArgs,

    #[command(flatten)]
    table: TableArgs,
}

/// What `moo tree refute --json` prints.
#[derive(Serialize)]
struct RefuteReport<'a> {
    within: u32,
    positions: &'a [u64],
    deeper: u64,
    tried: u64,
    counted: u64,
    searches: u64,
    recalled: u64,
    /// Facts read from --checkpoint (0 without one).
    checkpoint_loaded: usize,
    bytes: u64,
    seconds: f64,
    file: String,
}

/// Runs `moo tree refute`.
pub fn refute(args: RefuteArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let space = CodeSpace::with_options(rules, &args.table.for_exact_search())?;
    let pool = worker_pool(args.threads)?;
    let options = SearchOptions::default().with_cache_bytes(args.cache_memory);
    let checkpoint = match &args.checkpoint {
        Some(path) => Some(Checkpoint::open(
            path,
            &space,
            &Refutation::search_options(&options),
        )?),
        None => None,
    };
    let log = match &args.progress_log {
        Some(path) => Some(open_log(path)?),
        None => None,
    };
    let progress = Progress::new();
    let start = Instant::now();
    let mut text = Vec::new();
    let written = with_progress(&progress, log.as_ref(), checkpoint.as_ref(), || {
        let mut refutation = Refutation::new(&space, args.within)
            .options(&options)
            .progress(&progress);
        if let Some(c) = &checkpoint {
            refutation = refutation.checkpoint(c);
        }
        pool.install(|| refutation.write(&mut text))
    });
    warn_unwritten(checkpoint.as_ref());
    let stats = written.map_err(|e| match e {
        RefutationError::Search(e @ SearchError::TooLarge { .. }) => {
            anyhow::Error::from(UsageError(e.to_string()))
        }
        e @ RefutationError::Winnable { .. } => anyhow::Error::from(UsageError(e.to_string())),
        e => e.into(),
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let bytes = if args.output.extension().is_some_and(|e| e == "gz") {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&text)?;
        gz.finish()?
    } else {
        text
    };
    write_file(&args.output, &bytes)?;
    let loaded = checkpoint.as_ref().map_or(0, Checkpoint::loaded);
    report(&args, &stats, loaded, seconds)
}

fn report(
    args: &RefuteArgs,
    stats: &RefutationStats,
    checkpoint_loaded: usize,
    seconds: f64,
) -> Result<()> {
    let file = args.output.display().to_string();
    if args.json {
        let report = RefuteReport {
            within: args.within,
            positions: &stats.positions,
            deeper: stats.deeper,
            tried: stats.tried,
            counted: stats.counted,
            searches: stats.searches,
            recalled: stats.recalled,
            checkpoint_loaded,
            bytes: stats.bytes,
            seconds,
            file,
        };
        return outln!("{}", serde_json::to_string(&report)?);
    }
    let positions: u64 = stats.positions.iter().sum();
    outln!(
        "no strategy wins every secret within {} guesses: refutation written to {file}",
        args.within
    )?;
    outln!(
        "{positions} positions (by guesses played: {:?}), {} guesses refuted by a deeper position, {} left to the checker's two-guess test, {} by counting alone",
        stats.positions, stats.deeper, stats.tried, stats.counted
    )?;
    outln!(
        "{} bytes before compression, {} exact searches (and {} parts found lost in what they had proven), {seconds:.1} s",
        stats.bytes,
        stats.searches,
        stats.recalled
    )?;
    if args.checkpoint.is_some() {
        outln!("{checkpoint_loaded} facts read from the checkpoint (the file's proof does not rest on them)")?;
    }
    outln!("check it without moo: cargo run --release -p refutation-check -- {file}")
}
