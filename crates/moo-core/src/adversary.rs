//! The adversary: a code maker that holds no secret and answers every guess so that the game
//! lasts as long as possible against best play from there on.
//!
//! A guess splits the codes still possible into parts, one per answer. The adversary gives the
//! answer whose part needs the most guesses in the worst case under optimal play (its exact
//! worst-case value, from the exact search with [`Objective::Worst`]). Since every guess leaves
//! a part whose value is at least the position's own value less one, an adversary that always
//! answers exactly forces any strategy to take at least the game's optimal worst case: 7 on Bulls
//! and Cows 4 of 0-9, 5 on Mastermind 4x6.
//!
//! Values are searched largest part first, and a smaller part is searched only far enough to
//! prove it cannot beat the best so far (a search within that depth): a part of `m` codes never
//! needs more than `m` guesses, so most small parts cost nothing. Ties go to the larger part,
//! which leaves a person more to keep in mind. Where the searches do not finish within the
//! answer's time, the answer is the largest part (ties: the first in feedback order), and it
//! says it is a heuristic's. Whatever the answer, some code fits every answer given so far.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::Serialize;
use web_time::{Duration, Instant};

use crate::advisor::TurnReport;
use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::{History, Turn};
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::tree::{Objective, Search, SearchError, SearchOptions, SearchOutcome};

/// How long one answer's searches may take by default: the web service's advice limit, within
/// which the answers along Bulls and Cows' hardest line are proven (the book's usage chapter has
/// the times).
pub const DEFAULT_ANSWER_TIME: Duration = Duration::from_secs(2);

/// The most worst-case values an adversary remembers (each a candidate set).
const MAX_VALUES: usize = 100_000;

/// The challenge the adversary sets on Bulls and Cows 4 of 0-9, whose optimal worst case is 7.
pub const CHALLENGE: &str =
    "The challenge: win Bulls and Cows in 7 against it. Perfect play always wins in 7 guesses, and the adversary answers so that nothing less does.";

/// What an adversary is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct AdversaryOptions {
    /// Which codes the player may guess: the values are those of optimal play with these
    /// guesses.
    pub guesses: GuessPool,
    /// How long one answer's searches may take (`None`: no limit, every answer exact).
    pub answer_time: Option<Duration>,
}

impl Default for AdversaryOptions {
    fn default() -> AdversaryOptions {
        AdversaryOptions {
            guesses: GuessPool::All,
            answer_time: Some(DEFAULT_ANSWER_TIME),
        }
    }
}

with_setters!(AdversaryOptions {
    /// How long one answer may search (`None`: no limit).
    with_answer_time: answer_time: Option<Duration>;
    /// Which codes the player may guess.
    with_guesses: guesses: GuessPool;
});

/// How an answer was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AnswerMethod {
    /// Proven: no other answer leaves codes that need more guesses under optimal play.
    Exact,
    /// The largest part, where the searches did not finish in time: not proven to be the hardest.
    Heuristic,
}

/// The adversary's answer to one guess.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AdversaryAnswer {
    /// The answer.
    #[serde(skip)]
    pub feedback: Feedback,
    /// The guess and its answer, as a turn.
    #[serde(flatten)]
    pub turn: TurnReport,
    /// Whether the answer says the guess is the secret: only once no other code is left.
    pub win: bool,
    /// Codes still possible after the answer (at least one).
    pub left: usize,
    /// When exact, the guesses the player still needs after this answer with perfect play
    /// against an adversary (0 after a win).
    pub guesses_needed: Option<u32>,
    /// Whether the answer is proven the hardest or chosen by the heuristic.
    pub method: AnswerMethod,
    /// Time the answer took, in seconds.
    pub seconds: f64,
}

/// A code maker without a secret; it remembers the worst-case values it has proven, so a
/// game's later answers (and other games' answers on the same sets) cost nothing.
#[derive(Debug, Default)]
pub struct Adversary {
    /// Proven worst-case values by candidate set (and guess pool).
    values: Mutex<HashMap<(GuessPool, CodeSet), u32>>,
}

/// What the search of one part's value found.
enum Value {
    /// The part's exact worst-case value.
    Exact(u32),
    /// The part needs no more guesses than the bound it was searched under, so it cannot beat
    /// the best so far.
    NoHarder,
}

