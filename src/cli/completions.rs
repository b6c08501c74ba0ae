//! `moo completions`: a tab-completion script for a shell, generated from the CLI definition.
//!
//! Generated rather than written by hand so the script knows every subcommand, flag and value
//! (`--game bulls|mastermind`, `--objective`, ...) of the very binary that prints it.

use std::io::Write;

use clap_complete::Shell;

/// Arguments of `moo completions`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo completions bash > ~/.local/share/bash-completion/completions/moo
  moo completions zsh > ~/.zfunc/_moo          with fpath+=~/.zfunc before compinit
  moo completions fish > ~/.config/fish/completions/moo.fish
  moo completions powershell >> $PROFILE")]
pub struct Args {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: Shell,
}

/// Prints the completion script of `command` (the whole `moo` CLI) for the chosen shell.
pub fn run(args: Args, mut command: clap::Command) -> anyhow::Result<()> {
    // clap_complete panics on a failed write, so the script is made in memory and written here,
    // where a closed pipe is an ordinary error.
    let mut script = Vec::new();
    let name = command.get_name().to_string();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}
