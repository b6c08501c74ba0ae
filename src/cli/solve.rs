//! `moo solve`.

use super::RuleArgs;

/// Arguments of `moo solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RuleArgs,
}

/// Runs `moo solve`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let _rules = args.rules.rules()?;
    anyhow::bail!("moo solve is not written yet")
}
