//! One search asked many questions: whether each of a stream of candidate sets can be won
//! within a number of guesses, and nothing more. A refutation ([`crate::tree::refutation`]) asks
//! it of every part it considers.
//!
//! The exact search answers that too, but as a side effect of finding the cheapest tree within
//! the limit: a part that can be won is solved to its optimal total before the next part is
//! looked at, and a refutation throws that optimum away. This search stops at the first guess
//! whose every part is won, and at the first part of a guess that is lost, so a won set costs
//! one winning line per part and a lost one its refutation alone.
//!
//! Answers are kept by set and guesses left, under a 128-bit hash of the set, for the whole run:
//! a part met again, or proven on the way to an earlier answer, is not searched again. A
//! collision could only make an answer wrong, and a refutation written from a wrong answer fails
//! at its checker, so it can never pass for a proof. With a checkpoint, the answers about large
//! sets outlive the run.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use hashbrown::HashMap;
use rayon::prelude::*;

use super::checkpoint::Checkpoint;
use super::memo::Entry;
use super::solved::INF;
use super::{Objective, Progress, SearchOptions};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::symmetry::Symmetry;
use crate::tree::{answers, most_won};

/// The checkpoint tag of this search's answers, apart from every search's depth tags: bound
/// [`INF`] for a lost set, 0 for a won one. The exact search's own worst-case facts (tag 0) are
/// read too, as the writer asked that search before this one.
const TAG: u8 = u8::MAX;

/// A search for any strategy that wins a set within a number of guesses.
pub(crate) struct Oracle<'a> {
    space: &'a CodeSpace,
    progress: &'a Progress,
    checkpoint: Option<&'a Checkpoint>,
    /// Answers to a guess, the win among them.
    feedbacks: u64,
    /// The win's feedback index.
    win: usize,
    /// Whether each set (by hash) with each number of guesses left is lost, in shards by hash
    /// so that threads seldom wait for one another.
    known: Vec<Mutex<HashMap<(u128, u32), bool>>>,
    /// Answers in `known`.
    kept: AtomicU64,
    /// Sets whose answer was worked out, not found in `known` or settled by size.
    searched: AtomicU64,
}

/// Shards of [`Oracle::known`].
const SHARDS: usize = 64;

/// The fewest guesses to go at which the guesses of a set are tried side by side: below it a
/// set's answer takes milliseconds.
const SIDE_BY_SIDE_FROM: u32 = 4;

/// Guesses tried at once by [`Oracle::splits_into_singles`].
const BLOCK: usize = 512;

impl<'a> Oracle<'a> {
    /// A search over `space`, any code a guess.
    /// With a checkpoint, what the file holds is loaded first and what is proven about large
    /// sets is appended to it.
    pub(crate) fn new(
        space: &'a CodeSpace,
        progress: &'a Progress,
        checkpoint: Option<&'a Checkpoint>,
    ) -> Oracle<'a> {
        let length = space.length();
        let mut known: Vec<_> = (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect();
        let mut kept = 0;
        for (set, left, entry) in checkpoint.into_iter().flat_map(|c| c.facts()) {
            if set.last().is_some_and(|&m| m as usize >= space.len()) {
                continue;
            }
            let lost = match (entry.tag, entry.bound, entry.exact) {
                (TAG, INF, _) | (0, INF, false) => true,
                (TAG, 0, _) | (0, _, true) => false,
                _ => continue,
            };
            let key = (hash(set), u32::from(left));
            let shard = known[shard(key)].get_mut().expect("not shared yet");
            kept += u64::from(shard.insert(key, lost).is_none());
        }
        Oracle {
            space,
            progress,
            checkpoint,
            feedbacks: answers(length),
            win: Feedback::win(length).index(length),
            known,
            kept: AtomicU64::new(kept),
            searched: AtomicU64::new(0),
        }
    }

    /// The options a checkpoint of the oracle's names in its header.
    pub(crate) fn options(options: &SearchOptions) -> SearchOptions {
        SearchOptions {
            objective: Objective::Worst,
            max_depth: None,
            guesses: GuessPool::All,
            first_guess: None,
            ..options.clone()
        }
    }

    /// Sets worked out so far: not found among the answers kept nor settled by their size.
    pub(crate) fn searched(&self) -> u64 {
        self.searched.load(Ordering::Relaxed)
    }

