//! The duel: the game as two people play it. You and the computer each hold a secret; turns
//! alternate, you first; whoever finds the other's secret first wins, and since the second
//! player gets as many turns as the first, finding both in the same round is a draw.
//!
//! The rules and the state machine live here so that `moo duel`, the server and the static
//! site's engine play the same game: a front end only hands over [`Move`]s and shows the
//! [`DuelReport`]. The computer's strength is a [`Level`], each an existing registry strategy
//! (the beginner is `random` held to the codes still possible), and its guesses come from the
//! one advisor, which builds a named strategy afresh each turn from the seed and the turn: so a
//! duel holds no strategy, is a plain value that can be cloned and stored, and the same seed
//! replays the same duel.
//!
//! The computer's guesses are answered from your secret, or by you; a person answering may
//! slip, so answers that no code fits stop the duel until one is fixed, with the same repairs
//! `moo solve` and the Solver page offer ([`Contradiction`]). A move is applied whole or not at
//! all: a refused move leaves the duel as it was.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::advisor::{AdviceError, AdviceOptions, Advisor, Chooser, Contradiction, TurnReport};
use crate::code::Code;
use crate::eval::{EvalError, EvalOptions, Evaluation};
use crate::feedback::{Feedback, FeedbackError};
use crate::history::History;
use crate::pool::GuessPool;
use crate::rules::Rules;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::strategy::{self, StrategyOptions};

/// How strong the computer plays: each level is a strategy of the registry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(into = "LevelInfo")]
pub enum Level {
    /// Guesses any code still possible, at random, as a beginner does.
    Beginner,
    /// Knuth's minimax: the guess whose worst answer leaves the fewest codes.
    Club,
    /// The guess whose answer tells the most on average (entropy).
    Expert,
    /// Proven best play: the fewest guesses on average (the optimal tree where one is shipped).
    Perfect,
}

/// A level as front ends show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct LevelInfo {
    /// Its number, from 1 (the weakest).
    pub number: usize,
    /// Its name for players.
    pub name: &'static str,
    /// How it plays, in plain words.
    pub about: &'static str,
    /// The registry strategy it plays.
    pub strategy: &'static str,
}

impl From<Level> for LevelInfo {
    fn from(level: Level) -> LevelInfo {
        level.info()
    }
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Beginner, Level::Club, Level::Expert, Level::Perfect];

    /// The level's place in [`Level::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The level numbered `number` (from 1).
    pub fn from_number(number: usize) -> Result<Level, DuelError> {
        number
            .checked_sub(1)
            .and_then(|i| Level::ALL.get(i))
            .copied()
            .ok_or(DuelError::NoSuchLevel(number))
    }

    /// What front ends show of it.
    pub fn info(self) -> LevelInfo {
        let (name, about, strategy) = match self {
            Level::Beginner => (
                "Beginner",
                "guesses any code that is still possible, at random",
                "random",
            ),
            Level::Club => (
                "Club player",
                "picks the guess whose worst answer leaves the fewest codes (Knuth's method)",
                "knuth",
            ),
            Level::Expert => (
                "Expert",
                "picks the guess whose answer tells the most on average",
                "entropy",
            ),
            Level::Perfect => (
                "Perfect",
                "plays the proven best guesses: the fewest on average",
                crate::advisor::OPTIMAL,
            ),
        };
        LevelInfo {
            number: self.index() + 1,
            name,
            about,
            strategy,
        }
    }

    /// Which codes the level may guess: the beginner only those still possible.
    pub fn guesses(self) -> GuessPool {
        match self {
            Level::Beginner => GuessPool::Consistent,
            _ => GuessPool::All,
        }
    }

    /// How strong the level is: its strategy played against every secret of `space` as it
    /// plays in a duel (the beginner's draws seeded by `options.seed`).
    pub fn strength(
        self,
        space: &CodeSpace,
        options: &EvalOptions,
    ) -> Result<Evaluation, EvalError> {
        let build = |seed: u64| {
            let options = StrategyOptions {
                guesses: self.guesses(),
                seed,
                ..StrategyOptions::default()
            };
            strategy::by_name(self.info().strategy, space, &options)
        };
        crate::eval::evaluate(space, &build, options, &|_| {})
    }
}

