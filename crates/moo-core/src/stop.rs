//! When long work must stop: a deadline, a cancel flag, or both.
//!
//! Every search that can run long (the exact tree search, the advisor, evaluation) takes a
//! [`Stop`] and checks it inside its loops, so any caller can bound it: the CLI with
//! `--time-limit`, the web server with its per-request limit and a flag it sets when the client
//! goes away. Cloning shares the flag, so one `cancel` stops every clone.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use web_time::{Duration, Instant};

/// A deadline and a cancel flag; work asked to respect it stops soon after either fires.
#[derive(Debug, Clone, Default)]
pub struct Stop {
    deadline: Option<Instant>,
    flag: Option<Arc<AtomicBool>>,
}

impl Stop {
    /// Never stops.
    pub fn never() -> Stop {
        Stop::default()
    }

    /// Stops at `deadline`.
    pub fn at(deadline: Instant) -> Stop {
        Stop {
            deadline: Some(deadline),
            flag: None,
        }
    }

    /// Stops `budget` from now.
    pub fn after(budget: Duration) -> Stop {
        Stop::at(Instant::now() + budget)
    }

    /// Also stops when `flag` is set.
    pub fn with_flag(mut self, flag: Arc<AtomicBool>) -> Stop {
        self.flag = Some(flag);
        self
    }

    /// The same flag with an earlier deadline: the sooner of this one's and `deadline`.
    pub fn until(&self, deadline: Instant) -> Stop {
        Stop {
            deadline: Some(self.deadline.map_or(deadline, |d| d.min(deadline))),
            flag: self.flag.clone(),
        }
    }

    /// The deadline, if there is one.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// The cancel flag, if there is one.
    pub fn flag(&self) -> Option<&Arc<AtomicBool>> {
        self.flag.as_ref()
    }

    /// Time left before the deadline (zero once past it; `None` without a deadline).
    pub fn remaining(&self) -> Option<Duration> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()))
    }

    /// Sets the flag (if any), stopping every clone of this `Stop`.
    pub fn cancel(&self) {
        if let Some(flag) = &self.flag {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Whether the flag is set (cheap: one relaxed load).
    pub fn is_cancelled(&self) -> bool {
        self.flag
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// Whether this `Stop` will never fire: no deadline and no flag.
    pub fn is_never(&self) -> bool {
        self.deadline.is_none() && self.flag.is_none()
    }

    /// Whether the flag is set or the deadline has passed (reads the clock: hot loops should
    /// call it every few hundred iterations, not every one).
    pub fn is_stopped(&self) -> bool {
        self.is_cancelled() || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// Two `Stop`s are equal when they have the same deadline and share the same flag (or both have
/// none): then they fire together.
impl PartialEq for Stop {
    fn eq(&self, other: &Stop) -> bool {
        self.deadline == other.deadline
            && match (&self.flag, &other.flag) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
    }
}

impl Eq for Stop {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_stops_without_a_deadline_or_a_flag() {
        assert!(!Stop::never().is_stopped());
        assert_eq!(Stop::never().remaining(), None);
    }

    #[test]
    fn a_past_deadline_stops_and_a_future_one_does_not() {
        assert!(Stop::at(Instant::now()).is_stopped());
        let later = Stop::after(Duration::from_secs(3600));
        assert!(!later.is_stopped());
        assert!(later.remaining().unwrap() > Duration::from_secs(3000));
    }

    #[test]
    fn cancelling_one_clone_stops_them_all() {
        let stop = Stop::never().with_flag(Arc::new(AtomicBool::new(false)));
        let other = stop.until(Instant::now() + Duration::from_secs(3600));
        assert!(!other.is_stopped());
        stop.cancel();
        assert!(other.is_cancelled() && other.is_stopped());
    }

    #[test]
    fn until_keeps_the_sooner_deadline() {
        let now = Instant::now();
        let stop = Stop::at(now + Duration::from_secs(10));
        assert_eq!(
            stop.until(now + Duration::from_secs(20)).deadline(),
            Some(now + Duration::from_secs(10))
        );
        assert_eq!(
            stop.until(now + Duration::from_secs(5)).deadline(),
            Some(now + Duration::from_secs(5))
        );
    }
}
