//! `moo bench` with no subcommand: every strategy against every secret, with exact totals,
//! histograms and times.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use comfy_table::Table;
use moo_core::eval::{game_seed, Builder};
use moo_core::strategy::{self, Strategy};
use moo_core::{evaluate, CodeSpace, EvalOptions, Evaluation, GuessPool, Rules, StrategyOptions};
use serde::Serialize;

use super::plot;
use crate::cli::advice;
use crate::cli::output::{align_right, markdown_table, out, outln};
use crate::cli::progress::ProgressLine;
use crate::cli::{ranged, GuessPoolArg, RuleArgs, TableArgs, UsageError};

/// The most runs of a random strategy.
const MAX_RUNS: u64 = 10_000;

/// Games with more codes than this are big: by default a sample of their secrets is played (every
/// secret of Bulls and Cows 5x10 would take minutes per strategy), and without the brute-force
/// baselines. It is the size up to which the space keeps a score table by default.
const BIG_GAME: usize = moo_core::space::TABLE_MAX_CODES;

/// The secrets played by default on a big game.
const DEFAULT_SAMPLE: usize = 200;

/// The flags of `moo bench` with no subcommand.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RuleArgs,

    #[command(flatten)]
    table: TableArgs,

    /// Strategies to compare, comma-separated (`--list` shows them all; `tree:FILE` plays a tree
    /// file) [default: every strategy the registry marks for the default bench; on games of more
    /// than 11000 codes, less those that ignore feedback (enumerate, random)].
    #[arg(long, short = 'S', value_delimiter = ',', value_name = "NAMES")]
    strategy: Option<Vec<String>>,

    /// Play N secrets drawn at random with --seed, one game at a time, timing every guess, instead
    /// of every secret [default: every secret; 200 on games of more than 11000 codes].
    #[arg(long, value_name = "N")]
    secrets: Option<usize>,

    /// The most (guess, candidate) pairs a partition heuristic scores per guess; beyond it, it
    /// scores a sample seeded by --seed.
    #[arg(long, value_name = "N", default_value_t = moo_core::strategy::Sampling::DEFAULT_MAX_PAIRS)]
    max_pairs: u64,

    /// Which codes the partition heuristics and random may guess: any code, or only codes still
    /// possible.
    #[arg(long, value_enum, default_value = "all")]
    guesses: GuessPoolArg,

    /// Print the results as JSON on stdout instead of a table.
    #[arg(long)]
    json: bool,

    /// Draw the histograms side by side into this file (.svg or .png).
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,

    /// Evaluate random strategies this many times, each run with its own seed (1 to 10000).
    #[arg(long, default_value = "1", value_name = "N", value_parser = ranged(MAX_RUNS))]
    runs: usize,

    /// The seed of random strategies (run r uses a seed derived from it and r).
    #[arg(long, default_value = "0", value_name = "S")]
    seed: u64,

    /// List the strategies with a line about each, and exit.
    #[arg(long)]
    list: bool,

    /// Stop a game after this many guesses and count it as given up [default: 10 x the number of codes].
    #[arg(long, value_name = "N", value_parser = ranged(u32::MAX.into()))]
    max_guesses: Option<usize>,

    /// `--advisor`, `--review` and `--arena` and their flags are subcommands now: kept hidden
    /// so that an old command line fails saying so, not with "unexpected argument".
    #[command(flatten)]
    moved: Moved,
}

/// The flags that became subcommands of `moo bench`, each refused with the command to run.
#[derive(Debug, clap::Args)]
struct Moved {
    /// Moved to `moo bench advisor`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("advisor", "--advisor"))]
    advisor: Option<Refused>,
    /// Moved to `moo bench review`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("review", "--review"))]
    review: Option<Refused>,
    /// Moved to `moo bench arena`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("arena", "--arena"))]
    arena: Option<Refused>,
    /// Moved to `moo bench arena`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("arena", "--lengths"))]
    lengths: Option<Refused>,
    /// Moved to `moo bench advisor`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("advisor", "--openings"))]
    openings: Option<Refused>,
    /// Moved to `moo bench advisor`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("advisor", "--positions"))]
    positions: Option<Refused>,
    /// Moved to `moo bench advisor`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("advisor", "--cross-checks"))]
    cross_checks: Option<Refused>,
    /// Moved to `moo bench advisor`, `review` and `arena`.
    #[arg(long, hide = true, num_args = 0..=1, default_missing_value = "", value_parser = moved("advisor|review|arena", "--time-limit"))]
    time_limit: Option<Refused>,
}

/// The value of a refused flag: none can exist, so the hidden flags take no room in the args.
#[derive(Debug, Clone)]
enum Refused {}

