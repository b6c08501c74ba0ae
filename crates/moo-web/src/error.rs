//! API errors: a status, a code and a message, sent as `{"error": "...", "code": "..."}`.
//!
//! Every failure a client can cause maps to a 4xx with a message that says what to change; the
//! axum extractors' own rejections (malformed JSON, wrong content type, body too large) are
//! rewrapped so they answer in the same JSON shape.

use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use moo_service::{plain, ErrorCode, ServiceError};
use serde::de::DeserializeOwned;
use std::sync::Arc;

use crate::AppState;

/// An error answered to an API client: the service's own, or one of the transport's (a Host,
/// a body, a time limit).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(transparent)]
pub struct ApiError(pub ServiceError);

impl From<ServiceError> for ApiError {
    fn from(error: ServiceError) -> ApiError {
        ApiError(error)
    }
}

impl ApiError {
    /// An error with any status, its code the one that status stands for here.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        let code = match status {
            StatusCode::BAD_REQUEST => ErrorCode::BadRequest,
            StatusCode::NOT_FOUND => ErrorCode::NoSuchRoute,
            StatusCode::METHOD_NOT_ALLOWED => ErrorCode::WrongMethod,
            StatusCode::CONFLICT => ErrorCode::GameOver,
            StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
            StatusCode::MISDIRECTED_REQUEST => ErrorCode::WrongHost,
            StatusCode::UNPROCESSABLE_ENTITY => ErrorCode::Invalid,
            StatusCode::REQUEST_TIMEOUT | StatusCode::SERVICE_UNAVAILABLE => ErrorCode::Busy,
            s if s.is_client_error() => ErrorCode::BadRequest,
            _ => ErrorCode::Internal,
        };
        ApiError(ServiceError::new(status.as_u16(), code, message))
    }

    /// 503: the server is too busy; the client may retry.
    pub fn unavailable(message: impl Into<String>) -> ApiError {
        ApiError(ServiceError::unavailable(message))
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(self.0.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status(),
            [(axum::http::header::CONTENT_TYPE, "application/json")],
            self.0.to_json(),
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
        let mut error = ApiError::new(status, message);
        if status != StatusCode::PAYLOAD_TOO_LARGE {
            // A body of the wrong shape is a bad request whatever its status says.
            error.0.code = ErrorCode::BadRequest;
        }
        error
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

impl<T> FromRequest<Arc<AppState>> for ApiJson<T>
where
    T: DeserializeOwned,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        match axum::Json::<T>::from_request(req, state).await {
            Ok(axum::Json(value)) => Ok(ApiJson(value)),
            Err(e) => Err(ApiError::from_rejection(e, state.config.service.body_limit)),
        }
    }
}

/// A JSON body kept as text, for a route that reads it on a worker: the content type is
/// checked as [`ApiJson`] checks it.
pub(crate) struct ApiText(pub String);

impl FromRequest<Arc<AppState>> for ApiText {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &Arc<AppState>) -> Result<Self, Self::Rejection> {
        let essence = req
            .headers()
            .get(axum::http::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| {
                v.split(';')
                    .next()
                    .unwrap_or_default()
                    .trim()
                    .to_ascii_lowercase()
            })
            .unwrap_or_default();
        let json = essence
            .strip_prefix("application/")
            .is_some_and(|sub| sub == "json" || sub.ends_with("+json"));
        if !json {
            return Err(ApiError(ServiceError::bad_request(
                "send the request body as JSON with the header Content-Type: application/json",
            ))
            .with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        }
        let bytes = axum::body::Bytes::from_request(req, state)
            .await
            .map_err(|e| ApiError::new(e.status(), e.body_text()))?;
        String::from_utf8(bytes.to_vec()).map(ApiText).map_err(|_| {
            ApiError(ServiceError::bad_request(
                "the request body is not valid JSON: it is not UTF-8 text",
            ))
        })
    }
}

impl ApiError {
    /// The error answered with another status.
    fn with_status(mut self, status: StatusCode) -> ApiError {
        self.0.status = status.as_u16();
        self
    }
}
