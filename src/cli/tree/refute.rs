//! `moo tree refute`: a proof that no strategy always wins within a number of guesses, written
//! as a file that `refutation-check` (a program sharing no code with moo) verifies by counting.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args as ClapArgs;
use moo_core::tree::{
    write_refutation, RefutationError, RefutationStats, SearchError, SearchOptions,
};
use moo_core::CodeSpace;
use serde::Serialize;

use super::super::output::{outln, write_file};
use super::super::{parse_threads, worker_pool, RuleArgs, TableArgs, UsageError};

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

    /// The most memory each exact search's cache may take, e.g. 4GiB [default: 640 MiB].
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::parse_size)]
    cache_memory: Option<u64>,

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
    bytes: u64,
    seconds: f64,
    file: String,
}

/// Runs `moo tree refute`.
pub fn refute(args: RefuteArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let space = CodeSpace::with_options(rules, &args.table.for_exact_search())?;
    let pool = worker_pool(args.threads)?;
    let search = SearchOptions::default().with_cache_bytes(args.cache_memory);
    let start = Instant::now();
    let mut text = Vec::new();
    let stats = pool
        .install(|| write_refutation(&space, args.within, &search, &mut text))
        .map_err(|e| match e {
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
    report(&args, &stats, seconds)
}

fn report(args: &RefuteArgs, stats: &RefutationStats, seconds: f64) -> Result<()> {
    let file = args.output.display().to_string();
    if args.json {
        let report = RefuteReport {
            within: args.within,
            positions: &stats.positions,
            deeper: stats.deeper,
            tried: stats.tried,
            counted: stats.counted,
            searches: stats.searches,
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
        "{} bytes before compression, {} exact searches, {seconds:.1} s",
        stats.bytes,
        stats.searches
    )?;
    outln!("check it without moo: cargo run --release -p refutation-check -- {file}")
}
