//! API errors: a status code and a message, sent as `{"error": "..."}`.
//!
//! Every failure a client can cause maps to a 4xx with a message that says what to change; the
//! axum extractors' own rejections (malformed JSON, wrong content type, body too large) are
//! rewrapped so they answer in the same JSON shape.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use moo_core::EvalError;
use serde::de::DeserializeOwned;

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

    /// 400: the request is malformed.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
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
            other => ApiError::unprocessable(other.to_string()),
        }
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

impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> ApiError {
        let status = rejection.status();
        let message = match rejection {
            JsonRejection::MissingJsonContentType(_) => {
                "send the request body as JSON with the header Content-Type: application/json"
                    .to_string()
            }
            JsonRejection::JsonSyntaxError(e) => {
                format!("the request body is not valid JSON: {}", source_text(&e))
            }
            JsonRejection::JsonDataError(e) => {
                format!("the request body has a wrong field: {}", source_text(&e))
            }
            other => {
                let text = other.body_text();
                if status == StatusCode::PAYLOAD_TOO_LARGE {
                    format!("the request body is too large: {text}")
                } else {
                    text
                }
            }
        };
        ApiError::new(status, message)
    }
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

impl<S, T> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let axum::Json(value) = axum::Json::<T>::from_request(req, state).await?;
        Ok(ApiJson(value))
    }
}
