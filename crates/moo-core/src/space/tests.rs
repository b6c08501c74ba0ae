//! The code space's tests: enumeration and ranks, the score table against direct and packed
//! scoring at every kernel level, memory limits, partitions.

use super::*;
use crate::rules::games;

#[test]
fn enumeration_is_sorted_valid_and_complete() {
    for rules in crate::rules::every_kind() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        assert_eq!(space.len() as u128, rules.space_size());
        assert!(space.codes().windows(2).all(|w| w[0] < w[1]));
        for (i, c) in space.codes().iter().enumerate() {
            assert!(rules.check_code(c).is_ok());
            assert_eq!(space.index_of(c), Some(i));
        }
    }
    let space = CodeSpace::new(Rules::bulls()).unwrap();
    assert_eq!(Rules::bulls().format_code(&space.code(0)), "0123");
    assert_eq!(Rules::bulls().format_code(&space.code(5039)), "9876");
}

#[test]
fn rank_is_the_index() {
    for rules in crate::rules::every_kind() {
        let space = CodeSpace::new(rules).unwrap();
        for (i, c) in space.codes().iter().enumerate() {
            assert_eq!(space.rank(c), i, "{c:?}");
        }
    }
}

#[test]
fn score_table_is_every_pair_scored() {
    // With a table and without one (packed codes): each entry is that pair's own score.
    let tabled = CodeSpace::new(Rules::mastermind()).unwrap();
    let packed = CodeSpace::with_options(
        Rules::new(5, "0123456789", false, false).unwrap(),
        &SpaceOptions::default().with_table_bytes(0),
    )
    .unwrap();
    for space in [tabled, packed] {
        let guesses: Vec<u32> = (0..space.len() as u32).step_by(37).collect();
        let secrets: Vec<u32> = (0..space.len() as u32).rev().step_by(11).collect();
        let mut out = vec![0u8; guesses.len() * secrets.len()];
        space.score_table(&guesses, &secrets, &mut out);
        for (i, &g) in guesses.iter().enumerate() {
            for (j, &s) in secrets.iter().enumerate() {
                let direct = space.code(g as usize).score(&space.code(s as usize));
                let entry = usize::from(out[i * secrets.len() + j]);
                assert_eq!(entry, direct.index(space.length()), "{g} against {s}");
            }
        }
    }
}

#[test]
fn packed_scoring_matches_direct_scoring() {
    // Spaces without a table score from packed codes; compare a spread of pairs.
    for rules in games(
        "5 0123456789, 5 0123456789 no-leading, 5 12345678 repeats, 6 012345678 repeats no-leading",
    ) {
        let space = CodeSpace::new(rules).unwrap();
        assert!(!space.has_table());
        let n = space.len();
        for g in (0..n).step_by(997) {
            for s in (0..n).step_by(113) {
                let direct = space.code(g).score(&space.code(s)).index(space.length());
                assert_eq!(usize::from(space.score_index(g, s)), direct);
            }
        }
        let all = space.all();
        let fb = space.score(7, n / 2);
        let kept = space.filter(&all, 7, fb);
        let plain = all.filter(|s| space.code(7).score(&space.code(s)) == fb);
        assert_eq!(kept, plain);
        let mut counts = [0u32; 256];
        space.partition_counts(7, &all, &mut counts);
        assert_eq!(counts[fb.index(space.length())] as usize, kept.len());
    }
}

/// Every kernel level this CPU runs scores packed codes, scattered and gathered, as
/// [`Code::score`] does, for distinct and repeated symbols and 4 to 6 positions.
#[test]
fn packed_scoring_matches_direct_scoring_at_every_level() {
    for rules in games(
        "4 0123456789, 5 0123456789 no-leading, 4 123456 repeats, 6 012345678 repeats no-leading",
    ) {
        let space =
            CodeSpace::with_options(rules.clone(), &SpaceOptions::default().with_table_bytes(0))
                .unwrap();
        let n = space.len();
        let at: Vec<u32> = (0..n as u32).step_by(7).collect();
        let gathered = space.gather(&at).expect("packed codes gather");
        let length = space.length() as u32;
        for level in crate::Kernel::supported()
            .into_iter()
            .map(|k| Level::new(k).unwrap())
        {
            for g in (0..n).step_by(n / 37 + 1) {
                let want: Vec<u8> = at
                    .iter()
                    .map(|&s| {
                        space
                            .code(g)
                            .score(&space.code(s as usize))
                            .index(space.length()) as u8
                    })
                    .collect();
                let (mut scattered, mut from_gathered) = (vec![0; at.len()], vec![0; at.len()]);
                match (&space.packed, &gathered) {
                    (Packed::Distinct(p), Gathered::Distinct(positions, masks)) => {
                        distinct_feedbacks(level, p[g], p, &at, length, &mut scattered);
                        distinct_gathered(
                            level,
                            p[g],
                            positions,
                            masks,
                            length,
                            &mut from_gathered,
                        );
                    }
                    (Packed::Repeats(p), Gathered::Repeats(positions, counts)) => {
                        counted_feedbacks(level, &p[g], p, &at, length, &mut scattered);
                        counted_gathered(
                            level,
                            &p[g],
                            positions,
                            counts,
                            length,
                            &mut from_gathered,
                        );
                    }
                    _ => panic!("{} packs its codes", rules.describe()),
                }
                assert_eq!(
                    scattered,
                    want,
                    "{level:?}, {}, guess {g}",
                    rules.describe()
                );
                assert_eq!(
                    from_gathered,
                    want,
                    "{level:?}, {}, guess {g}",
                    rules.describe()
                );
            }
        }
    }
}

