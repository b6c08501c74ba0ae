//! `moo serve` end to end: the real binary on a free port, its web pages driven through headless
//! Chromium by WebDriver. The JSON API's own tests run the router in process, in
//! `crates/moo-web/tests/`.
//!
//! The browser tests need Debian's `chromium` and `chromium-driver` (installed by `.ci/run`).
//! Without them they fail when `CI=true` or `MOO_REQUIRE_BROWSER=1`, and are skipped otherwise,
//! with a warning on stderr that the test harness does not capture. They write
//! screenshots under `target/tmp/web-screenshots/`.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::{Client, ClientBuilder, Locator};
use moo_core::strategy::{self, StrategyOptions};
use moo_core::{CodeSpace, Rules};
use serde_json::{json, Value};

#[path = "common/require.rs"]
mod require;
#[path = "common/server.rs"]
mod server;
use server::Server;
/// The figures the pages must show, from the router tests' helpers.
#[path = "../crates/moo-web/tests/common/mod.rs"]
mod api;
use api::{simple_totals, thousands};

// ---- the real binary -----------------------------------------------------------------------

#[test]
fn serve_prints_the_real_port_and_answers_there() {
    let server = Server::start();
    assert_ne!(server.port(), 0, "{}", server.url);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port())).unwrap();
    write!(
        stream,
        "GET /api/strategies HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    assert!(response.contains("\"simple\""), "{response}");
}

// ---- headless Chromium ---------------------------------------------------------------------

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";

/// One browser at a time: two cores are shared with the compiler and the other tests.
static BROWSER_LOCK: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The chromedriver process, killed when dropped, so a failing test leaves no driver behind.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// chromedriver with a fresh Chromium profile.
struct Browser {
    driver: Driver,
    /// chromedriver's port, for the commands fantoccini does not speak (network emulation).
    port: u16,
    client: Client,
    _profile: tempfile::TempDir,
}

impl Browser {
    /// `None` (after saying so loudly) when Chromium is not installed; a failure instead under
    /// `CI=true` or `MOO_REQUIRE_BROWSER=1`.
    async fn start() -> Option<Browser> {
        Browser::start_with(&[]).await
    }

