//! Running work that grows with the code space without stalling the server.
//!
//! A job runs on its own thread so the async workers keep answering other clients; the thread
//! has a large stack because writing the decision tree of a baseline strategy (one guess per
//! code) as JSON nests as deep as the code space is large. At most a fixed number of jobs run at
//! once: the permit moves into the job and is released only when the job really ends, because a
//! running computation cannot be interrupted from outside. The client waits at most the time
//! limit (queueing included) and then gets a 503; benchmarks and trees also get the deadline and
//! stop themselves (`moo_core::EvalOptions::deadline`).

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::Semaphore;

use crate::error::ApiError;

/// Stack size of a job thread: address space only, touched as deep as the recursion goes.
const JOB_STACK: usize = 256 << 20;

/// How long past the deadline a job's own answer is awaited.
const GRACE: Duration = Duration::from_millis(500);

/// The pool of heavy-job permits and the time limit.
pub(crate) struct Heavy {
    permits: Arc<Semaphore>,
    time_limit: Duration,
}

impl Heavy {
    pub fn new(jobs: usize, time_limit: Duration) -> Heavy {
        Heavy {
            permits: Arc::new(Semaphore::new(jobs.max(1))),
            time_limit,
        }
    }

    /// Runs `job` on the blocking pool; `job` gets its deadline.
    pub async fn run<T, F>(&self, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(Instant) -> Result<T, ApiError> + Send + 'static,
    {
        let deadline = Instant::now() + self.time_limit;
        let too_slow = || {
            ApiError::unavailable(format!(
                "the server could not finish this within its {} s limit: try smaller rules, or again later",
                self.time_limit.as_secs()
            ))
        };
        let permit = tokio::time::timeout(self.time_limit, self.permits.clone().acquire_owned())
            .await
            .map_err(|_| too_slow())?
            .map_err(|_| ApiError::unavailable("the server is shutting down"))?;
        let (send, receive) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("moo-web-job".into())
            .stack_size(JOB_STACK)
            .spawn(move || {
                let _permit = permit;
                // The client may have gone; then nobody wants the result.
                let _ = send.send(job(deadline));
            })
            .map_err(|e| ApiError::unavailable(format!("cannot start a worker thread: {e}")))?;
        // A moment past the deadline, so jobs that watch it can report their own reason first.
        let remaining = deadline.saturating_duration_since(Instant::now()) + GRACE;
        match tokio::time::timeout(remaining, receive).await {
            Err(_) => Err(too_slow()),
            // The sender was dropped without a result: the job panicked.
            Ok(Err(_)) => Err(ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                "the computation failed; please report this request",
            )),
            Ok(Ok(result)) => result,
        }
    }
}
