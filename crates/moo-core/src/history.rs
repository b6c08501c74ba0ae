//! The record of a game: guesses and the feedback they got, and what it still allows.
//!
//! When a human types the feedback, mistakes happen. A [`History`] can say not just that no code
//! fits any more but which answer, had it been different, would make the record consistent again.

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::rules::Rules;
use crate::space::{CodeSpace, SpaceOptions};
use crate::stop::Stop;
use std::collections::HashMap;

/// One turn: a guess and the feedback it got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The code guessed.
    pub guess: Code,
    /// The answer it got.
    pub feedback: Feedback,
}

/// A way to make a contradictory history consistent: change the answer of one turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    /// The turn to change (0-based).
    pub turn: usize,
    /// The answers that would make the history consistent, each with how many codes it leaves.
    pub alternatives: Vec<(Feedback, usize)>,
}

/// The most codes [`History::ruled_out`] enumerates. A keypad asks after every guess, so a
/// larger game gets no marks rather than a wait.
pub const RULED_OUT_MAX_CODES: usize = 200_000;

/// The turns of a game, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct History {
    turns: Vec<Turn>,
}

impl History {
    /// An empty history.
    pub fn new() -> History {
        History::default()
    }

    /// Adds a turn.
    pub fn push(&mut self, guess: Code, feedback: Feedback) {
        self.turns.push(Turn { guess, feedback });
    }

    /// Takes back the last turn.
    pub fn undo(&mut self) -> Option<Turn> {
        self.turns.pop()
    }

    /// The turns so far.
    pub fn turns(&self) -> &[Turn] {
        &self.turns
    }

    /// The number of turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether no guess was made yet.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// Whether the last turn won.
    pub fn is_won(&self, length: usize) -> bool {
        self.turns.last().is_some_and(|t| t.feedback.is_win(length))
    }

    /// The codes of `space` consistent with every turn.
    pub fn candidates(&self, space: &CodeSpace) -> CodeSet {
        self.candidates_until(space, &Stop::never())
            .expect("a search that never stops is never stopped")
    }

    /// [`History::candidates`], given up when `stop` fires. A turn played twice filters once,
    /// and filtering ends once no code is left, so the work grows with the distinct turns and
    /// the codes they leave, not with the length of the history.
    pub fn candidates_until(&self, space: &CodeSpace, stop: &Stop) -> Result<CodeSet, Stopped> {
        let mut set = space.all();
        for (t, _) in self.distinct() {
            if set.is_empty() {
                break;
            }
            if stop.is_stopped() {
                return Err(Stopped);
            }
            set = space.filter_code(&set, &t.guess, t.feedback);
        }
        Ok(set)
    }

    /// The symbols of `rules` that no code consistent with every turn contains, in alphabet
    /// order: a player can drop them from their next guesses. `None` when the rules allow more
    /// than [`RULED_OUT_MAX_CODES`] codes, or when no code fits the turns (then nothing can be
    /// said of a symbol).
    pub fn ruled_out(&self, rules: &Rules) -> Option<Vec<char>> {
        // Scored on the fly: a score table would cost more than the few filters it serves.
        let options = SpaceOptions::default()
            .with_max_codes(RULED_OUT_MAX_CODES)
            .with_table_bytes(0);
        let space = CodeSpace::with_options(rules.clone(), &options).ok()?;
        let candidates = self.candidates(&space);
        if candidates.is_empty() {
            return None;
        }
        let seen = candidates
            .iter()
            .fold(0u64, |m, i| m | space.code(i).mask());
        let alphabet = rules.alphabet();
        Some(
            (0..alphabet.len())
                .filter(|&s| seen & (1 << s) == 0)
                .map(|s| alphabet[s])
                .collect(),
        )
    }

    /// The distinct turns in the order first played, each with how often it was played.
    fn distinct(&self) -> Vec<(Turn, usize)> {
        let mut index: HashMap<Turn, usize> = HashMap::new();
        let mut out: Vec<(Turn, usize)> = Vec::new();
        for t in &self.turns {
            match index.get(t) {
                Some(&i) => out[i].1 += 1,
                None => {
                    index.insert(*t, out.len());
                    out.push((*t, 1));
                }
            }
        }
        out
    }

