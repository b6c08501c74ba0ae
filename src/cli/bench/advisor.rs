//! `moo bench advisor`: how often the advisor proves its move optimal off the shipped tree, and
//! how long it takes, over many positions of real games.
//!
//! Each position gets a fresh advisor (an empty cache), so the times are those of a first request
//! on a game, not of the instant cached answers that follow. For the first positions, the
//! advisor's total is checked against an exact search of the same set run to the end without a
//! time limit, so a proof cut short, or a cache answering for the wrong set, would show.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Context;
use moo_core::advisor::{AdviceOptions, Advisor, Chooser, Method};
use moo_core::tree::{Search, SearchOutcome};
use moo_core::{Code, CodeSpace, History, Rules, Stop};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::cli::advice;
use crate::cli::output::out;
use crate::cli::{RuleArgs, UsageError};

/// The most positions or cross-checks one run takes: each is a fresh advisor with its own time
/// limit, so more would run for days, and the counts size the buffers.
pub const MAX_COUNT: u64 = 100_000;

/// Reads `--positions` and `--cross-checks`, refusing counts past [`MAX_COUNT`] when parsed.
pub fn count_parser() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(0..=MAX_COUNT)
}

/// `moo bench advisor`'s flags.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo bench advisor                                every one-turn position after 0123
  moo bench advisor --openings 0123 --positions 500 --seed 1
                                                   500 random two-turn positions
  moo bench advisor --game mastermind --openings 1122,1234 --json")]
pub struct Args {
    #[command(flatten)]
    rules: RuleArgs,

    /// The first guesses of the positions, comma-separated [default: the first code, such as
    /// 0123 or 1111].
    #[arg(long, value_delimiter = ',', value_name = "CODES")]
    openings: Vec<String>,

    /// Try this many random two-turn positions (seeded by --seed; 0 to 100000); 0 tries every
    /// one-turn position.
    #[arg(long, default_value_t = 0, value_name = "N", value_parser = count_parser())]
    positions: usize,

    /// The seed of the random positions.
    #[arg(long, default_value = "0", value_name = "S")]
    seed: u64,

    /// The advisor's time limit per position, such as 500ms or 2s.
    #[arg(long, value_name = "DURATION", value_parser = advice::parse_time_limit,
          default_value = advice::DEFAULT_TIME_LIMIT)]
    time_limit: Duration,

    /// How many proven positions to check against a search without a time limit (0 to
    /// 100000).
    #[arg(long, default_value_t = 20, value_name = "N", value_parser = count_parser())]
    cross_checks: usize,

    /// Print the results as JSON on stdout instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `moo bench advisor`.
pub fn command(args: Args) -> anyhow::Result<()> {
    let rules = args.rules.rules()?;
    let openings = if args.openings.is_empty() {
        let first = CodeSpace::new(rules.clone())
            .ok()
            .filter(|s| !s.is_empty())
            .map(|s| rules.format_code(&s.code(0)));
        first.into_iter().collect()
    } else {
        args.openings
    };
    run(&Plan {
        rules: &rules,
        openings: &openings,
        positions: args.positions,
        seed: args.seed,
        time_limit: args.time_limit,
        cross_checks: args.cross_checks,
        json: args.json,
    })
}

/// Random draws per position asked for before giving up: a drawn game already won is skipped,
/// and in a small space most can be.
const DRAWS_PER_POSITION: usize = 1000;

/// What the advisor bench is asked to do.
pub struct Plan<'a> {
    /// The rules.
    pub rules: &'a Rules,
    /// The first guesses of the positions.
    pub openings: &'a [String],
    /// Random two-turn positions to try; with 0, every one-turn position after each opening.
    pub positions: usize,
    /// Seed of the random positions.
    pub seed: u64,
    /// The advisor's time limit per position.
    pub time_limit: Duration,
    /// How many positions are cross-checked against a search without a time limit.
    pub cross_checks: usize,
    /// Print JSON instead of text.
    pub json: bool,
}

/// One position and what the advisor made of it.
#[derive(Debug, Serialize)]
struct Sample {
    history: String,
    remaining: usize,
    method: Method,
    proven: bool,
    total_guesses: Option<u64>,
    seconds: f64,
}

