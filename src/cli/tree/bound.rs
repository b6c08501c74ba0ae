//! `moo tree bound`: bounds on the optimal total of games the exact search cannot settle here,
//! a strategy's verified tree above it (a heuristic where many candidates are left, the exact
//! search below `--exact-below`) and a proven bound below it (`--lower`).

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::{Args as ClapArgs, ValueEnum};
use moo_core::bound::{
    lower_bound_from, upper_bound, BoundError, BoundOptions, BoundProgress, LowerBound, UpperBound,
};
use moo_core::strategy::PartitionScore;
use moo_core::tree::{ProvenSets, SearchError};
use moo_core::{CodeSpace, Stop};
use serde::Serialize;

use super::super::output::{outln, write_file};
use super::super::progress::{watched, Finished};
use super::super::{parse_threads, worker_pool, RuleArgs, TableArgs, UsageError};
use super::exit_on_interrupt;
use super::stats::print_stats;

/// The rule that picks a guess where too many candidates are left for the exact search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum HeuristicArg {
    /// The most information expected from the feedback.
    Entropy,
    /// The fewest candidates left on average.
    ExpectedSize,
    /// The most distinct feedbacks.
    MostParts,
    /// The fewest candidates left in the worst case (Knuth).
    Minimax,
}

impl From<HeuristicArg> for PartitionScore {
    fn from(arg: HeuristicArg) -> PartitionScore {
        match arg {
            HeuristicArg::Entropy => PartitionScore::Entropy,
            HeuristicArg::ExpectedSize => PartitionScore::ExpectedSize,
            HeuristicArg::MostParts => PartitionScore::MostParts,
            HeuristicArg::Minimax => PartitionScore::Minimax,
        }
    }
}

/// The flags of `moo tree bound`.
#[derive(Debug, ClapArgs)]
pub struct BoundArgs {
    /// Prove a lower bound on the optimal total instead of building a strategy.
    #[arg(long, conflicts_with_all = ["output", "heuristic", "top", "top_levels"])]
    lower: bool,

    /// Where to write the strategy's tree (JSON); required unless --lower.
    #[arg(
        long,
        short = 'o',
        value_name = "FILE",
        required_unless_present = "lower"
    )]
    output: Option<PathBuf>,

    /// The rule that picks guesses where more than --exact-below candidates are left.
    #[arg(long, value_enum, default_value = "entropy")]
    heuristic: HeuristicArg,

    /// Positions with at most N candidates are solved by the exact search (and, with --lower,
    /// parts of at most N count their exact optimum).
    #[arg(long, value_name = "N", default_value_t = 32)]
    exact_below: usize,

    /// At the top --top-levels levels, play out the heuristic's K best guesses each to a whole
    /// tree and keep the cheapest.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    top: u32,

    /// How many levels from the first guess try --top guesses.
    #[arg(long, value_name = "L", default_value_t = 0)]
    top_levels: usize,

    /// With --lower: how many guesses past the first the parts' bounds look ahead (0: level
    /// filling only; 1: the exact search's own bound of a set; each more costs far more).
    #[arg(long, value_name = "D", default_value_t = 1, value_parser = clap::value_parser!(u32).range(0..=4))]
    depth: u32,

    /// With --lower: count what a `moo tree build --checkpoint FILE` run of the same game has
    /// proven so far (the sets it settled at their optimum, the ones it bounded at that bound),
    /// so a long exact run, running or stopped, tightens the bound; the file is only read.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,

    /// Worker threads, at most 4 per core [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,

    /// Print the result as JSON on stdout.
    #[arg(long)]
    json: bool,

    #[command(flatten)]
    rules: RuleArgs,

    #[command(flatten)]
    table: TableArgs,
}

/// What `moo tree bound --json` prints.
#[derive(Serialize)]
#[serde(untagged)]
enum BoundReport<'a> {
    Upper {
        #[serde(flatten)]
        stats: &'a moo_core::TreeStats,
        exact_sets: u64,
        seconds: f64,
        file: String,
    },
    Lower {
        lower_bound: u64,
        openings: Vec<(String, u64)>,
        parts: Vec<PartReport>,
        checkpoint_sets: usize,
        exact_sets: u64,
        seconds: f64,
    },
}

/// One part of the best opening in `moo tree bound --lower --json`.
#[derive(Serialize)]
struct PartReport {
    feedback: String,
    codes: usize,
    bound: u64,
    exact: bool,
}

