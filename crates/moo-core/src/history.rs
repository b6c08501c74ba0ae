//! The record of a game: guesses and the feedback they got, and what it still allows.
//!
//! When a human types the feedback, mistakes happen. A [`History`] can say not just that no code
//! fits any more but which answer, had it been different, would make the record consistent again.

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::space::CodeSpace;

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
        let mut set = space.all();
        for t in &self.turns {
            set = space.filter_code(&set, &t.guess, t.feedback);
        }
        set
    }

    /// For a history no code fits, every single answer that could be changed to make it
    /// consistent again, with the alternatives. Empty when the history is consistent, or when no
    /// single change suffices.
    ///
    /// The history is consistent except for turn `i` exactly when some code breaks turn `i` and
    /// no other, so one pass over the codes, each checked against the turns until it breaks two,
    /// finds every repair: the work grows with codes x turns, not with turns squared.
    pub fn repairs(&self, space: &CodeSpace) -> Vec<Repair> {
        if !self.candidates(space).is_empty() {
            return Vec::new();
        }
        let length = space.length();
        let slots = space.rules().feedback_slots();
        // For each turn, how many codes break only that turn, by the answer they would give.
        let mut counts: Vec<Option<Vec<usize>>> = vec![None; self.turns.len()];
        for code in space.codes() {
            let mut broken = None;
            for (i, t) in self.turns.iter().enumerate() {
                if t.guess.score(code) != t.feedback {
                    if broken.is_some() {
                        broken = None;
                        break;
                    }
                    broken = Some(i);
                }
            }
            if let Some(i) = broken {
                let answer = self.turns[i].guess.score(code);
                counts[i].get_or_insert_with(|| vec![0; slots])[answer.index(length)] += 1;
            }
        }
        counts
            .into_iter()
            .enumerate()
            .filter_map(|(turn, counts)| {
                let counts = counts?;
                let alternatives = Feedback::all(length)
                    .map(|f| (f, counts[f.index(length)]))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                Some(Repair { turn, alternatives })
            })
            .collect()
    }
}

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

    /// The repairs found in one pass are those of the definition: drop turn i, refilter, and
    /// count the codes left for each other answer to turn i.
    #[test]
    fn repairs_match_the_definition() {
        let rules = Rules::mastermind();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let code = |s: &str| rules.parse_code(s).unwrap();
        let mut h = History::new();
        for (g, b, c) in [
            ("1122", 1, 0),
            ("3344", 0, 1),
            ("1356", 2, 2),
            ("6543", 0, 0),
        ] {
            h.push(code(g), Feedback::new(b, c));
        }
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
        let start = std::time::Instant::now();
        let repairs = h.repairs(&space);
        // Only the last turn can be changed alone; 20000 copies of the first cannot.
        assert_eq!(repairs.len(), 1);
        assert_eq!(repairs[0].turn, 20_000);
        assert!(start.elapsed() < std::time::Duration::from_secs(30));
    }
}
