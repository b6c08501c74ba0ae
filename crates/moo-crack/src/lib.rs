//! Cracking long Bulls and Cows secrets: hundreds or thousands of symbols over alphabets of
//! dozens to thousands of characters, found with as few queries as possible.
//!
//! `moo-core`'s [`Rules`](moo_core::Rules) and [`Code`](moo_core::Code) pack a code into 16 bytes
//! and a feedback into one byte, which is what makes exhaustive code spaces fast; a 300-symbol
//! secret breaks both limits and no code space of it could ever be enumerated anyway. This crate
//! therefore has its own small types: an [`Alphabet`] of any number of distinct characters (space
//! included, since secrets taken from prose need it), a [`LongCode`] of `u16` symbol indexes, and
//! [`LongRules`] tying a length, an alphabet and the repeat rule together. Of `moo-core` it uses
//! only [`moo_core::text`], so that a symbol is accepted or refused by the same rule in every game.
//!
//! The only access to a secret is an [`Oracle`], which answers bulls and cows and counts every
//! question. Three crackers use it: [`intervals::crack`], the default, which decodes unknowns on a
//! tree of position intervals exactly and needs about half the queries of [`exact::crack`], the
//! earlier adaptive algorithm (both always recover the secret), and [`ga`], the genetic algorithm
//! with a wisdom-of-crowds vote used as the published baseline.
//!
//! ```
//! use moo_crack::{intervals, Alphabet, LongRules, Oracle};
//! use rand::SeedableRng;
//!
//! // A random secret of 100 symbols over a-z, 0-9 and space, repeats allowed.
//! let rules = LongRules::new(100, Alphabet::text(), true)?;
//! let secret = rules.random_code(&mut rand_chacha::ChaCha8Rng::seed_from_u64(7));
//!
//! // The cracker sees only the oracle's answers, and always finds the secret.
//! let mut oracle = Oracle::new(&secret, rules.alphabet().len());
//! let found = intervals::crack(&rules, &mut oracle, &intervals::IntervalOptions::default());
//! assert_eq!(found, secret);
//! assert!(oracle.queries() < 300, "{} queries", oracle.queries());
//! println!("{}", rules.format_code(&found));
//! # Ok::<(), moo_crack::CrackError>(())
//! ```

#![deny(missing_docs)]

pub mod exact;
pub mod ga;
pub mod intervals;
mod oracle;
#[cfg(test)]
mod testing;

pub use oracle::{LongFeedback, Oracle};

use std::collections::HashMap;
use std::fmt;

use moo_core::text::{excerpt, is_letter, is_visible_symbol, CharName};

/// The opening of Herman Melville's *Moby-Dick* (1851, public domain), the default source of
/// secrets taken from prose, as the published experiments took theirs from the opening of a novel.
pub const OPENING_TEXT: &str = include_str!("../data/moby-dick-opening.txt");

/// The longest secret the crackers accept (queries are vectors of this length).
pub const MAX_LONG_LENGTH: usize = 100_000;

/// The 37 symbols of the published long-secret experiments: lower-case letters, digits and space.
pub const TEXT_SYMBOLS: &str = "abcdefghijklmnopqrstuvwxyz0123456789 ";

/// Why a long-code alphabet, rule set or code was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CrackError {
    /// The alphabet was empty.
    #[error("the alphabet is empty: give at least one symbol, for example --symbols abc")]
    EmptyAlphabet,
    /// A symbol appears twice in the alphabet.
    #[error("symbol {0:?} appears more than once in the alphabet: list each symbol once")]
    DuplicateSymbol(char),
    /// A character that does not show as one symbol (control, format or combining character,
    /// or a separator other than space) was given as a symbol.
    #[error("symbol {} cannot be used: symbols must be visible letters, digits, punctuation, signs or space, not control, format or combining characters", CharName(*.0))]
    ControlSymbol(char),
    /// The alphabet is larger than a `u16` symbol index can address.
    #[error("the alphabet has {0} symbols: at most 65535 are supported")]
    TooManySymbols(usize),
    /// The code length was zero.
    #[error("code length must be at least 1")]
    ZeroLength,
    /// The code length is beyond [`MAX_LONG_LENGTH`].
    #[error("code length {0} is too long: at most {MAX_LONG_LENGTH} symbols are supported")]
    TooLong(usize),
    /// Distinct codes cannot be longer than the alphabet.
    #[error("codes of {length} distinct symbols need at least {length} symbols, but the alphabet has only {symbols}: shorten the code, add symbols, or allow repeats")]
    NotEnoughSymbols {
        /// The code length asked for.
        length: usize,
        /// The number of symbols available.
        symbols: usize,
    },
    /// A code used a character outside the alphabet.
    #[error("symbol {} at position {position} is not in the alphabet {alphabet:?}: use only those symbols", CharName(*symbol))]
    UnknownSymbol {
        /// The offending character.
        symbol: char,
        /// Its position in the code, from 1.
        position: usize,
        /// The alphabet, for the message.
        alphabet: String,
    },
    /// A code had the wrong number of symbols.
    #[error("the code has {found} symbols but the game needs {length}: give exactly {length}")]
    WrongLength {
        /// Symbols found.
        found: usize,
        /// Symbols needed.
        length: usize,
    },
    /// A symbol appears twice in a code where repeats are not allowed.
    #[error("symbol {symbol:?} appears more than once (positions {first} and {second}) but the game has distinct symbols: allow repeats or change the secret")]
    RepeatedSymbol {
        /// The repeated character.
        symbol: char,
        /// Its first position, from 1.
        first: usize,
        /// Its second position, from 1.
        second: usize,
    },
}

