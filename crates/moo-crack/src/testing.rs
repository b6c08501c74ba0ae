//! What the crackers' property tests share: small games with their secrets.

use std::ops::RangeInclusive;

use proptest::prelude::*;

use crate::{Alphabet, LongCode, LongRules};

/// The characters small test alphabets are taken from, in order.
pub(crate) const CHARS: &str = "abcdefghijklmnopqrstuvwxyz0123456789 ";

/// A game of 1 to 40 positions over `symbols` characters of [`CHARS`], with or without
/// repeats (a distinct game is no longer than its alphabet), and a uniformly drawn secret.
pub(crate) fn small_game(
    symbols: RangeInclusive<usize>,
) -> impl Strategy<Value = (LongRules, LongCode)> {
    (symbols, 1usize..=40, any::<bool>()).prop_flat_map(|(symbols, length, repeats)| {
        let length = if repeats { length } else { length.min(symbols) };
        let alphabet: String = CHARS.chars().take(symbols).collect();
        let rules = LongRules::new(length, Alphabet::new(&alphabet).unwrap(), repeats).unwrap();
        let secret = if repeats {
            proptest::collection::vec(0..symbols as u16, length).boxed()
        } else {
            Just((0..symbols as u16).collect::<Vec<u16>>())
                .prop_shuffle()
                .prop_map(move |mut v| {
                    v.truncate(length);
                    v
                })
                .boxed()
        };
        (Just(rules), secret.prop_map(LongCode))
    })
}