    /// [`Browser::start`] with more Chromium flags.
    async fn start_with(extra: &[&str]) -> Option<Browser> {
        if !Path::new(CHROMIUM).exists() || !Path::new(CHROMEDRIVER).exists() {
            let why = format!("{CHROMIUM} or {CHROMEDRIVER} is missing: apt-get install -y chromium chromium-driver");
            require::missing(
                "the browser tests of tests/web.rs",
                "MOO_REQUIRE_BROWSER",
                &why,
            );
            return None;
        }
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Driver(
            Command::new(CHROMEDRIVER)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                Instant::now() < deadline,
                "chromedriver did not listen on {port}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let profile = tempfile::tempdir().unwrap();
        let mut args: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-dev-shm-usage",
            "--window-size=1280,900",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        args.push(format!("--user-data-dir={}", profile.path().display()));
        args.extend(extra.iter().map(|a| a.to_string()));
        let caps = json!({
            "goog:chromeOptions": { "binary": CHROMIUM, "args": args }
        });
        let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
            .capabilities(caps.as_object().unwrap().clone())
            .connect(&format!("http://127.0.0.1:{port}"))
            .await
            .expect("a WebDriver session with headless Chromium");
        Some(Browser {
            driver,
            port,
            client,
            _profile: profile,
        })
    }

    async fn js(&self, script: &str) -> Value {
        self.client.execute(script, vec![]).await.unwrap()
    }

    /// Runs `script`, which calls `done(value)` when it has its answer, and returns the value.
    async fn js_async(&self, script: &str) -> Value {
        let script = format!("const done = arguments[arguments.length - 1]; {script}");
        self.client.execute_async(&script, vec![]).await.unwrap()
    }

    /// Sets Chromium's network emulation offline, through chromedriver's own command.
    async fn go_offline(&self) {
        let session = self.client.session_id().await.unwrap().unwrap();
        let body = r#"{"network_conditions":{"offline":true,"latency":0,"download_throughput":0,"upload_throughput":0}}"#;
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        // The driver may keep the connection open: the status line is all that is needed.
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "POST /session/{session}/chromium/network_conditions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).unwrap();
        let head = String::from_utf8_lossy(&head);
        assert!(head.ends_with(" 200"), "chromedriver answered {head:?}");
    }

    /// Opens `url` and waits until the page is ready.
    async fn open(&self, url: &str) {
        self.client.goto(url).await.unwrap();
        self.wait("document.body.dataset.ready").await;
    }

    /// Opens the page `page` of the site `server` serves (`play?g=bulls`: the part after `#`).
    async fn open_page(&self, server: &Server, page: &str) {
        self.open(&format!("{}#{page}", server.url)).await;
    }

    /// Opens the Play page on its default game, Bulls and Cows, and waits for its 5,040 codes.
    async fn open_play(&self, server: &Server) {
        self.open_page(server, "play").await;
        self.wait("document.querySelector('#play-info').textContent.includes('5,040')")
            .await;
    }

    /// Narrows the window to a phone's, 390 by 844.
    async fn phone(&self) {
        self.client.set_window_size(390, 844).await.unwrap();
    }

    /// Polls a JavaScript expression until it is truthy; returns its value.
    async fn wait(&self, expr: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let v = self.js(&format!("return {expr};")).await;
            let truthy =
                !matches!(&v, Value::Null | Value::Bool(false)) && v != json!("") && v != json!(0);
            if truthy {
                return v;
            }
            if Instant::now() > deadline {
                let body = self.js("return document.body.innerText;").await;
                panic!("timed out waiting for {expr}; the page says:\n{body}");
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    async fn click(&self, css: &str) {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap_or_else(|e| panic!("no {css}: {e}"))
            .click()
            .await
            .unwrap();
    }

    async fn text(&self, css: &str) -> String {
        self.client
            .find(Locator::Css(css))
            .await
            .unwrap()
            .text()
            .await
            .unwrap()
    }

    /// Saves a screenshot at desktop width and one at phone width, scrolled to `anchor`.
    async fn screenshots(&self, name: &str, anchor: &str) {
        let dir = screenshot_dir();
        for (label, w, h) in [("desktop", 1280, 900), ("phone", 390, 844)] {
            self.client.set_window_size(w, h).await.unwrap();
            tokio::time::sleep(Duration::from_millis(200)).await;
            self.js(&format!(
                "document.querySelector({anchor:?}).scrollIntoView({{block: 'start'}});"
            ))
            .await;
            let png = self.client.screenshot().await.unwrap();
            std::fs::write(dir.join(format!("{name}-{label}.png")), png).unwrap();
            let overflow = self
                .js("return document.documentElement.scrollWidth > window.innerWidth + 1;")
                .await;
            assert_eq!(overflow, json!(false), "{name} scrolls sideways at {w} px");
        }
        self.client.set_window_size(1280, 900).await.unwrap();
    }

    /// Ends the WebDriver session (closing Chromium), then the driver.
    async fn stop(self) {
        let Browser { driver, client, .. } = self;
        let _ = client.close().await;
        drop(driver);
    }
}

/// What most browser tests start with: the browser lock held (dropped last, with the test),
/// Chromium (`None` when it is missing, see [`Browser::start`]) and `moo serve` with the site.
async fn browser_on_site() -> Option<(tokio::sync::MutexGuard<'static, ()>, Browser, Server)> {
    browser_on_site_with(&[]).await
}

/// [`browser_on_site`] with more Chromium flags.
async fn browser_on_site_with(
    extra: &[&str],
) -> Option<(tokio::sync::MutexGuard<'static, ()>, Browser, Server)> {
    let one = BROWSER_LOCK.lock().await;
    let b = Browser::start_with(extra).await?;
    Some((one, b, Server::site()))
}

/// Chromium's flags for a page in dark mode.
const DARK: &[&str] = &[
    "--force-dark-mode",
    "--blink-settings=preferredColorScheme=0",
];

fn screenshot_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("web-screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Asks for hints up to the best guess (three levels), returning it.
async fn best_hint(b: &Browser) -> String {
    for level in 1..=3 {
        b.click("#hint-btn").await;
        if level == 1 {
            let remaining = b
                .wait("document.querySelector('#hint-out').dataset.remaining")
                .await;
            assert!(remaining.as_str().unwrap().parse::<usize>().unwrap() >= 1);
            let said = b.text("#hint-out").await;
            assert!(said.contains("still possible"), "{said}");
        }
        if level == 2 {
            let said = b.text("#hint-out").await;
            assert!(said.contains("Try a guess with"), "{said}");
        }
    }
    let guess = b
        .wait("document.querySelector('#hint-out').dataset.guess")
        .await;
    guess.as_str().unwrap().to_string()
}

/// Plays the best hint's guess with its button, turn after turn, until the game is won: the
/// turn of the win, or `None` if twelve guesses did not win.
async fn play_hints_to_the_win(b: &Browser) -> Option<usize> {
    for turn in 1..=12 {
        best_hint(b).await;
        b.click("#hint-play").await;
        b.wait(&format!(
            "document.querySelectorAll('#play-history tbody tr').length === {turn}"
        ))
        .await;
        let won = b
            .js("return document.querySelector('#play-status').classList.contains('win');")
            .await;
        if won == json!(true) {
            return Some(turn);
        }
    }
    None
}

/// The page runs on the back-end under test: the static site's pages ask the WebAssembly engine,
/// and nothing there answers the API over HTTP; `moo serve`'s pages ask the server.
async fn page_runs_on_the_backend_under_test(b: &Browser) {
    let backend = b
        .js("return document.querySelector('meta[name=\"moo-backend\"]').content;")
        .await;
    let api = b
        .js_async("fetch('api/presets').then((r) => done(r.status), () => done(0));")
        .await;
    if Server::is_static() {
        assert_eq!((backend, api), (json!("wasm"), json!(404)));
    } else {
        assert_eq!((backend, api), (json!("server"), json!(200)));
    }
}

/// The Play page's title, its light colours without a dark system setting, and the numeric
/// keypad its digits come from on phones.
async fn play_page_is_titled_light_and_numeric(b: &Browser) {
    page_runs_on_the_backend_under_test(b).await;
    assert_eq!(b.js("return document.title;").await, json!("Play · moo"));
    assert_eq!(
        b.js("return getComputedStyle(document.documentElement).backgroundColor;")
            .await,
        json!("rgb(247, 245, 239)")
    );
    assert_eq!(
        b.js("return document.querySelector('#guess-input').getAttribute('inputmode');")
            .await,
        json!("numeric")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_plays_a_game_to_the_win() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_play(&server).await;
    play_page_is_titled_light_and_numeric(&b).await;
    // A wrong code is refused with the library's message and costs no turn.
    let input = b.client.find(Locator::Css("#guess-input")).await.unwrap();
    input.send_keys("0012\u{E007}").await.unwrap();
    b.wait("document.querySelector('#play-status.error')?.textContent.includes(\"repeats '0'\")")
        .await;
    for turn in 1..=12 {
        let guess = best_hint(&b).await;
        if turn == 1 {
            b.screenshots("play-hint", "main").await;
        }
        // The best guess is played with one click.
        b.click("#hint-play").await;
        b.wait(&format!(
            "document.querySelectorAll('#play-history tbody tr').length === {turn}"
        ))
        .await;
        if turn == 1 {
            // The same guess again is explained and not counted.
            let input = b.client.find(Locator::Css("#guess-input")).await.unwrap();
            input.send_keys(&format!("{guess}\u{E007}")).await.unwrap();
            b.wait("document.querySelector('#play-status.error')?.textContent.includes('already guessed')")
                .await;
            assert_eq!(
                b.js("return document.querySelectorAll('#play-history tbody tr').length;")
                    .await,
                json!(1)
            );
            // A reload in the middle of the game brings the same game back, and it goes on.
            b.client.refresh().await.unwrap();
            b.wait("document.body.dataset.ready && document.querySelectorAll('#play-history tbody tr').length === 1 && document.querySelector('#play-status').textContent.includes('goes on')")
                .await;
            let row = b.text("#play-history tbody tr").await;
            assert!(row.contains(&guess), "{row}");
        }
        let won = b
            .js("return document.querySelector('#play-status').classList.contains('win');")
            .await;
        if won == json!(true) {
            let status = b.text("#play-status").await;
            assert!(status.contains(&format!("won in {turn} guess")), "{status}");
            assert!(status.contains(&guess), "{status}");
            // The focus goes to the win's headline, and every guess is reviewed.
            assert_eq!(
                b.js("return document.activeElement.id;").await,
                json!("play-win-title")
            );
            b.wait(&format!(
                "document.querySelectorAll('#play-review .review-table tbody tr').length === {turn}"
            ))
            .await;
            let review = b.text("#play-review").await;
            assert!(review.contains("best possible guess"), "{review}");
            b.screenshots("play-won", "#play-review").await;
            b.stop().await;
            return;
        }
    }
    panic!("twelve hinted guesses did not win");
}

/// The Play page against the adversary: it states the challenge, the best guesses take
/// exactly 7 against it (its answers proven the hardest), and the end shows a code that fits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_plays_against_the_adversary() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_play(&server).await;
    b.click("#play-adversary").await;
    b.wait("!document.querySelector('#play-challenge').hidden")
        .await;
    let challenge = b.text("#play-challenge").await;
    assert!(
        challenge.contains("win Bulls and Cows in 7 against it"),
        "{challenge}"
    );
    let turn = play_hints_to_the_win(&b)
        .await
        .expect("twelve hinted guesses did not win against the adversary");
    let status = b.text("#play-status").await;
    assert!(
        status.contains("A secret that fits every answer"),
        "{status}"
    );
    // A heuristic answer (the search out of time on a loaded machine) proves nothing.
    assert!(
        turn == 7 || status.contains("rule of thumb"),
        "won in {turn}: {status}"
    );
    b.screenshots("play-adversary", "main").await;
    b.stop().await;
}

/// The whole game from the keyboard: a typed first guess, then hints and their button.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_plays_from_the_keyboard_only() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "play").await;
    b.wait("document.activeElement.id === 'guess-input'").await;
    let keys = |k: &'static str| {
        let b = &b;
        async move {
            b.client
                .active_element()
                .await
                .unwrap()
                .send_keys(k)
                .await
                .unwrap();
        }
    };
    keys("0123\u{E007}").await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 1")
        .await;
    for turn in 2..=12 {
        if b.js("return document.querySelector('#play-status').classList.contains('win');")
            .await
            == json!(true)
        {
            break;
        }
        assert_eq!(
            b.js("return document.activeElement.id;").await,
            json!("guess-input")
        );
        // Tab past the Guess button and the keypad (one stop) to Hint; Enter three times for
        // the best guess, whose button takes the focus; Enter plays it.
        keys("\u{E004}\u{E004}\u{E004}").await;
        assert_eq!(
            b.js("return document.activeElement.id;").await,
            json!("hint-btn")
        );
        for level in 1..=3 {
            keys("\u{E007}").await;
            let wanted = if level < 3 { "Another hint" } else { "Hint" };
            b.wait(&format!(
                "document.querySelector('#hint-btn').textContent === '{wanted}' && document.querySelector('#hint-out').dataset.remaining"
            ))
            .await;
        }
        b.wait("document.activeElement.id === 'hint-play'").await;
        keys("\u{E007}").await;
        b.wait(&format!(
            "document.querySelectorAll('#play-history tbody tr').length === {turn}"
        ))
        .await;
        assert!(turn < 12, "twelve guesses did not win");
    }
    b.wait("document.querySelector('#play-status').classList.contains('win') && document.activeElement.id === 'play-win-title'")
        .await;
    // The win's first action is the next game: Tab to it, Enter starts it (a finished game
    // needs no question).
    keys("\u{E004}").await;
    assert_eq!(
        b.js("return document.activeElement.id;").await,
        json!("play-win-new")
    );
    keys("\u{E007}").await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 0 && document.activeElement.id === 'guess-input'")
        .await;
    b.stop().await;
}

/// The Solver page's status once its request is answered: "guess", "solved", "contradiction".
const SOLVER_STATUS: &str = "document.querySelector('#solver-status').dataset.status";

/// Waits until the Solver page shows the guess of turn `turn` (or the game ended), returning the
/// status.
async fn solver_settles(b: &Browser, turn: usize) -> String {
    b.wait(&format!(
        "{SOLVER_STATUS} !== 'busy' && ({SOLVER_STATUS} !== 'guess' || document.querySelector('#solver-turn').textContent === '{turn}') && {SOLVER_STATUS}"
    ))
    .await
    .as_str()
    .unwrap()
    .to_string()
}

/// An answer that fits no code: the page names the answers that, changed, fix it, and undo
/// takes the game back.
async fn solver_names_the_repairs_of_a_contradiction(b: &Browser) {
    b.js("document.querySelector('#other-buttons button').click();")
        .await;
    assert_eq!(solver_settles(b, 3).await, "contradiction");
    let repairs = b.text("#repairs").await;
    assert!(repairs.contains("Turn 2:"), "{repairs}");
    b.screenshots("solver-contradiction", "#solver-panel").await;
    b.click("#undo-btn").await;
    assert_eq!(solver_settles(b, 2).await, "guess");
}

/// Refused rules leave no game on show, not the previous one; Bulls and Cows is then chosen again.
async fn solver_refuses_rules_and_shows_no_game(b: &Browser) {
    b.js("window.confirm = () => true; const s = document.querySelector('#solver-rules select'); s.value = 'custom'; s.dispatchEvent(new Event('change'));")
        .await;
    b.js("const f = document.querySelector('#solver-rules'); f.querySelector('[aria-label=\"Code length\"]').value = 5; f.querySelector('[aria-label=\"Symbols\"]').value = '0123';")
        .await;
    b.click("#solver-rules button[type=submit]").await;
    b.wait("document.querySelector('#solver-status.error')")
        .await;
    assert_eq!(b.text("#solver-guess").await, "?");
    assert_eq!(b.text("#solver-history tbody").await, "");
    let error = b.text("#solver-status").await;
    assert!(error.contains("at least 5 symbols"), "{error}");
    b.js("const s = document.querySelector('#solver-rules select'); s.value = 'bulls'; s.dispatchEvent(new Event('change'));")
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_solves_a_secret_by_clicking_feedback() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "solver").await;
    let rules = Rules::bulls();
    let secret = rules.parse_code("9876").unwrap();
    assert_eq!(solver_settles(&b, 1).await, "guess");
    // The first answer typed on the keyboard in the short form, which comes back as 1B2C.
    let first = rules.parse_code(&b.text("#solver-guess").await).unwrap();
    let truth = first.score(&secret);
    let typed = b
        .client
        .find(Locator::Css("#feedback-input"))
        .await
        .unwrap();
    typed
        .send_keys(&format!("{} {}\u{E007}", truth.bulls, truth.cows))
        .await
        .unwrap();
    assert_eq!(solver_settles(&b, 2).await, "guess");
    let answers = b
        .js("return [...document.querySelectorAll('#solver-history tbody td[data-feedback]')].map(c => c.dataset.feedback).join(' ');")
        .await;
    assert!(
        answers.as_str().unwrap().contains(&truth.to_string()),
        "{answers}"
    );
    // The answer is said in words.
    let said = b.text("#solver-history tbody").await;
    assert!(said.contains("bull") && said.contains("cow"), "{said}");
    // An answer that is no answer stays in its box to be corrected.
    typed.send_keys("5 5\u{E007}").await.unwrap();
    b.wait("document.querySelector('#solver-status.error')")
        .await;
    assert_eq!(
        b.js("return document.querySelector('#feedback-input').value;")
            .await,
        json!("5 5")
    );
    typed.clear().await.unwrap();
    solver_names_the_repairs_of_a_contradiction(&b).await;

    solver_refuses_rules_and_shows_no_game(&b).await;

    for turn in 1..=12 {
        let status = solver_settles(&b, turn).await;
        if status == "solved" {
            assert_eq!(b.text("#solver-guess").await, "9876");
            let said = b.text("#solver-status").await;
            assert!(
                said.contains(&format!("solved in {} guess", turn - 1)),
                "{said}"
            );
            b.screenshots("solver-solved", "main").await;
            b.stop().await;
            return;
        }
        assert_eq!(status, "guess");
        let guess = rules.parse_code(&b.text("#solver-guess").await).unwrap();
        let feedback = guess.score(&secret).to_string();
        if turn == 2 {
            b.screenshots("solver-step", "#solver-panel").await;
        }
        b.click(&format!(
            "#feedback-buttons button[data-feedback='{feedback}']"
        ))
        .await;
    }
    panic!("the solver page did not solve 9876 in 12 guesses");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_solver_repair_continues_to_the_win() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "solver").await;
    let rules = Rules::bulls();
    let secret = rules.parse_code("3194").unwrap();
    let score = |text: String| rules.parse_code(&text).unwrap().score(&secret).to_string();
    // Turn 1 right, turn 2 wrong but plausible (it leaves codes), then right answers until
    // no code fits: the secret itself was ruled out by the wrong answer.
    assert_eq!(solver_settles(&b, 1).await, "guess");
    let truth = score(b.text("#solver-guess").await);
    b.click(&format!(
        "#feedback-buttons button[data-feedback='{truth}']"
    ))
    .await;
    assert_eq!(solver_settles(&b, 2).await, "guess");
    let truth2 = score(b.text("#solver-guess").await);
    let wrong = b
        .js(&format!("return [...document.querySelectorAll('#feedback-buttons button')].map(x => x.dataset.feedback).find(f => f !== '{truth2}');"))
        .await;
    let wrong = wrong.as_str().unwrap().to_string();
    b.click(&format!(
        "#feedback-buttons button[data-feedback='{wrong}']"
    ))
    .await;
    let mut turn = 3;
    loop {
        let status = solver_settles(&b, turn).await;
        if status == "contradiction" {
            break;
        }
        assert_eq!(
            status, "guess",
            "the wrong answer must lead to a contradiction"
        );
        assert!(turn < 12, "no contradiction after 12 turns");
        // The true answer may be among the possible ones or, the secret being ruled out, not.
        let feedback = score(b.text("#solver-guess").await);
        b.js(&format!(
            "document.querySelector(\"#solver-panel button[data-feedback='{feedback}']\").click();"
        ))
        .await;
        turn += 1;
    }
    b.screenshots("solver-repair", "#solver-panel").await;
    // The repair of turn 2 to its true answer keeps the later turns and goes on.
    b.click(&format!(
        "#repairs button[data-turn='2'][data-feedback='{truth2}']"
    ))
    .await;
    for next in turn..turn + 12 {
        let status = solver_settles(&b, next).await;
        if status == "solved" {
            assert_eq!(b.text("#solver-guess").await, "3194");
            let rows = b
                .js("return document.querySelectorAll('#solver-history tbody tr').length;")
                .await;
            assert_eq!(rows, json!(next - 1));
            let second = b
                .js("return [...document.querySelectorAll('#solver-history tbody tr')].find(r => r.cells[0].textContent === '2').cells[2].dataset.feedback;")
                .await;
            assert!(second.as_str().unwrap().contains(&truth2), "{second}");
            // The review speaks of the computer's guesses and does not hold against it the
            // ones it picked between the wrong answer and its repair.
            b.click("#solver-review").await;
            b.wait(&format!(
                "document.querySelectorAll('#review-out .review-table tbody tr').length === {}",
                next - 1
            ))
            .await;
            let review = b.text("#review-out").await;
            assert!(review.contains("The computer used"), "{review}");
            let misled = b
                .js("return [...document.querySelectorAll('#review-out .review-table tbody tr')].filter(r => r.dataset.misled).map(r => [Number(r.cells[0].textContent), r.classList.contains('costly')]);")
                .await;
            let expected: Vec<Value> = (3..turn).map(|t| json!([t, false])).collect();
            assert_eq!(misled, json!(expected), "{review}");
            b.stop().await;
            return;
        }
        assert_eq!(status, "guess", "after the repair the game goes on");
        let feedback = score(b.text("#solver-guess").await);
        b.click(&format!(
            "#feedback-buttons button[data-feedback='{feedback}']"
        ))
        .await;
    }
    panic!("the solver did not win after the repair");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_loads_the_explorer_and_the_bench_chart() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "explorer").await;
    b.wait("document.querySelectorAll('#tree-select option').length > 0")
        .await;
    explorer_shows_a_server_tree(&b).await;
    explorer_drops_a_tree_of_other_rules(&b).await;
    explorer_reads_a_tree_file(&b).await;
    bench_page_charts_every_strategy(&b, &server).await;
    b.stop().await;
}

/// The Explorer shows the server's tree of `simple` on Mastermind: counts equal to the core's,
/// round axis steps, and a chart that follows the branch clicked.
async fn explorer_shows_a_server_tree(b: &Browser) {
    // The Explorer starts no game on the server.
    let games = b
        .js("return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/games')).length;")
        .await;
    assert_eq!(games, json!(0));
    // Only strategies with a decision tree are offered.
    let offered = b
        .js("return [...document.querySelectorAll('#tree-select option')].map(o => o.value);")
        .await;
    assert!(
        !offered.as_array().unwrap().contains(&json!("random")),
        "{offered}"
    );

    // A tree from the server: the JavaScript parser and counts must agree with the core harness.
    // The default is the best possible way of playing.
    assert_eq!(
        b.js("return document.querySelector('#tree-select').value;")
            .await,
        json!("optimal")
    );
    b.js("document.querySelector('#tree-select').value = 'simple'; const s = document.querySelector('#tree-rules select'); s.value = 'mastermind'; s.dispatchEvent(new Event('change'));")
        .await;
    b.click("#tree-load").await;
    let (secrets, total) = simple_totals(Rules::mastermind());
    let summary = b
        .wait("document.querySelector('#tree-summary').textContent")
        .await;
    let summary = summary.as_str().unwrap();
    assert!(
        summary.contains(&format!(
            "{} secrets, {} guesses in all",
            thousands(secrets),
            thousands(total)
        )),
        "{summary}"
    );
    // The y axis counts in round steps.
    let ticks = b
        .js("return [...document.querySelectorAll('#tree-histogram svg text[text-anchor=end]')].map(t => t.textContent);")
        .await;
    assert!(
        ticks.as_array().unwrap().iter().all(|t| t
            .as_str()
            .unwrap()
            .replace(',', "")
            .parse::<u64>()
            .unwrap()
            % 50
            == 0),
        "{ticks}"
    );
    b.click("#tree-children tbody button").await;
    b.wait("document.querySelector('#node-info').textContent.startsWith('Level 2')")
        .await;
    // The chart follows the branch.
    let chart = b
        .js("return document.querySelector('#tree-histogram svg').getAttribute('aria-label');")
        .await;
    assert!(chart.as_str().unwrap().contains("from guess 2"), "{chart}");
    b.screenshots("explorer-tree", "#tree-summary").await;
}

