//! hyper's own refusals, answered as the server answers everything else.
//!
//! A request whose head cannot be parsed (400) or is too large (431) never reaches a service:
//! hyper writes the refusal itself, an empty body and none of the security headers, so the
//! client learns nothing of what was wrong. hyper has no hook for those answers, so the connection's writer spots them by the form only hyper
//! gives them (`connection: close` then `content-length: 0` straight after the status line; the
//! service's own answers carry a content type first) and sends in their place the same status
//! with the JSON error body and the headers of every other answer.

use std::io;
use std::pin::Pin;
use std::task::{ready, Context, Poll};

use moo_service::{ErrorCode, ServiceError};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::guard::SECURITY_HEADERS;

/// A connection's stream, hyper's own refusals replaced on the way out.
pub(crate) struct Dressed<S> {
    inner: S,
    /// The replacement answer still to send, and how much of it has been.
    pending: Vec<u8>,
    sent: usize,
}

impl<S> Dressed<S> {
    pub(crate) fn new(inner: S) -> Dressed<S> {
        Dressed {
            inner,
            pending: Vec::new(),
            sent: 0,
        }
    }
}

/// The form of a refusal hyper writes itself: its status line, then these two headers.
const BARE: &[u8] = b"\r\nconnection: close\r\ncontent-length: 0\r\n";

/// The answer to send in place of `head`, when it is one of hyper's own refusals.
fn dress(head: &[u8]) -> Option<Vec<u8>> {
    let line_end = head.windows(2).position(|w| w == b"\r\n")?;
    if !head.starts_with(b"HTTP/1.1 ") || !head[line_end..].starts_with(BARE) {
        return None;
    }
    let status_line = std::str::from_utf8(&head[..line_end]).ok()?;
    let status: u16 = status_line.get(9..12)?.parse().ok()?;
    let message = match status {
        400 => "the request is not well-formed HTTP/1.1: send a request line (GET /path HTTP/1.1), headers of the form Name: value, and a blank line",
        431 => "the request's headers are too large: send at most a few kilobytes of headers",
        _ => return None,
    };
    let body = ServiceError::new(status, ErrorCode::Invalid, message).to_json();
    let mut answer = format!(
        "{status_line}\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n",
        body.len()
    );
    for (name, value) in SECURITY_HEADERS {
        answer.push_str(&format!("{name}: {value}\r\n"));
    }
    answer.push_str("\r\n");
    answer.push_str(&body);
    Some(answer.into_bytes())
}

impl<S: AsyncWrite + Unpin> Dressed<S> {
    /// Sends what is left of a replacement answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &self.pending[self.sent..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += n;
        }
        Poll::Ready(Ok(()))
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Dressed<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Dressed<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        if let Some(answer) = dress(buf) {
            // hyper's whole refusal is taken; the replacement goes out from here and on flush.
            self.pending = answer;
            self.sent = 0;
            let _ = self.drain(cx)?;
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        ready!(self.drain(cx))?;
        if let Some(first) = bufs.iter().find(|b| !b.is_empty()) {
            if dress(first).is_some() {
                return self.poll_write(cx, first);
            }
        }
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        ready!(self.drain(cx))?;
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hypers_refusals_are_dressed_and_the_services_answers_are_not() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\ncontent-length: 0\r\ndate: x\r\n\r\n";
        let dressed = String::from_utf8(dress(bare).expect("a refusal")).unwrap();
        assert!(dressed.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        assert!(dressed.contains("x-content-type-options: nosniff\r\n"));
        let (head, body) = dressed.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}\r\n", body.len())));
        assert!(body.contains(r#""code":"invalid""#), "{body}");
        // The service's own answers name their content type first.
        let own = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
        assert!(dress(own).is_none());
        assert!(
            dress(b"HTTP/1.1 200 OK\r\nconnection: close\r\ncontent-length: 0\r\n\r\n").is_none()
        );
    }
}
