//! The advisor: the one place that decides which guess to play next, for `moo solve`, `moo hint`,
//! `moo play`'s hints and every web route alike.
//!
//! A player rarely stays on the shipped optimal tree, and a demanding one still wants an optimal
//! move, so the advisor goes as far towards a proof as the time limit allows, in this order:
//!
//! 1. One or two codes left: guess one of them (1 and 3 guesses in total, which nothing beats).
//! 2. A shipped optimal tree, followed through the game's symmetries (instant).
//! 3. A move cached from an earlier exact search of this very candidate set (instant).
//! 4. An exact search of the candidate set (any position, not only a whole game), stopped at
//!    [`EXACT_SHARE`] of the time left. When it finishes, every position of its optimal plan is
//!    cached, so the rest of the game is answered at once.
//! 5. Else the entropy heuristic, bounded by sampling on games too large to score in full, so
//!    that every game moo accepts gets a guess within the limit.
//!
//! Moves from steps 1 to 4 are proven optimal for the codes left (a subtree of an optimal tree
//! is optimal for its own set) and say so. A caller that names a strategy gets that strategy's
//! move, reported the same way.

mod cache;
mod report;

pub use report::{
    Advice, Alternative, Contradiction, Method, PartitionReport, Position, RepairReport,
    TurnReport, Unproven,
};

use std::sync::Arc;
use web_time::Instant;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::history::History;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::strategy::{
    self, partition_stats, GuessPool, Knowledge, PartitionScore, PartitionStats, PartitionStrategy,
    Sampling, Strategy, StrategyError, StrategyOptions, TreeStrategy,
};
use crate::tree::{self, Search, SearchOptions, SearchOutcome};
use cache::{PlanCache, Planned};
use report::codes;

/// The registry name that selects the advisor's own policy rather than one strategy.
pub const OPTIMAL: &str = "optimal";

/// The heuristic the advisor falls back on: the best of the partition rules on Bulls and Cows
/// (26424 guesses over the 5040 secrets, against 26551 for expected size and 27139 for Knuth's
/// minimax; see the bench table in the book's
/// `docs/src/strategies.md`).
pub const FALLBACK: PartitionScore = PartitionScore::Entropy;

/// The share of the time left that an exact search may take; the rest is kept for the
/// heuristic, should the search not finish.
pub const EXACT_SHARE: f64 = 0.8;

/// The memory the cache of proven moves may take.
const PLAN_BUDGET: usize = 256 << 20;

/// What the advisor is asked for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AdviceOptions {
    /// A registry strategy to use instead of the advisor's policy (`optimal` or `None`: the
    /// policy).
    pub strategy: Option<String>,
    /// Which codes may be guessed.
    pub guesses: GuessPool,
    /// The seed of sampling and of random strategies.
    pub seed: u64,
}

/// Who picks the guess the advisor reports.
pub enum Chooser<'a> {
    /// The advisor: its own policy, or the registry strategy the options name, within `stop`.
    Advisor(&'a AdviceOptions, &'a Stop),
    /// A strategy the caller holds: one that keeps state between turns, or a tree loaded from a
    /// file.
    Held(&'a mut dyn Strategy),
}

/// Why no guess can be advised.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum AdviceError {
    /// No code fits every answer.
    #[error("{0}")]
    Contradiction(Box<Contradiction>),
    /// The last answer was a win.
    #[error("the game is already won: the secret is {0}")]
    Won(String),
    /// The codes the history leaves could not be worked out within the time limit.
    #[error("the codes left after these {turns} turns could not be worked out within the time limit: give fewer turns, or allow more time")]
    Stopped {
        /// How many turns the history has.
        turns: usize,
    },
    /// The named strategy is unknown or cannot play.
    #[error(transparent)]
    Strategy(#[from] StrategyError),
}

/// Decides the next guess; clones share one cache of proven moves.
#[derive(Debug, Clone)]
pub struct Advisor {
    plans: Arc<PlanCache>,
}

impl Default for Advisor {
    fn default() -> Advisor {
        Advisor::new()
    }
}

/// A proven optimal move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Proven {
    /// The code index to guess.
    pub guess: usize,
    /// How it was found: never [`Method::Heuristic`] or [`Method::Named`].
    pub method: Method,
    /// The guesses solving every candidate takes from here, this one included.
    pub total: Option<u64>,
}

