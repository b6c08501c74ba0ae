//! `moo bench arena`: the advisor scored as CodinGame's "Bulls and Cows 2" arena scores a bot.
//!
//! The arena plays distinct digits 0-9 with no leading zero in secrets or guesses, lengths 1 to
//! 10, 50 ms a turn on one core, and adds up the guesses of 46 hidden games: one of length 1 and
//! five each of lengths 2 to 10. The bench plays seeded secrets of each length with the advisor
//! exactly as `moo solve` builds it (one [`Guesser`] per game, a fresh cache each time, as a new
//! process would have), on a pool of one thread, and weighs the average guesses per length as the
//! arena does, so the score is the expected arena total.
//!
//! A guess's time is the advisor's choice plus filtering the candidates by the answer: the work a
//! bot does between reading the feedback and printing its next guess. Setting up the code space
//! of a length is timed apart, as the arena gives a bot's first turn a longer allowance.

use std::io::Write;
use std::ops::RangeInclusive;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::Context;
use comfy_table::Table;
use moo_core::eval::{sample_secrets, GuessTimes};
use moo_core::strategy::{build_opening, Book};
use moo_core::{CodeSpace, History, Rules};
use serde::Serialize;

use super::advisor::emit;
use crate::cli::advice::{AdviceArgs, Guesser};
use crate::cli::output::{align_right, markdown_table, write_file};
use crate::cli::progress::ProgressLine;
use crate::cli::{TableArgs, UsageError};

/// The arena's digits: every code is written with them, each at most once.
const SYMBOLS: &str = "0123456789";

/// The lengths the arena plays.
pub const LENGTHS: RangeInclusive<usize> = 1..=10;

/// The arena's per-turn time limit, the bench's default `--time-limit`.
pub const DEFAULT_TIME_LIMIT: Duration = Duration::from_millis(50);

/// The secrets played per length by default (every one where there are fewer).
pub const DEFAULT_SECRETS: usize = 1000;

/// The arena leaderboard's first place as docs/src/strategies.md quotes it, the bench's default
/// `--against`.
pub const DEFAULT_AGAINST: u64 = 290;

/// The chances at which a submission's total is reported: it is at most the reported total in
/// this share of submissions.
const SUBMISSION_QUANTILES: [f64; 5] = [0.01, 0.05, 0.5, 0.95, 0.99];

/// `moo bench arena`'s flags: the arena fixes the rules, so there are none to give.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo bench arena --secrets 200 --seed 1         the score over lengths 1 to 10
  moo bench arena --lengths 6 --secrets 50 --json
  moo bench arena --build-book crates/moo-core/books/arena.json   rebuild the opening book")]
pub struct Args {
    /// The lengths to play, one (such as 7) or a range (such as 1-3) [default: 1-10, the
    /// arena's; fewer give a partial score].
    #[arg(long, value_name = "RANGE", value_parser = parse_lengths)]
    lengths: Option<RangeInclusive<usize>>,

    /// Secrets per length, drawn with --seed (every code where there are fewer).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_SECRETS)]
    secrets: usize,

    /// The seed of the secrets and of the advisor's sampling.
    #[arg(long, default_value = "0", value_name = "S")]
    seed: u64,

    /// The time limit of each guess, such as 500ms or 2s [default: 50ms, the arena's].
    #[arg(long, value_name = "DURATION", value_parser = crate::cli::advice::parse_time_limit)]
    time_limit: Option<Duration>,

    #[command(flatten)]
    table: TableArgs,

    /// Print the results as JSON on stdout instead of a table.
    #[arg(long)]
    json: bool,

    /// A total to hold one arena submission against: how often its 46 hidden games would take
    /// at most this many guesses, if each length's games went as the ones played here (the
    /// default is the leaderboard's first place).
    #[arg(long, value_name = "SCORE", default_value_t = DEFAULT_AGAINST)]
    against: u64,

