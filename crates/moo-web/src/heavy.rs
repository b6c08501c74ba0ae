//! Running work that grows with the code space without stalling the server.
//!
//! A job runs on its own thread so the async workers keep answering other clients; the thread
//! has a large stack because writing the decision tree of a baseline strategy (one guess per
//! code) as JSON nests as deep as the code space is large. At most a fixed number of jobs run at
//! once, and the permit moves into the job, released only when the job really ends.
//!
//! Every job gets a [`Stop`]: the request's time limit and a cancel flag. The flag is set when
//! the request future is dropped, which is what hyper does when the client disconnects, and when
//! the server stops waiting; jobs check the `Stop` inside their loops (the advisor, the
//! evaluation), so a cancelled job frees its worker at once instead of computing for nobody.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use moo_core::Stop;
use tokio::sync::Semaphore;

use crate::error::ApiError;

/// Stack size of a job thread: address space only, touched as deep as the recursion goes.
const JOB_STACK: usize = 256 << 20;

/// How long past the deadline a job's own answer is awaited: the advisor stops at the deadline
/// and answers with the best guess it has, but building a code space (a score table of up to
/// 121 MB) is not interruptible and may end a little later on a busy machine.
const GRACE: Duration = Duration::from_secs(2);

/// The pool of heavy-job permits.
pub(crate) struct Heavy {
    permits: Arc<Semaphore>,
}

/// Cancels a job's [`Stop`] when the request that started it goes away.
struct CancelOnDrop(Stop);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Heavy {
    pub fn new(jobs: usize) -> Heavy {
        Heavy {
            permits: Arc::new(Semaphore::new(jobs.max(1))),
        }
    }

    /// Runs `job` on its own thread within `limit` (queueing included); `job` gets the `Stop`
    /// to respect, cancelled as soon as nobody waits for the answer any more.
    pub async fn run<T, F>(&self, limit: Duration, job: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(Stop) -> Result<T, ApiError> + Send + 'static,
    {
        let deadline = Instant::now() + limit;
        let stop = Stop::at(deadline).with_flag(Arc::new(AtomicBool::new(false)));
        let _cancel = CancelOnDrop(stop.clone());
        let too_slow = || {
            ApiError::unavailable(format!(
                "the server could not finish this within its {} limit: try smaller rules, or again later",
                seconds(limit)
            ))
        };
        let permit = tokio::time::timeout(limit, self.permits.clone().acquire_owned())
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
                let _ = send.send(job(stop));
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

/// A limit as people say it: "2 s", "1.5 s".
pub(crate) fn seconds(limit: Duration) -> String {
    format!("{} s", limit.as_secs_f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_dropped_request_cancels_its_job_and_frees_the_worker() {
        let heavy = Arc::new(Heavy::new(1));
        let (seen, saw) = std::sync::mpsc::channel();
        // A job that runs until it is stopped, like a search with a long budget.
        let request = heavy.run(Duration::from_secs(600), move |stop| {
            while !stop.is_cancelled() {
                std::thread::sleep(Duration::from_millis(5));
            }
            let _ = seen.send(());
            Ok(())
        });
        // The client goes away: the request future is dropped after a moment.
        let _ = tokio::time::timeout(Duration::from_millis(50), request).await;
        saw.recv_timeout(Duration::from_secs(60))
            .expect("the job saw the cancel flag");
        // The one worker is free again for the next request.
        let next = heavy.run(Duration::from_secs(60), |_| Ok(7)).await;
        assert_eq!(next, Ok(7));
    }
}
