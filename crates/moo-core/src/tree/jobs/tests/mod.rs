//! The split against the single search, and the files it refuses.

mod beside;

use super::*;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::tree::{OptimalTree, Progress, Search, SearchOptions, SearchOutcome};

/// The first level only, as the split was before it went deeper.
fn first_level() -> SplitOptions {
    SplitOptions::default().with_share(None)
}

/// Every part deeper.
fn all_deeper() -> SplitOptions {
    SplitOptions::default().with_share(Some(0.0))
}

/// The joined tree and the single search's, with their statistics, for `options`.
fn joined_and_searched(
    space: &CodeSpace,
    options: &SearchOptions,
    how: &SplitOptions,
) -> ((DecisionTree, TreeStats), (DecisionTree, TreeStats)) {
    let (split, joined) = split_and_join(space, options, how);
    assert!(!split.jobs.is_empty());
    let what = format!("{} {options:?}", space.rules());
    let Joined::Found { tree, stats, .. } = joined else {
        panic!("{what}: the join finds a tree");
    };
    let SearchOutcome::Found(OptimalTree {
        tree: single,
        stats: single_stats,
    }) = Search::whole(space).options(options).run().unwrap()
    else {
        panic!("{what}: the search finds a tree");
    };
    ((tree, stats), (single, single_stats))
}

/// Solves `jobs` in process, through the files' form as between machines.
fn solve_all(jobs: &[Job]) -> Vec<Option<JobResult>> {
    jobs.iter()
        .map(|job| {
            let job = Job::from_json(&job.to_json()).unwrap();
            let result = job.solve(&Progress::new(), &Stop::never()).unwrap();
            Some(JobResult::from_json(&result.to_json()).unwrap())
        })
        .collect()
}

/// Splits, solves every job of every round in process and joins.
fn split_and_join(
    space: &CodeSpace,
    options: &SearchOptions,
    how: &SplitOptions,
) -> (Split, Joined) {
    let (split, jobs) = Split::plan(space, options, how).unwrap();
    let mut results = solve_all(&jobs);
    loop {
        match split.join(&results).unwrap() {
            Joined::Round { jobs, .. } => results.extend(solve_all(&jobs)),
            joined => return (split, joined),
        }
    }
}

#[test]
fn joined_trees_are_the_searchs_trees() {
    let games = [
        (
            Rules::new(3, "1234", true, false).unwrap(),
            GuessPool::All,
            None,
        ),
        (
            Rules::new(3, "1234", true, false).unwrap(),
            GuessPool::Consistent,
            None,
        ),
        (
            Rules::new(3, "012345", false, false).unwrap(),
            GuessPool::All,
            None,
        ),
        (
            Rules::new(3, "0123456789", false, false).unwrap(),
            GuessPool::All,
            Some(6),
        ),
        (
            Rules::new(3, "012345", false, true).unwrap(),
            GuessPool::All,
            None,
        ),
    ];
    for (rules, pool, max_depth) in games {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let options = SearchOptions::new(Objective::Average)
            .with_guesses(pool)
            .with_max_depth(max_depth);
        let ((joined_tree, joined_stats), (tree, stats)) =
            joined_and_searched(&space, &options, &first_level());
        assert_eq!(joined_stats, stats, "{rules} {pool:?} {max_depth:?}");
        assert_eq!(joined_tree, tree, "{rules} {pool:?} {max_depth:?}");
    }
}

#[test]
fn an_impossible_depth_is_proven_by_the_join() {
    let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
    let options = SearchOptions::new(Objective::Average).with_max_depth(Some(3));
    // A depth limit keeps the split at the first level, whatever the share.
    let (split, joined) = split_and_join(&space, &options, &all_deeper());
    assert!(split.deeper.is_empty());
    assert!(matches!(joined, Joined::Impossible { max_depth: 3 }));
}

