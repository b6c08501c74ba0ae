//! The file `moo tree join` writes beside a joined tree: what its claim of optimality rests on.
//!
//! The join replays the tree it writes, so its total, worst case and histogram are checked. That
//! no other strategy does better is not: each job claims that its part has no cheaper subtree
//! (or that no tree of it fits a bound), and the join takes every such claim as proven by that
//! job's own search. The tree file must stay byte for byte what `tree build` writes, so the claims
//! go to a file of their own, one entry per job result, with the machine and kernel that ran it,
//! so a reader can re-prove on a machine they trust (`moo tree job --force`) exactly the claims
//! they doubt.

use std::path::{Path, PathBuf};

use anyhow::Result;
use moo_core::tree::{JobResult, PartOutcome};
use moo_core::{DecisionTree, Kernel, TreeStats};
use serde::Serialize;

use crate::cli::output::write_file;

/// The claims file's format name, so a reader can tell it from a tree or a result.
const CLAIMS_FORMAT: &str = "moo-claims/1";

/// The whole file.
#[derive(Debug, Serialize)]
struct Claims<'a> {
    format: &'static str,
    /// The tree these claims stand behind, as `tree join -o` named it.
    tree: String,
    /// The tree's first guess: the parts under it are the tree's own subtrees.
    first_guess: String,
    /// What replaying the tree measured (checked by the join, not a claim).
    stats: &'a TreeStats,
    /// One entry per job result the join read, in job order.
    claims: Vec<Claim<'a>>,
}

/// What one job's result claims, and on whose search it rests.
#[derive(Debug, Serialize)]
struct Claim<'a> {
    job: usize,
    /// The job as `tree status` names it: first guess, feedback, the way below, the size.
    position: String,
    /// What the job's search claims to have proven, in words.
    proves: String,
    /// What the join could check of it: `replayed` when the claim comes with a subtree under
    /// the tree's first guess (its cost is checked by the replay, its optimality is not),
    /// `search only` otherwise (a bound, or a first guess the tree does not play).
    checked: &'static str,
    /// The machine that ran the job, as its runner recorded it.
    host: &'a str,
    /// The kernel level its search ran at, when recorded.
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel: Option<Kernel>,
}

/// Where the claims of a tree written to `output` go by default: beside it, `.claims.json`
/// added to its name. `None` when `output` is not a plain file (a device or a pipe), which
/// has no "beside".
pub fn default_path(output: &Path) -> Option<PathBuf> {
    match std::fs::metadata(output) {
        Ok(meta) if !meta.is_file() => None,
        _ => {
            let mut name = output.as_os_str().to_owned();
            name.push(".claims.json");
            Some(PathBuf::from(name))
        }
    }
}

/// Writes the claims of `tree` (replayed to `stats`, written to `output`) from the job results
/// it was joined from.
pub fn write(
    path: &Path,
    output: &Path,
    tree: &DecisionTree,
    stats: &TreeStats,
    results: &[Option<JobResult>],
) -> Result<()> {
    let first_guess = tree.rules().format_code(&tree.root().guess);
    let claims = Claims {
        format: CLAIMS_FORMAT,
        tree: output.display().to_string(),
        stats,
        claims: results
            .iter()
            .flatten()
            .map(|r| claim(r, &first_guess))
            .collect(),
        first_guess,
    };
    let mut text = serde_json::to_string_pretty(&claims)?;
    text.push('\n');
    write_file(path, text.as_bytes())
}

fn claim<'a>(result: &'a JobResult, first_guess: &str) -> Claim<'a> {
    let e = &result.entry;
    let under_root = e.guess == first_guess;
    let (proves, has_tree) = proves(&result.outcome);
    Claim {
        job: e.index,
        position: format!(
            "{} {}{} ({} secrets)",
            e.guess,
            e.feedback,
            e.then(),
            e.size
        ),
        proves,
        checked: if has_tree && under_root {
            "replayed"
        } else {
            "search only"
        },
        host: result.host.as_deref().unwrap_or("unrecorded"),
        kernel: result.kernel,
    }
}

/// A result's claim in words, and whether it comes with a subtree.
fn proves(outcome: &PartOutcome) -> (String, bool) {
    match outcome {
        PartOutcome::Solved { total, worst, .. } => (
            format!("no subtree costs less than {total} guesses after the first (its own takes {total}, at most {worst} deep)"),
            true,
        ),
        PartOutcome::Depths { columns } => {
            let each: Vec<String> = columns
                .iter()
                .map(|c| format!("{} within {}", c.total, c.depth))
                .collect();
            (
                format!("the cheapest subtree for each depth limit: {}", each.join(", ")),
                true,
            )
        }
        PartOutcome::Impossible { max_depth } => (
            format!("no subtree solves the part within {max_depth} more guesses"),
            false,
        ),
        PartOutcome::AtLeast { bound } => (
            format!("every subtree costs at least {bound} guesses"),
            false,
        ),
        PartOutcome::Pieces { pieces } => {
            let each: Vec<(String, bool)> = pieces.iter().map(proves).collect();
            let words: Vec<&str> = each.iter().map(|(w, _)| w.as_str()).collect();
            (
                format!("piece by piece: {}", words.join("; ")),
                each.iter().any(|(_, t)| *t),
            )
        }
    }
}
