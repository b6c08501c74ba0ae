use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::*;
use crate::history::History;
use crate::pool::GuessPool;
use crate::published::{self, Method, Published};
use crate::stop::Stop;

fn found(space: &CodeSpace, options: &SearchOptions) -> (DecisionTree, TreeStats) {
    match Search::whole(space).options(options).run().unwrap() {
        SearchOutcome::Found(OptimalTree { tree, stats }) => (tree, stats),
        SearchOutcome::Impossible { max_depth } => panic!("impossible within {max_depth}"),
    }
}

fn options(objective: Objective, max_depth: Option<u32>, guesses: GuessPool) -> SearchOptions {
    SearchOptions::new(objective)
        .with_max_depth(max_depth)
        .with_guesses(guesses)
}

/// The obvious exhaustive recursion, with no bounds and no symmetry: every guess of the pool,
/// every part solved optimally. Returns the (total, worst) of the lexicographically best tree
/// under the depth limit, minimising `key`.
struct Naive<'a> {
    space: &'a CodeSpace,
    pool: GuessPool,
    memo: HashMap<(Vec<u32>, u32), Option<u32>>,
}

impl Naive<'_> {
    /// The fewest total guesses for `set` with every secret solved within `depth` guesses.
    fn total(&mut self, set: &[u32], depth: u32) -> Option<u32> {
        if depth == 0 {
            return None;
        }
        if set.len() == 1 {
            return Some(1);
        }
        if let Some(&r) = self.memo.get(&(set.to_vec(), depth)) {
            return r;
        }
        let win = Feedback::win(self.space.length()).index(self.space.length()) as u8;
        let guesses: Vec<u32> = match self.pool {
            GuessPool::All => (0..self.space.len() as u32).collect(),
            GuessPool::Consistent => set.to_vec(),
        };
        let mut best: Option<u32> = None;
        for g in guesses {
            let mut parts: HashMap<u8, Vec<u32>> = HashMap::new();
            for &s in set {
                parts
                    .entry(self.space.score_index(g as usize, s as usize))
                    .or_default()
                    .push(s);
            }
            parts.remove(&win);
            if parts.len() == 1 && parts.values().next().unwrap().len() == set.len() {
                continue;
            }
            let mut total = Some(set.len() as u32);
            for part in parts.values() {
                total = match (total, self.total(part, depth - 1)) {
                    (Some(t), Some(c)) => Some(t + c),
                    _ => None,
                };
            }
            if let Some(t) = total {
                best = Some(best.map_or(t, |b| b.min(t)));
            }
        }
        self.memo.insert((set.to_vec(), depth), best);
        best
    }
}

fn tiny_games() -> Vec<Rules> {
    vec![
        Rules::new(2, "abc", true, false).unwrap(),
        Rules::new(2, "abcd", false, false).unwrap(),
        Rules::new(2, "abcd", true, false).unwrap(),
        Rules::new(3, "abc", true, false).unwrap(),
        Rules::new(3, "abcd", false, false).unwrap(),
        Rules::new(3, "abcde", false, false).unwrap(),
        Rules::new(3, "0123", false, true).unwrap(),
        Rules::new(2, "01234", true, true).unwrap(),
        Rules::new(3, "abcd", true, false).unwrap(),
    ]
}

#[test]
fn search_matches_exhaustive_recursion_on_tiny_games() {
    for rules in tiny_games() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let all: Vec<u32> = (0..space.len() as u32).collect();
        for pool in GuessPool::ALL {
            let mut naive = Naive {
                space: &space,
                pool,
                memo: HashMap::new(),
            };
            let free = naive.total(&all, 64).unwrap();
            let (tree, stats) = found(&space, &options(Objective::Average, None, pool));
            assert_eq!(
                stats.total,
                u64::from(free),
                "{} {pool:?}",
                rules.describe()
            );
            assert_eq!(tree.verify().unwrap(), stats);
            // Ties go to the smallest worst case: no tree of the same total is shallower.
            let shallower = naive.total(&all, stats.max - 1);
            assert_ne!(shallower, Some(free), "{} {pool:?}", rules.describe());

            // Worst case first: the naive minimum depth, then the fewest total within it.
            let depth = (1..).find(|&d| naive.total(&all, d).is_some()).unwrap();
            let (_, worst) = found(&space, &options(Objective::Worst, None, pool));
            assert_eq!(worst.max, depth, "{} {pool:?}", rules.describe());
            assert_eq!(
                worst.total,
                u64::from(naive.total(&all, depth).unwrap()),
                "{} {pool:?}",
                rules.describe()
            );
            // And below that depth, both objectives prove there is nothing.
            if depth > 1 {
                for objective in Objective::ALL {
                    let options = options(objective, Some(depth - 1), pool);
                    let outcome = Search::whole(&space).options(&options).run().unwrap();
                    assert!(
                        matches!(outcome, SearchOutcome::Impossible { max_depth } if max_depth == depth - 1),
                        "{} {pool:?} {objective:?}",
                        rules.describe()
                    );
                }
            }
        }
    }
}