#[test]
fn results_of_another_split_or_missing_ones_are_refused() {
    let space = CodeSpace::new(Rules::new(3, "1234", true, false).unwrap()).unwrap();
    let (a, jobs) = Split::plan(&space, &SearchOptions::default(), &first_level()).unwrap();
    let options = SearchOptions::default().with_guesses(GuessPool::Consistent);
    let (b, other_jobs) = Split::plan(&space, &options, &first_level()).unwrap();
    assert_ne!(a.fingerprint, b.fingerprint);
    let foreign = other_jobs[0]
        .solve(&Progress::new(), &Stop::never())
        .unwrap();
    assert!(matches!(
        a.check_result(0, &foreign),
        Err(SplitError::OtherSplit { .. })
    ));
    assert!(!jobs[0].is_answered_by(&foreign));
    let mut results: Vec<Option<JobResult>> = vec![None; jobs.len()];
    results[1] = Some(jobs[1].solve(&Progress::new(), &Stop::never()).unwrap());
    match a.join(&results) {
        Err(SplitError::Missing { missing, jobs: n }) => {
            assert_eq!(n, jobs.len());
            assert_eq!(missing.len(), jobs.len() - 1);
            assert!(!missing.contains(&1));
        }
        other => panic!("expected the missing jobs, got {other:?}"),
    }
    let mut edited: serde_json::Value = serde_json::from_str(&a.to_json()).unwrap();
    edited["max_depth"] = 9.into();
    assert!(matches!(
        Split::from_json(&edited.to_string()),
        Err(SplitError::Malformed { .. })
    ));
    assert_eq!(Split::from_json(&a.to_json()).unwrap(), a);
}

#[test]
fn joined_worst_case_trees_match_the_searchs_trees() {
    let games = [
        (Rules::new(3, "1234", true, false).unwrap(), None),
        (Rules::new(3, "012345", false, false).unwrap(), None),
        (Rules::new(3, "0123456789", false, true).unwrap(), None),
        (Rules::new(3, "0123456789", false, false).unwrap(), Some(7)),
        (Rules::new(4, "123456", true, false).unwrap(), None),
    ];
    for (rules, max_depth) in games {
        let space = CodeSpace::new(rules.clone()).unwrap();
        for objective in [Objective::Worst, Objective::FewestWorst] {
            let options = SearchOptions::new(objective).with_max_depth(max_depth);
            let ((joined_tree, joined_stats), (tree, stats)) =
                joined_and_searched(&space, &options, &all_deeper());
            let what = format!("{rules} {objective:?} {max_depth:?}");
            assert_eq!(
                (joined_stats.max, joined_stats.total),
                (stats.max, stats.total),
                "{what}"
            );
            // The fewest at worst leaves few ties, and the join breaks them as the search
            // does; the worst case may break its many ties otherwise (see the module).
            if objective == Objective::FewestWorst {
                assert_eq!(joined_stats, stats, "{what}");
                assert_eq!(joined_tree, tree, "{what}");
            }
        }
    }
}

#[test]
fn an_impossible_worst_case_is_proven_by_the_join() {
    let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
    for objective in [Objective::Worst, Objective::FewestWorst] {
        let options = SearchOptions::new(objective).with_max_depth(Some(3));
        let (_, joined) = split_and_join(&space, &options, &all_deeper());
        assert!(matches!(joined, Joined::Impossible { max_depth: 3 }));
    }
}

#[test]
fn a_false_count_at_the_worst_depth_is_refused() {
    let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
    let options = SearchOptions::new(Objective::FewestWorst);
    let (split, jobs) = Split::plan(&space, &options, &first_level()).unwrap();
    let mut results: Vec<Option<JobResult>> = jobs
        .iter()
        .map(|job| Some(job.solve(&Progress::new(), &Stop::never()).unwrap()))
        .collect();
    let Joined::Found { stats, .. } = split.join(&results).unwrap() else {
        panic!("the join finds a tree");
    };
    // Move one secret of a part from the worst depth up a level in its claim only.
    let worst = stats.max as usize;
    let edited = results.iter_mut().flatten().any(|r| {
        let PartOutcome::Depths { columns } = &mut r.outcome else {
            return false;
        };
        let Some(c) = columns.iter_mut().find(|c| c.depth as usize == worst - 1) else {
            return false;
        };
        if c.at_limit() == 0 {
            return false;
        }
        c.histogram[worst - 2] -= 1;
        c.histogram[worst - 3] += 1;
        true
    });
    assert!(edited);
    assert!(matches!(
        split.join(&results),
        Err(SplitError::DisagreeWorst { .. })
    ));
}

