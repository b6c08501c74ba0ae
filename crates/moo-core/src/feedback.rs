//! Feedback (bulls and cows), its one-byte index, and parsing what people type.
//!
//! Partitioning a candidate set by feedback is the inner loop of every strategy, so feedback has a
//! dense index, `bulls * (length + 1) + cows`, that addresses a plain array of
//! [`Rules::feedback_slots`](crate::Rules::feedback_slots) counters.

use std::fmt;

use crate::text::excerpt;

/// Why typed feedback was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FeedbackError {
    /// The text matched none of the accepted forms.
    #[error(
        "cannot read {0:?} as feedback: type bulls and cows as 1B2C, 1b 2c, \"1 2\", 12 or 1,2"
    )]
    Unreadable(String),
    /// Bulls and cows add up to more than the code length.
    #[error("feedback {feedback} is impossible for a {length}-symbol code: bulls + cows must be at most {length}")]
    TooMany {
        /// The feedback as read.
        feedback: Feedback,
        /// The code length.
        length: usize,
    },
    /// All but one symbol in place and the last one a cow: the last symbol would have to be in place.
    #[error("feedback {feedback} is impossible for a {length}-symbol code: if {bulls} symbols are in place, the last one cannot be a cow elsewhere", bulls = feedback.bulls)]
    LoneCow {
        /// The feedback as read.
        feedback: Feedback,
        /// The code length.
        length: usize,
    },
}

/// The answer to a guess: how many symbols are in place (bulls) and how many are present but
/// elsewhere (cows).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Feedback {
    /// Symbols in the right place.
    pub bulls: u8,
    /// Symbols present elsewhere.
    pub cows: u8,
}

impl Feedback {
    /// Builds a feedback value (not checked against any code length).
    pub const fn new(bulls: u8, cows: u8) -> Feedback {
        Feedback { bulls, cows }
    }

    /// The winning feedback for codes of `length` symbols.
    pub const fn win(length: usize) -> Feedback {
        Feedback::new(length as u8, 0)
    }

    /// Whether this feedback ends the game for codes of `length` symbols.
    pub const fn is_win(self, length: usize) -> bool {
        self.bulls as usize == length
    }

    /// The feedback in plain words, as the pages say it: "1 bull, 2 cows", or with `pegs`
    /// (games with repeats, Mastermind) "1 black, 2 white".
    ///
    /// ```
    /// use moo_core::Feedback;
    /// assert_eq!(Feedback::new(1, 2).words(false), "1 bull, 2 cows");
    /// assert_eq!(Feedback::new(0, 1).words(true), "0 black, 1 white");
    /// ```
    pub fn words(self, pegs: bool) -> String {
        if pegs {
            return format!("{} black, {} white", self.bulls, self.cows);
        }
        let s = |n: u8| if n == 1 { "" } else { "s" };
        format!(
            "{} bull{}, {} cow{}",
            self.bulls,
            s(self.bulls),
            self.cows,
            s(self.cows)
        )
    }

    /// The dense index `bulls * (length + 1) + cows`.
    #[inline]
    pub const fn index(self, length: usize) -> usize {
        self.bulls as usize * (length + 1) + self.cows as usize
    }

    /// The feedback at a dense index.
    #[inline]
    pub const fn from_index(index: usize, length: usize) -> Feedback {
        Feedback::new((index / (length + 1)) as u8, (index % (length + 1)) as u8)
    }

    /// Every feedback that can occur for some pair of codes of `length` symbols (ignoring
    /// constraints from the alphabet), in index order.
    pub fn all(length: usize) -> impl Iterator<Item = Feedback> {
        (0..(length + 1) * (length + 1))
            .map(move |i| Feedback::from_index(i, length))
            .filter(move |f| f.check(length).is_ok())
    }

    /// Checks that this feedback can occur for codes of `length` symbols.
    pub fn check(self, length: usize) -> Result<Feedback, FeedbackError> {
        let (b, c) = (self.bulls as usize, self.cows as usize);
        if b + c > length {
            return Err(FeedbackError::TooMany {
                feedback: self,
                length,
            });
        }
        if length >= 1 && b == length - 1 && c == 1 {
            return Err(FeedbackError::LoneCow {
                feedback: self,
                length,
            });
        }
        Ok(self)
    }

    /// Parses feedback as people type it, checked against the code length.
    ///
    /// Accepted: `1B2C`, `1b 2c`, `2C1B`, `1B` (no cows), `2c` (no bulls), `1B2W` (Mastermind's
    /// white pegs), `1 2`, `1,2`, `1/2`, and `12` (two digits, bulls then cows).
    ///
    /// ```
    /// use moo_core::Feedback;
    /// for text in ["1B2C", "1b 2c", "1 2", "12", "1,2"] {
    ///     assert_eq!(Feedback::parse(text, 4)?, Feedback::new(1, 2));
    /// }
    /// assert!(Feedback::parse("5B0C", 4).is_err());
    /// # Ok::<(), moo_core::FeedbackError>(())
    /// ```
    pub fn parse(text: &str, length: usize) -> Result<Feedback, FeedbackError> {
        parse_unchecked(text)
            .ok_or_else(|| FeedbackError::Unreadable(excerpt(text.trim())))?
            .check(length)
    }
}