    /// Instead of playing, compute the opening book the advisor follows on these rules and write
    /// it to FILE as JSON: by default lengths 9 and 10, the file shipped as
    /// crates/moo-core/books/arena.json (about 25 s); --lengths builds any of 5 to 10 (minutes).
    /// Deterministic.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["secrets", "seed", "time_limit", "json", "against"])]
    build_book: Option<PathBuf>,
}

/// The lengths the opening book can cover: below them the advisor's exact search or shipped tree
/// plays, and the heuristic's choices are cheap.
pub const BOOK_LENGTHS: RangeInclusive<usize> = 5..=10;

/// The lengths the shipped book holds: 10, where it measured better than the in-game choice,
/// and 9, where it holds the game's own second guesses (see `moo_core::strategy::OpeningPlan`).
const SHIPPED_BOOK_LENGTHS: RangeInclusive<usize> = 9..=10;

/// Runs `moo bench arena`.
pub fn command(args: Args) -> anyhow::Result<()> {
    if let Some(path) = &args.build_book {
        return build_book(args.lengths.unwrap_or(SHIPPED_BOOK_LENGTHS), path);
    }
    run(&Plan {
        lengths: args.lengths.unwrap_or(LENGTHS),
        secrets: args.secrets,
        seed: args.seed,
        time_limit: args.time_limit.unwrap_or(DEFAULT_TIME_LIMIT),
        table: args.table,
        json: args.json,
        against: args.against,
    })
}

/// Computes the opening book of `lengths` (within [`BOOK_LENGTHS`]) and writes it to `path`.
fn build_book(lengths: RangeInclusive<usize>, path: &Path) -> anyhow::Result<()> {
    let lengths: Vec<usize> = lengths.filter(|l| BOOK_LENGTHS.contains(l)).collect();
    if lengths.is_empty() {
        return Err(UsageError(format!(
            "the opening book covers lengths {} to {}: give --lengths within them",
            BOOK_LENGTHS.start(),
            BOOK_LENGTHS.end()
        ))
        .into());
    }
    let mut book = Book::default();
    for length in lengths {
        let start = Instant::now();
        let space = CodeSpace::new(rules(length)?)
            .with_context(|| format!("cannot set up the codes of length {length}"))?;
        let opening = build_opening(&space, |line| eprintln!("length {length}: {line}"));
        eprintln!(
            "length {length}: {} second and {} third guesses in {:.1} s",
            opening.second.len() + opening.seeded.values().map(Vec::len).sum::<usize>(),
            opening.third.len(),
            start.elapsed().as_secs_f64()
        );
        book.lengths.insert(length, opening);
    }
    let mut json = serde_json::to_string_pretty(&book).context("cannot write the book as JSON")?;
    json.push('\n');
    write_file(path, json.as_bytes())
}

/// How many hidden games of `length` the arena plays: one of length 1, five of each other.
fn weight(length: usize) -> u32 {
    if length == 1 {
        1
    } else {
        5
    }
}

/// The rules of one length of the arena.
pub fn rules(length: usize) -> anyhow::Result<Rules> {
    Rules::new(length, SYMBOLS, false, true)
        .with_context(|| format!("the arena's rules of length {length}"))
}

/// Reads `--lengths`: one length such as `7`, or a range such as `1-10`, within 1 to 10.
pub fn parse_lengths(text: &str) -> Result<RangeInclusive<usize>, String> {
    let number = |part: &str| -> Result<usize, String> {
        part.trim().parse::<usize>().map_err(|_| {
            format!("{part:?} is not a length: write one length such as 7, or a range such as 1-10")
        })
    };
    let (low, high) = match text.split_once('-') {
        Some((a, b)) => (number(a)?, number(b)?),
        None => {
            let n = number(text)?;
            (n, n)
        }
    };
    if !LENGTHS.contains(&low) || !LENGTHS.contains(&high) {
        return Err(format!(
            "the arena plays lengths {} to {}: {text:?} is outside them",
            LENGTHS.start(),
            LENGTHS.end()
        ));
    }
    if low > high {
        return Err(format!(
            "{text:?} runs backwards: write the shorter length first, such as {high}-{low}"
        ));
    }
    Ok(low..=high)
}

