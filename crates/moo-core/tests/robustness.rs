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

/// Random rules with at most `limit` codes, for properties that play or search whole spaces.
fn tiny_rules(limit: u128) -> impl Strategy<Value = Rules> {
    (1usize..=4, 2usize..=6, any::<bool>(), any::<bool>()).prop_filter_map(
        "rules must be valid and tiny",
        move |(len, n, repeats, no_leading)| {
            Rules::new(len, &SYMBOLS[..n], repeats, no_leading)
                .ok()
                .filter(|r| r.space_size() <= limit)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every deterministic strategy in the registry solves every secret, and its evaluation (worst
    /// case, total, histogram) is exactly what playing each secret through the harness gives.
    #[test]
    fn every_strategy_solves_every_secret_within_its_reported_worst_case(rules in tiny_rules(120)) {
        use moo_core::strategy::{by_name, names, play};
        let space = moo_core::CodeSpace::new(rules).unwrap();
        let options = moo_core::StrategyOptions::default();
        for name in names().filter(|n| !n.starts_with("tree:")) {
            let Ok(probe) = by_name(name, &space, &options) else { continue };
            if !probe.is_deterministic() {
                continue;
            }
            let build = |_seed: u64| by_name(name, &space, &options);
            let eval = moo_core::evaluate(&space, &build, &moo_core::EvalOptions::default(), &|_| {})
                .unwrap();
            prop_assert_eq!(eval.histogram.gave_up(), 0, "{}", name);
            prop_assert_eq!(eval.secrets, space.len());
            prop_assert_eq!(eval.histogram.counts().iter().sum::<u64>() as usize, space.len());
            let mut total = 0;
            for secret in space.codes() {
                let mut strategy = by_name(name, &space, &options).unwrap();
                let history = play(strategy.as_mut(), &space, secret, space.len() + 1).unwrap();
                prop_assert!(history.is_won(space.length()), "{} did not solve {:?}", name, secret);
                prop_assert!(history.len() <= eval.histogram.max(), "{}: {} guesses, reported worst {}", name, history.len(), eval.histogram.max());
                total += history.len() as u64;
            }
            prop_assert_eq!(total, eval.histogram.total(), "{}", name);
        }
    }

    /// `verify` accepts every tree the exact search writes (through its JSON form), and rejects
    /// it after a branch is cut off or a leaf's guess is changed.
    #[test]
    fn verify_accepts_searched_trees_and_rejects_mutated_ones(rules in tiny_rules(60), pick: prop::sample::Index) {
        use moo_core::tree::{OptimalTree, Search};
        use moo_core::{DecisionTree, SearchOutcome};
        let space = moo_core::CodeSpace::new(rules).unwrap();
        let SearchOutcome::Found(OptimalTree { tree, stats }) =
            Search::whole(&space).run().unwrap()
        else {
            panic!("no depth limit, so a tree exists");
        };
        let json = tree.to_json(false);
        let reread = DecisionTree::from_json(&json).unwrap();
        prop_assert_eq!(reread.verify().unwrap(), stats);

        // Every node's path, to pick a place to mutate.
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        let mut branches = Vec::new();
        let mut leaves = Vec::new();
        let mut stack = vec![(String::from("/root"), &value["root"])];
        while let Some((path, node)) = stack.pop() {
            match node["children"].as_object() {
                Some(children) if !children.is_empty() => {
                    for (key, child) in children {
                        let child_path = format!("{path}/children/{key}");
                        branches.push(child_path.clone());
                        stack.push((child_path, child));
                    }
                }
                _ => leaves.push(path),
            }
        }
        if !branches.is_empty() {
            let mut cut = value.clone();
            let target = pick.get(&branches);
            let (parent, key) = target.rsplit_once('/').unwrap();
            cut.pointer_mut(parent).unwrap().as_object_mut().unwrap().remove(key);
            let text = cut.to_string();
            prop_assert!(DecisionTree::from_json(&text).and_then(|t| t.verify()).is_err(), "cut {}", target);
        }
        if space.len() < 2 {
            return Ok(()); // a one-code game has no other guess to put in
        }
        let mut wrong = value.clone();
        let leaf = pick.get(&leaves);
        let guess = wrong.pointer(&format!("{leaf}/guess")).unwrap().as_str().unwrap().to_string();
        let other = space
            .codes()
            .iter()
            .map(|c| space.rules().format_code(c))
            .find(|c| *c != guess)
            .unwrap();
        *wrong.pointer_mut(&format!("{leaf}/guess")).unwrap() = serde_json::Value::String(other);
        prop_assert!(DecisionTree::from_json(&wrong.to_string()).and_then(|t| t.verify()).is_err(), "changed {}", leaf);
    }
}
