//! Strategy benchmarks over every secret of a small space, for the explorer's chart.
//!
//! The figures are those of `moo_core::evaluate`, the evaluation `moo bench` prints, so the page
//! and the command line cannot disagree: a deterministic strategy is walked as its decision tree
//! (one strategy call per node), others play each secret with a seed derived from seed 0, the
//! default of `moo bench`. The evaluation runs on rayon's pool and stops itself at the request's
//! deadline. Results are cached per rules and strategy, since they never change for a given build.

use std::collections::HashMap;
use std::sync::Mutex;

use moo_core::strategy::{self, StrategyOptions};
use moo_core::{CodeSpace, EvalOptions, Rules, Stop, Strategy, StrategyError};
use serde::Serialize;

use crate::error::ApiError;

/// How one strategy did against every secret.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct BenchResult {
    pub strategy: String,
    pub about: String,
    /// Every secret of the space, solved or not.
    pub secrets: usize,
    /// Guesses used on the solved secrets.
    pub total_guesses: u64,
    /// Over the solved secrets.
    pub average: f64,
    pub worst: usize,
    /// `histogram[i]`: secrets solved in `i + 1` guesses.
    pub histogram: Vec<u64>,
    /// Secrets not solved within ten guesses per code (`moo bench`'s cap).
    pub unsolved: usize,
    /// "tree" (one call per decision node) or "play" (each secret played out).
    pub method: &'static str,
    /// Wall-clock time of the first computation on this server.
    pub millis: u128,
}

/// Finished benchmarks by rules and strategy; cleared when it grows past a bound.
#[derive(Default)]
pub(crate) struct BenchCache {
    results: Mutex<HashMap<(Rules, String), BenchResult>>,
}

const CACHE_MAX: usize = 256;

impl BenchCache {
    pub fn get(&self, rules: &Rules, name: &str) -> Option<BenchResult> {
        let results = self.results.lock().unwrap_or_else(|p| p.into_inner());
        results.get(&(rules.clone(), name.to_string())).cloned()
    }

    pub fn put(&self, rules: &Rules, result: &BenchResult) {
        let mut results = self.results.lock().unwrap_or_else(|p| p.into_inner());
        if results.len() >= CACHE_MAX {
            results.clear();
        }
        results.insert((rules.clone(), result.strategy.clone()), result.clone());
    }
}

/// Builds strategy `name` with the seed an evaluation asks for, as `moo bench` does.
pub(crate) fn builder<'a>(
    name: &'a str,
    space: &'a CodeSpace,
) -> impl Fn(u64) -> Result<Box<dyn Strategy>, StrategyError> + Sync + 'a {
    move |seed| {
        let mut options = StrategyOptions::default();
        options.seed = seed;
        strategy::by_name(name, space, &options)
    }
}

/// The rayon pool benchmarks and strategy trees run on: a pool of their own, so a 20-second
/// evaluation keeps its work out of the global pool that the advisor's searches use, and a hint
/// asked meanwhile is not queued behind it.
pub(crate) fn long_pool() -> &'static rayon::ThreadPool {
    static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        rayon::ThreadPoolBuilder::new()
            .thread_name(|i| format!("moo-bench-{i}"))
            .build()
            .expect("the benchmark threads start")
    })
}

/// Measures strategy `name` against every secret of `space`, giving up at `stop`.
pub(crate) fn run(space: &CodeSpace, name: &str, stop: &Stop) -> Result<BenchResult, ApiError> {
    let build = builder(name, space);
    let mut options = EvalOptions::default();
    options.deadline = stop.deadline();
    options.cancel = stop.flag().cloned();
    let e = long_pool()
        .install(|| moo_core::evaluate(space, &build, &options, &|_| {}))
        .map_err(|e| ApiError::from_eval(e, "the benchmark"))?;
    Ok(BenchResult {
        strategy: name.to_string(),
        about: strategy::describe(name).unwrap_or_default().to_string(),
        secrets: e.secrets,
        total_guesses: e.total,
        average: e.average(),
        worst: e.max,
        unsolved: e.gave_up,
        method: if e.deterministic { "tree" } else { "play" },
        millis: (e.seconds * 1000.0) as u128,
        histogram: e.histogram,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use moo_core::published::KNUTH;
    use moo_core::Histogram;
    use std::time::{Duration, Instant};

    fn far() -> Stop {
        Stop::after(Duration::from_secs(600))
    }

    #[test]
    fn knuth_on_mastermind_is_reported_as_published() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let r = run(&space, "knuth", &far()).unwrap();
        KNUTH
            .compare(&Histogram::from_counts(r.histogram.clone()))
            .unwrap();
        assert_eq!((r.secrets, r.total_guesses), (1296, KNUTH.total));
        assert_eq!(Some(r.worst), KNUTH.max.map(|m| m as usize));
        assert_eq!((r.unsolved, r.method), (0, "tree"));
        assert!((r.average - KNUTH.total as f64 / 1296.0).abs() < 1e-12);
    }

    #[test]
    fn a_random_strategy_plays_each_secret_as_moo_bench_does() {
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        let r = run(&space, "random", &far()).unwrap();
        assert_eq!((r.method, r.secrets), ("play", 120));
        // `moo bench -S random` without --seed: seed 0, each game seeded from it.
        let build = |seed| {
            let mut options = StrategyOptions::default();
            options.seed = seed;
            strategy::by_name("random", &space, &options)
        };
        let cli = moo_core::evaluate(&space, &build, &EvalOptions::default(), &|_| {}).unwrap();
        assert_eq!(r.histogram, cli.histogram);
        assert_eq!((r.total_guesses, r.unsolved), (cli.total, cli.gave_up));
    }

    #[test]
    fn a_past_deadline_stops_the_benchmark() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        for name in ["simple", "random"] {
            let err = run(
                &space,
                name,
                &Stop::at(Instant::now() - Duration::from_secs(1)),
            )
            .unwrap_err();
            assert_eq!(err.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
            assert!(err.message.contains("time limit"), "{}", err.message);
        }
    }
}
