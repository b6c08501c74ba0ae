//! Strategies and evaluation: `moo.strategies`, `moo.Strategy`, `moo.evaluate`.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use moo_core::strategy as registry;
use moo_core::strategy;
use moo_core::{CodeSpace, EvalOptions, GuessPool, Knowledge, StrategyOptions};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{named, quoted, Raise};
use crate::history::history_of;
use crate::long;
use crate::rules::{rules_of, space_of};

register!(
    classes: [StrategyInfo, Strategy, Evaluation],
    functions: [strategies, evaluate],
);

/// What moo knows about one of its strategies.
#[pyclass(module = "moo", frozen, get_all)]
pub(crate) struct StrategyInfo {
    /// The name `Strategy`, `evaluate` and the CLI take.
    name: &'static str,
    /// One line on how it guesses.
    about: &'static str,
    /// Whether its guess depends only on the position (no randomness, no hidden state).
    deterministic: bool,
    /// How much work a guess takes: `instant`, `lookahead`, `exact` or `blind`.
    cost: String,
}

#[pymethods]
impl StrategyInfo {
    fn __repr__(&self) -> String {
        format!(
            "StrategyInfo(name={}, cost={}, about={})",
            quoted(self.name),
            quoted(&self.cost),
            quoted(self.about)
        )
    }
}

/// Every strategy moo ships, in a stable order.
#[pyfunction]
fn strategies() -> Vec<StrategyInfo> {
    registry::list()
        .map(|i| StrategyInfo {
            name: i.name,
            about: i.about,
            deterministic: i.deterministic,
            cost: serde_json::to_value(i.cost)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
        })
        .collect()
}

/// Which codes may be guessed, from its name.
pub(crate) fn pool_of(name: &str) -> PyResult<GuessPool> {
    named(
        GuessPool::ALL,
        |p| p.name(),
        name,
        "guesses must be \"all\" (any code) or \"consistent\" (only codes that fit every answer so far)",
    )
}

/// The options a strategy is built with.
fn strategy_options(seed: u64, guesses: GuessPool) -> StrategyOptions {
    let mut options = StrategyOptions::default();
    options.seed = seed;
    options.guesses = guesses;
    options
}

/// One of moo's strategies, ready to play a game: ask it for the next guess after a history.
///
/// `Strategy("entropy", "bulls")`; `moo.strategies()` lists the names.
#[pyclass(module = "moo", frozen)]
pub(crate) struct Strategy {
    space: Arc<CodeSpace>,
    strategy: Mutex<Box<dyn strategy::Strategy>>,
}

#[pymethods]
impl Strategy {
    #[new]
    #[pyo3(signature = (name, rules, *, seed = 0, guesses = "all"))]
    fn new(name: &str, rules: &Bound<'_, PyAny>, seed: u64, guesses: &str) -> PyResult<Strategy> {
        let space = space_of(&rules_of(rules)?)?;
        let strategy =
            registry::by_name(name, &space, &strategy_options(seed, pool_of(guesses)?)).raise()?;
        Ok(Strategy {
            space,
            strategy: Mutex::new(strategy),
        })
    }

    /// The strategy's name.
    #[getter]
    fn name(&self) -> String {
        self.lock().name().to_string()
    }

    /// Whether its guess depends only on the position.
    #[getter]
    fn deterministic(&self) -> bool {
        self.lock().is_deterministic()
    }

    /// The guess this strategy plays after `history`, a list of `(guess, answer)` pairs.
    fn next_guess(&self, py: Python<'_>, history: &Bound<'_, PyAny>) -> PyResult<String> {
        let history = history_of(self.space.rules(), history)?;
        let space = &self.space;
        let strategy = &self.strategy;
        let guess = py.detach(|| {
            let candidates = history.candidates(space);
            if history.is_won(space.length()) {
                return Err(crate::errors::StrategyError::new_err(
                    "the game is already won: there is no next guess",
                ));
            }
            if candidates.is_empty() {
                return Err(crate::errors::StrategyError::new_err(
                    moo_core::StrategyError::NoCandidates.to_string(),
                ));
            }
            let knowledge = Knowledge::new(space, &history, &candidates);
            let mut strategy = strategy.lock().unwrap_or_else(|e| e.into_inner());
            strategy.next_guess(&knowledge).raise()
        })?;
        Ok(self.space.rules().format_code(&guess))
    }

    fn __repr__(&self) -> String {
        format!(
            "Strategy({}, {})",
            quoted(&self.name()),
            crate::rules::Rules {
                inner: self.space.rules().clone()
            }
            .__repr__()
        )
    }
}

