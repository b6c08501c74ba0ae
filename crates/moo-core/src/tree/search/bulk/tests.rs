use super::kernels::*;
use super::or_pass::*;
use super::*;
use crate::rules::games;
use crate::{CodeSpace, Kernel};

mod differential;

/// Every kernel level this CPU can run, lowest first: each test runs them all, so that a
/// machine tests every version it has, not only the one the search would pick.
pub(super) fn levels() -> Vec<Level> {
    Kernel::supported()
        .into_iter()
        .map(|k| Level::new(k).expect("a supported kernel makes a level"))
        .collect()
}

/// Every way of holding the counters (all at once, a few feedbacks at a time, none in
/// registers, or two to a byte in nibbles) counts as a plain loop does, for each number of feedbacks the games have and
/// for full and partial blocks.
#[test]
fn counting_passes_match_a_plain_count() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
    // Feedback indexes as the games spread them (not 0..f, with gaps), and as the compact
    // table numbers them (0..f, below 16, counted by nibbles on AVX2). On VBMI, indexes up
    // to 62 are counted by 64-entry lookups (the largest is 62 in 21 of spread 3), and larger
    // ones (20 of spread 4, up to 79) fall back to compares.
    for (f, spread) in [
        (9usize, 2),
        (14, 2),
        (20, 2),
        (11, 2),
        (14, 1),
        (9, 1),
        (16, 1),
        (25, 2),
        (31, 2),
        (21, 3),
        (20, 4),
    ] {
        let feedbacks: Vec<u8> = (0..f as u8).map(|i| spread * i + spread - 1).collect();
        let rows: Vec<Vec<u8>> = (0..37)
            .map(|_| {
                (0..3 * BLOCK)
                    .map(|_| feedbacks[rng.gen_range(0..f)])
                    .collect()
            })
            .collect();
        let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
        for level in levels() {
            for (start, width) in [(0, BLOCK), (BLOCK, BLOCK), (2 * BLOCK, 23)] {
                let mut counts = vec![Counters([0; BLOCK]); f];
                count_block(level, &rows, start, width, &feedbacks, &mut counts);
                for (k, &fb) in feedbacks.iter().enumerate() {
                    for j in 0..width {
                        let want = rows.iter().filter(|r| r[start + j] == fb).count();
                        let at = format!("{level:?}, {f} feedbacks, {k}, {j}");
                        assert_eq!(usize::from(counts[k].0[j]), want, "{at}");
                    }
                }
            }
        }
    }
}

/// The marks of equal scores are the scores a plain filter finds, in full and partial
/// words, and no bit past the last score.
#[test]
fn equal_scores_are_marked_as_a_filter_finds_them() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut marks = Vec::new();
    for len in [0usize, 1, 63, 64, 65, 127, 128, 4536] {
        let scores: Vec<u8> = (0..len).map(|_| rng.gen_range(0..6)).collect();
        for (kernel, level) in levels()
            .into_iter()
            .flat_map(|k| (0..7).map(move |l| (k, l)))
        {
            mark_equal(kernel, &scores, level, &mut marks);
            assert_eq!(marks.len(), len.div_ceil(64), "{len} scores");
            let marked: Vec<usize> = (0..64 * marks.len())
                .filter(|&j| marks[j / 64] >> (j % 64) & 1 == 1)
                .collect();
            let expected: Vec<usize> = (0..len).filter(|&j| scores[j] == level).collect();
            assert_eq!(marked, expected, "{kernel:?}, {len} scores, level {level}");
            let visited: Vec<usize> = super::marked(&marks).collect();
            assert_eq!(visited, expected, "{kernel:?}, {len} scores, level {level}");
        }
    }
}

/// 37 rows of three blocks of feedback indexes below `f`, drawn from `rng`: the guesses' rows
/// an OR pass reads.
fn random_rows(rng: &mut rand_chacha::ChaCha8Rng, f: u8) -> Vec<Vec<u8>> {
    use rand::Rng;
    (0..37)
        .map(|_| (0..3 * BLOCK).map(|_| rng.gen_range(0..f)).collect())
        .collect()
}

/// Each level with each block an OR pass may get (start, width): two full ones and a partial
/// last one.
fn blocks_at_every_level() -> impl Iterator<Item = (Level, (usize, usize))> {
    levels()
        .into_iter()
        .flat_map(|l| [(0, BLOCK), (BLOCK, BLOCK), (2 * BLOCK, 23)].map(|b| (l, b)))
}