#[test]
fn absurd_depth_columns_are_refused() {
    let space = CodeSpace::new(Rules::new(3, "1234", true, false).unwrap()).unwrap();
    let (split, jobs) =
        Split::plan(&space, &SearchOptions::new(Objective::Worst), &all_deeper()).unwrap();
    let results: Vec<Option<JobResult>> = jobs
        .iter()
        .map(|job| Some(job.solve(&Progress::new(), &Stop::never()).unwrap()))
        .collect();
    for depth in [0, u32::MAX] {
        let mut edited = results.clone();
        let Some(Some(r)) = edited.first_mut() else {
            panic!("a result");
        };
        let PartOutcome::Depths { columns } = &mut r.outcome else {
            panic!("a worst-case job answers with depth columns");
        };
        columns[0].depth = depth;
        assert!(
            matches!(split.join(&edited), Err(SplitError::Mismatch { .. })),
            "{depth}"
        );
    }
}

#[test]
fn ranges_are_compact() {
    assert_eq!(ranges(&[0, 1, 2, 3, 7, 9, 10]), "0-3, 7, 9-10");
    assert_eq!(ranges(&[4]), "4");
}

/// Games small enough to split every part deeper in a unit test.
fn deeper_games() -> Vec<(Rules, GuessPool)> {
    vec![
        (
            Rules::new(3, "0123456789", false, false).unwrap(),
            GuessPool::All,
        ),
        (Rules::new(3, "12345", true, false).unwrap(), GuessPool::All),
        (
            Rules::new(3, "012345", false, true).unwrap(),
            GuessPool::All,
        ),
        (
            Rules::new(3, "1234", true, false).unwrap(),
            GuessPool::Consistent,
        ),
    ]
}

#[test]
fn deeper_joined_trees_are_the_searchs_trees() {
    for (rules, pool) in deeper_games() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let options = SearchOptions::new(Objective::Average).with_guesses(pool);
        let ((joined_tree, joined_stats), (tree, stats)) =
            joined_and_searched(&space, &options, &all_deeper());
        assert_eq!(joined_stats, stats, "{rules} {pool:?}");
        assert_eq!(joined_tree, tree, "{rules} {pool:?}");
    }
}

/// Round 1 of Bulls and Cows 3 of 0-9 with every part deeper, solved, and its split.
fn deeper_round_one() -> (Split, Vec<Option<JobResult>>) {
    let space = CodeSpace::new(Rules::new(3, "0123456789", false, false).unwrap()).unwrap();
    let (split, jobs) = Split::plan(&space, &SearchOptions::default(), &all_deeper()).unwrap();
    assert!(!split.deeper.is_empty());
    assert!(jobs.iter().all(|j| j.check(&split).is_ok()));
    let results = solve_all(&jobs);
    (split, results)
}