/// What the arena bench is asked to do.
pub struct Plan {
    /// The lengths to play.
    pub lengths: RangeInclusive<usize>,
    /// Secrets per length, drawn with `seed` (every secret where there are fewer).
    pub secrets: usize,
    /// The seed of the secrets and of the advisor's sampling.
    pub seed: u64,
    /// The time limit of each guess.
    pub time_limit: Duration,
    /// The score table's memory, as `moo solve --table-memory` takes it.
    pub table: TableArgs,
    /// Print JSON instead of text.
    pub json: bool,
    /// The total a submission is held against.
    pub against: u64,
}

/// One length, played.
#[derive(Debug, Serialize)]
struct Length {
    length: usize,
    /// The codes of this length.
    codes: usize,
    /// The games played (the secrets drawn, or every code).
    games: usize,
    total_guesses: u64,
    average_guesses: f64,
    worst_guesses: usize,
    /// The standard deviation of a game's guesses.
    sd_guesses: f64,
    /// How many games took 1, 2, 3, ... guesses (index 0 counts the games won at once).
    histogram: Vec<usize>,
    /// Games of this length in the arena's 46.
    weight: u32,
    /// The guesses that took longer than the time limit.
    guesses_over_limit: usize,
    /// Time per guess, in seconds.
    guess_times: GuessTimes,
    /// Setting up the code space of this length, in seconds.
    setup_seconds: f64,
}

/// The whole run.
#[derive(Debug, Serialize)]
struct Report {
    rules: &'static str,
    time_limit_seconds: f64,
    seed: u64,
    secrets_per_length: usize,
    threads: usize,
    /// The arena's weighted total over the lengths played: one game of length 1, five of each
    /// other.
    score: f64,
    /// Whether every length 1 to 10 was played, so the score is comparable with the arena's.
    complete: bool,
    /// One submission's total over the lengths played, its games drawn as these were.
    submission: Submission,
    /// /proc/loadavg's 1, 5 and 15 minute load averages at the start and the end.
    load_average_start: Option<[f64; 3]>,
    load_average_end: Option<[f64; 3]>,
    lengths: Vec<Length>,
    seconds: f64,
}

/// Runs the arena bench.
pub fn run(plan: &Plan) -> anyhow::Result<()> {
    if plan.secrets == 0 {
        return Err(UsageError("--secrets must be at least 1".into()).into());
    }
    // The arena gives a bot one core: no guess may lean on a second thread.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .context("cannot start the one-thread pool")?;
    let start = Instant::now();
    let load_average_start = load_average();
    let lengths = pool.install(|| {
        plan.lengths
            .clone()
            .map(|length| play_length(plan, length))
            .collect::<anyhow::Result<Vec<_>>>()
    })?;
    let submission = Submission::of(&lengths, plan.against);
    let report = Report {
        rules: "distinct digits 0-9, no leading zero",
        time_limit_seconds: plan.time_limit.as_secs_f64(),
        seed: plan.seed,
        secrets_per_length: plan.secrets,
        threads: pool.current_num_threads(),
        score: lengths
            .iter()
            .map(|l| f64::from(l.weight) * l.average_guesses)
            .sum(),
        complete: plan.lengths == LENGTHS,
        submission,
        load_average_start,
        load_average_end: load_average(),
        lengths,
        seconds: start.elapsed().as_secs_f64(),
    };
    emit(plan.json, &report, print_text)
}