/// Reads the numbers out of the accepted forms without judging whether they are possible.
fn parse_unchecked(text: &str) -> Option<Feedback> {
    let t = text.trim().to_ascii_lowercase();
    if t.is_empty() || t.len() > 16 {
        return None;
    }
    let separator = |c: char| c.is_whitespace() || c == ',' || c == '/' || c == '-';
    if t.starts_with(separator) || t.ends_with(separator) {
        // Separators go between numbers: "-1B" is not one bull, nor "-1 2" one bull and two cows.
        return None;
    }
    let has_letters = t.chars().any(|c| c.is_ascii_alphabetic());
    if has_letters {
        // Labelled form: numbers each followed by b, c or w, in any order, each at most once.
        let mut bulls = None;
        let mut cows = None;
        let mut number = String::new();
        for c in t.chars() {
            match c {
                '0'..='9' => number.push(c),
                'b' | 'c' | 'w' => {
                    let value: u8 = number.parse().ok()?;
                    number.clear();
                    let slot = if c == 'b' { &mut bulls } else { &mut cows };
                    if slot.replace(value).is_some() {
                        return None;
                    }
                }
                ' ' | ',' | '/' | '-' if number.is_empty() => {}
                _ => return None,
            }
        }
        if !number.is_empty() || (bulls.is_none() && cows.is_none()) {
            return None;
        }
        return Some(Feedback::new(bulls.unwrap_or(0), cows.unwrap_or(0)));
    }
    let parts: Vec<&str> = t.split(separator).filter(|p| !p.is_empty()).collect();
    match parts.as_slice() {
        [b, c] => Some(Feedback::new(b.parse().ok()?, c.parse().ok()?)),
        [both] if both.len() == 2 && both.bytes().all(|b| b.is_ascii_digit()) => {
            let bytes = both.as_bytes();
            Some(Feedback::new(bytes[0] - b'0', bytes[1] - b'0'))
        }
        _ => None,
    }
}

impl fmt::Display for Feedback {
    /// Writes `<bulls>B<cows>C`, the form used in trees and JSON.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}B{}C", self.bulls, self.cows)
    }
}

impl std::str::FromStr for Feedback {
    type Err = FeedbackError;

    /// Reads any accepted form without a length check; prefer [`Feedback::parse`] for user input.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_unchecked(s).ok_or_else(|| FeedbackError::Unreadable(excerpt(s.trim())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepted_forms() {
        let want = Feedback::new(1, 2);
        for text in [
            "1B2C", "1b2c", "1b 2c", " 1B 2C ", "2C1B", "1 2", "12", "1,2", "1/2", "1B2W", "1, 2",
        ] {
            assert_eq!(Feedback::parse(text, 4), Ok(want), "{text}");
        }
        assert_eq!(Feedback::parse("4B", 4), Ok(Feedback::new(4, 0)));
        assert_eq!(Feedback::parse("3c", 4), Ok(Feedback::new(0, 3)));
        assert_eq!(Feedback::parse("0 0", 4), Ok(Feedback::new(0, 0)));
    }

    #[test]
    fn signs_are_not_separators() {
        for text in ["-1B", "-1b2c", "1B-", "-1 2", "1 2-", ",1 2", "1B2C,"] {
            assert!(Feedback::parse(text, 4).is_err(), "{text}");
        }
        assert_eq!(Feedback::parse("1b-2c", 4), Ok(Feedback::new(1, 2)));
    }

    #[test]
    fn rejected_forms_say_why() {
        for text in ["", "x", "1B2", "B2C", "1B1B", "123", "1 2 3", "bc", "1.5"] {
            assert!(
                matches!(Feedback::parse(text, 4), Err(FeedbackError::Unreadable(_))),
                "{text}"
            );
        }
        let err = Feedback::parse("5B0C", 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "feedback 5B0C is impossible for a 4-symbol code: bulls + cows must be at most 4"
        );
        assert!(matches!(
            Feedback::parse("3B1C", 4),
            Err(FeedbackError::LoneCow { .. })
        ));
        assert!(matches!(
            Feedback::parse("2 3", 4),
            Err(FeedbackError::TooMany { .. })
        ));
    }

    #[test]
    fn index_round_trips() {
        for length in 1..=15 {
            for f in Feedback::all(length) {
                let i = f.index(length);
                assert!(i < 256);
                assert_eq!(Feedback::from_index(i, length), f);
            }
        }
        // 14 reachable values for 4 symbols: all (b, c) with b + c <= 4 except 3B1C.
        assert_eq!(Feedback::all(4).count(), 14);
        assert_eq!(Feedback::new(1, 2).to_string(), "1B2C");
    }
}
