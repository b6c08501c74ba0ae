//! The rules of one game in the Bulls and Cows family.
//!
//! A game is fully described by four things: how long a code is, which symbols it may use, whether a
//! symbol may appear more than once, and whether the first symbol of the alphabet may lead. Everything
//! else (the code space, scoring, strategies) is derived from a validated [`Rules`], so the checks
//! live here once and no later stage has to re-validate its input.

use std::fmt;

use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};

// Re-exported: the limit belongs to the packed code, and rules are where users meet it.
use crate::code::Code;
pub use crate::code::MAX_LENGTH;
use crate::text::{excerpt, is_visible_symbol, CharName};

/// The largest alphabet: a code's symbol set fits in one `u64` mask.
pub const MAX_SYMBOLS: usize = 64;

/// Why a set of rules was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RulesError {
    /// The code length was zero.
    #[error("code length must be at least 1")]
    ZeroLength,
    /// The code length is beyond [`MAX_LENGTH`].
    #[error("code length {0} is too long: at most {MAX_LENGTH} symbols are supported here (use `moo crack` for long secrets)")]
    TooLong(usize),
    /// The alphabet was empty.
    #[error("the alphabet is empty: give at least one symbol, for example --symbols 0123456789")]
    EmptyAlphabet,
    /// The alphabet has more than [`MAX_SYMBOLS`] symbols.
    #[error("the alphabet has {0} symbols: at most {MAX_SYMBOLS} are supported")]
    TooManySymbols(usize),
    /// A symbol appears twice in the alphabet.
    #[error("symbol {0:?} appears more than once in the alphabet: list each symbol once")]
    DuplicateSymbol(char),
    /// A character that does not show as one symbol (space, control, format or combining
    /// character) was given as a symbol.
    #[error("symbol {} cannot be used: symbols must be visible letters, digits, punctuation or signs, not spaces, control, format or combining characters", CharName(*.0))]
    InvisibleSymbol(char),
    /// A regional indicator letter: two in a row show as one flag, so a code could not be read.
    #[error("symbol U+{:04X} cannot be used: it is a regional indicator, and two of them in a row show as one flag, so codes could not be read: use other symbols", u32::from(*.0))]
    JoiningSymbol(char),
    /// Distinct codes cannot be longer than the alphabet.
    #[error("codes of {length} distinct symbols need at least {length} symbols, but the alphabet has only {symbols}: shorten the code, add symbols, or allow repeats")]
    NotEnoughSymbols {
        /// The code length asked for.
        length: usize,
        /// The number of symbols available.
        symbols: usize,
    },
    /// Forbidding the leading symbol leaves no valid code.
    #[error("with the first symbol {0:?} forbidden in front, no code is left: add a symbol or drop --no-leading-zero")]
    NoCodeLeft(char),
}

/// Why a code typed by a user was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CodeError {
    /// The code has the wrong number of symbols.
    #[error("{code:?} has {found} symbols, but codes have {expected}")]
    WrongLength {
        /// What was typed.
        code: String,
        /// How many symbols were found.
        found: usize,
        /// How many were expected.
        expected: usize,
    },
    /// A symbol is not in the alphabet.
    #[error("{code:?} uses {}, which is not one of the symbols {alphabet}", CharName(*symbol))]
    UnknownSymbol {
        /// What was typed.
        code: String,
        /// The offending symbol.
        symbol: char,
        /// The alphabet, as a string.
        alphabet: String,
    },
    /// A symbol repeats in a game with distinct symbols.
    #[error("{code:?} repeats {symbol:?}, but in this game every symbol of a code is different")]
    RepeatedSymbol {
        /// What was typed.
        code: String,
        /// The repeated symbol.
        symbol: char,
    },
    /// The forbidden leading symbol leads.
    #[error("{code:?} starts with {symbol:?}, which may not lead in this game")]
    ForbiddenLead {
        /// What was typed.
        code: String,
        /// The forbidden symbol.
        symbol: char,
    },
}

/// A well-known game, so users need not spell out its rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// Bulls and Cows: 4 distinct digits 0-9 (5040 codes).
    Bulls,
    /// Mastermind: 4 pegs of 6 colours written 1-6, repeats allowed (1296 codes).
    Mastermind,
}

impl Preset {
    /// Every preset, for listings and array indexes.
    pub const ALL: [Preset; 2] = [Preset::Bulls, Preset::Mastermind];