/// A parser that refuses `flag` of plain `moo bench`, naming the subcommand it moved to: clap
/// checks values as it reads them, so this error comes before any about the flags that follow.
fn moved(
    command: &'static str,
    flag: &'static str,
) -> impl Fn(&str) -> Result<Refused, String> + Clone + Send + Sync + 'static {
    move |_| {
        let to = if command.contains('|') {
            "`moo bench advisor`, `moo bench review` or `moo bench arena`".to_string()
        } else {
            format!("`moo bench {command}`")
        };
        Err(format!(
            "`moo bench {flag}` is now {to}: run it instead (see `moo bench {} --help`)",
            command.split('|').next().unwrap_or(command)
        ))
    }
}

#[derive(Debug, Serialize)]
struct Report<'a> {
    rules: &'a Rules,
    guesses: GuessPool,
    /// The secrets played, when a sample rather than every secret.
    #[serde(skip_serializing_if = "Option::is_none")]
    sample: Option<Sample>,
    results: Vec<Evaluation>,
}

/// Which secrets a sampled benchmark played.
#[derive(Debug, Clone, Copy, Serialize)]
struct Sample {
    /// How many, drawn at random.
    secrets: usize,
    /// Of how many codes.
    of: usize,
    /// The seed they were drawn with.
    seed: u64,
}

/// Runs `moo bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.list {
        return print_list();
    }
    let rules = args.rules.rules()?;
    if let Some(path) = &args.plot {
        plot::format(path)?;
    }
    if args.secrets == Some(0) {
        return Err(UsageError("--secrets must be at least 1".into()).into());
    }
    let space = CodeSpace::with_options(rules.clone(), &args.table.for_heuristics())
        .context("cannot benchmark these rules")?;
    let big = space.len() > BIG_GAME;
    let names = match &args.strategy {
        Some(names) => check_names(names)?,
        None => default_strategies(big),
    };
    let sample = args
        .secrets
        .or(big.then_some(DEFAULT_SAMPLE))
        .filter(|&n| n < space.len())
        .map(|secrets| Sample {
            secrets,
            of: space.len(),
            seed: args.seed,
        });
    let pool = GuessPool::from(args.guesses);

    let mut results = Vec::new();
    for name in &names {
        results.push(bench_one(&space, name, pool, sample, &args)?);
    }
    if let Some(path) = &args.plot {
        plot::write(path, &rules, &results)?;
    }
    let report = Report {
        rules: &rules,
        guesses: pool,
        sample,
        results,
    };
    let mut out = Vec::new();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write_tables(&mut out, &report, space.len(), args.runs)?;
    }
    out!("{}", String::from_utf8_lossy(&out))
}

/// `moo bench --list`: every strategy of the registry with a line about it.
fn print_list() -> anyhow::Result<()> {
    for info in strategy::list() {
        outln!("{:<14} {}", info.name, info.about)?;
    }
    outln!(
        "{:<14} follow the decision tree in FILE (as written by `moo tree build`)",
        "tree:FILE"
    )
}

/// The text report: what was played, the summary table and, with several runs, the runs table.
fn write_tables(
    out: &mut impl Write,
    report: &Report<'_>,
    codes: usize,
    runs: usize,
) -> std::io::Result<()> {
    let secrets = match report.sample {
        Some(s) => format!(
            "{} of {} secrets drawn with seed {}, one game at a time",
            s.secrets, s.of, s.seed
        ),
        None => format!("{codes} secrets"),
    };
    writeln!(
        out,
        "{}: {secrets}, guesses from {}",
        report.rules.describe(),
        match report.guesses {
            GuessPool::All => "every code",
            GuessPool::Consistent => "the codes still possible",
        }
    )?;
    let results = &report.results;
    writeln!(out, "{}", summary_table(results))?;
    if runs > 1 && results.iter().any(|r| !r.runs.is_empty()) {
        writeln!(out, "\nAverage guesses per run:")?;
        writeln!(out, "{}", runs_table(results, runs))?;
    }
    Ok(())
}

/// The strategies benchmarked when none are named, as the registry marks them; on big games,
/// less those that ignore feedback, whose games would take as many guesses as there are codes.
fn default_strategies(big: bool) -> Vec<String> {
    strategy::list()
        .filter(|i| i.bench_default && !(big && i.cost == strategy::Cost::Blind))
        .map(|i| i.name.to_string())
        .collect()
}

