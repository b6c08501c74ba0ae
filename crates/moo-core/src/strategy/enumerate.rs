//! Brute force: every code in alphabet order until one hits.

use super::{Knowledge, Strategy, StrategyError};
use crate::code::Code;

/// Guesses the code after the last guess in alphabet order (the first code on an empty history),
/// ignoring feedback. Against every secret it needs `(n + 1) / 2` guesses on average.
#[derive(Debug, Clone, Copy, Default)]
pub struct Enumerate {
    /// The last guess made and its index: brute force against thousands of secrets spends most
    /// of its time looking up where the last guess was, and this is nearly always it.
    last: Option<(Code, usize)>,
}

impl Strategy for Enumerate {
    fn name(&self) -> &str {
        "enumerate"
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        let space = knowledge.space;
        // Continuing from the last guess (not counting turns) keeps the order meaningful when
        // the history holds someone else's guesses; a guess from outside the space restarts it.
        let next = match knowledge.history.turns().last() {
            None => 0,
            Some(t) => match self.last {
                Some((code, i)) if code == t.guess => (i + 1) % space.len(),
                _ => space
                    .index_of(&t.guess)
                    .map_or(0, |i| (i + 1) % space.len()),
            },
        };
        let guess = space.code(next);
        self.last = Some((guess, next));
        Ok(guess)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::play;
    use crate::{CodeSpace, Rules};

    #[test]
    fn secret_at_index_i_takes_i_plus_one_guesses() {
        let space = CodeSpace::new(Rules::new(3, "0123", false, false).unwrap()).unwrap();
        for (i, secret) in space.codes().iter().enumerate() {
            let h = play(&mut Enumerate::default(), &space, secret, 100).unwrap();
            assert_eq!(h.len(), i + 1);
            assert!(h.is_won(3));
        }
    }
}