/// The total of one arena submission, if the arena's hidden games of each length went as the
/// games played here: `weight` games a length, each taking `k` guesses as often as `k` guesses
/// were taken here. The arena's score is one draw of this total, so a leaderboard's figure is
/// read against its spread, not only against the expected score.
#[derive(Debug, Serialize)]
struct Submission {
    /// The expected total: the score.
    mean: f64,
    /// The standard deviation of the total.
    sd: f64,
    /// `(chance, total)`: the total is at most `total` in this `chance` of submissions.
    quantiles: Vec<(f64, u64)>,
    /// The total held against ([`Plan::against`]).
    against: u64,
    /// How often a submission's total is at most `against`.
    chance_at_most_against: f64,
}

impl Submission {
    fn of(lengths: &[Length], against: u64) -> Submission {
        // The exact distribution of the sum, by convolution: totals stay below a few hundred.
        let mut total = vec![1.0];
        for l in lengths {
            let games = l.histogram.iter().sum::<usize>() as f64;
            // Index k: one game of this length takes k guesses.
            let one: Vec<f64> = std::iter::once(0.0)
                .chain(l.histogram.iter().map(|&n| n as f64 / games))
                .collect();
            for _ in 0..l.weight {
                total = convolve(&total, &one);
            }
        }
        let mean: f64 = total.iter().enumerate().map(|(t, p)| t as f64 * p).sum();
        let variance = total
            .iter()
            .enumerate()
            .map(|(t, p)| (t as f64 - mean).powi(2) * p)
            .sum::<f64>();
        let at_most = |bound: u64| -> f64 { total.iter().take(bound as usize + 1).sum() };
        let quantile = |chance: f64| -> u64 {
            let mut sum = 0.0;
            // A little slack, so that a chance the sum meets exactly is not lost to rounding.
            let last = total.len().saturating_sub(1) as u64;
            (0..=last)
                .find(|&t| {
                    sum += total[t as usize];
                    sum >= chance - 1e-12
                })
                .unwrap_or(last)
        };
        Submission {
            mean,
            sd: variance.sqrt(),
            quantiles: SUBMISSION_QUANTILES
                .iter()
                .map(|&c| (c, quantile(c)))
                .collect(),
            against,
            chance_at_most_against: at_most(against).min(1.0),
        }
    }
}

/// The distribution of the sum of two independent totals, each given by its chance at each value.
fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    let mut sum = vec![0.0; a.len() + b.len() - 1];
    for (i, &p) in a.iter().enumerate() {
        for (j, &q) in b.iter().enumerate() {
            sum[i + j] += p * q;
        }
    }
    sum
}

/// Plays the seeded secrets of one length, one game at a time.
fn play_length(plan: &Plan, length: usize) -> anyhow::Result<Length> {
    let setup = Instant::now();
    let space = CodeSpace::with_options(rules(length)?, &plan.table.for_heuristics())
        .with_context(|| format!("cannot set up the codes of length {length}"))?;
    let setup_seconds = setup.elapsed().as_secs_f64();
    let secrets = sample_secrets(&space, plan.secrets, plan.seed);
    let mut advice = AdviceArgs::with_time_limit(plan.time_limit);
    advice.seed = plan.seed;
    advice.table = plan.table.clone();

    let bar = ProgressLine::bar(&format!("length {length}"), secrets.len() as u64, "games");
    let mut times = Vec::new();
    let mut guesses = Vec::with_capacity(secrets.len());
    for (done, secret) in secrets.iter().enumerate() {
        // A new guesser per game, as each `moo solve` starts with an empty cache.
        let mut guesser = Guesser::new(&advice, &space)?;
        guesses.push(play_game(&space, &mut guesser, secret, &mut times)?);
        bar.set_position(done as u64 + 1);
    }
    bar.finish();

    let total: u64 = guesses.iter().map(|&g| g as u64).sum();
    let average = total as f64 / guesses.len() as f64;
    let worst = guesses.iter().copied().max().unwrap_or(0);
    let mut histogram = vec![0; worst];
    for &g in &guesses {
        histogram[g - 1] += 1;
    }
    let variance = guesses
        .iter()
        .map(|&g| (g as f64 - average).powi(2))
        .sum::<f64>()
        / guesses.len() as f64;
    let limit = plan.time_limit.as_secs_f64();
    Ok(Length {
        length,
        codes: space.len(),
        games: guesses.len(),
        total_guesses: total,
        average_guesses: average,
        worst_guesses: worst,
        sd_guesses: variance.sqrt(),
        histogram,
        weight: weight(length),
        guesses_over_limit: times.iter().filter(|&&t| t > limit).count(),
        guess_times: GuessTimes::of(times).context("no guess was timed")?,
        setup_seconds,
    })
}

