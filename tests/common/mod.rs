//! Helpers shared by the CLI tests.

use assert_cmd::Command;

/// The `moo` binary under test, with no terminal and no colour.
pub fn moo() -> Command {
    let mut cmd = Command::cargo_bin("moo").expect("the moo binary is built");
    cmd.env("NO_COLOR", "1");
    cmd
}

/// Runs `moo` with `args` and `stdin`, returning (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: &str) -> (i32, String, String) {
    let out = moo()
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("moo runs");
    (
        out.status
            .code()
            .expect("moo exits normally, not by a signal"),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}
