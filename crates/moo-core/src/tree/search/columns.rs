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

use super::rows::ScoreRows;

/// The guesses gathered at a time: a row read for this many guesses touches most of its lines
/// anyway (Mastermind 5x6 has 122 lines per row).
const BLOCK: usize = 256;

/// The members read side by side while gathering: one line of the table each written in a run.
const LANES: usize = 16;

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
    pub(super) fn column(&self, rows: ScoreRows, k: usize) -> &[u8] {
        let n = self.set.len();
        let block = self.blocks[k / BLOCK].get_or_init(|| {
            let end = self.guesses.len().min((k / BLOCK + 1) * BLOCK);
            gather(rows, self.set, &self.guesses[k / BLOCK * BLOCK..end])
        });
        let at = k % BLOCK * n;
        &block[at..at + n]
    }
}

/// `guesses`' columns of `set`'s members' rows, guess after guess: each row is read in the
/// order of the guesses' indexes, [`LANES`] rows side by side.
pub(super) fn gather(rows: ScoreRows, set: &[u32], guesses: &[u32]) -> Box<[u8]> {
    let n = set.len();
    let mut by_index: Vec<(u32, usize)> = guesses
        .iter()
        .enumerate()
        .map(|(p, &g)| (g, p * n))
        .collect();
    by_index.sort_unstable();
    let mut block = vec![0u8; guesses.len() * n].into_boxed_slice();
    for (lane, members) in set.chunks(LANES).enumerate() {
        let member_rows: SmallVec<[&[u8]; LANES]> = members.iter().map(|&s| rows.row(s)).collect();
        let first = lane * LANES;
        for &(g, at) in &by_index {
            let out = &mut block[at + first..at + first + member_rows.len()];
            for (o, row) in out.iter_mut().zip(&member_rows) {
                *o = row[g as usize];
            }
        }
    }
    block
}

/// `guesses`' feedbacks from `set`'s members' rows, member after member: the layout the bulk
/// pass reads (rows of `guesses.len()` bytes), where [`gather`] lays them out guess after guess.
pub(super) fn gather_rows(rows: ScoreRows, set: &[u32], guesses: &[u32]) -> Box<[u8]> {
    let mut out = Vec::with_capacity(set.len() * guesses.len());
    for &s in set {
        let row = rows.row(s);
        out.extend(guesses.iter().map(|&g| row[g as usize]));
    }
    out.into_boxed_slice()
}
