//! Known-answer scoring table and property tests of the scoring invariants.

use moo_core::{CodeSpace, Feedback, History, Rules};
use proptest::prelude::*;
use proptest::sample::Index;

/// (rules, guess, secret, bulls, cows). The scoring rule is the standard one (Knuth, "The computer
/// as master mind", J. Recreational Mathematics 9(1), 1976): bulls are exact matches, and
/// cows = sum over symbols of min(count in guess, count in secret) - bulls. Each row was worked out
/// by hand from that definition; the first two are the examples the game's rules give.
const TABLE: &[(&str, &str, &str, u8, u8)] = &[
    ("bulls", "1234", "4271", 1, 2),
    ("mastermind", "1222", "1122", 3, 0),
    ("bulls", "4271", "1234", 1, 2),
    ("bulls", "0123", "0123", 4, 0),
    ("bulls", "0123", "4567", 0, 0),
    ("bulls", "0123", "3210", 0, 4),
    ("bulls", "0123", "1032", 0, 4),
    ("bulls", "0123", "0132", 2, 2),
    ("bulls", "5678", "5687", 2, 2),
    ("bulls", "9876", "6789", 0, 4),
    ("bulls", "0145", "0123", 2, 0),
    ("mastermind", "1122", "1234", 1, 1),
    ("mastermind", "2211", "1122", 0, 4),
    ("mastermind", "1112", "1111", 3, 0),
    ("mastermind", "3233", "3632", 2, 1),
    ("mastermind", "1111", "2345", 0, 0),
    ("mastermind", "6655", "5566", 0, 4),
    ("mastermind", "1213", "3121", 0, 4),
    ("mastermind", "1123", "1211", 1, 2),
];

fn rules(name: &str) -> Rules {
    match name {
        "bulls" => Rules::bulls(),
        "mastermind" => Rules::mastermind(),
        other => panic!("unknown preset {other}"),
    }
}

#[test]
fn known_answers() {
    let spaces: Vec<(&str, CodeSpace)> = ["bulls", "mastermind"]
        .into_iter()
        .map(|g| (g, CodeSpace::new(rules(g)).unwrap()))
        .collect();
    for &(game, guess, secret, bulls, cows) in TABLE {
        let space = &spaces.iter().find(|(g, _)| *g == game).unwrap().1;
        let r = space.rules();
        let (g, s) = (r.parse_code(guess).unwrap(), r.parse_code(secret).unwrap());
        assert_eq!(
            g.score(&s),
            Feedback::new(bulls, cows),
            "{game}: guess {guess} against secret {secret}"
        );
        // The score table must agree with direct scoring.
        let (gi, si) = (space.index_of(&g).unwrap(), space.index_of(&s).unwrap());
        assert_eq!(space.score(gi, si), Feedback::new(bulls, cows));
    }
}

/// Small random rules: lengths 1-5, alphabets 1-10, repeats or not, with or without a lead rule,
/// at most 1500 codes so each case can enumerate its space and score table quickly.
fn small_rules() -> impl Strategy<Value = Rules> {
    (1usize..=5, 1usize..=10, any::<bool>(), any::<bool>()).prop_filter_map(
        "rules must be valid and small",
        |(len, n, repeats, no_leading)| {
            let symbols: String = "0123456789".chars().take(n).collect();
            Rules::new(len, &symbols, repeats, no_leading)
                .ok()
                .filter(|r| r.space_size() <= 1500)
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn scoring_is_symmetric_and_bounded(rules in small_rules(), a: Index, b: Index) {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let (a, b) = (a.index(space.len()), b.index(space.len()));
        let (x, y) = (space.code(a), space.code(b));
        let f = x.score(&y);
        prop_assert_eq!(f, y.score(&x));
        prop_assert!(f.check(rules.length()).is_ok());
        prop_assert_eq!(x.score(&x), Feedback::win(rules.length()));
        prop_assert_eq!(f.is_win(rules.length()), a == b);
        prop_assert_eq!(space.score(a, b), f);
        // Display and parse are inverses.
        prop_assert_eq!(Feedback::parse(&f.to_string(), rules.length()), Ok(f));
    }

    #[test]
    fn filtering_keeps_the_secret(
        rules in small_rules(),
        secret: Index,
        guesses in prop::collection::vec(any::<Index>(), 1..5),
    ) {
        let space = CodeSpace::new(rules).unwrap();
        let secret = secret.index(space.len());
        let s = space.code(secret);
        let mut history = History::new();
        for g in guesses {
            let guess = space.code(g.index(space.len()));
            history.push(guess, guess.score(&s));
        }
        let left = history.candidates(&space);
        prop_assert!(left.contains(secret));
        // Every survivor answers every guess exactly as the secret did.
        for c in left.iter() {
            for t in history.turns() {
                prop_assert_eq!(t.guess.score(&space.code(c)), t.feedback);
            }
        }
    }

    #[test]
    fn codes_print_and_parse_back(rules in small_rules(), i: Index) {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let code = space.code(i.index(space.len()));
        prop_assert_eq!(rules.parse_code(&rules.format_code(&code)), Ok(code));
    }
}
