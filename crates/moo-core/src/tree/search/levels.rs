//! The level-filling bounds: with `r` non-winning feedbacks, at most 1 secret is solved by the
//! next guess, `r` by the one after, `r^2` after that, so a set of `n` costs at least `LB(n)` in
//! total and needs `LEVELS(n)` guesses for its worst secret. A plain value, computed once per
//! search and read by every bound.

use super::bulk::MAX_SET;
use super::solved::{INF, UNLIMITED};
use crate::feedback::Feedback;
use crate::space::CodeSpace;

/// The level-filling bounds of one search: for each set size, the least total (one table, or one
/// per depth left when the objective weighs the last level), and the fewest levels.
pub(super) struct LevelBounds {
    tables: Vec<LevelTable>,
    levels: Vec<u8>,
    branches: usize,
    weighted: bool,
    /// What a secret solved by the last guess allowed costs extra (0 when not weighted).
    weight: u32,
}

/// The level-filling totals for one depth left.
pub(super) struct LevelTable {
    /// `total[n]`: the least cost of a set of `n`.
    total: Vec<u32>,
    /// `step[c] = total[c + 1] - total[c]`: what the `c+1`-th member of a part adds.
    pub(super) step: Vec<u32>,
    /// `outside[n]`: the least cost of a set of `n` when the next guess is not a member (nobody
    /// is solved by it).
    outside: Vec<u32>,
}

impl LevelBounds {
    /// The bounds for sets of up to `n + 1` codes in a game with `branches` non-winning
    /// feedbacks. With `last_level = Some((depth, weight))` every secret solved by the last
    /// guess a depth limit of `depth` allows costs `weight` more (the fewest-at-worst objective:
    /// a cost is then `weight * secrets at the worst depth + total`), and the tables depend on
    /// the depth left.
    pub(super) fn new(branches: usize, n: usize, last_level: Option<(u8, u32)>) -> LevelBounds {
        let r = branches as u64;
        // Capacities 1, r, r^2, ... (0, r, r^2, ... when the first guess is not a member);
        // `last` is the level whose secrets also pay `weight`, and it takes every secret left
        // (for sets that do not fit, this relaxation is still a lower bound).
        let fill = |m: usize, first: u64, last: u64, weight: u64| {
            let (mut left, mut cap, mut level, mut total) = (m as u64, first, 1u64, 0u64);
            while left > 0 {
                let here = if level == last { left } else { left.min(cap) };
                total += here * level + if level == last { here * weight } else { 0 };
                left -= here;
                cap = if cap == 0 { r } else { cap.saturating_mul(r) };
                level += 1;
            }
            (
                u32::try_from(total).expect("the caller checked that costs fit 32 bits"),
                (level - 1).min(u64::from(UNLIMITED) - 1) as u8,
            )
        };
        let table = |last: u64, weight: u64| {
            let total: Vec<u32> = (0..n + 2).map(|m| fill(m, 1, last, weight).0).collect();
            let outside = (0..n + 2).map(|m| fill(m, 0, last, weight).0).collect();
            let step = (0..=n).map(|c| total[c + 1] - total[c]).collect();
            LevelTable {
                total,
                step,
                outside,
            }
        };
        let levels = (0..n + 2).map(|m| fill(m, 1, 0, 0).1).collect();
        let tables = match last_level {
            None => vec![table(0, 0)],
            Some((depth, weight)) => (0..=depth)
                .map(|d| table(u64::from(d), u64::from(weight)))
                .collect(),
        };
        LevelBounds {
            tables,
            levels,
            branches,
            weighted: last_level.is_some(),
            weight: last_level.map_or(0, |(_, w)| w),
        }
    }

    /// The table for `depth` guesses left.
    #[inline]
    pub(super) fn table(&self, depth: u8) -> &LevelTable {
        &self.tables[usize::from(depth).min(self.tables.len() - 1)]
    }

    /// The least cost of a set of `n` with `depth` guesses left.
    #[inline]
    pub(super) fn total(&self, n: usize, depth: u8) -> u32 {
        self.table(depth).total[n]
    }

    /// The least cost of a set of `n` with `depth` guesses left when the next guess is not a
    /// member.
    pub(super) fn outside(&self, n: usize, depth: u8) -> u32 {
        self.table(depth).outside[n]
    }

