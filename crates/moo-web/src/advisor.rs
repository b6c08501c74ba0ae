//! A stand-in for `moo_core::advisor` with the same types and signature, until it lands on main:
//! the routes and the pages are written against that contract, so this file goes away whole.

use moo_core::strategy::{self, partition_stats, GuessPool, StrategyOptions};
use moo_core::{CodeSpace, Feedback, History, Knowledge, Stop};
use serde::Serialize;

#[derive(Clone, Default)]
pub struct Advisor;

#[non_exhaustive]
#[derive(Default, Clone, Debug)]
#[allow(dead_code)]
pub struct AdviceOptions {
    pub strategy: Option<String>,
    pub guesses: GuessPool,
    pub seed: u64,
}

#[derive(Serialize, Debug, Clone)]
pub struct Position {
    pub turns: Vec<TurnReport>,
    pub remaining: usize,
    pub candidates: Vec<String>,
    pub won: bool,
    pub advice: Option<Advice>,
    pub contradiction: Option<Contradiction>,
}

#[derive(Serialize, Debug, Clone)]
pub struct TurnReport {
    pub guess: String,
    pub feedback: String,
    pub bulls: u8,
    pub cows: u8,
}

#[derive(Debug, thiserror::Error)]
pub enum AdviceError {
    #[error(transparent)]
    Strategy(#[from] moo_core::StrategyError),
}

#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    Heuristic,
    Named,
}

#[derive(Serialize, Debug, Clone)]
pub struct Advice {
    pub guess: String,
    pub method: Method,
    pub strategy: String,
    pub proven_optimal: bool,
    pub remaining: usize,
    pub total_guesses: Option<u64>,
    pub partition: PartitionReport,
    pub sampled: bool,
    pub note: Option<String>,
    pub explanation: String,
    pub seconds: f64,
}

#[derive(Serialize, Debug, Clone)]
pub struct PartitionReport {
    pub parts: usize,
    pub largest: usize,
    pub expected_size: f64,
    pub entropy_bits: f64,
    pub is_candidate: bool,
}

#[derive(Serialize, Debug, Clone)]
pub struct Contradiction {
    pub repairs: Vec<RepairReport>,
    pub single_change_fixes: bool,
    pub message: String,
}

#[derive(Serialize, Debug, Clone)]
pub struct RepairReport {
    pub turn: usize,
    pub guess: String,
    pub feedback: String,
    pub alternatives: Vec<Alternative>,
}

#[derive(Serialize, Debug, Clone)]
pub struct Alternative {
    pub feedback: String,
    pub remaining: usize,
}

impl Advisor {
    pub fn new() -> Advisor {
        Advisor
    }

    pub fn position(
        &self,
        space: &CodeSpace,
        history: &History,
        options: &AdviceOptions,
        list: usize,
        _stop: &Stop,
    ) -> Result<Position, AdviceError> {
        let start = std::time::Instant::now();
        let rules = space.rules();
        let code = |c: &moo_core::Code| rules.format_code(c);
        let turns = history
            .turns()
            .iter()
            .map(|t| TurnReport {
                guess: code(&t.guess),
                feedback: t.feedback.to_string(),
                bulls: t.feedback.bulls,
                cows: t.feedback.cows,
            })
            .collect();
        let candidates = history.candidates(space);
        let won = history.is_won(rules.length());
        let mut position = Position {
            turns,
            remaining: candidates.len(),
            candidates: candidates
                .iter()
                .take(list)
                .map(|i| code(&space.code(i)))
                .collect(),
            won,
            advice: None,
            contradiction: None,
        };
        if won {
            return Ok(position);
        }
        if candidates.is_empty() {
            let repairs: Vec<RepairReport> = history
                .repairs(space)
                .iter()
                .map(|r| {
                    let t = history.turns()[r.turn];
                    RepairReport {
                        turn: r.turn + 1,
                        guess: code(&t.guess),
                        feedback: t.feedback.to_string(),
                        alternatives: r
                            .alternatives
                            .iter()
                            .map(|(f, n)| Alternative {
                                feedback: f.to_string(),
                                remaining: *n,
                            })
                            .collect(),
                    }
                })
                .collect();
            position.contradiction = Some(Contradiction {
                single_change_fixes: !repairs.is_empty(),
                message: "no code fits all these answers".into(),
                repairs,
            });
            return Ok(position);
        }
        let name = options.strategy.clone().unwrap_or_else(|| "entropy".into());
        let mut s = strategy::by_name(&name, space, &StrategyOptions::default())?;
        let guess = s.next_guess(&Knowledge {
            space,
            history,
            candidates: &candidates,
        })?;
        let index = space.index_of(&guess).unwrap_or(0);
        let p = partition_stats(space, index, &candidates);
        let _ = Feedback::all(1);
        position.advice = Some(Advice {
            guess: code(&guess),
            method: if options.strategy.is_some() {
                Method::Named
            } else {
                Method::Heuristic
            },
            strategy: name,
            proven_optimal: false,
            remaining: candidates.len(),
            total_guesses: None,
            partition: PartitionReport {
                parts: p.parts,
                largest: p.largest,
                expected_size: p.expected_size,
                entropy_bits: p.entropy,
                is_candidate: p.is_candidate,
            },
            sampled: false,
            note: Some("stand-in advisor".into()),
            explanation: "the guess whose answer tells the most".into(),
            seconds: start.elapsed().as_secs_f64(),
        });
        Ok(position)
    }
}
