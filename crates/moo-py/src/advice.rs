//! The advisor and the review: `moo.Advisor`, `moo.hint`, `moo.review`.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use moo_core::advisor::Method;
use moo_core::{AdviceOptions, Chooser, ReviewOptions, Stop};
use pyo3::prelude::*;

use crate::errors::{quoted, Raise};
use crate::history::history_of;
use crate::long;
use crate::play::{html, pool_of};
use crate::rules::{rules_of, space_of};

register!(
    classes: [Advisor, Hint, Advice, Review, MoveReview],
    functions: [hint, review],
);

/// How long advice may take when the caller names no limit: the CLI's and the server's default.
const DEFAULT_TIME_LIMIT: f64 = 2.0;

/// The advisor behind `moo.hint` and `moo.review`, whose proven moves every call reuses.
fn shared() -> &'static moo_core::Advisor {
    static ADVISOR: OnceLock<moo_core::Advisor> = OnceLock::new();
    ADVISOR.get_or_init(moo_core::Advisor::new)
}

/// A stop at `limit` from now (never, without one) that `cancel` also trips.
fn stop(limit: Option<Duration>, cancel: &Arc<AtomicBool>) -> Stop {
    limit
        .map_or_else(Stop::never, Stop::after)
        .with_flag(cancel.clone())
}

/// Picks the next guess of a game: an optimal move, proven, where the search fits the time
/// limit, else the best the heuristics find. Keeps a cache of the moves it has proven, shared
/// by its copies; `moo.hint` uses one for the whole process.
#[pyclass(module = "moo", frozen)]
pub(crate) struct Advisor {
    inner: moo_core::Advisor,
}

#[pymethods]
impl Advisor {
    #[new]
    fn new() -> Advisor {
        Advisor {
            inner: moo_core::Advisor::new(),
        }
    }

    /// The position after `history` and the best next guess; see `moo.hint`.
    #[pyo3(signature = (rules, history = None, *, time_limit = Some(DEFAULT_TIME_LIMIT), strategy = None, guesses = "all", seed = 0, list = 20))]
    #[allow(clippy::too_many_arguments)]
    fn hint(
        &self,
        py: Python<'_>,
        rules: &Bound<'_, PyAny>,
        history: Option<&Bound<'_, PyAny>>,
        time_limit: Option<f64>,
        strategy: Option<String>,
        guesses: &str,
        seed: u64,
        list: usize,
    ) -> PyResult<Hint> {
        let space = space_of(&rules_of(rules)?)?;
        let history = match history {
            Some(h) => history_of(space.rules(), h)?,
            None => moo_core::History::new(),
        };
        let mut options = AdviceOptions::default();
        options.strategy = strategy;
        options.guesses = pool_of(guesses)?;
        options.seed = seed;
        let limit = long::seconds(time_limit, "time_limit")?;
        let cancel = Arc::new(AtomicBool::new(false));
        let stop = stop(limit, &cancel);
        let advisor = &self.inner;
        let work = || advisor.position(&space, &history, list, Chooser::Advisor(&options, &stop));
        let position = long::run(py, &cancel, work, |_| Ok(()))?.raise()?;
        Hint::new(py, position)
    }

    fn __repr__(&self) -> &'static str {
        "Advisor()"
    }
}

/// The position after `history` under `rules`, and the best next guess.
///
/// `time_limit` (seconds, `None` for none) bounds the search for a proof; a move found in time
/// is `proven_optimal`. `strategy` names a strategy to pick the guess instead of the advisor;
/// `guesses="consistent"` allows only codes that fit every answer (hard mode); `list` is how
/// many of the codes left to list. Ctrl-C stops it and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (rules, history = None, *, time_limit = Some(DEFAULT_TIME_LIMIT), strategy = None, guesses = "all", seed = 0, list = 20))]
#[allow(clippy::too_many_arguments)]
fn hint(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    history: Option<&Bound<'_, PyAny>>,
    time_limit: Option<f64>,
    strategy: Option<String>,
    guesses: &str,
    seed: u64,
    list: usize,
) -> PyResult<Hint> {
    let advisor = Advisor {
        inner: shared().clone(),
    };
    advisor.hint(
        py, rules, history, time_limit, strategy, guesses, seed, list,
    )
}

/// A position: the codes left after a history and, unless the game is over or the answers
/// contradict each other, the advice for the next guess.
#[pyclass(module = "moo", frozen, get_all)]
pub(crate) struct Hint {
    /// How many codes are still possible.
    remaining: usize,
    /// The first of them, in order (as many as asked for).
    candidates: Vec<String>,
    /// Whether the last answer was a win.
    won: bool,
    /// The next guess, unless the game is won or the answers contradict each other.
    advice: Option<Py<Advice>>,
    /// When no code fits every answer: which answers could be wrong, for people.
    contradiction: Option<String>,
}