/// Another game, or rules too large for a tree: the tree of the old rules is not left on show.
async fn explorer_drops_a_tree_of_other_rules(b: &Browser) {
    // Another game: the tree of the old one is not left on show.
    b.js("const s = document.querySelector('#tree-rules select'); s.value = 'bulls'; s.dispatchEvent(new Event('change'));")
        .await;
    assert_eq!(
        b.js("return document.querySelector('#tree-view').hidden;")
            .await,
        json!(true)
    );
    b.click("#tree-load").await;
    b.wait("document.querySelector('#tree-summary').textContent.includes('5,040 secrets')")
        .await;
    // Rules too large for a tree: refused with the limit, and the previous tree is not left on show.
    b.js("const s = document.querySelector('#tree-rules select'); s.value = 'custom'; s.dispatchEvent(new Event('change')); document.querySelector('#tree-rules [aria-label=\"Code length\"]').value = 5;")
        .await;
    b.click("#tree-load").await;
    let error = b
        .wait("document.querySelector('#tree-status.error')?.textContent")
        .await;
    assert!(
        error.as_str().unwrap().contains("at most 5040 codes"),
        "{error}"
    );
    assert_eq!(
        b.js("return document.querySelector('#tree-view').hidden;")
            .await,
        json!(true)
    );
}

/// A tree file from the file picker: one symbol of three, guessed in order a, b, c.
async fn explorer_reads_a_tree_file(b: &Browser) {
    // A tree file from the file picker: one symbol of three, guessed in order a, b, c.
    let file = screenshot_dir().join("tiny-tree.json");
    let tiny = json!({
        "rules": {"length": 1, "symbols": "abc", "repeats": false, "no_leading": false},
        "root": {"guess": "a", "children": {"0B0C": {"guess": "b", "children": {"0B0C": {"guess": "c"}}}}}
    });
    std::fs::write(&file, tiny.to_string()).unwrap();
    let picker = b.client.find(Locator::Css("#tree-file")).await.unwrap();
    picker.send_keys(&file.display().to_string()).await.unwrap();
    let summary = b
        .wait("document.querySelector('#tree-summary').textContent.includes('from abc') && document.querySelector('#tree-summary').textContent")
        .await;
    assert!(
        summary
            .as_str()
            .unwrap()
            .contains("3 secrets, 6 guesses in all"),
        "{summary}"
    );
    // A real tree file (the optimal Bulls and Cows tree, 143 KB, sent with its
    // length) is held to the upload limit, not refused by the 16 KiB limit of other bodies.
    let shipped =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/moo-core/trees/bulls-4x10-average.json");
    picker
        .send_keys(&shipped.display().to_string())
        .await
        .unwrap();
    let summary = b
        .wait("(document.querySelector('#tree-summary').textContent.includes('5,040 secrets') || document.querySelector('#tree-status.error')) && (document.querySelector('#tree-status.error')?.textContent || document.querySelector('#tree-summary').textContent)")
        .await;
    assert!(
        summary.as_str().unwrap().contains("26,274 guesses in all"),
        "{summary}"
    );
}

/// The benchmark, on its own page: every strategy against every Mastermind secret.
async fn bench_page_charts_every_strategy(b: &Browser, server: &Server) {
    // The benchmark, on its own page: every strategy against every Mastermind secret.
    b.client
        .goto(&format!("{}#bench", server.url))
        .await
        .unwrap();
    b.wait("document.title === 'Benchmark · moo'").await;
    b.js("const s = document.querySelector('#bench-rules select'); s.value = 'custom'; s.dispatchEvent(new Event('change')); document.querySelector('#bench-rules [aria-label=\"Code length\"]').value = 5;")
        .await;
    b.click("#bench-run").await;
    let error = b
        .wait("document.querySelector('#bench-status.error')?.textContent")
        .await;
    assert!(
        error.as_str().unwrap().contains("at most 5040 codes"),
        "{error}"
    );
    b.js("const s = document.querySelector('#bench-rules select'); s.value = 'mastermind'; s.dispatchEvent(new Event('change'));")
        .await;
    b.click("#bench-run").await;
    b.wait("document.querySelector('#bench-status').dataset.done")
        .await;
    let rows = b
        .js("return [...document.querySelectorAll('#bench-table tbody tr')].map(r => [r.dataset.strategy, ...[...r.cells].slice(1).map(c => c.textContent)]);")
        .await;
    let rows = rows.as_array().unwrap();
    let mastermind = CodeSpace::new(Rules::mastermind()).unwrap();
    assert_eq!(
        rows.len(),
        strategy::playable(&mastermind, &StrategyOptions::default()).len(),
        "a row per strategy that plays Mastermind: {rows:?}"
    );
    let simple = rows.iter().find(|r| r[0] == "simple").unwrap();
    assert_eq!(simple[3], thousands(simple_totals(Rules::mastermind()).1));
    // Sorted by the average, the best first and marked.
    let averages: Vec<f64> = rows
        .iter()
        .filter_map(|r| r[1].as_str().unwrap().parse().ok())
        .collect();
    assert!(averages.windows(2).all(|w| w[0] <= w[1]), "{rows:?}");
    assert_eq!(
        b.js("return document.querySelector('#bench-table tbody tr').classList.contains('best');")
            .await,
        json!(true)
    );
    let secrets_line = b.text("#bench-secrets").await;
    assert!(secrets_line.contains("1,296 secrets"), "{secrets_line}");
    let status = b.text("#bench-status").await;
    assert!(!status.contains("failed"), "{status}");
    let lines = b
        .js("return document.querySelectorAll('#bench-chart svg polyline').length;")
        .await;
    assert!(lines.as_u64().unwrap() > 2);
    b.screenshots("bench", "#bench-title").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_assistant_advises_off_the_tree_and_repairs() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "assistant").await;
    b.wait("document.querySelector('#assistant-status').dataset.status === 'guess'")
        .await;
    let add = |guess: &'static str, bulls: u8, cows: u8| {
        let b = &b;
        async move {
            let rows = b
                .js("return document.querySelectorAll('#assistant-history tbody tr').length;")
                .await;
            b.js(&format!(
                "document.querySelector('#assistant-guess').value = '{guess}'; document.querySelector('#assistant-hits').value = {bulls}; document.querySelector('#assistant-nears').value = {cows};"
            ))
            .await;
            b.click("#assistant-form button[type=submit]").await;
            b.wait(&format!(
                "document.querySelectorAll('#assistant-history tbody tr').length === {} && document.querySelector('#assistant-status').dataset.status !== 'busy'",
                rows.as_u64().unwrap() + 1
            ))
            .await;
        }
    };
    // Bulls and Cows 4567=0B1C then 8901=1B1C: off the shipped tree, small enough to search.
    add("4567", 0, 1).await;
    add("8901", 1, 1).await;
    b.wait("document.querySelector('#assistant-status').dataset.status === 'guess'")
        .await;
    let left = bulls_left(&[("4567", (0, 1)), ("8901", (1, 1))]);
    let title = b.text("#assistant-left-title").await;
    assert!(title.ends_with(&left.to_string()), "{title}");
    let guess = b.text("#assistant-guess-out").await;
    Rules::bulls().parse_code(&guess).unwrap();
    b.screenshots("assistant-advice", "#assistant-advice").await;
    let details = b
        .js("return document.querySelector('#assistant-details').textContent;")
        .await;
    let details = details.as_str().unwrap();
    assert!(details.contains("Proven optimal"), "{details}");
    let plain = b.text("#assistant-explanation").await;
    assert!(plain.contains("best possible guess (proven)"), "{plain}");
    assert_eq!(
        b.js("return document.querySelector('#assistant-advice').dataset.proven;")
            .await,
        json!("1"),
        "{details}"
    );
    // An answer no code fits, then its repair, which replaces it and goes on.
    add("0123", 2, 2).await;
    b.wait("document.querySelector('#assistant-status').dataset.status === 'contradiction'")
        .await;
    b.screenshots("assistant-contradiction", "#assistant-repairs")
        .await;
    b.click("#assistant-repairs button[data-turn='3']").await;
    b.wait(
        "['guess', 'solved'].includes(document.querySelector('#assistant-status').dataset.status)",
    )
    .await;
    assert_eq!(
        b.js("return document.querySelectorAll('#assistant-history tbody tr').length;")
            .await,
        json!(3)
    );
    // Undo takes back the repaired turn.
    b.click("#assistant-undo").await;
    b.wait("document.querySelectorAll('#assistant-history tbody tr').length === 2 && document.querySelector('#assistant-status').dataset.status === 'guess'")
        .await;
    b.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_mastermind_hint_after_1122_speaks_of_pegs() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_play(&server).await;
    // A game with a guess is not thrown away without a question: declined, it stays.
    let input = b.client.find(Locator::Css("#guess-input")).await.unwrap();
    input.send_keys("0123\u{E007}").await.unwrap();
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 1")
        .await;
    b.js("window.asked = 0; window.confirm = () => { window.asked++; return false; }; const s = document.querySelector('#play-rules select'); s.value = 'mastermind'; s.dispatchEvent(new Event('change'));")
        .await;
    assert_eq!(b.js("return window.asked;").await, json!(1));
    assert_eq!(
        b.js("return document.querySelector('#play-rules select').value;")
            .await,
        json!("bulls")
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#play-history tbody tr').length;")
            .await,
        json!(1)
    );
    b.js("window.confirm = () => true; const s = document.querySelector('#play-rules select'); s.value = 'mastermind'; s.dispatchEvent(new Event('change'));")
        .await;
    b.wait("document.querySelector('#play-info').textContent.includes('1,296')")
        .await;
    // Colours to pick, on a phone too.
    assert!(
        b.js("return document.querySelectorAll('#play-keys .cbtn').length;")
            .await
            .as_u64()
            .unwrap()
            >= 6
    );
    let input = b.client.find(Locator::Css("#guess-input")).await.unwrap();
    input.send_keys("1122\u{E007}").await.unwrap();
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 1")
        .await;
    let status = b.text("#play-status").await;
    assert!(
        status.contains("black") && status.contains("white"),
        "{status}"
    );
    assert!(
        !status.contains("bull") && !status.contains("cow"),
        "{status}"
    );
    let row = b.text("#play-history tbody").await;
    assert!(row.contains("black") && !row.contains("bull"), "{row}");
    let guess = best_hint(&b).await;
    let hint = b.text("#hint-out").await;
    assert!(hint.contains("Best guess"), "{hint}");
    Rules::mastermind().parse_code(&guess).unwrap();
    b.screenshots("play-mastermind-hint", "main").await;
    // Given up: no more hints.
    b.click("#giveup-btn").await;
    b.wait("document.querySelector('#hint-btn').disabled").await;
    b.stop().await;
}

/// A pasted history in the command line's notation, then its link opened in a fresh browser
/// profile: the same position.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_shares_an_assistant_position_by_link() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "assistant").await;
    b.wait("document.querySelector('#assistant-status').dataset.status === 'guess'")
        .await;
    let paste = b
        .client
        .find(Locator::Css("#assistant-paste"))
        .await
        .unwrap();
    paste
        .send_keys("0123=1B2C 4567=0B1C\u{E007}")
        .await
        .unwrap();
    b.wait("document.querySelectorAll('#assistant-history tbody tr').length === 2 && document.querySelector('#assistant-status').dataset.status === 'guess'")
        .await;
    let left = bulls_left(&[("0123", (1, 2)), ("4567", (0, 1))]);
    let title = b.text("#assistant-left-title").await;
    assert!(title.ends_with(&thousands(left)), "{title}");
    // The whole list on demand.
    if left > 50 {
        b.click("#assistant-all").await;
        b.wait(&format!(
            "document.querySelectorAll('#assistant-left .code').length === {left}"
        ))
        .await;
    }
    let guess = b.text("#assistant-guess-out").await;
    let link = b.js("return location.href;").await;
    let link = link.as_str().unwrap().to_string();
    assert!(link.contains("#assistant?"), "{link}");
    b.stop().await;

    let Some(fresh) = Browser::start().await else {
        return;
    };
    fresh.client.goto(&link).await.unwrap();
    fresh
        .wait("document.body.dataset.ready && document.querySelectorAll('#assistant-history tbody tr').length === 2 && document.querySelector('#assistant-status').dataset.status === 'guess'")
        .await;
    assert_eq!(fresh.text("#assistant-guess-out").await, guess);
    assert!(fresh
        .text("#assistant-left-title")
        .await
        .ends_with(&thousands(left)));
    fresh.stop().await;
}

/// Words a newcomer should not meet outside a Details section.
const JARGON: [&str; 7] = [
    "--",
    "strategy",
    "registry",
    "deterministic",
    "bits",
    "sampled",
    "n x n",
];