/// Runs `test` on each block at every level ([`blocks_at_every_level`]) of random rows
/// ([`random_rows`], drawn from `seed`) below each count of feedbacks in turn: with the level,
/// the rows, the block's start and width, and the count.
fn each_block(
    seed: u64,
    feedbacks: [u8; 3],
    mut test: impl FnMut(Level, &[&[u8]], usize, usize, u8),
) {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for f in feedbacks {
        let rows = random_rows(&mut rng, f);
        let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
        for (level, (start, width)) in blocks_at_every_level() {
            test(level, &rows, start, width, f);
        }
    }
}

/// The nibble pass, with vector instructions and without, marks every feedback a plain
/// loop finds and nothing in the padding, for full and partial blocks.
#[test]
fn nibble_passes_match_a_plain_loop() {
    each_block(14, [9, 14, 16], |level, rows, start, width, f| {
        let (mut low, mut high) = ([0u8; BLOCK], [0u8; BLOCK]);
        or_nibbles(level, rows, start, width, &mut low, &mut high);
        let (mut plain_low, mut plain_high) = ([0u8; BLOCK], [0u8; BLOCK]);
        or_nibbles_plain(rows, start, width, &mut plain_low, &mut plain_high);
        for j in 0..BLOCK {
            let want = if j < width {
                rows.iter().fold(0u16, |m, r| m | 1 << r[start + j])
            } else {
                0
            };
            let got = u16::from(low[j]) | u16::from(high[j]) << 8;
            let plain = u16::from(plain_low[j]) | u16::from(plain_high[j]) << 8;
            let at = format!("{level:?}, {f} feedbacks, block at {start}, guess {j}");
            assert_eq!(got, want, "{at}");
            assert_eq!(plain, want, "{at}");
        }
    });
}

/// The bits pass, as this CPU runs it and as plain loops, marks every feedback a plain loop
/// finds, for full and partial blocks.
#[test]
fn bits_passes_match_a_plain_loop() {
    each_block(15, [14, 20, 32], |level, rows, start, width, f| {
        let mut bits = [0u32; BLOCK];
        or_block(level, rows, start, width, &mut bits);
        let mut plain = [0u32; BLOCK];
        or_block_plain(rows, start, width, &mut plain);
        for j in 0..width {
            let want = rows.iter().fold(0u32, |m, r| m | 1 << r[start + j]);
            let at = format!("{level:?}, {f} feedbacks, block at {start}, guess {j}");
            assert_eq!(bits[j], want, "{at}");
            assert_eq!(plain[j], want, "{at}");
        }
    });
}

/// The feedback indexes of a five-symbol game (`bulls * 6 + cows`, no 4 bulls and 1 cow): 20
/// of them, up to 30, as Mastermind 5 pegs and 5-digit Bulls and Cows number them.
fn five_symbol_feedbacks() -> Vec<u8> {
    (0..=5u8)
        .flat_map(|b| (0..=5 - b).map(move |c| (b, c)))
        .filter(|&(b, c)| (b, c) != (4, 1))
        .map(|(b, c)| b * 6 + c)
        .collect()
}

