//! The search from a position: plans, symmetries narrowed by the history, stops, the cache.

use super::*;

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
            for (history, set) in one_guess_in(&space) {
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
    assert_stops(&space, &Stop::never().with_flag(flag));
    assert_stops(&space, &Stop::at(web_time::Instant::now()));
}

/// The search of the whole of `space` under `stop` ends in [`SearchError::Stopped`].
fn assert_stops(space: &CodeSpace, stop: &Stop) {
    let progress = Progress::new();
    let outcome = Search::after(space, &History::new(), &space.all())
        .progress(&progress)
        .stop(stop)
        .run();
    assert_eq!(outcome.unwrap_err(), SearchError::Stopped);
}

/// A deadline that fires in the middle of a long search (Bulls and Cows takes many seconds)
/// stops it with an error, not a wrong answer. Only the outcome is asserted, never the time.
#[test]
fn a_deadline_stops_a_long_search_midway() {
    let space = CodeSpace::new(Rules::bulls()).unwrap();
    assert_stops(&space, &Stop::after(std::time::Duration::from_millis(50)));
}

/// A search that reports bounds ends a stop as an outcome with a true lower bound, on either
/// root, and otherwise ends as the plain search does.
#[test]
fn a_proving_search_reports_a_stop_with_a_proven_bound() {
    let space = CodeSpace::new(Rules::mastermind()).unwrap();
    let stopped = Stop::never().with_flag(Arc::new(AtomicBool::new(true)));
    let all = space.all();
    let outcome = Search::after(&space, &History::new(), &all)
        .stop(&stopped)
        .proving()
        .run()
        .unwrap();
    let SearchOutcome::Stopped { bound } = outcome else {
        panic!("a fired stop ends the search: {outcome:?}");
    };
    // 5625 is Koyama and Lai's optimum: the bound may not exceed it.
    assert!(
        bound > 0 && bound <= crate::published::KOYAMA_LAI.total,
        "{bound}"
    );
    let whole = Search::whole(&space)
        .stop(&stopped)
        .proving()
        .run()
        .unwrap();
    assert!(matches!(whole, SearchOutcome::Stopped { bound: b } if b == bound));
    let small = CodeSpace::new(Rules::new(3, "0123", false, false).unwrap()).unwrap();
    let plain = Search::after(&small, &History::new(), &small.all()).run();
    let proving = Search::after(&small, &History::new(), &small.all())
        .proving()
        .run();
    let (SearchOutcome::Found(a), Ok(SearchOutcome::Found(b))) = (plain.unwrap(), proving) else {
        panic!("no depth limit and no stop");
    };
    assert_eq!(a, b);
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