/// Every page at phone width, with the system in dark mode: dark colours, no sideways scrolling,
/// and no jargon in the visible text (Details sections closed).
/// One page at a phone's width: it fits, speaks plainly and goes dark with the system.
async fn page_fits_a_phone(b: &Browser, url: &str, page: &str, ready: &str) {
    b.client.goto(&format!("{}#{page}", url)).await.unwrap();
    b.client.refresh().await.unwrap();
    b.wait("document.body.dataset.ready").await;
    if page == "explorer" {
        b.click("#tree-load").await;
    }
    if page == "review" {
        let input = b.client.find(Locator::Css("#review-input")).await.unwrap();
        input
            .send_keys("0123=1B2C 4567=0B1C\u{E007}")
            .await
            .unwrap();
        b.wait("document.querySelector('#review-status').dataset.status !== 'busy'")
            .await;
    }
    b.wait(&format!(
        "document.querySelector('{ready}').textContent.trim()"
    ))
    .await;
    assert_eq!(
        b.js("return matchMedia('(prefers-color-scheme: dark)').matches;")
            .await,
        json!(true)
    );
    assert_eq!(
        b.js("return getComputedStyle(document.documentElement).backgroundColor;")
            .await,
        json!("rgb(20, 26, 23)"),
        "{page} is not dark"
    );
    // Settings start folded on a phone.
    assert_eq!(
        b.js("return [...document.querySelectorAll('details.settings')].some(d => d.open);")
            .await,
        json!(false)
    );
    let overflow = b
        .js("return document.documentElement.scrollWidth > window.innerWidth + 1;")
        .await;
    assert_eq!(overflow, json!(false), "{page} scrolls sideways at 390 px");
    // Tap targets: every visible button and link at least 44 px high.
    let small = b
        .js("return [...document.querySelectorAll('button, nav a')].filter(e => e.offsetParent && e.getBoundingClientRect().height < 43.5).map(e => e.id || e.textContent);")
        .await;
    assert_eq!(small, json!([]), "{page} has small tap targets");
    let png = b.client.screenshot().await.unwrap();
    std::fs::write(screenshot_dir().join(format!("{page}-dark-phone.png")), png).unwrap();
    // Open every settings fold too: its text counts; Details sections stay closed.
    let text = b
        .js("document.querySelectorAll('details.more').forEach(d => d.open = false); document.querySelectorAll('details.settings, details.howto').forEach(d => d.open = true); return document.body.innerText.toLowerCase();")
        .await;
    let text = text.as_str().unwrap();
    for word in JARGON {
        assert!(
            !text.contains(word),
            "{page} shows {word:?} outside Details:\n{text}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_pages_fit_a_phone_speak_plainly_and_go_dark() {
    let Some((_one, b, server)) = browser_on_site_with(DARK).await else {
        return;
    };
    b.phone().await;
    let pages = [
        ("play", "#play-info"),
        ("duel", "#duel-info"),
        ("solver", "#solver-remaining"),
        ("assistant", "#assistant-explanation"),
        ("review", "#review-title"),
        ("explorer", "#tree-summary"),
        ("bench", "#bench-title"),
        ("daily", "#daily-info"),
        ("stats", "#stats-out"),
    ];
    // Every page of the registry is checked: a new page must join the list.
    b.open(&server.url).await;
    let nav = b
        .js("return [...document.querySelectorAll('header nav a')].map((a) => a.id.slice(4));")
        .await;
    for page in nav.as_array().unwrap() {
        assert!(
            pages.iter().any(|(p, _)| page == p),
            "page {page} is not checked"
        );
    }
    for (page, ready) in pages {
        page_fits_a_phone(&b, &server.url, page, ready).await;
    }
    b.stop().await;
}

/// WCAG contrast in the page: `bg(e)` the colour behind an element, `ratio(a, b)` of two CSS
/// colours, by the relative-luminance formula.
const CONTRAST_JS: &str = "const lum = (c) => { const [r, g, b] = c.match(/[\\d.]+/g).slice(0, 3).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const bg = (e) => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; const m = c.match(/[\\d.]+/g); if (m && (m.length < 4 || Number(m[3]) > 0)) return c; } return 'rgb(255, 255, 255)'; };";

/// In dark mode (axe cannot see pegs): Mastermind's black pegs are black with an outline that
/// stands out, white pegs are white, and every button's text is at least 4.5:1 on its colour,
/// the Solver's "Correct!" included, on the Solver and in a review.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_dark_pegs_and_buttons_have_contrast() {
    let Some((_one, b, server)) = browser_on_site_with(DARK).await else {
        return;
    };
    let pages = [
        ("solver?g=mastermind", "#feedback-buttons button.win"),
        (
            "review?g=mastermind&h=1122%3D1B1C+3456%3D0B2C+1234%3D4B0C",
            "#review-out .review-table tbody tr",
        ),
    ];
    for (page, ready) in pages {
        b.client
            .goto(&format!("{}#{page}", server.url))
            .await
            .unwrap();
        b.client.refresh().await.unwrap();
        b.wait(&format!(
            "document.body.dataset.ready && document.querySelector('{ready}')"
        ))
        .await;
        let bad = b
            .js(&format!("{CONTRAST_JS}
const bad = [];
const seen = (e) => e.getClientRects().length > 0;
for (const p of document.querySelectorAll('.pegs.mm .peg.hit')) {{ if (!seen(p)) continue; const s = getComputedStyle(p);
  if (lum(s.backgroundColor) > 0.02) bad.push(`black peg filled ${{s.backgroundColor}}`);
  if (ratio(s.borderTopColor, bg(p.parentElement)) < 3 || s.borderTopStyle !== 'solid') bad.push(`black peg outline ${{s.borderTopColor}} ${{s.borderTopStyle}} on ${{bg(p.parentElement)}}`); }}
for (const p of document.querySelectorAll('.pegs.mm .peg.near')) {{ if (!seen(p)) continue; const s = getComputedStyle(p);
  if (lum(s.backgroundColor) < 0.6) bad.push(`white peg filled ${{s.backgroundColor}}`); }}
for (const e of document.querySelectorAll('button')) {{ if (!seen(e) || e.disabled) continue;
  const r = ratio(getComputedStyle(e).color, bg(e)); if (r < 4.5) bad.push(`button ${{e.textContent.trim()}}: ${{r.toFixed(2)}}:1`); }}
return bad;"))
            .await;
        assert_eq!(bad, json!([]), "{page} in dark mode");
        let checked = b
            .js("return document.querySelectorAll('.pegs.mm .peg.hit').length;")
            .await;
        assert!(checked.as_u64().unwrap() > 0, "{page} shows no black peg");
    }
    b.stop().await;
}

/// The review table: a move that cost less than 0.005 guesses is not styled as a loss, the
/// winning move does not read "1 → 1", and on a phone a Mastermind review fits the page and its
/// table fits its box.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_review_table_reads_right_and_fits_a_phone() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    // 1452 costs 0.0008 guesses against 1245: "0.00", not a loss.
    b.open_page(
        &server,
        "review?g=bulls&h=0123%3D0B2C+1452%3D0B3C+4271%3D4B0C",
    )
    .await;
    b.wait("document.querySelectorAll('#review-out .review-table tbody tr').length === 3")
        .await;
    let rows = b
        .js("return [...document.querySelectorAll('#review-out .review-table tbody tr')].map((r) => [r.dataset.cost, getComputedStyle(r.querySelector('.verdict')).color, r.children[3].textContent, r.querySelector('.verdict').textContent]);")
        .await;
    let bad = b
        .js("return getComputedStyle(document.documentElement).getPropertyValue('--bad').trim();")
        .await;
    assert_eq!(bad, json!("#a02818"));
    let rows = rows.as_array().unwrap();
    let second = rows[1].as_array().unwrap();
    assert!(second[0].as_str().unwrap().parse::<f64>().unwrap() < 0.005);
    assert_ne!(second[1], json!("rgb(160, 40, 24)"), "{second:?}");
    assert!(!second[3].as_str().unwrap().contains("0.00"), "{second:?}");
    let last = rows[2].as_array().unwrap();
    assert!(!last[2].as_str().unwrap().contains("1 → 1"), "{last:?}");
    // A Mastermind review on a phone.
    b.phone().await;
    b.open_page(
        &server,
        "review?g=mastermind&h=1122%3D1B1C+3456%3D0B2C+1234%3D4B0C",
    )
    .await;
    b.client.refresh().await.unwrap();
    b.wait("document.body.dataset.ready && document.querySelectorAll('#review-out .review-table tbody tr').length === 3")
        .await;
    let fit = b
        .js("const t = document.querySelector('#review-out .review-table'); return [document.documentElement.scrollWidth <= window.innerWidth + 1, t.getBoundingClientRect().right <= t.parentElement.getBoundingClientRect().right + 1];")
        .await;
    let png = b.client.screenshot().await.unwrap();
    std::fs::write(screenshot_dir().join("review-mastermind-phone.png"), png).unwrap();
    assert_eq!(fit, json!([true, true]), "page fits, table fits its box");
    b.stop().await;
}

/// The Solver and the Assistant ask before a change of game throws away a game in progress,
/// as Play does, and keep it when the player says no.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_solver_and_assistant_ask_before_dropping_a_game() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    for (page, turn) in [
        ("solver", "document.querySelector('#feedback-buttons button').click()"),
        ("assistant", "const i = document.querySelector('#assistant-paste'); i.value = '0123=1B1C'; document.querySelector('#assistant-paste-form').requestSubmit()"),
    ] {
        b.open(&format!("{}#{page}", server.url)).await;
        b.wait(&format!("document.querySelector('#{page}-status').dataset.status === 'guess'"))
            .await;
        b.js(&format!("{turn};")).await;
        b.wait(&format!("document.querySelector('#{page}-status').dataset.status === 'guess' && document.querySelectorAll('#{page}-history tbody tr').length === 1"))
            .await;
        b.js(&format!("window.asked = 0; window.confirm = () => {{ window.asked++; return false; }}; const s = document.querySelector('#{page}-rules select'); s.value = 'mastermind'; s.dispatchEvent(new Event('change'));"))
            .await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        let kept = b
            .js(&format!("return [window.asked, document.querySelector('#{page}-rules select').value, document.querySelectorAll('#{page}-history tbody tr').length];"))
            .await;
        assert_eq!(kept, json!([1, "bulls", 1]), "{page}");
    }
    b.stop().await;
}

/// Answers in words, not in our notation: the repeated-guess refusal, the typed-answer box and
/// the pasted-game examples, each valid for its game; and lower case is read over an alphabet of
/// capital letters.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_speaks_answers_in_words_and_reads_lower_case() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(
        &server,
        "play?g=custom&len=4&sym=ABCDEF&rep=1&lead=1&seed=7",
    )
    .await;
    b.wait("document.querySelector('#play-info').textContent.includes('1,296')")
        .await;
    for turn in ["abcd\u{E007}", "ABCD\u{E007}"] {
        let input = b.client.find(Locator::Css("#guess-input")).await.unwrap();
        input.send_keys(turn).await.unwrap();
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    let said = b
        .wait("document.querySelector('#play-status.error')?.textContent")
        .await;
    let said = said.as_str().unwrap();
    assert!(said.contains("already guessed ABCD"), "{said}");
    let notation = regex_lite_notation();
    assert!(!notation(said), "{said}");
    assert!(said.contains("black") && said.contains("white"), "{said}");
    assert_eq!(
        b.js("return document.querySelectorAll('#play-history tbody tr').length;")
            .await,
        json!(1)
    );
    for (page, input, symbols) in [
        ("solver?g=mastermind", "#feedback-input", "0123456789 "),
        ("review?g=mastermind", "#review-input", "123456="),
        ("assistant?g=mastermind", "#assistant-paste", "123456="),
        ("review?g=bulls", "#review-input", "0123456789="),
    ] {
        b.client
            .goto(&format!("{}#{page}", server.url))
            .await
            .unwrap();
        b.client.refresh().await.unwrap();
        b.wait("document.body.dataset.ready").await;
        let example = b
            .wait(&format!("document.querySelector('{input}').placeholder"))
            .await;
        let example = example.as_str().unwrap();
        assert!(!notation(example), "{page}: {example}");
        let code: String = example
            .chars()
            .filter(|c| !c.is_alphabetic() || symbols.contains(*c))
            .collect();
        assert!(
            code.chars().all(|c| symbols.contains(c) || c == ','),
            "{page}: {example} uses symbols outside {symbols}"
        );
    }
    b.stop().await;
}

/// Whether a text holds our answer notation, like `1B2C`.
fn regex_lite_notation() -> impl Fn(&str) -> bool {
    |text: &str| {
        let t: Vec<char> = text.chars().collect();
        t.windows(4)
            .any(|w| w[0].is_ascii_digit() && w[1] == 'B' && w[2].is_ascii_digit() && w[3] == 'C')
    }
}

/// A link to a game given up opens the finished board without the secret, which shows when the
/// player asks for it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_finished_link_hides_the_secret_until_asked() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "play?g=bulls&seed=11&h=0123&gaveup=1")
        .await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 1 && document.querySelector('#guess-input').disabled")
        .await;
    let before = b.js("return document.body.innerText;").await;
    assert!(
        !before.as_str().unwrap().contains("The secret was"),
        "{before}"
    );
    b.click("#play-reveal").await;
    let status = b
        .wait(
            "/The secret was (\\w+)/.exec(document.querySelector('#play-status').textContent)?.[1]",
        )
        .await;
    let secret = status.as_str().unwrap();
    let before = before.as_str().unwrap();
    assert!(
        !before.contains(secret),
        "{secret} on show before asked:\n{before}"
    );
    b.stop().await;
}

