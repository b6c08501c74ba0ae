//! Large answers (trees and their views), sent a piece at a time.
//!
//! hyper asks a body for its next piece only once it has written the last one, so an answer
//! split into pieces is held by its body, with its room in the answer budget, until its client
//! has read it, and no longer: the room is given back when the body is dropped, which is when
//! the last piece is taken or the connection closes. A client that does not read its answer
//! within the server's request time limit has its connection closed, so an unread answer
//! cannot hold memory either.

use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use http_body::Frame;

use crate::conns::Conn;
use crate::heavy::AnswerRoom;

/// How much of an answer goes in one piece.
const PIECE: usize = 64 << 10;

/// A JSON answer sent in pieces, holding its room until it is sent.
struct Pieces {
    rest: Bytes,
    _room: AnswerRoom,
    /// Alive as long as the answer is unsent: its watchdog closes the connection if it still
    /// is at the deadline.
    _unsent: Arc<()>,
}

impl http_body::Body for Pieces {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.rest.is_empty() {
            return Poll::Ready(None);
        }
        let n = self.rest.len().min(PIECE);
        let piece = self.rest.split_to(n);
        Poll::Ready(Some(Ok(Frame::data(piece))))
    }

    fn is_end_stream(&self) -> bool {
        self.rest.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.rest.len() as u64)
    }
}

/// `json` as a 200 answer sent in pieces; `conn` is closed if the answer is still unsent after
/// `deadline`.
pub(crate) fn json_in_pieces(
    json: String,
    room: AnswerRoom,
    conn: Option<Arc<Conn>>,
    deadline: Duration,
) -> Response {
    let unsent = Arc::new(());
    if let Some(conn) = conn {
        let watched = Arc::downgrade(&unsent);
        tokio::spawn(async move {
            tokio::time::sleep(deadline).await;
            if watched.upgrade().is_some() {
                conn.close();
            }
        });
    }
    let body = Pieces {
        rest: Bytes::from(json),
        _room: room,
        _unsent: unsent,
    };
    (
        [(header::CONTENT_TYPE, "application/json")],
        Body::new(body),
    )
        .into_response()
}
