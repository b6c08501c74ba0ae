//! What every request passes before a route sees it, and every error answer after.
//!
//! - The Host header must name this server (a localhost name, the bound address, or a name the
//!   operator allowed): after a DNS rebinding, a web page elsewhere can reach a server on the
//!   loopback, but its requests still carry the attacker's host name. A request without a Host
//!   header (HTTP/1.0, tools) is let through: browsers always send one. An empty Host header or
//!   more than one is refused: a proxy or cache in front may read another of them than this
//!   server does.
//! - A declared body larger than the limit gets its 413 at once, before hyper answers an
//!   `Expect: 100-continue` and waits for a body it would refuse.
//! - Every error answer is JSON, `{"error": "..."}`: those of the routes already are; the
//!   framework's own (a path that is not UTF-8, a method a route does not take) are rewrapped
//!   here, their text kept.
//! - Every answer carries the security headers of [`SECURITY_HEADERS`]: the page loads only its
//!   own scripts and styles, no other site may frame it, and no answer is sniffed as another
//!   type than it says.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

/// The server's own names and its body limit.
#[derive(Debug, Clone)]
pub(crate) struct Guard {
    /// Host names (without port), lowercase.
    pub hosts: Vec<String>,
    pub body_limit: usize,
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
    let mut hosts = request.headers().get_all(header::HOST).iter();
    if let (Some(_), Some(_)) = (hosts.next(), hosts.next()) {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "the request has more than one Host header: send exactly one, naming this server",
        )
        .into_response();
    }
    if let Some(host) = request.headers().get(header::HOST) {
        if !host
            .to_str()
            .is_ok_and(|h| !h.trim().is_empty() && guard.allows(h))
        {
            let shown = moo_core::text::excerpt(&String::from_utf8_lossy(host.as_bytes()));
            return ApiError::new(
                StatusCode::MISDIRECTED_REQUEST,
                format!(
                    "this server does not answer to the host name {shown:?}: open it as localhost or 127.0.0.1, or start it with `moo serve --allow-host NAME`"
                ),
            )
            .into_response();
        }
    }
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > guard.body_limit as u64) {
        return ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is larger than this server's limit of {} bytes: send a shorter history",
                guard.body_limit
            ),
        )
        .into_response();
    }
    let response = next.run(request).await;
    if !(response.status().is_client_error() || response.status().is_server_error()) {
        return response;
    }
    let json = HeaderValue::from_static("application/json");
    if response.headers().get(header::CONTENT_TYPE) == Some(&json) {
        return response;
    }
    rewrap(response).await
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
