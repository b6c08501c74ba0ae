//! Strategy benchmarks over every secret of a small space, for the explorer's chart.
//!
//! Deterministic strategies are measured through their decision tree (one strategy call per
//! node, see [`crate::tree`]); others play each secret through `moo_core::strategy::play`. Both
//! give the same figures for a deterministic strategy, which a test checks. Results are cached
//! per rules and strategy, since they never change for a given build.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use moo_core::strategy::{self, StrategyOptions};
use moo_core::{CodeSpace, Rules};
use serde::Serialize;

use crate::error::ApiError;
use crate::tree;

/// How one strategy did against every secret.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct BenchResult {
    pub strategy: String,
    pub about: String,
    /// Every secret of the space, solved or not.
    pub secrets: usize,
    /// Guesses used on the solved secrets.
    pub total_guesses: usize,
    /// Over the solved secrets.
    pub average: f64,
    pub worst: usize,
    /// `histogram[i]`: secrets solved in `i + 1` guesses.
    pub histogram: Vec<usize>,
    /// Secrets not solved within ten guesses per code (only a random strategy can miss).
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

/// Measures strategy `name` against every secret of `space`, giving up at `deadline`.
pub(crate) fn run(
    space: &CodeSpace,
    name: &str,
    deadline: Instant,
) -> Result<BenchResult, ApiError> {
    let start = Instant::now();
    let mut strategy = strategy::by_name(name, space, &StrategyOptions::default())
        .map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let (histogram, unsolved, method) = if strategy.is_deterministic() {
        let grown = tree::grow(strategy.as_mut(), space, deadline, false)?;
        (grown.histogram, 0, "tree")
    } else {
        let (histogram, unsolved) = play_all(strategy.as_mut(), space, deadline)?;
        (histogram, unsolved, "play")
    };
    let solved: usize = histogram.iter().sum();
    let total_guesses: usize = histogram.iter().enumerate().map(|(i, n)| (i + 1) * n).sum();
    Ok(BenchResult {
        strategy: name.to_string(),
        about: strategy::describe(name).unwrap_or_default().to_string(),
        secrets: solved + unsolved,
        total_guesses,
        average: total_guesses as f64 / solved.max(1) as f64,
        worst: histogram.len(),
        histogram,
        unsolved,
        method,
        millis: start.elapsed().as_millis(),
    })
}

/// Plays every secret; the histogram of guesses used, and how many secrets were not solved.
pub(crate) fn play_all(
    strategy: &mut dyn strategy::Strategy,
    space: &CodeSpace,
    deadline: Instant,
) -> Result<(Vec<usize>, usize), ApiError> {
    let mut histogram = Vec::new();
    let mut unsolved = 0;
    let length = space.length();
    for secret in space.codes() {
        if Instant::now() > deadline {
            return Err(ApiError::unavailable(
                "the benchmark took longer than the server's time limit: try smaller rules",
            ));
        }
        let history = strategy::play(strategy, space, secret, tree::max_guesses(space))
            .map_err(|e| ApiError::unprocessable(e.to_string()))?;
        if !history.is_won(length) {
            unsolved += 1;
            continue;
        }
        if histogram.len() < history.len() {
            histogram.resize(history.len(), 0);
        }
        histogram[history.len() - 1] += 1;
    }
    Ok((histogram, unsolved))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn tree_and_play_agree_for_every_registered_deterministic_strategy() {
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(600);
        for name in strategy::playable(&space, &StrategyOptions::default()) {
            let mut s = strategy::by_name(name, &space, &StrategyOptions::default()).unwrap();
            if !s.is_deterministic() {
                continue;
            }
            let by_tree = tree::grow(s.as_mut(), &space, deadline, false)
                .unwrap()
                .histogram;
            let kept = tree::grow(s.as_mut(), &space, deadline, true).unwrap();
            assert!(kept.root.is_some());
            assert_eq!(kept.histogram, by_tree, "{name}");
            let (by_play, unsolved) = play_all(s.as_mut(), &space, deadline).unwrap();
            assert_eq!((by_tree.clone(), 0), (by_play, unsolved), "{name}");
            assert_eq!(by_tree.iter().sum::<usize>(), space.len());
        }
    }

    #[test]
    fn figures_match_moo_bench_for_every_deterministic_strategy() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let deadline = Instant::now() + Duration::from_secs(600);
        for name in strategy::playable(&space, &StrategyOptions::default()) {
            let build = |seed: u64| {
                let mut options = StrategyOptions::default();
                options.seed = seed;
                strategy::by_name(name, &space, &options)
            };
            let eval = moo_core::evaluate(&space, &build, &Default::default(), &|_| ()).unwrap();
            if !eval.deterministic {
                continue;
            }
            let ours = run(&space, name, deadline).unwrap();
            let histogram: Vec<u64> = ours.histogram.iter().map(|&n| n as u64).collect();
            assert_eq!(histogram, eval.histogram, "{name}");
            assert_eq!(ours.total_guesses as u64, eval.total, "{name}");
            assert_eq!((ours.secrets, ours.unsolved), (eval.secrets, eval.gave_up));
        }
    }

    #[test]
    fn a_past_deadline_stops_the_benchmark() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let err = run(&space, "simple", Instant::now() - Duration::from_secs(1)).unwrap_err();
        assert_eq!(err.status, axum::http::StatusCode::SERVICE_UNAVAILABLE);
    }
}