/// Splits and checks the strategy names against the registry.
fn check_names(given: &[String]) -> anyhow::Result<Vec<String>> {
    let known: Vec<&str> = strategy::names().collect();
    let mut out: Vec<String> = Vec::new();
    for name in given
        .iter()
        .flat_map(|n| n.split(','))
        .map(|n| n.trim())
        .filter(|n| !n.is_empty())
    {
        if !known.contains(&name) && !name.starts_with("tree:") {
            return Err(UsageError(format!(
                "unknown strategy {name:?}: choose from {}",
                known.join(", ")
            ))
            .into());
        }
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    if out.is_empty() {
        return Err(UsageError("--strategy needs at least one name".into()).into());
    }
    Ok(out)
}

/// Evaluates one strategy, once if it is deterministic, else `--runs` times.
fn bench_one(
    space: &CodeSpace,
    name: &str,
    pool: GuessPool,
    sample: Option<Sample>,
    args: &Args,
) -> anyhow::Result<Evaluation> {
    // A tree file is read and checked once, then every thread plays a copy.
    let tree = advice::tree_strategy_named(name, space)?;
    let build = |seed: u64| -> Result<Box<dyn Strategy>, _> {
        if let Some(tree) = &tree {
            return Ok(Box::new(tree.clone()));
        }
        let mut options = StrategyOptions::default();
        options.guesses = pool;
        options.seed = seed;
        options.max_pairs = args.max_pairs;
        strategy::by_name(name, space, &options)
    };
    let build: &Builder<'_> = &build;
    let deterministic = build(args.seed)?.is_deterministic();
    let runs = if deterministic { 1 } else { args.runs };

    let secrets = sample.map_or(space.len(), |s| s.secrets);
    let bar = ProgressLine::bar(name, (secrets * runs) as u64, "games");
    let mut evaluations: Vec<(u64, Evaluation)> = Vec::with_capacity(runs);
    for run in 0..runs {
        let mut options = EvalOptions::default();
        options.max_guesses = args.max_guesses;
        options.sample = sample.map(|s| s.secrets);
        options.seed = if runs == 1 {
            args.seed
        } else {
            game_seed(args.seed, run as u64)
        };
        let offset = (secrets * run) as u64;
        let progress = |done: usize| bar.set_position(offset + done as u64);
        let e = evaluate(space, build, &options, &progress)
            .with_context(|| format!("strategy {name} failed"))?;
        evaluations.push((options.seed, e));
    }
    bar.finish();
    Ok(Evaluation::combine(&evaluations))
}

/// Histogram columns shown in the table before the rest are lumped together.
const TABLE_COLUMNS: usize = 10;

fn summary_table(results: &[Evaluation]) -> Table {
    let widest = results.iter().map(|r| r.histogram.max()).max().unwrap_or(0);
    let columns = widest.min(TABLE_COLUMNS);
    let lump = widest > TABLE_COLUMNS;
    let any_gave_up = results.iter().any(|r| r.histogram.gave_up() > 0);
    let timed = results.iter().any(|r| r.guess_times.is_some());

    let mut header: Vec<String> = ["strategy", "games", "total", "average", "worst"]
        .map(String::from)
        .to_vec();
    if any_gave_up {
        header.push("gave up".into());
    }
    header.extend((1..=columns).map(|i| {
        if lump && i == columns {
            format!("{i}+")
        } else {
            i.to_string()
        }
    }));
    header.push("time".into());
    if timed {
        header.push("p99/guess".into());
    }

    let mut table = markdown_table(header);
    for r in results {
        let mut row = vec![
            r.strategy.clone(),
            r.histogram.games().to_string(),
            r.histogram.total().to_string(),
            format!("{:.4}", r.histogram.average()),
            r.histogram.max().to_string(),
        ];
        if any_gave_up {
            row.push(r.histogram.gave_up().to_string());
        }
        for i in 1..=columns {
            let count: u64 = if lump && i == columns {
                r.histogram.counts().iter().skip(i - 1).sum()
            } else {
                r.histogram.counts().get(i - 1).copied().unwrap_or(0)
            };
            row.push(count.to_string());
        }
        row.push(format!("{:.3} s", r.seconds));
        if timed {
            row.push(
                r.guess_times
                    .as_ref()
                    .map_or_else(|| "-".into(), |t| format!("{:.1} ms", t.p99 * 1e3)),
            );
        }
        table.add_row(row);
    }
    let numbers = 1..table.column_count();
    align_right(&mut table, numbers);
    table
}

/// The classic per-run table: one row per run, a column per strategy, then the mean.
fn runs_table(results: &[Evaluation], runs: usize) -> Table {
    let mut header = vec!["run".to_string()];
    header.extend(results.iter().map(|r| r.strategy.clone()));
    let mut table = markdown_table(header);
    for run in 0..runs {
        let mut row = vec![(run + 1).to_string()];
        row.extend(results.iter().map(|r| {
            let average = r.runs.get(run).map_or(r.histogram.average(), |x| x.average);
            format!("{average:.2}")
        }));
        table.add_row(row);
    }
    let mut row = vec!["mean".to_string()];
    row.extend(
        results
            .iter()
            .map(|r| format!("{:.2}", r.histogram.average())),
    );
    table.add_row(row);
    let numbers = 1..table.column_count();
    align_right(&mut table, numbers);
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_strategies_are_registered() {
        let defaults = default_strategies(false);
        assert!(!default_strategies(true).iter().any(|n| n == "random"));
        assert_eq!(check_names(&defaults).unwrap(), defaults);
        assert!(defaults.iter().any(|n| n == "knuth"));
        assert!(!defaults.iter().any(|n| n == "optimal"));
    }

    #[test]
    fn names_are_trimmed_and_deduplicated() {
        let given = ["knuth", " entropy", "knuth", ""].map(String::from);
        assert_eq!(check_names(&given).unwrap(), ["knuth", "entropy"]);
        assert!(check_names(&[String::new()]).is_err());
    }
}
