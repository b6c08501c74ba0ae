//! Running work that grows with the code space without stalling the server.
//!
//! A job runs on its own thread so the async workers keep answering other clients; the thread
//! has a large stack because writing the decision tree of a baseline strategy (one guess per
//! code) as JSON nests as deep as the code space is large. At most a fixed number of jobs run at
//! once, and the permit moves into the job, released only when the job really ends.
//!
//! Advice (hints, solver and assistant steps), reviews and long work (benchmarks, strategy
//! trees) have separate pools, so no number of reviews or benchmarks can make a player's hint
//! wait; and each client holds at most a share of each pool, its further requests queued behind
//! its own, so one client cannot take every worker of a kind either. A client is its address,
//! but on the loopback, where every client has the same one, it is its connection: a share per
//! address would put every local client behind whichever loops hardest.
//!
//! Large answers (trees and their views) are reserved room in a memory budget before their job
//! runs, and hold what they take until their client has read them, so unread answers cannot
//! pile up past the budget.
//!
//! Every job gets a [`Stop`]: the request's time limit and a cancel flag. The flag is set when
//! the request future is dropped, which is what hyper does when the client disconnects, and when
//! the server stops waiting; jobs check the `Stop` inside their loops (the advisor, the
//! evaluation, candidate filtering, the search on the spot of `optimal`), so a cancelled job frees its worker at once instead of computing for nobody.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use moo_core::Stop;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::error::ApiError;

/// Stack size of a job thread: address space only, touched as deep as the recursion goes.
const JOB_STACK: usize = 256 << 20;

/// How long past the deadline a job's own answer is awaited: the advisor stops at the deadline
/// and answers with the best guess it has, but building a code space (a score table of up to
/// 121 MB) is not interruptible and may end a little later on a busy machine.
const GRACE: Duration = Duration::from_secs(2);

/// Past this many client addresses, idle ones are forgotten.
const CLIENTS_KEPT: usize = 1024;

pub(crate) use moo_service::Work;

/// Who sent a request, when the server knows (tests that call the router directly do not):
/// [`crate::serve`] records the address and the connection for every connection.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Client {
    pub addr: Option<IpAddr>,
    pub connection: Option<u64>,
}

/// What a client's fair share is counted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Addr(IpAddr),
    Connection(u64),
}

impl Client {
    /// A client at `addr` (tests).
    #[cfg(test)]
    pub fn at(addr: IpAddr) -> Client {
        Client {
            addr: Some(addr),
            connection: None,
        }
    }

    /// Its address, unless it is the loopback's, which every local client shares.
    pub fn remote_addr(&self) -> Option<IpAddr> {
        self.addr.filter(|a| !a.is_loopback())
    }

