//! What the crackers' property tests share: small games with their secrets.

use std::ops::RangeInclusive;

use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

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

/// A game of 40 to 120 positions over 120 to 160 symbols of [`Alphabet::unicode`], with or
/// without repeats, and a secret drawn from a seed: longer than [`small_game`] reaches.
pub(crate) fn long_game() -> impl Strategy<Value = (LongRules, LongCode)> {
    (40usize..=120, 120usize..=160, any::<bool>(), any::<u64>()).prop_map(
        |(length, symbols, repeats, seed)| {
            let rules = LongRules::new(length, Alphabet::unicode(symbols), repeats).unwrap();
            let secret = rules.random_code(&mut ChaCha8Rng::seed_from_u64(seed));
            (rules, secret)
        },
    )
}