    /// The preset's position in [`Preset::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The preset's rules.
    pub fn rules(self) -> Rules {
        match self {
            Preset::Bulls => Rules::bulls(),
            Preset::Mastermind => Rules::mastermind(),
        }
    }

    /// The preset's name as typed on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Bulls => "bulls",
            Preset::Mastermind => "mastermind",
        }
    }
}

/// The validated rules of a game.
///
/// ```
/// use moo_core::Rules;
/// let rules = Rules::new(4, "0123456789", false, false)?;
/// assert_eq!(rules.space_size(), 5040);
/// assert_eq!(Rules::mastermind().space_size(), 1296);
/// # Ok::<(), moo_core::RulesError>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "RulesSpec", into = "RulesSpec")]
pub struct Rules {
    length: usize,
    alphabet: Vec<char>,
    repeats: bool,
    no_leading: bool,
}

/// The serialized form of [`Rules`]; deserializing re-validates it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct RulesSpec {
    length: usize,
    symbols: String,
    repeats: bool,
    #[serde(default)]
    no_leading: bool,
}

impl TryFrom<RulesSpec> for Rules {
    type Error = RulesError;

    fn try_from(spec: RulesSpec) -> Result<Self, Self::Error> {
        Rules::new(spec.length, &spec.symbols, spec.repeats, spec.no_leading)
    }
}

impl From<Rules> for RulesSpec {
    fn from(rules: Rules) -> Self {
        RulesSpec {
            length: rules.length,
            symbols: rules.alphabet.iter().collect(),
            repeats: rules.repeats,
            no_leading: rules.no_leading,
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::bulls()
    }
}

impl Rules {
    /// Validates and builds a set of rules.
    ///
    /// `no_leading` forbids the first symbol of `symbols` in the first position (the classic
    /// "no leading zero" variant).
    pub fn new(
        length: usize,
        symbols: &str,
        repeats: bool,
        no_leading: bool,
    ) -> Result<Rules, RulesError> {
        if length == 0 {
            return Err(RulesError::ZeroLength);
        }
        if length > MAX_LENGTH {
            return Err(RulesError::TooLong(length));
        }
        let alphabet: Vec<char> = symbols.chars().collect();
        if alphabet.is_empty() {
            return Err(RulesError::EmptyAlphabet);
        }
        if alphabet.len() > MAX_SYMBOLS {
            return Err(RulesError::TooManySymbols(alphabet.len()));
        }
        for (i, &c) in alphabet.iter().enumerate() {
            if !is_visible_symbol(c) {
                return Err(RulesError::InvisibleSymbol(c));
            }
            if ('\u{1F1E6}'..='\u{1F1FF}').contains(&c) {
                return Err(RulesError::JoiningSymbol(c));
            }
            if alphabet[..i].contains(&c) {
                return Err(RulesError::DuplicateSymbol(c));
            }
        }
        if !repeats && length > alphabet.len() {
            return Err(RulesError::NotEnoughSymbols {
                length,
                symbols: alphabet.len(),
            });
        }
        if no_leading && alphabet.len() == 1 {
            return Err(RulesError::NoCodeLeft(alphabet[0]));
        }
        Ok(Rules {
            length,
            alphabet,
            repeats,
            no_leading,
        })
    }

    /// Bulls and Cows: 4 distinct digits from 0-9.
    pub fn bulls() -> Rules {
        Rules::new(4, "0123456789", false, false).expect("the bulls preset is valid")
    }

    /// Mastermind: 4 positions, 6 colours written 1-6, repeats allowed.
    pub fn mastermind() -> Rules {
        Rules::new(4, "123456", true, false).expect("the mastermind preset is valid")
    }

    /// The number of symbols in a code.
    pub fn length(&self) -> usize {
        self.length
    }

    /// The symbols codes are written with, in order.
    pub fn alphabet(&self) -> &[char] {
        &self.alphabet
    }

    /// The alphabet as a string.
    pub fn symbols(&self) -> String {
        self.alphabet.iter().collect()
    }

    /// Whether a symbol may appear more than once in a code.
    pub fn repeats(&self) -> bool {
        self.repeats
    }

    /// Whether the first symbol of the alphabet is forbidden in the first position.
    pub fn no_leading(&self) -> bool {
        self.no_leading
    }

