//! The members' feedbacks against the guesses a large set tries, gathered a block at a time.
//!
//! A try forms its guess's parts from each member's feedback against it: the guess's column of
//! the members' rows, one line of memory per member. A set of 128 codes or more tries over a
//! thousand guesses, and its members' rows (a megabyte and more on Mastermind 5x6) do not stay
//! in the core's cache, so each try waited on a line per member. Its guesses are known in the
//! order they are tried before the first, so the columns of the next block of them are read
//! row by row, each row once and in order, where prefetching helps, into a table a try reads
//! in one run.

use std::sync::OnceLock;

use smallvec::SmallVec;

use super::bounds::Bounds;
use super::bulk::marked;

/// The guesses gathered at a time: a row read for this many guesses touches most of its lines
/// anyway (Mastermind 5x6 has 122 lines per row).
const BLOCK: usize = 256;

/// The members read side by side while gathering: one line of the table each written in a run.
const LANES: usize = 16;

/// The bytes of columns a lookahead of a set too large for the bulk pass gathers at a time
/// ([`min_bound_of_large`]): enough guesses that each member's row is read in a few runs, few
/// enough to stay in the core's cache.
const LARGE_COLUMNS: usize = 1 << 19;

/// The members' feedbacks against a set's guesses in the order they are tried, gathered a
/// block of guesses at a time, when a try first reaches the block.
pub(super) struct Columns<'s> {
    set: &'s [u32],
    guesses: Vec<u32>,
    /// Block `k` holds, guess after guess of `guesses[k * BLOCK..]`, every member's feedback
    /// against it in the set's order.
    blocks: Vec<OnceLock<Box<[u8]>>>,
}

impl<'s> Columns<'s> {
    /// Nothing gathered yet of `set`'s feedbacks against `guesses`, in the order tried.
    pub(super) fn new(set: &'s [u32], guesses: Vec<u32>) -> Columns<'s> {
        let blocks = (0..guesses.len().div_ceil(BLOCK))
            .map(|_| OnceLock::new())
            .collect();
        Columns {
            set,
            guesses,
            blocks,
        }
    }

    /// Every member's feedback against the `k`th guess, in the set's order.
    pub(super) fn column(&self, bounds: &Bounds, k: usize) -> &[u8] {
        let n = self.set.len();
        let block = self.blocks[k / BLOCK].get_or_init(|| {
            let end = self.guesses.len().min((k / BLOCK + 1) * BLOCK);
            gather(bounds, self.set, &self.guesses[k / BLOCK * BLOCK..end])
        });
        let at = k % BLOCK * n;
        &block[at..at + n]
    }
}

/// `guesses`' columns of `set`'s members' rows, guess after guess: each row is read in the
/// order of the guesses' indexes, [`LANES`] rows side by side.
pub(super) fn gather(bounds: &Bounds, set: &[u32], guesses: &[u32]) -> Box<[u8]> {
    let n = set.len();
    let mut by_index: Vec<(u32, usize)> = guesses
        .iter()
        .enumerate()
        .map(|(p, &g)| (g, p * n))
        .collect();
    by_index.sort_unstable();
    let mut block = vec![0u8; guesses.len() * n].into_boxed_slice();
    for (lane, members) in set.chunks(LANES).enumerate() {
        let rows: SmallVec<[&[u8]; LANES]> = members.iter().map(|&s| bounds.row(s)).collect();
        let first = lane * LANES;
        for &(g, at) in &by_index {
            let out = &mut block[at + first..at + first + rows.len()];
            for (o, row) in out.iter_mut().zip(&rows) {
                *o = row[g as usize];
            }
        }
    }
    block
}

/// `guesses`' feedbacks from `set`'s members' rows, member after member: the layout the bulk
/// pass reads (rows of `guesses.len()` bytes), where [`gather`] lays them out guess after guess.
pub(super) fn gather_rows(bounds: &Bounds, set: &[u32], guesses: &[u32]) -> Box<[u8]> {
    let mut rows = Vec::with_capacity(set.len() * guesses.len());
    for &s in set {
        let row = bounds.row(s);
        rows.extend(guesses.iter().map(|&g| row[g as usize]));
    }
    rows.into_boxed_slice()
}

/// [`Bounds::min_bound_by_floors`] of a set too large for the bulk pass's byte counters, when
/// feedbacks fit its part scores. Each guess's split reads its column of the members' rows; one
/// at a time, from the guess's own row, each was a pass over a cold row of the score table. The
/// guesses a round counts are marked before the first, in increasing order, so their columns
/// are gathered [`LARGE_COLUMNS`] bytes at a time ([`gather`]), reading each member's row once
/// in order, while the part scores' pass has just left those rows in the caches.
pub(super) fn min_bound_of_large(
    bounds: &Bounds,
    set: &[u32],
    child_depth: u8,
    cap: u32,
) -> Option<u32> {
    let n = set.len();
    let width = (LARGE_COLUMNS / n).max(64);
    let (mut guesses, mut block, mut next) = (Vec::new(), Box::default(), 0);
    bounds.with_part_scores(set, |score, _| {
        bounds.min_bound_by_floors(n, score, child_depth, cap, |g, marks, counts, best| {
            if guesses.get(next) != Some(&(g as u32)) {
                let (word, from) = (g / 64, g / 64 * 64);
                guesses.clear();
                guesses.extend(
                    marked(&marks[word..])
                        .map(|h| (h + from) as u32)
                        .skip_while(|&h| h < g as u32)
                        .take(width),
                );
                block = gather(bounds, set, &guesses);
                next = 0;
            }
            let column = &block[next * n..(next + 1) * n];
            next += 1;
            bounds.split_of(n, |i| column[i], counts, best, child_depth)
        })
    })
}
