//! One exception per library error type, all under `MooError`, each raised with the library's
//! own message (which says what was wrong and how to fix it).

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;

create_exception!(
    moo,
    MooError,
    PyException,
    "The base of every error moo raises: catch it to catch them all. The message says what was wrong and how to fix it."
);
create_exception!(
    moo,
    RulesError,
    MooError,
    "Rules that describe no game (an empty alphabet, too few symbols for distinct codes, ...)."
);
create_exception!(moo, CodeError, MooError, "A code that the rules do not allow (wrong length, unknown symbol, a repeat where symbols are distinct, ...).");
create_exception!(moo, FeedbackError, MooError, "An answer that cannot be given (more bulls and cows than symbols, text that is no answer, ...).");
create_exception!(
    moo,
    SpaceError,
    MooError,
    "A game with too many codes to list."
);
create_exception!(
    moo,
    StrategyError,
    MooError,
    "An unknown strategy, or one that cannot play these rules."
);
create_exception!(
    moo,
    EvalError,
    MooError,
    "An evaluation that could not finish (time limit, a guess cap, an illegal guess)."
);
create_exception!(
    moo,
    AdviceError,
    MooError,
    "A position the advisor cannot advise on (the game is won, or the time ran out)."
);
create_exception!(
    moo,
    ReviewError,
    MooError,
    "A game that cannot be reviewed (moves after the win, or the time ran out)."
);
create_exception!(
    moo,
    TreeError,
    MooError,
    "A decision tree file that is malformed or does not solve every secret."
);
create_exception!(
    moo,
    SearchError,
    MooError,
    "An optimal-tree search that could not finish (time limit, a game too large)."
);
create_exception!(
    moo,
    CrackError,
    MooError,
    "Long-code rules or a long code that cannot be used."
);
create_exception!(moo, ArgumentError, MooError, "An argument moo cannot use: a value out of range, an unknown option name, a history that is not a list of (guess, answer) pairs.");

/// Adds the exception types to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("MooError", py.get_type::<MooError>())?;
    m.add("RulesError", py.get_type::<RulesError>())?;
    m.add("CodeError", py.get_type::<CodeError>())?;
    m.add("FeedbackError", py.get_type::<FeedbackError>())?;
    m.add("SpaceError", py.get_type::<SpaceError>())?;
    m.add("StrategyError", py.get_type::<StrategyError>())?;
    m.add("EvalError", py.get_type::<EvalError>())?;
    m.add("AdviceError", py.get_type::<AdviceError>())?;
    m.add("ReviewError", py.get_type::<ReviewError>())?;
    m.add("TreeError", py.get_type::<TreeError>())?;
    m.add("SearchError", py.get_type::<SearchError>())?;
    m.add("CrackError", py.get_type::<CrackError>())?;
    m.add("ArgumentError", py.get_type::<ArgumentError>())?;
    Ok(())
}

/// Turns a library result into a Python one, raising the exception of the error's type.
pub(crate) trait Raise<T> {
    /// The value, or the library error as its Python exception.
    fn raise(self) -> PyResult<T>;
}

macro_rules! raises {
    ($($error:ty => $exception:ident),* $(,)?) => {
        $(impl<T> Raise<T> for Result<T, $error> {
            fn raise(self) -> PyResult<T> {
                self.map_err(|e| $exception::new_err(e.to_string()))
            }
        })*
    };
}

raises!(
    moo_core::RulesError => RulesError,
    moo_core::CodeError => CodeError,
    moo_core::FeedbackError => FeedbackError,
    moo_core::SpaceError => SpaceError,
    moo_core::StrategyError => StrategyError,
    moo_core::EvalError => EvalError,
    moo_core::AdviceError => AdviceError,
    moo_core::ReviewError => ReviewError,
    moo_core::TreeError => TreeError,
    moo_core::tree::SearchError => SearchError,
    moo_crack::CrackError => CrackError,
);

/// `text` as Python writes a string's repr, for the objects' own reprs.
pub(crate) fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}
