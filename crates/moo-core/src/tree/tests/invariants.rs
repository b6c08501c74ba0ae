//! What changes no tree: an interruption resumed from a checkpoint, the compact table, classes,
//! threads.

use super::*;

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
        let cut_short = std::fs::metadata(&path).unwrap().len();
        let second = Checkpoint::open(&path, &space, &options)
            .unwrap()
            .with_min_set(5);
        assert!(second.loaded() >= 30, "{}", second.loaded());
        assert_eq!(second.damaged(), 1);
        // Resuming writes nothing before its first new fact, so a run on a full disk still
        // reads every fact and finishes (the fresh line the half line needs comes with it).
        assert_eq!(std::fs::metadata(&path).unwrap().len(), cut_short);
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
        // The facts the resumed run appended start on a line of their own: all are read back.
        let (loaded, written) = (second.loaded(), second.written() as usize);
        drop(second);
        let third = Checkpoint::open(&path, &space, &options).unwrap();
        assert_eq!(third.loaded(), loaded + written, "{objective:?}");
        assert_eq!(
            third.damaged(),
            1,
            "{objective:?}: only the half line is damaged"
        );
        // Another search's file is refused.
        let other = SearchOptions::new(objective).with_max_depth(Some(9));
        let err = Checkpoint::open(&path, &space, &other).unwrap_err();
        assert!(err.to_string().contains("another search"), "{err}");
        std::fs::remove_file(&path).unwrap();
    }
}

/// The search reads the compact table where it fits (every game here); on the space's own
/// table, with the feedback indexes as they are, it writes the same trees under every objective.
#[test]
fn compact_table_changes_no_tree() {
    for rules in games("mastermind, 4 0123456, 3 012345 repeats") {
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
    for rules in games("mastermind, 4 0123456, 4 01234567 no-leading, 3 012345 repeats") {
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
    for rules in games("mastermind, 4 0123456, 4 01234567 no-leading, 3 012345 repeats") {
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
