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

/// Creates each exception under `MooError` and the `register` function that adds them and
/// `MooError` to the module, so that the list of exceptions is written once.
macro_rules! exceptions {
    ($($name:ident: $doc:literal,)*) => {
        $(create_exception!(moo, $name, MooError, $doc);)*

        /// Adds the exception types to the module.
        pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            let py = m.py();
            m.add("MooError", py.get_type::<MooError>())?;
            $(m.add(stringify!($name), py.get_type::<$name>())?;)*
            Ok(())
        }
    };
}

exceptions! {
    RulesError: "Rules that describe no game (an empty alphabet, too few symbols for distinct codes, ...).",
    CodeError: "A code that the rules do not allow (wrong length, unknown symbol, a repeat where symbols are distinct, ...).",
    FeedbackError: "An answer that cannot be given (more bulls and cows than symbols, text that is no answer, ...).",
    SpaceError: "A game with too many codes to list.",
    StrategyError: "An unknown strategy, or one that cannot play these rules.",
    EvalError: "An evaluation that could not finish (time limit, a guess cap, an illegal guess).",
    AdviceError: "A position the advisor cannot advise on (the game is won, or the time ran out).",
    ReviewError: "A game that cannot be reviewed (moves after the win, or the time ran out).",
    TreeError: "A decision tree file that is malformed or does not solve every secret.",
    SearchError: "An optimal-tree search that could not finish (time limit, a game too large).",
    CrackError: "Long-code rules or a long code that cannot be used.",
    ArgumentError: "An argument moo cannot use: a value out of range, an unknown option name, a history that is not a list of (guess, answer) pairs.",
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

/// The one of `all` whose name is `name`, or an `ArgumentError` that says `expected` (the names
/// there are) and what was given instead.
pub(crate) fn named<T>(
    all: impl IntoIterator<Item = T>,
    name_of: impl Fn(&T) -> &'static str,
    name: &str,
    expected: &str,
) -> PyResult<T> {
    all.into_iter()
        .find(|t| name_of(t) == name)
        .ok_or_else(|| ArgumentError::new_err(format!("{expected}, not {name:?}")))
}

/// `text` as Python writes a string's repr, for the objects' own reprs.
pub(crate) fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}
