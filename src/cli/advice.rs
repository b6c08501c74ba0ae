//! Choosing the computer's guess: by a named strategy, or by the best one available.
//!
//! `solve` and `hint` share this so that "the best guess" means the same thing in both.

use anyhow::Context;
use moo_core::strategy::{self, Knowledge, Strategy, StrategyOptions};
use moo_core::{Code, CodeSet, CodeSpace, History};
use std::fmt::Write as _;

use super::UsageError;

/// Strategies tried in order when none is named: the first that exists and can answer wins, so a
/// tree-following strategy that does not know the position falls back to a heuristic.
pub const PREFERRED: &[&str] = &["optimal", "knuth", "simple"];

/// The strategies to consult: the named one, or the preferred ones that exist for this space.
pub fn strategies(
    name: Option<&str>,
    space: &CodeSpace,
    options: &StrategyOptions,
) -> anyhow::Result<Vec<Box<dyn Strategy>>> {
    if let Some(name) = name {
        let s = strategy::by_name(name, space, options).map_err(|e| {
            // A tree file that cannot be read or checked is a runtime error (exit 1), as for
            // `moo tree verify`; a strategy that does not exist or fit is a usage error (2).
            if name.starts_with("tree:") {
                anyhow::Error::new(e)
            } else {
                UsageError(e.to_string()).into()
            }
        })?;
        return Ok(vec![s]);
    }
    let found: Vec<_> = PREFERRED
        .iter()
        .filter_map(|n| strategy::by_name(n, space, options).ok())
        .collect();
    anyhow::ensure!(!found.is_empty(), "no strategy can play these rules");
    Ok(found)
}

/// The next guess from the first strategy that can give one, with that strategy's name.
pub fn next_guess(
    strategies: &mut [Box<dyn Strategy>],
    space: &CodeSpace,
    history: &History,
    candidates: &CodeSet,
) -> anyhow::Result<(Code, String)> {
    let knowledge = Knowledge {
        space,
        history,
        candidates,
    };
    let mut last_error = None;
    for s in strategies.iter_mut() {
        match s.next_guess(&knowledge) {
            Ok(code) => return Ok((code, s.name().to_string())),
            Err(e) => last_error = Some(e),
        }
    }
    Err(last_error.expect("at least one strategy is consulted"))
        .context("no strategy could choose a guess")
}

/// One sentence on why `guess` is a good next guess for `candidates`.
pub fn explain(space: &CodeSpace, candidates: &CodeSet, guess: &Code, strategy: &str) -> String {
    let rules = space.rules();
    let n = candidates.len();
    let g = space
        .index_of(guess)
        .expect("strategies guess codes of the space");
    let stats = strategy::partition_stats(space, g, candidates);
    format!(
        "Best next guess: {} ({strategy}): splits the {n} code{} into {} group{}, the largest of {}, {:.2} expected left, {:.2} bits; {}.",
        rules.format_code(guess),
        if n == 1 { "" } else { "s" },
        stats.parts,
        if stats.parts == 1 { "" } else { "s" },
        stats.largest,
        stats.expected_size,
        stats.entropy,
        if stats.is_candidate {
            "it could be the secret"
        } else {
            "it cannot be the secret, but it narrows them down best"
        }
    )
}

/// What to tell a user whose answers no code fits: which single answer, changed, would fit.
pub fn contradiction(space: &CodeSpace, history: &History) -> String {
    let rules = space.rules();
    let mut msg = String::from("no code fits all the answers: one of them must be wrong");
    let repairs = history.repairs(space);
    if repairs.is_empty() {
        msg.push_str("\n  no single changed answer would fix it: more than one is wrong");
    }
    for r in repairs {
        let t = history.turns()[r.turn];
        let alts: Vec<String> = r
            .alternatives
            .iter()
            .map(|(f, n)| format!("{f} ({n} code{} left)", if *n == 1 { "" } else { "s" }))
            .collect();
        let _ = write!(
            msg,
            "\n  if the answer to guess {} ({}) was not {} but {}, it would fit",
            r.turn + 1,
            rules.format_code(&t.guess),
            t.feedback,
            alts.join(" or ")
        );
    }
    msg
}
