//! `moo crack`: long secrets through a bulls-and-cows oracle, by the interval cracker (the
//! default), the earlier exact cracker or the genetic baseline, one secret, many random ones, or
//! the published table.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use clap::ValueEnum;
use moo_core::text::read_capped;
use moo_crack::{
    exact, ga, intervals, Alphabet, LongCode, LongRules, Oracle, OPENING_TEXT, TEXT_SYMBOLS,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::Serialize;

use super::output::{markdown_table, outln};
use super::progress::ProgressLine;
use super::{ranged, UsageError};

/// The longest secret cracked, with repeats: the exact cracker's time grows faster than the
/// length, and at this one it already takes many seconds (the book's `docs/src/performance.md`).
const MAX_LENGTH: u64 = 5000;

/// The longest distinct secret cracked: the scaling rows go this far. The interval cracker
/// takes seconds here; the exact one over a minute, since its time grows faster than the length.
const MAX_DISTINCT_LENGTH: usize = 2000;

/// The most genetic-algorithm runs in a crowd.
const MAX_RUNS: u64 = 1000;

/// The most generations of one genetic-algorithm run.
const MAX_GENERATIONS: u64 = 1_000_000;

/// The most random secrets of `--trials`.
const MAX_TRIALS: i64 = 10_000;

/// The largest `--secret-file` read, in bytes (16 MiB; a novel is one or two).
const MAX_SECRET_FILE: u64 = 16 << 20;

/// The lengths of the published table.
const TABLE_LENGTHS: [usize; 8] = [10, 25, 50, 100, 150, 200, 250, 300];

/// The largest `--cap`: a table of this many rows of a few dozen unknowns stays near 100 MB.
const MAX_CAP: u64 = 1 << 20;

/// Size of the default alphabet for distinct secrets (and of the table's distinct set).
const DISTINCT_SYMBOLS: usize = 300;

/// Arguments of `moo crack`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo crack --repeats --seed 7              a random 300-symbol secret over a-z, 0-9 and space
  moo crack --repeats --secret-file novel.txt --length 100
  moo crack --secret 'the quick brown fx' --symbols 'abcdefghijklmnopqrstuvwxyz ' --repeats
  moo crack --repeats --trials 20           mean and max queries over 20 random secrets
  moo crack --table                         the published table (GA, exact and intervals, both sets)
  moo crack --trials 20 --cap 16384         a larger table-size cap: fewer queries, more time
  moo crack --table --lengths 10,25 --runs 2 --generations 200   a quick look")]
pub struct Args {
    /// Number of symbols in the secret, at most 5000 with --repeats and 2000 without
    /// [default: 300, or the length of --secret].
    #[arg(long, short = 'l', value_name = "N", value_parser = ranged(MAX_LENGTH))]
    length: Option<usize>,

    /// The alphabet, in order [default: `a-z0-9` and space with --repeats, 300 Unicode letters from
    /// U+0100 for distinct secrets].
    #[arg(long, short = 's', value_name = "STRING")]
    symbols: Option<String>,

    /// Symbols may repeat in the secret.
    #[arg(long, conflicts_with = "distinct")]
    repeats: bool,

    /// Every symbol of the secret differs (the default).
    #[arg(long)]
    distinct: bool,

    /// The secret to crack, written with the alphabet's symbols [default: random from --seed].
    #[arg(long, value_name = "STRING", conflicts_with = "secret_file")]
    secret: Option<String>,

    /// Take the secret from a text file (a regular file of at most 16 MiB): lower-cased,
    /// whitespace runs made one space, other characters outside the alphabet dropped, then the
    /// first --length symbols.
    #[arg(long, value_name = "PATH")]
    secret_file: Option<PathBuf>,

    /// Seed for the random secret and the genetic algorithm.
    #[arg(long, default_value_t = 0)]
    seed: u64,

    /// The cracker: `intervals` (the default) and `exact` always recover the secret, `intervals`
    /// with far fewer queries; `ga` is the genetic baseline. Queries may repeat symbols even in a
    /// distinct game: only the secret's symbols must differ.
    #[arg(long, value_enum, default_value = "intervals")]
    method: Method,

    /// Table-size cap of the `intervals` cracker: the most joint values one group of unknowns may
    /// keep. Larger caps put more unknowns in each query (fewer queries) and cost time and memory.
    #[arg(long, value_name = "ROWS", default_value_t = intervals::DEFAULT_CAP as u64,
          value_parser = clap::value_parser!(u64).range(intervals::MIN_CAP as u64..=MAX_CAP))]
    cap: u64,

    /// Crack N random secrets (seeds --seed, --seed + 1, ...) and report mean and max queries and
    /// time.
    #[arg(
        long,
        value_name = "N",
        conflicts_with_all = ["secret", "secret_file", "table"],
        value_parser = clap::value_parser!(u32).range(1..=MAX_TRIALS)
    )]
    trials: Option<u32>,

    /// Print the published table: GA best, worst, average and crowd fitness beside the exact and
    /// interval crackers' queries, for lengths 10 to 300, secrets with repeats (from the shipped
    /// novel opening) and distinct (random over 300 Unicode letters).
    #[arg(long, conflicts_with_all = ["secret", "secret_file", "method"])]
    table: bool,

    /// Lengths of the --table rows, comma-separated, each 1 to 300
    /// [default: 10,25,50,100,150,200,250,300].
    #[arg(
        long,
        value_name = "N,...",
        value_delimiter = ',',
        requires = "table",
        value_parser = ranged(DISTINCT_SYMBOLS as u64)
    )]
    lengths: Option<Vec<usize>>,

    /// Genetic-algorithm runs forming the crowd (1 to 1000).
    #[arg(long, default_value_t = 5, value_name = "N", value_parser = ranged(MAX_RUNS))]
    runs: usize,

    /// Genetic-algorithm generations per run, at most (1 to 1000000).
    #[arg(long, default_value_t = 2000, value_name = "N", value_parser = ranged(MAX_GENERATIONS))]
    generations: usize,

    /// Print JSON on stdout instead of text.
    #[arg(long)]
    json: bool,
}

