//! The share card: a daily game's result in three lines of text that give nothing away, built
//! here once so that `moo daily`, the server and the page in the browser write the same text.
//!
//! ```text
//! moo daily #1064 · Bulls and Cows · solved in 5
//! ★ ! ✓ ★ ★
//! 0.21 guesses behind perfect play
//! ```
//!
//! The first line names the puzzle and the guesses used (`not solved after N` for a game given
//! up); the second has one symbol a move, its verdict's ([`Verdict::symbol`]); the third the
//! game's total cost against perfect play, `perfect play` when it is nothing (`no guess played`
//! for a game given up at once), and prefixed with `about` when the review could only estimate it.

use crate::review::{GameReview, Verdict};

use super::Puzzle;

/// The share card of `puzzle` played as `review` reviews it.
pub fn share_text(puzzle: &Puzzle, review: &GameReview) -> String {
    let n = review.guesses_played;
    let outcome = if review.won {
        format!("solved in {n}")
    } else {
        format!("not solved after {n}")
    };
    let symbols: Vec<&str> = review.moves.iter().map(|m| m.verdict.symbol()).collect();
    let about = if review.proven { "" } else { "about " };
    // The verdict's own threshold for nothing lost, so a card never says "perfect" beside a
    // move marked otherwise.
    let cost = if review.moves.is_empty() {
        "no guess played".to_string()
    } else if review.moves.iter().all(|m| m.verdict == Verdict::Best) {
        format!("{about}perfect play")
    } else {
        format!(
            "{about}{:.2} guesses behind perfect play",
            review.total_cost
        )
    };
    format!(
        "moo daily #{} · {} · {outcome}\n{}\n{cost}",
        puzzle.number,
        puzzle.game_title(),
        symbols.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::daily::{Date, FIRST_DAY};
    use crate::review::{review, ReviewOptions};
    use crate::{Advisor, CodeSpace, History, Preset, Stop};

    fn card(puzzle: &Puzzle, guesses: &[&str]) -> String {
        let rules = puzzle.rules();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let mut history = History::new();
        for g in guesses {
            let code = rules.parse_code(g).unwrap();
            history.push(code, code.score(&puzzle.secret()));
        }
        let options = ReviewOptions::default().with_move_time(None);
        let r = review(&Advisor::new(), &space, &history, &options, &Stop::never()).unwrap();
        share_text(puzzle, &r)
    }

    /// The card names the puzzle and the guesses, shows one verdict a move and the cost, and
    /// none of the guesses, answers or the secret.
    #[test]
    fn the_card_gives_nothing_away() {
        // Puzzle #1 of Bulls and Cows: 4951.
        let puzzle = Puzzle::new(Preset::Bulls, FIRST_DAY).unwrap();
        let text = card(&puzzle, &["0123", "4567", "4951"]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "moo daily #1 · Bulls and Cows · solved in 3");
        assert_eq!(lines[1].split(' ').count(), 3, "{text}");
        assert!(lines[2].ends_with("guesses behind perfect play"), "{text}");
        for secret_or_guess in ["4951", "0123", "4567", "1B", "0B"] {
            assert!(!text.contains(secret_or_guess), "{text}");
        }
        let gave_up = card(
            &Puzzle::new(Preset::Mastermind, Date::from_days(FIRST_DAY.days() + 9)).unwrap(),
            &["1122"],
        );
        assert_eq!(
            gave_up,
            "moo daily #10 · Mastermind · not solved after 1\n✓\n0.06 guesses behind perfect play"
        );
    }
}
