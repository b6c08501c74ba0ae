//! The cows-score solver: find the secret's symbols first, using only bulls + cows, then arrange them.
//!
//! A guess's bulls + cows is the number of symbols it shares with the secret (counted with
//! multiplicity), whatever the order. The solver works on that number alone until it knows which
//! symbols the secret holds, then uses the bulls to place them:
//!
//! 1. **Find an absent set.** Guess disjoint blocks of `length` symbols in alphabet order
//!    (`0123`, `4567`, ... in Bulls and Cows) until one scores 0, so those symbols are dropped.
//!    When the alphabet is smaller than needed (fewer than `length` symbols left for the next
//!    block, as in Mastermind after `1234`, or no block at all when the alphabet is shorter than the
//!    code), this phase ends without an absent set and the next phase simply has more to rule out.
//! 2. **Find the secret's symbols.** Guess the first code, in alphabet order, whose symbols agree
//!    with every bulls + cows total so far (bulls are ignored), until one scores bulls + cows =
//!    `length`: its symbols are the secret's.
//! 3. **Arrange them.** Guess the first code still consistent with all feedback; every such code
//!    is an arrangement of the symbols found.
//!
//! The phase is read from the history each time, so the strategy is deterministic and keeps no
//! state. It works for distinct and repeat games of any alphabet: repeated symbols only change how
//! totals are counted, which the scoring rule already does.

use super::{Knowledge, Strategy, StrategyError};
use crate::code::Code;
use crate::space::CodeSpace;

/// The cows-score solver (see the module documentation for the three phases).
#[derive(Debug, Clone, Copy, Default)]
pub struct Cows;

/// The valid blocks of `length` consecutive symbols, in alphabet order.
fn blocks(space: &CodeSpace) -> impl Iterator<Item = Code> + '_ {
    let k = space.length();
    let m = space.rules().alphabet().len();
    (0..m / k).filter_map(move |j| {
        let mut symbols: Vec<u8> = (j * k..(j + 1) * k).map(|s| s as u8).collect();
        if space.rules().no_leading() && symbols[0] == 0 {
            // The first symbol may not lead: rotate it to the back.
            symbols.rotate_left(1);
        }
        let code = Code::from_symbols(&symbols);
        space.index_of(&code).map(|_| code)
    })
}

impl Strategy for Cows {
    fn name(&self) -> &str {
        "cows"
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        let space = knowledge.space;
        let k = space.length();
        let turns = knowledge.history.turns();
        let total = |t: &crate::Turn| usize::from(t.feedback.bulls + t.feedback.cows);

        // Phase 3: some guess held exactly the secret's symbols.
        if turns.iter().any(|t| total(t) == k) {
            return knowledge
                .candidates
                .first()
                .map(|i| space.code(i))
                .ok_or(StrategyError::NoCandidates);
        }

        // Phase 1: the history so far is the first blocks, none of them absent.
        let mut blocks = blocks(space);
        let mut in_phase_one = true;
        for t in turns {
            if blocks.next() != Some(t.guess) || total(t) == 0 {
                in_phase_one = false;
                break;
            }
        }
        if in_phase_one {
            if let Some(block) = blocks.next() {
                return Ok(block);
            }
        }

        // Phase 2: the first code whose symbol content fits every total.
        let slots = k + 1;
        let checks: Vec<(Option<usize>, Code, usize)> = turns
            .iter()
            .map(|t| (space.index_of(&t.guess), t.guess, total(t)))
            .collect();
        let fits = |c: usize| {
            checks.iter().all(|&(g, guess, want)| {
                let shared = match g {
                    // Bulls + cows is symmetric, so the guess's row of the table serves.
                    Some(g) => {
                        let i = usize::from(space.score_index(g, c));
                        i / slots + i % slots
                    }
                    None => {
                        let f = guess.score(&space.code(c));
                        usize::from(f.bulls + f.cows)
                    }
                };
                shared == want
            })
        };
        (0..space.len())
            .find(|&c| fits(c))
            .map(|c| space.code(c))
            .ok_or(StrategyError::NoCandidates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::games;
    use crate::strategy::play;
    use crate::{Feedback, History, Rules};

    fn worst_case(rules: Rules) -> usize {
        let space = CodeSpace::new(rules.clone()).unwrap();
        space
            .codes()
            .iter()
            .map(|secret| {
                let h = play(&mut Cows, &space, secret, 200).unwrap();
                assert!(h.is_won(rules.length()), "{secret:?}");
                h.len()
            })
            .max()
            .unwrap()
    }

    #[test]
    fn solves_every_secret_of_distinct_and_repeat_games() {
        // "4 ab repeats" has an alphabet smaller than the code: no block at all.
        for rules in games("mastermind, 3 0123456, 3 0123456 no-leading, 4 ab repeats, 2 01") {
            assert!(worst_case(rules.clone()) < 30, "{rules:?}");
        }
    }

    #[test]
    fn phases_in_bulls_and_cows() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let code = |s: &str| rules.parse_code(s).unwrap();
        let guess = |h: &History| {
            let candidates = h.candidates(&space);
            let k = Knowledge::new(&space, h, &candidates);
            rules.format_code(&Cows.next_guess(&k).unwrap())
        };
        let mut h = History::new();
        assert_eq!(guess(&h), "0123");
        let secret = code("9382");
        let answer = |g: &str| code(g).score(&secret);
        h.push(code("0123"), answer("0123"));
        assert_eq!(answer("0123"), Feedback::new(0, 2));
        assert_eq!(guess(&h), "4567");
        h.push(code("4567"), answer("4567"));
        // An absent set: phase 2. Two of 0-3 and both of 8, 9; the first such code is 0189.
        assert_eq!(guess(&h), "0189");
        h.push(code("0189"), answer("0189"));
        assert_eq!(answer("0189"), Feedback::new(1, 1));
        // 8 and 9 are in, so 0 and 1 are out: the symbols are 2, 3, 8, 9.
        assert_eq!(guess(&h), "2389");
        h.push(code("2389"), answer("2389"));
        // Phase 3: the first arrangement consistent with everything.
        let g = guess(&h);
        assert_eq!(
            h.candidates(&space)
                .first()
                .map(|i| rules.format_code(&space.code(i))),
            Some(g)
        );
    }
}
