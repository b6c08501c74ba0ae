//! The simplest consistent strategy: guess the first code still possible.

use super::{Knowledge, Strategy, StrategyError};
use crate::code::Code;

/// Plays the first code, in alphabet order, that is consistent with all feedback so far.
#[derive(Debug, Clone, Copy, Default)]
pub struct Simple;

impl Strategy for Simple {
    fn name(&self) -> &str {
        "simple"
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        knowledge
            .candidates
            .first()
            .map(|i| knowledge.space.code(i))
            .ok_or(StrategyError::NoCandidates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::play;
    use crate::{CodeSpace, Rules};

    #[test]
    fn solves_every_mastermind_secret() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let mut worst = 0;
        for secret in space.codes() {
            let h = play(&mut Simple, &space, secret, 20).unwrap();
            assert!(h.is_won(4));
            worst = worst.max(h.len());
        }
        assert!(worst <= 9, "worst {worst}");
    }
}