#[test]
fn json_round_trips_and_matches_the_documented_form() {
    let space = CodeSpace::new(Rules::new(3, "abcd", false, false).unwrap()).unwrap();
    let (tree, stats) = found(&space, &SearchOptions::default());
    let text = tree.to_json(false);
    assert!(text.starts_with(
        r#"{"rules":{"length":3,"symbols":"abcd","repeats":false,"no_leading":false},"root":{"guess":"abc","children":{"#
    ));
    let back = DecisionTree::from_json(&text).unwrap();
    assert_eq!(back, tree);
    assert_eq!(back.verify().unwrap(), stats);
    let pretty = DecisionTree::from_json(&tree.to_json(true)).unwrap();
    assert_eq!(pretty, tree);
    // serde traits agree with the helpers.
    let via_serde: DecisionTree = serde_json::from_str(&text).unwrap();
    assert_eq!(via_serde, tree);
    assert_eq!(serde_json::to_string(&tree).unwrap(), text);
}

fn bulls_tree(root: serde_json::Value) -> String {
    serde_json::json!({
        "rules": {"length": 2, "symbols": "abc", "repeats": false, "no_leading": false},
        "root": root,
    })
    .to_string()
}

#[test]
fn a_hand_written_tree_verifies_with_its_statistics() {
    // 2 distinct of abc: ab, ac, ba, bc, ca, cb. Guess ab: ab wins; ba answers 0B2C;
    // ac and cb answer 1B0C; bc and ca answer 0B1C.
    let text = bulls_tree(serde_json::json!({
        "guess": "ab",
        "children": {
            "0B2C": {"guess": "ba"},
            "1B0C": {"guess": "ac", "children": {"0B1C": {"guess": "cb"}}},
            "0B1C": {"guess": "bc", "children": {"0B1C": {"guess": "ca"}}},
        }
    }));
    let stats = DecisionTree::from_json(&text).unwrap().verify().unwrap();
    assert_eq!(stats.secrets, 6);
    assert_eq!(stats.histogram, [1, 3, 2]);
    assert_eq!(stats.total, 1 + 6 + 6);
    assert_eq!(stats.max, 3);
    assert!((stats.average - 13.0 / 6.0).abs() < 1e-12);
}