    /// Whether no strategy wins every code of `set` within `left` guesses. `sym` holds
    /// symmetries that map the set to itself (those of the guesses that left it): a guess stands
    /// for its whole orbit under them.
    pub(crate) fn lost(&self, set: &CodeSet, sym: &Symmetry, left: u32) -> bool {
        let n = set.len() as u64;
        if n <= 1 {
            return n == 1 && left == 0;
        }
        if n > most_won(self.feedbacks, left) {
            return true;
        }
        if n <= u64::from(left) {
            // Guess the candidates one at a time.
            return false;
        }
        let key = (hash(set.as_slice()), left);
        let known = &self.known[shard(key)];
        if let Some(&lost) = lock(known).get(&key) {
            return lost;
        }
        self.searched.fetch_add(1, Ordering::Relaxed);
        self.progress
            .searched(self.kept.load(Ordering::Relaxed) as usize);
        let lost = if left == 2 {
            !self.splits_into_singles(set, sym)
        } else {
            !self.some_guess_wins(set, sym, left)
        };
        if lock(known).insert(key, lost).is_none() {
            self.kept.fetch_add(1, Ordering::Relaxed);
        }
        if let Some(checkpoint) = self.checkpoint {
            let bound = if lost { INF } else { 0 };
            let entry = Entry { bound, exact: None };
            checkpoint.record(TAG, set.as_slice(), left as u8, entry);
        }
        lost
    }

    /// Whether some guess leaves every code of `set` alone in its part, so that the next guess
    /// wins it: the only way to win more than two codes within two guesses.
    ///
    /// A block of guesses is tried at once, a code at a time: scoring is symmetric, so a secret's
    /// row of the score table gives every guess's answer for it, and each guess keeps the answers
    /// it has seen (one bit each) and those it has seen twice. Most guesses give two codes the
    /// same answer within a few codes, so a block is dropped as soon as none of it is left.
    fn splits_into_singles(&self, set: &CodeSet, sym: &Symmetry) -> bool {
        let space = self.space;
        if !space.has_table() {
            return self.splits_one_guess_at_a_time(set, sym);
        }
        let n = space.len();
        let (mut seen, mut clash) = ([0u64; BLOCK], [0u64; BLOCK]);
        (0..n).step_by(BLOCK).any(|from| {
            let to = (from + BLOCK).min(n);
            let (seen, clash) = (&mut seen[..to - from], &mut clash[..to - from]);
            seen.fill(0);
            clash.fill(0);
            for (i, s) in set.iter().enumerate() {
                let row = &space.score_row(s).expect("the space has a table")[from..to];
                for ((seen, clash), &f) in seen.iter_mut().zip(clash.iter_mut()).zip(row) {
                    let bit = 1u64 << f;
                    *clash |= *seen & bit;
                    *seen |= bit;
                }
                if i % 4 == 3 && clash.iter().all(|&c| c != 0) {
                    return false;
                }
            }
            clash.contains(&0)
        })
    }

    /// [`Oracle::splits_into_singles`] without a score table: one guess at a time, one of
    /// each orbit.
    fn splits_one_guess_at_a_time(&self, set: &CodeSet, sym: &Symmetry) -> bool {
        let space = self.space;
        (0..space.len()).any(|h| {
            if !sym.is_canonical(space.code(h).symbols()) {
                return false;
            }
            let mut seen = 0u64;
            set.iter().all(|s| {
                let bit = 1u64 << space.score_index(h, s);
                let alone = seen & bit == 0;
                seen |= bit;
                alone
            })
        })
    }