impl Hint {
    fn new(py: Python<'_>, p: moo_core::Position) -> PyResult<Hint> {
        Ok(Hint {
            remaining: p.remaining,
            candidates: p.candidates,
            won: p.won,
            advice: p.advice.map(|a| Py::new(py, Advice::from(a))).transpose()?,
            contradiction: p.contradiction.map(|c| c.message),
        })
    }
}

#[pymethods]
impl Hint {
    fn __repr__(&self) -> String {
        let next = match (&self.advice, &self.contradiction) {
            (Some(a), _) => format!("advice={}", a.get().__repr__()),
            (None, Some(_)) => "contradiction=...".to_string(),
            (None, None) => format!("won={}", if self.won { "True" } else { "False" }),
        };
        format!("Hint(remaining={}, {next})", self.remaining)
    }
}

/// The next guess for a position and how it was chosen.
#[pyclass(module = "moo", frozen, get_all)]
pub(crate) struct Advice {
    /// The guess.
    guess: String,
    /// How it was chosen: `endgame`, `tree`, `cached`, `exact`, `heuristic` or `strategy`.
    method: String,
    /// The strategy that chose it (`optimal` for proven moves).
    strategy: String,
    /// Whether the guess is proven to need the fewest guesses on average from here.
    proven_optimal: bool,
    /// Codes still possible.
    remaining: usize,
    /// With a proven move: the guesses solving every code left takes in total, this one and the
    /// winning guess included.
    total_guesses: Option<u64>,
    /// How many different answers the guess can get.
    parts: usize,
    /// Codes left after the guess in the worst case.
    largest: usize,
    /// Codes left after the guess on average.
    expected_size: f64,
    /// The information the answer carries, in bits.
    entropy_bits: f64,
    /// Whether the guess may be the secret.
    is_candidate: bool,
    /// Why the move is not proven optimal, when it is not.
    note: Option<String>,
    /// One sentence for people.
    explanation: String,
    /// Seconds taken.
    seconds: f64,
}

impl From<moo_core::Advice> for Advice {
    fn from(a: moo_core::Advice) -> Advice {
        Advice {
            guess: a.guess,
            method: method_name(a.method),
            strategy: a.strategy,
            proven_optimal: a.proven_optimal,
            remaining: a.remaining,
            total_guesses: a.total_guesses,
            parts: a.partition.parts,
            largest: a.partition.largest,
            expected_size: a.partition.expected_size,
            entropy_bits: a.partition.entropy_bits,
            is_candidate: a.partition.is_candidate,
            note: a.note.map(|n| n.to_string()),
            explanation: a.explanation,
            seconds: a.seconds,
        }
    }
}

/// The name a method has in JSON.
fn method_name(method: Method) -> String {
    serde_json::to_value(method)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default()
}

#[pymethods]
impl Advice {
    fn __repr__(&self) -> String {
        let proof = match self.total_guesses {
            Some(total) => format!("proven_optimal=True, total_guesses={total}"),
            None => "proven_optimal=False".to_string(),
        };
        format!(
            "Advice(guess={}, method={}, {proof})",
            quoted(&self.guess),
            quoted(&self.method)
        )
    }

    fn __str__(&self) -> String {
        self.explanation.clone()
    }
}

/// Reviews every move of a finished (or unfinished) game: what each cost in guesses on
/// average against the best move, proven where the search fits `move_time` seconds per move,
/// estimated (and marked so) where it does not. `time_limit` bounds the whole review.
/// Ctrl-C stops it and raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (rules, history, *, move_time = Some(2.0), time_limit = None, guesses = "all", seed = 0))]
fn review(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    history: &Bound<'_, PyAny>,
    move_time: Option<f64>,
    time_limit: Option<f64>,
    guesses: &str,
    seed: u64,
) -> PyResult<Review> {
    let space = space_of(&rules_of(rules)?)?;
    let history = history_of(space.rules(), history)?;
    let mut options = ReviewOptions::default()
        .with_move_time(long::seconds(move_time, "move_time")?)
        .with_guesses(pool_of(guesses)?);
    options.seed = seed;
    let cancel = Arc::new(AtomicBool::new(false));
    let stop = stop(long::seconds(time_limit, "time_limit")?, &cancel);
    let advisor = shared();
    let work = || moo_core::review(advisor, &space, &history, &options, &stop);
    let review = long::run(py, &cancel, work, |_| Ok(()))?.raise()?;
    Review::new(py, review)
}