/// A chosen guess before it is reported.
struct Pick {
    guess: usize,
    method: Method,
    strategy: String,
    total: Option<u64>,
    sampled: bool,
    /// Whether the guess is the arena's opening book's.
    book: bool,
    note: Option<Unproven>,
    /// How the guess splits the candidates, when the chooser already worked it out.
    stats: Option<PartitionStats>,
}

impl Advisor {
    /// An advisor with an empty cache.
    pub fn new() -> Advisor {
        Advisor {
            plans: Arc::new(PlanCache::new(PLAN_BUDGET)),
        }
    }

    /// Everything about the position `history` leaves: its turns, the codes left (the first
    /// `list` of them listed), and the next guess as `chooser` picks it, the win or the
    /// contradiction.
    pub fn position(
        &self,
        space: &CodeSpace,
        history: &History,
        list: usize,
        chooser: Chooser<'_>,
    ) -> Result<Position, AdviceError> {
        // The caller's time limit bounds working out the position too: a history may be
        // thousands of turns long.
        let stop = match &chooser {
            Chooser::Advisor(_, stop) => (*stop).clone(),
            Chooser::Held(_) => Stop::never(),
        };
        let candidates =
            history
                .candidates_until(space, &stop)
                .map_err(|_| AdviceError::Stopped {
                    turns: history.len(),
                })?;
        let won = history.is_won(space.length());
        let mut position = Position {
            turns: TurnReport::all(space.rules(), history),
            remaining: candidates.len(),
            candidates: Position::listed(space, &candidates, list),
            won,
            advice: None,
            contradiction: None,
        };
        if candidates.is_empty() {
            position.contradiction = Some(Contradiction::until(space, history, &stop));
        } else if !won {
            position.advice = Some(self.advise(space, history, &candidates, chooser)?);
        }
        Ok(position)
    }

    /// The next guess for `history`, whose candidates are `candidates`, as `chooser` picks it.
    pub fn advise(
        &self,
        space: &CodeSpace,
        history: &History,
        candidates: &CodeSet,
        chooser: Chooser<'_>,
    ) -> Result<Advice, AdviceError> {
        let start = Instant::now();
        check_open(space, history, candidates)?;
        let knowledge = Knowledge {
            space,
            history,
            candidates,
        };
        let (options, stop) = match chooser {
            Chooser::Held(strategy) => return named(strategy, &knowledge, start),
            Chooser::Advisor(options, stop) => (options, stop),
        };
        if let Some(name) = options.strategy.as_deref().filter(|&n| n != OPTIMAL) {
            // Stateless callers (the web) build the strategy for every turn: vary the seed with
            // the turn so a random strategy does not repeat its first draw.
            let strategy_options = StrategyOptions {
                guesses: options.guesses,
                seed: options.seed ^ (history.len() as u64).wrapping_mul(SEED_STEP),
                ..StrategyOptions::default()
            };
            let mut strategy = strategy::by_name(name, space, &strategy_options)?;
            return named(strategy.as_mut(), &knowledge, start);
        }
        let pick = self.choose(&knowledge, options, stop, start);
        Ok(report(space, candidates, pick, start))
    }

    /// The advisor's own policy (the steps in the module docs).
    fn choose(
        &self,
        knowledge: &Knowledge<'_>,
        options: &AdviceOptions,
        stop: &Stop,
        start: Instant,
    ) -> Pick {
        let candidates = knowledge.candidates;
        let exact_stop = match stop.remaining() {
            Some(left) => stop.until(start + left.mul_f64(EXACT_SHARE)),
            None => stop.clone(),
        };
        let note = match self.prove(knowledge, options.guesses, &exact_stop, start) {
            Ok(p) => {
                return Pick {
                    guess: p.guess,
                    method: p.method,
                    strategy: OPTIMAL.to_string(),
                    total: p.total,
                    sampled: false,
                    book: false,
                    note: None,
                    stats: None,
                }
            }
            Err(note) => note,
        };
        let (guess, sampled, book, stats) =
            match fallback(options.guesses, options.seed).choose(knowledge, stop) {
                Some(choice) => (
                    choice.guess,
                    choice.sampled,
                    choice.book,
                    Some(choice.stats),
                ),
                // Stopped before a single guess was scored: a code still possible is a fair move.
                None => (
                    candidates.first().expect("checked non-empty"),
                    false,
                    false,
                    None,
                ),
            };
        Pick {
            guess,
            method: Method::Heuristic,
            strategy: FALLBACK.name().to_string(),
            total: None,
            sampled,
            book,
            note: Some(note),
            stats,
        }
    }