    /// Whether some guess wins `set` within `left` guesses (3 or more): one whose every part is
    /// won within `left - 1`. The guesses that split best are tried first, as they are likeliest
    /// to win, and each guess's parts largest first, as they are likeliest to be lost.
    fn some_guess_wins(&self, set: &CodeSet, sym: &Symmetry, left: u32) -> bool {
        let space = self.space;
        let cap = most_won(self.feedbacks, left - 1);
        let slots = space.rules().feedback_slots();
        // A guess with no part over the cap, by its largest part.
        let open = |counts: &mut Vec<u32>, g: usize| {
            if !sym.is_canonical(space.code(g).symbols())
                || !space.partition_counts_within(g, set, cap, counts)
            {
                return None;
            }
            counts[self.win] = 0;
            Some((counts.iter().copied().max().unwrap_or(0), g as u32))
        };
        let wins = |&(_, g): &(u32, u32)| {
            let g = g as usize;
            let below = sym.after(space.code(g).symbols());
            let mut parts = space.partition(g, set);
            parts.retain(|(feedback, _)| feedback.index(space.length()) != self.win);
            parts.sort_by_key(|(_, part)| std::cmp::Reverse(part.len()));
            parts
                .iter()
                .all(|(_, part)| !self.lost(part, &below, left - 1))
        };
        if left < SIDE_BY_SIDE_FROM {
            let mut counts = vec![0u32; slots];
            let mut order: Vec<_> = (0..space.len())
                .filter_map(|g| open(&mut counts, g))
                .collect();
            order.sort_unstable();
            return order.iter().any(wins);
        }
        let mut order: Vec<_> = (0..space.len())
            .into_par_iter()
            .map_init(|| vec![0u32; slots], open)
            .flatten()
            .collect();
        order.sort_unstable();
        order.par_iter().any(wins)
    }
}

/// The shard of [`Oracle::known`] that holds `key`.
fn shard(key: (u128, u32)) -> usize {
    (key.0 as usize ^ key.1 as usize) % SHARDS
}

/// A shard, locked; one a panicking thread left is still sound, as every answer in it is.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// A 128-bit hash of a sorted set of code indexes: two independent multiply-and-rotate streams.
fn hash(set: &[u32]) -> u128 {
    let (mut a, mut b) = (0x9e37_79b9_7f4a_7c15u64, 0xc2b2_ae3d_27d4_eb4fu64);
    for &x in set {
        let x = u64::from(x);
        a = (a ^ x).wrapping_mul(0xff51_afd7_ed55_8ccd).rotate_left(29);
        b = (b ^ x.wrapping_add(0x1656_67b1_9e37_79f9))
            .wrapping_mul(0xc4ce_b9fe_1a85_ec53)
            .rotate_left(31);
    }
    (u128::from(a) << 64 | u128::from(b)) ^ set.len() as u128
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    /// The fewest guesses that always win, as the oracle sees them: lost with one fewer.
    fn fewest(length: usize, symbols: &str, repeats: bool) -> u32 {
        let space = CodeSpace::new(Rules::new(length, symbols, repeats, false).unwrap()).unwrap();
        let progress = Progress::new();
        let oracle = Oracle::new(&space, &progress, None);
        let (all, sym) = (space.all(), Symmetry::new(space.rules()));
        (1..).find(|&n| !oracle.lost(&all, &sym, n)).unwrap()
    }

    #[test]
    fn the_fewest_guesses_that_always_win_are_the_published_ones() {
        // Knuth's 5 for Mastermind 4x6; the exact search's worst cases for 3x4 and 3x6
        // (docs/src/exact-results.md).
        assert_eq!(fewest(4, "123456", true), 5);
        assert_eq!(fewest(3, "1234", true), 4);
        assert_eq!(fewest(3, "123456", true), 5);
    }

    #[test]
    fn answers_kept_in_a_checkpoint_are_loaded_by_the_next_oracle() {
        let space = CodeSpace::new(Rules::new(4, "123456", true, false).unwrap()).unwrap();
        let dir = std::env::temp_dir().join(format!("moo-oracle-{}", std::process::id()));
        let path = dir.with_extension("ckpt");
        let options = Oracle::options(&SearchOptions::default());
        let (all, sym) = (space.all(), Symmetry::new(space.rules()));
        let progress = Progress::new();
        let first = Checkpoint::open(&path, &space, &options).unwrap();
        let oracle = Oracle::new(&space, &progress, Some(&first));
        assert!(oracle.lost(&all, &sym, 4));
        assert!(oracle.searched() > 0);
        drop(oracle);
        drop(first);
        let second = Checkpoint::open(&path, &space, &options).unwrap();
        assert!(second.loaded() > 0);
        let oracle = Oracle::new(&space, &progress, Some(&second));
        assert!(oracle.lost(&all, &sym, 4));
        assert_eq!(oracle.searched(), 0, "the whole answer was in the file");
        std::fs::remove_file(&path).unwrap();
    }
}
