//! The real `moo serve` on a free port, for tests that talk to it over TCP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// `moo serve --port 0`, killed when dropped.
pub struct Server {
    child: Child,
    /// The URL `moo serve` printed.
    pub url: String,
}

impl Server {
    /// Starts the binary and waits for the URL it prints.
    pub fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_moo"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("moo serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Server { child, url }
    }

    /// The port the server listens on.
    pub fn port(&self) -> u16 {
        let rest = self.url.trim_start_matches("http://127.0.0.1:");
        rest.trim_end_matches('/').parse().unwrap()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
