//! `moo bench review`: how long the review of a whole game takes, and how much of it is
//! proven, over many games a strategy plays.
//!
//! Each game gets a fresh advisor (an empty cache), so a time is that of a first review request,
//! not of the cached answers a second one would get.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Context;
use moo_core::review::{self, ReviewOptions};
use moo_core::strategy::{self, StrategyOptions};
use moo_core::{Advisor, CodeSpace, Rules, Stop};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::advisor::{emit, quantile};
use crate::cli::advice;
use crate::cli::{RuleArgs, UsageError};

/// The most games one run reviews.
pub const MAX_GAMES: u64 = 100_000;

/// `moo bench review`'s flags.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo bench review --secrets 200 --seed 1 --time-limit 60s
  moo bench review --game mastermind -S knuth --secrets 20 --json")]
pub struct Args {
    #[command(flatten)]
    rules: RuleArgs,

    /// The strategy that plays the games (`moo bench --list` shows them).
    #[arg(long, short = 'S', value_name = "NAME", default_value = "entropy")]
    strategy: String,

    /// How many games to review, each against a secret drawn with --seed (1 to 100000).
    #[arg(long, value_name = "N", default_value_t = 200)]
    secrets: usize,

    /// The seed of the secrets and of the strategy.
    #[arg(long, default_value = "0", value_name = "S")]
    seed: u64,

    /// The time each move's proofs may take, such as 500ms or 2s.
    #[arg(long, value_name = "DURATION", value_parser = advice::parse_time_limit,
          default_value = advice::DEFAULT_TIME_LIMIT)]
    time_limit: Duration,

    /// Print the results as JSON on stdout instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `moo bench review`.
pub fn command(args: Args) -> anyhow::Result<()> {
    run(&Plan {
        rules: &args.rules.rules()?,
        strategy: &args.strategy,
        games: args.secrets,
        seed: args.seed,
        move_time: args.time_limit,
        json: args.json,
    })
}

/// What the review bench is asked to do.
pub struct Plan<'a> {
    /// The rules.
    pub rules: &'a Rules,
    /// The strategy that plays the games.
    pub strategy: &'a str,
    /// How many games, each against a secret drawn with `seed`.
    pub games: usize,
    /// The seed of the secrets and of the strategy.
    pub seed: u64,
    /// The time one move's proofs may take.
    pub move_time: Duration,
    /// Print JSON instead of text.
    pub json: bool,
}

/// One game's review, measured.
#[derive(Debug, Serialize)]
struct Sample {
    secret: String,
    moves: usize,
    proven_moves: usize,
    total_cost: f64,
    seconds: f64,
    slowest_move_seconds: f64,
}

/// The whole run.
#[derive(Debug, Serialize)]
struct Report {
    rules: String,
    strategy: String,
    move_time_seconds: f64,
    games: usize,
    proven_games: usize,
    moves: usize,
    proven_moves: usize,
    mean_cost_per_game: f64,
    p50_seconds: f64,
    p90_seconds: f64,
    p99_seconds: f64,
    max_seconds: f64,
    slowest_move_seconds: f64,
    samples: Vec<Sample>,
}

/// Runs the bench.
pub fn run(plan: &Plan<'_>) -> anyhow::Result<()> {
    let rules = plan.rules;
    let space = CodeSpace::new(rules.clone()).context("cannot benchmark these rules")?;
    if plan.games == 0 || plan.games as u64 > MAX_GAMES {
        return Err(UsageError(format!(
            "--secrets must be 1 to {MAX_GAMES}: each game is reviewed in full"
        ))
        .into());
    }
    let mut strategy_options = StrategyOptions::default();
    strategy_options.seed = plan.seed;
    let mut player = strategy::by_name(plan.strategy, &space, &strategy_options)
        .map_err(|e| UsageError(format!("-S {}: {e}", plan.strategy)))?;
    let mut rng = ChaCha8Rng::seed_from_u64(plan.seed);
    let options = ReviewOptions::default().with_move_time(Some(plan.move_time));
    let most = space.len() + 1;
    let mut samples = Vec::with_capacity(plan.games);
    for _ in 0..plan.games {
        let secret = space.code(rng.gen_range(0..space.len()));
        let history = strategy::play(player.as_mut(), &space, &secret, most)?;
        // A fresh advisor, so each time is that of a first review of the game.
        let advisor = Advisor::new();
        let start = Instant::now();
        let r = review::review(&advisor, &space, &history, &options, &Stop::never())?;
        samples.push(Sample {
            secret: rules.format_code(&secret),
            moves: r.moves.len(),
            proven_moves: r.moves.iter().filter(|m| m.proven).count(),
            total_cost: r.total_cost,
            seconds: start.elapsed().as_secs_f64(),
            slowest_move_seconds: r.moves.iter().map(|m| m.seconds).fold(0.0, f64::max),
        });
    }
    let mut times: Vec<f64> = samples.iter().map(|s| s.seconds).collect();
    times.sort_by(f64::total_cmp);
    let report = Report {
        rules: rules.describe(),
        strategy: player.name().to_string(),
        move_time_seconds: plan.move_time.as_secs_f64(),
        games: samples.len(),
        proven_games: samples.iter().filter(|s| s.proven_moves == s.moves).count(),
        moves: samples.iter().map(|s| s.moves).sum(),
        proven_moves: samples.iter().map(|s| s.proven_moves).sum(),
        mean_cost_per_game: samples.iter().map(|s| s.total_cost).sum::<f64>()
            / samples.len() as f64,
        p50_seconds: quantile(&times, 0.50),
        p90_seconds: quantile(&times, 0.90),
        p99_seconds: quantile(&times, 0.99),
        max_seconds: times.last().copied().unwrap_or(0.0),
        slowest_move_seconds: samples
            .iter()
            .map(|s| s.slowest_move_seconds)
            .fold(0.0, f64::max),
        samples,
    };
    emit(plan.json, &report, print_text)
}

fn print_text(out: &mut impl Write, r: &Report) -> std::io::Result<()> {
    writeln!(
        out,
        "{}: {} games played by {}, reviewed with {:.2} s per move",
        r.rules, r.games, r.strategy, r.move_time_seconds
    )?;
    writeln!(
        out,
        "proven: {} of {} moves, {} of {} games; the moves cost {:.3} guesses per game on average",
        r.proven_moves, r.moves, r.proven_games, r.games, r.mean_cost_per_game
    )?;
    writeln!(
        out,
        "time per game: p50 {:.4} s, p90 {:.4} s, p99 {:.4} s, max {:.4} s; slowest move {:.4} s",
        r.p50_seconds, r.p90_seconds, r.p99_seconds, r.max_seconds, r.slowest_move_seconds
    )
}