    /// The number of distinct feedback slots, `(length + 1)^2`, so feedback indexes fit an array.
    pub fn feedback_slots(&self) -> usize {
        (self.length + 1) * (self.length + 1)
    }

    /// The number of valid codes, saturating at `u128::MAX`.
    pub fn space_size(&self) -> u128 {
        let n = self.alphabet.len() as u128;
        let k = self.length as u128;
        // Count codes whose first symbol is free, then take away those led by the forbidden symbol.
        let count = |first_choices: u128| -> u128 {
            let mut total = first_choices;
            for i in 1..k {
                let choices = if self.repeats { n } else { n - i };
                total = total.saturating_mul(choices);
            }
            total
        };
        if self.no_leading {
            count(n - 1)
        } else {
            count(n)
        }
    }

    /// The index of a symbol in the alphabet.
    pub fn symbol_index(&self, c: char) -> Option<u8> {
        self.alphabet.iter().position(|&a| a == c).map(|i| i as u8)
    }

    /// `c`, or its other case when only that one is a symbol: `abcd` reads as `ABCD` over the
    /// alphabet `A-H`, while an alphabet with both cases keeps them apart.
    fn fold_case(&self, c: char) -> char {
        if self.symbol_index(c).is_some() {
            return c;
        }
        let mut other: Vec<char> = if c.is_lowercase() {
            c.to_uppercase().collect()
        } else {
            c.to_lowercase().collect()
        };
        match other.pop() {
            Some(o) if other.is_empty() && self.symbol_index(o).is_some() => o,
            _ => c,
        }
    }

    /// Parses a code such as `"0123"`, checking it against these rules.
    ///
    /// Spaces, commas and dashes between symbols are ignored unless they belong to the alphabet,
    /// so `1 2 3 4` and `1-2-3-4` read as `1234`.
    pub fn parse_code(&self, text: &str) -> Result<Code, CodeError> {
        let trimmed = text.trim();
        let quoted = || excerpt(trimmed);
        let symbols: Vec<char> = trimmed
            .chars()
            .filter(|&c| !(is_separator(c) && self.symbol_index(c).is_none()))
            .map(|c| self.fold_case(c))
            .collect();
        // A symbol outside the alphabet is the likelier mistake (a combining accent typed after a
        // letter also makes the code one too long), so it is named first; only the first few
        // symbols are looked at, so a huge input costs little.
        if let Some(&c) = symbols
            .iter()
            .take(self.length + 1)
            .find(|&&c| self.symbol_index(c).is_none())
        {
            return Err(CodeError::UnknownSymbol {
                code: quoted(),
                symbol: c,
                alphabet: self.symbols(),
            });
        }
        if symbols.len() != self.length {
            return Err(CodeError::WrongLength {
                code: quoted(),
                found: symbols.len(),
                expected: self.length,
            });
        }
        let mut packed = [0u8; MAX_LENGTH];
        for (slot, &c) in packed.iter_mut().zip(&symbols) {
            *slot = self
                .symbol_index(c)
                .ok_or_else(|| CodeError::UnknownSymbol {
                    code: quoted(),
                    symbol: c,
                    alphabet: self.symbols(),
                })?;
        }
        let code = Code::from_symbols(&packed[..self.length]);
        self.check_code(&code).map_err(|e| match e {
            CodeError::RepeatedSymbol { symbol, .. } => CodeError::RepeatedSymbol {
                code: quoted(),
                symbol,
            },
            CodeError::ForbiddenLead { symbol, .. } => CodeError::ForbiddenLead {
                code: quoted(),
                symbol,
            },
            other => other,
        })?;
        Ok(code)
    }

    /// Checks that a packed code obeys these rules.
    pub fn check_code(&self, code: &Code) -> Result<(), CodeError> {
        let syms = code.symbols();
        let text = || self.format_code(code);
        if syms.len() != self.length {
            return Err(CodeError::WrongLength {
                code: text(),
                found: syms.len(),
                expected: self.length,
            });
        }
        if let Some(&bad) = syms.iter().find(|&&s| s as usize >= self.alphabet.len()) {
            return Err(CodeError::UnknownSymbol {
                code: format!("{syms:?}"),
                symbol: char::from_digit(u32::from(bad) % 36, 36).unwrap_or('?'),
                alphabet: self.symbols(),
            });
        }
        if self.no_leading && syms[0] == 0 {
            return Err(CodeError::ForbiddenLead {
                code: text(),
                symbol: self.alphabet[0],
            });
        }
        if !self.repeats {
            let mut seen = 0u64;
            for &s in syms {
                if seen & (1 << s) != 0 {
                    return Err(CodeError::RepeatedSymbol {
                        code: text(),
                        symbol: self.alphabet[s as usize],
                    });
                }
                seen |= 1 << s;
            }
        }
        Ok(())
    }

