//! The advisor's answers as data: one `Serialize` type per report, printed as they are by the
//! CLI's `--json` and returned as they are by the web API, so both say the same thing.

use std::fmt;

use serde::Serialize;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::{History, Turn};
use crate::rules::Rules;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::strategy::PartitionStats;
use crate::tree::SearchError;

/// How the advised guess was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// One or two codes are left: guessing one of them is optimal.
    Endgame,
    /// A shipped optimal tree, followed through the game's symmetries.
    Tree,
    /// A plan an earlier exact search of this very position made.
    Cached,
    /// An exact search of the codes left, finished within the time limit.
    Exact,
    /// The bounded heuristic the advisor falls back on.
    Heuristic,
    /// The strategy the caller named.
    Named,
}

impl Method {
    /// Whether a move chosen this way is proven to be optimal for the codes left.
    pub fn is_proven(self) -> bool {
        matches!(
            self,
            Method::Endgame | Method::Tree | Method::Cached | Method::Exact
        )
    }
}

/// How a guess splits the codes left, in the terms people use to explain a choice.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct PartitionReport {
    /// Distinct feedbacks the guess can get.
    pub parts: usize,
    /// Codes left in the worst case.
    pub largest: usize,
    /// Codes left on average, every code equally likely.
    pub expected_size: f64,
    /// The information the feedback carries, in bits.
    pub entropy_bits: f64,
    /// Whether the guess may be the secret.
    pub is_candidate: bool,
}

impl From<PartitionStats> for PartitionReport {
    fn from(s: PartitionStats) -> PartitionReport {
        PartitionReport {
            parts: s.parts,
            largest: s.largest,
            expected_size: s.expected_size,
            entropy_bits: s.entropy,
            is_candidate: s.is_candidate,
        }
    }
}

/// The next guess for a position and how it was chosen.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Advice {
    /// The guess, as text.
    pub guess: String,
    /// The guess, as a code of the game.
    #[serde(skip)]
    pub code: Code,
    /// How it was chosen.
    pub method: Method,
    /// The strategy that chose it: `optimal` for proven moves, else the heuristic or the name
    /// the caller gave.
    pub strategy: String,
    /// Whether the guess is proven to need the fewest guesses on average from here.
    pub proven_optimal: bool,
    /// Codes still possible.
    pub remaining: usize,
    /// With a proven move: the guesses that solving every code left takes in total, this one
    /// and the winning guess included.
    pub total_guesses: Option<u64>,
    /// How the guess splits the codes left (over all of them, even when the choice was made on
    /// samples).
    pub partition: PartitionReport,
    /// Whether the heuristic scored samples of the guesses and codes rather than all of them.
    pub sampled: bool,
    /// Why the move is not proven optimal, when the advisor's policy chose it (written out as
    /// its message in JSON).
    pub note: Option<Unproven>,
    /// One sentence for people.
    pub explanation: String,
    /// Time taken to choose, in seconds.
    pub seconds: f64,
}

/// One turn of a history, as text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnReport {
    /// The guess.
    pub guess: String,
    /// The feedback, as `1B2C`.
    pub feedback: String,
    /// Bulls (black pegs).
    pub bulls: u8,
    /// Cows (white pegs).
    pub cows: u8,
}

impl TurnReport {
    /// A turn of a game played under `rules`.
    pub fn new(rules: &Rules, turn: &Turn) -> TurnReport {
        TurnReport {
            guess: rules.format_code(&turn.guess),
            feedback: turn.feedback.to_string(),
            bulls: turn.feedback.bulls,
            cows: turn.feedback.cows,
        }
    }

    /// Every turn of `history`.
    pub fn all(rules: &Rules, history: &History) -> Vec<TurnReport> {
        history
            .turns()
            .iter()
            .map(|t| TurnReport::new(rules, t))
            .collect()
    }
}

/// Another answer to a turn that would make a contradictory history consistent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Alternative {
    /// The answer, as `1B2C`.
    pub feedback: String,
    /// Codes it would leave.
    pub remaining: usize,
    /// Whether this is the likeliest fix of the whole contradiction: the answer nearest the one
    /// given (a miscount by one is the usual slip), and of those the one leaving the most codes.
    pub likely: bool,
}

/// A turn whose answer, changed, would make the history consistent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RepairReport {
    /// The turn, counted from 1.
    pub turn: usize,
    /// Its guess.
    pub guess: String,
    /// The answer given.
    pub feedback: String,
    /// The answers that would fit.
    pub alternatives: Vec<Alternative>,
}

/// No code fits every answer: which single answer, changed, would fix it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contradiction {
    /// Every turn whose answer, changed alone, makes the history consistent.
    pub repairs: Vec<RepairReport>,
    /// Whether changing one answer can fix it (else more than one is wrong).
    pub single_change_fixes: bool,
    /// The whole report as text for people (the [`fmt::Display`] form).
    pub message: String,
}

