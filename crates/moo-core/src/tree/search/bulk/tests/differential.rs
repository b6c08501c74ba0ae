//! Every kernel level against a plain reference written here, over random games: feedback sets
//! of 1 to 32 indexes (under and over 16, spread or packed, the winning one anywhere), sets of 1
//! to [`MAX_SET`] members, guess counts that end in full and partial blocks, and random level
//! thresholds and bound rules. The reference is counting guess by guess, as the search did
//! before the bulk passes; a disagreement names the level.

use proptest::prelude::*;
use rand::{Rng, SeedableRng};

use super::{levels, Expected};
use crate::tree::search::bulk::*;

/// One random game and set, as the bulk passes see them.
#[derive(Debug, Clone)]
struct Case {
    /// The feedback indexes that occur, increasing.
    feedbacks: Vec<u8>,
    /// The winning one's position in `feedbacks`.
    win: usize,
    /// The level thresholds (a multiset, increasing).
    thresholds: Vec<u8>,
    /// Members of the set.
    members: usize,
    /// Guesses (the length of each score row).
    guesses: usize,
    /// How many of the feedbacks the members' rows draw from (few: guesses that teach nothing).
    drawn: usize,
    /// The rows' seed.
    seed: u64,
    /// The last threshold of a weighted objective, if any.
    last: Option<u8>,
    /// The bound rule's weight, winning cost and largest part.
    weight: u32,
    win_cost: u32,
    largest: u8,
}

impl Case {
    /// The members' score rows.
    fn rows(&self) -> Vec<Vec<u8>> {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(self.seed);
        (0..self.members)
            .map(|_| {
                (0..self.guesses)
                    .map(|_| self.feedbacks[rng.gen_range(0..self.drawn)])
                    .collect()
            })
            .collect()
    }

    /// The level-filling totals of the thresholds: a part of `c` costs the sum of `c - k` over
    /// the thresholds `k` below `c`.
    fn lb(&self) -> Vec<u32> {
        (0..=MAX_SET as u32 + 1)
            .map(|c| {
                self.thresholds
                    .iter()
                    .map(|&k| c.saturating_sub(u32::from(k)))
                    .sum()
            })
            .collect()
    }
}

/// Feedback indexes below `max`, 1 to 32 of them; the winning one; thresholds; the rest.
fn cases(max: u8) -> impl Strategy<Value = Case> {
    let all: Vec<u8> = (0..max).collect();
    (1usize..=32)
        .prop_flat_map(move |f| proptest::sample::subsequence(all.clone(), f.min(all.len())))
        .prop_flat_map(|feedbacks| {
            let f = feedbacks.len();
            (
                Just(feedbacks),
                0..f,
                proptest::collection::vec(0u8..24, 1..=8),
                1usize..=MAX_SET,
                1usize..=3 * BLOCK + 1,
                1..=f,
                any::<u64>(),
                proptest::option::of(0u8..8),
                (0u32..4, 0u32..=1, any::<u8>()),
            )
        })
        .prop_map(
            |(feedbacks, win, mut thresholds, members, guesses, drawn, seed, last, rule)| {
                thresholds.sort_unstable();
                // Thresholds start at 0: every member pays one guess at least.
                thresholds[0] = 0;
                // Few members often enough that some guesses teach nothing.
                let drawn = if members > 5 { drawn } else { drawn.min(2) };
                Case {
                    feedbacks,
                    win,
                    thresholds,
                    members,
                    guesses,
                    drawn,
                    seed,
                    last,
                    weight: rule.0,
                    win_cost: rule.1,
                    largest: rule.2,
                }
            },
        )
}

/// How guess `g` splits the set, counted plainly: each feedback's part size.
fn counts_of(rows: &[Vec<u8>], feedbacks: &[u8], g: usize) -> Vec<u32> {
    feedbacks
        .iter()
        .map(|&f| rows.iter().filter(|r| r[g] == f).count() as u32)
        .collect()
}

