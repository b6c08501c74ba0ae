//! What every request passes before a route sees it, and every error answer after.
//!
//! - The Host header must name this server (a localhost name, the bound address, or a name the
//!   operator allowed): after a DNS rebinding, a web page elsewhere can reach a server on the
//!   loopback, but its requests still carry the attacker's host name. A request without a Host
//!   header (HTTP/1.0, tools) is let through: browsers always send one. An empty Host header or
//!   more than one is refused: a proxy or cache in front may read another of them than this
//!   server does.
//! - A declared body larger than its route's limit (a tree upload's, or else the service's) gets
//!   its 413 at once, before hyper answers an `Expect: 100-continue` and waits for a body it
//!   would refuse. Every body, declared or chunked, is then read here, counted as it arrives
//!   (413 as soon as it passes the limit) and within [`Guard::body_deadline`] (408 past it),
//!   so no route sees a body that is not whole. A body past the service's usual limit takes
//!   its room in the memory shared by such uploads first, and is refused with 503 if there is
//!   none: a few hundred uploads of 8 MiB cannot fill the server's memory.
//! - The connection counts as working from when its request is read whole to when its answer
//!   is ready, and as idle otherwise: a full connection table closes the one idle longest.
//! - Every error answer is JSON, `{"error": "..."}`: those of the routes already are; the
//!   framework's own (a path that is not UTF-8, a method a route does not take) are rewrapped
//!   here, their text kept.
//! - Every answer carries the security headers of [`SECURITY_HEADERS`]: the page loads only its
//!   own scripts and styles, no other site may frame it, and no answer is sniffed as another
//!   type than it says.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use http_body_util::BodyExt;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::conns::Conn;
use crate::error::ApiError;

/// The server's own names and its body limits.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    /// Host names (without port), lowercase.
    pub hosts: Vec<String>,
    /// The service's body limit; a route may take more.
    pub body_limit: usize,
    /// How long a whole body may take to arrive.
    pub body_deadline: Duration,
    /// Bytes of bodies past `body_limit` that may be held at once.
    pub uploads: Arc<Semaphore>,
}

/// The names every server answers to: the loopback's.
pub(crate) const LOCAL_HOSTS: [&str; 4] = ["localhost", "127.0.0.1", "[::1]", "::1"];

impl Guard {
    /// Whether `host` (a Host header: a name or address, maybe with a port) names this server.
    fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        // "[::1]:8080" keeps its brackets; "name:8080" loses its port.
        let name = match host.rsplit_once(':') {
            Some((name, port))
                if port.bytes().all(|b| b.is_ascii_digit()) && !name.ends_with(':') =>
            {
                name
            }
            _ => host.as_str(),
        };
        let name = name.trim_end_matches('.');
        name.ends_with(".localhost") || self.hosts.iter().any(|h| h == name)
    }
}

/// The headers every answer carries (see the module docs). The page sets colours through the
/// CSS object model, which a policy without `'unsafe-inline'` allows, and builds its charts as
/// SVG elements, so nothing needs more than the server's own origin.
pub(crate) const SECURITY_HEADERS: [(&str, &str); 4] = [
    (
        "content-security-policy",
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
         frame-ancestors 'none'",
    ),
    ("x-frame-options", "DENY"),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
];

/// The checks before a request, the JSON rewrap and the security headers after (see the module
/// docs).
pub(crate) async fn guard(
    State(guard): State<Arc<Guard>>,
    request: Request,
    next: Next,
) -> Response {
    let mut response = checked(&guard, request, next).await;
    for (name, value) in SECURITY_HEADERS {
        response
            .headers_mut()
            .insert(name, HeaderValue::from_static(value));
    }
    response
}

