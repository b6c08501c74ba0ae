//! moo's engine in the browser: the web app's whole JSON API answered by
//! [`moo_service::Service`] compiled to WebAssembly, for the static site.
//!
//! The site's Web Worker (`worker.js`) makes one [`Engine`] and hands it every request the
//! page would send to `moo serve`, as a method, a path and a JSON body; the answer is the
//! status and the JSON the server answers, so the page runs unchanged on either. Work runs on
//! the worker's one thread under the same time limits as the server's; the page cancels a
//! search by ending the worker, and a new engine starts with no games, which the page replays
//! from its link as it does after a server restart.

#![deny(missing_docs)]

use std::time::Duration;

use moo_core::Stop;
use moo_service::{Limits, Service};
use wasm_bindgen::prelude::wasm_bindgen;

/// One engine: the game store, the cached code spaces and the advisor of one browser tab.
#[wasm_bindgen]
pub struct Engine {
    service: Service,
}

/// An answer: the HTTP status `moo serve` answers with, and its JSON body.
#[wasm_bindgen(getter_with_clone)]
pub struct Answer {
    /// The HTTP status.
    pub status: u16,
    /// The JSON body.
    pub body: String,
}

#[wasm_bindgen]
impl Engine {
    /// An engine with the server's default limits.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Engine {
        Engine {
            service: Service::new(Limits::default()),
        }
    }

    /// An engine whose advice may take `advice_ms` and whose reviews `review_ms` (each move up
    /// to `advice_ms`), the server's other limits kept: for comparing answers with the native
    /// build's where neither is cut short by its clock.
    pub fn with_time_limits(advice_ms: f64, review_ms: f64) -> Engine {
        let ms = |ms: f64| Duration::from_secs_f64(ms.max(0.0) / 1000.0);
        let mut limits = Limits::default();
        limits.time_limit = ms(advice_ms);
        limits.review_time_limit = ms(review_ms);
        Engine {
            service: Service::new(limits),
        }
    }

    /// Gives the engine the shipped tree `file` (such as `bulls-4x10-average.json`) read from
    /// `json`: the module is built without them, and an answer with the code `needs_trees`
    /// lists those a request needs.
    pub fn provide_tree(&self, file: &str, json: &str) -> Result<(), String> {
        moo_core::strategy::provide_shipped_tree(file, json).map_err(|e| e.to_string())
    }

    /// Answers `method` `path` with `body` (empty for none), as `moo serve` would.
    pub fn call(&self, method: &str, path: &str, body: &str) -> Answer {
        let reply = self
            .service
            .dispatch(method, path, body, |limit: Duration| Stop::after(limit));
        Answer {
            status: reply.status,
            body: reply.body,
        }
    }

    /// The advice of a fresh advisor (no cache from earlier calls) on the position of `body`
    /// (a solver request: rules and history) within `time_limit_ms`, as `moo bench advisor`
    /// times it: the static site's speed benchmark, run beside the native build.
    pub fn fresh_advice(&self, body: &str, time_limit_ms: f64) -> Answer {
        let limit = Duration::from_secs_f64(time_limit_ms.max(0.0) / 1000.0);
        let answer = moo_service::read_body(body)
            .and_then(|body| self.service.fresh_advice(body))
            .and_then(|job| {
                job.with_time_limit(limit)
                    .run(&self.service, Stop::after(limit))
            })
            .and_then(|advice| moo_service::to_json(&advice));
        match answer {
            Ok(body) => Answer { status: 200, body },
            Err(e) => Answer {
                status: e.status,
                body: e.to_json(),
            },
        }
    }
}
