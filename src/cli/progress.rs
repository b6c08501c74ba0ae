//! One progress line for every command that can run long (`tree build`, `bench`, `crack --table`).
//!
//! Progress goes to stderr, so stdout stays the command's answer, and only when a person watches
//! stderr: in a pipe, a file or a test the bar is never drawn. It also waits a second before it
//! appears, so quick runs print nothing but their result. Once shown, it redraws itself four times
//! a second, so the elapsed time moves even while a long step (a table row, a search level)
//! reports nothing.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long work runs before its progress line appears.
const DELAY: Duration = Duration::from_secs(1);

/// How often a shown line redraws on its own.
const TICK: Duration = Duration::from_millis(250);

/// A progress line on stderr; every method does nothing when stderr is not a terminal.
pub struct ProgressLine {
    /// `None` when nobody watches stderr.
    bar: Option<ProgressBar>,
    start: Instant,
    shown: AtomicBool,
}

impl ProgressLine {
    /// A bar over `len` steps counted in `unit` (`games`, `rows`), labelled `label`.
    pub fn bar(label: &str, len: u64, unit: &str) -> ProgressLine {
        ProgressLine::with(
            Some(len),
            label,
            &format!("[{{bar:30}}] {{pos}}/{{len}} {unit}"),
        )
    }

    /// A line for work of unknown length: a spinner, `label`, and a message set as work goes on.
    pub fn spinner(label: &str) -> ProgressLine {
        ProgressLine::with(None, label, "{spinner} {wide_msg}")
    }

    fn with(len: Option<u64>, label: &str, body: &str) -> ProgressLine {
        let start = Instant::now();
        let shown = AtomicBool::new(false);
        if !std::io::stderr().is_terminal() {
            return ProgressLine {
                bar: None,
                start,
                shown,
            };
        }
        // Hidden until the delay has passed (see `update`).
        let bar = ProgressBar::with_draw_target(len, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template(&format!("{{prefix:>14}} {body} ({{elapsed}})"))
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> "),
        );
        bar.set_prefix(label.to_string());
        ProgressLine {
            bar: Some(bar),
            start,
            shown,
        }
    }

    /// Sets how many steps are done.
    pub fn set_position(&self, position: u64) {
        self.update(|bar| bar.set_position(position));
    }

    /// Counts `steps` more steps done.
    pub fn inc(&self, steps: u64) {
        self.update(|bar| bar.inc(steps));
    }

    /// Replaces the message after the spinner.
    pub fn set_message(&self, message: String) {
        self.update(|bar| bar.set_message(message));
    }

    /// Removes the line from the terminal.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }

    /// Applies `change`, then shows the line if the work has outlasted the delay.
    fn update(&self, change: impl FnOnce(&ProgressBar)) {
        let Some(bar) = &self.bar else { return };
        change(bar);
        if !self.shown.load(Ordering::Relaxed)
            && self.start.elapsed() >= DELAY
            && !self.shown.swap(true, Ordering::Relaxed)
        {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(TICK);
        }
    }
}

impl Drop for ProgressLine {
    fn drop(&mut self) {
        self.finish();
    }
}

/// A flag the working thread raises when the work ends, which watcher threads wait on between
/// updates: they stop at once instead of after their next sleep, which would hold up a search
/// of a few milliseconds for a quarter of a second.
#[derive(Default)]
pub struct Finished {
    done: Mutex<bool>,
    raised: Condvar,
}

impl Finished {
    /// Says the work has ended, waking every watcher.
    pub fn raise(&self) {
        *self.done.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.raised.notify_all();
    }

    /// A guard that says the work has ended when dropped, however it ends: a panic in the work
    /// included, which would otherwise leave the watchers, and a scope that joins them, waiting
    /// forever.
    pub fn raise_on_drop(&self) -> RaiseOnDrop<'_> {
        RaiseOnDrop(self)
    }

    /// Waits up to `timeout` for the work to end; whether it has.
    pub fn wait(&self, timeout: Duration) -> bool {
        let done = self.done.lock().unwrap_or_else(|e| e.into_inner());
        let (done, _) = self
            .raised
            .wait_timeout_while(done, timeout, |done| !*done)
            .unwrap_or_else(|e| e.into_inner());
        *done
    }
}

/// Runs `work` on this thread while `watch` follows it on a thread of its own, told through a
/// [`Finished`] that the work has ended, however it ends: a watcher never outlives its work.
pub fn watched<T>(watch: impl FnOnce(&Finished) + Send, work: impl FnOnce() -> T) -> T {
    let done = Finished::default();
    std::thread::scope(|scope| {
        let _finished = done.raise_on_drop();
        scope.spawn(|| watch(&done));
        work()
    })
}

/// Raises its [`Finished`] when dropped ([`Finished::raise_on_drop`]).
pub struct RaiseOnDrop<'a>(&'a Finished);

impl Drop for RaiseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.raise();
    }
}