/// The review of one move.
#[pyclass(module = "moo", frozen, get_all)]
pub(crate) struct MoveReview {
    /// The turn, counted from 1.
    turn: usize,
    /// The guess played.
    guess: String,
    /// Its answer, as `1B2C`.
    feedback: String,
    /// Codes possible before the guess.
    before: usize,
    /// Codes possible after its answer.
    after: usize,
    /// The best guess here (one of them, when several are as good).
    best_guess: String,
    /// Guesses still needed after the guess played, on average, when every later move is
    /// optimal.
    expected_after_guess: f64,
    /// The same after the best guess.
    expected_after_best: f64,
    /// What the move cost, in guesses on average: `expected_after_guess - expected_after_best`.
    cost: f64,
    /// Whether the cost is proven rather than estimated.
    proven: bool,
    /// Whether the guess played is as good as the best one.
    is_best: bool,
    /// The cost in one word: best, excellent, good, inaccuracy, mistake or blunder (the
    /// thresholds are in the book's review chapter).
    verdict: String,
    /// Whether the verdict comes from an estimated cost.
    verdict_estimated: bool,
    /// Whether the guess could have been the secret.
    could_be_secret: bool,
    /// The earlier turn that played the same guess, if any.
    repeats_turn: Option<usize>,
    /// Codes the answer left, against `expected_left` on average for this guess: luck, kept
    /// apart from the cost.
    left: usize,
    /// Codes the guess leaves on average.
    expected_left: f64,
    /// Why the figures are estimates, when they are.
    note: Option<String>,
}

#[pymethods]
impl MoveReview {
    fn __repr__(&self) -> String {
        format!(
            "MoveReview(turn={}, guess={}, feedback={}, cost={:.3}, best_guess={}, proven={})",
            self.turn,
            quoted(&self.guess),
            quoted(&self.feedback),
            self.cost,
            quoted(&self.best_guess),
            if self.proven { "True" } else { "False" }
        )
    }
}

/// The review of a whole game.
#[pyclass(module = "moo", frozen, get_all)]
pub(crate) struct Review {
    /// Every move, in order (none when the answers contradict each other).
    moves: Vec<Py<MoveReview>>,
    /// Whether the last move won.
    won: bool,
    /// Guesses played.
    guesses_played: usize,
    /// Guesses lost against optimal play, on average: the moves' costs added up.
    total_cost: f64,
    /// The guesses optimal play needs on average from the start.
    optimal_expected: Option<f64>,
    /// Whether every move's figures are proven.
    proven: bool,
    /// When no code fits every answer: which answers could be wrong.
    contradiction: Option<String>,
    /// One sentence for people.
    summary: String,
    /// Seconds the review took.
    seconds: f64,
}

impl Review {
    fn new(py: Python<'_>, r: moo_core::GameReview) -> PyResult<Review> {
        let moves = r
            .moves
            .into_iter()
            .map(|m| {
                Py::new(
                    py,
                    MoveReview {
                        turn: m.turn,
                        guess: m.played.guess,
                        feedback: m.played.feedback,
                        before: m.before,
                        after: m.after,
                        best_guess: m.best_guess,
                        expected_after_guess: m.expected_after_guess,
                        expected_after_best: m.expected_after_best,
                        cost: m.cost,
                        proven: m.proven,
                        is_best: m.is_best,
                        verdict: m.verdict.to_string(),
                        verdict_estimated: m.verdict_estimated,
                        could_be_secret: m.could_be_secret,
                        repeats_turn: m.repeats_turn,
                        left: m.luck.left,
                        expected_left: m.luck.expected_left,
                        note: m.note,
                    },
                )
            })
            .collect::<PyResult<_>>()?;
        Ok(Review {
            moves,
            won: r.won,
            guesses_played: r.guesses_played,
            total_cost: r.total_cost,
            optimal_expected: r.optimal_expected,
            proven: r.proven,
            contradiction: r.contradiction.map(|c| c.message),
            summary: r.summary,
            seconds: r.seconds,
        })
    }
}

#[pymethods]
impl Review {
    fn __repr__(&self) -> String {
        format!(
            "Review(guesses_played={}, won={}, total_cost={:.3}, proven={})",
            self.guesses_played,
            if self.won { "True" } else { "False" },
            self.total_cost,
            if self.proven { "True" } else { "False" }
        )
    }

    fn __str__(&self) -> String {
        self.summary.clone()
    }

    fn _repr_html_(&self, py: Python<'_>) -> String {
        let rows: String = self
            .moves
            .iter()
            .map(|m| {
                let m = m.bind(py).get();
                format!(
                    "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} → {}</td><td>{}</td><td>{:.3}{}</td></tr>",
                    m.turn,
                    html(&m.guess),
                    html(&m.feedback),
                    m.before,
                    m.after,
                    html(&m.best_guess),
                    m.cost,
                    if m.proven { "" } else { " (estimated)" }
                )
            })
            .collect();
        format!(
            "{}<table><tr><th>turn</th><th>guess</th><th>answer</th><th>codes left</th>\
             <th>best guess</th><th>cost</th></tr>{rows}</table>",
            html(&self.summary)
        )
    }
}
