//! The evaluation's tests: trees against playing each secret, caps and give-ups, recorded
//! trees, node caps and deadlines.

use super::*;
use crate::published::KNUTH;
use crate::strategy::{by_name, play, StrategyOptions};
use crate::Rules;

fn build_by_name<'a>(
    space: &'a CodeSpace,
    name: &'a str,
) -> impl Fn(u64) -> Result<Box<dyn Strategy>, StrategyError> + Sync + 'a {
    move |seed| {
        let o = StrategyOptions {
            seed,
            ..Default::default()
        };
        by_name(name, space, &o)
    }
}

fn eval(space: &CodeSpace, name: &str, options: &EvalOptions) -> Evaluation {
    evaluate(space, &build_by_name(space, name), options, &|_| {}).unwrap()
}

/// The tree evaluation must agree game by game with the plain harness.
#[test]
fn tree_matches_playing_each_secret() {
    let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
    for name in ["simple", "knuth", "entropy", "cows", "enumerate"] {
        let e = eval(&space, name, &EvalOptions::default());
        assert!(e.deterministic);
        let mut histogram = vec![0u64; e.histogram.counts().len()];
        let mut strategy = by_name(name, &space, &StrategyOptions::default()).unwrap();
        for secret in space.codes() {
            let n = play(strategy.as_mut(), &space, secret, 1000).unwrap().len();
            histogram[n - 1] += 1;
        }
        assert_eq!(e.histogram.counts(), histogram, "{name}");
        assert_eq!(
            e.histogram.total(),
            histogram
                .iter()
                .enumerate()
                .map(|(i, c)| (i as u64 + 1) * c)
                .sum::<u64>()
        );
        assert_eq!(e.secrets, 120);
        assert_eq!(e.histogram.gave_up(), 0);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    /// On small games of every shape, the tree walk and the plain harness agree on every
    /// deterministic strategy.
    #[test]
    fn tree_matches_play_on_small_games(length in 1usize..=3, symbols in 2usize..=6,
                                        repeats: bool, no_leading: bool) {
        let alphabet: String = "abcdef".chars().take(symbols).collect();
        if let Ok(rules) = Rules::new(length, &alphabet, repeats, no_leading) {
            let space = CodeSpace::new(rules).unwrap();
            for name in ["simple", "knuth", "most-parts", "cows", "enumerate"] {
                let e = eval(&space, name, &EvalOptions::default());
                let mut strategy = by_name(name, &space, &StrategyOptions::default()).unwrap();
                let total: usize = space
                    .codes()
                    .iter()
                    .map(|secret| play(strategy.as_mut(), &space, secret, 1000).unwrap().len())
                    .sum();
                proptest::prop_assert_eq!(e.histogram.total(), total as u64, "{}", name);
                proptest::prop_assert_eq!(e.histogram.gave_up(), 0);
            }
        }
    }
}

#[test]
fn enumerate_takes_the_secrets_rank() {
    let space = CodeSpace::new(Rules::mastermind()).unwrap();
    let e = eval(&space, "enumerate", &EvalOptions::default());
    assert_eq!(e.histogram.total(), 1296 * 1297 / 2);
    assert_eq!(e.histogram.counts(), vec![1; 1296]);
}

#[test]
fn caps_count_give_ups_and_random_is_reproducible() {
    let space = CodeSpace::new(Rules::new(2, "0123", false, false).unwrap()).unwrap();
    let mut options = EvalOptions {
        max_guesses: Some(3),
        seed: 1,
        ..Default::default()
    };
    let e = eval(&space, "enumerate", &options);
    assert_eq!(
        (
            e.histogram.solved(),
            e.histogram.gave_up(),
            e.histogram.total()
        ),
        (3, 9, 6)
    );
    let a = eval(&space, "random", &options);
    assert!(!a.deterministic);
    assert_eq!(a.histogram.solved() + a.histogram.gave_up(), 12);
    assert_eq!(a.histogram, eval(&space, "random", &options).histogram);
    options.max_guesses = None;
    let b = eval(&space, "random", &options);
    assert_eq!(b.histogram.gave_up(), 0);
    options.seed = 2;
    let c = eval(&space, "random", &options);
    assert_ne!(b.histogram, c.histogram);
}

fn tree_of(
    space: &CodeSpace,
    name: &str,
    max_nodes: Option<usize>,
) -> Result<StrategyTree, EvalError> {
    strategy_tree(
        space,
        &build_by_name(space, name),
        &EvalOptions::default(),
        max_nodes,
    )
}

/// The recorded tree replays (through the tree's own verification, not the walk) to the
/// figures `evaluate` counts, for every strategy the registry can play here; random ones
/// have no tree.
#[test]
fn recorded_trees_verify_to_the_counted_figures() {
    let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
    let mut trees = 0;
    for name in crate::strategy::playable(&space, &StrategyOptions::default()) {
        let counted = eval(&space, name, &EvalOptions::default());
        match tree_of(&space, name, None) {
            Err(EvalError::NotDeterministic(n)) => {
                assert!(!counted.deterministic, "{name}");
                assert_eq!(n, name);
            }
            Ok(grown) => {
                trees += 1;
                let stats = grown.tree.verify_in(&space).unwrap();
                assert_eq!(stats.histogram, counted.histogram.counts(), "{name}");
                assert_eq!(
                    grown.evaluation.histogram.counts(),
                    counted.histogram.counts(),
                    "{name}"
                );
                assert_eq!(
                    grown.evaluation.histogram.total(),
                    counted.histogram.total(),
                    "{name}"
                );
                // The parser's nesting limit stops at about 60 levels (brute force is deeper).
                if stats.max <= 30 {
                    let again = DecisionTree::from_json(&grown.tree.to_json(false)).unwrap();
                    assert_eq!(again, grown.tree, "{name}: the JSON form reads back");
                }
            }
            Err(e) => panic!("{name}: {e}"),
        }
    }
    assert!(trees >= 5, "only {trees} deterministic strategies");
}

/// Knuth's tree has one node per guess asked: the walk splits the 1296 secrets in parallel
/// near the root, and the grafted parts must still form one tree.
#[test]
fn knuth_mastermind_tree_is_grafted_whole() {
    let space = CodeSpace::new(Rules::mastermind()).unwrap();
    let grown = tree_of(&space, "knuth", None).unwrap();
    let stats = grown.tree.verify_in(&space).unwrap();
    KNUTH
        .compare(&Histogram::from_counts(stats.histogram))
        .unwrap();
    assert_eq!(space.rules().format_code(&grown.tree.root().guess), "1122");
    let internal = grown.tree.nodes().iter().filter(|n| !n.children.is_empty());
    // Every internal node's children are in feedback order, as parsing would sort them.
    for node in internal {
        let keys: Vec<usize> = node.children.iter().map(|(f, _)| f.index(4)).collect();
        assert!(keys.windows(2).all(|w| w[0] < w[1]));
    }
}

#[test]
fn the_node_cap_is_exact() {
    // One node per distinct history any secret reaches before its winning guess, counted
    // here by playing each secret through the plain harness.
    let space = CodeSpace::new(Rules::new(3, "0123", false, false).unwrap()).unwrap();
    let mut histories = std::collections::HashSet::new();
    for secret in space.codes() {
        let mut strategy = by_name("enumerate", &space, &StrategyOptions::default()).unwrap();
        let turns = play(strategy.as_mut(), &space, secret, 100).unwrap();
        let turns: Vec<_> = turns
            .turns()
            .iter()
            .map(|t| (t.guess, t.feedback))
            .collect();
        for depth in 0..turns.len() {
            histories.insert(turns[..depth].to_vec());
        }
    }
    let nodes = histories.len();
    let grown = tree_of(&space, "enumerate", Some(nodes)).unwrap();
    assert_eq!(grown.tree.nodes().len(), nodes);
    assert_eq!(
        tree_of(&space, "enumerate", Some(nodes - 1)).unwrap_err(),
        EvalError::TooManyNodes {
            strategy: "enumerate".into(),
            max: nodes - 1
        }
    );
}

#[test]
fn a_tree_with_a_game_past_the_cap_is_refused() {
    let space = CodeSpace::new(Rules::new(2, "0123", false, false).unwrap()).unwrap();
    let options = EvalOptions {
        max_guesses: Some(3),
        ..Default::default()
    };
    let err = strategy_tree(&space, &build_by_name(&space, "enumerate"), &options, None);
    assert_eq!(
        err.unwrap_err(),
        EvalError::Unfinished {
            strategy: "enumerate".into(),
            max_guesses: 3
        }
    );
}

/// Opens with a code the rules forbid (a repeated symbol), then plays `simple`.
struct Outlaw;

impl Strategy for Outlaw {
    fn name(&self) -> &str {
        "outlaw"
    }

    fn next_guess(&mut self, k: &Knowledge<'_>) -> Result<Code, StrategyError> {
        if k.history.is_empty() {
            return Ok(Code::from_symbols(&[0, 0, 0]));
        }
        crate::strategy::Simple.next_guess(k)
    }
}

#[test]
fn guesses_outside_the_rules_are_counted_but_not_recorded() {
    let space = CodeSpace::new(Rules::new(3, "01234", false, false).unwrap()).unwrap();
    let build = |_| Ok(Box::new(Outlaw) as Box<dyn Strategy>);
    let e = evaluate(&space, &build, &EvalOptions::default(), &|_| {}).unwrap();
    let mut by_play = 0;
    for secret in space.codes() {
        by_play += play(&mut Outlaw, &space, secret, 100).unwrap().len() as u64;
    }
    assert_eq!((e.histogram.total(), e.histogram.gave_up()), (by_play, 0));
    let err = strategy_tree(&space, &build, &EvalOptions::default(), None).unwrap_err();
    assert_eq!(
        err,
        EvalError::IllegalGuess {
            strategy: "outlaw".into(),
            guess: "000".into()
        }
    );
}

/// Plays `simple`, and after `calls` guesses (over every copy) sets `flag`, or sleeps past
/// `until`: a stop that fires in the middle of a walk, at a point that does not depend on
/// timing.
struct Tripwire {
    calls: Arc<AtomicUsize>,
    flag: Option<Arc<AtomicBool>>,
    until: Option<Instant>,
}

impl Strategy for Tripwire {
    fn name(&self) -> &str {
        "tripwire"
    }

    fn next_guess(&mut self, k: &Knowledge<'_>) -> Result<Code, StrategyError> {
        if self.calls.fetch_sub(1, Ordering::Relaxed) == 1 {
            if let Some(flag) = &self.flag {
                flag.store(true, Ordering::Relaxed);
            }
            if let Some(until) = self.until {
                std::thread::sleep(until.saturating_duration_since(Instant::now()));
            }
        }
        crate::strategy::Simple.next_guess(k)
    }
}

#[test]
fn a_deadline_or_a_flag_stops_a_walk_midway() {
    let space = CodeSpace::new(Rules::mastermind()).unwrap();
    let flag = Arc::new(AtomicBool::new(false));
    let calls = Arc::new(AtomicUsize::new(50));
    let build = |_| {
        Ok(Box::new(Tripwire {
            calls: calls.clone(),
            flag: Some(flag.clone()),
            until: None,
        }) as Box<dyn Strategy>)
    };
    let options = EvalOptions {
        cancel: Some(flag.clone()),
        ..Default::default()
    };
    let counted = evaluate(&space, &build, &options, &|_| {});
    assert_eq!(counted.unwrap_err(), EvalError::Cancelled);
    flag.store(false, Ordering::Relaxed);
    calls.store(50, Ordering::Relaxed);
    let recorded = strategy_tree(&space, &build, &options, None);
    assert_eq!(recorded.unwrap_err(), EvalError::Cancelled);

    let until = Instant::now() + std::time::Duration::from_millis(20);
    calls.store(50, Ordering::Relaxed);
    let build = |_| {
        Ok(Box::new(Tripwire {
            calls: calls.clone(),
            flag: None,
            until: Some(until),
        }) as Box<dyn Strategy>)
    };
    let options = EvalOptions {
        deadline: Some(until),
        ..Default::default()
    };
    // On one thread: with more, the others could finish the walk while this one sleeps.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let counted = pool.install(|| evaluate(&space, &build, &options, &|_| {}));
    assert_eq!(counted.unwrap_err(), EvalError::DeadlinePassed);
}

#[test]
fn a_past_deadline_stops_every_kind_of_walk() {
    let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
    let options = EvalOptions {
        deadline: Some(Instant::now()),
        ..Default::default()
    };
    for name in ["knuth", "enumerate", "random"] {
        let e = evaluate(&space, &build_by_name(&space, name), &options, &|_| {});
        assert_eq!(e.unwrap_err(), EvalError::DeadlinePassed, "{name}");
    }
    let t = strategy_tree(&space, &build_by_name(&space, "knuth"), &options, None);
    assert_eq!(t.unwrap_err(), EvalError::DeadlinePassed);
    let cancelled = EvalOptions {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..Default::default()
    };
    let e = evaluate(
        &space,
        &build_by_name(&space, "random"),
        &cancelled,
        &|_| {},
    );
    assert_eq!(e.unwrap_err(), EvalError::Cancelled);
}