    /// A code drawn uniformly at random from every valid code, without enumerating them.
    pub fn random_code<R: rand::Rng + ?Sized>(&self, rng: &mut R) -> Code {
        let n = self.alphabet.len() as u8;
        let mut symbols = [0u8; MAX_LENGTH];
        // Rejection keeps the draw uniform: only a forbidden lead is redrawn, whole.
        loop {
            if self.repeats {
                for s in &mut symbols[..self.length] {
                    *s = rng.gen_range(0..n);
                }
            } else {
                let mut pool: Vec<u8> = (0..n).collect();
                let (picked, _) = pool.partial_shuffle(rng, self.length);
                symbols[..self.length].copy_from_slice(picked);
            }
            if !(self.no_leading && symbols[0] == 0) {
                return Code::from_symbols(&symbols[..self.length]);
            }
        }
    }

    /// Writes a code with this alphabet.
    ///
    /// # Panics
    /// If the code uses a symbol index outside the alphabet.
    pub fn format_code(&self, code: &Code) -> String {
        code.symbols()
            .iter()
            .map(|&s| self.alphabet[s as usize])
            .collect()
    }

    /// A short human description, such as `4 distinct symbols from 0123456789`.
    pub fn describe(&self) -> String {
        format!(
            "{} {} symbols from {}{}",
            self.length,
            if self.repeats {
                "(repeats allowed)"
            } else {
                "distinct"
            },
            self.symbols(),
            if self.no_leading {
                format!(", {:?} may not lead", self.alphabet[0])
            } else {
                String::new()
            }
        )
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

fn is_separator(c: char) -> bool {
    c.is_whitespace() || c == ',' || c == '-' || c == '_'
}

/// Rules of every kind, for tests of what must hold in any game: distinct digits, repeats, a
/// forbidden leading symbol with and without repeats, letters, and a one-symbol code.
#[cfg(test)]
pub(crate) fn every_kind() -> [Rules; 5] {
    [
        Rules::bulls(),
        Rules::mastermind(),
        Rules::new(4, "0123456789", false, true).unwrap(),
        Rules::new(3, "abcde", true, true).unwrap(),
        Rules::new(1, "ab", true, true).unwrap(),
    ]
}

/// Games for tests, comma-separated: a preset's name, or the length and the symbols followed by
/// `repeats` and `no-leading` where they hold, as in `"mastermind, 4 0123456 no-leading"`. The
/// words say which flags a game sets, where rows of `Rules::new(4, .., false, true)` bury them.
///
/// # Panics
///
/// On a game it cannot read or whose rules are invalid: the test is wrong.
#[cfg(test)]
pub(crate) fn games(list: &str) -> Vec<Rules> {
    list.split(',').map(|game| test_game(game.trim())).collect()
}

#[cfg(test)]
fn test_game(game: &str) -> Rules {
    if let Some(preset) = Preset::ALL.into_iter().find(|p| p.name() == game) {
        return preset.rules();
    }
    let mut words = game.split_whitespace();
    let length = words.next().and_then(|w| w.parse().ok());
    let (Some(length), Some(symbols)) = (length, words.next()) else {
        panic!("{game:?} is not a preset nor a length and symbols");
    };
    let (mut repeats, mut no_leading) = (false, false);
    for word in words {
        match word {
            "repeats" => repeats = true,
            "no-leading" => no_leading = true,
            _ => panic!("{game:?}: {word:?} is neither repeats nor no-leading"),
        }
    }
    Rules::new(length, symbols, repeats, no_leading).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_are_read_in_either_case_when_the_alphabet_has_one() {
        let upper = Rules::new(4, "ABCDEF", true, false).unwrap();
        assert_eq!(upper.parse_code("abCd"), upper.parse_code("ABCD"));
        let both = Rules::new(2, "aA", true, false).unwrap();
        assert_ne!(both.parse_code("aa"), both.parse_code("AA"));
        assert!(matches!(
            Rules::bulls().parse_code("abcd"),
            Err(CodeError::UnknownSymbol { .. })
        ));
    }

    #[test]
    fn presets_have_published_sizes() {
        assert_eq!(Rules::bulls().space_size(), 5040);
        assert_eq!(Rules::mastermind().space_size(), 1296);
        let no_zero = Rules::new(4, "0123456789", false, true).unwrap();
        assert_eq!(no_zero.space_size(), 4536);
        let one_to_nine = Rules::new(4, "123456789", false, false).unwrap();
        assert_eq!(one_to_nine.space_size(), 3024);
        let repeats_no_zero = Rules::new(3, "012", true, true).unwrap();
        assert_eq!(repeats_no_zero.space_size(), 18);
    }

    #[test]
    fn invalid_rules_are_explained() {
        assert_eq!(
            Rules::new(0, "01", false, false),
            Err(RulesError::ZeroLength)
        );
        assert_eq!(
            Rules::new(2, "", false, false),
            Err(RulesError::EmptyAlphabet)
        );
        assert_eq!(
            Rules::new(2, "0120", false, false),
            Err(RulesError::DuplicateSymbol('0'))
        );
        let err = Rules::new(5, "0123", false, false).unwrap_err();
        assert!(err.to_string().contains("allow repeats"), "{err}");
        assert_eq!(
            Rules::new(16, "0123456789abcdefg", false, false),
            Err(RulesError::TooLong(16))
        );
        assert_eq!(
            Rules::new(1, "0", true, true),
            Err(RulesError::NoCodeLeft('0'))
        );
        assert_eq!(
            Rules::new(2, "0 1", true, false),
            Err(RulesError::InvisibleSymbol(' '))
        );
    }

    #[test]
    fn codes_parse_with_reasons() {
        let rules = Rules::bulls();
        assert_eq!(
            rules.format_code(&rules.parse_code("0123").unwrap()),
            "0123"
        );
        assert_eq!(
            rules.format_code(&rules.parse_code(" 1 2,3-4 ").unwrap()),
            "1234"
        );
        assert!(matches!(
            rules.parse_code("012"),
            Err(CodeError::WrongLength { found: 3, .. })
        ));
        assert!(matches!(
            rules.parse_code("01a3"),
            Err(CodeError::UnknownSymbol { symbol: 'a', .. })
        ));
        let err = rules.parse_code("0113").unwrap_err();
        assert!(matches!(err, CodeError::RepeatedSymbol { symbol: '1', .. }));
        assert_eq!(
            err.to_string(),
            "\"0113\" repeats '1', but in this game every symbol of a code is different"
        );
        let no_zero = Rules::new(4, "0123456789", false, true).unwrap();
        assert!(matches!(
            no_zero.parse_code("0123"),
            Err(CodeError::ForbiddenLead { symbol: '0', .. })
        ));
        assert!(Rules::mastermind().parse_code("1122").is_ok());
    }

    #[test]
    fn random_codes_are_valid_and_cover_the_space() {
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let rules = Rules::new(2, "abc", false, true).unwrap();
        let mut seen = std::collections::HashSet::new();
        for _ in 0..200 {
            let code = rules.random_code(&mut rng);
            assert!(rules.check_code(&code).is_ok());
            seen.insert(code);
        }
        assert_eq!(seen.len() as u128, rules.space_size());
        let long = Rules::new(15, "0123456789", true, false).unwrap();
        assert!(long.check_code(&long.random_code(&mut rng)).is_ok());
    }

    #[test]
    fn rules_round_trip_through_json_and_revalidate() {
        let rules = Rules::new(3, "abcdef", true, true).unwrap();
        let json = serde_json::to_string(&rules).unwrap();
        assert_eq!(
            json,
            r#"{"length":3,"symbols":"abcdef","repeats":true,"no_leading":true}"#
        );
        assert_eq!(serde_json::from_str::<Rules>(&json).unwrap(), rules);
        let bad = r#"{"length":5,"symbols":"abc","repeats":false}"#;
        let err = serde_json::from_str::<Rules>(bad).unwrap_err();
        assert!(err.to_string().contains("distinct symbols"), "{err}");
    }
}
