//! Every published optimum, and the new results, found again by the search.

use super::*;

/// Every published optimum is found by the search, one row per test so each can be run alone.
/// Mastermind on average: about a second in release.
#[test]
#[ignore = "exact search, about a second in release; run with --ignored"]
fn mastermind_optimal_average_is_published() {
    reproduce(&published::KOYAMA_LAI);
}

#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn mastermind_worst_case_is_published() {
    reproduce(&published::KNUTH_WORST);
}

/// The search also writes the tree that ships with the library, byte for byte.
#[test]
#[ignore = "exact search, about a minute of CPU in release; run with --ignored"]
fn bulls_optimal_average_is_published() {
    let tree = reproduce(&published::TANAKA);
    assert_eq!(
        tree.to_json(false),
        include_str!("../../../trees/bulls-4x10-average.json"),
        "the shipped tree is not what the search writes: rebuild it with \
         `moo tree build -o crates/moo-core/trees/bulls-4x10-average.json`"
    );
}

#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn bulls_1_to_9_optimal_average_is_published() {
    reproduce(&published::BULLS_1_TO_9);
}

/// Mastermind with 7 colours: Ville's optimum, and the shipped tree byte for byte.
#[test]
#[ignore = "exact search, about a second in release; run with --ignored"]
fn mastermind_4x7_optimal_average_is_published() {
    reproduces_shipped(
        &published::VILLE,
        include_str!("../../../trees/mastermind-4x7-average.json"),
        "--symbols 1234567 -o crates/moo-core/trees/mastermind-4x7-average.json",
    );
}

/// Mastermind with 8 colours: arfst23's optimum (33262 CPU seconds there), and the shipped
/// tree byte for byte.
#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn mastermind_4x8_optimal_average_is_published() {
    reproduces_shipped(
        &published::ARFST23,
        include_str!("../../../trees/mastermind-4x8-average.json"),
        "--symbols 12345678 -o crates/moo-core/trees/mastermind-4x8-average.json",
    );
}

/// The shipped Mastermind trees, and Bulls and Cows 5 of 0-7's for the fewest secrets at the
/// worst case (15 at 7, where the tree of fewest guesses in total leaves 93), replay to their
/// rows' figures; the searches that proved them are too long for CI.
#[test]
fn shipped_trees_replay_as_their_rows_say() {
    let five_by_five = published::NEW_RESULTS
        .iter()
        .find(|row| {
            row.game == published::Game::MASTERMIND_5X5
                && row.method == Method::Optimal(Objective::Average)
        })
        .unwrap();
    for (json, row) in [
        (
            include_str!("../../../trees/mastermind-4x7-average.json"),
            &published::VILLE,
        ),
        (
            include_str!("../../../trees/mastermind-4x8-average.json"),
            &published::ARFST23,
        ),
        (
            include_str!("../../../trees/mastermind-5x5-average.json"),
            five_by_five,
        ),
        (
            include_str!("../../../trees/mastermind-4x9-average.json"),
            &published::MASTERMIND_4X9,
        ),
        (
            include_str!("../../../trees/mastermind-5x6-average.json"),
            &published::MASTERMIND_5X6,
        ),
        (
            include_str!("../../../trees/mastermind-5x6-fewest-worst.json"),
            &published::MASTERMIND_5X6_FEWEST_WORST,
        ),
        (
            include_str!("../../../trees/bulls-5x8-fewest-worst.json"),
            &published::BULLS_5_OF_0_7_FEWEST_WORST,
        ),
    ] {
        let tree = DecisionTree::from_json(json).unwrap();
        assert_eq!(tree.rules(), &row.game.rules().unwrap());
        let stats = tree.verify().unwrap();
        row.compare(&Histogram::from_counts(stats.histogram))
            .unwrap();
    }
}

/// `row` reproduced, byte for byte the shipped Mastermind tree `shipped`, which
/// `moo tree build --game mastermind REBUILD` writes again.
fn reproduces_shipped(row: &Published, shipped: &str, rebuild: &str) {
    let tree = reproduce(row);
    assert_eq!(
        tree.to_json(false),
        shipped,
        "rebuild with `moo tree build --game mastermind {rebuild}`"
    );
}

/// Searches every row of [`published::NEW_RESULTS`] on `game` (at least one) and checks it.
fn reproduce_new_results(game: published::Game) -> Vec<(Objective, DecisionTree)> {
    let rows: Vec<_> = published::NEW_RESULTS
        .iter()
        .filter(|row| row.game == game)
        .collect();
    assert!(!rows.is_empty(), "no new result on {game:?}");
    rows.into_iter()
        .map(|row| {
            let Method::Optimal(objective) = row.method else {
                panic!("{} is not an optimum", row.describe());
            };
            (objective, reproduce(row))
        })
        .collect()
}

/// The games whose new results the ignored tests below search; every row of
/// [`published::NEW_RESULTS`] is on one of them or has its own test.
const NEW_RESULT_GAMES: [published::Game; 11] = [
    published::Game::mastermind(3, "1234"),
    published::Game::mastermind(3, "12345"),
    published::Game::mastermind(3, "123456"),
    published::Game::mastermind(3, "1234567"),
    published::Game::mastermind(3, "12345678"),
    published::Game::mastermind(3, "123456789"),
    published::Game::mastermind(3, "0123456789"),
    published::Game::MASTERMIND_4X7,
    published::Game::MASTERMIND_4X8,
    published::Game::MASTERMIND_5X5,
    published::Game::BULLS_1_TO_9,
];

