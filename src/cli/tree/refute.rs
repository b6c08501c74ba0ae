//! `moo tree refute`: a proof that no strategy always wins within a number of guesses, written
//! as a file that `refutation-check` (a program sharing no code with moo) verifies by counting.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args as ClapArgs;
use moo_core::tree::{
    Checkpoint, Measured, Progress, Refutation, RefutationError, RefutationEstimate,
    RefutationStats,
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
    #[arg(
        long,
        short = 'o',
        value_name = "FILE",
        required_unless_present = "estimate"
    )]
    output: Option<PathBuf>,

    /// Write nothing: follow N random paths down the refutation and estimate its size (its
    /// positions, entries, bytes and the checker's work), with standard errors.
    #[arg(long, value_name = "N", conflicts_with_all = ["output", "checkpoint"],
          value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    estimate: Option<u64>,

    /// The seed of --estimate's paths: the same seed gives the same estimate on any number of
    /// threads.
    #[arg(long, value_name = "N", default_value_t = 1, requires = "estimate")]
    seed: u64,

    /// Worker threads: --estimate's paths run side by side; the writing runs on one
    /// [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,

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
    asked: u64,
    searched: u64,
    scorings: u64,
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
    let log = match &args.progress_log {
        Some(path) => Some(open_log(path)?),
        None => None,
    };
    let progress = Progress::new();
    let start = Instant::now();
    let Some(output) = &args.output else {
        let paths = args.estimate.expect("clap requires --output or --estimate");
        let estimate = with_progress(&progress, log.as_ref(), None, || {
            pool.install(|| {
                RefutationEstimate::of(&space, args.within, paths, args.seed, &progress)
            })
        });
        return report_estimate(&args, &estimate, start.elapsed().as_secs_f64());
    };
    let checkpoint = match &args.checkpoint {
        Some(path) => Some(Checkpoint::open(
            path,
            &space,
            &Refutation::search_options(),
        )?),
        None => None,
    };
    let mut text = Vec::new();
    let written = with_progress(&progress, log.as_ref(), checkpoint.as_ref(), || {
        let mut refutation = Refutation::new(&space, args.within).progress(&progress);
        if let Some(c) = &checkpoint {
            refutation = refutation.checkpoint(c);
        }
        pool.install(|| refutation.write(&mut text))
    });
    warn_unwritten(checkpoint.as_ref());
    let stats = written.map_err(|e| match e {
        e @ RefutationError::Winnable { .. } => anyhow::Error::from(UsageError(e.to_string())),
        e => e.into(),
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let bytes = if output.extension().is_some_and(|e| e == "gz") {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&text)?;
        gz.finish()?
    } else {
        text
    };
    write_file(output, &bytes)?;
    let loaded = checkpoint.as_ref().map_or(0, Checkpoint::loaded);
    report(&args, output, &stats, loaded, seconds)
}

/// What `moo tree refute --estimate --json` prints.
#[derive(Serialize)]
struct EstimateReport<'a> {
    within: u32,
    paths: u64,
    seed: u64,
    positions: &'a [Measured],
    deeper: Measured,
    tried: Measured,
    counted: Measured,
    bytes: Measured,
    scorings: Measured,
    won_on_the_way: u64,
    seconds: f64,
}

fn report_estimate(args: &RefuteArgs, e: &RefutationEstimate, seconds: f64) -> Result<()> {
    if args.json {
        let report = EstimateReport {
            within: args.within,
            paths: e.paths,
            seed: args.seed,
            positions: &e.positions,
            deeper: e.deeper,
            tried: e.tried,
            counted: e.counted,
            bytes: e.bytes,
            scorings: e.scorings,
            won_on_the_way: e.won_on_the_way,
            seconds,
        };
        return outln!("{}", serde_json::to_string(&report)?);
    }
    let within = args.within;
    outln!(
        "a refutation of \"some strategy wins every secret within {within} guesses\", estimated from {} random paths (seed {}, {seconds:.1} s); each figure is a mean ± its standard error",
        e.paths, args.seed
    )?;
    let levels: Vec<String> = e.positions.iter().map(|&m| shown(m)).collect();
    outln!("positions by guesses played: {}", levels.join(", "))?;
    outln!(
        "guesses refuted by a deeper position: {}; by the two-guess test: {}; by counting alone: {}",
        shown(e.deeper),
        shown(e.tried),
        shown(e.counted)
    )?;
    outln!(
        "text: {} bytes before compression; the checker's work: {} scorings of one code against another",
        shown(e.bytes),
        shown(e.scorings)
    )?;
    if e.won_on_the_way > 0 {
        outln!(
            "warning: {} paths met a position taken for lost that can be won: the writer writes another part there, so these figures are off",
            e.won_on_the_way
        )?;
    }
    Ok(())
}

/// A measured figure as `mean ± error`, to three significant digits.
fn shown(m: Measured) -> String {
    if m.error == 0.0 {
        return sig(m.mean);
    }
    format!("{} ± {}", sig(m.mean), sig(m.error))
}

/// `x` to three significant digits, in plain or scientific notation as fits.
fn sig(x: f64) -> String {
    if x == x.round() && x.abs() < 1e6 {
        return format!("{x}");
    }
    if x.abs() >= 1e6 {
        return format!("{x:.2e}");
    }
    let digits = (2 - x.abs().log10().floor() as i32).max(0) as usize;
    format!("{x:.digits$}")
}

fn report(
    args: &RefuteArgs,
    output: &std::path::Path,
    stats: &RefutationStats,
    checkpoint_loaded: usize,
    seconds: f64,
) -> Result<()> {
    let file = output.display().to_string();
    if args.json {
        let report = RefuteReport {
            within: args.within,
            positions: &stats.positions,
            deeper: stats.deeper,
            tried: stats.tried,
            counted: stats.counted,
            asked: stats.asked,
            searched: stats.searched,
            scorings: stats.scorings,
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
        "{} bytes before compression; {} parts asked about, {} candidate sets searched to answer; {} scorings for a checker; {seconds:.1} s",
        stats.bytes,
        stats.asked,
        stats.searched,
        stats.scorings
    )?;
    if args.checkpoint.is_some() {
        outln!("{checkpoint_loaded} facts read from the checkpoint (the file's proof does not rest on them)")?;
    }
    outln!("check it without moo: cargo run --release -p refutation-check -- {file}")
}
