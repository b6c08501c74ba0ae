//! The statistics of a tree, as `tree verify` and `tree join` print them.

use anyhow::Result;
use moo_core::TreeStats;

use crate::cli::output::outln;

pub fn print_stats(stats: &TreeStats) -> Result<()> {
    outln!("secrets   {}", stats.secrets)?;
    outln!("total     {}", stats.total)?;
    outln!("average   {:.4}", stats.average)?;
    outln!("worst     {} ({} secrets)", stats.max, stats.at_worst)?;
    let histogram: Vec<String> = stats
        .histogram
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{}:{c}", i + 1))
        .collect();
    outln!("histogram {}  (guesses:secrets)", histogram.join(" "))
}
