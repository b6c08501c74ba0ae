//! Histories as Python gives them: sequences of `(guess, answer)` pairs.

use moo_core::{History, Rules};
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::errors::{ArgumentError, Raise};
use crate::rules::Feedback;

/// An answer given as a `Feedback`, text (`"1B2C"`, `"12"`) or a `(bulls, cows)` pair, checked
/// against codes of `length` symbols.
pub(crate) fn feedback_of(
    answer: &Bound<'_, PyAny>,
    length: usize,
) -> PyResult<moo_core::Feedback> {
    let feedback = if let Ok(f) = answer.cast::<Feedback>() {
        f.get().inner
    } else if let Ok(text) = answer.extract::<String>() {
        return moo_core::Feedback::parse(&text, length).raise();
    } else if let Ok((bulls, cows)) = answer.extract::<(u8, u8)>() {
        moo_core::Feedback::new(bulls, cows)
    } else {
        return Err(ArgumentError::new_err(format!(
            "an answer is a moo.Feedback, text such as \"1B2C\", or a (bulls, cows) pair, not {}",
            answer.repr()?
        )));
    };
    feedback.check(length).raise()
}

/// A history given as a sequence of `(guess, answer)` pairs, each guess a code of `rules`.
pub(crate) fn history_of(rules: &Rules, turns: &Bound<'_, PyAny>) -> PyResult<History> {
    if turns.is_instance_of::<PyString>() {
        return Err(ArgumentError::new_err(
            "a history is a list of (guess, answer) pairs, for example [(\"1234\", \"1B2C\")]",
        ));
    }
    let mut history = History::new();
    for (i, turn) in turns.try_iter()?.enumerate() {
        let turn = turn?;
        let pair = turn
            .extract::<(Bound<'_, PyAny>, Bound<'_, PyAny>)>()
            .map_err(|_| {
                ArgumentError::new_err(format!(
                    "turn {}: expected a (guess, answer) pair such as (\"1234\", \"1B2C\"), not {}",
                    i + 1,
                    turn.repr().map(|r| r.to_string()).unwrap_or_default()
                ))
            })?;
        let context = |e: PyErr| {
            let py = turns.py();
            let message = format!("turn {}: {}", i + 1, e.value(py));
            PyErr::from_type(e.get_type(py), message)
        };
        let guess: String = pair.0.extract().map_err(|_| {
            ArgumentError::new_err(format!("turn {}: a guess is text such as \"1234\"", i + 1))
        })?;
        let code = rules.parse_code(&guess).raise().map_err(context)?;
        let feedback = feedback_of(&pair.1, rules.length()).map_err(context)?;
        history.push(code, feedback);
    }
    Ok(history)
}
