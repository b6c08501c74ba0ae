//! Fair service, in process: answers bounded in size, bodies held to their
//! route's limit however they are sent, and large uploads sharing a memory budget.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use serde_json::Value;
use tower::ServiceExt;

/// The optimal Bulls and Cows tree, as the Explorer uploads it: `{"tree": ...}`, about 200 KB.
fn bulls_upload() -> String {
    let tree = include_str!("../../moo-core/trees/bulls-4x10-average.json");
    format!(r#"{{"tree":{tree}}}"#)
}

async fn answer(response: axum::response::Response) -> (StatusCode, Value, usize) {
    let status = response.status();
    let bytes = axum::body::to_bytes(response.into_body(), 1 << 30)
        .await
        .unwrap();
    let value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    (status, value, bytes.len())
}

/// The failure reported: a 50-byte request built a 128 MB answer. A view too large to send is
/// refused, with a code the page can act on, before anything large is written.
#[tokio::test]
async fn a_view_too_large_to_send_is_refused_with_a_small_answer() {
    let app = moo_web::router(moo_web::Config::default());
    let request = Request::post("/api/trees/view")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(
            r#"{"preset":"mastermind","strategy":"enumerate"}"#,
        ))
        .unwrap();
    let (status, value, bytes) = answer(app.oneshot(request).await.unwrap()).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{bytes} bytes");
    assert_eq!(value["code"], "answer_too_large", "{value}");
    assert!(bytes < 1000, "{bytes} bytes");
}

/// The Explorer's upload of a tree file, declared with its length as browsers send it, is held
/// to the upload limit of its route, not refused by the early check of the usual limit; and
/// past the route's limit, a body is refused whether it is declared or sent in chunks.
#[tokio::test]
async fn a_tree_upload_is_held_to_its_route_limit_however_it_is_sent() {
    let app = moo_web::router(moo_web::Config::default());
    let upload = bulls_upload();
    assert!(upload.len() > moo_web::Config::default().service.body_limit);
    let request = Request::post("/api/trees/view")
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::CONTENT_LENGTH, upload.len())
        .body(Body::from(upload))
        .unwrap();
    let (status, value, _) = answer(app.clone().oneshot(request).await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert_eq!(value["stats"]["secrets"], 5040);
    // 9 MiB in 64 KiB chunks with no declared length: refused once the count passes 8 MiB.
    let chunks = (0..144).map(|_| Ok::<_, std::io::Error>(vec![b' '; 64 << 10]));
    let request = Request::post("/api/trees/view")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from_stream(futures_like::iter(chunks)))
        .unwrap();
    let (status, value, _) = answer(app.oneshot(request).await.unwrap()).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{value}");
    assert_eq!(value["code"], "too_large", "{value}");
}

/// A tree of one symbol of `symbols`, guessed in order: as deep as it has symbols.
fn chain_tree(symbols: &str) -> String {
    let mut node = String::new();
    for (i, s) in symbols.chars().rev().enumerate() {
        node = if i == 0 {
            format!(r#"{{"guess":"{s}"}}"#)
        } else {
            format!(r#"{{"guess":"{s}","children":{{"0B0C":{node}}}}}"#)
        };
    }
    format!(
        r#"{{"tree":{{"rules":{{"length":1,"symbols":"{symbols}","repeats":false,"no_leading":false}},"root":{node}}}}}"#
    )
}

async fn view(app: axum::Router, body: String) -> (StatusCode, Value, usize) {
    let request = Request::post("/api/trees/view")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body))
        .unwrap();
    answer(app.oneshot(request).await.unwrap()).await
}

/// An uploaded tree is read by the tree's own parser, with the depth cap of `moo tree verify`,
/// not first as generic JSON, whose limit of 128 levels refused a tree of 64 guesses (64
/// symbols of length 1, which moo writes itself); a tree nested past the cap is refused by the
/// cap, without overflowing a stack.
#[tokio::test]
async fn an_uploaded_tree_is_read_with_the_depth_cap_of_tree_verify() {
    let app = moo_web::router(moo_web::Config::default());
    let symbols = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ!#";
    assert_eq!(symbols.len(), 64);
    let (status, value, _) = view(app.clone(), chain_tree(symbols)).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert_eq!(value["stats"]["max"], 64);
    // 30000 levels of nesting, past the cap of 20000 guesses.
    let deep = format!(
        r#"{{"tree":{{"rules":{{"length":1,"symbols":"ab","repeats":false,"no_leading":false}},"root":{}{{"guess":"b"}}{}}}}}"#,
        r#"{"guess":"a","children":{"0B0C":"#.repeat(30_000),
        "}}".repeat(30_000)
    );
    let (status, value, _) = view(app, deep).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{value}");
    assert!(
        value["error"].as_str().unwrap().contains("nests"),
        "{value}"
    );
}

/// The failure reported: 600 chunked uploads held 4.4 GB. Uploads past the usual body limit
/// take their room in a shared budget before they are read: with the budget full of uploads
/// that are still arriving, the next ones are answered 503 at once instead of being buffered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn large_uploads_share_a_memory_budget() {
    let config = moo_web::Config::default();
    let app = moo_web::router(config);
    let mut senders = Vec::new();
    let mut answers = Vec::new();
    // 40 chunked uploads (up to 8 MiB each) that send one piece and then wait: 320 MiB, far
    // past the default budget of 64 MiB.
    for _ in 0..40 {
        let (send, receive) = tokio::sync::mpsc::channel::<Result<Vec<u8>, std::io::Error>>(1);
        send.send(Ok(b"{\"tree\": ".to_vec())).await.unwrap();
        let request = Request::post("/api/trees/view")
            .header(header::CONTENT_TYPE, "application/json")
            .body(Body::from_stream(futures_like::channel(receive)))
            .unwrap();
        let app = app.clone();
        answers.push(tokio::spawn(async move {
            let start = Instant::now();
            let response = app.oneshot(request).await.unwrap();
            (response.status(), start.elapsed())
        }));
        senders.push(send);
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut refused = 0;
    for answer in answers {
        if answer.is_finished() {
            let (status, took) = answer.await.unwrap();
            assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
            assert!(took < Duration::from_secs(1), "{took:?}");
            refused += 1;
        }
    }
    assert!(
        refused >= 30,
        "only {refused} of 40 large uploads were refused"
    );
    drop(senders);
}

/// Streams from an iterator and from a channel, without another dependency.
mod futures_like {
    use std::pin::Pin;
    use std::task::{Context, Poll};

    pub struct Iter<I>(I);

    pub fn iter<I: Iterator + Unpin>(items: I) -> Iter<I> {
        Iter(items)
    }

    impl<I: Iterator + Unpin> futures_core::Stream for Iter<I> {
        type Item = I::Item;
        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<I::Item>> {
            Poll::Ready(self.0.next())
        }
    }

    pub struct Channel<T>(tokio::sync::mpsc::Receiver<T>);

    pub fn channel<T>(receive: tokio::sync::mpsc::Receiver<T>) -> Channel<T> {
        Channel(receive)
    }

    impl<T> futures_core::Stream for Channel<T> {
        type Item = T;
        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
            self.0.poll_recv(cx)
        }
    }
}