#[test]
fn the_table_follows_the_memory_allowed() {
    let options = SpaceOptions::default();
    assert!(options.builds_table(TABLE_MAX_CODES));
    assert!(!options.builds_table(TABLE_MAX_CODES + 1));
    let large = options.with_table_bytes(u64::MAX);
    assert!(large.builds_table(TABLE_LIMIT_CODES));
    assert!(!large.builds_table(TABLE_LIMIT_CODES + 1));
    assert!(!options.with_table_bytes(0).builds_table(1));
    let none = CodeSpace::with_options(Rules::bulls(), &options.with_table_bytes(0)).unwrap();
    assert!(!none.has_table());
    assert!(CodeSpace::new(Rules::bulls()).unwrap().has_table());
}

#[test]
fn a_table_beyond_the_default_scores_like_packed_codes() {
    // 5 of 0-8: 15120 codes, a 229 MB table, more than the default allows.
    let rules = Rules::new(5, "012345678", false, false).unwrap();
    let packed = CodeSpace::new(rules.clone()).unwrap();
    let options = SpaceOptions::default().with_table_bytes(1 << 28);
    let table = CodeSpace::with_options(rules, &options).unwrap();
    assert!(!packed.has_table() && table.has_table() && !table.rows_in_cache());
    let n = table.len();
    for g in (0..n).step_by(211) {
        for s in (0..n).step_by(17) {
            assert_eq!(table.score_index(g, s), packed.score_index(g, s));
        }
    }
    // The heuristics still score packed codes; both spaces give them the same answers.
    let first = table.code(0);
    let fb = table.score(0, n / 3);
    let mut history = crate::History::new();
    history.push(first, fb);
    let candidates = table.filter(&table.all(), 0, fb);
    assert_eq!(candidates, packed.filter(&packed.all(), 0, fb));
    let strategy = crate::strategy::PartitionStrategy::new(
        crate::strategy::PartitionScore::Entropy,
        crate::strategy::GuessPool::All,
    );
    let best = |space: &CodeSpace| {
        strategy.best(&crate::strategy::Knowledge::new(
            space,
            &history,
            &candidates,
        ))
    };
    assert_eq!(best(&table), best(&packed));
}

#[test]
fn table_matches_direct_scoring() {
    let space = CodeSpace::new(Rules::mastermind()).unwrap();
    assert!(space.has_table());
    for g in (0..space.len()).step_by(7) {
        for s in 0..space.len() {
            assert_eq!(space.score(g, s), space.code(g).score(&space.code(s)));
        }
    }
}

/// Every row of the score table and of its compact copy starts on a cache line and holds
/// the row's scores, for a row length that is a multiple of 64 (512 codes) and three that
/// are not; a clone, whose buffer is placed anew, still holds every row.
#[test]
fn rows_start_on_cache_lines_and_hold_the_scores() {
    for rules in games("mastermind, 4 0123456789 no-leading, 3 01234567, 3 01234567 repeats") {
        let space = CodeSpace::new(rules).unwrap();
        let n = space.len();
        let compact = space
            .compact_table()
            .expect("a small table gets a compact copy");
        let clone = space.clone();
        for g in (0..n).step_by(37).chain([n - 1]) {
            let row = space.score_row(g).unwrap();
            let small = compact.row(g);
            assert_eq!((row.len(), small.len()), (n, n));
            assert_eq!(row.as_ptr() as usize % 64, 0, "{n} codes, row {g}");
            assert_eq!(small.as_ptr() as usize % 64, 0, "{n} codes, row {g}");
            for s in 0..n {
                let direct = space.code(g).score(&space.code(s)).index(space.length());
                assert_eq!(usize::from(row[s]), direct);
                assert_eq!(compact.feedbacks()[usize::from(small[s])], row[s]);
                assert_eq!(clone.score_index(g, s), row[s]);
                assert_eq!(clone.score_row(g).unwrap()[s], row[s]);
            }
        }
    }
}

#[test]
fn too_large_spaces_are_refused_with_the_limit() {
    let rules = Rules::new(12, "0123456789", true, false).unwrap();
    let err = CodeSpace::new(rules).unwrap_err();
    assert_eq!(
        err,
        SpaceError::TooLarge {
            size: 1_000_000_000_000,
            limit: MAX_CODES
        }
    );
    assert!(err.to_string().contains("1000000000000 codes"));
}

#[test]
fn partition_covers_the_set() {
    let space = CodeSpace::new(Rules::bulls()).unwrap();
    let all = space.all();
    let parts = space.partition(0, &all);
    assert_eq!(parts.iter().map(|(_, p)| p.len()).sum::<usize>(), 5040);
    // The classic first-guess partition of Bulls and Cows: 14 feedbacks, largest 0B1C with 1440 (one common symbol, misplaced).
    assert_eq!(parts.len(), 14);
    let largest = parts.iter().max_by_key(|(_, p)| p.len()).unwrap();
    assert_eq!((largest.0, largest.1.len()), (Feedback::new(0, 1), 1440));
    let mut counts = [0u32; 25];
    space.partition_counts(0, &all, &mut counts);
    for (f, p) in &parts {
        assert_eq!(counts[f.index(4)] as usize, p.len());
    }
}
