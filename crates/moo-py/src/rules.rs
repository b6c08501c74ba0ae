//! Rules, answers and code spaces: `moo.Rules`, `moo.Feedback`, `moo.CodeSpace`, `moo.presets`.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

use moo_core::{Preset, Rules as CoreRules};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use rand::SeedableRng;

use crate::errors::{quoted, ArgumentError, CodeError, Raise, RulesError};
use crate::history::history_of;

register!(
    classes: [Rules, Feedback, CodeSpace],
    functions: [presets, score, candidates],
);

/// The rules of one game of the family: code length, alphabet, whether symbols may repeat, and
/// whether the first symbol is forbidden in the first place.
///
/// `Rules(4, "0123456789")` is Bulls and Cows; `Rules(4, "123456", repeats=True)` is Mastermind.
/// `Rules.preset("bulls")` and `Rules.preset("mastermind")` name them. Wherever moo takes rules
/// it also takes a preset's name.
#[pyclass(module = "moo", frozen, eq, hash, from_py_object)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct Rules {
    pub(crate) inner: CoreRules,
}

#[pymethods]
impl Rules {
    #[new]
    #[pyo3(signature = (length, symbols, repeats = false, no_leading = false))]
    fn new(length: usize, symbols: &str, repeats: bool, no_leading: bool) -> PyResult<Rules> {
        let inner = CoreRules::new(length, symbols, repeats, no_leading).raise()?;
        Ok(Rules { inner })
    }

    /// The rules of a preset: `"bulls"` (4 distinct digits 0-9, 5040 codes) or `"mastermind"`
    /// (4 pegs of 6 colours written 1-6, repeats allowed, 1296 codes).
    #[staticmethod]
    fn preset(name: &str) -> PyResult<Rules> {
        preset_rules(name).map(|inner| Rules { inner })
    }

    /// How many symbols a code has.
    #[getter]
    fn length(&self) -> usize {
        self.inner.length()
    }

    /// The alphabet, in order.
    #[getter]
    fn symbols(&self) -> String {
        self.inner.symbols()
    }

    /// Whether a code may repeat a symbol (Mastermind) or not (Bulls and Cows).
    #[getter]
    fn repeats(&self) -> bool {
        self.inner.repeats()
    }

    /// Whether the first symbol of the alphabet is forbidden in the first place.
    #[getter]
    fn no_leading(&self) -> bool {
        self.inner.no_leading()
    }

    /// How many codes the rules allow.
    #[getter]
    fn size(&self) -> u128 {
        self.inner.space_size()
    }

    /// How many distinct answers there are: the size of the score tables' value range
    /// (`Feedback.index` is below it).
    #[getter]
    fn feedback_slots(&self) -> usize {
        self.inner.feedback_slots()
    }

    /// The answer to `guess` when the secret is `secret`.
    fn score(&self, guess: &str, secret: &str) -> PyResult<Feedback> {
        let guess = self.inner.parse_code(guess).raise()?;
        let secret = self.inner.parse_code(secret).raise()?;
        Ok(Feedback::from(guess.score(&secret)))
    }

    /// Whether `code` is a code of these rules; `check` raises `CodeError` saying why not.
    fn is_code(&self, code: &str) -> bool {
        self.inner.parse_code(code).is_ok()
    }

    /// Raises `CodeError` with the reason when `code` is not a code of these rules.
    fn check(&self, code: &str) -> PyResult<()> {
        self.inner.parse_code(code).raise().map(drop)
    }

    /// A code drawn uniformly at random, the same for the same `seed`.
    #[pyo3(signature = (seed = None))]
    fn random_code(&self, seed: Option<u64>) -> String {
        let mut rng = match seed {
            Some(seed) => rand_chacha::ChaCha8Rng::seed_from_u64(seed),
            None => rand_chacha::ChaCha8Rng::from_entropy(),
        };
        self.inner.format_code(&self.inner.random_code(&mut rng))
    }

    /// The code space of these rules: every code, with a score table when it fits.
    fn space(&self) -> PyResult<CodeSpace> {
        Ok(CodeSpace {
            inner: space_of(&self.inner)?,
        })
    }

    pub(crate) fn __repr__(&self) -> String {
        let r = &self.inner;
        let python = |b: bool| if b { "True" } else { "False" };
        format!(
            "Rules(length={}, symbols={}, repeats={}, no_leading={})",
            r.length(),
            quoted(&r.symbols()),
            python(r.repeats()),
            python(r.no_leading())
        )
    }

    fn __str__(&self) -> String {
        self.inner.describe()
    }
}

/// The rules a preset names, or `RulesError` listing the presets.
fn preset_rules(name: &str) -> PyResult<CoreRules> {
    Preset::ALL
        .iter()
        .find(|p| p.name() == name)
        .map(|p| p.rules())
        .ok_or_else(|| {
            RulesError::new_err(format!(
                "unknown preset {name:?}: choose one of {}",
                preset_names().join(", ")
            ))
        })
}