/// An ordered set of distinct characters; a symbol is its index here.
#[derive(Clone, PartialEq, Eq)]
pub struct Alphabet {
    chars: Vec<char>,
    index: HashMap<char, u16>,
}

impl Alphabet {
    /// The alphabet of the characters of `symbols`, in order.
    pub fn new(symbols: &str) -> Result<Alphabet, CrackError> {
        let chars: Vec<char> = symbols.chars().collect();
        if chars.is_empty() {
            return Err(CrackError::EmptyAlphabet);
        }
        if chars.len() > usize::from(u16::MAX) {
            return Err(CrackError::TooManySymbols(chars.len()));
        }
        let mut index = HashMap::with_capacity(chars.len());
        for (i, &c) in chars.iter().enumerate() {
            if c != ' ' && !is_visible_symbol(c) {
                return Err(CrackError::ControlSymbol(c));
            }
            if index.insert(c, i as u16).is_some() {
                return Err(CrackError::DuplicateSymbol(c));
            }
        }
        Ok(Alphabet { chars, index })
    }

    /// The 37-symbol alphabet [`TEXT_SYMBOLS`].
    pub fn text() -> Alphabet {
        Alphabet::new(TEXT_SYMBOLS).expect("the text alphabet is valid")
    }

    /// `size` consecutive letters from U+0100 on (Latin Extended-A and -B, then onward), a ready
    /// alphabet of hundreds of printable, distinct Unicode characters for distinct-symbol games.
    ///
    /// Only assigned letters are taken (general category L*), so past Latin the alphabet skips
    /// combining marks, which would fuse with the symbol before them, and unassigned code points.
    /// At most 4,000 symbols.
    pub fn unicode(size: usize) -> Alphabet {
        let chars: String = (0x100u32..)
            .filter_map(char::from_u32)
            .filter(|&c| is_letter(c))
            .take(size.clamp(1, 4000))
            .collect();
        Alphabet::new(&chars).expect("consecutive letters are distinct")
    }

    /// Number of symbols.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Always false: an alphabet has at least one symbol.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// The characters, in symbol order.
    pub fn chars(&self) -> &[char] {
        &self.chars
    }

    /// The symbol index of a character, if it belongs to the alphabet.
    pub fn symbol(&self, c: char) -> Option<u16> {
        self.index.get(&c).copied()
    }

    /// The character of a symbol index.
    ///
    /// # Panics
    /// If `symbol` is not below [`len`](Self::len).
    pub fn char(&self, symbol: u16) -> char {
        self.chars[usize::from(symbol)]
    }

    /// Prose reduced to this alphabet, the way the published experiments took secrets from a novel:
    /// lower-cased, every run of whitespace turned into one space (when space is a symbol), and every
    /// other character outside the alphabet dropped.
    pub fn filter_text(&self, text: &str) -> LongCode {
        let space = self.symbol(' ');
        let mut out = Vec::new();
        let mut last_space = true;
        for c in text.chars().flat_map(char::to_lowercase) {
            if c.is_whitespace() {
                if let (Some(s), false) = (space, last_space) {
                    out.push(s);
                    last_space = true;
                }
            } else if let Some(s) = self.symbol(c) {
                out.push(s);
                last_space = Some(s) == space;
            }
        }
        LongCode(out)
    }
}