#[test]
fn rounds_are_derived_again_alike_and_resume_where_they_stopped() {
    let (split, mut results) = deeper_round_one();
    let Joined::Round { round: 2, jobs, .. } = split.join(&results).unwrap() else {
        panic!("round 1 of a deeper split leads to round 2");
    };
    let Joined::Round { jobs: again, .. } = split.join(&results).unwrap() else {
        panic!("joined again, the same round");
    };
    assert_eq!(jobs, again);
    assert!(jobs.iter().all(|j| j.check(&split).is_ok()));
    assert!(jobs.iter().all(|j| j.entry.index >= split.jobs.len()));
    let second = solve_all(&jobs);
    // Half of round 2 in: the join names the rest, as for round 1.
    let half = jobs.len() / 2;
    results.extend(second[..half].iter().cloned());
    results.extend(vec![None; jobs.len() - half]);
    match split.join(&results) {
        Err(SplitError::Missing { missing, jobs: n }) => {
            assert_eq!(missing.len(), jobs.len() - half);
            assert_eq!(n, split.jobs.len() + jobs.len());
        }
        other => panic!("expected round 2's missing jobs, got {other:?}"),
    }
    results.truncate(split.jobs.len());
    results.extend(second);
    // The later rounds, each written by the join once the one before is in.
    let mut reported = 0;
    let tree = loop {
        match split.join(&results).unwrap() {
            Joined::Round {
                round,
                jobs,
                standing,
            } => {
                assert!(round > 2);
                assert_eq!(jobs[0].entry.index, results.len());
                assert_settled_as_solved_whole(&split, &standing.settled);
                reported += standing.settled.len();
                results.extend(solve_all(&jobs));
            }
            Joined::Found { tree, .. } => break tree,
            Joined::Impossible { .. } => panic!("every round in: the tree"),
        }
    };
    assert!(reported > 0, "some part settles before the last round");
    let Joined::Found { tree: again, .. } = split.join(&results).unwrap() else {
        panic!("joined again: the same tree");
    };
    assert_eq!(tree, again);
}

/// Checks each part a round reports settled against its optimum solved whole by one job, and
/// that the report lists them in the manifest's order.
fn assert_settled_as_solved_whole(split: &Split, settled: &[SettledPart]) {
    let order: Vec<usize> = settled
        .iter()
        .map(|s| split.deeper.iter().position(|d| *d == s.part).unwrap())
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    for s in settled {
        assert_eq!(s.total, solved_whole(split, &s.part), "{:?}", s.part);
    }
}

/// A part's optimum, solved whole by one job.
fn solved_whole(split: &Split, part: &DeepPart) -> u64 {
    solved_whole_with(split, part).0
}

/// A part's optimum, solved whole, and the second guess of its optimal subtree.
fn solved_whole_with(split: &Split, part: &DeepPart) -> (u64, String) {
    let job = split.job(JobEntry {
        index: 0,
        guess: part.guess.clone(),
        feedback: part.feedback.clone(),
        size: part.size,
        task: Task::Part,
    });
    let whole = job.solve(&Progress::new(), &Stop::never()).unwrap();
    let PartOutcome::Solved { total, tree, .. } = whole.outcome else {
        panic!("a part solved whole has an optimum");
    };
    (total, split.rules.format_code(&tree.root().guess))
}

/// An open part's guesses left: each below its best subtree, the least bound first and that
/// bound the part's; and while the best subtree is not optimal, the optimal second guess among
/// them, proven no more than the optimum.
fn assert_open_guesses(o: &OpenPart, optimum: u64, second: &str) {
    let lowers: Vec<u64> = o.guesses.iter().map(|g| g.lower).collect();
    assert!(lowers.is_sorted(), "{o:?}");
    assert!(
        lowers.iter().all(|&l| o.upper.is_none_or(|u| l < u)),
        "{o:?}"
    );
    match lowers.first() {
        Some(&least) => assert_eq!(least, o.lower, "{o:?}"),
        None => assert!(o.upper.is_some_and(|u| o.lower >= u), "{o:?}"),
    }
    if o.upper.is_none_or(|u| optimum < u) {
        let left = o.guesses.iter().find(|g| g.guess == second);
        assert!(left.is_some_and(|g| g.lower <= optimum), "{second}: {o:?}");
    }
}

