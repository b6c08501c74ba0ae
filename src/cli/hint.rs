//! `moo hint`.

use super::RuleArgs;

/// Arguments of `moo hint`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    rules: RuleArgs,
}

/// Runs `moo hint`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let _rules = args.rules.rules()?;
    anyhow::bail!("moo hint is not written yet")
}
