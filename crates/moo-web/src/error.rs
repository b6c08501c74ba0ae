//! API errors: a status code and a message, sent as `{"error": "..."}`.
//!
//! Every failure a client can cause maps to a 4xx with a message that says what to change; the
//! axum extractors' own rejections (malformed JSON, wrong content type, body too large) are
//! rewrapped so they answer in the same JSON shape.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use moo_core::{EvalError, StrategyError};
use serde::de::DeserializeOwned;
use std::sync::Arc;

use crate::AppState;

/// An error answered to an API client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What went wrong and what to do about it.
    pub message: String,
}

impl ApiError {
    /// An error with any status.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 422: the request is well formed but its values are not acceptable.
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 404: no such thing.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 503: the server is too busy; the client may retry.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// An evaluation of `what` (say "the benchmark") that did not finish: 503 when it was
    /// stopped, since the same request may succeed on a less busy server; 422 when the strategy
    /// or the rules are the problem.
    pub(crate) fn from_eval(error: EvalError, what: &str) -> ApiError {
        match error {
            EvalError::DeadlinePassed => ApiError::unavailable(format!(
                "{what} took longer than the server's time limit: try smaller rules"
            )),
            EvalError::Cancelled => ApiError::unavailable(format!("{what} was cancelled")),
            EvalError::Strategy(e) => strategy_error(e),
            other => ApiError::unprocessable(other.to_string()),
        }
    }
}

/// A strategy that cannot play, said for the web: its reason may go on with what to type at
/// the command line ("build one with `moo tree build` ... and use --strategy tree:..."), which
/// a web user cannot do, so only the reason's first clause is kept.
pub(crate) fn strategy_error(error: StrategyError) -> ApiError {
    match error {
        StrategyError::Unsupported {
            name,
            rules,
            reason,
        } => ApiError::unprocessable(format!(
            "strategy {name:?} cannot play {rules} on this server: {}",
            reason.split(';').next().unwrap_or_default()
        )),
        other => ApiError::unprocessable(other.to_string()),
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            axum::Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

impl ApiError {
    /// The extractor's rejection of a body, in words for people: no parser positions, no Rust
    /// type names; `body_limit` is the server's size limit, to say it.
    fn from_rejection(rejection: JsonRejection, body_limit: usize) -> ApiError {
        let status = rejection.status();
        let message = match rejection {
            JsonRejection::MissingJsonContentType(_) => {
                "send the request body as JSON with the header Content-Type: application/json"
                    .to_string()
            }
            JsonRejection::JsonSyntaxError(e) => {
                format!("the request body is not valid JSON: {}", plain(&source_text(&e)))
            }
            JsonRejection::JsonDataError(e) => {
                format!("the request body has a wrong field: {}", plain(&source_text(&e)))
            }
            _ if status == StatusCode::PAYLOAD_TOO_LARGE => format!(
                "the request body is larger than this server's limit of {} bytes: send a shorter history",
                body_limit
            ),
            other => other.body_text(),
        };
        ApiError::new(status, message)
    }
}

/// serde_json's message without what only a programmer can use: "at line 1 column 74" and the
/// names of Rust types ("expected struct NewGame").
fn plain(message: &str) -> String {
    let message = match message.rfind(" at line ") {
        Some(i) if message[i..].contains(" column ") => &message[..i],
        _ => message,
    };
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("struct ") {
        out.push_str(&rest[..i]);
        let after = &rest[i + "struct ".len()..];
        let name_end = after
            .find(|c: char| !c.is_alphanumeric() && c != '_')
            .unwrap_or(after.len());
        out.push_str("a JSON object");
        rest = &after[name_end..];
    }
    out.push_str(rest);
    out
}

/// The innermost cause of an extractor error, which is the part that names the field.
fn source_text(e: &dyn std::error::Error) -> String {
    let mut cause: &dyn std::error::Error = e;
    while let Some(next) = cause.source() {
        cause = next;
    }
    cause.to_string()
}

/// A JSON body whose rejection answers as an [`ApiError`].
pub(crate) struct ApiJson<T>(pub T);

impl<T> FromRequest<Arc<AppState>> for ApiJson<T>
where
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(e) => Err(ApiError::from_rejection(e, state.config.body_limit)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::plain;

    #[test]
    fn parser_positions_and_type_names_are_left_out() {
        assert_eq!(
            plain("invalid type: string \"x\", expected struct NewGame at line 1 column 74"),
            "invalid type: string \"x\", expected a JSON object"
        );
        assert_eq!(
            plain(
                "unknown field `histroy`, expected one of `rules`, `history` at line 1 column 10"
            ),
            "unknown field `histroy`, expected one of `rules`, `history`"
        );
    }
}