    /// A proven optimal move for the position (steps 1 to 4 of the module docs), the exact
    /// search stopped by `stop`; else why there is none. `start` is when the caller
    /// began, for the time the message reports.
    pub(crate) fn prove(
        &self,
        knowledge: &Knowledge<'_>,
        guesses: GuessPool,
        stop: &Stop,
        start: Instant,
    ) -> Result<Proven, Unproven> {
        let &Knowledge {
            space,
            history,
            candidates,
        } = knowledge;
        let n = candidates.len() as u64;
        if n <= 2 {
            let first = candidates.first().expect("checked non-empty");
            return Ok(Proven {
                guess: first,
                method: Method::Endgame,
                total: Some(2 * n - 1),
            });
        }
        let rules = space.rules();
        // The shipped optimal tree plays every history its images play; the trees after it
        // (optimal only given their opening) play the openings it does not. Below its root
        // every subtree of such a tree is optimal for its own codes, so its totals are proven
        // optima of the positions too; what the opening itself cost is the review's business.
        let mut trees = strategy::shipped_trees(rules, guesses).into_iter();
        if let Some(first) = trees.next() {
            let located = TreeStrategy::new(OPTIMAL, first, space)
                .and_then(|t| t.with_others(trees))
                .and_then(|t| t.locate(history));
            if let Ok(at) = located {
                let totals = strategy::shipped_totals(space, guesses, at.tree)
                    .expect("every shipped tree has totals");
                return Ok(Proven {
                    guess: index_of(space, &at.guess),
                    method: Method::Tree,
                    total: Some(totals[at.node.index()]),
                });
            }
        }
        if let Some(p) = self.plans.get(rules, guesses, candidates) {
            return Ok(Proven {
                guess: p.guess as usize,
                method: Method::Cached,
                total: p.total,
            });
        }
        let p = self.exact(space, history, candidates, guesses, stop, start)?;
        Ok(Proven {
            guess: p.guess as usize,
            method: Method::Exact,
            total: p.total,
        })
    }

    /// An exact search of `candidates` until `stop`, caching every position of the plan it
    /// finds; else why not.
    fn exact(
        &self,
        space: &CodeSpace,
        history: &History,
        candidates: &CodeSet,
        guesses: GuessPool,
        stop: &Stop,
        start: Instant,
    ) -> Result<Planned, Unproven> {
        if !space.has_table() {
            // Only a table within the cap can be allowed more memory: say so only then.
            return Err(if space.len() > crate::space::TABLE_LIMIT_CODES {
                Unproven::TableCapped {
                    codes: space.len(),
                    cap: crate::space::TABLE_LIMIT_CODES,
                }
            } else {
                Unproven::NoTable { codes: space.len() }
            });
        }
        let options = SearchOptions::default().with_guesses(guesses);
        let progress = tree::Progress::new();
        let search = Search::after(space, history, candidates)
            .options(&options)
            .progress(&progress)
            .stop(stop)
            .proving();
        match search.run() {
            Ok(SearchOutcome::Found(plan)) => {
                let first = Planned {
                    guess: plan.moves[0].guess,
                    total: Some(plan.total),
                };
                debug_assert_eq!(plan.moves[0].total, plan.total);
                self.plans.insert_all(
                    space.rules(),
                    guesses,
                    plan.moves.into_iter().map(|m| {
                        let planned = Planned {
                            guess: m.guess,
                            total: Some(m.total),
                        };
                        (m.set, planned)
                    }),
                );
                Ok(first)
            }
            Ok(SearchOutcome::Stopped { .. }) => Err(Unproven::TimeLimit {
                left: candidates.len(),
                seconds: start.elapsed().as_secs_f64(),
            }),
            Ok(SearchOutcome::Impossible { .. } | SearchOutcome::AtLeast { .. }) => {
                unreachable!("no depth limit or bound to beat was set")
            }
            Err(e) => Err(Unproven::Search(e)),
        }
    }
}

/// The guess of `strategy`, reported like the advisor's own.
fn named(
    strategy: &mut dyn Strategy,
    knowledge: &Knowledge<'_>,
    start: Instant,
) -> Result<Advice, AdviceError> {
    let code = strategy.next_guess(knowledge)?;
    let pick = Pick {
        guess: index_of(knowledge.space, &code),
        method: Method::Named,
        strategy: strategy.name().to_string(),
        total: None,
        sampled: false,
        book: false,
        note: None,
        stats: None,
    };
    Ok(report(knowledge.space, knowledge.candidates, pick, start))
}