/// "How to play" opens on a first visit and folds after the first guess, and stays folded on a
/// reload, so on a phone the guess box is not pushed down all game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_how_to_play_folds_after_the_first_guess() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.phone().await;
    b.open_play(&server).await;
    assert_eq!(
        b.js("return document.querySelector('#play-howto').open;")
            .await,
        json!(true)
    );
    let input = b.client.find(Locator::Css("#guess-input")).await.unwrap();
    input.send_keys("0123\u{E007}").await.unwrap();
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 1")
        .await;
    assert_eq!(
        b.js("return document.querySelector('#play-howto').open;")
            .await,
        json!(false)
    );
    b.client.refresh().await.unwrap();
    b.wait("document.body.dataset.ready && document.querySelectorAll('#play-history tbody tr').length === 1")
        .await;
    assert_eq!(
        b.js("return document.querySelector('#play-howto').open;")
            .await,
        json!(false)
    );
    b.stop().await;
}

/// On a phone a contradiction shows the likeliest fix first (the core's choice) with the other
/// fixes folded, and no fix button's label wraps.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_phone_contradiction_is_compact_and_suggests_a_fix() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.phone().await;
    // No four different digits avoid 0 to 7: one of the answers is wrong.
    b.open_page(&server, "solver?g=bulls&h=0123%3D0B0C+4567%3D0B0C")
        .await;
    b.wait("document.querySelector('#solver-status').dataset.status === 'contradiction'")
        .await;
    let shown = b
        .js("return [...document.querySelectorAll('#repairs button')].filter(e => e.checkVisibility()).map(e => [e.textContent, Math.round(e.getBoundingClientRect().height)]);")
        .await;
    let shown = shown.as_array().unwrap();
    assert!(!shown.is_empty() && shown.len() <= 2, "{shown:?}");
    for button in shown {
        assert!(button[1].as_u64().unwrap() <= 50, "wraps: {button:?}");
    }
    let likely = b.text("#repairs .repair-likely").await;
    assert!(likely.contains("Most likely: guess"), "{likely}");
    b.stop().await;
}

/// The Benchmark's lines can be told apart: no two strategies' lines share a segment (they are
/// offset a little and dashed differently) and the axis labels do not overlap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_bench_lines_do_not_overlap() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "bench?g=mastermind").await;
    b.click("#bench-run").await;
    b.wait("document.querySelector('#bench-status').dataset.done")
        .await;
    let shared = b
        .js("const lines = [...document.querySelectorAll('.chart polyline')]; const segs = lines.map(l => { const p = l.getAttribute('points').split(' '); return new Set(p.slice(1).map((q, i) => p[i] + '>' + q)); }); const looks = new Set(lines.map(l => l.getAttribute('stroke') + l.getAttribute('stroke-dasharray'))); let shared = 0; segs.forEach((a, i) => segs.slice(i + 1).forEach(b => { for (const s of a) if (b.has(s)) shared++; })); return [lines.length, shared, looks.size];")
        .await;
    let shared = shared.as_array().unwrap();
    assert!(shared[0].as_u64().unwrap() >= 2, "{shared:?}");
    assert_eq!(shared[1], json!(0), "segments shared: {shared:?}");
    assert_eq!(
        shared[2], shared[0],
        "each line looks different: {shared:?}"
    );
    b.stop().await;
}

/// On a phone the latest guesses stay in view just above the guess box, the newest first.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_phone_keeps_the_latest_guesses_above_the_input() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.phone().await;
    b.open_page(&server, "play?g=bulls&seed=5&h=0123+4567+8901")
        .await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 3")
        .await;
    let layout = b
        .js("const t = document.querySelector('#play-history tbody tr').getBoundingClientRect(); const i = document.querySelector('#guess-input').getBoundingClientRect(); return [t.bottom <= i.top, i.bottom <= window.innerHeight];")
        .await;
    assert_eq!(
        layout,
        json!([true, true]),
        "latest guess above the input, the input in view"
    );
    b.stop().await;
}

/// The same game gets the same verdict words from the command line, the API and the Review
/// page: a game of the optimal tree (every move `best`) and one with costly moves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn verdicts_match_between_the_cli_the_api_and_the_page() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    let solved = Command::new(env!("CARGO_BIN_EXE_moo"))
        .args(["solve", "--secret", "4271", "--json"])
        .output()
        .unwrap();
    let solved: Value = serde_json::from_slice(&solved.stdout).unwrap();
    let optimal: Vec<String> = solved["guesses"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            format!(
                "{}={}",
                t["guess"].as_str().unwrap(),
                t["feedback"].as_str().unwrap()
            )
        })
        .collect();
    let costly: Vec<String> = ["0123=1B2C", "4567=0B1C", "1845=1B1C"]
        .map(String::from)
        .to_vec();
    for turns in [optimal, costly] {
        let cli = Command::new(env!("CARGO_BIN_EXE_moo"))
            .args(["review", "--json", "--time-limit", "60s"])
            .args(&turns)
            .output()
            .unwrap();
        let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
        let words = |v: &Value| -> Vec<Value> {
            v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m["verdict"].clone())
                .collect()
        };
        let from_cli = words(&cli);
        assert_eq!(from_cli.len(), turns.len());
        b.open_page(&server, "review").await;
        let history: Vec<Value> = turns
            .iter()
            .map(|t| {
                let (guess, feedback) = t.split_once('=').unwrap();
                json!({"guess": guess, "feedback": feedback})
            })
            .collect();
        if !Server::is_static() {
            let body = json!({"preset": "bulls", "history": history});
            let api = b
                .js_async(&format!(
                    "fetch('api/review', {{method: 'POST', headers: {{'Content-Type': 'application/json'}}, body: JSON.stringify({body})}}).then((r) => r.json()).then(done, (e) => done(String(e)));"
                ))
                .await;
            assert_eq!(words(&api), from_cli, "{api}");
        }
        let input = b.client.find(Locator::Css("#review-input")).await.unwrap();
        input.clear().await.unwrap();
        input
            .send_keys(&format!("{}\u{E007}", turns.join(" ")))
            .await
            .unwrap();
        b.wait(&format!(
            "document.querySelectorAll('#review-out .review-table tbody tr').length === {}",
            turns.len()
        ))
        .await;
        let on_page = b
            .js("return [...document.querySelectorAll('#review-out .review-table tbody tr')].map((r) => r.dataset.verdict);")
            .await;
        assert_eq!(on_page, Value::Array(from_cli.clone()));
        let shown = b.text("#review-out .review-table").await;
        assert!(shown.contains("★ Best"), "{shown}");
    }
    b.stop().await;
}

/// The Bulls and Cows codes left after `turns` (guess, (bulls, cows)), counted by the core.
fn bulls_left(turns: &[(&str, (u8, u8))]) -> usize {
    let rules = Rules::bulls();
    let mut history = moo_core::History::new();
    for &(guess, (bulls, cows)) in turns {
        history.push(
            rules.parse_code(guess).unwrap(),
            moo_core::Feedback::new(bulls, cows),
        );
    }
    history.candidates(&CodeSpace::new(rules).unwrap()).len()
}

/// A shared link replays exactly the shared game. Its seed travels as a
/// string, so a seed above 2^53 (which a JSON number would round) draws the secret
/// `moo play --seed` draws; a link whose seed is no number says so instead of starting another
/// game.
#[tokio::test]
async fn browser_replays_a_link_with_a_large_seed_exactly() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    let seed = u64::MAX - 2;
    let rules = Rules::bulls();
    let secret = rules.format_code(
        &rules
            .random_code(&mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed)),
    );
    b.open(&format!("{}#play?seed={seed}&gaveup=1", server.url))
        .await;
    // A link to a game given up keeps its secret until asked.
    b.wait("!document.querySelector('#play-reveal').hidden")
        .await;
    b.click("#play-reveal").await;
    b.wait(&format!(
        "document.querySelector('#play-status').textContent.includes('{secret}')"
    ))
    .await;
    // The link keeps the seed whole.
    let hash = b.js("return location.hash;").await;
    assert!(
        hash.as_str().unwrap().contains(&format!("seed={seed}")),
        "{hash}"
    );
    b.open_page(&server, "play?seed=abc").await;
    b.js("location.reload();").await;
    b.wait("document.querySelector('#play-status.error')?.textContent.includes('is not a whole number')")
        .await;
    b.stop().await;
}

// ---- the static site only: the WebAssembly engine against the native one, offline ----------

/// Posts `messages` to a fresh engine worker of the static site open in `b`, one after the
/// other, each slice of them after `first` (its reply dropped), and returns their replies:
/// `{status, body}` each.
async fn in_worker(b: &Browser, first: &Value, messages: &[Value]) -> Vec<Value> {
    let mut replies = Vec::new();
    // Each slice is one script: the engine's searches outlast WebDriver's default 30 s.
    b.client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(Duration::from_secs(600)),
            None,
            None,
        ))
        .await
        .unwrap();
    for slice in messages.chunks(50) {
        let slice: Vec<Value> = std::iter::once(first.clone())
            .chain(slice.iter().cloned())
            .collect();
        let script = "const [messages, done] = arguments; const w = new Worker('worker.js', { type: 'module' }); \
            const out = []; w.onmessage = (e) => { out.push(e.data); if (out.length < messages.length) w.postMessage(messages[out.length]); else { w.terminate(); done(out); } }; \
            w.onerror = (e) => done([{ crashed: e.message || 'the worker did not start' }]); w.postMessage(messages[0]);";
        let answer = b
            .client
            .execute_async(script, vec![Value::from(slice.clone())])
            .await
            .unwrap();
        let answer = answer.as_array().unwrap().clone();
        assert_eq!(answer.len(), slice.len(), "{answer:?}");
        replies.extend(answer.into_iter().skip(1));
    }
    replies
}

/// Timings differ run to run, and between machines; nothing else may.
fn without_timings(mut value: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|k, _| k != "seconds");
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

/// `count` positions of `rules`: the `openings`, then `random` guesses drawn at random, each
/// answered as a secret drawn at random answers it; won games, and positions leaving more than
/// `most_left` codes (whose exact search takes seconds in the browser), are skipped.
fn positions(
    rules: &Rules,
    (openings, random): (&[&str], usize),
    (count, most_left): (usize, usize),
    seed: u64,
) -> Vec<Vec<(String, String)>> {
    use rand::{Rng, SeedableRng};
    let space = CodeSpace::new(rules.clone()).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let secret = space.code(rng.gen_range(0..space.len()));
        let mut history = moo_core::History::new();
        let guesses: Vec<_> = openings
            .iter()
            .map(|o| rules.parse_code(o).unwrap())
            .chain((0..random).map(|_| space.code(rng.gen_range(0..space.len()))))
            .collect();
        for g in guesses {
            history.push(g, g.score(&secret));
        }
        if history.is_won(rules.length()) || history.candidates(&space).len() > most_left {
            continue;
        }
        out.push(
            history
                .turns()
                .iter()
                .map(|t| (rules.format_code(&t.guess), t.feedback.to_string()))
                .collect(),
        );
    }
    out
}

/// A solver request's body for `rules` and `turns`.
fn position_body(rules: &Rules, turns: &[(String, String)]) -> Value {
    json!({
        "rules": {"length": rules.length(), "symbols": rules.symbols(), "repeats": rules.repeats(), "no_leading": rules.no_leading()},
        "history": turns.iter().map(|(g, f)| json!({"guess": g, "feedback": f})).collect::<Vec<_>>(),
    })
}

