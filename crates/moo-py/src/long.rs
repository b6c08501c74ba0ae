//! Long work with the interpreter's lock released, that Ctrl-C stops cleanly.
//!
//! Python delivers Ctrl-C to its main thread as a flag that only code holding the lock sees
//! (`check_signals`). A search that held the lock would freeze every other Python thread, and
//! one that released it and never looked back could not be interrupted. So the work runs on a
//! thread of its own while the caller's thread waits without the lock, wakes every
//! [`POLL`] to check for signals and report progress, and on Ctrl-C sets the work's cancel flag,
//! waits for it to wind down (the searches check the flag often) and raises `KeyboardInterrupt`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

use crate::errors::ArgumentError;

/// How often the waiting thread checks for Ctrl-C and reports progress.
const POLL: Duration = Duration::from_millis(100);

/// Runs `work` on its own thread, without the lock, calling `poll` with the lock every [`POLL`]
/// until it ends; a signal (Ctrl-C) or an error from `poll` sets `cancel` and is raised once the
/// work has stopped. `work` must stop soon after `cancel` is set.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    cancel: &Arc<AtomicBool>,
    work: impl FnOnce() -> T + Send,
    mut poll: impl FnMut(Python<'_>) -> PyResult<()>,
) -> PyResult<T> {
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel();
        let worker = scope.spawn(move || {
            // The receiver is gone only if the caller already raised.
            let _ = sender.send(work());
        });
        let mut raised = None;
        let mut receiver = receiver;
        loop {
            // The receiver goes to the lock-free side and back: it may not be shared.
            let (back, answer) = py.detach(move || {
                let answer = receiver.recv_timeout(POLL);
                (receiver, answer)
            });
            receiver = back;
            match answer {
                Ok(value) => {
                    let _ = worker.join();
                    return match raised {
                        Some(e) => Err(e),
                        None => Ok(value),
                    };
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(match worker.join() {
                        Err(panic) => PyRuntimeError::new_err(format!(
                            "moo stopped on an internal error: {} (please report it)",
                            panic_message(&panic)
                        )),
                        Ok(()) => PyRuntimeError::new_err("moo's worker ended without an answer"),
                    });
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if raised.is_none() {
                if let Err(e) = py.check_signals().and_then(|()| poll(py)) {
                    cancel.store(true, Ordering::Relaxed);
                    raised = Some(e);
                }
            }
        }
    })
}

/// The text a panic carried.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        s.to_string()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic".to_string()
    }
}

/// The time limit a caller gave, in seconds, as a duration; refuses negative and non-finite ones.
pub(crate) fn seconds(limit: Option<f64>, name: &str) -> PyResult<Option<Duration>> {
    match limit {
        None => Ok(None),
        Some(s) => Duration::try_from_secs_f64(s).map(Some).map_err(|_| {
            ArgumentError::new_err(format!(
                "{name} must be a number of seconds, at least 0 (or None for no limit), not {s:?}"
            ))
        }),
    }
}