impl Adversary {
    /// An adversary with nothing proven yet.
    pub fn new() -> Adversary {
        Adversary::default()
    }

    /// The answer to `guess` in the position `history` leaves, whose codes are `candidates`
    /// (never empty). Searches stop at `stop` or after `options.answer_time`, whichever comes
    /// first; the answer then falls back to the heuristic and says so.
    ///
    /// # Panics
    ///
    /// If `candidates` is empty.
    pub fn answer(
        &self,
        space: &CodeSpace,
        history: &History,
        candidates: &CodeSet,
        guess: &Code,
        options: &AdversaryOptions,
        stop: &Stop,
    ) -> AdversaryAnswer {
        assert!(!candidates.is_empty(), "the adversary needs a code left");
        let start = Instant::now();
        let stop = match options.answer_time {
            Some(t) => stop.until(start + t),
            None => stop.clone(),
        };
        let length = space.length();
        let mut parts = space.partition_code(guess, candidates);
        // A win ends the game, so it is given only when the guess is the last code left.
        if parts.len() > 1 {
            parts.retain(|(f, _)| !f.is_win(length));
        }
        // Largest first, so that the smaller parts need only a bounded search, and ties go to
        // the larger part.
        parts.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        let exact = match first_answer(space, history, options.guesses) {
            Some((feedback, value)) => parts
                .iter()
                .position(|(f, _)| *f == feedback)
                .map(|i| (i, value)),
            None => self.hardest(space, history, guess, &parts, options, &stop),
        };
        let (index, needed, method) = match exact {
            Some((index, value)) => (index, Some(value), AnswerMethod::Exact),
            None => (0, None, AnswerMethod::Heuristic),
        };
        let (feedback, part) = &parts[index];
        let win = feedback.is_win(length);
        AdversaryAnswer {
            feedback: *feedback,
            turn: TurnReport::new(
                space.rules(),
                &Turn {
                    guess: *guess,
                    feedback: *feedback,
                },
            ),
            win,
            left: part.len(),
            guesses_needed: if win { Some(0) } else { needed },
            method,
            seconds: start.elapsed().as_secs_f64(),
        }
    }

    /// The index in `parts` (sorted largest first) of the part that needs the most guesses, and
    /// that value; `None` if the searches were stopped.
    fn hardest(
        &self,
        space: &CodeSpace,
        history: &History,
        guess: &Code,
        parts: &[(Feedback, CodeSet)],
        options: &AdversaryOptions,
        stop: &Stop,
    ) -> Option<(usize, u32)> {
        let mut best: Option<(usize, u32)> = None;
        let mut after = history.clone();
        for (i, (feedback, part)) in parts.iter().enumerate() {
            if feedback.is_win(space.length()) {
                return Some((i, 0));
            }
            let bound = best.map(|(_, v)| v);
            // Guessing the codes one by one finds any of `m` within `m` guesses.
            if bound.is_some_and(|v| part.len() as u32 <= v) {
                continue;
            }
            after.push(*guess, *feedback);
            let value = self.value(space, &after, part, options.guesses, bound, stop);
            after.undo();
            match value {
                Ok(Value::Exact(v)) if bound.is_none_or(|b| v > b) => best = Some((i, v)),
                Ok(_) => {}
                Err(_) => return None,
            }
        }
        best
    }

    /// The worst-case value of `part` (the codes `history` leaves), or with `bound` only that it
    /// is at most `bound` when it is.
    fn value(
        &self,
        space: &CodeSpace,
        history: &History,
        part: &CodeSet,
        guesses: GuessPool,
        bound: Option<u32>,
        stop: &Stop,
    ) -> Result<Value, SearchError> {
        if part.len() <= 2 {
            return Ok(Value::Exact(part.len() as u32));
        }
        let key = (guesses, part.clone());
        if let Some(&v) = self.values.lock().expect("not poisoned").get(&key) {
            return Ok(Value::Exact(v));
        }
        let search = |max_depth| {
            let options = SearchOptions::new(Objective::Worst)
                .with_guesses(guesses)
                .with_max_depth(max_depth);
            Search::after(space, history, part)
                .options(&options)
                .stop(stop)
                .run()
        };
        if let Some(b) = bound {
            if let SearchOutcome::Found(_) = search(Some(b))? {
                return Ok(Value::NoHarder);
            }
        }
        let v = match search(None)? {
            SearchOutcome::Found(plan) => plan.worst,
            SearchOutcome::Impossible { .. } => unreachable!("no depth limit"),
        };
        let mut values = self.values.lock().expect("not poisoned");
        // A server's adversary meets sets without end: forgetting costs a search again, never
        // a wrong answer.
        if values.len() >= MAX_VALUES {
            values.clear();
        }
        values.insert(key, v);
        Ok(Value::Exact(v))
    }
}