    /// For a history no code fits, every single answer that could be changed to make it
    /// consistent again, with the alternatives. Empty when the history is consistent, or when no
    /// single change suffices.
    pub fn repairs(&self, space: &CodeSpace) -> Vec<Repair> {
        self.repairs_until(space, &Stop::never())
            .expect("a search that never stops is never stopped")
    }

    /// [`History::repairs`], given up when `stop` fires.
    ///
    /// The history is consistent except for turn `i` exactly when some code breaks turn `i` and
    /// no other, so one pass over the codes, each checked against the turns until it breaks two,
    /// finds every repair: the work grows with codes x distinct turns, not with turns squared.
    /// A turn played twice is broken twice by a code that breaks it, so it is never a repair.
    pub fn repairs_until(&self, space: &CodeSpace, stop: &Stop) -> Result<Vec<Repair>, Stopped> {
        if !self.candidates_until(space, stop)?.is_empty() {
            return Ok(Vec::new());
        }
        let length = space.length();
        let slots = space.rules().feedback_slots();
        let distinct = self.distinct();
        // For each distinct turn, how many codes break only that turn, by the answer they would
        // give.
        let mut counts: Vec<Option<Vec<usize>>> = vec![None; distinct.len()];
        for (n, code) in space.codes().iter().enumerate() {
            if n % STOP_EVERY == 0 && stop.is_stopped() {
                return Err(Stopped);
            }
            let mut broken = None;
            for (i, (t, times)) in distinct.iter().enumerate() {
                if t.guess.score(code) != t.feedback {
                    if broken.is_some() || *times > 1 {
                        broken = None;
                        break;
                    }
                    broken = Some(i);
                }
            }
            if let Some(i) = broken {
                let answer = distinct[i].0.guess.score(code);
                counts[i].get_or_insert_with(|| vec![0; slots])[answer.index(length)] += 1;
            }
        }
        // Reported by the turn's place in the history; a turn played once has one place.
        Ok(counts
            .into_iter()
            .enumerate()
            .filter_map(|(i, counts)| {
                let counts = counts?;
                let turn = self.turns.iter().position(|t| *t == distinct[i].0)?;
                let alternatives = Feedback::all(length)
                    .map(|f| (f, counts[f.index(length)]))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                Some(Repair { turn, alternatives })
            })
            .collect())
    }
}

#[cfg(test)]
impl History {
    /// The history of `turns` under `rules`, each a guess as text and its bulls and cows: the
    /// start of most tests of what a history tells.
    pub(crate) fn of(rules: &Rules, turns: &[(&str, u8, u8)]) -> History {
        let mut history = History::new();
        for &(guess, bulls, cows) in turns {
            history.push(rules.parse_code(guess).unwrap(), Feedback::new(bulls, cows));
        }
        history
    }
}

/// How many codes are checked between two looks at the clock.
const STOP_EVERY: usize = 4096;

