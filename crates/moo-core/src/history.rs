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
        self.candidates_except(space, None)
    }

    fn candidates_except(&self, space: &CodeSpace, skip: Option<usize>) -> CodeSet {
        let mut set = space.all();
        for (i, t) in self.turns.iter().enumerate() {
            if Some(i) != skip {
                set = space.filter_code(&set, &t.guess, t.feedback);
            }
        }
        set
    }

    /// For a history no code fits, every single answer that could be changed to make it
    /// consistent again, with the alternatives. Empty when the history is consistent, or when no
    /// single change suffices.
    pub fn repairs(&self, space: &CodeSpace) -> Vec<Repair> {
        if !self.candidates(space).is_empty() {
            return Vec::new();
        }
        let length = space.length();
        (0..self.turns.len())
            .filter_map(|i| {
                let rest = self.candidates_except(space, Some(i));
                if rest.is_empty() {
                    return None;
                }
                let turn = self.turns[i];
                let alternatives: Vec<(Feedback, usize)> = Feedback::all(length)
                    .filter(|&f| f != turn.feedback)
                    .map(|f| (f, space.filter_code(&rest, &turn.guess, f).len()))
                    .filter(|&(_, n)| n > 0)
                    .collect();
                (!alternatives.is_empty()).then_some(Repair {
                    turn: i,
                    alternatives,
                })
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
}