impl fmt::Debug for Alphabet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Alphabet({:?})", self.chars.iter().collect::<String>())
    }
}

/// A code of any length: one symbol index per position.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct LongCode(pub Vec<u16>);

impl LongCode {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the code has no positions.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The symbol indexes.
    pub fn symbols(&self) -> &[u16] {
        &self.0
    }

    /// The first `length` symbols (all of them if the code is shorter).
    pub fn truncated(mut self, length: usize) -> LongCode {
        self.0.truncate(length);
        self
    }
}

/// A long-code game: a length, an alphabet, and whether symbols may repeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LongRules {
    length: usize,
    alphabet: Alphabet,
    repeats: bool,
}

impl LongRules {
    /// Validated rules; distinct codes must fit in the alphabet.
    pub fn new(length: usize, alphabet: Alphabet, repeats: bool) -> Result<LongRules, CrackError> {
        if length == 0 {
            return Err(CrackError::ZeroLength);
        }
        if length > MAX_LONG_LENGTH {
            return Err(CrackError::TooLong(length));
        }
        if !repeats && length > alphabet.len() {
            return Err(CrackError::NotEnoughSymbols {
                length,
                symbols: alphabet.len(),
            });
        }
        Ok(LongRules {
            length,
            alphabet,
            repeats,
        })
    }

    /// Number of positions in a code.
    pub fn length(&self) -> usize {
        self.length
    }

    /// The alphabet.
    pub fn alphabet(&self) -> &Alphabet {
        &self.alphabet
    }

    /// Whether a symbol may appear more than once in the secret.
    pub fn repeats(&self) -> bool {
        self.repeats
    }

    /// Reads a code typed as a string of alphabet characters.
    pub fn parse_code(&self, text: &str) -> Result<LongCode, CrackError> {
        let mut symbols = Vec::with_capacity(self.length);
        for (i, c) in text.chars().enumerate() {
            match self.alphabet.symbol(c) {
                Some(s) => symbols.push(s),
                None => {
                    return Err(CrackError::UnknownSymbol {
                        symbol: c,
                        position: i + 1,
                        alphabet: excerpt(&self.alphabet.chars.iter().collect::<String>()),
                    })
                }
            }
        }
        let code = LongCode(symbols);
        self.check_code(&code)?;
        Ok(code)
    }

    /// Checks a code's length, symbols and (for distinct games) that no symbol repeats.
    pub fn check_code(&self, code: &LongCode) -> Result<(), CrackError> {
        if code.len() != self.length {
            return Err(CrackError::WrongLength {
                found: code.len(),
                length: self.length,
            });
        }
        let mut seen: Vec<usize> = vec![0; self.alphabet.len()];
        for (i, &s) in code.0.iter().enumerate() {
            let Some(&c) = self.alphabet.chars.get(usize::from(s)) else {
                return Err(CrackError::UnknownSymbol {
                    symbol: char::REPLACEMENT_CHARACTER,
                    position: i + 1,
                    alphabet: excerpt(&self.alphabet.chars.iter().collect::<String>()),
                });
            };
            let slot = &mut seen[usize::from(s)];
            if *slot != 0 && !self.repeats {
                return Err(CrackError::RepeatedSymbol {
                    symbol: c,
                    first: *slot,
                    second: i + 1,
                });
            }
            if *slot == 0 {
                *slot = i + 1;
            }
        }
        Ok(())
    }

    /// A code written with the alphabet's characters.
    pub fn format_code(&self, code: &LongCode) -> String {
        code.0.iter().map(|&s| self.alphabet.char(s)).collect()
    }

    /// A uniformly random valid secret.
    pub fn random_code<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> LongCode {
        let k = self.alphabet.len();
        if self.repeats {
            LongCode(
                (0..self.length)
                    .map(|_| rng.gen_range(0..k) as u16)
                    .collect(),
            )
        } else {
            let picked = rand::seq::index::sample(rng, k, self.length);
            LongCode(picked.into_iter().map(|s| s as u16).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_generated_alphabet_is_letters_only() {
        let alphabet = Alphabet::unicode(4000);
        assert_eq!(alphabet.len(), 4000);
        for &c in alphabet.chars() {
            assert!(
                is_letter(c) && is_visible_symbol(c),
                "U+{:04X}",
                u32::from(c)
            );
        }
        // U+0300-U+036F are combining marks, which the old filter let through past 512 symbols.
        assert!(!alphabet.chars().contains(&'\u{0301}'));
    }
}