/// The part scores, at every level (in planes of bits by the feedbacks' ranks on VBMI), are
/// what a plain loop finds: parts plus one for a member, 0 for a guess that teaches nothing;
/// for feedback indexes as the games spread them (all below 32, as the search asks them only
/// then), the winning one anywhere among them, an odd and an even number of members, and a
/// partial last block.
#[test]
fn part_scores_match_a_plain_loop() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
    let lb: Vec<u32> = (0..=MAX_SET as u32 + 1).map(|c| 2 * c).collect();
    let five = five_symbol_feedbacks();
    let cases: Vec<(Vec<u8>, usize)> = vec![
        ((0..20).collect(), 19),
        (five.clone(), five.iter().position(|&f| f == 30).unwrap()),
        (five, 0),
        ((0..20).map(|i| i + i / 2).collect(), 11),
        ((0..9).map(|i| 3 * i + 2).collect(), 4),
        ((0..32).collect(), 31),
        ((0..14).collect(), 3),
    ];
    for level in levels() {
        for (feedbacks, win) in &cases {
            let f = feedbacks.len();
            let Some(splitter) = Splitter::new(feedbacks.clone(), feedbacks[*win], &lb, level)
            else {
                panic!("{f} feedbacks make a splitter");
            };
            assert!(splitter.has_bits());
            let guesses = 9 * BLOCK + 23;
            for members in [1, 2, 5, 36, 37] {
                // Few members from two feedbacks, so that some guesses teach nothing.
                let drawn = if members > 5 { f } else { 2 };
                let rows: Vec<Vec<u8>> = (0..members)
                    .map(|_| {
                        (0..guesses)
                            .map(|_| feedbacks[rng.gen_range(0..drawn)])
                            .collect()
                    })
                    .collect();
                let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
                let mut scores = Vec::new();
                splitter.part_scores(&rows, guesses, &mut scores);
                assert_eq!(scores.len(), guesses);
                for (j, &score) in scores.iter().enumerate() {
                    let seen = rows.iter().fold(0u64, |m, r| m | 1 << r[j]);
                    let member = seen >> feedbacks[*win] & 1;
                    let parts = u64::from(seen.count_ones());
                    let want = if member == 1 || parts >= 2 {
                        parts + member
                    } else {
                        0
                    };
                    let at = format!("{level:?}, {f} feedbacks, {members} members, guess {j}");
                    assert_eq!(u64::from(score), want, "{at}");
                }
            }
        }
    }
}

/// Feedback indexes of 32 and more alias below 32 in the bits of the OR pass at every level
/// without VBMI (and score right with it): a splitter for them says the part scores do not
/// apply, and asking anyway panics at every level instead of pruning by a wrong score.
#[test]
fn part_scores_refuse_indexes_from_32_at_every_level() {
    let lb: Vec<u32> = (0..=MAX_SET as u32 + 1).map(|c| 2 * c).collect();
    let feedbacks: Vec<u8> = (0..20).map(|i| 2 * i + 1).collect();
    let rows: Vec<Vec<u8>> = vec![feedbacks.clone(); 3];
    let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
    for level in levels() {
        let splitter = Splitter::new(feedbacks.clone(), 39, &lb, level).unwrap();
        assert!(!splitter.has_bits());
        let asked = std::panic::catch_unwind(|| {
            splitter.part_scores(&rows, feedbacks.len(), &mut Vec::new());
        });
        assert!(asked.is_err(), "{level:?}");
    }
}

/// The bulk pass agrees with counting guess by guess, on sets of every size it accepts.
#[test]
fn bulk_splits_match_guess_by_guess_counting() {
    for rules in games("mastermind, 3 012345") {
        let space = CodeSpace::new(rules.clone()).unwrap();
        let n = space.len();
        let slots = rules.feedback_slots();
        let win = crate::Feedback::win(rules.length()).index(rules.length()) as u8;
        let mut seen = vec![false; slots];
        for g in 0..n {
            for &f in space.score_row(g).unwrap() {
                seen[usize::from(f)] = true;
            }
        }
        let feedbacks: Vec<u8> = (0..slots as u8).filter(|&f| seen[usize::from(f)]).collect();
        // Level filling over the non-winning feedbacks, as the search computes it.
        let r = feedbacks.len() as u64 - 1;
        let lb: Vec<u32> = (0..=n + 1)
            .map(|m| {
                let (mut left, mut cap, mut level, mut total) = (m as u64, 1u64, 1u64, 0u64);
                while left > 0 {
                    let here = left.min(cap);
                    total += here * level;
                    left -= here;
                    cap *= r;
                    level += 1;
                }
                total as u32
            })
            .collect();
        // The space's own table, and the compact one with feedbacks numbered 0..F.
        let compact = space.compact_table().unwrap();
        let compact_win = compact.feedbacks().iter().position(|&f| f == win).unwrap();
        let numbered: Vec<u8> = (0..compact.feedbacks().len() as u8).collect();
        assert_eq!(compact.feedbacks(), feedbacks.as_slice());
        for g in [0, n / 3, n - 1] {
            let decoded: Vec<u8> = compact
                .row(g)
                .iter()
                .map(|&f| compact.feedbacks()[usize::from(f)])
                .collect();
            assert_eq!(decoded, space.score_row(g).unwrap());
        }
        for (level, use_compact) in levels().into_iter().flat_map(|l| [(l, false), (l, true)]) {
            let splitter = if use_compact {
                Splitter::new(numbered.clone(), compact_win as u8, &lb, level).unwrap()
            } else {
                Splitter::new(feedbacks.clone(), win, &lb, level).unwrap()
            };
            check_splitter(&space, &splitter, use_compact, &lb, win, level);
        }
    }
}