/// Which cracker to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
enum Method {
    /// Unknowns on a tree of position intervals, decoded exactly from linear answers (`tree`
    /// is accepted, its earlier name).
    #[value(alias = "tree")]
    Intervals,
    /// The earlier exact cracker: count the symbols, then locate their occurrences.
    Exact,
    /// The genetic algorithm with wisdom of crowds.
    Ga,
}

/// The result of one crack, as printed with --json.
#[derive(Debug, Serialize)]
struct Outcome {
    found: String,
    exact: bool,
    queries: u64,
    seconds: f64,
}

/// Runs `moo crack`.
pub fn run(args: Args) -> anyhow::Result<()> {
    if args.table {
        return table(&args);
    }
    let rules = rules(&args)?;
    if let Some(trials) = args.trials {
        return run_trials(&args, &rules, trials);
    }
    let secret = secret(&args, &rules)?;
    let (found, queries, seconds) = crack_one(&args, &rules, &secret);
    let outcome = Outcome {
        found: rules.format_code(&found),
        exact: found == secret,
        queries,
        seconds,
    };
    if args.json {
        outln!("{}", serde_json::to_string(&outcome)?)?;
    } else {
        outln!("secret  : {}", rules.format_code(&secret))?;
        outln!("found   : {}", outcome.found)?;
        outln!("exact   : {}", if outcome.exact { "yes" } else { "no" })?;
        outln!("queries : {}", outcome.queries)?;
        outln!("time    : {:.3} s", outcome.seconds)?;
    }
    Ok(())
}

fn repeats(args: &Args) -> bool {
    args.repeats && !args.distinct
}

/// The game from the flags; a secret given with --secret sets the default length.
fn rules(args: &Args) -> anyhow::Result<LongRules> {
    let repeats = repeats(args);
    let alphabet = match &args.symbols {
        Some(s) => Alphabet::new(s).map_err(|e| UsageError(format!("invalid --symbols: {e}")))?,
        None if repeats => Alphabet::text(),
        None => Alphabet::unicode(DISTINCT_SYMBOLS.max(args.length.unwrap_or(0))),
    };
    let length = match (&args.secret, args.length) {
        (_, Some(n)) => n,
        (Some(s), None) => s.chars().count(),
        (None, None) => 300,
    };
    let max = if repeats {
        MAX_LENGTH as usize
    } else {
        MAX_DISTINCT_LENGTH
    };
    if length > max {
        return Err(UsageError(format!(
            "a secret of {length}{} symbols is past the practical limit of {max}: the time to \
             crack grows faster than the length (use a shorter secret{})",
            if repeats { "" } else { " distinct" },
            if repeats {
                ""
            } else {
                ", or --repeats for up to 5000"
            }
        ))
        .into());
    }
    LongRules::new(length, alphabet, repeats)
        .map_err(|e| UsageError(format!("invalid rules: {e}")).into())
}