#[test]
fn wrong_trees_are_rejected_with_the_first_problem() {
    let check = |root: serde_json::Value, want: &str| {
        let err = DecisionTree::from_json(&bulls_tree(root))
            .and_then(|t| t.verify())
            .unwrap_err()
            .to_string();
        assert!(err.contains(want), "{err:?} should contain {want:?}");
    };
    check(serde_json::json!({"guess": "aa"}), "at the root: ");
    check(
        serde_json::json!({"guess": "ab", "children": {"2B0C": {"guess": "ab"}}}),
        "2B0C wins the game",
    );
    check(
        serde_json::json!({"guess": "ab", "children": {"5B0C": {"guess": "ab"}}}),
        "branch \"5B0C\" is not a possible feedback",
    );
    check(
        serde_json::json!({"guess": "ab", "children": {"0B2C": {"guess": "ba"}, "0b2c": {"guess": "ba"}}}),
        "0B2C appears twice",
    );
    check(
        serde_json::json!({"guess": "ab", "children": {"0B2C": {"guess": "ba"}}}),
        "at the root: secret bc answers 0B1C to ab but the tree has no branch 0B1C",
    );
    check(
        serde_json::json!({"guess": "ab", "children": {
            "0B2C": {"guess": "ba"},
            "1B0C": {"guess": "ac", "children": {"0B1C": {"guess": "cb"}}},
            "0B1C": {"guess": "bc", "children": {"0B1C": {"guess": "ca"}, "1B0C": {"guess": "ca"}}},
        }}),
        "at the node after ab 0B1C: branch 1B0C after bc is never taken",
    );
    check(
        serde_json::json!({"guess": "ab", "children": {
            "0B2C": {"guess": "ba"},
            "1B0C": {"guess": "ac"},
            "0B1C": {"guess": "bc", "children": {"0B1C": {"guess": "ca"}}},
        }}),
        "at the node after ab 1B0C: secret cb answers 0B1C to ac",
    );
    check(
        serde_json::json!({"guess": "ab", "children": {"0B2C": {"guess": "bx"}}}),
        "at the node after ab 0B2C: ",
    );
    for text in [
        "",
        "{}",
        "[1]",
        r#"{"rules": 1, "root": {}}"#,
        r#"{"rules": {"length": 2, "symbols": "abc", "repeats": false}, "root": {"guess": "ab", "kids": {}}}"#,
    ] {
        let err = DecisionTree::from_json(text).unwrap_err();
        assert!(matches!(err, TreeError::Malformed(_)), "{text}: {err}");
        assert!(err.to_string().starts_with("not a decision tree: "));
    }
    // Deep nesting is refused by the parser, not by a stack overflow.
    let mut deep = String::new();
    for _ in 0..10_000 {
        deep.push_str(r#"{"guess":"ab","children":{"0B2C":"#);
    }
    let deep = format!(r#"{{"rules":{{"length":2,"symbols":"abc","repeats":false}},"root":{deep}"#);
    assert!(matches!(
        DecisionTree::from_json(&deep),
        Err(TreeError::Malformed(_))
    ));
}

#[test]
fn render_shows_the_top_levels_with_set_sizes() {
    let space = CodeSpace::new(Rules::new(3, "abcd", false, false).unwrap()).unwrap();
    let (tree, _) = found(&space, &SearchOptions::default());
    let text = tree.render(1);
    assert_eq!(text.lines().next().unwrap(), "abc (24 secrets)");
    assert!(text.contains("branches below"));
    let two = tree.render(2);
    assert!(two.lines().count() > 2);
    assert!(two.lines().nth(1).unwrap().starts_with("  0B"));
}

/// Searches the optimum of a published row and checks it against the row.
fn reproduce(row: &Published) -> DecisionTree {
    let Method::Optimal(objective) = row.method else {
        panic!("{} is not an optimum", row.describe());
    };
    let space = CodeSpace::new(row.game.rules().unwrap()).unwrap();
    let (tree, stats) = found(&space, &SearchOptions::new(objective));
    row.compare(&Histogram::from_counts(stats.histogram))
        .unwrap();
    tree
}

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
        include_str!("../../trees/bulls-4x10-average.json"),
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
    let tree = reproduce(&published::VILLE);
    assert_eq!(
        tree.to_json(false),
        include_str!("../../trees/mastermind-4x7-average.json"),
        "rebuild with `moo tree build --game mastermind --symbols 1234567 \
         -o crates/moo-core/trees/mastermind-4x7-average.json`"
    );
}

/// Mastermind with 8 colours: arfst23's optimum (33262 CPU seconds there), and the shipped
/// tree byte for byte.
#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn mastermind_4x8_optimal_average_is_published() {
    let tree = reproduce(&published::ARFST23);
    assert_eq!(
        tree.to_json(false),
        include_str!("../../trees/mastermind-4x8-average.json"),
        "rebuild with `moo tree build --game mastermind --symbols 12345678 \
         -o crates/moo-core/trees/mastermind-4x8-average.json`"
    );
}