/// For 300 seeded positions (Bulls and Cows 4 of 0-9 on and off the shipped tree,
/// Mastermind 4x6, Bulls and Cows 5 of 0-8, 7 digits of 0-9), the WebAssembly engine's advice
/// equals the native one JSON for JSON, timings aside; and so do its reviews of whole games.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_webassembly_engine_answers_as_the_native_one() {
    if !Server::is_static() {
        eprintln!("the WebAssembly engine is compared on the static site: MOO_WEB_BACKEND=static");
        return;
    }
    let Some((_one, b, site)) = browser_on_site().await else {
        return;
    };
    b.open(&site.url).await;
    let seven = Rules::new(7, "0123456789", false, false).unwrap();
    let nine = Rules::new(5, "012345678", false, false).unwrap();
    let mut bodies = Vec::new();
    let all = usize::MAX;
    for (rules, guesses, count, seed) in [
        // On the shipped tree: every opening is one of its images.
        (&Rules::bulls(), (&[][..], 1), (80, all), 1),
        // Off it: a second guess of one's own, then a third.
        (&Rules::bulls(), (&["0123"][..], 1), (40, 150), 2),
        (&Rules::bulls(), (&["0123"][..], 2), (40, all), 3),
        (&Rules::mastermind(), (&["1122"][..], 1), (60, 150), 4),
        (&nine, (&["01234"][..], 2), (60, 150), 5),
        (&seven, (&[][..], 2), (20, all), 6),
    ] {
        for turns in positions(rules, guesses, count, seed) {
            bodies.push(position_body(rules, &turns));
        }
    }
    // Whole games to review: the positions' own, one of each family per five.
    let games: Vec<Value> = bodies.iter().step_by(5).cloned().collect();
    // Time limits no search here comes near, on either side: what is compared is what the two
    // builds compute, not how far each gets in 2 s.
    let limit = Duration::from_secs(120);
    let mut limits = moo_service::Limits::default();
    limits.time_limit = limit;
    limits.review_time_limit = limit * 5;
    let service = moo_service::Service::new(limits.clone());
    let native = |body: &Value| -> Value {
        let body = moo_service::read_body(&body.to_string()).unwrap();
        let job = service.fresh_advice(body).unwrap().with_time_limit(limit);
        let advice = job.run(&service, moo_core::Stop::after(limit)).unwrap();
        without_timings(serde_json::to_value(advice).unwrap())
    };
    let configure = json!({"id": 0, "limits": [limits.time_limit.as_millis() as f64, limits.review_time_limit.as_millis() as f64]});
    let messages: Vec<Value> = bodies
        .iter()
        .map(|body| json!({"id": 0, "fresh": body.to_string(), "ms": limit.as_millis() as f64}))
        .chain(games.iter().map(
            |g| json!({"id": 0, "method": "POST", "path": "/api/review", "body": g.to_string()}),
        ))
        .collect();
    let started = Instant::now();
    let replies = in_worker(&b, &configure, &messages).await;
    eprintln!(
        "the engine in Chromium answered {} requests in {:.1} s",
        messages.len(),
        started.elapsed().as_secs_f64()
    );
    let (advice, reviews) = replies.split_at(bodies.len());
    let mut proven = 0;
    for (body, reply) in bodies.iter().zip(advice) {
        assert_eq!(reply["status"], json!(200), "{body}: {reply}");
        let wasm: Value = serde_json::from_str(reply["body"].as_str().unwrap()).unwrap();
        let wasm = without_timings(wasm);
        assert_eq!(wasm, native(body), "{body}");
        proven += usize::from(wasm["proven_optimal"] == json!(true));
    }
    for (game, reply) in games.iter().zip(reviews) {
        let reply_here = service.dispatch(
            "POST",
            "/api/review",
            &game.to_string(),
            moo_core::Stop::after,
        );
        assert_eq!(
            reply["status"].as_u64(),
            Some(u64::from(reply_here.status)),
            "{game}: {reply}"
        );
        let wasm: Value = serde_json::from_str(reply["body"].as_str().unwrap()).unwrap();
        let here: Value = serde_json::from_str(&reply_here.body).unwrap();
        assert_eq!(without_timings(wasm), without_timings(here), "{game}");
    }
    eprintln!(
        "{} positions ({proven} proven optimal) and {} reviews: the same in WebAssembly as native",
        bodies.len(),
        games.len()
    );
    b.stop().await;
}

/// After one visit the static site is installed for offline play: with its server
/// gone and Chromium's network emulated offline, the page loads, a game is played to the win
/// on the engine in the page, and every guess is reviewed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_static_site_plays_offline_after_one_visit() {
    if !Server::is_static() {
        eprintln!("only the static site works offline: MOO_WEB_BACKEND=static");
        return;
    }
    let Some((_one, b, site)) = browser_on_site().await else {
        return;
    };
    let url = site.url.clone();
    b.open(&format!("{url}#play")).await;
    // The service worker has cached every file and controls the page.
    let installed = b
        .js_async("navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller ? done(true) : navigator.serviceWorker.addEventListener('controllerchange', () => done(true)));")
        .await;
    assert_eq!(installed, json!(true));
    let manifest = b
        .js_async("fetch(document.querySelector('link[rel=manifest]').href).then((r) => r.json()).then((m) => done(m.name), (e) => done(String(e)));")
        .await;
    assert!(manifest.as_str().unwrap().starts_with("moo"), "{manifest}");
    drop(site);
    b.go_offline().await;
    let reachable = b
        .js_async("fetch('app.css?fresh=' + Date.now(), { cache: 'no-store' }).then(() => done('cache'), () => done('offline'));")
        .await;
    assert_eq!(
        reachable,
        json!("cache"),
        "the style sheet comes from the cache"
    );
    b.open(&format!("{url}#play")).await;
    b.wait("document.querySelector('#play-info').textContent.includes('5,040')")
        .await;
    let turn = play_hints_to_the_win(&b)
        .await
        .expect("twelve hinted guesses did not win offline");
    b.wait(&format!(
        "document.querySelectorAll('#play-review .review-table tbody tr').length === {turn}"
    ))
    .await;
    let review = b.text("#play-review").await;
    assert!(review.contains("best possible guess"), "{review}");
    b.stop().await;
}

/// A long search can be stopped: the Explorer's tree of a slow strategy shows the busy bar, and
/// its Cancel button ends the search at once with a message that says so; the page goes on
/// answering (on the static site, a new engine; on the server, the job stops with its
/// connection).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_long_search_is_cancelled_from_the_busy_bar() {
    let Some((_one, b, site)) = browser_on_site().await else {
        return;
    };
    b.open(&format!("{}#bench", site.url)).await;
    // Every strategy over every Bulls and Cows secret takes far longer than a moment.
    b.js("const s = document.querySelector('#bench-rules select'); s.value = 'bulls'; s.dispatchEvent(new Event('change'));")
        .await;
    b.click("#bench-run").await;
    b.wait("!document.querySelector('#busy').hidden").await;
    let started = Instant::now();
    b.click("#busy-cancel").await;
    let status = b
        .wait("document.querySelector('#bench-status.error')?.textContent")
        .await;
    assert!(status.as_str().unwrap().contains("Cancelled"), "{status}");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the cancel took {:?}",
        started.elapsed()
    );
    b.wait("document.querySelector('#busy').hidden").await;
    // The engine answers again.
    b.open(&format!("{}#play", site.url)).await;
    b.wait("document.querySelector('#play-info').textContent.includes('5,040')")
        .await;
    b.stop().await;
}

/// The static site's speed benchmark (ignored: it measures, it checks nothing
/// a run could get wrong but the answers): the 500 random two-guess Bulls and Cows positions of
/// `moo bench advisor --openings 0123 --positions 500 --seed 1`, each on a fresh advisor with
/// its 1 s limit, natively on one thread (that very command, RAYON_NUM_THREADS=1) and in the
/// WebAssembly engine in headless Chromium, side by side; and the site's first load: the
/// compressed bytes before a guess can be typed, and the time to that moment on loopback.
///
/// `scripts/build-site.sh target/site && MOO_WEB_BACKEND=static MOO_SITE_DIR=target/site
/// cargo test --release --test web -- --ignored --nocapture webassembly_speed`
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "a benchmark: run it by name on the static site (see its doc comment)"]
async fn webassembly_speed_against_native() {
    if !Server::is_static() {
        eprintln!("the WebAssembly engine is measured on the static site: MOO_WEB_BACKEND=static");
        return;
    }
    let Some((_one, b, site)) = browser_on_site().await else {
        return;
    };
    // First load, in a fresh profile: every file fetched before the first guess can be typed
    // (the page's own, and the engine's, which its worker fetches), gzipped; and the time to
    // that moment from the start of the navigation.
    b.open(&format!("{}#play", site.url)).await;
    let cold = b
        .js("return performance.getEntriesByName('moo-ready')[0].startTime;")
        .await
        .as_f64()
        .unwrap();
    let fetched = b
        .js("return performance.getEntriesByType('resource').map((r) => new URL(r.name).pathname.slice(1));")
        .await;
    let dir = PathBuf::from(std::env::var("MOO_SITE_DIR").unwrap());
    let mut files: Vec<String> = fetched
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f.as_str().unwrap().to_string())
        .chain(["index.html", "pkg/moo_wasm.js", "pkg/moo_wasm_bg.wasm"].map(String::from))
        .filter(|f| dir.join(f).is_file())
        .collect();
    files.sort();
    files.dedup();
    let mut compressed = 0;
    for file in &files {
        let gz = Command::new("gzip")
            .args(["-9", "-c"])
            .arg(dir.join(file))
            .output()
            .unwrap();
        compressed += gz.stdout.len();
    }
    // Then reloads, the files from the service worker's cache.
    let mut warm = Vec::new();
    for _ in 0..5 {
        b.client.refresh().await.unwrap();
        b.wait("document.body.dataset.ready").await;
        let ms = b
            .js("return performance.getEntriesByName('moo-ready')[0].startTime;")
            .await;
        warm.push(ms.as_f64().unwrap());
    }
    warm.sort_by(f64::total_cmp);
    // The positions and the native times, from the command itself.
    let out = Command::new(env!("CARGO_BIN_EXE_moo"))
        .args([
            "bench",
            "advisor",
            "--openings",
            "0123",
            "--positions",
            "500",
            "--seed",
            "1",
        ])
        .args(["--cross-checks", "0", "--json"])
        .env("RAYON_NUM_THREADS", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let native: Value = serde_json::from_slice(&out.stdout).unwrap();
    let samples = native["samples"].as_array().unwrap();
    let messages: Vec<Value> = samples
        .iter()
        .map(|s| {
            let turns: Vec<Value> = s["history"]
                .as_str()
                .unwrap()
                .split_whitespace()
                .map(|t| {
                    let (g, f) = t.split_once('=').unwrap();
                    json!({"guess": g, "feedback": f})
                })
                .collect();
            json!({"id": 0, "fresh": json!({"history": turns}).to_string(), "ms": 1000.0})
        })
        .collect();
    let configure = json!({"id": 0, "limits": [2000.0, 10000.0]});
    let replies = in_worker(&b, &configure, &messages).await;
    let (mut native_s, mut wasm_s, mut proven) = (0.0, 0.0, 0);
    let mut ratios = Vec::new();
    for (sample, reply) in samples.iter().zip(&replies) {
        let wasm: Value = serde_json::from_str(reply["body"].as_str().unwrap()).unwrap();
        let (n, w) = (
            sample["seconds"].as_f64().unwrap(),
            wasm["seconds"].as_f64().unwrap(),
        );
        native_s += n;
        wasm_s += w;
        ratios.push(w / n.max(1e-6));
        proven += usize::from(wasm["proven_optimal"] == json!(true));
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "first load: {} files, {compressed} bytes gzipped; first usable page {cold:.0} ms, reloads {:.0} ms (median of 5; {:.0} to {:.0})",
        files.len(),
        warm[2],
        warm[0],
        warm[4]
    );
    println!(
        "advisor, 500 positions, 1 s each, one thread: native {native_s:.2} s ({} proven), WebAssembly in Chromium {wasm_s:.2} s ({proven} proven, {:.1}%): time ratio {:.2} (median per position {:.2})",
        native["proven"],
        100.0 * proven as f64 / samples.len() as f64,
        wasm_s / native_s,
        ratios[ratios.len() / 2]
    );
    b.stop().await;
}

// ---- the duel and hard mode ------------------------------------------------------------------

/// The computer's secret in the duel seeded with `seed`, learned from `moo duel` by giving up.
fn duel_secret(seed: u64) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_moo"))
        .args(["duel", "--seed", &seed.to_string(), "--secret", "9876"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("moo duel runs");
    child.stdin.take().unwrap().write_all(b"give up\n").unwrap();
    let out = String::from_utf8(child.wait_with_output().unwrap().stdout).unwrap();
    out.lines()
        .find_map(|l| l.strip_prefix("My secret was "))
        .unwrap_or_else(|| panic!("no secret in {out}"))
        .trim_end_matches('.')
        .to_string()
}

/// Opens the Duel page on the duel its link describes, ready for the first guess.
async fn open_duel(b: &Browser, url: &str, query: &str) {
    b.client.goto(&format!("{url}#duel?{query}")).await.unwrap();
    b.client.refresh().await.unwrap();
    b.wait("document.body.dataset.ready && document.activeElement.id === 'duel-guess' && document.querySelector('#duel-info').textContent.includes('against level')")
        .await;
}

/// Types `keys` into the element that has the focus, as a player at the keyboard does.
async fn type_keys(b: &Browser, keys: &str) {
    b.client
        .active_element()
        .await
        .unwrap()
        .send_keys(keys)
        .await
        .unwrap();
}

/// Three duels from the keyboard with fixed seeds, levels and secrets: won (found at once while
/// the beginner misses), lost (perfect play opens with the player's secret 0123, answered by
/// hand: 4 bulls) and drawn (both found in the first round).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_duels_won_lost_and_drawn() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    let secret = duel_secret(5);
    let miss = if secret == "4567" { "5678" } else { "4567" };

    open_duel(&b, &server.url, "g=bulls&seed=5&level=1&secret=9876").await;
    page_runs_on_the_backend_under_test(&b).await;
    type_keys(&b, &format!("{secret}\u{E007}")).await;
    b.wait("document.querySelector('#duel-status.win')").await;
    let status = b.text("#duel-status").await;
    assert!(status.contains("You win!"), "{status}");
    assert!(status.contains(&format!("secret was {secret}")), "{status}");
    b.screenshots("duel-won", "main").await;

    open_duel(&b, &server.url, "g=bulls&seed=5&level=4").await;
    type_keys(&b, &format!("{miss}\u{E007}")).await;
    b.wait("document.activeElement.id === 'duel-bulls'").await;
    let pending = b.text("#duel-pending").await;
    assert!(pending.contains("The computer guesses 0123"), "{pending}");
    type_keys(&b, "4\u{E007}").await;
    b.wait("document.querySelector('#duel-status').textContent.includes('The computer wins')")
        .await;
    let rows = b.text("#duel-its tbody").await;
    assert!(rows.contains("0123") && rows.contains("4 bulls"), "{rows}");

    open_duel(&b, &server.url, "g=bulls&seed=5&level=4&secret=0123").await;
    type_keys(&b, &format!("{secret}\u{E007}")).await;
    b.wait("document.querySelector('#duel-status').textContent.includes('A draw')")
        .await;
    b.screenshots("duel-drawn", "main").await;
    b.stop().await;
}