/// Work on a history given up because its [`Stop`] fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the history could not be worked through within the time limit")]
pub struct Stopped;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn candidates_and_repairs() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let code = |s: &str| rules.parse_code(s).unwrap();
        let mut h = History::new();
        h.push(code("0123"), Feedback::new(0, 0));
        assert_eq!(h.candidates(&space).len(), 360); // 6 * 5 * 4 * 3
        h.push(code("4567"), Feedback::new(0, 0));
        assert_eq!(h.candidates(&space).len(), 0); // only 8 and 9 left for 4 places
        let repairs = h.repairs(&space);
        assert_eq!(repairs.len(), 2);
        for r in &repairs {
            assert!(r
                .alternatives
                .iter()
                .all(|&(f, n)| n > 0 && f.bulls + f.cows >= 2));
        }
        assert!(h.undo().is_some());
        assert!(h.repairs(&space).is_empty());
    }

    /// A symbol is ruled out exactly when no code left contains it: after 0123 got nothing,
    /// its four digits; after a guess that got all four symbols, every other one.
    #[test]
    fn ruled_out_symbols_are_those_no_code_left_contains() {
        let rules = Rules::bulls();
        let code = |s: &str| rules.parse_code(s).unwrap();
        let mut h = History::new();
        assert_eq!(h.ruled_out(&rules), Some(vec![]));
        h.push(code("0123"), Feedback::new(0, 0));
        assert_eq!(h.ruled_out(&rules), Some(vec!['0', '1', '2', '3']));
        let mut all = History::new();
        all.push(code("4567"), Feedback::new(1, 3));
        let out: String = all.ruled_out(&rules).unwrap().into_iter().collect();
        assert_eq!(out, "012389");
        let mm = Rules::mastermind();
        let mut pegs = History::new();
        pegs.push(mm.parse_code("1122").unwrap(), Feedback::new(0, 0));
        assert_eq!(pegs.ruled_out(&mm), Some(vec!['1', '2']));
        h.push(code("4567"), Feedback::new(0, 0));
        assert_eq!(h.ruled_out(&rules), None, "no code fits");
        let long = Rules::new(10, "0123456789", false, false).unwrap();
        assert_eq!(History::new().ruled_out(&long), None, "too many codes");
    }

    /// The repairs found in one pass are those of the definition: drop turn i, refilter, and
    /// count the codes left for each other answer to turn i.
    #[test]
    fn repairs_match_the_definition() {
        let rules = Rules::mastermind();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let h = History::of(
            &rules,
            &[
                ("1122", 1, 0),
                ("3344", 0, 1),
                ("1356", 2, 2),
                ("6543", 0, 0),
            ],
        );
        assert!(h.candidates(&space).is_empty());
        let mut want = Vec::new();
        for skip in 0..h.len() {
            let mut rest = space.all();
            for (i, t) in h.turns().iter().enumerate() {
                if i != skip {
                    rest = space.filter_code(&rest, &t.guess, t.feedback);
                }
            }
            let t = h.turns()[skip];
            let alternatives: Vec<(Feedback, usize)> = Feedback::all(4)
                .filter(|&f| f != t.feedback)
                .map(|f| (f, space.filter_code(&rest, &t.guess, f).len()))
                .filter(|&(_, n)| n > 0)
                .collect();
            if !alternatives.is_empty() {
                want.push(Repair {
                    turn: skip,
                    alternatives,
                });
            }
        }
        assert!(!want.is_empty());
        assert_eq!(h.repairs(&space), want);
    }

    #[test]
    fn long_contradictory_histories_are_repaired_quickly() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let mut h = History::new();
        for _ in 0..20_000 {
            h.push(rules.parse_code("0123").unwrap(), Feedback::new(0, 0));
        }
        h.push(rules.parse_code("4567").unwrap(), Feedback::new(0, 0));
        let start = web_time::Instant::now();
        let repairs = h.repairs(&space);
        // Only the last turn can be changed alone; 20000 copies of the first cannot.
        assert_eq!(repairs.len(), 1);
        assert_eq!(repairs[0].turn, 20_000);
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
    }

    /// A turn played many times filters once, a turn played twice is no repair, and
    /// both searches give up when their stop fires.
    #[test]
    fn repeated_turns_filter_once_and_a_stop_is_honoured() {
        let rules = Rules::new(10, "0123456789", false, false).unwrap();
        let space = CodeSpace::with_limit(rules.clone(), crate::space::MAX_CODES).unwrap();
        let mut h = History::new();
        let guess = rules.parse_code("0123456789").unwrap();
        for _ in 0..10_000 {
            h.push(guess, Feedback::new(2, 8));
        }
        let start = web_time::Instant::now();
        let once = {
            let mut one = History::new();
            one.push(guess, Feedback::new(2, 8));
            one.candidates(&space)
        };
        let single = start.elapsed();
        assert_eq!(h.candidates(&space), once);
        // Generous: ten times one filter, where ten thousand filters took minutes.
        assert!(start.elapsed() < single * 10 + std::time::Duration::from_secs(5));
        let stopped = Stop::at(web_time::Instant::now());
        assert_eq!(h.candidates_until(&space, &stopped), Err(Stopped));
        // Contradicted by the last turn, which alone can be changed: the 10000 copies cannot.
        h.push(guess, Feedback::new(3, 7));
        assert_eq!(h.repairs_until(&space, &stopped), Err(Stopped));
        let small = CodeSpace::new(Rules::bulls()).unwrap();
        let code = |s: &str| Rules::bulls().parse_code(s).unwrap();
        let mut h = History::new();
        for _ in 0..3 {
            h.push(code("0123"), Feedback::new(0, 0));
        }
        h.push(code("4567"), Feedback::new(0, 0));
        let repairs = h.repairs(&small);
        assert_eq!(repairs.len(), 1, "{repairs:?}");
        assert_eq!(repairs[0].turn, 3);
    }
}
