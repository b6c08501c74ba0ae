//! Service errors: a status, a machine-readable code and a message, sent as
//! `{"error": "...", "code": "..."}` by both transports.
//!
//! Every failure a client can cause maps to a 4xx with a message that says what to change. A
//! page acts on the code, never on the message's words, which may be reworded at any time.

use moo_core::{EvalError, StrategyError};
use serde::Serialize;

/// What went wrong, for a program to act on; the message says it for people.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// The body is not JSON, or not JSON of the right shape (a wrong or missing field).
    BadRequest,
    /// The body is larger than the route accepts.
    TooLarge,
    /// No route has this path.
    NoSuchRoute,
    /// The route exists but takes another method.
    WrongMethod,
    /// No live game has this id: it expired, the server restarted, or the in-browser engine
    /// was restarted after a cancel; the page replays the game from its link.
    NoSuchGame,
    /// The game is over, or out of turns, or given up: the request does not apply to it.
    GameOver,
    /// A value the request carries is not acceptable (rules, a code, a feedback, a seed, a
    /// strategy, a tree); the message names it.
    Invalid,
    /// The rules ask for more codes than this feature handles.
    SpaceTooLarge,
    /// The answer would be larger than the service sends (a tree's view with too many nodes):
    /// the same request will be refused again.
    AnswerTooLarge,
    /// The work did not finish within its time limit, or the service is too busy: the same
    /// request may succeed later.
    Busy,
    /// The client cancelled the work.
    Cancelled,
    /// The request's Host header is not one this server answers to.
    WrongHost,
    /// A fault of the service's own; please report the request.
    Internal,
    /// The in-browser engine needs shipped trees it was built without (listed in the answer's
    /// `trees`): the static site's worker fetches them from `trees/`, gives them to the engine
    /// and asks again. Never answered natively, where the trees are compiled in.
    NeedsTrees,
}

/// An error answered to a client of the service.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct ServiceError {
    /// The HTTP status it is answered with (the WebAssembly transport carries it too).
    pub status: u16,
    /// What went wrong, for programs.
    pub code: ErrorCode,
    /// What went wrong and what to do about it, for people.
    pub message: String,
    /// With [`ErrorCode::NeedsTrees`], the files of the shipped trees needed.
    pub trees: Vec<String>,
}

/// The JSON body of every error answer.
#[derive(Debug, Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
    code: ErrorCode,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    trees: &'a [String],
}

impl ServiceError {
    /// An error with any status and code.
    pub fn new(status: u16, code: ErrorCode, message: impl Into<String>) -> ServiceError {
        ServiceError {
            status,
            code,
            message: message.into(),
            trees: Vec::new(),
        }
    }

    /// 422 [`ErrorCode::Invalid`]: the request is well formed but a value is not acceptable.
    pub fn invalid(message: impl Into<String>) -> ServiceError {
        ServiceError::new(422, ErrorCode::Invalid, message)
    }

    /// 400 [`ErrorCode::BadRequest`]: the body is not the JSON the route takes.
    pub fn bad_request(message: impl Into<String>) -> ServiceError {
        ServiceError::new(400, ErrorCode::BadRequest, message)
    }

    /// 404 with `code`: no such thing.
    pub fn not_found(code: ErrorCode, message: impl Into<String>) -> ServiceError {
        ServiceError::new(404, code, message)
    }

    /// 409 [`ErrorCode::GameOver`]: the game's state does not allow the request.
    pub fn conflict(message: impl Into<String>) -> ServiceError {
        ServiceError::new(409, ErrorCode::GameOver, message)
    }

    /// 503 [`ErrorCode::Busy`]: too busy or too slow; the client may retry.
    pub fn unavailable(message: impl Into<String>) -> ServiceError {
        ServiceError::new(503, ErrorCode::Busy, message)
    }

    /// 500 [`ErrorCode::Internal`].
    pub fn internal(message: impl Into<String>) -> ServiceError {
        ServiceError::new(500, ErrorCode::Internal, message)
    }

    /// The error as its JSON answer.
    pub fn to_json(&self) -> String {
        serde_json::to_string(&ErrorBody {
            error: &self.message,
            code: self.code,
            trees: &self.trees,
        })
        .expect("an error body serialises")
    }

    /// An evaluation of `what` (say "the benchmark") that did not finish: 503 when it was
    /// stopped, since the same request may succeed later; 422 when the strategy or the rules
    /// are the problem.
    pub(crate) fn from_eval(error: EvalError, what: &str) -> ServiceError {
        match error {
            EvalError::DeadlinePassed => ServiceError::unavailable(format!(
                "{what} took longer than the server's time limit: try smaller rules"
            )),
            EvalError::Cancelled => {
                ServiceError::new(503, ErrorCode::Cancelled, format!("{what} was cancelled"))
            }
            EvalError::Strategy(e) => strategy_error(e),
            other => ServiceError::invalid(other.to_string()),
        }
    }
}

/// A strategy that cannot play, said for the web: its reason may go on with what to type at
/// the command line ("build one with `moo tree build` ... and use --strategy tree:..."), which
/// a web user cannot do, so only the reason's first clause is kept.
pub(crate) fn strategy_error(error: StrategyError) -> ServiceError {
    match error {
        StrategyError::Unsupported {
            name,
            rules,
            reason,
        } => ServiceError::invalid(format!(
            "strategy {name:?} cannot play {rules} on this server: {}",
            reason.split(';').next().unwrap_or_default()
        )),
        other => ServiceError::invalid(other.to_string()),
    }
}

/// A body's JSON error in words for people: no parser positions, no Rust type names; a wrong
/// value is named by its `path` in the body (`history[2].feedback`), as `moo serve` names it.
pub fn body_error(error: &serde_json::Error, path: Option<&str>) -> ServiceError {
    use serde_json::error::Category;
    let text = plain(&error.to_string());
    let text = match path {
        Some(path) if path != "." => format!("{path}: {text}"),
        _ => text,
    };
    match error.classify() {
        Category::Data => ServiceError::new(
            422,
            ErrorCode::BadRequest,
            format!("the request body has a wrong field: {text}"),
        ),
        _ => ServiceError::bad_request(format!("the request body is not valid JSON: {text}")),
    }
}

/// serde_json's message without what only a programmer can use: "at line 1 column 74" and the
/// names of Rust types ("expected struct NewGame").
pub fn plain(message: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn an_error_answers_with_its_message_and_code() {
        let e = ServiceError::conflict("this game is over");
        assert_eq!(
            e.to_json(),
            r#"{"error":"this game is over","code":"game_over"}"#
        );
    }
}