/// The whole run.
#[derive(Debug, Serialize)]
struct Report {
    rules: String,
    time_limit_seconds: f64,
    positions: usize,
    proven: usize,
    p50_seconds: f64,
    p90_seconds: f64,
    p99_seconds: f64,
    max_seconds: f64,
    largest_set: usize,
    cross_checked: usize,
    cross_check_failures: Vec<String>,
    samples: Vec<Sample>,
}

/// The codes of `--openings`, at least one.
fn parse_openings(rules: &Rules, openings: &[String]) -> anyhow::Result<Vec<Code>> {
    let codes: Vec<Code> = openings
        .iter()
        .map(|o| {
            rules
                .parse_code(o)
                .map_err(|e| UsageError(format!("--openings {o:?}: {e}")))
        })
        .collect::<Result<_, _>>()?;
    if codes.is_empty() {
        return Err(UsageError("--openings needs at least one code".into()).into());
    }
    Ok(codes)
}

/// Runs the advisor bench.
pub fn run(plan: &Plan<'_>) -> anyhow::Result<()> {
    let rules = plan.rules;
    let space = CodeSpace::new(rules.clone()).context("cannot benchmark these rules")?;
    let openings = parse_openings(rules, plan.openings)?;
    let histories = positions(&space, &openings, plan.positions, plan.seed)?;
    let mut samples = Vec::with_capacity(histories.len());
    let mut failures = Vec::new();
    let mut checked = 0;
    for history in &histories {
        let candidates = history.candidates(&space);
        // A fresh advisor, so each time is that of a first request on the position.
        let advisor = Advisor::new();
        let start = Instant::now();
        let advice = advisor.advise(
            &space,
            history,
            &candidates,
            Chooser::Advisor(&AdviceOptions::default(), &Stop::after(plan.time_limit)),
        )?;
        let seconds = start.elapsed().as_secs_f64();
        let text = describe(rules, history);
        if checked < plan.cross_checks && advice.total_guesses.is_some() {
            checked += 1;
            match Search::after(&space, history, &candidates).run()? {
                SearchOutcome::Found(p) if Some(p.total) == advice.total_guesses => {}
                SearchOutcome::Found(p) => failures.push(format!(
                    "{text}: the advisor's total {:?} differs from a search without a limit, {}",
                    advice.total_guesses, p.total
                )),
                SearchOutcome::Impossible { .. } => {
                    failures.push(format!("{text}: no plan without a limit"))
                }
            }
        }
        samples.push(Sample {
            history: text,
            remaining: candidates.len(),
            method: advice.method,
            proven: advice.proven_optimal,
            total_guesses: advice.total_guesses,
            seconds,
        });
    }
    let mut times: Vec<f64> = samples.iter().map(|s| s.seconds).collect();
    times.sort_by(f64::total_cmp);
    let report = Report {
        rules: rules.describe(),
        time_limit_seconds: plan.time_limit.as_secs_f64(),
        positions: samples.len(),
        proven: samples.iter().filter(|s| s.proven).count(),
        p50_seconds: quantile(&times, 0.50),
        p90_seconds: quantile(&times, 0.90),
        p99_seconds: quantile(&times, 0.99),
        max_seconds: times.last().copied().unwrap_or(0.0),
        largest_set: samples.iter().map(|s| s.remaining).max().unwrap_or(0),
        cross_checked: checked,
        cross_check_failures: failures,
        samples,
    };
    emit(plan.json, &report, print_text)?;
    anyhow::ensure!(
        report.cross_check_failures.is_empty(),
        "{} cross-checks failed",
        report.cross_check_failures.len()
    );
    Ok(())
}

/// Prints a bench's report on stdout: pretty JSON with `json`, else as `text` writes it.
pub fn emit<R: Serialize>(
    json: bool,
    report: &R,
    text: impl FnOnce(&mut Vec<u8>, &R) -> std::io::Result<()>,
) -> anyhow::Result<()> {
    let mut out = Vec::new();
    if json {
        serde_json::to_writer_pretty(&mut out, report)?;
        writeln!(out)?;
    } else {
        text(&mut out, report)?;
    }
    out!("{}", String::from_utf8_lossy(&out))?;
    Ok(())
}