impl Contradiction {
    /// The report for a history no code of `space` fits.
    pub fn new(space: &CodeSpace, history: &History) -> Contradiction {
        Contradiction::until(space, history, &Stop::never())
    }

    /// [`Contradiction::new`], whose search for repairs gives up when `stop` fires: the report
    /// then says which answer is wrong could not be worked out in time.
    pub fn until(space: &CodeSpace, history: &History, stop: &Stop) -> Contradiction {
        let rules = space.rules();
        let found = history.repairs_until(space, stop);
        let slip = |a: Feedback, b: Feedback| a.bulls.abs_diff(b.bulls) + a.cows.abs_diff(b.cows);
        // (slip, fewer codes left first reversed, repair, alternative) of the likeliest fix.
        let mut likeliest: Option<(u8, std::cmp::Reverse<usize>, usize, usize)> = None;
        let mut repairs: Vec<RepairReport> = found
            .clone()
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .map(|(ri, r)| {
                let t = history.turns()[r.turn];
                for (ai, &(f, n)) in r.alternatives.iter().enumerate() {
                    let key = (slip(f, t.feedback), std::cmp::Reverse(n), ri, ai);
                    if likeliest.is_none_or(|best| key < best) {
                        likeliest = Some(key);
                    }
                }
                RepairReport {
                    turn: r.turn + 1,
                    guess: rules.format_code(&t.guess),
                    feedback: t.feedback.to_string(),
                    alternatives: r
                        .alternatives
                        .iter()
                        .map(|&(f, n)| Alternative {
                            feedback: f.to_string(),
                            remaining: n,
                            likely: false,
                        })
                        .collect(),
                }
            })
            .collect();
        if let Some((_, _, ri, ai)) = likeliest {
            repairs[ri].alternatives[ai].likely = true;
        }
        let mut message = String::from("no code fits all the answers: one of them must be wrong");
        if found.is_err() {
            message.push_str(
                "\n  which answer is wrong could not be worked out within the time limit: check the answers, or allow more time",
            );
        } else if repairs.is_empty() {
            message.push_str("\n  no single changed answer would fix it: more than one is wrong");
        }
        for r in &repairs {
            let alts: Vec<String> = r
                .alternatives
                .iter()
                .map(|a| format!("{} ({} left)", a.feedback, codes(a.remaining)))
                .collect();
            message.push_str(&format!(
                "\n  if the answer to guess {} ({}) was not {} but {}, it would fit",
                r.turn,
                r.guess,
                r.feedback,
                alts.join(" or ")
            ));
        }
        Contradiction {
            single_change_fixes: !repairs.is_empty(),
            repairs,
            message,
        }
    }
}

impl fmt::Display for Contradiction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Everything about a position: the turns, the codes left, and either the next guess, the win,
/// or the contradiction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Position {
    /// The turns so far.
    pub turns: Vec<TurnReport>,
    /// How many codes are still possible.
    pub remaining: usize,
    /// The first of them, in alphabet order (as many as the caller asked to list).
    pub candidates: Vec<String>,
    /// Whether the last turn won.
    pub won: bool,
    /// The next guess, unless the game is won or the answers contradict each other.
    pub advice: Option<Advice>,
    /// Which answers could be wrong, when no code fits them all.
    pub contradiction: Option<Contradiction>,
}

impl Position {
    /// The first `list` codes of `set`, as text.
    pub(crate) fn listed(space: &CodeSpace, set: &CodeSet, list: usize) -> Vec<String> {
        set.iter()
            .take(list)
            .map(|i| space.rules().format_code(&space.code(i)))
            .collect()
    }
}

/// Why the advisor's policy could not prove its move optimal and fell back on the heuristic. A
/// front end matches on the variant to say what would help (more time, more table memory); the
/// message is the sentence for people, and the JSON form.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Unproven {
    /// The space is too large for a score table at all.
    #[error("not proven optimal: exact searches need the score table, which is built for at most {cap} codes, and this space has {codes}")]
    TableCapped {
        /// Codes in the space.
        codes: usize,
        /// The most codes a table is built for.
        cap: usize,
    },
    /// The space was built without its score table, which more memory would allow.
    #[error("not proven optimal: exact searches need the score table, which this space of {codes} codes was built without (the table of n codes takes n x n bytes)")]
    NoTable {
        /// Codes in the space.
        codes: usize,
    },
    /// The exact search did not finish within its share of the time limit.
    #[error("not proven optimal: the exact search of the {} left did not finish within the time limit ({seconds:.2} s)", codes(*left))]
    TimeLimit {
        /// Codes left in the position searched.
        left: usize,
        /// Time taken until the search was stopped, in seconds.
        seconds: f64,
    },
    /// The exact search could not run.
    #[error("not proven optimal: {0}")]
    Search(SearchError),
}

impl Serialize for Unproven {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

/// "1 code" or "5 codes".
pub(crate) fn codes(n: usize) -> String {
    format!("{n} code{}", if n == 1 { "" } else { "s" })
}
