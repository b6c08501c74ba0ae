//! Hostile input, output and load: the real `moo` binary fed what a careless user or an
//! attacker would feed it, and the web server held open by slow clients.
//!
//! Every CLI case runs in a fresh directory of its own inside one temporary directory, with that
//! directory as its working directory, `TMPDIR` and `HOME`, and with an address-space limit set
//! before `exec`, so a runaway allocation fails inside the child instead of filling the machine.
//! Each case checks its exit code and message, that nothing panicked, that no file was left
//! behind or replaced (device nodes and FIFOs made here stay what they are), and each test
//! checks that no child's peak resident memory reached 1 GB and that nothing outside its
//! temporary directory changed. Devices are made with `mknod` inside the temporary directory,
//! never touched under the real `/dev`; cases that need root or a tmpfs mount are skipped, with
//! a warning, where those are not available, and fail under CI (`CI=true` or
//! `MOO_REQUIRE_ROOT=1`).
//!
//! Each test is one area's cases, runnable alone (`cargo test --release --test hostile plots`),
//! and prints `hostile: NAME: N cases tried, N passed`.

#[path = "../common/require.rs"]
mod require;

mod checkpoints;
mod harness;
mod limits;
mod output;
mod parsing;
mod server;

/// Held by the tests that run commands or load the machine, so they run one at a time: the
/// time limits of one would measure the load of another.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
