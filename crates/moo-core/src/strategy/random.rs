//! The baseline that ignores feedback: a uniformly random code every turn.
//!
//! It shows what feedback is worth. Guesses are drawn with replacement, so a game can in principle
//! go on for ever; whoever plays it sets a guess cap and counts the games that hit it as give-ups.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Knowledge, Strategy, StrategyError};
use crate::code::Code;

/// Guesses a uniformly random code of the space each turn, whatever the feedback said.
#[derive(Debug, Clone)]
pub struct Random {
    rng: ChaCha8Rng,
}

impl Random {
    /// A random guesser whose draws are fixed by `seed`.
    pub fn new(seed: u64) -> Random {
        Random {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Strategy for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        let n = knowledge.space.len();
        Ok(knowledge.space.code(crate::index_below(&mut self.rng, n)))
    }

    fn is_deterministic(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::play;
    use crate::{CodeSpace, Rules};

    #[test]
    fn same_seed_same_game_and_games_end_in_a_win() {
        let space = CodeSpace::new(Rules::new(2, "0123", false, false).unwrap()).unwrap();
        let secret = space.code(5);
        let a = play(&mut Random::new(7), &space, &secret, 1000).unwrap();
        let b = play(&mut Random::new(7), &space, &secret, 1000).unwrap();
        assert_eq!(a, b);
        assert!(a.is_won(2));
        let lengths: Vec<usize> = (0..20)
            .map(|seed| {
                play(&mut Random::new(seed), &space, &secret, 1000)
                    .unwrap()
                    .len()
            })
            .collect();
        assert!(lengths.iter().any(|&n| n != lengths[0]), "{lengths:?}");
    }
}
