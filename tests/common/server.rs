//! The real `moo serve` on a free port, for tests that talk to it over TCP.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

/// `moo serve --port 0`, killed when dropped.
pub struct Server {
    child: Child,
    /// The URL `moo serve` printed.
    pub url: String,
}

/// Starts `server` with its stdout piped and reads the first line it prints, the one that says
/// where it listens.
fn first_line(server: &mut Command) -> (Child, String) {
    let mut child = server
        .stdout(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("{server:?} does not start: {e}"));
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    (child, line)
}

impl Server {
    /// Starts the binary and waits for the URL it prints.
    pub fn start() -> Server {
        let (child, line) = first_line(
            Command::new(env!("CARGO_BIN_EXE_moo"))
                .args(["serve", "--port", "0"])
                .stderr(Stdio::inherit()),
        );
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .to_string();
        Server { child, url }
    }

    /// What serves the web pages under test: `moo serve`, or with `MOO_WEB_BACKEND=static` the
    /// static site built into `MOO_SITE_DIR` by `scripts/build-site.sh`, served by Python's
    /// plain static file server with no moo process running, so every page runs on the
    /// WebAssembly engine in its Web Worker.
    pub fn site() -> Server {
        match std::env::var("MOO_WEB_BACKEND").as_deref() {
            Ok("static") => Server::static_site(),
            Ok("server") | Err(_) => Server::start(),
            Ok(other) => panic!("MOO_WEB_BACKEND={other:?}: say server (the default) or static"),
        }
    }

    /// `python3 -m http.server` on a free port over `MOO_SITE_DIR`.
    fn static_site() -> Server {
        let dir = std::env::var("MOO_SITE_DIR").expect(
            "MOO_WEB_BACKEND=static needs MOO_SITE_DIR, the directory scripts/build-site.sh wrote",
        );
        assert!(
            std::path::Path::new(&dir).join("index.html").exists(),
            "{dir} holds no site: build it with scripts/build-site.sh {dir}"
        );
        let (child, line) = first_line(
            Command::new("python3")
                .args(["-u", "-m", "http.server", "0", "--bind", "127.0.0.1"])
                .arg("--directory")
                .arg(&dir)
                .stderr(Stdio::null()),
        );
        // "Serving HTTP on 127.0.0.1 port 40711 (http://127.0.0.1:40711/) ..."
        let port: u16 = line
            .split_whitespace()
            .skip_while(|w| *w != "port")
            .nth(1)
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {line:?}"));
        Server {
            child,
            url: format!("http://127.0.0.1:{port}/"),
        }
    }

    /// Whether the pages run on the static site's WebAssembly engine.
    pub fn is_static() -> bool {
        std::env::var("MOO_WEB_BACKEND").is_ok_and(|v| v == "static")
    }

    /// The server's process id, to read its memory from /proc.
    #[allow(dead_code)] // the load test's alone
    pub fn pid(&self) -> u32 {
        self.child.id()
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