fn print_text(out: &mut impl Write, r: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {} positions, time limit {:.2} s per guess",
        r.rules, r.positions, r.time_limit_seconds
    )?;
    writeln!(
        out,
        "proven optimal: {} of {} ({:.1}%); largest set {}",
        r.proven,
        r.positions,
        100.0 * r.proven as f64 / r.positions.max(1) as f64,
        r.largest_set
    )?;
    writeln!(
        out,
        "latency: p50 {:.4} s, p90 {:.4} s, p99 {:.4} s, max {:.4} s",
        r.p50_seconds, r.p90_seconds, r.p99_seconds, r.max_seconds
    )?;
    let mut methods: Vec<(Method, usize)> = Vec::new();
    for s in &r.samples {
        match methods.iter_mut().find(|(m, _)| *m == s.method) {
            Some((_, n)) => *n += 1,
            None => methods.push((s.method, 1)),
        }
    }
    let methods: Vec<String> = methods
        .iter()
        .map(|(m, n)| format!("{} {n}", serde_json::to_value(m).unwrap_or_default()))
        .collect();
    writeln!(out, "methods: {}", methods.join(", "))?;
    writeln!(
        out,
        "cross-checked against a search without a time limit: {} positions, {} differ",
        r.cross_checked,
        r.cross_check_failures.len()
    )?;
    for f in &r.cross_check_failures {
        writeln!(out, "  {f}")?;
    }
    Ok(())
}

/// The positions to try: every one-turn position after each opening, or `count` random
/// two-turn ones (a random secret, an opening in turn, then a random second guess), skipping
/// games already won. Refused when no position, or too few, can be drawn.
fn positions(
    space: &CodeSpace,
    openings: &[Code],
    count: usize,
    seed: u64,
) -> Result<Vec<History>, UsageError> {
    let rules = space.rules();
    if space.len() < 2 {
        return Err(UsageError(format!(
            "{} allow only one code, so every game is won by its first guess and there is no position to try: use more symbols or a longer code",
            rules.describe()
        )));
    }
    if count == 0 {
        let mut out = Vec::new();
        for &opening in openings {
            let mut seen = std::collections::BTreeSet::new();
            for i in 0..space.len() {
                let f = opening.score(&space.code(i));
                if !f.is_win(rules.length()) && seen.insert(f.index(rules.length())) {
                    let mut h = History::new();
                    h.push(opening, f);
                    out.push(h);
                }
            }
        }
        return Ok(out);
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    for _ in 0..count.saturating_mul(DRAWS_PER_POSITION) {
        if out.len() == count {
            return Ok(out);
        }
        let opening = openings[out.len() % openings.len()];
        let secret = space.code(rng.gen_range(0..space.len()));
        let second = space.code(rng.gen_range(0..space.len()));
        let mut h = History::new();
        h.push(opening, opening.score(&secret));
        h.push(second, second.score(&secret));
        if !h.turns().iter().any(|t| t.feedback.is_win(rules.length())) {
            out.push(h);
        }
    }
    if out.len() == count {
        return Ok(out);
    }
    Err(UsageError(format!(
        "only {} of {count} draws of two-turn positions were games not yet won, in {} draws: ask for fewer --positions, or use larger rules",
        out.len(),
        count.saturating_mul(DRAWS_PER_POSITION)
    )))
}

fn describe(rules: &Rules, history: &History) -> String {
    history
        .turns()
        .iter()
        .map(|t| format!("{}={}", rules.format_code(&t.guess), t.feedback))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The `q` quantile of sorted values (nearest rank).
/// The nearest-rank quantile `q` of `sorted` (0 when empty).
pub fn quantile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantiles_use_the_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(quantile(&v, 0.5), 50.0);
        assert_eq!(quantile(&v, 0.99), 99.0);
        assert_eq!(quantile(&v[..1], 0.99), 1.0);
        assert_eq!(quantile(&[], 0.5), 0.0);
    }

    #[test]
    fn one_turn_positions_are_every_feedback_but_the_win() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let opening = Rules::mastermind().parse_code("1122").unwrap();
        // 1122 gets 13 feedbacks over all codes, one of them the win.
        assert_eq!(positions(&space, &[opening], 0, 0).unwrap().len(), 12);
        let random = positions(&space, &[opening], 30, 7).unwrap();
        assert_eq!(random.len(), 30);
        assert!(random.iter().all(|h| h.len() == 2));
        assert_eq!(random, positions(&space, &[opening], 30, 7).unwrap());
        // One code: every game is won at once, so there is no position to draw.
        let one = CodeSpace::new(Rules::new(1, "a", false, false).unwrap()).unwrap();
        let only = one.code(0);
        assert!(positions(&one, &[only], 5, 0).is_err());
        assert!(positions(&one, &[only], 0, 0).is_err());
    }
}
