use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use super::*;
use crate::history::History;
use crate::pool::GuessPool;
use crate::published::{self, Method, Published};
use crate::rules::games;
use crate::stop::Stop;

mod fewest;
mod first_guess;
mod invariants;
mod known;
mod positions;

fn found(space: &CodeSpace, options: &SearchOptions) -> (DecisionTree, TreeStats) {
    match Search::whole(space).options(options).run().unwrap() {
        SearchOutcome::Found(OptimalTree { tree, stats }) => (tree, stats),
        SearchOutcome::Impossible { max_depth } => panic!("impossible within {max_depth}"),
    }
}

/// A shipped tree from the bytes of its gzipped file (`include_bytes!` of a `.json.gz` under
/// `trees/`), as the tests that replay the larger trees read them.
pub(crate) fn gunzipped_tree(gz: &[u8]) -> DecisionTree {
    use std::io::Read;
    let mut json = String::new();
    flate2::read::GzDecoder::new(gz)
        .read_to_string(&mut json)
        .unwrap();
    DecisionTree::from_json(&json).unwrap()
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
    games(
        "2 abc repeats, 2 abcd, 2 abcd repeats, 3 abc repeats, 3 abcd, 3 abcde, \
         3 0123 no-leading, 2 01234 repeats no-leading, 3 abcd repeats",
    )
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

#[test]
fn text_form_has_one_line_per_secret_ending_in_it() {
    // A symbol that starts comments: a game's line never starts with "# " (no symbol is a
    // space), so a code that starts with '#' is not taken for one.
    let rules = Rules::new(3, "#abc", false, false).unwrap();
    let space = CodeSpace::new(rules.clone()).unwrap();
    let (tree, stats) = found(&space, &SearchOptions::default());
    let text = tree.to_text().unwrap();
    let rules_line = text
        .lines()
        .find_map(|l| l.strip_prefix("# rules: "))
        .unwrap();
    assert_eq!(serde_json::from_str::<Rules>(rules_line).unwrap(), rules);
    let games: Vec<&str> = text.lines().filter(|l| !l.starts_with("# ")).collect();
    assert_eq!(games.len(), space.len());
    let mut total = 0;
    for (line, secret) in games.iter().zip(space.codes()) {
        assert_eq!((line.chars().count() + 1) % 4, 0, "{line:?}");
        let guesses: Vec<String> = line
            .chars()
            .collect::<Vec<_>>()
            .chunks(4)
            .map(|c| c[..3].iter().collect())
            .collect();
        assert_eq!(guesses.last().unwrap(), &rules.format_code(secret));
        assert_eq!(guesses[0], rules.format_code(&tree.root().guess));
        total += guesses.len() as u64;
    }
    assert_eq!(total, stats.total);
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

/// What [`Search::after`] found, or a panic.
/// Every position one guess into a game that the guess did not win: its history and the codes
/// left.
fn one_guess_in(space: &CodeSpace) -> Vec<(History, CodeSet)> {
    let mut positions = Vec::new();
    for g in 0..space.len() {
        let guess = space.code(g);
        for (feedback, set) in space.partition_code(&guess, &space.all()) {
            if !feedback.is_win(space.length()) {
                let mut history = History::new();
                history.push(guess, feedback);
                positions.push((history, set));
            }
        }
    }
    positions
}

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
