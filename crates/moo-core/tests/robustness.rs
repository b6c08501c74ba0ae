//! Properties over random rules far beyond the presets, and parsers fed arbitrary input.
//!
//! Parsers face whatever people type and whatever files they load, so each is driven here with
//! arbitrary strings and bytes: it must answer `Ok` or a typed error, never panic, and what it
//! accepts must be valid.

use std::collections::HashMap;

use moo_core::{Code, Feedback, Rules};
use proptest::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const SYMBOLS: &str = "0123456789abcdefghijklmnopqrstuvwxyz";

/// Random valid rules: lengths 1-8, alphabets of 1-36 symbols, repeats or not, lead rule or not.
fn any_rules() -> impl Strategy<Value = Rules> {
    (1usize..=8, 1usize..=36, any::<bool>(), any::<bool>())
        .prop_filter_map("rules must be valid", |(len, n, repeats, no_leading)| {
            Rules::new(len, &SYMBOLS[..n], repeats, no_leading).ok()
        })
}

/// Scoring written the slow, obvious way, to check the packed implementation against.
fn reference_score(guess: &[char], secret: &[char]) -> (usize, usize) {
    let bulls = guess.iter().zip(secret).filter(|(a, b)| a == b).count();
    let mut count: HashMap<char, (usize, usize)> = HashMap::new();
    for &c in guess {
        count.entry(c).or_default().0 += 1;
    }
    for &c in secret {
        count.entry(c).or_default().1 += 1;
    }
    let common: usize = count.values().map(|&(g, s)| g.min(s)).sum();
    (bulls, common - bulls)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn scoring_matches_the_reference_on_random_rules(rules in any_rules(), seed: u64) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..8 {
            let (g, s) = (rules.random_code(&mut rng), rules.random_code(&mut rng));
            prop_assert!(rules.check_code(&g).is_ok());
            let f = g.score(&s);
            let text = |c: &Code| rules.format_code(c).chars().collect::<Vec<_>>();
            let (b, c) = reference_score(&text(&g), &text(&s));
            prop_assert_eq!((f.bulls as usize, f.cows as usize), (b, c));
            prop_assert_eq!(f, s.score(&g));
            prop_assert!(f.check(rules.length()).is_ok());
            prop_assert_eq!(g.score(&g), Feedback::win(rules.length()));
        }
    }

    #[test]
    fn code_parser_never_panics_and_accepts_only_valid_codes(rules in any_rules(), text in ".{0,20}") {
        if let Ok(code) = rules.parse_code(&text) {
            prop_assert!(rules.check_code(&code).is_ok());
        }
    }

    #[test]
    fn feedback_parser_never_panics_and_accepts_only_possible_feedback(
        length in 1usize..=15,
        text in "[0-9bBcCwW ,/-]{0,8}|.{0,12}",
    ) {
        if let Ok(f) = Feedback::parse(&text, length) {
            prop_assert!(f.check(length).is_ok());
            prop_assert!(f.bulls as usize + f.cows as usize <= length);
        }
    }

    #[test]
    fn rules_json_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..120)) {
        let _ = serde_json::from_slice::<Rules>(&bytes);
    }

    #[test]
    fn rules_json_near_misses_are_validated(
        length in 0usize..40,
        symbols in ".{0,70}",
        repeats: bool,
        no_leading: bool,
    ) {
        let json = serde_json::json!({
            "length": length, "symbols": symbols, "repeats": repeats, "no_leading": no_leading
        });
        let parsed = serde_json::from_value::<Rules>(json);
        let direct = Rules::new(length, &symbols, repeats, no_leading);
        prop_assert_eq!(parsed.is_ok(), direct.is_ok());
        if let Ok(rules) = parsed {
            prop_assert!(rules.space_size() >= 1);
        }
    }
}