impl Strategy {
    fn lock(&self) -> std::sync::MutexGuard<'_, Box<dyn strategy::Strategy>> {
        self.strategy.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// How a strategy did against every secret (or a sample of them): the same figures as
/// `moo bench`.
#[pyclass(module = "moo", frozen, get_all)]
pub(crate) struct Evaluation {
    /// The strategy's name.
    strategy: String,
    /// The secrets played.
    secrets: usize,
    /// Games played (secrets times runs).
    games: u64,
    /// Guesses used in the games won.
    total: u64,
    /// Mean guesses of the games won.
    average: f64,
    /// Guesses of the longest game won.
    max: usize,
    /// `histogram[k - 1]` games were won with exactly `k` guesses.
    histogram: Vec<u64>,
    /// Games given up (at the guess cap).
    gave_up: u64,
    /// Wall-clock seconds the evaluation took.
    seconds: f64,
    /// Whether the strategy was evaluated as a tree (deterministic).
    deterministic: bool,
}

#[pymethods]
impl Evaluation {
    fn __repr__(&self) -> String {
        format!(
            "Evaluation(strategy={}, secrets={}, total={}, average={:.4}, max={}, gave_up={})",
            quoted(&self.strategy),
            self.secrets,
            self.total,
            self.average,
            self.max,
            self.gave_up
        )
    }

    fn _repr_html_(&self) -> String {
        let head: String = (1..=self.histogram.len())
            .map(|k| format!("<th>{k}</th>"))
            .collect();
        let row: String = self
            .histogram
            .iter()
            .map(|n| format!("<td>{n}</td>"))
            .collect();
        format!(
            "<b>{}</b>: {} secrets, {} guesses in total, {:.4} on average, at most {}{}<br>\
             <table><tr><th>guesses</th>{head}</tr><tr><th>games</th>{row}</tr></table>",
            html(&self.strategy),
            self.secrets,
            self.total,
            self.average,
            self.max,
            if self.gave_up > 0 {
                format!(", {} given up", self.gave_up)
            } else {
                String::new()
            }
        )
    }
}

/// `text` safe inside HTML.
pub(crate) fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Plays `strategy` (a name from `moo.strategies()`) against every secret of `rules` and
/// returns its figures, as `moo bench` does.
///
/// `sample` plays that many secrets drawn with `seed` instead; `max_guesses` is the guess cap
/// (ten times the codes when `None`); `time_limit` (seconds) stops it with `EvalError`;
/// `progress`, if given, is called about ten times a second with a dict `{"done", "total",
/// "seconds"}`. Ctrl-C stops it and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (rules, strategy, *, seed = 0, guesses = "all", sample = None, max_guesses = None, time_limit = None, progress = None))]
#[allow(clippy::too_many_arguments)]
fn evaluate(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    strategy: &str,
    seed: u64,
    guesses: &str,
    sample: Option<usize>,
    max_guesses: Option<usize>,
    time_limit: Option<f64>,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Evaluation> {
    let space = space_of(&rules_of(rules)?)?;
    let pool = pool_of(guesses)?;
    let limit = long::seconds(time_limit, "time_limit")?;
    let cancel = Arc::new(AtomicBool::new(false));
    let start = Instant::now();
    let mut options = EvalOptions::default();
    options.seed = seed;
    options.sample = sample;
    options.max_guesses = max_guesses;
    options.deadline = limit.map(|l| start + l);
    options.cancel = Some(cancel.clone());
    let total = sample.map_or(space.len(), |s| s.min(space.len()));
    let done = AtomicUsize::new(0);
    let build = |seed: u64| registry::by_name(strategy, &space, &strategy_options(seed, pool));
    let work = || {
        moo_core::evaluate(&space, &build, &options, &|n| {
            done.store(n, Ordering::Relaxed)
        })
    };
    let poll = |py: Python<'_>| match &progress {
        Some(callback) => {
            let report = PyDict::new(py);
            report.set_item("done", done.load(Ordering::Relaxed))?;
            report.set_item("total", total)?;
            report.set_item("seconds", start.elapsed().as_secs_f64())?;
            callback.call1((report,)).map(drop)
        }
        None => Ok(()),
    };
    // A strategy that cannot be built is the caller's naming, not the evaluation's failure.
    let e = long::run(py, &cancel, work, poll)?.map_err(|e| match e {
        moo_core::EvalError::Strategy(e) => crate::errors::StrategyError::new_err(e.to_string()),
        e => crate::errors::EvalError::new_err(e.to_string()),
    })?;
    Ok(Evaluation {
        strategy: e.strategy,
        secrets: e.secrets,
        games: e.histogram.games(),
        total: e.histogram.total(),
        average: e.histogram.average(),
        max: e.histogram.max(),
        histogram: e.histogram.counts().to_vec(),
        gave_up: e.histogram.gave_up(),
        seconds: e.seconds,
        deterministic: e.deterministic,
    })
}