    /// The fewest guesses that can solve every member of a set of `n`.
    #[inline]
    pub(super) fn levels(&self, n: usize) -> u8 {
        self.levels[n]
    }

    /// The largest part (at most [`MAX_SET`]) whose members can all be solved within `depth`
    /// guesses.
    pub(super) fn largest_within(&self, depth: u8) -> u8 {
        let top = self.levels.len().min(MAX_SET + 1);
        // Levels grow with the size, and the empty set needs none.
        let fit = self.levels[..top].partition_point(|&l| l <= depth);
        u8::try_from(fit - 1).expect("at most MAX_SET")
    }

    /// The least one-guess bound of any guess whose part score on a set of `n` is `score` (its
    /// parts, plus one if a member), without a last-level weight. `LB` grows by steps that
    /// never shrink, so `k` parts holding `m` members cost at least the evenly split `m` does:
    /// `2c - 1` each for small parts, so `3n - score` in all, and the parts' own level bound for
    /// a set of several hundred. It never rises with the score, so guesses taken highest score
    /// first may stop at the first floor that reaches the best bound found.
    #[inline]
    pub(super) fn parts_floor(&self, n: usize, score: u32) -> u32 {
        debug_assert!(!self.weighted, "the floor reads the unweighted totals");
        let total = &self.tables[0].total;
        let even = |members: usize, parts: u32| -> u32 {
            let parts = parts as usize;
            if parts == 0 || parts > members {
                return if members == 0 { 0 } else { INF };
            }
            let (size, more) = (members / parts, members % parts);
            (parts - more) as u32 * total[size] + more as u32 * total[size + 1]
        };
        // A member's own part costs nothing beyond the guess: its score counts it twice.
        let outside = even(n, score);
        let member = score
            .checked_sub(2)
            .map_or(INF, |k| even(n.saturating_sub(1), k));
        (n as u32).saturating_add(outside.min(member))
    }

    /// The non-winning feedbacks that can occur.
    pub(super) fn branches(&self) -> usize {
        self.branches
    }

    /// Whether the last level a depth limit allows costs extra (the tables depend on depth).
    pub(super) fn weighted(&self) -> bool {
        self.weighted
    }

    /// The extra cost of a secret solved by the last guess a depth limit allows.
    pub(super) fn weight(&self) -> u32 {
        self.weight
    }

    /// With `depth` guesses left under a last-level weight, how many members of a part are
    /// solved before the last level at best (`1 + r + ... + r^(depth-2)`): each one more pays
    /// the weight. `None` when not weighted.
    pub(super) fn last_level_threshold(&self, depth: u8) -> Option<u32> {
        if !self.weighted {
            return None;
        }
        let r = self.branches as u64;
        let (mut sum, mut cap) = (0u64, 1u64);
        for _ in 1..depth {
            sum = sum.saturating_add(cap);
            cap = cap.saturating_mul(r);
        }
        Some(sum.min(u64::from(u32::MAX)) as u32)
    }

    /// The unweighted totals, from which the bulk splitter learns the level thresholds.
    pub(super) fn plain_totals(&self) -> Option<&[u32]> {
        (!self.weighted).then(|| &self.tables[0].total[..])
    }
}

impl LevelTable {
    /// `total[n]` for every `n` in the table.
    pub(super) fn totals(&self) -> &[u32] {
        &self.total
    }
}

/// Which feedback indexes occur in `space`, and the winning one's index.
pub(super) fn feedbacks_of(space: &CodeSpace) -> (Vec<bool>, usize) {
    let length = space.length();
    let seen = space.feedbacks_seen().to_vec();
    (seen, Feedback::win(length).index(length))
}

/// The non-winning feedbacks that occur in `space` (at least one): the most parts besides the
/// winning one a guess can make, the `r` of level filling.
pub(super) fn branches_of(space: &CodeSpace) -> usize {
    let (seen, win) = feedbacks_of(space);
    count_branches(&seen, win)
}

/// The non-winning feedbacks among `seen` (at least one).
pub(super) fn count_branches(seen: &[bool], win: usize) -> usize {
    seen.iter()
        .enumerate()
        .filter(|&(i, &s)| s && i != win)
        .count()
        .max(1)
}