/// Hard mode on the Play page: a guess no code left could be is refused, naming the answer it
/// contradicts, and uses no turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_hard_mode_refuses_an_impossible_guess() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    // Seed 3's secret answers 0123 with 1 bull and 1 cow (as `moo play --seed 3` does), which
    // 4567 could not have got.
    b.client
        .goto(&format!("{}#play?g=bulls&seed=3&hard=1", server.url))
        .await
        .unwrap();
    b.client.refresh().await.unwrap();
    b.wait("document.body.dataset.ready && document.activeElement.id === 'guess-input'")
        .await;
    assert_eq!(
        b.js("return document.querySelector('#play-hard').checked;")
            .await,
        json!(true)
    );
    type_keys(&b, "0123\u{E007}").await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 1")
        .await;
    type_keys(&b, "4567\u{E007}").await;
    b.wait("document.querySelector('#play-status.error')").await;
    let status = b.text("#play-status").await;
    assert!(
        status.contains("4567 is not possible: guess 1, 0123, got 1 bull and 1 cow"),
        "{status}"
    );
    assert_eq!(
        b.js("return document.querySelectorAll('#play-history tbody tr').length;")
            .await,
        json!(1)
    );
    b.stop().await;
}

// ---- the daily puzzle ------------------------------------------------------------------------

/// The day's secret of `game` on `date`, from the core.
fn daily_secret(game: moo_core::Preset, date: &str) -> String {
    let puzzle = moo_core::daily::Puzzle::new(game, date.parse().unwrap()).unwrap();
    puzzle.rules().format_code(&puzzle.secret())
}

/// The share card `moo daily` prints after `guesses` on `date`.
fn cli_share_card(date: &str, guesses: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_moo"))
        .args(["daily", "--date", date])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let input = guesses.join("\n") + "\n";
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let out = String::from_utf8(out.stdout).unwrap();
    out.split("does not give the secret away):\n\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no share card in:\n{out}"))
        .trim_end()
        .to_string()
}

impl Browser {
    /// Sends `body` to chromedriver's own `command` of this session (for what fantoccini does
    /// not speak), asserting a 200.
    async fn driver_command(&self, command: &str, body: &str) {
        let session = self.client.session_id().await.unwrap().unwrap();
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "POST /session/{session}/{command} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        )
        .unwrap();
        let mut head = [0u8; 12];
        stream.read_exact(&mut head).unwrap();
        let head = String::from_utf8_lossy(&head);
        assert!(
            head.ends_with(" 200"),
            "chromedriver answered {head:?} to {command}"
        );
    }

    /// Fixes the daily puzzle's day (the page's test override) and opens `hash`, reloaded so
    /// the page starts on that day.
    async fn on_day(&self, url: &str, date: &str, hash: &str) {
        self.js(&format!(
            "localStorage.setItem('moo.test.today', '{date}');"
        ))
        .await;
        self.client.goto(&format!("{url}{hash}")).await.unwrap();
        self.client.refresh().await.unwrap();
        self.wait("document.body.dataset.ready").await;
    }

    /// Types `keys` into whatever has the focus, as a keyboard would.
    async fn keys(&self, keys: &str) {
        self.client
            .active_element()
            .await
            .unwrap()
            .send_keys(keys)
            .await
            .unwrap();
    }
}

/// The day's secret of 1000 consecutive days of each game is the same from
/// `moo daily --list`, from the page's engine (the server's API, or the WebAssembly build on
/// the static site) and from the core, and no day repeats the day before's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn daily_secrets_agree_between_the_cli_and_the_page_engine() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.open_page(&server, "review").await;
    b.client
        .update_timeouts(fantoccini::wd::TimeoutConfiguration::new(
            Some(Duration::from_secs(600)),
            None,
            None,
        ))
        .await
        .unwrap();
    for game in ["bulls", "mastermind"] {
        let cli = Command::new(env!("CARGO_BIN_EXE_moo"))
            .args([
                "daily",
                "--game",
                game,
                "--list",
                "2024-01-01..2026-09-26",
                "--json",
            ])
            .output()
            .unwrap();
        let cli: Vec<Value> = serde_json::from_slice(&cli.stdout).unwrap();
        assert_eq!(cli.len(), 1000);
        let dates: Vec<&str> = cli.iter().map(|d| d["date"].as_str().unwrap()).collect();
        // Through the page's own transport: the server over HTTP, or the WebAssembly engine.
        let script = format!(
            "const [dates, done] = arguments; import(new URL('lib/api.js', location.href)).then(async ({{ api }}) => {{ \
             const out = []; for (const date of dates) {{ const r = await api('POST', '/api/daily/result', {{ game: '{game}', date, guesses: [], gave_up: true }}); \
             out.push([r.puzzle.number, r.secret]); }} done(out); }}).catch((e) => done(String(e)));"
        );
        let page = b
            .client
            .execute_async(&script, vec![json!(dates)])
            .await
            .unwrap();
        let page = page.as_array().unwrap_or_else(|| panic!("{page}"));
        let preset = if game == "bulls" {
            moo_core::Preset::Bulls
        } else {
            moo_core::Preset::Mastermind
        };
        for (i, day) in cli.iter().enumerate() {
            assert_eq!(
                page[i],
                json!([day["number"], day["secret"]]),
                "{game} {}",
                dates[i]
            );
            assert_eq!(day["secret"], daily_secret(preset, dates[i]));
            if i > 0 {
                assert_ne!(day["secret"], cli[i - 1]["secret"], "{game} {}", dates[i]);
            }
        }
    }
    b.stop().await;
}

/// The daily game to the end from the keyboard, surviving a reload; the share card
/// (the CLI's, word for word) on the clipboard; the statistics after it; the next day's win
/// makes a streak of two, which the Statistics page still shows after a reload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_plays_two_daily_puzzles_shares_and_keeps_a_streak() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    let (day1, day2) = ("2026-03-01", "2026-03-02");
    let secret = daily_secret(moo_core::Preset::Bulls, day1);
    let wrong: Vec<&str> = ["0123", "4567", "8901"]
        .into_iter()
        .filter(|g| *g != secret)
        .take(2)
        .collect();
    b.open(&server.url).await;
    // The permissions hold for the origin open: the test reads back what the page copied.
    for name in ["clipboard-read", "clipboard-write"] {
        let body = format!(r#"{{"descriptor": {{"name": "{name}"}}, "state": "granted"}}"#);
        b.driver_command("permissions", &body).await;
    }
    b.on_day(&server.url, day1, "#daily?g=bulls").await;
    b.wait("document.querySelector('#daily-info').textContent.includes('Puzzle #791')")
        .await;
    b.wait("document.activeElement.id === 'daily-input'").await;
    b.keys(&format!("{}\u{E007}", wrong[0])).await;
    b.wait("document.querySelectorAll('#daily-history tbody tr').length === 1")
        .await;
    // A reload brings the try back, and it goes on.
    b.client.refresh().await.unwrap();
    b.wait("document.body.dataset.ready && document.querySelectorAll('#daily-history tbody tr').length === 1 && document.querySelector('#daily-status').textContent.includes('goes on')")
        .await;
    b.wait("document.activeElement.id === 'daily-input'").await;
    b.keys(&format!("{}\u{E007}", wrong[1])).await;
    b.wait("document.querySelectorAll('#daily-history tbody tr').length === 2")
        .await;
    b.wait("document.activeElement.id === 'daily-input'").await;
    b.keys(&format!("{secret}\u{E007}")).await;
    b.wait("document.querySelector('#daily-end').dataset.ready")
        .await;
    let status = b.text("#daily-status").await;
    assert!(status.contains("found it in 3 guesses"), "{status}");
    // The focus is on Copy; Enter copies the engine's card, the CLI's word for word.
    assert_eq!(
        b.js("return document.activeElement.id;").await,
        json!("daily-copy")
    );
    b.keys("\u{E007}").await;
    b.wait("document.querySelector('#daily-copied').textContent.includes('Copied')")
        .await;
    let copied = b
        .js_async("navigator.clipboard.readText().then(done, (e) => done('failed: ' + e));")
        .await;
    let card = cli_share_card(day1, &[wrong[0], wrong[1], &secret]);
    assert_eq!(copied, json!(card));
    assert!(
        card.starts_with("moo daily #791 · Bulls and Cows · solved in 3\n"),
        "{card}"
    );
    assert_eq!(b.text("#daily-share").await, card);
    let stats = b.text("#daily-stats").await;
    assert!(stats.contains("1\nPlayed"), "{stats}");
    assert_eq!(
        b.js("return document.querySelectorAll('#daily-review .review-table tbody tr').length;")
            .await,
        json!(3)
    );
    let text = b
        .js("document.querySelectorAll('details.more').forEach(d => d.open = false); return document.querySelector('#daily').innerText.toLowerCase();")
        .await;
    for word in JARGON {
        assert!(
            !text.as_str().unwrap().contains(word),
            "the daily page shows {word:?}"
        );
    }
    b.screenshots("daily-won", "#daily-end").await;
    // One try a day: a reload shows the finished game, not a new one.
    b.client.refresh().await.unwrap();
    b.wait("document.body.dataset.ready && document.querySelector('#daily-end').dataset.ready")
        .await;
    assert_eq!(
        b.js("return document.querySelector('#daily-input').disabled;")
            .await,
        json!(true)
    );
    // The next day: won at once, two days in a row.
    let secret2 = daily_secret(moo_core::Preset::Bulls, day2);
    b.on_day(&server.url, day2, "#daily?g=bulls").await;
    b.wait("document.querySelector('#daily-info').textContent.includes('Puzzle #792') && document.activeElement.id === 'daily-input'")
        .await;
    b.keys(&format!("{secret2}\u{E007}")).await;
    b.wait("document.querySelector('#daily-end').dataset.ready")
        .await;
    let stats = b.text("#daily-stats").await;
    assert!(stats.contains("2\nDays won in a row"), "{stats}");
    // The statistics survive a reload, on their own page.
    b.on_day(&server.url, day2, "#stats").await;
    b.wait("document.querySelector('#stats-out').dataset.ready")
        .await;
    let stats = b.text("#stats-out .stats[data-game=bulls]").await;
    assert!(stats.contains("2\nPlayed"), "{stats}");
    assert!(stats.contains("2\nDays won in a row"), "{stats}");
    assert!(stats.contains("2\nMost days won in a row"), "{stats}");
    b.screenshots("daily-stats", "#stats").await;
    b.stop().await;
}

/// The statistics go to a file and come back from it in a fresh browser; a bad file
/// is refused with the reason and loses nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_exports_and_imports_daily_statistics() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    let record = r#"{"version": 1, "results": [
        {"game": "bulls", "date": "2026-03-01", "guesses": 5, "won": true, "cost": 0.5},
        {"game": "bulls", "date": "2026-03-02", "guesses": 4, "won": true, "cost": 0.25},
        {"game": "mastermind", "date": "2026-03-02", "guesses": 6, "won": false, "cost": 1.5}]}"#;
    b.open(&server.url).await;
    b.js(&format!(
        "localStorage.setItem('moo.daily-record', {});",
        json!(record)
    ))
    .await;
    b.on_day(&server.url, "2026-03-02", "#stats").await;
    b.wait("document.querySelector('#stats-out').dataset.ready")
        .await;
    let shown = b.text("#stats-out").await;
    assert!(shown.contains("2\nDays won in a row"), "{shown}");
    // Save: the file's text, caught as the page hands it to the browser.
    b.js("window.saved = null; const make = URL.createObjectURL; URL.createObjectURL = (blob) => { blob.text().then((t) => { window.saved = t; }); return make(blob); };")
        .await;
    b.click("#stats-export").await;
    let saved = b.wait("window.saved").await;
    let saved: Value = serde_json::from_str(saved.as_str().unwrap()).unwrap();
    assert_eq!(saved["version"], 1);
    assert_eq!(saved["results"].as_array().unwrap().len(), 3);
    // A new browser: nothing kept.
    b.js("localStorage.clear();").await;
    b.on_day(&server.url, "2026-03-02", "#stats").await;
    b.wait("document.querySelector('#stats-out').dataset.ready")
        .await;
    assert!(b.text("#stats-out").await.contains("0\nPlayed"));
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("moo-daily-statistics.json");
    std::fs::write(&good, saved.to_string()).unwrap();
    let bad = dir.path().join("notes.json");
    std::fs::write(&bad, r#"{"version": 1, "results": [{"game": "chess"}]}"#).unwrap();
    let input = b.client.find(Locator::Css("#stats-import")).await.unwrap();
    input.send_keys(good.to_str().unwrap()).await.unwrap();
    b.wait("document.querySelector('#stats-status').textContent.includes('Loaded 3 new days')")
        .await;
    assert!(b.text("#stats-out").await.contains("2\nDays won in a row"));
    let input = b.client.find(Locator::Css("#stats-import")).await.unwrap();
    input.send_keys(bad.to_str().unwrap()).await.unwrap();
    b.wait("document.querySelector('#stats-status.error')")
        .await;
    let said = b.text("#stats-status").await;
    assert!(said.contains("notes.json could not be loaded"), "{said}");
    assert!(said.contains("chess"), "{said}");
    assert!(said.contains("Your statistics are unchanged"), "{said}");
    // Nothing lost, after a reload too.
    b.on_day(&server.url, "2026-03-02", "#stats").await;
    b.wait("document.querySelector('#stats-out').dataset.ready")
        .await;
    let shown = b.text("#stats-out").await;
    assert!(
        shown.contains("3\nPlayed") || shown.contains("2\nPlayed"),
        "{shown}"
    );
    assert!(shown.contains("2\nDays won in a row"), "{shown}");
    b.stop().await;
}

