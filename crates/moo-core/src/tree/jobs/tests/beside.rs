//! Runs of later guesses below the trees their position's other runs found: the same tree,
//! and a lowered bound without such a tree beside it refused.

use super::*;

/// Solves a round's `jobs` in `space` one after another, forwards or backwards, each run of
/// later guesses below the trees its position's runs solved before it found, as `moo tree job`
/// in a jobs' directory is.
fn solve_beside(space: &CodeSpace, jobs: &[Job], backwards: bool) -> Vec<Option<JobResult>> {
    let mut done: Vec<Option<JobResult>> = vec![None; jobs.len()];
    let mut order: Vec<usize> = (0..jobs.len()).collect();
    if backwards {
        order.reverse();
    }
    for i in order {
        let job = Job::from_json(&jobs[i].to_json()).unwrap();
        let ceiling = Ceiling::new();
        for r in done.iter().flatten() {
            if let Some(bound) = job.bound_from(r) {
                ceiling.lower(bound);
            }
        }
        let result = job
            .solve_under(space, &Progress::new(), &Stop::never(), None, &ceiling)
            .unwrap();
        done[i] = Some(JobResult::from_json(&result.to_json()).unwrap());
    }
    done
}

/// Bulls and Cows 4 of 0-7, whose parts above a tenth of the run go deeper: small enough for a
/// unit test, large enough that some positions have several runs of later guesses.
fn several_runs() -> (CodeSpace, SplitOptions) {
    let space = exact_space(Rules::new(4, "01234567", false, false).unwrap()).unwrap();
    (space, SplitOptions::default().with_share(Some(0.1)))
}

/// Every round of the split of [`several_runs`], solved by [`solve_beside`].
fn all_rounds_beside(backwards: bool) -> (Split, Vec<Option<JobResult>>) {
    let (space, how) = several_runs();
    let (split, jobs) = Split::plan(&space, &SearchOptions::default(), &how).unwrap();
    let mut results = solve_beside(&space, &jobs, backwards);
    while let Joined::Round { jobs, .. } = split.join(&results).unwrap() {
        results.extend(solve_beside(&space, &jobs, backwards));
    }
    (split, results)
}

#[test]
fn runs_below_their_positions_other_trees_join_to_the_searchs_trees() {
    let (space, _) = several_runs();
    let options = SearchOptions::default();
    let SearchOutcome::Found(single) = Search::whole(&space).options(&options).run().unwrap()
    else {
        panic!("the search finds a tree");
    };
    // Backwards, a run that ties a later one's tree must still find its own, the earlier.
    for backwards in [false, true] {
        let (split, results) = all_rounds_beside(backwards);
        let Joined::Found { tree, stats, .. } = split.join(&results).unwrap() else {
            panic!("backwards {backwards}: the join finds a tree");
        };
        assert_eq!(stats, single.stats, "backwards {backwards}");
        // The same tree, node for node (the graft may number its nodes otherwise).
        assert!(
            tree.to_json(false) == single.tree.to_json(false),
            "backwards {backwards}: the search's tree"
        );
        let lowered = results
            .iter()
            .flatten()
            .filter(|r| match (&r.entry.task, &r.outcome, r.tightened) {
                (Task::Guesses { below, .. }, PartOutcome::AtLeast { bound }, Some(_)) => {
                    bound < below
                }
                _ => false,
            })
            .count();
        assert!(
            lowered > 0,
            "backwards {backwards}: some run proves less than its job's bound"
        );
    }
}

#[test]
fn a_lowered_run_without_a_cheaper_tree_beside_it_is_refused() {
    let (split, results) = all_rounds_beside(false);
    let refused = |edited: &[Option<JobResult>]| refused(&split, edited);
    let total = |r: &JobResult| match r.outcome {
        PartOutcome::Solved { total, .. } => Some(total),
        _ => None,
    };
    // The cheapest tree of a position's runs, and another run of it.
    let (cheapest, other) = results
        .iter()
        .flatten()
        .find_map(|s| {
            let t = total(s)?;
            let job = split.job(s.entry.clone());
            let beside: Vec<&JobResult> = results
                .iter()
                .flatten()
                .filter(|r| job.is_run_beside(&r.entry))
                .collect();
            let least = beside.iter().all(|r| total(r).is_none_or(|u| u > t));
            let other = beside.first().filter(|_| least)?;
            Some((t, other.entry.index))
        })
        .expect("a position has several runs, one with the cheapest tree");
    // Another run claims it ran under the cheapest tree's total and found nothing below it:
    // but nothing beside it beats that bound.
    let mut edited = results.clone();
    let r = edited[other].as_mut().unwrap();
    r.tightened = Some(cheapest);
    r.outcome = PartOutcome::AtLeast { bound: cheapest };
    refused(&edited);
    // A bound not below its job's, or on a job that is not a run.
    let mut edited = results.clone();
    let r = edited[other].as_mut().unwrap();
    if let Task::Guesses { below, .. } = r.entry.task {
        r.tightened = Some(below);
    }
    refused(&edited);
    let mut edited = results.clone();
    edited[0].as_mut().unwrap().tightened = Some(1);
    refused(&edited);
}