#[test]
fn standings_bound_the_optimum_from_both_sides_and_close_on_it() {
    let space = CodeSpace::new(Rules::new(3, "0123456789", false, false).unwrap()).unwrap();
    let (split, jobs) = Split::plan(&space, &SearchOptions::default(), &all_deeper()).unwrap();
    let optima: Vec<(u64, String)> = split
        .deeper
        .iter()
        .map(|d| solved_whole_with(&split, d))
        .collect();
    let mut lowers = Vec::new();
    let mut uppers = Vec::new();
    // Each standing: the settled parts at their optima, the open ones bounded by theirs from
    // below and (once a subtree is found) above, the whole game's bound what they add up to
    // with one guess per secret, and its best strategy so far a tree of the total it claims.
    let mut check = |standing: &Standing, results: &[Option<JobResult>]| {
        assert_settled_as_solved_whole(&split, &standing.settled);
        let mut sum = space.len() as u64;
        for (d, (optimum, second)) in split.deeper.iter().zip(&optima) {
            let settled = standing.settled.iter().find(|s| s.part == *d);
            let open = standing.open.iter().find(|o| o.part == *d);
            match (settled, open) {
                (Some(s), None) => sum += s.total,
                (None, Some(o)) => {
                    assert!(o.lower <= *optimum, "{d:?}: {} > {optimum}", o.lower);
                    assert!(o.upper.is_none_or(|u| u >= *optimum), "{d:?}: {o:?}");
                    assert_open_guesses(o, *optimum, second);
                    sum += o.lower;
                }
                _ => panic!("{d:?} is either settled or open"),
            }
        }
        assert_eq!(standing.lower, Some(sum));
        lowers.push(sum);
        let (again, strategy) = split.standing_with_strategy(results).unwrap();
        assert_eq!(&again, standing);
        assert_eq!(strategy.map(|(_, stats)| stats.total), standing.upper);
        uppers.extend(standing.upper);
    };
    // Each round twice: with half of its results in, then all of them.
    let (mut results, mut round) = (Vec::new(), jobs);
    let total = loop {
        let solved = solve_all(&round);
        let (start, half) = (results.len(), round.len() / 2);
        results.extend(solved[..half].iter().cloned());
        results.resize(start + round.len(), None);
        check(&split.standing(&results).unwrap(), &results);
        results.truncate(start);
        results.extend(solved);
        match split.join(&results).unwrap() {
            Joined::Round { jobs, standing, .. } => {
                check(&standing, &results);
                assert_eq!(split.standing(&results).unwrap(), standing);
                round = jobs;
            }
            Joined::Found { stats, .. } => break stats.total,
            Joined::Impossible { .. } => panic!("every round in: the tree"),
        }
    };
    let last = split.standing(&results).unwrap();
    assert!(last.open.is_empty());
    check(&last, &results);
    assert_eq!((last.lower, last.upper), (Some(total), Some(total)));
    assert!(lowers.windows(2).all(|w| w[0] <= w[1]), "{lowers:?}");
    assert!(lowers[0] < total, "{lowers:?}");
    assert!(lowers.len() > 4, "{lowers:?}");
    // The best strategy so far falls to the optimum, from above it before the last round.
    assert!(uppers.windows(2).all(|w| w[0] >= w[1]), "{uppers:?}");
    assert!(uppers.len() > 4 && uppers[0] > total, "{uppers:?} {total}");
}

/// Every round of Bulls and Cows 3 of 0-9 with every part deeper, solved, and its split.
fn deeper_all_rounds() -> (Split, Vec<Option<JobResult>>) {
    let (split, mut results) = deeper_round_one();
    while let Joined::Round { jobs, .. } = split.join(&results).unwrap() {
        results.extend(solve_all(&jobs));
    }
    (split, results)
}

/// Checks that the join refuses `edited` results as not what it derives or asked.
fn refused(split: &Split, edited: &[Option<JobResult>]) {
    let joined = split.join(edited);
    assert!(
        matches!(joined, Err(SplitError::Mismatch { .. })),
        "{:?}",
        joined.map(|_| "a join")
    );
}