/// On `moo serve`, no answer the page gets carries the day's secret before the game
/// is over (the server holds it and answers feedback only); the one that ends the game does.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_secret_stays_on_the_server_until_the_end() {
    if Server::is_static() {
        eprintln!(
            "the secret's travel is checked on moo serve: the static site has no network engine"
        );
        return;
    }
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    let date = "2026-04-01";
    let secret = daily_secret(moo_core::Preset::Mastermind, date);
    b.open(&server.url).await;
    // On another page, every answer is recorded from before the daily page asks anything.
    b.on_day(&server.url, date, "#review").await;
    b.js("window.answers = []; const f = window.fetch; window.fetch = async (...a) => { const r = await f(...a); window.answers.push(await r.clone().text()); return r; };")
        .await;
    b.js("location.hash = '#daily?g=mastermind';").await;
    b.wait("document.activeElement.id === 'daily-input'").await;
    let mut played = 0;
    for guess in ["1122", "3344", "5566", "1234"] {
        if guess == secret {
            continue;
        }
        b.keys(&format!("{guess}\u{E007}")).await;
        played += 1;
        b.wait(&format!(
            "document.querySelectorAll('#daily-history tbody tr').length === {played}"
        ))
        .await;
    }
    // A hint is refused to a daily game.
    let hint = b
        .js_async("const id = window.answers.map((t) => JSON.parse(t)).find((a) => a.id).id; fetch(`api/games/${id}/hint`).then((r) => r.json()).then(done);")
        .await;
    assert!(
        hint["error"].as_str().unwrap().contains("no hints"),
        "{hint}"
    );
    let carries = |answers: &Value| {
        answers
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a.as_str().unwrap().contains(&format!("\"{secret}\"")))
    };
    let before = b.js("return window.answers;").await;
    assert!(before.as_array().unwrap().len() >= played + 2, "{before}");
    assert!(
        !carries(&before),
        "an answer carried the secret {secret}: {before}"
    );
    b.keys(&format!("{secret}\u{E007}")).await;
    b.wait("document.querySelector('#daily-end').dataset.ready")
        .await;
    let after = b.js("return window.answers;").await;
    assert!(carries(&after), "the end did not show the secret");
    b.stop().await;
}

// ---- the phone-first board -------------------------------------------------------------------

/// Every colour key's symbol (and a colour peg's in the guesses) is at least 4.5:1 on its colour,
/// in light mode and in dark: the blue, purple, red and brown keys take white text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_colour_keys_have_contrast_in_light_and_dark() {
    let _one = BROWSER_LOCK.lock().await;
    let server = Server::site();
    for flags in [&[][..], DARK] {
        let Some(b) = Browser::start_with(flags).await else {
            return;
        };
        b.open_page(&server, "play?g=mastermind&seed=1&h=1234")
            .await;
        b.wait("document.querySelectorAll('.cbtn').length >= 6 && document.querySelectorAll('#play-history .cpeg').length === 4")
            .await;
        let bad = b
            .js(&format!("{CONTRAST_JS}
return [...document.querySelectorAll('.cbtn, .cpeg')].map((e) => [e.textContent, ratio(getComputedStyle(e).color, bg(e))])
  .filter(([, r]) => r < 4.5).map(([t, r]) => `${{t}}: ${{r.toFixed(2)}}:1`);"))
            .await;
        assert_eq!(bad, json!([]), "with Chromium flags {flags:?}");
        b.stop().await;
    }
}

/// The symbols `turns` rule out, by the core: those no code left holds.
fn ruled_out(rules: &Rules, turns: &[(&str, &str)]) -> String {
    let mut history = moo_core::History::new();
    for (guess, secret) in turns {
        let guess = rules.parse_code(guess).unwrap();
        history.push(guess, guess.score(&rules.parse_code(secret).unwrap()));
    }
    history.ruled_out(rules).unwrap().into_iter().collect()
}

/// The symbols a keypad marks as ruled out.
async fn marked(b: &Browser, keypad: &str) -> String {
    b.js(&format!("return [...document.querySelectorAll('{keypad} .key.out')].map((k) => k.dataset.symbol).join('');"))
        .await
        .as_str()
        .unwrap()
        .to_string()
}

/// The Play page's keypad on a phone: a key per digit with delete and enter keys, each at least
/// 44 px; a guess typed on it and played; the digits no code left holds marked as the core
/// says; the keys reached by the arrow keys; the box still taking typed guesses; and the latest
/// guesses in view above the keypad. Seed 4's secret is 6947 (`moo play --seed 4`), so 0123
/// gets nothing and rules its four digits out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_keypad_plays_and_marks_ruled_out_symbols() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    b.phone().await;
    b.open_page(&server, "play?g=bulls&seed=4").await;
    b.wait("document.querySelectorAll('#play-keys .key[data-symbol]').length === 10")
        .await;
    let small = b
        .js("return [...document.querySelectorAll('#play-keys button')].filter((k) => { const r = k.getBoundingClientRect(); return r.width < 43.5 || r.height < 43.5; }).length;")
        .await;
    assert_eq!(small, json!(0), "keys under 44 px");
    for d in ["0", "1", "2", "9"] {
        b.click(&format!("#play-keys [data-symbol='{d}']")).await;
    }
    b.click("#play-keys .key-back").await;
    b.click("#play-keys [data-symbol='3']").await;
    let typed = b
        .js("return document.querySelector('#guess-input').value;")
        .await;
    assert_eq!(typed, json!("0123"));
    b.click("#play-keys .key-enter").await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 1")
        .await;
    let rules = Rules::bulls();
    assert_eq!(marked(&b, "#play-keys").await, "0123");
    let label = b
        .js("return document.querySelector('#play-keys [data-symbol=\"0\"]').getAttribute('aria-label');")
        .await;
    assert!(label.as_str().unwrap().contains("ruled out"), "{label}");
    // From the keyboard: the arrow keys walk the keys, Enter types one.
    b.js("document.querySelector('#play-keys [data-symbol=\"4\"]').focus();")
        .await;
    type_keys(&b, "\u{E014}\u{E007}").await;
    let typed = b
        .js("return [document.activeElement.dataset.symbol, document.querySelector('#guess-input').value];")
        .await;
    assert_eq!(typed, json!(["5", "5"]));
    // The box still takes a typed guess.
    b.js("const i = document.querySelector('#guess-input'); i.value = ''; i.focus();")
        .await;
    type_keys(&b, "4567\u{E007}").await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 2")
        .await;
    let want = ruled_out(&rules, &[("0123", "6947"), ("4567", "6947")]);
    assert_eq!(marked(&b, "#play-keys").await, want);
    type_keys(&b, "8901\u{E007}").await;
    b.wait("document.querySelectorAll('#play-history tbody tr').length === 3")
        .await;
    let layout = b
        .js("const t = document.querySelector('#play-history tbody tr').getBoundingClientRect(); const k = document.querySelector('#play-keys').getBoundingClientRect(); return [t.top >= 0, t.bottom <= k.top, k.bottom <= window.innerHeight + 1, t.top, k.bottom, window.innerHeight, scrollY];")
        .await;
    let layout = layout.as_array().unwrap();
    assert_eq!(
        layout[..3],
        [true, true, true],
        "the latest guess in view above the keypad, the keypad in view (top, keypad bottom, height, scroll): {:?}",
        &layout[3..]
    );
    let png = b.client.screenshot().await.unwrap();
    std::fs::write(screenshot_dir().join("play-keypad-phone.png"), png).unwrap();
    b.stop().await;
}

/// A win that feels like one: a headline with the number of guesses takes the focus, with a
/// short animation (none when the system asks for reduced motion), and sharing the game and its
/// review are offered. Seed 4's secret is 6947.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_win_celebrates_unless_motion_is_reduced() {
    let _one = BROWSER_LOCK.lock().await;
    let server = Server::site();
    for reduced in [false, true] {
        let flags: &[&str] = if reduced {
            &["--force-prefers-reduced-motion"]
        } else {
            &[]
        };
        let Some(b) = Browser::start_with(flags).await else {
            return;
        };
        b.open_page(&server, "play?g=bulls&seed=4").await;
        b.wait("document.activeElement.id === 'guess-input'").await;
        type_keys(&b, "0123\u{E007}").await;
        b.wait("document.querySelectorAll('#play-history tbody tr').length === 1")
            .await;
        type_keys(&b, "6947\u{E007}").await;
        b.wait("document.activeElement.id === 'play-win-title'")
            .await;
        let title = b.text("#play-win-title").await;
        assert!(title.contains("You won in 2 guesses"), "{title}");
        let motion = b
            .js("return [matchMedia('(prefers-reduced-motion: reduce)').matches, getComputedStyle(document.querySelector('#play-win')).animationName];")
            .await;
        if reduced {
            assert_eq!(motion, json!([true, "none"]));
        } else {
            assert_eq!(motion[0], json!(false));
            assert_ne!(motion[1], json!("none"), "no animation: {motion}");
        }
        let actions = b
            .js("return [...document.querySelectorAll('#play-win button')].filter((e) => e.checkVisibility()).map((e) => e.id);")
            .await;
        for id in ["play-win-share", "play-win-review", "play-win-new"] {
            assert!(
                actions.as_array().unwrap().contains(&json!(id)),
                "{actions}"
            );
        }
        b.click("#play-win-review").await;
        b.wait("document.activeElement.closest('#play-review')")
            .await;
        b.screenshots(
            if reduced {
                "play-win-still"
            } else {
                "play-win"
            },
            "main",
        )
        .await;
        b.stop().await;
    }
}

/// A duel answered by hand with two slips: seed 5 at level 4 guesses 0123, then after
/// "nothing" 4567, and "nothing" again fits no code. The player's secret is 0456, so both
/// answers were wrong (1 bull, then 3 cows): each alone is offered as a fix with the answers
/// that would fit, and both are corrected at once; the duel goes on to the computer's win,
/// answered from 0456. On the way, the keypad marks what the player's own guesses rule out.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn browser_duel_repairs_contradicting_answers() {
    let Some((_one, b, server)) = browser_on_site().await else {
        return;
    };
    let rules = Rules::bulls();
    let (mine, its) = ("0456", duel_secret(5));
    let mut guesses = [
        "5678", "5679", "1234", "2345", "3456", "1357", "2468", "1470",
    ]
    .into_iter()
    .filter(|g| *g != its);
    open_duel(&b, &server.url, "g=bulls&seed=5&level=4").await;
    for _ in 0..2 {
        type_keys(&b, &format!("{}\u{E007}", guesses.next().unwrap())).await;
        b.wait("document.activeElement.id === 'duel-bulls'").await;
        type_keys(&b, "0\u{E007}").await;
    }
    b.wait("document.querySelector('#duel-repairs button')")
        .await;
    let offered = b
        .js("return [...new Set([...document.querySelectorAll('#duel-repairs button[data-turn]')].map((e) => e.dataset.turn + ' ' + e.dataset.feedback))];")
        .await;
    let offered = offered.as_array().unwrap();
    for want in ["1 0B2C", "1 1B1C", "2 0B4C", "2 1B1C"] {
        assert!(offered.contains(&json!(want)), "{offered:?}");
    }
    b.js("document.querySelector('#duel-several').open = true;")
        .await;
    b.js("const set = (t, n, v) => { document.querySelector(`#duel-several input[data-turn=\"${t}\"][data-count=\"${n}\"]`).value = v; }; set(1, 'hit', 1); set(2, 'near', 3);")
        .await;
    b.click("#duel-several-apply").await;
    b.wait("document.activeElement.id === 'duel-guess'").await;
    let rows = b.text("#duel-its tbody").await;
    assert!(
        rows.contains("1 bull, 0 cows") && rows.contains("0 bulls, 3 cows"),
        "{rows}"
    );
    let played: Vec<(&str, &str)> = vec![("5678", its.as_str()), ("5679", its.as_str())];
    assert_eq!(marked(&b, "#duel-keys").await, ruled_out(&rules, &played));
    for _ in 0..6 {
        let over = b.js("return document.querySelector('#duel-guess-form').hidden && document.querySelector('#duel-answer-form').hidden;").await;
        if over == json!(true) {
            break;
        }
        type_keys(&b, &format!("{}\u{E007}", guesses.next().unwrap())).await;
        b.wait("document.activeElement.id === 'duel-bulls' || document.querySelector('#duel-answer-form').hidden && document.querySelector('#duel-guess-form').hidden").await;
        let pending = b.js("return document.querySelector('#duel-answer-form').hidden ? null : document.querySelector('#duel-pending').textContent.match(/guesses (\\d{4})/)[1];").await;
        let Some(guess) = pending.as_str() else { break };
        let f = rules
            .parse_code(guess)
            .unwrap()
            .score(&rules.parse_code(mine).unwrap());
        type_keys(&b, &format!("{}\u{E004}{}\u{E007}", f.bulls, f.cows)).await;
        b.wait("document.activeElement.id === 'duel-guess' || document.activeElement.id === 'duel-start'").await;
    }
    let status = b.text("#duel-status").await;
    assert!(status.contains("The computer wins"), "{status}");
    b.stop().await;
}