/// [`guard`] but for the security headers.
async fn checked(guard: &Guard, request: Request, next: Next) -> Response {
    if let Err(refused) = check_host(guard, request.headers()) {
        return refused.into_response();
    }
    let limit = moo_service::body_limit(
        request.method().as_str(),
        request.uri().path(),
        guard.body_limit,
    );
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if let Some(n) = declared.filter(|&n| n > limit as u64) {
        // Drained only when the client is sending it anyway, not when it waits to be asked
        // (`Expect: 100-continue`), which reading would do.
        let expects = request.headers().contains_key(header::EXPECT);
        if n <= DRAIN_BYTES as u64 && !expects {
            drain(request.into_body(), DRAIN_BYTES).await;
        }
        return too_large(limit).into_response();
    }
    // Room for a large body before any of it is read: its declared length, or the route's
    // whole limit for a chunked one.
    let room = declared.map_or(limit, |n| n as usize);
    let _upload = match reserve_upload(guard, limit, room) {
        Ok(permit) => permit,
        Err(refused) => return refused.into_response(),
    };
    let conn = request.extensions().get::<Arc<Conn>>().cloned();
    let (parts, body) = request.into_parts();
    let body = match whole_body(guard, body, limit).await {
        Ok(body) => body,
        Err(refused) => return refused.into_response(),
    };
    let request = Request::from_parts(parts, Body::from(body));
    if let Some(conn) = &conn {
        conn.working(true);
    }
    let response = next.run(request).await;
    if let Some(conn) = &conn {
        conn.working(false);
    }
    if !(response.status().is_client_error() || response.status().is_server_error()) {
        return response;
    }
    let json = HeaderValue::from_static("application/json");
    if response.headers().get(header::CONTENT_TYPE) == Some(&json) {
        return response;
    }
    rewrap(response).await
}

/// At most one Host header, naming a host this server answers to: after a DNS rebinding the
/// attacker's page still sends its own host name (see the module's docs).
fn check_host(guard: &Guard, headers: &HeaderMap) -> Result<(), ApiError> {
    let mut hosts = headers.get_all(header::HOST).iter();
    if let (Some(_), Some(_)) = (hosts.next(), hosts.next()) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "the request has more than one Host header: send exactly one, naming this server",
        ));
    }
    if let Some(host) = headers.get(header::HOST) {
        if !host
            .to_str()
            .is_ok_and(|h| !h.trim().is_empty() && guard.allows(h))
        {
            let shown = moo_core::text::excerpt(&String::from_utf8_lossy(host.as_bytes()));
            return Err(ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "this server does not answer to the host name {shown:?}: open it as localhost or 127.0.0.1, or start it with `moo serve --allow-host NAME`"
                ),
            ));
        }
    }
    Ok(())
}

/// A permit for `room` bytes of upload when the route takes bodies past the usual limit and
/// this one may be that large; `None` when it may not, as the usual limit bounds it already.
fn reserve_upload(
    guard: &Guard,
    limit: usize,
    room: usize,
) -> Result<Option<OwnedSemaphorePermit>, ApiError> {
    if limit <= guard.body_limit || room <= guard.body_limit {
        return Ok(None);
    }
    upload_room(guard, room).map(Some).ok_or_else(|| {
        ApiError::unavailable(
            "the server is receiving as many large uploads as it holds at once: try again in a moment",
        )
    })
}

/// The whole body, or the refusal a route never sees: past the limit (413) or the deadline (408).
async fn whole_body(
    guard: &Guard,
    body: Body,
    limit: usize,
) -> Result<axum::body::Bytes, ApiError> {
    match tokio::time::timeout(guard.body_deadline, read_body(body, limit)).await {
        Ok(read) => read,
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {}: send it whole at once",
                crate::heavy::seconds(guard.body_deadline)
            ),
        )),
    }
}

/// The 413 of a body past `limit`.
fn too_large(limit: usize) -> ApiError {
    ApiError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!(
            "the request body is larger than this server's limit of {limit} bytes: send a shorter history"
        ),
    )
}

/// Room for `bytes` of upload in the shared budget, if there is some now.
fn upload_room(guard: &Guard, bytes: usize) -> Option<OwnedSemaphorePermit> {
    let bytes = u32::try_from(bytes).ok()?;
    guard.uploads.clone().try_acquire_many_owned(bytes).ok()
}