#[test]
fn tampered_deeper_results_are_refused() {
    let (split, results) = deeper_all_rounds();
    let first = split.jobs.len();
    let refused = |edited: &[Option<JobResult>]| refused(&split, edited);
    // A later round's result that answers another spare than the join derives.
    let mut edited = results.clone();
    let bounded = (first..edited.len())
        .find(|&i| {
            matches!(
                edited[i].as_ref().map(|r| &r.entry.task),
                Some(Task::Pieces { spare: Some(_), .. })
            )
        })
        .expect("a later round has bounded pieces");
    let Some(Some(r)) = edited.get_mut(bounded) else {
        unreachable!()
    };
    let Task::Pieces {
        spare: Some(spare), ..
    } = &mut r.entry.task
    else {
        unreachable!()
    };
    *spare += 1;
    refused(&edited);
    // A later round's result claiming a lower bound under its own bound.
    let mut edited = results.clone();
    let Some(Some(r)) = edited.get_mut(bounded) else {
        unreachable!()
    };
    r.outcome = PartOutcome::Pieces {
        pieces: vec![PartOutcome::AtLeast { bound: 0 }],
    };
    refused(&edited);
    // Pieces that claim no guesses at all, against their own histograms: refused before they
    // can steer the choice of guess (whose losers' trees are never replayed).
    let mut edited = results.clone();
    for r in edited.iter_mut().flatten() {
        if let PartOutcome::Pieces { pieces } = &mut r.outcome {
            for p in pieces {
                if let PartOutcome::Solved { total, .. } = p {
                    *total = 0;
                }
            }
        }
    }
    refused(&edited);
}

#[test]
fn tampered_runs_of_later_guesses_are_refused() {
    let (split, results) = deeper_all_rounds();
    let first = split.jobs.len();
    let refused = |edited: &[Option<JobResult>]| refused(&split, edited);
    // Another bound than the join derives, a lower bound under it, a tree at its bound, other
    // guesses than it derives.
    let run = |r: &JobResult| matches!(r.entry.task, Task::Guesses { .. });
    let solved_run = (first..results.len())
        .find(|&i| {
            results[i]
                .as_ref()
                .is_some_and(|r| run(r) && matches!(r.outcome, PartOutcome::Solved { .. }))
        })
        .expect("a run of later guesses finds a tree");
    let edit = |change: &dyn Fn(&mut JobResult)| {
        let mut edited = results.clone();
        if let Some(Some(r)) = edited.get_mut(solved_run) {
            change(r);
        }
        refused(&edited);
    };
    edit(&|r| {
        if let Task::Guesses { below, .. } = &mut r.entry.task {
            *below += 1;
        }
    });
    edit(&|r| {
        let Task::Guesses { below, .. } = r.entry.task else {
            unreachable!()
        };
        r.outcome = PartOutcome::AtLeast { bound: below - 1 };
    });
    edit(&|r| {
        let Task::Guesses { below, .. } = r.entry.task else {
            unreachable!()
        };
        if let PartOutcome::Solved {
            total, histogram, ..
        } = &mut r.outcome
        {
            // The same total as the histogram, at the bound.
            histogram[0] += below - *total;
            *total = below;
        }
    });
    edit(&|r| {
        if let Task::Guesses { guesses, .. } = &mut r.entry.task {
            let first = guesses[0].clone();
            guesses.retain(|g| *g != first);
        }
    });
}

#[test]
fn runs_cover_the_later_guesses_in_order_by_weight() {
    // Lower bounds rising towards the bound of 100: the first guesses weigh the most.
    let later: Vec<(u32, u64)> = (0..40).map(|g| (g, 60 + u64::from(g))).collect();
    for count in [1, 2, 5, 40, 100] {
        let cut = super::deeper::runs(&later, 100, count);
        assert!(
            cut.len() <= count && !cut.is_empty(),
            "{count}: {}",
            cut.len()
        );
        let joined: Vec<(u32, u64)> = cut.concat();
        assert_eq!(joined, later, "every guess once, in order");
        if count == 5 {
            let lens: Vec<usize> = cut.iter().map(|r| r.len()).collect();
            assert!(lens[0] < lens[4], "{lens:?}");
        }
    }
    assert!(super::deeper::runs(&[], 100, 3).is_empty());
}
