//! Strategy benchmarks over every secret of a small space, for the explorer's chart.
//!
//! The figures are those of `moo_core::evaluate`, the evaluation `moo bench` prints, so the page
//! and the command line cannot disagree: a deterministic strategy is walked as its decision tree
//! (one strategy call per node), others play each secret with a seed derived from seed 0, the
//! default of `moo bench`. The evaluation runs on rayon's pool and stops itself at the request's
//! deadline. The answer is the core's [`Evaluation`], the very report a row of `moo bench --json`
//! is. Results are cached per rules and strategy, since they never change for a given build (the
//! time reported is that of the first computation on this server).

use std::collections::HashMap;
use std::sync::Mutex;

use moo_core::strategy::{self, StrategyOptions};
use moo_core::{CodeSpace, EvalOptions, Evaluation, Rules, Stop, Strategy, StrategyError};

use crate::ServiceError;

/// Finished benchmarks by rules and strategy; cleared when it grows past a bound.
#[derive(Default)]
pub(crate) struct BenchCache {
    results: Mutex<HashMap<(Rules, String), Evaluation>>,
}

const CACHE_MAX: usize = 256;

impl BenchCache {
    pub fn get(&self, rules: &Rules, name: &str) -> Option<Evaluation> {
        let results = self.results.lock().unwrap_or_else(|p| p.into_inner());
        results.get(&(rules.clone(), name.to_string())).cloned()
    }

    pub fn put(&self, rules: &Rules, name: &str, result: &Evaluation) {
        let mut results = self.results.lock().unwrap_or_else(|p| p.into_inner());
        if results.len() >= CACHE_MAX {
            results.clear();
        }
        results.insert((rules.clone(), name.to_string()), result.clone());
    }
}

/// Builds strategy `name` with the seed an evaluation asks for, as `moo bench` does; what the
/// building does (the search on the spot of `optimal`) stops at `stop`.
pub(crate) fn builder<'a>(
    name: &'a str,
    space: &'a CodeSpace,
    stop: &'a Stop,
) -> impl Fn(u64) -> Result<Box<dyn Strategy>, StrategyError> + Sync + 'a {
    move |seed| {
        let mut options = StrategyOptions::default();
        options.seed = seed;
        options.stop = stop.clone();
        strategy::by_name(name, space, &options)
    }
}

/// Runs `work` on the rayon pool benchmarks and strategy trees run on: a pool of their own, so
/// a 20-second evaluation keeps its work out of the global pool that the advisor's searches
/// use, and a hint asked meanwhile is not queued behind it. In the browser there is one thread
/// and no pool to keep apart: `work` runs where it is called.
pub(crate) fn on_long_pool<R: Send>(work: impl FnOnce() -> R + Send) -> R {
    #[cfg(target_family = "wasm")]
    {
        work()
    }
    #[cfg(not(target_family = "wasm"))]
    {
        static POOL: std::sync::OnceLock<rayon::ThreadPool> = std::sync::OnceLock::new();
        POOL.get_or_init(|| {
            rayon::ThreadPoolBuilder::new()
                .thread_name(|i| format!("moo-bench-{i}"))
                .build()
                .expect("the benchmark threads start")
        })
        .install(work)
    }
}

/// Measures strategy `name` against every secret of `space`, giving up at `stop`.
pub(crate) fn run(space: &CodeSpace, name: &str, stop: &Stop) -> Result<Evaluation, ServiceError> {
    let build = builder(name, space, stop);
    let mut options = EvalOptions::default();
    options.deadline = stop.deadline();
    options.cancel = stop.flag().cloned();
    on_long_pool(|| moo_core::evaluate(space, &build, &options, &|_| {}))
        .map_err(|e| ServiceError::from_eval(e, "the benchmark"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use moo_core::published::KNUTH;
    use std::time::{Duration, Instant};

    fn far() -> Stop {
        Stop::after(Duration::from_secs(600))
    }

    #[test]
    fn knuth_on_mastermind_is_reported_as_published() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let r = run(&space, "knuth", &far()).unwrap();
        KNUTH.compare(&r.histogram).unwrap();
        assert_eq!((r.secrets, r.histogram.total()), (1296, KNUTH.total));
        assert_eq!(Some(r.histogram.max()), KNUTH.max.map(|m| m as usize));
        assert_eq!((r.histogram.gave_up(), r.deterministic), (0, true));
        assert!((r.histogram.average() - KNUTH.total as f64 / 1296.0).abs() < 1e-12);
    }

    #[test]
    fn a_random_strategy_plays_each_secret_as_moo_bench_does() {
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        let r = run(&space, "random", &far()).unwrap();
        assert_eq!((r.deterministic, r.secrets), (false, 120));
        // `moo bench -S random` without --seed: seed 0, each game seeded from it.
        let build = |seed| {
            let mut options = StrategyOptions::default();
            options.seed = seed;
            strategy::by_name("random", &space, &options)
        };
        let cli = moo_core::evaluate(&space, &build, &EvalOptions::default(), &|_| {}).unwrap();
        assert_eq!(r.histogram, cli.histogram);
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
            assert_eq!(err.status, 503);
            assert!(err.message.contains("time limit"), "{}", err.message);
        }
    }
}