/// The whole body, counted as it arrives: refused as soon as it passes `limit`.
async fn read_body(mut body: Body, limit: usize) -> Result<axum::body::Bytes, ApiError> {
    let mut read: Vec<u8> = Vec::new();
    while let Some(frame) = body.frame().await {
        let frame = frame.map_err(|e| {
            ApiError::new(
                StatusCode::BAD_REQUEST,
                format!("the request body could not be read: {e}"),
            )
        })?;
        if let Ok(data) = frame.into_data() {
            if read.len() + data.len() > limit {
                drain(body, DRAIN_BYTES).await;
                return Err(too_large(limit));
            }
            read.extend_from_slice(&data);
        }
    }
    Ok(read.into())
}

/// The most of a refused body that is read and thrown away before its 413, and for how long.
/// A connection closed with bytes it never read is reset, and a reset can reach the client
/// before it has read the answer, which it then never sees; a client still sending a body a
/// little over the limit reads its 413 once the body is taken. Beyond these the connection is
/// closed at once.
const DRAIN_BYTES: usize = 256 << 10;
const DRAIN_TIME: std::time::Duration = std::time::Duration::from_secs(2);

/// Reads and drops up to `bytes` more of `body`, for at most [`DRAIN_TIME`].
async fn drain(mut body: Body, bytes: usize) {
    let _ = tokio::time::timeout(DRAIN_TIME, async {
        let mut left = bytes;
        while left > 0 {
            match body.frame().await {
                Some(Ok(frame)) => {
                    let n = frame.data_ref().map_or(0, |d| d.len());
                    left = left.saturating_sub(n.max(1));
                }
                _ => break,
            }
        }
    })
    .await;
}

/// A non-JSON error answer as `{"error": "..."}`, with the same status and its text kept.
async fn rewrap(response: Response) -> Response {
    let (parts, body) = response.into_parts();
    let status = parts.status;
    // The framework's rejections are a line or two of text.
    let text = axum::body::to_bytes(Body::new(body), 64 << 10)
        .await
        .map(|b| String::from_utf8_lossy(&b).trim().to_string())
        .unwrap_or_default();
    let message = match (status, text.is_empty()) {
        (StatusCode::METHOD_NOT_ALLOWED, _) => {
            "this route does not take that HTTP method: see the JSON API in the book's web server page (docs/src/web.md)"
                .to_string()
        }
        (_, false) => moo_core::text::excerpt(&text),
        (_, true) => status
            .canonical_reason()
            .unwrap_or("the request failed")
            .to_string(),
    };
    let mut rewrapped = ApiError::new(status, message).into_response();
    // Keep what the client needs from the original, such as Allow on a 405.
    for name in [header::ALLOW, header::RETRY_AFTER] {
        if let Some(v) = parts.headers.get(&name) {
            rewrapped.headers_mut().insert(name, v.clone());
        }
    }
    rewrapped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_names_with_and_without_ports() {
        let guard = Guard {
            hosts: LOCAL_HOSTS
                .iter()
                .map(|s| s.to_string())
                .chain(["192.168.1.5".to_string()])
                .collect(),
            body_limit: 10,
            body_deadline: Duration::from_secs(1),
            uploads: Arc::new(Semaphore::new(10)),
        };
        for ok in [
            "localhost",
            "LOCALHOST:8080",
            "127.0.0.1:1",
            "[::1]:8080",
            "[::1]",
            "app.localhost:3000",
            "192.168.1.5:8080",
            "localhost.",
        ] {
            assert!(guard.allows(ok), "{ok}");
        }
        for refused in [
            "attacker.example",
            "attacker.example:8080",
            "localhost.attacker.example",
            "127.0.0.2",
            "",
        ] {
            assert!(!guard.allows(refused), "{refused}");
        }
    }
}