/// What a player does in a duel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Move {
    /// A guess at the computer's secret.
    Guess(Code),
    /// The answer to the computer's guess, typed by a player who keeps their secret to
    /// themselves.
    Answer(Feedback),
    /// A corrected answer to the computer's guess `turn` (counted from 1): when the answers
    /// given contradict each other, or at any time before the end, as a player who finds more
    /// than one slip corrects them one after the other.
    Fix {
        /// The computer's turn whose answer changes, from 1.
        turn: usize,
        /// The answer it should have had.
        feedback: Feedback,
    },
    /// The player gives up, which shows the computer's secret.
    GiveUp,
}

/// What the duel waits for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Your guess at the computer's secret.
    YourGuess,
    /// Your answer to the computer's guess.
    YourAnswer,
    /// A fix of one of your answers: no code fits them all.
    FixAnswer,
    /// Nothing: the duel is over.
    Over,
}

/// How a duel ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// You found the computer's secret and it did not find yours in the same round.
    Won,
    /// The computer found your secret first.
    Lost,
    /// Both found the other's secret in the same round.
    Drawn,
    /// You gave up.
    GaveUp,
}

/// Why a move was refused; the duel is as it was.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DuelError {
    /// No level has this number.
    #[error("there is no level {0}: choose a level from 1 (beginner) to 4 (perfect)")]
    NoSuchLevel(usize),
    /// Your secret breaks the rules.
    #[error("your secret does not fit the rules: {0}")]
    BadSecret(String),
    /// The duel is over.
    #[error("the duel is over: start a new one")]
    Over,
    /// The move is not the one the duel waits for.
    #[error("{0}")]
    NotNow(&'static str),
    /// The guess was played before: it would get the same answer again.
    #[error("you already guessed {guess} (guess {turn}), and it got {feedback}: the same guess always gets the same answer, so try another code")]
    Repeated {
        /// The guess.
        guess: String,
        /// Its earlier turn, from 1.
        turn: usize,
        /// The answer it got, in words.
        feedback: String,
    },
    /// The answer cannot occur for codes of this length.
    #[error(transparent)]
    Feedback(#[from] FeedbackError),
    /// The fix names a turn the computer has not played.
    #[error("the computer has made {made} guesses, so there is no guess {turn} to fix")]
    NoSuchTurn {
        /// The turn asked for, from 1.
        turn: usize,
        /// How many guesses the computer has made.
        made: usize,
    },
    /// A fix that makes an earlier answer a win: a win ends the duel, so only the last answer
    /// may say every symbol is in place.
    #[error("only the answer to the computer's last guess can say all of it is right: a right guess ends the duel")]
    EarlyWin,
    /// The computer could not choose its guess.
    #[error("the computer could not choose its guess: {0}")]
    Advice(#[from] AdviceError),
}

/// A duel in play: a plain value, cloned and stored as it is.
#[derive(Debug, Clone)]
pub struct Duel {
    rules: Rules,
    level: Level,
    seed: u64,
    /// The computer's secret, drawn from the seed as `moo play --seed` draws its own.
    secret: Code,
    /// Your secret, when moo answers the computer for you.
    yours: Option<Code>,
    /// Your guesses at the computer's secret.
    you: History,
    /// The computer's guesses at your secret, with their answers.
    computer: History,
    /// The computer's guess waiting for your answer.
    pending: Option<Code>,
    /// How many codes fit your answers so far.
    left: usize,
    /// When no code fits your answers: which one to fix.
    contradiction: Option<Contradiction>,
    gave_up: bool,
    /// The moves played, so a caller that played a copy can tell whether the duel moved on
    /// meanwhile.
    moves: usize,
}

impl Duel {
    /// A duel of `rules` against `level`, the computer's secret drawn from `seed`; with `yours`,
    /// moo answers the computer's guesses from it, else you answer them. Its moves are played
    /// on the code space of `rules`.
    pub fn new(
        rules: &Rules,
        level: Level,
        seed: u64,
        yours: Option<Code>,
    ) -> Result<Duel, DuelError> {
        let rules = rules.clone();
        if let Some(code) = &yours {
            rules
                .check_code(code)
                .map_err(|e| DuelError::BadSecret(e.to_string()))?;
        }
        let secret = rules.random_code(&mut ChaCha8Rng::seed_from_u64(seed));
        Ok(Duel {
            level,
            seed,
            secret,
            yours,
            you: History::new(),
            computer: History::new(),
            pending: None,
            left: usize::try_from(rules.space_size()).unwrap_or(usize::MAX),
            rules,
            contradiction: None,
            gave_up: false,
            moves: 0,
        })
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The computer's level.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Your guesses and their answers.
    pub fn yours(&self) -> &History {
        &self.you
    }

    /// The computer's guesses and your answers.
    pub fn its(&self) -> &History {
        &self.computer
    }

    /// The computer's guess waiting for your answer.
    pub fn pending(&self) -> Option<Code> {
        self.pending
    }

    /// How many moves were played.
    pub fn moves(&self) -> usize {
        self.moves
    }

    /// What the duel waits for.
    pub fn phase(&self) -> Phase {
        if self.outcome().is_some() {
            Phase::Over
        } else if self.pending.is_some() {
            Phase::YourAnswer
        } else if self.contradiction.is_some() {
            Phase::FixAnswer
        } else {
            Phase::YourGuess
        }
    }

    /// How it ended, once over.
    pub fn outcome(&self) -> Option<Outcome> {
        if self.gave_up {
            return Some(Outcome::GaveUp);
        }
        // A round is over when both have played and the answers fit.
        if self.pending.is_some()
            || self.contradiction.is_some()
            || self.you.len() != self.computer.len()
        {
            return None;
        }
        let length = self.rules.length();
        match (self.you.is_won(length), self.computer.is_won(length)) {
            (true, true) => Some(Outcome::Drawn),
            (true, false) => Some(Outcome::Won),
            (false, true) => Some(Outcome::Lost),
            (false, false) => None,
        }
    }

    /// Plays `mv`, asking `advisor` for the computer's guess on `space` within `stop`; a
    /// refused move changes nothing.
    pub fn play(
        &mut self,
        mv: Move,
        space: &CodeSpace,
        advisor: &Advisor,
        stop: &Stop,
    ) -> Result<(), DuelError> {
        let mut next = self.clone();
        next.apply(mv, space, advisor, stop)?;
        next.moves += 1;
        *self = next;
        Ok(())
    }

    fn apply(
        &mut self,
        mv: Move,
        space: &CodeSpace,
        advisor: &Advisor,
        stop: &Stop,
    ) -> Result<(), DuelError> {
        let phase = self.phase();
        if phase == Phase::Over {
            return Err(DuelError::Over);
        }
        match mv {
            Move::GiveUp => self.gave_up = true,
            Move::Guess(code) => {
                match phase {
                    Phase::YourAnswer => return Err(DuelError::NotNow(
                        "first answer the computer's guess: how does it score against your secret?",
                    )),
                    Phase::FixAnswer => {
                        return Err(DuelError::NotNow(
                            "no code fits your answers: fix the wrong one before the next guess",
                        ))
                    }
                    _ => {}
                }
                if let Some(i) = self.you.turns().iter().position(|t| t.guess == code) {
                    return Err(DuelError::Repeated {
                        guess: self.rules.format_code(&code),
                        turn: i + 1,
                        feedback: self.you.turns()[i].feedback.words(&self.rules),
                    });
                }
                self.you.push(code, code.score(&self.secret));
                self.computer_guesses(space, advisor, stop)?;
            }
            Move::Answer(feedback) => {
                let Some(guess) = self.pending else {
                    return Err(DuelError::NotNow(if self.yours.is_some() {
                        "moo answers the computer's guesses from your secret"
                    } else {
                        "the computer has no guess waiting for an answer"
                    }));
                };
                let feedback = feedback.check(self.rules.length())?;
                self.pending = None;
                self.computer.push(guess, feedback);
                self.settle(space, stop);
            }
            Move::Fix { turn, feedback } => {
                let made = self.computer.len();
                if turn == 0 || turn > made {
                    return Err(DuelError::NoSuchTurn { turn, made });
                }
                let feedback = feedback.check(self.rules.length())?;
                // Only the answer that stopped the duel may become a win: a win at any other
                // turn would have ended the duel rounds ago.
                let last = turn == made && phase == Phase::FixAnswer;
                if !last && feedback.is_win(self.rules.length()) {
                    return Err(DuelError::EarlyWin);
                }
                let mut fixed = History::new();
                for (i, t) in self.computer.turns().iter().enumerate() {
                    fixed.push(t.guess, if i + 1 == turn { feedback } else { t.feedback });
                }
                self.computer = fixed;
                self.settle(space, stop);
            }
        }
        Ok(())
    }

    /// The computer's guess after yours, answered from your secret or left for you to answer.
    fn computer_guesses(
        &mut self,
        space: &CodeSpace,
        advisor: &Advisor,
        stop: &Stop,
    ) -> Result<(), DuelError> {
        let candidates =
            self.computer
                .candidates_until(space, stop)
                .map_err(|_| AdviceError::Stopped {
                    turns: self.computer.len(),
                })?;
        let info = self.level.info();
        let options = AdviceOptions {
            strategy: Some(info.strategy.to_string()),
            guesses: self.level.guesses(),
            seed: self.seed,
        };
        let advice = advisor.advise(
            space,
            &self.computer,
            &candidates,
            Chooser::Advisor(&options, stop),
        )?;
        match self.yours {
            Some(secret) => {
                self.computer.push(advice.code, advice.code.score(&secret));
                self.settle(space, stop);
            }
            None => self.pending = Some(advice.code),
        }
        Ok(())
    }

    /// After an answer: how many codes fit them, or which to fix when none does.
    fn settle(&mut self, space: &CodeSpace, stop: &Stop) {
        let left = self.computer.candidates(space).len();
        self.left = left;
        self.contradiction = (left == 0).then(|| Contradiction::until(space, &self.computer, stop));
    }

    /// The duel as a player may see it: the computer's secret only once it is over.
    pub fn report(&self) -> DuelReport {
        let over = self.outcome().is_some();
        DuelReport {
            description: self.rules.describe(),
            rules: self.rules.clone(),
            level: self.level,
            phase: self.phase(),
            outcome: self.outcome(),
            you: TurnReport::all(&self.rules, &self.you),
            computer: TurnReport::all(&self.rules, &self.computer),
            pending: self.pending.map(|c| self.rules.format_code(&c)),
            computer_left: self.left,
            answered_for_you: self.yours.is_some(),
            your_secret: self.yours.map(|c| self.rules.format_code(&c)),
            secret: over.then(|| self.rules.format_code(&self.secret)),
            contradiction: self.contradiction.clone(),
            ruled_out: self
                .you
                .ruled_out(&self.rules)
                .map(|s| s.into_iter().collect()),
        }
    }
}

/// A duel as its player may see it, the one report the command line, the server and the page
/// show.
#[derive(Debug, Clone, Serialize)]
pub struct DuelReport {
    /// The rules in words.
    pub description: String,
    /// The rules.
    pub rules: Rules,
    /// The computer's level.
    pub level: Level,
    /// What the duel waits for.
    pub phase: Phase,
    /// How it ended, once over.
    pub outcome: Option<Outcome>,
    /// Your guesses at the computer's secret.
    pub you: Vec<TurnReport>,
    /// The computer's guesses at yours, with their answers.
    pub computer: Vec<TurnReport>,
    /// The computer's guess waiting for your answer.
    pub pending: Option<String>,
    /// How many codes fit your answers so far: the computer's choice.
    pub computer_left: usize,
    /// Whether moo answers the computer's guesses from your secret.
    pub answered_for_you: bool,
    /// Your secret, when moo answers for you.
    pub your_secret: Option<String>,
    /// The computer's secret, once the duel is over.
    pub secret: Option<String>,
    /// When no code fits your answers: which single answer, changed, would fix it.
    pub contradiction: Option<Contradiction>,
    /// The symbols the computer's secret cannot hold, from your guesses and their answers
    /// ([`History::ruled_out`]), for a keypad to mark.
    pub ruled_out: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duel(level: Level, seed: u64, yours: Option<&str>) -> (CodeSpace, Duel) {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let yours = yours.map(|s| space.rules().parse_code(s).unwrap());
        let duel = Duel::new(space.rules(), level, seed, yours).unwrap();
        (space, duel)
    }

    fn code(s: &str) -> Code {
        Rules::bulls().parse_code(s).unwrap()
    }

    /// You guess first; with the secret known to moo, each guess is followed by the computer's
    /// answered guess, and a round in which both find the secret is a draw.
    #[test]
    fn rounds_alternate_and_the_outcome_follows_the_rounds() {
        let advisor = Advisor::new();
        let stop = Stop::never();
        // Not the perfect player's first guess, which would end the duel at once.
        let (space, mut d) = duel(Level::Perfect, 7, Some("9876"));
        let secret = d.secret;
        let first = if secret == code("4567") {
            "5678"
        } else {
            "4567"
        };
        d.play(Move::Guess(code(first)), &space, &advisor, &stop)
            .unwrap();
        assert_eq!((d.yours().len(), d.its().len()), (1, 1));
        assert_eq!(d.phase(), Phase::YourGuess);
        // The same guess again is refused and changes nothing.
        let again = d.play(Move::Guess(code(first)), &space, &advisor, &stop);
        assert!(matches!(again, Err(DuelError::Repeated { turn: 1, .. })));
        assert_eq!(d.yours().len(), 1);
        // Found at once: the computer still gets its turn of the round.
        d.play(Move::Guess(secret), &space, &advisor, &stop)
            .unwrap();
        assert_eq!(d.its().len(), 2);
        let want = if d.its().is_won(4) {
            Outcome::Drawn
        } else {
            Outcome::Won
        };
        assert_eq!(d.outcome(), Some(want));
        assert_eq!(d.report().secret, Some(Rules::bulls().format_code(&secret)));
        assert_eq!(
            d.play(Move::GiveUp, &space, &advisor, &stop),
            Err(DuelError::Over)
        );
    }

    /// Typed answers wait for the player; answers no code fits stop the duel until one is
    /// fixed, and a fix goes on from the same round.
    #[test]
    fn a_wrong_answer_is_fixed_before_the_next_guess() {
        let advisor = Advisor::new();
        let stop = Stop::never();
        let (space, mut d) = duel(Level::Club, 3, None);
        d.play(Move::Guess(code("0123")), &space, &advisor, &stop)
            .unwrap();
        assert_eq!(d.phase(), Phase::YourAnswer);
        let first = d.pending().unwrap();
        let refused = d.play(Move::Guess(code("4567")), &space, &advisor, &stop);
        assert!(matches!(refused, Err(DuelError::NotNow(_))));
        d.play(Move::Answer(Feedback::new(0, 0)), &space, &advisor, &stop)
            .unwrap();
        d.play(Move::Guess(code("4567")), &space, &advisor, &stop)
            .unwrap();
        let second = d.pending().unwrap();
        // No code fits both answers when the two guesses hold eight symbols and neither has any.
        assert!((0..4).all(|i| !first.symbols().contains(&second.symbols()[i])));
        d.play(Move::Answer(Feedback::new(0, 0)), &space, &advisor, &stop)
            .unwrap();
        assert_eq!(d.phase(), Phase::FixAnswer);
        let c = d.report().contradiction.unwrap();
        assert!(!c.repairs.is_empty());
        let refused = d.play(
            Move::Fix {
                turn: 1,
                feedback: Feedback::win(4),
            },
            &space,
            &advisor,
            &stop,
        );
        assert_eq!(refused, Err(DuelError::EarlyWin));
        d.play(
            Move::Fix {
                turn: 2,
                feedback: Feedback::new(0, 2),
            },
            &space,
            &advisor,
            &stop,
        )
        .unwrap();
        assert_eq!(d.phase(), Phase::YourGuess);
    }

    /// Two slips: the first fix makes the answers fit again, and the second is still taken, so
    /// a player corrects every answer they got wrong; no answer but the one that stopped the
    /// duel may become a win.
    #[test]
    fn several_answers_are_fixed_one_after_the_other() {
        let advisor = Advisor::new();
        let stop = Stop::never();
        let (space, mut d) = duel(Level::Club, 3, None);
        for g in ["0123", "4567"] {
            d.play(Move::Guess(code(g)), &space, &advisor, &stop)
                .unwrap();
            d.play(Move::Answer(Feedback::new(0, 0)), &space, &advisor, &stop)
                .unwrap();
        }
        assert_eq!(d.phase(), Phase::FixAnswer);
        let fix = |turn, bulls, cows| Move::Fix {
            turn,
            feedback: Feedback::new(bulls, cows),
        };
        d.play(fix(2, 0, 2), &space, &advisor, &stop).unwrap();
        assert_eq!(d.phase(), Phase::YourGuess);
        d.play(fix(1, 1, 0), &space, &advisor, &stop).unwrap();
        assert_eq!(d.its().turns()[0].feedback, Feedback::new(1, 0));
        assert_eq!(
            d.play(fix(2, 4, 0), &space, &advisor, &stop),
            Err(DuelError::EarlyWin)
        );
    }

    /// The same seed replays the same duel, the beginner's random guesses included, and the
    /// beginner only guesses codes still possible.
    #[test]
    fn a_seed_replays_the_duel_and_the_beginner_guesses_codes_left() {
        let advisor = Advisor::new();
        let stop = Stop::never();
        let play = || {
            let (space, mut d) = duel(Level::Beginner, 11, Some("9876"));
            for g in [
                "0123", "4567", "8901", "2345", "6789", "1357", "2468", "0369",
            ] {
                if d.phase() == Phase::Over {
                    break;
                }
                d.play(Move::Guess(code(g)), &space, &advisor, &stop)
                    .unwrap();
            }
            d.its().clone()
        };
        let a = play();
        assert_eq!(a, play());
        for (i, t) in a.turns().iter().enumerate() {
            crate::hard::check(
                &Rules::bulls(),
                &{
                    let mut h = History::new();
                    for e in &a.turns()[..i] {
                        h.push(e.guess, e.feedback);
                    }
                    h
                },
                &t.guess,
            )
            .unwrap();
        }
    }

    /// Each level is stronger than the one below over every secret of Bulls and Cows, and the
    /// perfect one plays the proven optimum (26274 guesses over the 5040 secrets).
    #[test]
    fn each_level_is_stronger_than_the_last() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let totals: Vec<u64> = Level::ALL
            .iter()
            .map(|l| {
                l.strength(&space, &EvalOptions::default())
                    .unwrap()
                    .histogram
                    .total()
            })
            .collect();
        assert!(totals.windows(2).all(|w| w[0] > w[1]), "{totals:?}");
        assert_eq!(totals[3], 26274);
    }

    #[test]
    fn levels_are_numbered_from_one() {
        for level in Level::ALL {
            assert_eq!(Level::from_number(level.info().number), Ok(level));
        }
        assert_eq!(Level::from_number(0), Err(DuelError::NoSuchLevel(0)));
        assert_eq!(Level::from_number(5), Err(DuelError::NoSuchLevel(5)));
    }
}
