//! Requests hyper refuses before any route sees them, sent as raw bytes to a real listener: they
//! are answered as every other refusal is, with the JSON error and the security headers.

use std::io::{Read, Write};
use std::net::TcpStream;

/// Starts the server on a free loopback port, on a runtime of its own, and returns the port.
fn start() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let listener = tokio::net::TcpListener::from_std(listener).unwrap();
            moo_web::serve(listener, moo_web::Config::default())
                .await
                .unwrap();
        });
    });
    port
}

/// Sends `request` and reads the whole answer (the server closes after a refusal).
fn exchange(port: u16, request: &[u8]) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(10)))
        .unwrap();
    // A head too large is refused before it is all read: the rest may meet a closed socket.
    let _ = stream.write_all(request);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    String::from_utf8_lossy(&answer).into_owned()
}

fn assert_dressed(answer: &str, status: &str, needle: &str) {
    let (head, body) = answer.split_once("\r\n\r\n").expect(answer);
    assert!(head.starts_with(&format!("HTTP/1.1 {status}")), "{head}");
    assert!(
        head.contains("content-type: application/json\r\n"),
        "{head}"
    );
    for header in [
        "content-security-policy: ",
        "x-frame-options: DENY",
        "x-content-type-options: nosniff",
        "referrer-policy: no-referrer",
    ] {
        assert!(head.contains(header), "{header} missing: {head}");
    }
    let value: serde_json::Value = serde_json::from_str(body).expect(body);
    assert_eq!(value["code"], "invalid", "{body}");
    assert!(value["error"].as_str().unwrap().contains(needle), "{body}");
}

#[test]
fn requests_hyper_refuses_get_the_servers_own_answers() {
    let port = start();
    // Wait for the listener's accept loop: a request sent before would still be queued, but a
    // failure to start must show as that, not as a refusal.
    assert!(exchange(
        port,
        b"GET /api/presets HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .starts_with("HTTP/1.1 200"));
    assert_dressed(
        &exchange(port, b"GARBAGE\r\n\r\n"),
        "400",
        "not well-formed",
    );
    let mut huge = b"GET / HTTP/1.1\r\nHost: localhost\r\nX-Padding: ".to_vec();
    huge.extend(std::iter::repeat_n(b'a', 1 << 20));
    huge.extend(b"\r\n\r\n");
    assert_dressed(&exchange(port, &huge), "431", "headers are too large");
    // The service's own refusals keep their form: a wrong Host is the guard's 421.
    let wrong_host = exchange(
        port,
        b"GET / HTTP/1.1\r\nHost: example.com\r\nConnection: close\r\n\r\n",
    );
    assert!(wrong_host.starts_with("HTTP/1.1 421"), "{wrong_host}");
    assert!(
        wrong_host.contains("\"code\":\"wrong_host\""),
        "{wrong_host}"
    );
}