/// The shipped Mastermind trees replay to their rows' figures.
#[test]
fn shipped_mastermind_trees_replay_as_their_rows_say() {
    let five_by_five = published::NEW_RESULTS
        .iter()
        .find(|row| {
            row.game == published::Game::MASTERMIND_5X5
                && row.method == Method::Optimal(Objective::Average)
        })
        .unwrap();
    for (json, row) in [
        (
            include_str!("../../trees/mastermind-4x7-average.json"),
            &published::VILLE,
        ),
        (
            include_str!("../../trees/mastermind-4x8-average.json"),
            &published::ARFST23,
        ),
        (
            include_str!("../../trees/mastermind-5x5-average.json"),
            five_by_five,
        ),
        (
            include_str!("../../trees/mastermind-4x9-average.json"),
            &published::MASTERMIND_4X9,
        ),
        (
            include_str!("../../trees/mastermind-5x6-average.json"),
            &published::MASTERMIND_5X6,
        ),
    ] {
        let tree = DecisionTree::from_json(json).unwrap();
        assert_eq!(tree.rules(), &row.game.rules().unwrap());
        let stats = tree.verify().unwrap();
        row.compare(&Histogram::from_counts(stats.histogram))
            .unwrap();
    }
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
            published::MASTERMIND_4X9,
            published::MASTERMIND_5X6,
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

/// Mastermind with 5 pegs of 5 colours, every objective; the optimum on average is the shipped
/// tree, byte for byte.
#[test]
#[ignore = "exact search, about 30 s of CPU in release; run with --ignored"]
fn new_results_of_mastermind_5x5() {
    for (objective, tree) in reproduce_new_results(published::Game::MASTERMIND_5X5) {
        if objective == Objective::Average {
            assert_eq!(
                tree.to_json(false),
                include_str!("../../trees/mastermind-5x5-average.json"),
                "rebuild with `moo tree build --game mastermind --length 5 --symbols 12345 \
                 -o crates/moo-core/trees/mastermind-5x5-average.json`"
            );
        }
    }
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

/// The cache only saves work: with no room for it at all the search proves the same optimum and
/// writes the same tree, so a search that outgrows the cache budget stays exact.
#[test]
fn the_cache_changes_nothing_but_speed() {
    let games = [
        (
            Rules::new(3, "012345", false, false).unwrap(),
            Objective::Average,
        ),
        (
            Rules::new(3, "0123456", false, true).unwrap(),
            Objective::Worst,
        ),
        (
            Rules::new(3, "1234", true, false).unwrap(),
            Objective::Average,
        ),
    ];
    for (rules, objective) in games {
        let space = CodeSpace::new(rules).unwrap();
        let run = |bytes: u64| {
            let progress = Progress::new();
            let options = SearchOptions::new(objective).with_cache_bytes(Some(bytes));
            match Search::whole(&space)
                .options(&options)
                .progress(&progress)
                .run()
                .unwrap()
            {
                SearchOutcome::Found(OptimalTree { tree, .. }) => {
                    (tree.to_json(false), progress.cached())
                }
                SearchOutcome::Impossible { .. } => unreachable!("no depth limit"),
            }
        };
        let (cached, remembered) = run(u64::MAX);
        let (uncached, none) = run(0);
        assert!(remembered > 0 && none == 0, "{remembered} {none}");
        assert_eq!(cached, uncached, "{}", space.rules().describe());
        // Room for a tenth of what the search remembers: it keeps forgetting its smallest sets.
        let (cramped, _) = run(remembered * 6);
        assert_eq!(cached, cramped, "{}", space.rules().describe());
    }
}

/// What [`Search::after`] found, or a panic.
fn plan_of(space: &CodeSpace, history: &History, options: &SearchOptions) -> SetPlan {
    let candidates = history.candidates(space);
    match Search::after(space, history, &candidates)
        .options(options)
        .run()
        .unwrap()
    {
        SearchOutcome::Found(plan) => plan,
        other => panic!("{other:?}"),
    }
}

/// A plan is a whole strategy for its set: its first move is the set's, every non-winning part of
/// every move is a later move, and its figures add up, each move's total too: its set's size
/// plus its parts' totals.
fn check_plan(space: &CodeSpace, candidates: &CodeSet, plan: &SetPlan) {
    assert_eq!(&plan.moves[0].set, candidates);
    assert_eq!(plan.moves[0].total, plan.total);
    let totals: HashMap<&CodeSet, u64> = plan.moves.iter().map(|m| (&m.set, m.total)).collect();
    for PlanMove { set, guess, total } in &plan.moves {
        let mut sum = set.len() as u64;
        for (_, part) in space.partition_code(&space.code(*guess as usize), set) {
            if part.len() == 1 && part.first() == Some(*guess as usize) {
                continue;
            }
            let part_total = totals.get(&part);
            assert!(part_total.is_some(), "{part:?} after {set:?}");
            sum += part_total.unwrap();
        }
        assert_eq!(*total, sum, "the total of {set:?}");
    }
    assert_eq!(plan.histogram.iter().sum::<u64>(), candidates.len() as u64);
    assert_eq!(plan.worst as usize, plan.histogram.len());
    let total: u64 = (1..).zip(&plan.histogram).map(|(k, &c)| k * c).sum();
    assert_eq!(plan.total, total);
}

/// From every position after one guess (any guess, not only one per symmetry class, so the
/// narrowed symmetries are put to the test), the search finds the naive recursion's optimum,
/// under both objectives and a depth limit counted from the position.
#[test]
fn a_position_search_matches_exhaustive_recursion_after_any_first_guess() {
    for rules in tiny_games() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        for pool in GuessPool::ALL {
            let mut naive = Naive {
                space: &space,
                pool,
                memo: HashMap::new(),
            };
            for g in 0..space.len() {
                let guess = space.code(g);
                for (feedback, set) in space.partition_code(&guess, &space.all()) {
                    if feedback.is_win(space.length()) {
                        continue;
                    }
                    let mut history = History::new();
                    history.push(guess, feedback);
                    let what = format!("{} {pool:?} {history:?}", rules.describe());
                    let plan = plan_of(&space, &history, &options(Objective::Average, None, pool));
                    check_plan(&space, &set, &plan);
                    let free = naive.total(set.as_slice(), 64).unwrap();
                    assert_eq!(plan.total, u64::from(free), "{what}");
                    let depth = (1..)
                        .find(|&d| naive.total(set.as_slice(), d).is_some())
                        .unwrap();
                    let worst = plan_of(&space, &history, &options(Objective::Worst, None, pool));
                    assert_eq!(worst.worst, depth, "{what}");
                    assert_eq!(
                        worst.total,
                        u64::from(naive.total(set.as_slice(), depth).unwrap()),
                        "{what}"
                    );
                    if depth > 1 {
                        let options = options(Objective::Average, Some(depth - 1), pool);
                        let outcome = Search::after(&space, &history, &set)
                            .options(&options)
                            .run()
                            .unwrap();
                        assert!(
                            matches!(outcome, SearchOutcome::Impossible { max_depth } if max_depth == depth - 1),
                            "{what}"
                        );
                    }
                }
            }
        }
    }
}

/// Every subtree of an optimal tree is optimal for its set, so on Mastermind the search from
/// each position two guesses deep must cost what the whole search's tree spends there.
#[test]
fn a_position_search_agrees_with_the_subtrees_of_the_full_search() {
    let space = CodeSpace::new(Rules::mastermind()).unwrap();
    let (tree, _) = found(&space, &SearchOptions::default());
    // Guesses each secret needs after the node `id`, reached with `set`.
    fn cost(space: &CodeSpace, tree: &DecisionTree, id: NodeId, set: &CodeSet) -> u64 {
        let node = tree.node(id);
        let mut total = set.len() as u64;
        for (feedback, part) in space.partition_code(&node.guess, set) {
            if !feedback.is_win(space.length()) {
                total += cost(space, tree, node.child(feedback).unwrap(), &part);
            }
        }
        total
    }
    let root = tree.root();
    let mut checked = 0;
    for (f1, set1) in space.partition_code(&root.guess, &space.all()) {
        let Some(id1) = root.child(f1) else { continue };
        let node1 = tree.node(id1);
        for (f2, set2) in space.partition_code(&node1.guess, &set1) {
            let Some(id2) = node1.child(f2) else { continue };
            if set2.len() < 4 {
                continue;
            }
            let mut history = History::new();
            history.push(root.guess, f1);
            history.push(node1.guess, f2);
            let plan = plan_of(&space, &history, &SearchOptions::default());
            check_plan(&space, &set2, &plan);
            assert_eq!(plan.total, cost(&space, &tree, id2, &set2), "{history:?}");
            checked += 1;
        }
        // And one guess deep.
        let mut history = History::new();
        history.push(root.guess, f1);
        let plan = plan_of(&space, &history, &SearchOptions::default());
        assert_eq!(plan.total, cost(&space, &tree, id1, &set1), "{history:?}");
    }
    assert!(checked > 20, "{checked}");
}

/// The whole space with an empty history is the full search, to the guess.
#[test]
fn a_position_search_from_the_start_is_the_full_search() {
    let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
    for objective in Objective::ALL {
        let (tree, stats) = found(&space, &SearchOptions::new(objective));
        let plan = plan_of(&space, &History::new(), &SearchOptions::new(objective));
        assert_eq!(plan.total, stats.total);
        assert_eq!(plan.histogram, stats.histogram);
        let guesses: Vec<Code> = plan
            .moves
            .iter()
            .map(|m| space.code(m.guess as usize))
            .collect();
        let in_tree: Vec<Code> = tree.nodes().iter().map(|n| n.guess).collect();
        assert_eq!(guesses, in_tree);
    }
}

#[test]
fn a_stop_fired_in_advance_stops_the_search() {
    let space = CodeSpace::new(Rules::mastermind()).unwrap();
    let flag = Arc::new(AtomicBool::new(true));
    let stop = Stop::never().with_flag(flag);
    let outcome = Search::after(&space, &History::new(), &space.all())
        .stop(&stop)
        .run();
    assert_eq!(outcome.unwrap_err(), SearchError::Stopped);
    let past = Stop::at(std::time::Instant::now());
    let outcome = Search::after(&space, &History::new(), &space.all())
        .stop(&past)
        .run();
    assert_eq!(outcome.unwrap_err(), SearchError::Stopped);
}

/// A deadline that fires in the middle of a long search (Bulls and Cows takes many seconds)
/// stops it with an error, not a wrong answer. Only the outcome is asserted, never the time.
#[test]
fn a_deadline_stops_a_long_search_midway() {
    let space = CodeSpace::new(Rules::bulls()).unwrap();
    let stop = Stop::after(std::time::Duration::from_millis(50));
    let progress = Progress::new();
    let outcome = Search::after(&space, &History::new(), &space.all())
        .progress(&progress)
        .stop(&stop)
        .run();
    assert_eq!(outcome.unwrap_err(), SearchError::Stopped);
}

#[test]
fn an_empty_position_is_an_error() {
    let space = CodeSpace::new(Rules::new(2, "abc", false, false).unwrap()).unwrap();
    let mut history = History::new();
    let ab = space.code(0);
    history.push(ab, Feedback::new(0, 2));
    history.push(ab, Feedback::new(1, 0));
    let outcome = Search::after(&space, &history, &CodeSet::new()).run();
    assert_eq!(outcome.unwrap_err(), SearchError::NoCandidates);
}

/// What [`naive_fewest`] found, by set and depth.
type FewestMemo = HashMap<(Vec<u32>, u32), Option<(u32, u32)>>;

/// The obvious exhaustive recursion for the fewest-at-worst objective: the least
/// (secrets solved by the `depth`-th guess from here, total) for `set` within `depth` guesses.
fn naive_fewest(
    space: &CodeSpace,
    pool: GuessPool,
    set: &[u32],
    depth: u32,
    memo: &mut FewestMemo,
) -> Option<(u32, u32)> {
    if depth == 0 {
        return None;
    }
    if set.len() == 1 {
        return Some((u32::from(depth == 1), 1));
    }
    if let Some(&r) = memo.get(&(set.to_vec(), depth)) {
        return r;
    }
    let win = Feedback::win(space.length()).index(space.length()) as u8;
    let guesses: Vec<u32> = match pool {
        GuessPool::All => (0..space.len() as u32).collect(),
        GuessPool::Consistent => set.to_vec(),
    };
    let mut best: Option<(u32, u32)> = None;
    for g in guesses {
        let mut parts: HashMap<u8, Vec<u32>> = HashMap::new();
        for &s in set {
            parts
                .entry(space.score_index(g as usize, s as usize))
                .or_default()
                .push(s);
        }
        let member = parts.remove(&win).is_some();
        if parts.len() == 1 && parts.values().next().unwrap().len() == set.len() {
            continue;
        }
        let mut cost = Some((u32::from(member && depth == 1), set.len() as u32));
        for part in parts.values() {
            cost = match (cost, naive_fewest(space, pool, part, depth - 1, memo)) {
                (Some((c, t)), Some((pc, pt))) => Some((c + pc, t + pt)),
                _ => None,
            };
        }
        if let Some(c) = cost {
            best = Some(best.map_or(c, |b| b.min(c)));
        }
    }
    memo.insert((set.to_vec(), depth), best);
    best
}

/// Fewest at worst: the naive minimum depth, then the fewest secrets needing it, then the
/// fewest in total, on every tiny game, from the start and from every position one guess in.
#[test]
fn fewest_worst_matches_exhaustive_recursion() {
    for rules in tiny_games() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        for pool in GuessPool::ALL {
            let mut memo = HashMap::new();
            let opts = options(Objective::FewestWorst, None, pool);
            let mut check = |set: &[u32], got: (u32, u64, u64), what: &str| {
                let depth = (1..)
                    .find(|&d| naive_fewest(&space, pool, set, d, &mut memo).is_some())
                    .unwrap();
                let (count, total) = naive_fewest(&space, pool, set, depth, &mut memo).unwrap();
                assert_eq!(
                    got,
                    (depth, u64::from(count), u64::from(total)),
                    "{} {pool:?} {what}",
                    rules.describe()
                );
            };
            let all: Vec<u32> = (0..space.len() as u32).collect();
            let (tree, stats) = found(&space, &opts);
            assert_eq!(tree.verify().unwrap(), stats);
            check(&all, (stats.max, stats.at_worst, stats.total), "whole game");
            for g in 0..space.len() {
                let guess = space.code(g);
                for (feedback, set) in space.partition_code(&guess, &space.all()) {
                    if feedback.is_win(space.length()) {
                        continue;
                    }
                    let mut history = History::new();
                    history.push(guess, feedback);
                    let plan = plan_of(&space, &history, &opts);
                    check_plan(&space, &set, &plan);
                    let at_worst = plan.histogram.last().copied().unwrap_or(0);
                    check(
                        set.as_slice(),
                        (plan.worst, at_worst, plan.total),
                        &format!("{history:?}"),
                    );
                }
            }
        }
    }
}

