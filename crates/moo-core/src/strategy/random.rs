//! The baseline that ignores feedback: a uniformly random code every turn.
//!
//! It shows what feedback is worth. Guesses are drawn with replacement, so a game can in principle
//! go on for ever; whoever plays it sets a guess cap and counts the games that hit it as give-ups.
//!
//! Held to [`GuessPool::Consistent`] it becomes the beginner a person plays like: any code still
//! possible, with no thought for which splits the rest best (the duel's first level).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{GuessPool, Knowledge, Strategy, StrategyError};
use crate::code::Code;

/// Guesses a uniformly random code of the space each turn, whatever the feedback said; or, held
/// to the codes still possible, a uniformly random one of those.
#[derive(Debug, Clone)]
pub struct Random {
    rng: ChaCha8Rng,
    pool: GuessPool,
}

impl Random {
    /// A random guesser of any code, whose draws are fixed by `seed`.
    pub fn new(seed: u64) -> Random {
        Random {
            rng: ChaCha8Rng::seed_from_u64(seed),
            pool: GuessPool::All,
        }
    }

    /// The guesser drawing from `pool`: with [`GuessPool::Consistent`], only codes still possible.
    pub fn with_guesses(mut self, pool: GuessPool) -> Random {
        self.pool = pool;
        self
    }
}

impl Strategy for Random {
    fn name(&self) -> &str {
        "random"
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        let index = match self.pool {
            GuessPool::All => crate::index_below(&mut self.rng, knowledge.space.len()),
            GuessPool::Consistent => {
                let candidates = knowledge.candidates.as_slice();
                if candidates.is_empty() {
                    return Err(StrategyError::NoCandidates);
                }
                candidates[crate::index_below(&mut self.rng, candidates.len())] as usize
            }
        };
        Ok(knowledge.space.code(index))
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

    /// Held to the codes still possible, every guess fits every answer before it, so a game of
    /// Bulls and Cows never takes more guesses than the codes left allow.
    #[test]
    fn held_to_the_codes_still_possible_every_guess_fits() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        for seed in 0..50 {
            let secret = space.code((seed as usize * 97) % space.len());
            let mut random = Random::new(seed).with_guesses(GuessPool::Consistent);
            let history = play(&mut random, &space, &secret, 100).unwrap();
            assert!(history.is_won(4));
            for (i, t) in history.turns().iter().enumerate() {
                for earlier in &history.turns()[..i] {
                    assert_eq!(
                        earlier.guess.score(&t.guess),
                        earlier.feedback,
                        "seed {seed}"
                    );
                }
            }
            assert!(history.len() <= 9, "seed {seed}: {}", history.len());
        }
    }
}