/// The secret: typed, read from a file, or random from the seed.
fn secret(args: &Args, rules: &LongRules) -> anyhow::Result<LongCode> {
    if let Some(text) = &args.secret {
        return rules
            .parse_code(text)
            .map_err(|e| UsageError(format!("invalid --secret: {e}")).into());
    }
    if let Some(path) = &args.secret_file {
        let text = read_capped(path, MAX_SECRET_FILE)?;
        let code = rules.alphabet().filter_text(&text);
        if code.len() < rules.length() {
            anyhow::bail!(
                "{} holds only {} symbols of the alphabet, fewer than the {} needed: use a longer \
                 text or a smaller --length",
                path.display(),
                code.len(),
                rules.length()
            );
        }
        let code = code.truncated(rules.length());
        rules
            .check_code(&code)
            .with_context(|| format!("the secret from {} does not fit", path.display()))?;
        return Ok(code);
    }
    Ok(rules.random_code(&mut ChaCha8Rng::seed_from_u64(args.seed)))
}

/// Cracks one secret with the chosen method: (answer, queries, seconds).
fn crack_one(args: &Args, rules: &LongRules, secret: &LongCode) -> (LongCode, u64, f64) {
    let mut oracle = Oracle::new(secret, rules.alphabet().len());
    let start = Instant::now();
    let found = match args.method {
        Method::Intervals => intervals::crack(rules, &mut oracle, &interval_options(args)),
        Method::Exact => exact::crack(rules, &mut oracle),
        Method::Ga => ga::crowd(rules, &mut oracle, &ga_options(args, args.seed)).answer,
    };
    (found, oracle.queries(), start.elapsed().as_secs_f64())
}

fn interval_options(args: &Args) -> intervals::IntervalOptions {
    let mut options = intervals::IntervalOptions::default();
    options.cap = args.cap as usize;
    options
}

fn ga_options(args: &Args, seed: u64) -> ga::GaOptions {
    let mut options = ga::GaOptions::default();
    options.runs = args.runs;
    options.generations = args.generations;
    options.seed = seed;
    options
}

#[derive(Debug, Serialize)]
struct Trials {
    method: Method,
    length: usize,
    symbols: usize,
    repeats: bool,
    trials: u32,
    first_seed: u64,
    /// The interval cracker's table-size cap (absent for the other methods).
    #[serde(skip_serializing_if = "Option::is_none")]
    cap: Option<u64>,
    all_exact: bool,
    queries_mean: f64,
    queries_max: u64,
    seconds_mean: f64,
    seconds_max: f64,
}

/// Cracks `trials` random secrets one after another (timings are per secret, not shared).
fn run_trials(args: &Args, rules: &LongRules, trials: u32) -> anyhow::Result<()> {
    let mut results = Vec::new();
    for t in 0..u64::from(trials) {
        let seed = args.seed.wrapping_add(t);
        let secret = rules.random_code(&mut ChaCha8Rng::seed_from_u64(seed));
        let (found, queries, seconds) = crack_one(args, rules, &secret);
        results.push((found == secret, queries, seconds));
    }
    let n = f64::from(trials);
    let report = Trials {
        method: args.method,
        length: rules.length(),
        symbols: rules.alphabet().len(),
        repeats: rules.repeats(),
        trials,
        first_seed: args.seed,
        cap: (args.method == Method::Intervals).then_some(args.cap),
        all_exact: results.iter().all(|r| r.0),
        queries_mean: results.iter().map(|r| r.1 as f64).sum::<f64>() / n,
        queries_max: results.iter().map(|r| r.1).max().unwrap_or(0),
        seconds_mean: results.iter().map(|r| r.2).sum::<f64>() / n,
        seconds_max: results.iter().map(|r| r.2).fold(0.0, f64::max),
    };
    if args.json {
        outln!("{}", serde_json::to_string(&report)?)?;
    } else {
        outln!(
            "{} random secrets of length {} over {} symbols, {}, method {}, seeds {}..{}",
            trials,
            report.length,
            report.symbols,
            if report.repeats {
                "repeats"
            } else {
                "distinct"
            },
            report
                .method
                .to_possible_value()
                .expect("every method has a name")
                .get_name(),
            args.seed,
            args.seed.wrapping_add(u64::from(trials) - 1)
        )?;
        if let Some(cap) = report.cap {
            outln!("table-size cap: {cap}")?;
        }
        outln!("all exact: {}", if report.all_exact { "yes" } else { "no" })?;
        outln!(
            "queries: mean {:.1}, max {}",
            report.queries_mean,
            report.queries_max
        )?;
        outln!(
            "time: mean {:.4} s, max {:.4} s",
            report.seconds_mean,
            report.seconds_max
        )?;
    }
    Ok(())
}