/// Mastermind 4x6: every secret within 5 guesses (Knuth 1977), and then the fewest secrets that
/// need the fifth. The count is this search's own result (no published figure we know of),
/// cross-checked by the exhaustive recursion on the tiny games above and by `moo tree verify`.
#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn mastermind_fewest_at_worst_is_5_with_539() {
    let tree = reproduce(&published::MASTERMIND_FEWEST_WORST);
    let stats = tree.verify().unwrap();
    assert_eq!((stats.max, stats.at_worst, stats.total), (5, 539, 5627));
}

/// A search interrupted midway and run again with the same checkpoint file finishes with the
/// same tree as one that ran straight through, for every objective.
#[test]
fn an_interrupted_search_resumes_from_its_checkpoint() {
    let space = CodeSpace::new(Rules::new(4, "0123456", false, false).unwrap()).unwrap();
    for objective in Objective::ALL {
        let options = SearchOptions::new(objective);
        let (straight, _) = found(&space, &options);
        let path = std::env::temp_dir().join(format!(
            "moo-checkpoint-test-{}-{objective:?}",
            std::process::id()
        ));
        let _ = std::fs::remove_file(&path);
        let flag = Arc::new(AtomicBool::new(false));
        let stop = Stop::never().with_flag(flag);
        let first = Checkpoint::open(&path, &space, &options)
            .unwrap()
            .with_min_set(5)
            .cancel_after(30, stop.clone());
        let outcome = Search::whole(&space)
            .options(&options)
            .stop(&stop)
            .checkpoint(&first)
            .run();
        assert_eq!(outcome.unwrap_err(), SearchError::Stopped, "{objective:?}");
        assert!(first.written() >= 30);
        drop(first);
        // A killed writer's half line is ignored.
        let mut text = std::fs::read_to_string(&path).unwrap();
        text += "0 5 123 - - - 1,2,";
        std::fs::write(&path, text).unwrap();
        let second = Checkpoint::open(&path, &space, &options)
            .unwrap()
            .with_min_set(5);
        assert!(second.loaded() >= 30, "{}", second.loaded());
        assert_eq!(second.damaged(), 1);
        let progress = Progress::new();
        match Search::whole(&space)
            .options(&options)
            .progress(&progress)
            .checkpoint(&second)
            .run()
            .unwrap()
        {
            SearchOutcome::Found(OptimalTree { tree, .. }) => {
                assert_eq!(
                    tree.to_json(false),
                    straight.to_json(false),
                    "{objective:?}"
                )
            }
            other => panic!("{other:?}"),
        }
        // Another search's file is refused.
        let other = SearchOptions::new(objective).with_max_depth(Some(9));
        let err = Checkpoint::open(&path, &space, &other).unwrap_err();
        assert!(err.to_string().contains("another search"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }
}

/// The tree of the fewest-at-worst proof for Bulls and Cows 4 of 0-9 (the open question of how
/// few secrets must need 7 guesses; best known 50, Slovesnov's "crush5o"): replaying every
/// secret shows 50 at 7 and 26450 in total. That no tree does better is the search's proof,
/// rerun by the ignored test below.
#[test]
fn bulls_fewest_at_worst_tree_has_50_at_7() {
    let tree =
        DecisionTree::from_json(include_str!("../../trees/bulls-4x10-fewest-worst.json")).unwrap();
    let stats = tree.verify().unwrap();
    assert_eq!((stats.max, stats.at_worst, stats.total), (7, 50, 26450));
}

/// The optimal tree of Bulls and Cows with 5 distinct digits of 0-7 (6720 secrets), new as far
/// as we know: replaying every secret gives 34444 guesses in total, 93 secrets at 7. That no
/// tree does better is the search's proof (`moo tree build --length 5 --symbols 01234567`, see
/// the book's `docs/src/performance.md` for its time), too long for CI.
#[test]
fn bulls_5_of_0_7_tree_totals_34444() {
    let tree = DecisionTree::from_json(include_str!("../../trees/bulls-5x8-average.json")).unwrap();
    assert_eq!(
        tree.rules(),
        &Rules::new(5, "01234567", false, false).unwrap()
    );
    let stats = tree.verify().unwrap();
    assert_eq!((stats.secrets, stats.total), (6720, 34444));
    assert_eq!((stats.max, stats.at_worst), (7, 93));
    published::BULLS_5_OF_0_7
        .compare(&Histogram::from_counts(stats.histogram))
        .unwrap();
}

/// The proof itself: depths 5 and 6 impossible, then at 7 no tree with fewer than 50 secrets
/// at the seventh guess, nor with 50 and fewer than 26450 in total; it writes the shipped file
/// byte for byte.
#[test]
#[ignore = "exact search, about three minutes of CPU in release; run with --ignored"]
fn bulls_fewest_at_worst_is_7_with_50() {
    let tree = reproduce(&published::BULLS_FEWEST_WORST);
    let stats = tree.verify().unwrap();
    assert_eq!((stats.max, stats.at_worst, stats.total), (7, 50, 26450));
    assert_eq!(
        tree.to_json(false),
        include_str!("../../trees/bulls-4x10-fewest-worst.json"),
        "rebuild with `moo tree build --objective fewest-worst \
         -o crates/moo-core/trees/bulls-4x10-fewest-worst.json`"
    );
}

/// The search reads the compact table where it fits (every game here); on the space's own
/// table, with the feedback indexes as they are, it writes the same trees under every objective.
#[test]
fn compact_table_changes_no_tree() {
    for rules in [
        Rules::mastermind(),
        Rules::new(4, "0123456", false, false).unwrap(),
        Rules::new(3, "012345", true, false).unwrap(),
    ] {
        let compact = CodeSpace::new(rules.clone()).unwrap();
        assert!(compact.compact_table().is_some(), "{rules}");
        let plain = CodeSpace::new(rules.clone()).unwrap();
        plain.skip_compact_table();
        assert!(plain.compact_table().is_none());
        for objective in Objective::ALL {
            let (a, stats) = found(&compact, &SearchOptions::new(objective));
            let (b, plain_stats) = found(&plain, &SearchOptions::new(objective));
            assert_eq!(stats, plain_stats, "{rules}, {objective:?}");
            assert_eq!(a.to_json(false), b.to_json(false), "{rules}, {objective:?}");
        }
    }
}

#[test]
fn classes_change_no_tree() {
    // Sharing results between sets equal up to relabelling changes only the time: the same
    // totals, and the same trees byte for byte, under every objective and both guess pools.
    for rules in [
        Rules::mastermind(),
        Rules::new(4, "0123456", false, false).unwrap(),
        Rules::new(4, "012345678", false, true).unwrap(),
        Rules::new(3, "012345", true, false).unwrap(),
    ] {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let mut borrowed = 0;
        for objective in Objective::ALL {
            for guesses in [GuessPool::All, GuessPool::Consistent] {
                // Naming from the first set: these games are too small to reach the default.
                let on = options(objective, None, guesses).with_classes_after(0);
                let progress = Progress::new();
                let SearchOutcome::Found(OptimalTree { tree: a, stats }) = Search::whole(&space)
                    .options(&on)
                    .progress(&progress)
                    .run()
                    .unwrap()
                else {
                    panic!("{rules}: no tree");
                };
                borrowed += progress.borrowed();
                let (b, plain_stats) = found(&space, &on.clone().with_classes(false));
                assert_eq!(stats, plain_stats, "{rules}, {objective:?}, {guesses:?}");
                assert_eq!(
                    a.to_json(false),
                    b.to_json(false),
                    "{rules}, {objective:?}, {guesses:?}"
                );
            }
        }
        // Not a vacuous comparison: the sharing answered sets in every game.
        assert!(borrowed > 0, "{rules}: no set was answered by its class");
    }
}

#[test]
fn threads_change_no_tree() {
    // Threads take the guesses of a large set in order and share the best total: the tree is
    // the one a single thread finds, ties going to the earliest guess, whatever finishes first.
    for rules in [
        Rules::mastermind(),
        Rules::new(4, "0123456", false, false).unwrap(),
        Rules::new(4, "01234567", false, true).unwrap(),
        Rules::new(3, "012345", true, false).unwrap(),
    ] {
        let space = CodeSpace::new(rules.clone()).unwrap();
        for objective in Objective::ALL {
            let on = |threads: usize| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap()
                    .install(|| found(&space, &SearchOptions::new(objective)))
            };
            let (one, stats) = on(1);
            for threads in [2, 3, 4] {
                let (many, many_stats) = on(threads);
                assert_eq!(
                    stats, many_stats,
                    "{rules}, {objective:?}, {threads} threads"
                );
                assert_eq!(
                    one.to_json(false),
                    many.to_json(false),
                    "{rules}, {objective:?}, {threads} threads"
                );
            }
        }
    }
}
