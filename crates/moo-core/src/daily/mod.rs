//! The daily puzzle: one secret a calendar day (UTC) for everyone, for Bulls and Cows (4
//! distinct digits) and for Mastermind (4 pegs of 6 colours), computed from the date alone so
//! that the command line, the server and the page in the browser agree without talking.
//!
//! Puzzle number `p` is the day's distance from [`FIRST_DAY`] plus one (2024-01-01 is #1). Its
//! secret is the code of rank `permute(key, n, (p - 1) mod n)` among the game's `n` codes in
//! lexicographic order of their symbols' places in the alphabet (0123 is rank 0 of Bulls and
//! Cows, 1111 of Mastermind), where `permute` is a fixed bijection of `0..n` keyed by the
//! game's name (see [`permute`]). Being a bijection, it gives every code exactly once in any
//! `n` consecutive days (5040 for Bulls and Cows, 1296 for Mastermind), so no day repeats the
//! day before; being keyed, it gives the two games unrelated orders that look random.
//!
//! The function is public, so anyone can compute any day's secret: the puzzle asks players not
//! to, as a newspaper's crossword does. What the fronts keep is that the secret travels only
//! at the end of a game ([`share`]'s card carries no guess, the server answers only feedback).
//!
//! ```
//! use moo_core::daily::{Date, Puzzle};
//! use moo_core::Preset;
//!
//! let day: Date = "2024-01-02".parse()?;
//! let puzzle = Puzzle::new(Preset::Bulls, day)?;
//! assert_eq!(puzzle.number, 2);
//! assert_ne!(puzzle.secret(), Puzzle::new(Preset::Bulls, "2024-01-01".parse()?)?.secret());
//! # Ok::<(), moo_core::daily::DailyError>(())
//! ```

mod date;
pub mod share;
pub mod stats;

use serde::Serialize;

use crate::code::Code;
use crate::rules::{Preset, Rules};

pub use date::Date;
pub use share::share_text;
pub use stats::{DayResult, GameStats, Record, RECORD_VERSION};

/// The day of puzzle #1: 2024-01-01.
pub const FIRST_DAY: Date = Date::from_days(19_723);

/// Why there is no puzzle, or a file is not a record of them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DailyError {
    /// The text is not a date.
    #[error("{text:?} is not a date: write it as YYYY-MM-DD, for example 2026-03-01")]
    BadDate {
        /// The text, shortened if long.
        text: String,
    },
    /// The date comes before the first puzzle.
    #[error("there was no daily puzzle on {date}: the first was on {FIRST_DAY}")]
    BeforeFirst {
        /// The date asked for.
        date: Date,
    },
    /// The date is still to come.
    #[error("the daily puzzle of {date} is not out yet: today is {today} (UTC)")]
    NotYet {
        /// The date asked for.
        date: Date,
        /// Today, by the clock of whoever answers.
        today: Date,
    },
    /// Only Bulls and Cows and Mastermind have daily puzzles.
    #[error("there is a daily puzzle for Bulls and Cows and for Mastermind only")]
    NotDailyGame,
    /// A statistics file that cannot be read: the reason says what is wrong.
    #[error("this is not a file of daily puzzle statistics from moo: {reason}")]
    BadRecord {
        /// What is wrong, in words.
        reason: String,
    },
    /// A statistics file written by a newer moo.
    #[error("this statistics file has version {version}, and this moo reads version {RECORD_VERSION}: open it with a newer moo")]
    NewerRecord {
        /// The file's version.
        version: u64,
    },
}

/// One day's puzzle of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct Puzzle {
    /// The game.
    pub game: Preset,
    /// The day (UTC).
    pub date: Date,
    /// The puzzle's number: 1 on [`FIRST_DAY`], one more each day.
    pub number: u64,
}

impl Puzzle {
    /// The puzzle of `game` on `date`.
    pub fn new(game: Preset, date: Date) -> Result<Puzzle, DailyError> {
        if date < FIRST_DAY {
            return Err(DailyError::BeforeFirst { date });
        }
        Ok(Puzzle {
            game,
            date,
            number: (date.days() - FIRST_DAY.days()) as u64 + 1,
        })
    }

    /// The puzzle of `game` on `date`, which may be at most one day after `today`: a clock a
    /// little ahead of the answerer's still plays, a day still to come does not.
    pub fn playable(game: Preset, date: Date, today: Date) -> Result<Puzzle, DailyError> {
        if date > today.next() {
            return Err(DailyError::NotYet { date, today });
        }
        Puzzle::new(game, date)
    }

    /// The game's rules.
    pub fn rules(&self) -> Rules {
        self.game.rules()
    }

    /// The day's secret.
    pub fn secret(&self) -> Code {
        let rules = self.rules();
        let n = rules.space_size() as u64;
        let rank = permute(key(self.game), n, (self.number - 1) % n);
        unrank(&rules, rank)
    }

    /// The game's name for people, as the share card writes it.
    pub fn game_title(&self) -> &'static str {
        match self.game {
            Preset::Bulls => "Bulls and Cows",
            Preset::Mastermind => "Mastermind",
        }
    }
}