    fn key(&self) -> Option<Key> {
        match (self.remote_addr(), self.connection) {
            (Some(addr), _) => Some(Key::Addr(addr)),
            (None, Some(connection)) => Some(Key::Connection(connection)),
            (None, None) => self.addr.map(Key::Addr),
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for Client {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Client, Self::Rejection> {
        Ok(parts
            .extensions
            .get::<Client>()
            .copied()
            .unwrap_or_default())
    }
}

/// The workers of one kind of job, and each client's share of them.
struct Pool {
    permits: Arc<Semaphore>,
    per_client: usize,
    clients: Mutex<HashMap<Key, Arc<Semaphore>>>,
}

impl Pool {
    fn new(jobs: usize, per_client: usize) -> Pool {
        Pool {
            permits: Arc::new(Semaphore::new(jobs.max(1))),
            per_client: per_client.max(1),
            clients: Mutex::new(HashMap::new()),
        }
    }

    /// The client's own queue: its jobs wait there first, so one client holds at most
    /// `per_client` of the workers and its other requests queue behind its own.
    fn queue_of(&self, client: Key) -> Arc<Semaphore> {
        let mut clients = self.clients.lock().unwrap_or_else(|p| p.into_inner());
        if clients.len() >= CLIENTS_KEPT {
            // Only queues nobody holds or waits on: theirs is the whole count of references.
            clients.retain(|_, q| Arc::strong_count(q) > 1);
        }
        clients
            .entry(client)
            .or_insert_with(|| Arc::new(Semaphore::new(self.per_client)))
            .clone()
    }

    /// A worker for `client`: its own share first, then one of the pool's.
    async fn acquire(
        &self,
        client: Client,
    ) -> Result<(Option<OwnedSemaphorePermit>, OwnedSemaphorePermit), ApiError> {
        let closed = |_| ApiError::unavailable("the server is shutting down");
        let share = match client.key() {
            Some(key) => Some(self.queue_of(key).acquire_owned().await.map_err(closed)?),
            None => None,
        };
        let worker = self.permits.clone().acquire_owned().await.map_err(closed)?;
        Ok((share, worker))
    }
}

/// The pools of heavy-job permits: advice has workers of its own, which reviews, benchmarks and
/// trees can never take, so a player's hint never waits behind somebody's review or benchmark;
/// and the memory budget of large answers.
pub(crate) struct Heavy {
    advice: Pool,
    review: Pool,
    long: Pool,
    /// KiB of large answers built or being sent.
    answers: Arc<Semaphore>,
}

/// Room for a large answer in the budget, held until the answer is sent (or dropped).
pub(crate) struct AnswerRoom(OwnedSemaphorePermit);

impl AnswerRoom {
    /// Keeps only the room `bytes` take and gives back the rest.
    pub fn shrink_to(&mut self, bytes: usize) {
        let keep = kib(bytes).min(self.0.num_permits());
        let _rest = self.0.split(self.0.num_permits() - keep);
    }
}

/// `bytes` in whole KiB, as the budget counts them.
fn kib(bytes: usize) -> usize {
    bytes.div_ceil(1024)
}

/// Cancels a job's [`Stop`] when the request that started it goes away.
struct CancelOnDrop(Stop);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Heavy {
    /// `advice_jobs` workers for advice, `review_jobs` for reviews, `long_jobs` for benchmarks
    /// and trees, of which each client may hold `per_client` of each kind at once; large answers
    /// share `answer_memory` bytes.
    pub fn new(
        (advice_jobs, review_jobs, long_jobs): (usize, usize, usize),
        per_client: usize,
        answer_memory: usize,
    ) -> Heavy {
        Heavy {
            advice: Pool::new(advice_jobs, per_client),
            review: Pool::new(review_jobs, per_client),
            long: Pool::new(long_jobs, per_client),
            answers: Arc::new(Semaphore::new(kib(answer_memory))),
        }
    }

    /// Room for an answer of up to `bytes` in the budget, waiting at most `limit` for others to
    /// be sent.
    pub async fn answer_room(&self, bytes: usize, limit: Duration) -> Result<AnswerRoom, ApiError> {
        let want = u32::try_from(kib(bytes)).unwrap_or(u32::MAX);
        let room = self.answers.clone().acquire_many_owned(want);
        match tokio::time::timeout(limit, room).await {
            Ok(Ok(permit)) => Ok(AnswerRoom(permit)),
            Ok(Err(_)) => Err(ApiError::unavailable("the server is shutting down")),
            Err(_) => Err(ApiError::unavailable(format!(
                "the server holds as many large answers as it keeps for clients that have not read them yet: try again in a moment (waited {})",
                seconds(limit)
            ))),
        }
    }

    /// How many workers of `work` are busy now.
    #[cfg(test)]
    pub fn busy(&self, work: Work, of: usize) -> usize {
        of - self.pool(work).permits.available_permits()
    }

    fn pool(&self, work: Work) -> &Pool {
        match work {
            Work::Advice => &self.advice,
            Work::Review => &self.review,
            Work::Long => &self.long,
        }
    }

    /// Runs `job` on its own thread within `limit` (queueing included) on a worker of `work`;
    /// `job` gets the `Stop` to respect, cancelled as soon as nobody waits for the answer any
    /// more.
    pub async fn run<T, F>(
        &self,
        work: Work,
        client: Client,
        limit: Duration,
        job: F,
    ) -> Result<T, ApiError>
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
        let (share, worker) = tokio::time::timeout(limit, self.pool(work).acquire(client))
            .await
            .map_err(|_| too_slow())??;
        let (send, receive) = tokio::sync::oneshot::channel();
        std::thread::Builder::new()
            .name("moo-web-job".into())
            .stack_size(JOB_STACK)
            .spawn(move || {
                let _permits = (share, worker);
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
        let heavy = Arc::new(Heavy::new((1, 1, 1), 1, 1 << 20));
        let (seen, saw) = std::sync::mpsc::channel();
        // A job that runs until it is stopped, like a search with a long budget.
        let request = heavy.run(
            Work::Long,
            Client::default(),
            Duration::from_secs(600),
            move |stop| {
                while !stop.is_cancelled() {
                    std::thread::sleep(Duration::from_millis(5));
                }
                let _ = seen.send(());
                Ok(())
            },
        );
        // The client goes away: the request future is dropped after a moment.
        let _ = tokio::time::timeout(Duration::from_millis(50), request).await;
        saw.recv_timeout(Duration::from_secs(60))
            .expect("the job saw the cancel flag");
        // The one worker is free again for the next request.
        let next = heavy
            .run(
                Work::Long,
                Client::default(),
                Duration::from_secs(60),
                |_| Ok(7),
            )
            .await;
        assert_eq!(next, Ok(7));
    }

    /// A job that holds its worker until `release` is set.
    fn hold(
        heavy: &Arc<Heavy>,
        work: Work,
        client: Client,
        release: &Arc<AtomicBool>,
    ) -> tokio::task::JoinHandle<Result<(), ApiError>> {
        let (heavy, release) = (heavy.clone(), release.clone());
        tokio::spawn(async move {
            heavy
                .run(work, client, Duration::from_secs(600), move |_| {
                    while !release.load(std::sync::atomic::Ordering::Relaxed) {
                        std::thread::sleep(Duration::from_millis(5));
                    }
                    Ok(())
                })
                .await
        })
    }

    /// An advice job for `client` answers `value` within five seconds: a worker was free for it.
    async fn advice_at_once(heavy: &Heavy, client: Client, value: u32) {
        let job = heavy.run(Work::Advice, client, Duration::from_secs(5), move |_| {
            Ok(value)
        });
        let answer = tokio::time::timeout(Duration::from_secs(5), job).await;
        assert_eq!(answer, Ok(Ok(value)));
    }

    /// Lets every [`hold`] job finish and checks that each did.
    async fn release_all(
        release: &AtomicBool,
        jobs: impl IntoIterator<Item = tokio::task::JoinHandle<Result<(), ApiError>>>,
    ) {
        release.store(true, std::sync::atomic::Ordering::Relaxed);
        for job in jobs {
            assert_eq!(job.await.unwrap(), Ok(()));
        }
    }

    async fn until_busy(heavy: &Heavy, work: Work, of: usize, want: usize) {
        for _ in 0..2000 {
            if heavy.busy(work, of) == want {
                return;
            }
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        panic!("{want} of {of} {work:?} workers never got busy");
    }

    /// Benchmarks filling every long worker leave advice its own workers, and one
    /// client address holds at most its share of a pool, its other jobs queued behind its own.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn advice_has_workers_of_its_own_and_a_client_its_share() {
        let heavy = Arc::new(Heavy::new((2, 1, 2), 1, 1 << 20));
        let release = Arc::new(AtomicBool::new(false));
        let ip = |n: u8| Client::at(IpAddr::from([10, 0, 0, n]));
        let long: Vec<_> = (1..=2)
            .map(|n| hold(&heavy, Work::Long, ip(n), &release))
            .collect();
        until_busy(&heavy, Work::Long, 2, 2).await;
        // Advice runs at once beside them.
        advice_at_once(&heavy, ip(3), 3).await;
        // One client with three advice requests holds one worker; another client gets the
        // other at once.
        let greedy: Vec<_> = (0..3)
            .map(|_| hold(&heavy, Work::Advice, ip(4), &release))
            .collect();
        until_busy(&heavy, Work::Advice, 2, 1).await;
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(heavy.busy(Work::Advice, 2), 1);
        advice_at_once(&heavy, ip(5), 5).await;
        release_all(&release, long.into_iter().chain(greedy)).await;
    }

    /// Reviews have workers of their own, so any number of them leaves advice
    /// its workers; and on the loopback, where every client has one address, each connection is
    /// a client of its own, so one local client looping cannot queue every other behind it.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reviews_never_hold_advice_and_local_clients_are_their_connections() {
        let heavy = Arc::new(Heavy::new((2, 1, 1), 1, 1 << 20));
        let release = Arc::new(AtomicBool::new(false));
        let local = |c: u64| Client {
            addr: Some(IpAddr::from([127, 0, 0, 1])),
            connection: Some(c),
        };
        let reviews: Vec<_> = (0..3)
            .map(|c| hold(&heavy, Work::Review, local(c), &release))
            .collect();
        until_busy(&heavy, Work::Review, 1, 1).await;
        let greedy = hold(&heavy, Work::Advice, local(10), &release);
        until_busy(&heavy, Work::Advice, 2, 1).await;
        advice_at_once(&heavy, local(11), 5).await;
        release_all(&release, reviews.into_iter().chain([greedy])).await;
    }
}
