//! Hard mode: every guess must be a code that could still be the secret.
//!
//! A guess is possible exactly when, had it been the secret, every earlier guess would have got
//! the answer it did get; so checking it takes one score per turn and no list of codes, and any
//! game moo accepts (even one too large to enumerate) can be played in hard mode. A refused
//! guess names the first earlier answer it contradicts, which is what a player needs to see
//! their mistake, and costs no turn.

use crate::code::Code;
use crate::history::History;
use crate::rules::Rules;

/// A guess hard mode refuses: it could not be the secret, given an earlier answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{code} is not possible: guess {turn}, {earlier}, got {got}, but if the secret were {code} it would have got {would}. In hard mode every guess must fit every answer so far: try a code that fits them all"
)]
pub struct NotPossible {
    /// The refused guess.
    pub code: String,
    /// The earlier turn it contradicts, counted from 1.
    pub turn: usize,
    /// That turn's guess.
    pub earlier: String,
    /// The answer that turn got, in words.
    pub got: String,
    /// The answer it would have got had the refused guess been the secret, in words.
    pub would: String,
}

/// Whether `code` could still be the secret after `history`: `Err` names the first earlier
/// answer it contradicts.
pub fn check(rules: &Rules, history: &History, code: &Code) -> Result<(), NotPossible> {
    for (i, t) in history.turns().iter().enumerate() {
        let would = t.guess.score(code);
        if would != t.feedback {
            return Err(NotPossible {
                code: rules.format_code(code),
                turn: i + 1,
                earlier: rules.format_code(&t.guess),
                got: t.feedback.words(rules),
                would: would.words(rules),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CodeSpace, Feedback};

    #[test]
    fn a_guess_is_possible_exactly_when_it_is_a_code_left() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let history = History::of(&rules, &[("0123", 1, 1), ("4567", 0, 1)]);
        let left = history.candidates(&space);
        for (i, c) in space.codes().iter().enumerate() {
            assert_eq!(check(&rules, &history, c).is_ok(), left.contains(i));
        }
    }

    #[test]
    fn a_refusal_names_the_first_answer_contradicted_in_words() {
        let rules = Rules::bulls();
        let code = |s: &str| rules.parse_code(s).unwrap();
        let mut history = History::new();
        history.push(code("0123"), Feedback::new(0, 0));
        let e = check(&rules, &history, &code("0456")).unwrap_err();
        assert_eq!(e.turn, 1);
        assert_eq!(
            e.to_string(),
            "0456 is not possible: guess 1, 0123, got 0 bulls and 0 cows, but if the secret were 0456 it would have got 1 bull and 0 cows. In hard mode every guess must fit every answer so far: try a code that fits them all"
        );
        let mastermind = Rules::mastermind();
        let mut history = History::new();
        history.push(mastermind.parse_code("1122").unwrap(), Feedback::new(1, 0));
        let e = check(
            &mastermind,
            &history,
            &mastermind.parse_code("1111").unwrap(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("got 1 black and 0 white, but if the secret were 1111 it would have got 2 black and 0 white"), "{e}");
    }
}
