//! `moo play`.

use super::RuleArgs;

/// Arguments of `moo play`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RuleArgs,
}

/// Runs `moo play`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let _rules = args.rules.rules()?;
    anyhow::bail!("moo play is not written yet")
}