#[test]
fn every_new_result_has_a_test() {
    for row in published::NEW_RESULTS {
        let own_test = [
            published::MASTERMIND_FEWEST_WORST,
            published::BULLS_FEWEST_WORST,
            published::BULLS_5_OF_0_7,
            published::BULLS_5_OF_0_7_FEWEST_WORST,
            published::BULLS_5_OF_0_8,
            published::MASTERMIND_4X9,
            published::MASTERMIND_5X6,
            published::MASTERMIND_5X6_FEWEST_WORST,
            published::MASTERMIND_5X7,
        ]
        .contains(row);
        assert!(
            own_test || NEW_RESULT_GAMES.contains(&row.game),
            "{} has no test",
            row.describe()
        );
    }
}

/// Mastermind with 3 pegs of 4 to 10 colours, every objective: about a second in all.
#[test]
#[ignore = "exact search, about a second in release; run with --ignored"]
fn new_results_of_mastermind_3_pegs() {
    for game in &NEW_RESULT_GAMES[..7] {
        assert_eq!(game.length, 3);
        reproduce_new_results(*game);
    }
}

/// Mastermind with 7 colours: the worst case and the fewest secrets at it.
#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn new_results_of_mastermind_4x7() {
    reproduce_new_results(published::Game::MASTERMIND_4X7);
}

/// Mastermind with 8 colours: the worst case and the fewest secrets at it.
#[test]
#[ignore = "exact search, about 30 s of CPU in release; run with --ignored"]
fn new_results_of_mastermind_4x8() {
    reproduce_new_results(published::Game::MASTERMIND_4X8);
}

/// Mastermind with 5 pegs of 5 colours, every objective.
#[test]
#[ignore = "exact search, about 30 s of CPU in release; run with --ignored"]
fn new_results_of_mastermind_5x5() {
    reproduce_new_results(published::Game::MASTERMIND_5X5);
}

/// Mastermind with 5 pegs of 5 colours on average: the shipped tree, byte for byte. About a
/// second, where the worst-case objectives above take the rest of its game's 30 s: CI's run at
/// each kernel level takes this one for a whole search with 20 feedbacks.
#[test]
#[ignore = "exact search, about a second in release; run with --ignored"]
fn mastermind_5x5_average_tree_is_what_the_search_writes() {
    let row = published::NEW_RESULTS
        .iter()
        .find(|row| {
            row.game == published::Game::MASTERMIND_5X5
                && row.method == Method::Optimal(Objective::Average)
        })
        .expect("5x5's optimum on average is a new result");
    reproduces_shipped(
        row,
        include_str!("../../../trees/mastermind-5x5-average.json"),
        "--length 5 --symbols 12345 -o crates/moo-core/trees/mastermind-5x5-average.json",
    );
}

/// Bulls and Cows over 1-9: six guesses always suffice (the tree of fewest guesses in total
/// needs 7 for 12 secrets), and the fewest secrets at the sixth.
#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn new_results_of_bulls_1_to_9() {
    reproduce_new_results(published::Game::BULLS_1_TO_9);
}

/// Every optimum of the table has its test above.
#[test]
fn every_published_optimum_has_a_test() {
    let optima: Vec<_> = published::TABLE
        .iter()
        .filter(|row| matches!(row.method, Method::Optimal(_)))
        .collect();
    let tested = [
        published::KOYAMA_LAI,
        published::KNUTH_WORST,
        published::TANAKA,
        published::BULLS_1_TO_9,
        published::VILLE,
        published::ARFST23,
    ];
    assert_eq!(optima.len(), tested.len());
    assert!(optima.iter().all(|row| tested.contains(row)));
}

/// Bulls and Cows with no leading zero (CodinGame's rules at 4 digits): the search proves 23283
/// (7 at worst) and writes the tree the advisor ships, byte for byte, so the shipped tree's
/// optimality is proven on every CI run rather than taken from the run that wrote it.
#[test]
#[ignore = "exact search, about a minute of CPU in release; run with --ignored"]
fn bulls_no_leading_zero_shipped_tree_is_what_the_search_writes() {
    let rules = Rules::new(4, "0123456789", false, true).unwrap();
    let space = CodeSpace::new(rules).unwrap();
    let (tree, stats) = found(&space, &SearchOptions::new(Objective::Average));
    assert_eq!((stats.secrets, stats.total, stats.max), (4536, 23283, 7));
    assert_eq!(
        tree.to_json(false),
        include_str!("../../../trees/bulls-4x10-no-leading-average.json"),
        "the shipped tree is not what the search writes: rebuild it with \
         `moo tree build --no-leading-zero -o crates/moo-core/trees/bulls-4x10-no-leading-average.json`"
    );
}

/// The same rules with the first guess forced to 1023, the opening (up to symmetry) of every
/// code with a 0 in it: the best tree opening so proves 23343 (7 at worst; 60 more than the
/// optimum, which opens 1234) and is the second tree the advisor ships, byte for byte.
#[test]
#[ignore = "exact search, about 30 s of CPU in release; run with --ignored"]
fn bulls_no_leading_zero_1023_tree_is_what_the_search_writes() {
    let rules = Rules::new(4, "0123456789", false, true).unwrap();
    let opening = rules.parse_code("1023").unwrap();
    let space = CodeSpace::new(rules).unwrap();
    let options = SearchOptions::new(Objective::Average).with_first_guess(Some(opening));
    let (tree, stats) = found(&space, &options);
    assert_eq!((stats.secrets, stats.total, stats.max), (4536, 23343, 7));
    assert_eq!(
        tree.to_json(false),
        include_str!("../../../trees/bulls-4x10-no-leading-1023-average.json"),
        "the shipped tree is not what the search writes: rebuild it with `moo tree build \
         --no-leading-zero --first-guess 1023 -o crates/moo-core/trees/bulls-4x10-no-leading-1023-average.json`"
    );
}