/// The hardest answer to the first guess where it is proven once for all first guesses: on
/// Bulls and Cows 4 of 0-9 every code is the image of every other under the game's symmetries
/// (renaming digits), which keep every answer, so one search answers every opening. It takes
/// seconds, more than an answer may, so its result is written here and a test searches it
/// again (`first_answers_are_the_searched_ones`).
fn first_answer(
    space: &CodeSpace,
    history: &History,
    guesses: GuessPool,
) -> Option<(Feedback, u32)> {
    (history.is_empty() && guesses == GuessPool::All && *space.rules() == crate::Rules::bulls())
        .then_some((Feedback::new(0, 1), 6))
}

/// A code that fits every answer the adversary gave: the first still possible, shown at the end
/// to prove the answers were honest.
pub fn a_secret(space: &CodeSpace, candidates: &CodeSet) -> Option<Code> {
    candidates.first().map(|i| space.code(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{games, Rules};
    use crate::strategy::{self, Knowledge, StrategyOptions};
    use proptest::prelude::*;

    /// How a game against the adversary went.
    struct Played {
        guesses: usize,
        won: bool,
        exact: bool,
    }

    /// Plays the strategy `name` against the adversary until it wins or has played `cap`
    /// guesses, checking at the end that a code fits every answer.
    fn play(adversary: &Adversary, space: &CodeSpace, name: &str, cap: usize) -> Played {
        let options = AdversaryOptions::default().with_answer_time(None);
        let mut strategy = strategy::by_name(name, space, &StrategyOptions::default()).unwrap();
        let mut history = History::new();
        let mut candidates = space.all();
        let mut exact = true;
        while history.len() < cap && !history.is_won(space.length()) {
            let guess = strategy
                .next_guess(&Knowledge::new(space, &history, &candidates))
                .unwrap();
            let a = adversary.answer(
                space,
                &history,
                &candidates,
                &guess,
                &options,
                &Stop::never(),
            );
            exact &= a.method == AnswerMethod::Exact;
            candidates = space.filter_code(&candidates, &guess, a.feedback);
            assert_eq!(candidates.len(), a.left, "{name}");
            history.push(guess, a.feedback);
        }
        let secret = a_secret(space, &candidates).expect("a code fits every answer");
        for t in history.turns() {
            assert_eq!(t.guess.score(&secret), t.feedback, "{name}");
        }
        Played {
            guesses: history.len(),
            won: history.is_won(space.length()),
            exact,
        }
    }

    /// The fewest guesses that always suffice on `space`, from the exact search.
    fn optimal_worst(space: &CodeSpace) -> u32 {
        let options = SearchOptions::new(Objective::Worst);
        match Search::whole(space).options(&options).run().unwrap() {
            SearchOutcome::Found(t) => t.stats.max,
            SearchOutcome::Impossible { .. } => unreachable!("no depth limit"),
        }
    }

    /// Every shipped strategy that plays `space`, each forced to at least the optimal worst
    /// case; blind ones stop at a cap past it.
    fn every_strategy_forced(space: &CodeSpace, worst: u32) -> Vec<(&'static str, usize)> {
        let adversary = Adversary::new();
        let cap = worst as usize + 3;
        strategy::playable(space, &StrategyOptions::default())
            .into_iter()
            .map(|name| {
                let p = play(&adversary, space, name, cap);
                assert!(p.exact, "{name}: every answer should be proven");
                assert!(p.guesses >= worst as usize, "{name}: {} guesses", p.guesses);
                assert!(p.won || p.guesses == cap, "{name}");
                (name, p.guesses)
            })
            .collect()
    }

    #[test]
    fn small_games_force_every_strategy_to_their_optimal_worst_case() {
        for rules in games("3 0123456789, 3 1234 repeats") {
            let space = CodeSpace::new(rules).unwrap();
            let worst = optimal_worst(&space);
            let forced = every_strategy_forced(&space, worst);
            assert!(forced.len() >= 8, "{forced:?}");
            let optimal = forced.iter().find(|(n, _)| *n == "optimal").unwrap();
            assert!(optimal.1 >= worst as usize);
        }
    }

    #[test]
    fn knuth_takes_five_on_mastermind() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let p = play(&Adversary::new(), &space, "knuth", 20);
        assert!(p.won && p.exact);
        assert_eq!(p.guesses, 5);
    }

    #[test]
    #[ignore = "exact worst-case searches of every first answer of each strategy: a minute"]
    fn bulls_and_cows_forces_seven_on_every_strategy_and_exactly_seven_on_the_optimal_tree() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let forced = every_strategy_forced(&space, 7);
        assert!(forced.contains(&("optimal", 7)), "{forced:?}");
        eprintln!("{forced:?}");
    }

    #[test]
    #[ignore = "an exact worst-case search of the parts of 5040 codes: seconds"]
    fn first_answers_are_the_searched_ones() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let guess = space.code(0);
        let mut parts = space.partition_code(&guess, &space.all());
        parts.retain(|(f, _)| !f.is_win(4));
        parts.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(&b.0)));
        let options = AdversaryOptions::default().with_answer_time(None);
        let history = History::new();
        let (i, value) = Adversary::new()
            .hardest(&space, &history, &guess, &parts, &options, &Stop::never())
            .unwrap();
        assert_eq!(
            Some((parts[i].0, value)),
            first_answer(&space, &history, GuessPool::All)
        );
    }

    #[test]
    #[ignore = "measures answer times on Bulls and Cows 4 of 0-9: run with --nocapture"]
    fn answer_times_on_bulls_and_cows() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        for name in ["optimal", "knuth", "entropy", "simple"] {
            let adversary = Adversary::new();
            let mut strategy =
                strategy::by_name(name, &space, &StrategyOptions::default()).unwrap();
            let mut history = History::new();
            let mut candidates = space.all();
            while !history.is_won(4) {
                let guess = strategy
                    .next_guess(&Knowledge::new(&space, &history, &candidates))
                    .unwrap();
                let a = adversary.answer(
                    &space,
                    &history,
                    &candidates,
                    &guess,
                    &AdversaryOptions::default().with_answer_time(None),
                    &Stop::never(),
                );
                eprintln!(
                    "{name} turn {}: {} {} left {} needed {:?} {:?} {:.3} s",
                    history.len() + 1,
                    a.turn.guess,
                    a.turn.feedback,
                    a.left,
                    a.guesses_needed,
                    a.method,
                    a.seconds
                );
                candidates = space.filter_code(&candidates, &guess, a.feedback);
                history.push(guess, a.feedback);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn every_answer_fits_a_code(
            length in 1usize..=3,
            symbols in 2usize..=6,
            repeats in any::<bool>(),
            picks in proptest::collection::vec(any::<u32>(), 1..12),
            millis in 0u64..20,
        ) {
            let alphabet: String = "123456".chars().take(symbols).collect();
            prop_assume!(repeats || symbols >= length);
            let space = CodeSpace::new(Rules::new(length, &alphabet, repeats, false).unwrap()).unwrap();
            let adversary = Adversary::new();
            // A short time limit too, so the heuristic's answers are checked as well.
            let options = AdversaryOptions::default().with_answer_time(Some(Duration::from_millis(millis)));
            let mut history = History::new();
            let mut candidates = space.all();
            for pick in picks {
                if history.is_won(length) {
                    break;
                }
                let guess = space.code(pick as usize % space.len());
                let a = adversary.answer(&space, &history, &candidates, &guess, &options, &Stop::never());
                let left = space.filter_code(&candidates, &guess, a.feedback);
                prop_assert!(!left.is_empty());
                prop_assert_eq!(left.len(), a.left);
                prop_assert!(!a.win || candidates.len() == 1);
                candidates = left;
                history.push(guess, a.feedback);
                prop_assert_eq!(&history.candidates(&space), &candidates);
            }
        }
    }
}
