//! `moo man`: the manual page, as roff on stdout, generated from the CLI definition.
//!
//! A subcommand rather than a build step: `cargo install` installs binaries only, so a page made
//! at build time would sit unseen in `target/`. Printed by the binary, the page always describes
//! the flags of the moo at hand, and one command installs it (`moo man > ~/.local/share/man/man1/moo.1`).

use std::io::Write;

use super::UsageError;

/// Arguments of `moo man`.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  moo man | man -l -                                read the manual now
  moo man > ~/.local/share/man/man1/moo.1           install it: then `man moo`
  moo man tree build | man -l -                     the page of one subcommand")]
pub struct Args {
    /// The subcommand whose page to print, with its flags in full (`tree build` for a nested one);
    /// without it, the page of moo.
    #[arg(value_name = "COMMAND")]
    command: Vec<String>,
}

/// Prints the manual page of `command` (the whole `moo` CLI), or of one of its subcommands.
pub fn run(args: Args, command: clap::Command) -> anyhow::Result<()> {
    // Built as clap_mangen's own generate_to does, so subcommands know their full names
    // (`moo tree` in the synopsis, moo-tree(1) in the title).
    let mut command = command.disable_help_subcommand(true);
    command.build();
    let mut page = &command;
    for name in &args.command {
        page = match page.find_subcommand(name) {
            Some(sub) => sub,
            None => {
                let names: Vec<&str> = page.get_subcommands().map(|c| c.get_name()).collect();
                let within = page.get_bin_name().unwrap_or(page.get_name());
                return Err(UsageError(match names.is_empty() {
                    true => format!("{within} has no subcommands"),
                    false => format!(
                        "{within} has no command {name:?}: choose from {}",
                        names.join(", ")
                    ),
                })
                .into());
            }
        };
    }
    let mut roff = Vec::new();
    let source = format!(
        "{} {}",
        command.get_name(),
        command.get_version().unwrap_or_default()
    );
    clap_mangen::Man::new(page.clone())
        .source(source)
        .render(&mut roff)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&roff)?;
    out.flush()?;
    Ok(())
}