/// The guesses the advisor takes to find the secret of index `secret`, each guess's seconds
/// added to `times`.
fn play_game(
    space: &CodeSpace,
    guesser: &mut Guesser,
    secret: usize,
    times: &mut Vec<f64>,
) -> anyhow::Result<usize> {
    let secret = space.code(secret);
    let length = space.length();
    let mut history = History::new();
    let mut candidates = space.all();
    // One guess per code finds any secret; more means the advisor is broken, not unlucky.
    while history.len() <= space.len() {
        let start = Instant::now();
        let guess = guesser.advise(space, &history, &candidates)?.code;
        let feedback = guess.score(&secret);
        if !feedback.is_win(length) {
            candidates = space.filter_code(&candidates, &guess, feedback);
        }
        times.push(start.elapsed().as_secs_f64());
        history.push(guess, feedback);
        if feedback.is_win(length) {
            return Ok(history.len());
        }
    }
    anyhow::bail!(
        "the advisor did not find the secret {} in {} guesses",
        space.rules().format_code(&secret),
        history.len()
    )
}

/// The 1, 5 and 15 minute load averages, where the system tells them (Linux's /proc/loadavg).
fn load_average() -> Option<[f64; 3]> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let mut fields = text.split_whitespace().map(|f| f.parse::<f64>().ok());
    Some([fields.next()??, fields.next()??, fields.next()??])
}

fn print_text(out: &mut Vec<u8>, r: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "CodinGame arena rules ({}): {} secrets per length drawn with seed {}, {} thread, {:.0} ms per guess",
        r.rules,
        r.secrets_per_length,
        r.seed,
        r.threads,
        r.time_limit_seconds * 1e3
    )?;
    writeln!(out, "{}", lengths_table(&r.lengths))?;
    let scope = if r.complete {
        String::new()
    } else {
        let first = r.lengths.first().map_or(0, |l| l.length);
        let last = r.lengths.last().map_or(0, |l| l.length);
        format!(" (lengths {first} to {last} only: not comparable with the arena's total)")
    };
    writeln!(
        out,
        "arena score: {:.2}{scope} = sum of weight x average",
        r.score
    )?;
    print_submission(out, &r.submission)?;
    let load = |l: &Option<[f64; 3]>| {
        l.map_or("unavailable".to_string(), |[a, b, c]| {
            format!("{a:.2} {b:.2} {c:.2}")
        })
    };
    writeln!(
        out,
        "load average (1, 5, 15 min): {} at the start, {} at the end; {:.1} s in all",
        load(&r.load_average_start),
        load(&r.load_average_end),
        r.seconds
    )
}

/// A row per length: its games, guesses, weight and guess times, numbers aligned right.
fn lengths_table(lengths: &[Length]) -> Table {
    let mut table = markdown_table([
        "length",
        "games",
        "average",
        "worst",
        "weight",
        "p50/guess",
        "p99/guess",
        "max/guess",
        "over limit",
        "setup",
    ]);
    for l in lengths {
        let ms = |s: f64| format!("{:.1} ms", s * 1e3);
        table.add_row([
            l.length.to_string(),
            l.games.to_string(),
            format!("{:.3}", l.average_guesses),
            l.worst_guesses.to_string(),
            l.weight.to_string(),
            ms(l.guess_times.p50),
            ms(l.guess_times.p99),
            ms(l.guess_times.max),
            l.guesses_over_limit.to_string(),
            format!("{:.2} s", l.setup_seconds),
        ]);
    }
    let numbers = 1..table.column_count();
    align_right(&mut table, numbers);
    table
}

