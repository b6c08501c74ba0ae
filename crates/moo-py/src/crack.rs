//! Long secrets: `moo.Oracle` answers bulls and cows about a secret of hundreds or thousands of
//! symbols and counts the questions; `moo.crack` finds the secret through it.

use std::sync::Mutex;

use moo_crack::{exact, ga, intervals, Alphabet, LongRules};
use pyo3::prelude::*;

use crate::errors::{ArgumentError, Raise};

/// Adds this module's names.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Oracle>()?;
    m.add_function(wrap_pyfunction!(crack, m)?)?;
    m.add("TEXT_SYMBOLS", moo_crack::TEXT_SYMBOLS)?;
    Ok(())
}

/// The only access to a long secret: answers bulls and cows to guesses of its length and
/// counts them. `symbols` is the alphabet (`moo.TEXT_SYMBOLS`: a-z, 0-9 and space, by default);
/// `repeats=False` makes every symbol of the secret distinct.
#[pyclass(module = "moo", frozen)]
pub(crate) struct Oracle {
    rules: LongRules,
    oracle: Mutex<moo_crack::Oracle>,
}

#[pymethods]
impl Oracle {
    #[new]
    #[pyo3(signature = (secret, symbols = moo_crack::TEXT_SYMBOLS, repeats = true))]
    fn new(secret: &str, symbols: &str, repeats: bool) -> PyResult<Oracle> {
        let alphabet = Alphabet::new(symbols).raise()?;
        let rules = LongRules::new(secret.chars().count(), alphabet, repeats).raise()?;
        let code = rules.parse_code(secret).raise()?;
        let oracle = moo_crack::Oracle::new(&code, rules.alphabet().len());
        Ok(Oracle {
            rules,
            oracle: Mutex::new(oracle),
        })
    }

    /// The answer to `guess` as `(bulls, cows)`; counts as one question.
    fn ask(&self, guess: &str) -> PyResult<(u32, u32)> {
        let code = self.rules.parse_code(guess).raise()?;
        let answer = self.lock().ask(code.symbols());
        Ok((answer.bulls, answer.cows))
    }

    /// How many questions have been asked.
    #[getter]
    fn queries(&self) -> u64 {
        self.lock().queries()
    }

    /// The secret's length.
    #[getter]
    fn length(&self) -> usize {
        self.rules.length()
    }

    fn __repr__(&self) -> String {
        format!(
            "Oracle(length={}, symbols={}, queries={})",
            self.rules.length(),
            self.rules.alphabet().len(),
            self.queries()
        )
    }
}

impl Oracle {
    fn lock(&self) -> std::sync::MutexGuard<'_, moo_crack::Oracle> {
        self.oracle.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Finds the secret behind `oracle` and returns it, asking as few questions as it can
/// (`oracle.queries` counts them). `method` is `"intervals"` (the default and the fewest
/// questions), `"exact"` (the earlier adaptive cracker; both always find the secret) or `"ga"`
/// (the published genetic baseline, which may not).
#[pyfunction]
#[pyo3(signature = (oracle, *, method = "intervals", seed = 0))]
fn crack(py: Python<'_>, oracle: &Oracle, method: &str, seed: u64) -> PyResult<String> {
    let rules = &oracle.rules;
    let mut inner = oracle.lock();
    let inner = &mut *inner;
    let found = match method {
        "intervals" => {
            py.detach(|| intervals::crack(rules, inner, &intervals::IntervalOptions::default()))
        }
        "exact" => py.detach(|| exact::crack(rules, inner)),
        "ga" => py.detach(|| {
            let mut options = ga::GaOptions::default();
            options.seed = seed;
            ga::crowd(rules, inner, &options).answer
        }),
        other => {
            return Err(ArgumentError::new_err(format!(
                "method must be \"intervals\", \"exact\" or \"ga\", not {other:?}"
            )))
        }
    };
    Ok(rules.format_code(&found))
}