/// One row of the table.
#[derive(Debug, Serialize)]
struct Row {
    set: &'static str,
    length: usize,
    ga_best: f64,
    ga_worst: f64,
    ga_average: f64,
    crowd: f64,
    crowd_exact: bool,
    ga_queries: u64,
    exact_queries: u64,
    interval_queries: u64,
}

fn table(args: &Args) -> anyhow::Result<()> {
    let lengths = args
        .lengths
        .clone()
        .unwrap_or_else(|| TABLE_LENGTHS.to_vec());
    let text = Alphabet::text().filter_text(OPENING_TEXT);
    let mut cells: Vec<(bool, usize)> = Vec::new();
    for &repeats in &[true, false] {
        for &n in &lengths {
            cells.push((repeats, n));
        }
    }
    let bar = ProgressLine::bar("table", cells.len() as u64, "rows");
    let rows: Vec<Row> = cells
        .par_iter()
        .map(|&(repeats, n)| {
            let (rules, secret) = if repeats {
                let rules = LongRules::new(n, Alphabet::text(), true).expect("valid rules");
                (rules, text.clone().truncated(n))
            } else {
                let rules = LongRules::new(n, Alphabet::unicode(DISTINCT_SYMBOLS), false)
                    .expect("valid rules");
                let secret = rules.random_code(&mut ChaCha8Rng::seed_from_u64(args.seed));
                (rules, secret)
            };
            let row = table_row(args, &rules, &secret);
            bar.inc(1);
            row
        })
        .collect();
    bar.finish();
    if args.json {
        outln!("{}", serde_json::to_string(&rows)?)?;
        return Ok(());
    }
    for set in ["repeats", "distinct"] {
        outln!(
            "{}",
            if set == "repeats" {
                format!("Secrets with repeats: the opening of Moby-Dick over {TEXT_SYMBOLS:?} (37 symbols)")
            } else {
                format!(
                    "Distinct secrets: random (seed {}) over {DISTINCT_SYMBOLS} Unicode letters from U+0100",
                    args.seed
                )
            }
        )?;
        outln!("{}\n", set_table(&rows, set))?;
    }
    outln!(
        "Fitness is bulls + cows / length (the length itself when exact); GA: {} runs of at most {} \
         generations, population 100, seed {}; the exact and interval crackers (table-size cap {}) always \
         find the secret.",
        args.runs, args.generations, args.seed, args.cap
    )?;
    Ok(())
}

/// The text table of one set's rows (`repeats` or `distinct`).
fn set_table(rows: &[Row], set: &str) -> comfy_table::Table {
    let mut t = markdown_table([
        "Length",
        "Best",
        "Worst",
        "Average",
        "Crowd",
        "GA queries",
        "Exact queries",
        "Interval queries",
    ]);
    for r in rows.iter().filter(|r| r.set == set) {
        t.add_row([
            r.length.to_string(),
            format!("{:.2}", r.ga_best),
            format!("{:.2}", r.ga_worst),
            format!("{:.2}", r.ga_average),
            format!(
                "{:.2}{}",
                r.crowd,
                if r.crowd_exact { " (exact)" } else { "" }
            ),
            r.ga_queries.to_string(),
            r.exact_queries.to_string(),
            r.interval_queries.to_string(),
        ]);
    }
    t
}

fn table_row(args: &Args, rules: &LongRules, secret: &LongCode) -> Row {
    let k = rules.alphabet().len();
    let mut oracle = Oracle::new(secret, k);
    let crowd = ga::crowd(rules, &mut oracle, &ga_options(args, args.seed));
    let fits: Vec<f64> = crowd.runs.iter().map(|r| r.fitness).collect();
    let mut exact_oracle = Oracle::new(secret, k);
    let found = exact::crack(rules, &mut exact_oracle);
    debug_assert_eq!(&found, secret);
    let mut interval_oracle = Oracle::new(secret, k);
    let found = intervals::crack(rules, &mut interval_oracle, &interval_options(args));
    debug_assert_eq!(&found, secret);
    Row {
        set: if rules.repeats() {
            "repeats"
        } else {
            "distinct"
        },
        length: rules.length(),
        ga_best: fits.iter().copied().fold(f64::MIN, f64::max),
        ga_worst: fits.iter().copied().fold(f64::MAX, f64::min),
        ga_average: fits.iter().sum::<f64>() / fits.len() as f64,
        crowd: crowd.fitness,
        crowd_exact: crowd.answer == *secret,
        ga_queries: crowd.queries,
        exact_queries: exact_oracle.queries(),
        interval_queries: interval_oracle.queries(),
    }
}