/// What one submission of these games may total, and its chance against the target.
fn print_submission(out: &mut Vec<u8>, s: &Submission) -> std::io::Result<()> {
    let quantiles: Vec<String> = s
        .quantiles
        .iter()
        .map(|(chance, total)| format!("{total} in {:.0}%", chance * 100.0))
        .collect();
    writeln!(
        out,
        "one submission of these games (sd {:.1}): a total of at most {} of submissions; at most {} in {:.2}%",
        s.sd,
        quantiles.join(", "),
        s.against,
        s.chance_at_most_against * 100.0
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_are_one_or_a_range_within_the_arena() {
        assert_eq!(parse_lengths("1-10"), Ok(1..=10));
        assert_eq!(parse_lengths("7"), Ok(7..=7));
        assert_eq!(parse_lengths(" 2 - 4"), Ok(2..=4));
        assert!(parse_lengths("0-3")
            .unwrap_err()
            .contains("lengths 1 to 10"));
        assert!(parse_lengths("11").unwrap_err().contains("lengths 1 to 10"));
        assert!(parse_lengths("5-2").unwrap_err().contains("such as 2-5"));
        assert!(parse_lengths("a-3").unwrap_err().contains("such as 1-10"));
        assert!(parse_lengths("").is_err());
    }

    /// A played length with these games' guesses.
    fn played(length: usize, histogram: Vec<usize>) -> Length {
        let games = histogram.iter().sum();
        Length {
            length,
            codes: 0,
            games,
            total_guesses: 0,
            average_guesses: 0.0,
            worst_guesses: histogram.len(),
            sd_guesses: 0.0,
            histogram,
            weight: weight(length),
            guesses_over_limit: 0,
            guess_times: GuessTimes::of(vec![0.0]).unwrap(),
            setup_seconds: 0.0,
        }
    }

    #[test]
    fn a_submission_is_the_exact_sum_of_its_weighted_games() {
        // Length 1 always in 3 guesses; length 2's five games each 1 or 2 guesses, evenly:
        // the total is 3 + 5 + Binomial(5, 1/2).
        let s = Submission::of(&[played(1, vec![0, 0, 4]), played(2, vec![7, 7])], 9);
        assert!((s.mean - 10.5).abs() < 1e-12);
        assert!((s.sd - 1.25f64.sqrt()).abs() < 1e-12);
        // P(total <= 9) = P(Binomial <= 1) = 6/32.
        assert!((s.chance_at_most_against - 6.0 / 32.0).abs() < 1e-12);
        // 1/32 at 8, 6/32 at 9, 16/32 at 10, 26/32 at 11, 31/32 at 12.
        let totals: Vec<u64> = s.quantiles.iter().map(|&(_, t)| t).collect();
        assert_eq!(totals, [8, 9, 10, 12, 13]);
        let sure = Submission::of(&[played(1, vec![0, 0, 4])], 2);
        assert_eq!(sure.chance_at_most_against, 0.0);
        assert!(sure.quantiles.iter().all(|&(_, t)| t == 3));
        assert_eq!(sure.sd, 0.0);
    }

    #[test]
    fn the_weights_are_the_arenas_46_games() {
        assert_eq!(LENGTHS.map(weight).sum::<u32>(), 46);
    }

    #[test]
    fn every_length_has_the_arenas_codes() {
        // 9 first digits, then 9 x 8 x ... for the rest.
        let codes: Vec<usize> = LENGTHS
            .map(|l| CodeSpace::new(rules(l).unwrap()).unwrap().len())
            .take(4)
            .collect();
        assert_eq!(codes, [9, 81, 648, 4536]);
    }
}
