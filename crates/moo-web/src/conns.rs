//! The connection table: at most [`crate::Config::max_connections`] connections, and a full
//! table never makes a new client wait behind slow ones.
//!
//! A connection is idle while it waits for a request's headers or body, or while its answer is
//! being sent, and working while a route handles a request it has read whole. When the table
//! is full, a new connection takes the place of the connection idle longest: a client that
//! dribbles its body a byte at a time, or reads no answer, gives way to one that sends its
//! request, and only connections whose requests are being worked on, each within its time
//! limit, make a new client wait.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

/// One connection's state, shared by its task and the requests it carries.
#[derive(Debug)]
pub(crate) struct Conn {
    pub id: u64,
    working: AtomicBool,
    /// Since when it has been idle (or when it started working).
    since: Mutex<Instant>,
    close: Notify,
    closing: AtomicBool,
}

impl Conn {
    /// Marks the connection as working on a request read whole (`true`) or idle again.
    pub fn working(&self, working: bool) {
        self.working.store(working, Ordering::Relaxed);
        *self.since.lock().unwrap_or_else(|p| p.into_inner()) = Instant::now();
    }

    /// Asks the connection's task to close it.
    pub fn close(&self) {
        self.closing.store(true, Ordering::Relaxed);
        self.close.notify_one();
    }

    /// Completes when the connection is to be closed.
    pub async fn closed(&self) {
        self.close.notified().await;
    }
}

/// The live connections.
pub(crate) struct Table {
    max: usize,
    conns: Mutex<HashMap<u64, Arc<Conn>>>,
    next: AtomicU64,
    freed: Notify,
}

impl Table {
    pub fn new(max: usize) -> Table {
        Table {
            max: max.max(1),
            conns: Mutex::new(HashMap::new()),
            next: AtomicU64::new(0),
            freed: Notify::new(),
        }
    }

    /// A place for a new connection: at once if the table has room, or by closing the
    /// connection idle longest; if every connection is working, once one ends.
    pub async fn admit(&self) -> Arc<Conn> {
        loop {
            let freed = self.freed.notified();
            {
                let mut conns = self.conns.lock().unwrap_or_else(|p| p.into_inner());
                if conns.len() < self.max {
                    let id = self.next.fetch_add(1, Ordering::Relaxed);
                    let conn = Arc::new(Conn {
                        id,
                        working: AtomicBool::new(false),
                        since: Mutex::new(Instant::now()),
                        close: Notify::new(),
                        closing: AtomicBool::new(false),
                    });
                    conns.insert(id, conn.clone());
                    return conn;
                }
                let idle = conns
                    .values()
                    .filter(|c| {
                        !c.working.load(Ordering::Relaxed) && !c.closing.load(Ordering::Relaxed)
                    })
                    .min_by_key(|c| *c.since.lock().unwrap_or_else(|p| p.into_inner()));
                if let Some(idle) = idle {
                    idle.close();
                }
            }
            // A closed connection leaves the table as its task ends; check again now and then
            // in case a working one turned idle meanwhile.
            let _ = tokio::time::timeout(Duration::from_millis(100), freed).await;
        }
    }

    /// Takes an ended connection out of the table.
    pub fn remove(&self, conn: &Conn) {
        self.conns
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&conn.id);
        self.freed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_table_closes_the_connection_idle_longest_never_a_working_one() {
        let table = Arc::new(Table::new(2));
        let old = table.admit().await;
        let busy = table.admit().await;
        busy.working(true);
        let t = table.clone();
        let next = tokio::spawn(async move { t.admit().await });
        tokio::time::timeout(Duration::from_secs(5), old.closed())
            .await
            .expect("the idle connection was asked to close");
        assert!(!busy.closing.load(Ordering::Relaxed));
        table.remove(&old);
        let new = tokio::time::timeout(Duration::from_secs(5), next)
            .await
            .unwrap()
            .unwrap();
        assert_ne!(new.id, old.id);
    }
}
