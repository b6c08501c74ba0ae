//! moo for Python: the `moo._moo` extension module that the `moo` package re-exports.
//!
//! Each Python name is a thin wrapper of moo-core or moo-crack: the figures Python prints are
//! the ones the CLI prints, from the same code. Long work (evaluations, advice, reviews, tree
//! searches, cracking) runs with the interpreter's lock released, on a thread of its own that a
//! Ctrl-C in the caller stops (`long`), and every library error is raised as a subclass of
//! `moo.MooError` carrying the library's message (`errors`).

#![deny(missing_docs)]

/// The `register` function of a module: adds its classes, then its functions, to the extension
/// module, so that each module keeps the one list of the names it defines.
macro_rules! register {
    (classes: [$($class:ty),* $(,)?], functions: [$($function:ident),* $(,)?] $(,)?) => {
        /// Adds this module's names.
        pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
            $(m.add_class::<$class>()?;)*
            $(m.add_function(wrap_pyfunction!($function, m)?)?;)*
            Ok(())
        }
    };
}

mod advice;
mod crack;
mod errors;
mod history;
mod long;
mod play;
mod rules;
mod tree;

use pyo3::prelude::*;

/// The native half of the `moo` package; import `moo`, which re-exports all of it.
#[pymodule]
fn _moo(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    errors::register(m)?;
    rules::register(m)?;
    play::register(m)?;
    advice::register(m)?;
    tree::register(m)?;
    crack::register(m)?;
    Ok(())
}
