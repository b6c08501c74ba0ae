//! Codes as packed symbol indexes, and the scoring rule.
//!
//! A [`Code`] stores alphabet indexes, not characters, so it is `Copy`, 16 bytes, and compares and
//! hashes cheaply; [`Rules`](crate::Rules) turns it into text and back. Codes order by their symbol
//! indexes, which is the alphabet order the code space is enumerated in.

use std::fmt;

use crate::feedback::Feedback;

/// The longest code the packed [`Code`] type holds.
///
/// Fifteen keeps a feedback index (`bulls * (length + 1) + cows`) inside one byte; longer secrets are
/// the business of the long-code cracker, which never enumerates a code space.
pub const MAX_LENGTH: usize = 15;

/// A code: up to [`MAX_LENGTH`] symbols, each an index into the alphabet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Code {
    // `len` first so the derived ordering compares lengths before symbols; within one game all
    // codes have the same length and the order is lexicographic by symbol index.
    len: u8,
    syms: [u8; MAX_LENGTH],
}

impl Code {
    /// Builds a code from symbol indexes.
    ///
    /// # Panics
    /// If there are more than [`MAX_LENGTH`] symbols or a symbol index is 64 or more. Codes that come
    /// from users go through [`Rules::parse_code`](crate::Rules::parse_code) instead.
    pub fn from_symbols(symbols: &[u8]) -> Code {
        assert!(
            symbols.len() <= MAX_LENGTH,
            "a code holds at most {MAX_LENGTH} symbols"
        );
        assert!(
            symbols.iter().all(|&s| s < 64),
            "symbol indexes are below 64"
        );
        let mut syms = [0u8; MAX_LENGTH];
        syms[..symbols.len()].copy_from_slice(symbols);
        Code {
            len: symbols.len() as u8,
            syms,
        }
    }

    /// The symbol indexes of this code.
    pub fn symbols(&self) -> &[u8] {
        &self.syms[..self.len as usize]
    }

    /// The number of symbols.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the code has no symbols (never true for a code of a valid game).
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The set of symbols used, one bit per alphabet index.
    pub fn mask(&self) -> u64 {
        self.symbols().iter().fold(0, |m, &s| m | 1 << s)
    }

    /// Scores `self` as a guess against `secret`.
    ///
    /// Bulls are symbols in the right place; cows are the remaining common symbols, counted with
    /// multiplicity: `cows = sum over symbols of min(count in guess, count in secret) - bulls`.
    ///
    /// # Panics
    /// If the codes have different lengths.
    ///
    /// ```
    /// use moo_core::{Rules, Feedback};
    /// let rules = Rules::bulls();
    /// let guess = rules.parse_code("1234")?;
    /// let secret = rules.parse_code("4271")?;
    /// assert_eq!(guess.score(&secret), Feedback::new(1, 2));
    /// # Ok::<(), moo_core::CodeError>(())
    /// ```
    #[inline]
    pub fn score(&self, secret: &Code) -> Feedback {
        assert_eq!(self.len, secret.len, "scored codes must have equal length");
        let g = self.symbols();
        let s = secret.symbols();
        let bulls = g.iter().zip(s).filter(|(a, b)| a == b).count();
        let common = if self.is_distinct() && secret.is_distinct() {
            (self.mask() & secret.mask()).count_ones() as usize
        } else {
            let mut counts = [0i8; 64];
            for &x in s {
                counts[x as usize] += 1;
            }
            let mut common = 0;
            for &x in g {
                if counts[x as usize] > 0 {
                    counts[x as usize] -= 1;
                    common += 1;
                }
            }
            common
        };
        Feedback::new(bulls as u8, (common - bulls) as u8)
    }

    /// Whether every symbol of the code is different.
    pub fn is_distinct(&self) -> bool {
        self.mask().count_ones() == u32::from(self.len)
    }
}

impl fmt::Debug for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Code{:?}", self.symbols())
    }
}