/// The key of a game's order of secrets: the FNV-1a hash (64 bits) of its name as the command
/// line types it (`bulls`, `mastermind`).
fn key(game: Preset) -> u64 {
    game.name().bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A bijection of `0..n` keyed by `key`: a four-round balanced Feistel network over the
/// smallest even number of bits `2h` with `2^2h >= n`, whose round `r` adds (xor) the low `h`
/// bits of `mix(key ^ (r << 32) ^ right)` to the left half, applied again ("cycle walking")
/// until the value falls back below `n`. A Feistel network is a bijection of `0..2^2h` whatever
/// its round function, and walking its cycle from a value below `n` meets the next one below
/// `n` before coming back, so the whole is a bijection of `0..n`.
///
/// # Panics
/// If `x >= n`.
pub fn permute(key: u64, n: u64, x: u64) -> u64 {
    assert!(x < n, "{x} is not below {n}");
    let bits = (64 - (n - 1).max(1).leading_zeros()).div_ceil(2);
    let mask = (1u64 << bits) - 1;
    let mut v = x;
    loop {
        let (mut left, mut right) = (v >> bits, v & mask);
        for round in 0..4u64 {
            let f = mix(key ^ (round << 32) ^ right) & mask;
            (left, right) = (right, left ^ f);
        }
        v = (left << bits) | right;
        if v < n {
            return v;
        }
    }
}

/// splitmix64's finaliser: every input bit moves every output bit.
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The code of rank `rank` among the valid codes of `rules` in lexicographic order of their
/// symbols' places in the alphabet.
///
/// # Panics
/// If `rank` is not below the number of codes.
fn unrank(rules: &Rules, mut rank: u64) -> Code {
    let k = rules.alphabet().len() as u64;
    let length = rules.length();
    let mut symbols = Vec::with_capacity(length);
    for place in 0..length {
        let free = length - place - 1;
        // Codes sharing a prefix: the ways to fill the places after it.
        let after = if rules.repeats() {
            k.pow(free as u32)
        } else {
            let left = k - place as u64 - 1;
            (0..free as u64).map(|i| left - i).product()
        };
        let symbol = (0..k as u8)
            .filter(|s| rules.repeats() || !symbols.contains(s))
            .filter(|&s| !(place == 0 && s == 0 && rules.no_leading()))
            .nth((rank / after) as usize)
            .expect("a rank below the number of codes");
        rank %= after;
        symbols.push(symbol);
    }
    Code::from_symbols(&symbols)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::CodeSpace;

    #[test]
    fn ranks_follow_the_code_space_order() {
        for rules in [Rules::bulls(), Rules::mastermind()] {
            let space = CodeSpace::new(rules.clone()).unwrap();
            for i in 0..space.len() {
                assert_eq!(unrank(&rules, i as u64), space.code(i), "{rules} rank {i}");
            }
        }
    }

    #[test]
    fn permute_is_a_bijection_for_each_game() {
        for game in Preset::ALL {
            let n = game.rules().space_size() as u64;
            let mut seen = vec![false; n as usize];
            for x in 0..n {
                let y = permute(key(game), n, x);
                assert!(!seen[y as usize], "{game:?}: {y} twice");
                seen[y as usize] = true;
            }
        }
        for n in 1..70 {
            let mut images: Vec<u64> = (0..n).map(|x| permute(7, n, x)).collect();
            images.sort_unstable();
            assert_eq!(images, (0..n).collect::<Vec<_>>(), "n = {n}");
        }
    }

    /// Over 2000 consecutive days from the first, every day's secret differs from the day
    /// before's, and within a game no secret comes twice in fewer days than it has codes.
    #[test]
    fn no_day_repeats_the_day_before() {
        for game in Preset::ALL {
            let n = game.rules().space_size() as usize;
            let secrets: Vec<Code> = (0..2000)
                .map(|d| {
                    Puzzle::new(game, Date::from_days(FIRST_DAY.days() + d))
                        .unwrap()
                        .secret()
                })
                .collect();
            for (i, pair) in secrets.windows(2).enumerate() {
                assert_ne!(pair[0], pair[1], "{game:?}: day {i} and the next");
            }
            for (i, window) in secrets.windows(n.min(2000)).enumerate() {
                let distinct: std::collections::HashSet<_> = window.iter().collect();
                assert_eq!(
                    distinct.len(),
                    window.len(),
                    "{game:?}: window from day {i}"
                );
            }
        }
    }

    /// Known answers: the secrets pinned, so a change to the function cannot pass unnoticed
    /// (every player's puzzle would change with it).
    #[test]
    fn the_first_days_secrets_are_fixed() {
        let secrets = |game: Preset| -> Vec<String> {
            (0..5)
                .map(|d| {
                    let p = Puzzle::new(game, Date::from_days(FIRST_DAY.days() + d)).unwrap();
                    p.rules().format_code(&p.secret())
                })
                .collect()
        };
        assert_eq!(
            secrets(Preset::Bulls),
            ["4951", "0521", "2159", "2143", "5290"]
        );
        assert_eq!(
            secrets(Preset::Mastermind),
            ["6654", "5353", "5542", "2441", "3323"]
        );
    }

    #[test]
    fn puzzles_are_numbered_from_the_first_day_and_not_before() {
        let first = Puzzle::new(Preset::Bulls, FIRST_DAY).unwrap();
        assert_eq!(first.number, 1);
        assert_eq!(FIRST_DAY.to_string(), "2024-01-01");
        let before = Puzzle::new(Preset::Mastermind, Date::from_days(FIRST_DAY.days() - 1));
        assert_eq!(
            before.unwrap_err().to_string(),
            "there was no daily puzzle on 2023-12-31: the first was on 2024-01-01"
        );
        let today: Date = "2026-03-01".parse().unwrap();
        assert!(Puzzle::playable(Preset::Bulls, today.next(), today).is_ok());
        assert_eq!(
            Puzzle::playable(Preset::Bulls, today.next().next(), today)
                .unwrap_err()
                .to_string(),
            "the daily puzzle of 2026-03-03 is not out yet: today is 2026-03-01 (UTC)"
        );
    }
}