/// What the bulk passes should give a guess whose parts hold `counts` (one per feedback, the
/// winning one at `win`), worked out plainly: its split, the members above `last` (0 without),
/// its part score, and its one-guess bound under `rule`.
#[derive(Debug, Clone, Copy)]
pub(super) struct Expected {
    pub split: Split,
    pub excess: u32,
    pub score: u8,
    pub bound: u32,
}

impl Expected {
    pub(super) fn of(
        counts: &[u32],
        win: usize,
        lb: &[u32],
        last: Option<u8>,
        rule: &BoundRule,
    ) -> Expected {
        let split = Split {
            sum: counts.iter().map(|&c| lb[c as usize]).sum(),
            parts: counts.iter().filter(|&&c| c > 0).count() as u32,
            largest: *counts.iter().max().unwrap(),
            member: counts[win] > 0,
        };
        let excess = last.map_or(0, |t| {
            counts.iter().map(|&c| c.saturating_sub(u32::from(t))).sum()
        });
        let useful = split.member || split.parts > 1;
        let bound = if useful && split.largest <= u32::from(rule.largest) {
            rule.n + split.sum + rule.weight * excess - u32::from(split.member) * rule.win
        } else {
            rule.none
        };
        Expected {
            split,
            excess,
            score: u8::from(useful) * (split.parts as u8 + u8::from(split.member)),
            bound,
        }
    }
}

/// [`bulk_splits_match_guess_by_guess_counting`] for one splitter: over sets of every size
/// the bulk pass accepts, its splits, part scores and bounds against counting guess by
/// guess.
fn check_splitter(
    space: &CodeSpace,
    splitter: &Splitter,
    compact: bool,
    lb: &[u32],
    win: u8,
    level: Level,
) {
    let n = space.len();
    let slots = space.rules().feedback_slots();
    // Every buffer is reused from set to set, as the search's spares are.
    let mut out = Splits::default();
    let (mut bounds, mut below, mut scores) = (Vec::new(), Vec::new(), Vec::new());
    for size in [1, 2, 7, 64, 200, MAX_SET.min(n)] {
        let set: Vec<u32> = (0..size as u32).map(|i| (i * 7919) % n as u32).collect();
        let mut set = set;
        set.sort_unstable();
        set.dedup();
        let rows: Vec<&[u8]> = set
            .iter()
            .map(|&s| match compact {
                true => space.compact_table().unwrap().row(s as usize),
                false => space.score_row(s as usize).unwrap(),
            })
            .collect();
        let last = (size % 3) as u8;
        splitter.split_all(&rows, n, Some(last), &mut out);
        splitter.part_scores(&rows, n, &mut scores);
        // A rule that rules some guesses out by their largest part.
        let rule = BoundRule {
            n: set.len() as u32,
            win: 1,
            weight: 3,
            largest: (set.len() / 3) as u8,
            none: u32::MAX,
        };
        out.bounds(level, &rule, &mut bounds);
        let mut sorted = bounds.clone();
        sorted.sort_unstable();
        let limit = sorted[n / 2];
        let least = mark_below(level, &bounds, limit, &mut below);
        assert_eq!(below.len(), n.div_ceil(64));
        assert_eq!(
            least,
            bounds
                .iter()
                .copied()
                .filter(|&b| b >= limit)
                .min()
                .unwrap_or(u32::MAX)
        );
        assert_eq!(out.sum.len(), n);
        for g in 0..n {
            let mut counts = vec![0u32; slots];
            for &s in &set {
                counts[usize::from(space.score_row(g).unwrap()[s as usize])] += 1;
            }
            let want = Expected::of(&counts, usize::from(win), lb, Some(last), &rule);
            let at = format!(
                "{level:?}, guess {g}, set of {}, compact {compact}",
                set.len()
            );
            assert_eq!(out.get(g), want.split, "{at}");
            assert_eq!(out.excess(g), want.excess, "{at}");
            assert_eq!(scores[g], want.score, "{at}");
            assert_eq!(bounds[g], want.bound, "{at}");
            let marked = below[g / 64] >> (g % 64) & 1 == 1;
            assert_eq!(marked, want.bound < limit, "{at}");
        }
    }
}