fn preset_names() -> Vec<&'static str> {
    Preset::ALL.iter().map(|p| p.name()).collect()
}

/// Rules given as a `Rules` or as a preset's name.
pub(crate) fn rules_of(rules: &Bound<'_, PyAny>) -> PyResult<CoreRules> {
    if let Ok(r) = rules.cast::<Rules>() {
        return Ok(r.get().inner.clone());
    }
    if let Ok(name) = rules.extract::<String>() {
        return preset_rules(&name);
    }
    Err(ArgumentError::new_err(format!(
        "rules must be a moo.Rules or a preset's name ({}), not {}",
        preset_names().join(", "),
        rules.get_type().name()?
    )))
}

/// The most code spaces kept for reuse: a Bulls and Cows space with its score table is 25 MB.
const KEPT_SPACES: usize = 4;

/// The spaces built lately, most recent last: notebooks call function after function on the
/// same rules, and each would otherwise rebuild the score table.
static SPACES: Mutex<VecDeque<Arc<moo_core::CodeSpace>>> = Mutex::new(VecDeque::new());

/// The code space of `rules`, built once and shared while it is among the last few used.
pub(crate) fn space_of(rules: &CoreRules) -> PyResult<Arc<moo_core::CodeSpace>> {
    let mut kept = SPACES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(i) = kept.iter().position(|s| s.rules() == rules) {
        let space = kept.remove(i).expect("found above");
        kept.push_back(space.clone());
        return Ok(space);
    }
    let space = Arc::new(moo_core::CodeSpace::new(rules.clone()).raise()?);
    if kept.len() == KEPT_SPACES {
        kept.pop_front();
    }
    kept.push_back(space.clone());
    Ok(space)
}

/// An answer: how many symbols of the guess are in the right place (bulls, black pegs) and how
/// many are in the secret elsewhere (cows, white pegs).
///
/// Printed as `1B2C`. Wherever moo takes an answer it also takes that text, a bare `12`, or a
/// `(bulls, cows)` tuple.
#[pyclass(module = "moo", frozen, eq, hash, ord, from_py_object)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Feedback {
    pub(crate) inner: moo_core::Feedback,
}

impl From<moo_core::Feedback> for Feedback {
    fn from(inner: moo_core::Feedback) -> Feedback {
        Feedback { inner }
    }
}

#[pymethods]
impl Feedback {
    #[new]
    fn new(bulls: u8, cows: u8) -> Feedback {
        Feedback::from(moo_core::Feedback::new(bulls, cows))
    }

    /// Reads an answer for codes of `length` symbols: `1B2C`, `1b2c`, `12` or `1 2`.
    #[staticmethod]
    fn parse(text: &str, length: usize) -> PyResult<Feedback> {
        moo_core::Feedback::parse(text, length)
            .raise()
            .map(Feedback::from)
    }

    /// The answer at a score table's index for codes of `length` symbols.
    #[staticmethod]
    fn from_index(index: usize, length: usize) -> Feedback {
        Feedback::from(moo_core::Feedback::from_index(index, length))
    }

    /// Symbols in the right place.
    #[getter]
    fn bulls(&self) -> u8 {
        self.inner.bulls
    }

    /// Symbols in the secret, elsewhere.
    #[getter]
    fn cows(&self) -> u8 {
        self.inner.cows
    }

    /// The index of this answer in score tables: `bulls * (length + 1) + cows`.
    fn index(&self, length: usize) -> usize {
        self.inner.index(length)
    }

    /// Whether this answer ends a game of codes of `length` symbols.
    fn is_win(&self, length: usize) -> bool {
        self.inner.is_win(length)
    }

    fn __repr__(&self) -> String {
        format!(
            "Feedback(bulls={}, cows={})",
            self.inner.bulls, self.inner.cows
        )
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let pair = (self.inner.bulls, self.inner.cows).into_pyobject(py)?;
        Ok(pair.try_iter()?.into_any().unbind())
    }
}

/// Every code of a game, numbered in alphabet order, with a score table when it fits: what
/// vectorised scoring and candidate filtering work on.
#[pyclass(module = "moo", frozen)]
pub(crate) struct CodeSpace {
    pub(crate) inner: Arc<moo_core::CodeSpace>,
}

#[pymethods]
impl CodeSpace {
    /// The space of `rules` (a `Rules` or a preset's name).
    #[new]
    fn new(rules: &Bound<'_, PyAny>) -> PyResult<CodeSpace> {
        let rules = rules_of(rules)?;
        Ok(CodeSpace {
            inner: space_of(&rules)?,
        })
    }