/// The heuristic the advisor falls back on ([`FALLBACK`]), bounded by sampling seeded with
/// `seed`: the advisor's own last step, and the review's best move where no proof fits.
pub(crate) fn fallback(guesses: GuessPool, seed: u64) -> PartitionStrategy {
    PartitionStrategy::new(FALLBACK, guesses).with_sampling(Sampling {
        seed,
        ..Sampling::default()
    })
}

/// Mixes the turn number into a random strategy's seed.
const SEED_STEP: u64 = 0x9E37_79B9_7F4A_7C15;

fn check_open(
    space: &CodeSpace,
    history: &History,
    candidates: &CodeSet,
) -> Result<(), AdviceError> {
    if candidates.is_empty() {
        return Err(AdviceError::Contradiction(Box::new(Contradiction::new(
            space, history,
        ))));
    }
    if history.is_won(space.length()) {
        let last = history.turns().last().expect("a won history has a turn");
        return Err(AdviceError::Won(space.rules().format_code(&last.guess)));
    }
    Ok(())
}

fn index_of(space: &CodeSpace, code: &Code) -> usize {
    space
        .index_of(code)
        .expect("strategies guess codes of the space")
}

fn report(space: &CodeSpace, candidates: &CodeSet, pick: Pick, start: Instant) -> Advice {
    let rules = space.rules();
    let n = candidates.len();
    let stats = pick
        .stats
        .unwrap_or_else(|| partition_stats(space, pick.guess, candidates));
    let code = space.code(pick.guess);
    let guess = rules.format_code(&code);
    let total = pick.total;
    let how = match pick.method {
        Method::Endgame => "optimal: a code still possible".to_string(),
        Method::Tree => "optimal, from the shipped tree".to_string(),
        Method::Cached => "optimal, from an earlier exact search".to_string(),
        Method::Exact => "optimal, by an exact search".to_string(),
        Method::Heuristic if pick.book => format!("{}, from the opening book", pick.strategy),
        Method::Heuristic if pick.sampled => format!("{}, on samples", pick.strategy),
        Method::Heuristic | Method::Named => pick.strategy.clone(),
    };
    let mut explanation = format!(
        "Best next guess: {guess} ({how}): splits the {} into {} group{}, the largest of {}, {:.2} expected left, {:.2} bits; {}.",
        codes(n),
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
    );
    if let Some(total) = total {
        explanation.push_str(&format!(
            " Proven optimal: {total} guesses in total for the {} left ({:.4} on average).",
            codes(n),
            total as f64 / n as f64
        ));
    }
    Advice {
        guess,
        code,
        proven_optimal: pick.method.is_proven(),
        method: pick.method,
        strategy: pick.strategy,
        remaining: n,
        total_guesses: total,
        partition: stats.into(),
        sampled: pick.sampled,
        note: pick.note,
        explanation,
        seconds: start.elapsed().as_secs_f64(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Feedback, Rules};
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    fn history(rules: &Rules, turns: &[(&str, u8, u8)]) -> History {
        let mut h = History::new();
        for &(g, b, c) in turns {
            h.push(rules.parse_code(g).unwrap(), Feedback::new(b, c));
        }
        h
    }

    fn advise(advisor: &Advisor, space: &CodeSpace, h: &History, stop: &Stop) -> Advice {
        advisor
            .advise(
                space,
                h,
                &h.candidates(space),
                Chooser::Advisor(&AdviceOptions::default(), stop),
            )
            .unwrap()
    }

    #[test]
    fn off_the_tree_the_move_is_proven_and_the_rest_of_the_plan_is_cached() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let advisor = Advisor::new();
        // 8901 after 4567 is not a move of the shipped tree under any symmetry.
        let h = history(&rules, &[("4567", 0, 1), ("8901", 1, 1)]);
        let first = advise(&advisor, &space, &h, &Stop::never());
        assert_eq!(first.method, Method::Exact, "{first:?}");
        assert!(first.proven_optimal && first.note.is_none());
        let total = first.total_guesses.unwrap();
        assert_eq!(first.remaining, h.candidates(&space).len());
        // The plan's positions are answered from the cache, and their totals add up to the
        // parent's: every code waits for this guess, then for its part's plan.
        let mut sum = first.remaining as u64;
        for (f, part) in
            space.partition(space.index_of(&first.code).unwrap(), &h.candidates(&space))
        {
            if f.is_win(4) {
                continue;
            }
            let mut child = h.clone();
            child.push(first.code, f);
            assert_eq!(child.candidates(&space), part);
            let next = advise(&advisor, &space, &child, &Stop::at(Instant::now()));
            assert!(next.proven_optimal, "{next:?}");
            assert!(matches!(next.method, Method::Cached | Method::Endgame));
            sum += next.total_guesses.unwrap();
        }
        assert_eq!(sum, total);
        // The same position again: instant, from the cache, even with no time at all.
        let again = advise(&advisor, &space, &h, &Stop::at(Instant::now()));
        assert_eq!((again.method, again.guess), (Method::Cached, first.guess));
    }

    /// With no leading zero, an opening with a 0 (no image of the optimal tree's 1234)
    /// is answered at once from the tree shipped for 1023, with the exact search's own figures
    /// (2451, 4507 guesses for the 1050 codes left); the empty position still gets the optimal
    /// tree's 1234 and its 23283.
    #[test]
    fn with_no_leading_zero_an_opening_with_a_zero_is_answered_from_the_1023_tree() {
        let rules = Rules::new(4, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let advisor = Advisor::new();
        let no_time = Stop::at(Instant::now());
        let start = advise(&advisor, &space, &History::new(), &no_time);
        assert_eq!(
            (start.method, start.guess.as_str(), start.total_guesses),
            (Method::Tree, "1234", Some(23283))
        );
        for opening in ["1023", "3201", "9870"] {
            let h = history(&rules, &[(opening, 0, 2)]);
            let a = advise(&advisor, &space, &h, &no_time);
            assert_eq!(a.method, Method::Tree, "{opening}: {a:?}");
            assert!(a.proven_optimal && a.note.is_none());
            assert_eq!(
                (a.remaining, a.total_guesses),
                (1050, Some(4507)),
                "{opening}"
            );
        }
        let a = advise(
            &advisor,
            &space,
            &history(&rules, &[("1023", 0, 2)]),
            &no_time,
        );
        assert_eq!(a.guess, "2451");
    }

    /// On the arena's big games the advisor plays the opening book while the game
    /// follows it, and chooses as before once it leaves it.
    #[test]
    fn on_the_arenas_big_games_the_advisor_follows_the_opening_book() {
        let rules = Rules::new(10, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let opening = &strategy::Book::shipped().lengths[&10];
        let advisor = Advisor::new();
        let start = advise(&advisor, &space, &History::new(), &Stop::never());
        assert_eq!(start.guess, opening.first);
        let (f1, second) = opening.second.iter().next_back().unwrap();
        let f1 = Feedback::parse(f1, 10).unwrap();
        let on = history(&rules, &[(&opening.first, f1.bulls, f1.cows)]);
        let a = advise(&advisor, &space, &on, &Stop::never());
        assert_eq!((a.method, &a.guess), (Method::Heuristic, second));
        assert!(
            a.explanation.contains("entropy, from the opening book"),
            "{a:?}"
        );
        let off = history(&rules, &[("9876543210", f1.bulls, f1.cows)]);
        let a = advise(&advisor, &space, &off, &Stop::never());
        assert_eq!(a.method, Method::Heuristic);
        assert!(!a.explanation.contains("opening book"), "{a:?}");
    }

    #[test]
    fn every_mastermind_opening_gets_an_exact_second_guess() {
        let rules = Rules::mastermind();
        let space = CodeSpace::new(rules.clone()).unwrap();
        for opening in ["1122", "1234", "1112", "1111", "1123"] {
            let code = rules.parse_code(opening).unwrap();
            for f in Feedback::all(4).filter(|f| !f.is_win(4)) {
                let mut h = History::new();
                h.push(code, f);
                if h.candidates(&space).is_empty() {
                    continue;
                }
                let advisor = Advisor::new();
                let a = advise(&advisor, &space, &h, &Stop::never());
                assert!(a.proven_optimal, "{opening}={f}: {a:?}");
            }
        }
    }

    #[test]
    fn a_search_out_of_time_gives_way_to_the_bounded_heuristic() {
        let rules = Rules::new(4, "123456789", false, false).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let flag = Arc::new(AtomicBool::new(true));
        let stopped = Stop::never().with_flag(flag);
        let a = advise(&Advisor::new(), &space, &History::new(), &stopped);
        assert_eq!(a.method, Method::Heuristic);
        assert_eq!(a.strategy, "entropy");
        assert!(!a.proven_optimal && a.total_guesses.is_none());
        assert!(
            matches!(a.note, Some(Unproven::TimeLimit { left: 3024, .. })),
            "{a:?}"
        );
        assert!(a.note.unwrap().to_string().contains("time limit"));
        assert_eq!(a.remaining, 3024);
    }

    #[test]
    fn a_game_too_large_for_the_table_still_gets_a_bounded_guess() {
        let rules = Rules::new(7, "0123456789", false, false).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let h = history(&rules, &[("0123456", 2, 3)]);
        let a = advise(
            &Advisor::new(),
            &space,
            &h,
            &Stop::after(Duration::from_secs(60)),
        );
        assert_eq!(a.method, Method::Heuristic);
        assert!(
            matches!(
                a.note,
                Some(Unproven::TableCapped {
                    codes: 604800,
                    cap: 65536
                })
            ),
            "{a:?}"
        );
        let note = a.note.as_ref().unwrap().to_string();
        assert!(
            note.contains("built for at most 65536 codes") && !note.contains("--table-memory"),
            "{note}"
        );
        assert!(a.sampled, "{a:?}");
        assert_eq!(a.remaining, h.candidates(&space).len());
    }

    #[test]
    fn one_or_two_codes_left_are_guessed_at_once() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let advisor = Advisor::new();
        let mut endgames = 0;
        // Play the shipped tree against a few secrets, checking every position it reaches.
        for secret in ["4271", "9876", "0132", "5601"] {
            let secret = rules.parse_code(secret).unwrap();
            let mut h = History::new();
            while !h.is_won(4) {
                let candidates = h.candidates(&space);
                let a = advise(&advisor, &space, &h, &Stop::never());
                if candidates.len() <= 2 {
                    endgames += 1;
                    assert_eq!(a.method, Method::Endgame);
                    assert_eq!(a.total_guesses, Some(2 * candidates.len() as u64 - 1));
                    assert_eq!(a.code, space.code(candidates.first().unwrap()));
                } else {
                    assert_eq!(a.method, Method::Tree, "{a:?}");
                }
                assert!(a.proven_optimal);
                h.push(a.code, a.code.score(&secret));
            }
        }
        assert!(endgames > 0);
    }

    #[test]
    fn positions_report_wins_contradictions_and_named_strategies() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let advisor = Advisor::new();
        let options = AdviceOptions::default();
        let won = history(&rules, &[("0123", 0, 2), ("4271", 4, 0)]);
        let p = advisor
            .position(&space, &won, 5, Chooser::Advisor(&options, &Stop::never()))
            .unwrap();
        assert!(p.won && p.advice.is_none() && p.contradiction.is_none());
        assert_eq!(p.candidates, ["4271"]);

        let bad = history(&rules, &[("0123", 0, 0), ("4567", 0, 0)]);
        let p = advisor
            .position(&space, &bad, 5, Chooser::Advisor(&options, &Stop::never()))
            .unwrap();
        let c = p.contradiction.unwrap();
        assert_eq!(p.remaining, 0);
        assert!(c.single_change_fixes && c.repairs.len() == 2);
        assert!(c
            .message
            .contains("if the answer to guess 1 (0123) was not 0B0C but 0B2C (84 codes left)"));
        assert!(matches!(
            advisor.advise(
                &space,
                &bad,
                &CodeSet::default(),
                Chooser::Advisor(&options, &Stop::never())
            ),
            Err(AdviceError::Contradiction(_))
        ));

        let h = history(&rules, &[("0123", 1, 2)]);
        let mut named = options.clone();
        named.strategy = Some("knuth".into());
        let p = advisor
            .position(&space, &h, 3, Chooser::Advisor(&named, &Stop::never()))
            .unwrap();
        let a = p.advice.unwrap();
        assert_eq!((a.method, a.strategy.as_str()), (Method::Named, "knuth"));
        assert_eq!(p.candidates.len(), 3);
        let mut unknown = options;
        unknown.strategy = Some("nope".into());
        assert!(matches!(
            advisor.position(&space, &h, 3, Chooser::Advisor(&unknown, &Stop::never())),
            Err(AdviceError::Strategy(StrategyError::Unknown { .. }))
        ));
    }

    #[test]
    fn advice_serialises_with_its_method_in_kebab_case() {
        let rules = Rules::mastermind();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let h = history(&rules, &[("1122", 1, 0)]);
        let a = advise(&Advisor::new(), &space, &h, &Stop::never());
        let v = serde_json::to_value(&a).unwrap();
        assert_eq!(v["method"], "exact");
        assert_eq!(v["proven_optimal"], true);
        assert!(v.get("code").is_none());
        assert_eq!(v["partition"]["is_candidate"], a.partition.is_candidate);
    }
}