/// Checks every pass at every level against the plain reference.
fn check(case: &Case) -> Result<(), TestCaseError> {
    let rows = case.rows();
    let row_refs: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
    let lb = case.lb();
    let rule = BoundRule {
        n: case.members as u32,
        win: case.win_cost,
        weight: case.weight,
        largest: case.largest,
        none: u32::MAX,
    };
    let want: Vec<Expected> = (0..case.guesses)
        .map(|g| {
            let counts = counts_of(&rows, &case.feedbacks, g);
            Expected::of(&counts, case.win, &lb, case.last, &rule)
        })
        .collect();
    let scores: Vec<u8> = want.iter().map(|w| w.score).collect();
    let bounds: Vec<u32> = want.iter().map(|w| w.bound).collect();
    for level in levels() {
        let splitter = Splitter::new(case.feedbacks.clone(), case.feedbacks[case.win], &lb, level)
            .expect("thresholds of the level form make a splitter");
        let mut splits = Splits::default();
        splitter.split_all(&row_refs, case.guesses, case.last, &mut splits);
        for (g, w) in want.iter().enumerate() {
            prop_assert_eq!(splits.get(g), w.split, "{:?}, guess {}", level, g);
            prop_assert_eq!(splits.excess(g), w.excess, "{:?}, guess {}", level, g);
        }
        let mut got = Vec::new();
        splits.bounds(level, &rule, &mut got);
        prop_assert_eq!(&got, &bounds, "{:?}: bounds", level);
        if splitter.has_bits() {
            // Over a buffer that holds values already, as the search's spares do.
            let mut got = vec![0xAB; 7];
            splitter.part_scores(&row_refs, case.guesses, &mut got);
            prop_assert_eq!(&got, &scores, "{:?}: part scores", level);
        }
        check_marks(level, case.seed, &bounds, &scores)?;
    }
    Ok(())
}

/// The marking passes at `level` against plain filters, at a limit and a score level drawn
/// from `seed`.
fn check_marks(
    level: Level,
    seed: u64,
    bounds: &[u32],
    scores: &[u8],
) -> Result<(), TestCaseError> {
    let limit = bounds[seed as usize % bounds.len()];
    let at = (seed >> 8) as u8 % 8;
    let indexes =
        |keep: &dyn Fn(usize) -> bool| (0..bounds.len()).filter(|&g| keep(g)).collect::<Vec<_>>();
    let mut marks = Vec::new();
    let least = mark_below(level, bounds, limit, &mut marks);
    prop_assert_eq!(
        marked(&marks).collect::<Vec<_>>(),
        indexes(&|g| bounds[g] < limit)
    );
    let others = bounds.iter().copied().filter(|&b| b >= limit);
    prop_assert_eq!(least, others.min().unwrap_or(u32::MAX));
    mark_equal(level, scores, at, &mut marks);
    prop_assert_eq!(
        marked(&marks).collect::<Vec<_>>(),
        indexes(&|g| scores[g] == at)
    );
    let rest = mark_above(level, scores, at, &mut marks);
    prop_assert_eq!(
        marked(&marks).collect::<Vec<_>>(),
        indexes(&|g| scores[g] > at)
    );
    let at_most = scores.iter().copied().filter(|&s| s <= at);
    prop_assert_eq!(rest, at_most.clone().max().unwrap_or(0));
    let top = scores.iter().copied().max().unwrap_or(0);
    prop_assert_eq!(
        highest(level, scores, at),
        (top, at_most.max().unwrap_or(0))
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Feedback indexes below 32: every pass, the part scores included.
    #[test]
    fn every_level_matches_the_reference_below_32(case in cases(32)) {
        check(&case)?;
    }

    /// Feedback indexes up to 254 (below the padding, `u8::MAX`): the counting passes, by
    /// 64-entry lookups on VBMI below 63 and by compares elsewhere.
    #[test]
    fn every_level_matches_the_reference_to_254(case in cases(255)) {
        check(&case)?;
    }
}