    /// The rules.
    #[getter]
    fn rules(&self) -> Rules {
        Rules {
            inner: self.inner.rules().clone(),
        }
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Every code, in index order.
    fn codes(&self) -> Vec<String> {
        let rules = self.inner.rules();
        self.inner
            .codes()
            .iter()
            .map(|c| rules.format_code(c))
            .collect()
    }

    /// The code at `index`.
    fn code(&self, index: usize) -> PyResult<String> {
        if index >= self.inner.len() {
            return Err(CodeError::new_err(format!(
                "code index {index} is out of range: the space has {} codes",
                self.inner.len()
            )));
        }
        Ok(self.inner.rules().format_code(&self.inner.code(index)))
    }

    /// The index of `code`.
    fn index(&self, code: &str) -> PyResult<usize> {
        index_of(&self.inner, code)
    }

    /// The score table of `guesses` against `secrets` (each `None` for every code, a list of
    /// codes, or a list or array of indexes) as a `numpy.uint8` array of shape
    /// `(len(guesses), len(secrets))`, each entry the answer's index (`Feedback.from_index`
    /// reads it; `bulls = entry // (length + 1)`, `cows = entry % (length + 1)`).
    #[pyo3(signature = (guesses = None, secrets = None))]
    fn scores<'py>(
        &self,
        py: Python<'py>,
        guesses: Option<&Bound<'py, PyAny>>,
        secrets: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let guesses = indexes_of(&self.inner, guesses)?;
        let secrets = indexes_of(&self.inner, secrets)?;
        let space = &self.inner;
        let table = py.detach(|| score_table(space, &guesses, &secrets));
        let array = PyArray1::from_vec(py, table);
        Ok(array.reshape([guesses.len(), secrets.len()])?.into_any())
    }

    /// The codes still possible after `history` (pairs of a guess and its answer), in order.
    fn candidates(&self, py: Python<'_>, history: &Bound<'_, PyAny>) -> PyResult<Vec<String>> {
        let history = history_of(self.inner.rules(), history)?;
        let space = &self.inner;
        let set = py.detach(|| history.candidates(space));
        let rules = space.rules();
        Ok(set
            .iter()
            .map(|i| rules.format_code(&space.code(i)))
            .collect())
    }

    fn __repr__(&self) -> String {
        format!(
            "CodeSpace({}, {} codes)",
            Rules {
                inner: self.inner.rules().clone()
            }
            .__repr__(),
            self.inner.len()
        )
    }
}

/// The table [`CodeSpace::scores`] returns.
fn score_table(space: &moo_core::CodeSpace, guesses: &[u32], secrets: &[u32]) -> Vec<u8> {
    let mut table = vec![0u8; guesses.len() * secrets.len()];
    space.score_table(guesses, secrets, &mut table);
    table
}

/// The index of `code` in `space`, or `CodeError` saying why it is not one of its codes.
pub(crate) fn index_of(space: &moo_core::CodeSpace, code: &str) -> PyResult<usize> {
    let parsed = space.rules().parse_code(code).raise()?;
    space
        .index_of(&parsed)
        .ok_or_else(|| CodeError::new_err(format!("{code:?} is not a code of this space")))
}

/// Codes given as `None` (all of them), codes as text, or indexes.
fn indexes_of(space: &moo_core::CodeSpace, codes: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<u32>> {
    let Some(codes) = codes.filter(|c| !c.is_none()) else {
        return Ok((0..space.len() as u32).collect());
    };
    if codes.is_instance_of::<pyo3::types::PyString>() {
        return Err(ArgumentError::new_err(
            "give a list of codes, not one string: for example [\"1234\"]",
        ));
    }
    let mut out = Vec::new();
    for item in codes.try_iter()? {
        let item = item?;
        if let Ok(text) = item.extract::<String>() {
            out.push(index_of(space, &text)? as u32);
        } else if let Ok(index) = item.extract::<i64>() {
            if index < 0 || index as u64 >= space.len() as u64 {
                return Err(CodeError::new_err(format!(
                    "code index {index} is out of range: the space has {} codes (0 to {})",
                    space.len(),
                    space.len() - 1
                )));
            }
            out.push(index as u32);
        } else {
            return Err(ArgumentError::new_err(format!(
                "codes must be text or indexes, not {}",
                item.get_type().name()?
            )));
        }
    }
    Ok(out)
}

/// The names of the preset games, for `Rules.preset`.
#[pyfunction]
fn presets() -> Vec<&'static str> {
    preset_names()
}

/// The answer to `guess` when the secret is `secret`, under `rules` (a `Rules` or a preset's
/// name; Bulls and Cows when not given).
#[pyfunction]
#[pyo3(signature = (guess, secret, rules = None))]
fn score(guess: &str, secret: &str, rules: Option<&Bound<'_, PyAny>>) -> PyResult<Feedback> {
    let rules = match rules {
        Some(r) => rules_of(r)?,
        None => CoreRules::bulls(),
    };
    Rules { inner: rules }.score(guess, secret)
}

/// The codes still possible under `rules` after `history`, a list of `(guess, answer)` pairs
/// whose answers are `Feedback`s, text such as `"1B2C"` or `(bulls, cows)` tuples.
#[pyfunction]
fn candidates(
    py: Python<'_>,
    rules: &Bound<'_, PyAny>,
    history: &Bound<'_, PyAny>,
) -> PyResult<Vec<String>> {
    let space = CodeSpace {
        inner: space_of(&rules_of(rules)?)?,
    };
    space.candidates(py, history)
}
