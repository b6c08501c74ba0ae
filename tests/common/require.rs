//! What a test does when a tool it needs (Chromium, Slurm, root's device nodes) is missing: under
//! CI, where everything is installed, it fails saying what to install, since a test that passes
//! without checking anything would hide a broken installation; on a developer's machine it is
//! skipped, said loudly past the test harness's capture.

use std::io::Write;

/// Whether a missing tool fails the test: under CI (`CI=true`) or when `var` is 1.
pub fn required(var: &str) -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true") || std::env::var(var).is_ok_and(|v| v == "1")
}

/// Says that `what` (such as "the browser tests of tests/web.rs") cannot run, and `why` (what
/// to install): a panic where [`required`], else a warning on the real stderr, once per `what`,
/// after which the caller skips.
pub fn missing(what: &str, var: &str, why: &str) {
    assert!(
        !required(var),
        "{why} ({what} are required here: CI=true or {var}=1)"
    );
    static WARNED: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut warned = WARNED.lock().unwrap_or_else(|p| p.into_inner());
    if warned.iter().any(|w| w == what) {
        return;
    }
    warned.push(what.to_string());
    let _ = writeln!(
        std::io::stderr(),
        "\n!!! WARNING: {what} are SKIPPED and pass without checking anything.\n!!! {why}\n!!! \
         Set {var}=1 (or CI=true) to make them fail instead.\n"
    );
}