/// Runs `moo tree bound`.
pub fn bound(args: BoundArgs) -> Result<()> {
    if args.checkpoint.is_some() && !args.lower {
        return Err(UsageError(
            "--checkpoint counts what an exact run proved below the optimum, so it needs --lower (an upper bound is a strategy's tree: drop --checkpoint, or add --lower)".into(),
        )
        .into());
    }
    let rules = args.rules.rules()?;
    let written = exit_on_interrupt()?;
    let space = CodeSpace::with_options(rules, &args.table.for_exact_search())?;
    let mut options = BoundOptions::default();
    options.heuristic = args.heuristic.into();
    options.exact_below = args.exact_below;
    options.top = args.top as usize;
    options.top_levels = args.top_levels;
    options.depth = args.depth;
    let known = match &args.checkpoint {
        Some(path) => ProvenSets::read(path, &space)?,
        None => ProvenSets::default(),
    };
    let pool = worker_pool(args.threads)?;
    let progress = BoundProgress::default();
    let start = Instant::now();
    let stop = Stop::never();
    let found = watched(
        |done| show_progress(&progress, done),
        || {
            pool.install(|| {
                if args.lower {
                    lower_bound_from(&space, &options, &known, &stop, &progress).map(Found::Lower)
                } else {
                    upper_bound(&space, &options, &stop, &progress).map(Found::Upper)
                }
            })
        },
    )
    .map_err(|e| match e {
        BoundError::Search(e @ SearchError::TooLarge { .. }) => {
            anyhow::Error::from(UsageError(e.to_string()))
        }
        e => e.into(),
    })?;
    let seconds = start.elapsed().as_secs_f64();
    let exact_sets = progress.sets.load(std::sync::atomic::Ordering::Relaxed);
    match found {
        Found::Upper(upper) => report_upper(&args, &upper, exact_sets, seconds, &written),
        Found::Lower(lower) => {
            report_lower(&args, &space, &lower, known.len(), exact_sets, seconds)
        }
    }
}

enum Found {
    Upper(UpperBound),
    Lower(LowerBound),
}

/// Writes the strategy's tree (under the interrupt lock) and prints its statistics.
fn report_upper(
    args: &BoundArgs,
    upper: &UpperBound,
    exact_sets: u64,
    seconds: f64,
    written: &Mutex<bool>,
) -> Result<()> {
    let output = args
        .output
        .as_ref()
        .expect("clap requires -o without --lower");
    {
        let mut written = written.lock().unwrap_or_else(|p| p.into_inner());
        write_file(output, upper.tree.to_json(false).as_bytes())?;
        *written = true;
    }
    if args.json {
        let report = BoundReport::Upper {
            stats: &upper.stats,
            exact_sets,
            seconds,
            file: output.display().to_string(),
        };
        outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        print_stats(&upper.stats)?;
        outln!(
            "an upper bound: {exact_sets} endgames solved exactly in {seconds:.2} s; tree written to {}",
            output.display()
        )?;
    }
    Ok(())
}

/// Prints the lower bound and the bound of each opening.
fn report_lower(
    args: &BoundArgs,
    space: &CodeSpace,
    lower: &LowerBound,
    checkpoint_sets: usize,
    exact_sets: u64,
    seconds: f64,
) -> Result<()> {
    let rules = space.rules();
    let openings: Vec<(String, u64)> = lower
        .openings
        .iter()
        .map(|(code, b)| (rules.format_code(code), *b))
        .collect();
    let parts: Vec<PartReport> = lower
        .parts
        .iter()
        .map(|p| PartReport {
            feedback: p.feedback.to_string(),
            codes: p.codes,
            bound: p.bound,
            exact: p.exact,
        })
        .collect();
    if args.json {
        let report = BoundReport::Lower {
            lower_bound: lower.total,
            openings,
            parts,
            checkpoint_sets,
            exact_sets,
            seconds,
        };
        return outln!("{}", serde_json::to_string(&report)?);
    }
    let secrets = space.len() as f64;
    outln!(
        "lower bound {} (average {:.4}): no strategy takes fewer guesses in total",
        lower.total,
        lower.total as f64 / secrets
    )?;
    for (code, b) in &openings {
        outln!("  opening {code}: at least {b}")?;
    }
    if let Some((first, _)) = openings.first() {
        let settled = parts.iter().filter(|p| p.exact).count();
        outln!(
            "parts of {first} ({settled} of {} at their optimum), guesses after the first:",
            parts.len()
        )?;
        for p in &parts {
            let how = if p.exact { "exactly" } else { "at least" };
            outln!(
                "  {:>6} {:>6} codes: {how} {}",
                p.feedback,
                p.codes,
                p.bound
            )?;
        }
    }
    if args.checkpoint.is_some() {
        outln!("the checkpoint proves something about {checkpoint_sets} sets")?;
    }
    outln!("proven in {seconds:.2} s ({exact_sets} sets bounded)")
}

/// Shows the counters on the progress line until the work ends.
fn show_progress(progress: &BoundProgress, done: &Finished) {
    let line = super::super::progress::ProgressLine::spinner("bounding");
    while !done.wait(Duration::from_millis(250)) {
        line.set_message(format!(
            "{} sets settled, {} codes in them",
            progress.sets.load(std::sync::atomic::Ordering::Relaxed),
            progress.codes.load(std::sync::atomic::Ordering::Relaxed),
        ));
    }
    line.finish();
}
