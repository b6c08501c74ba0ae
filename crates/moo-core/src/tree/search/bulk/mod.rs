//! How every guess splits one candidate set, computed for all guesses at once.
//!
//! The search asks the same question of nearly every set it meets: for each guess, how large is
//! each part, so what is its level-filling bound? Asking guess by guess means one random read of
//! the score table per guess and secret, with a dependent counter update, about ten cycles each.
//! Scoring is symmetric, so the table row of a *secret* lists its feedback against every guess in
//! order; reading those rows a block of 64 guesses at a time, and counting each feedback with a
//! compare and a subtract on 64 bytes at once, turns the same work into a few vector
//! instructions per secret and block. This file is the API the search calls; the loops are in
//! [`kernels`] and [`or_pass`]: plain Rust compiled for AVX2 and AVX-512 too, and AVX2 or
//! AVX-512 intrinsics where counters must stay in registers or be gathered through 16-entry
//! tables. Each call names its [`Level`] ([`crate::kernel`]): the search takes the best the CPU has, or
//! the one `MOO_KERNEL` holds it at, so the binary stays portable and every version can be
//! tested on one machine.
//!
//! Counts are bytes, so a set must have at most [`MAX_SET`] members; larger sets (the few at the
//! top of the tree) are scanned guess by guess.
//!
//! A cheaper pass records only *which* feedbacks each guess can get (one bit each, in games whose
//! feedback indexes fit 32 bits). Since the level-filling bound of a part of `c` is at least
//! `2c - 1`, the number of parts alone bounds a guess from below, which is enough to rule most
//! guesses out before counting anything.

mod kernels;
mod or_pass;

use self::kernels::{bounds_pass, count_block, finish_block, PADDING_INDEX};
use self::or_pass::{or_block, or_nibbles, score_block, score_nibbles, score_planes};
use crate::kernel::by_level;
pub(super) use crate::kernel::Level;

/// Guesses per block: one AVX-512 register of byte counters per feedback.
const BLOCK: usize = 64;

/// One counter per guess of a block, aligned to a cache line: a 64-byte vector load or store
/// that straddles two lines costs about twice as much, and the heap gives `[u8; 64]` arrays
/// whatever alignment it happens to have.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Counters([u8; BLOCK]);

/// A block's other arrays, aligned the same way and for the same reason: the bits of
/// the OR pass, read and written once per member, straddling lines slow the whole search.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Aligned<T>(T);

/// The largest set whose part sizes fit the byte counters.
pub(super) const MAX_SET: usize = u8::MAX as usize;

/// What the bounds need to know about how one guess splits a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Split {
    /// The sum of the parts' level-filling bounds, the winning part included.
    pub sum: u32,
    /// Non-empty parts, the winning part included.
    pub parts: u32,
    /// The largest part.
    pub largest: u32,
    /// Whether the guess is in the set (the winning part is not empty).
    pub member: bool,
}

/// The feedbacks of a game and the level-filling bound, in the form the vector loops use.
#[derive(Debug, Clone)]
pub(super) struct Splitter {
    /// The feedback indexes that occur, the winning one included.
    feedbacks: Vec<u8>,
    /// Position of the winning feedback in `feedbacks`.
    win: usize,
    /// The level-filling bound of a part of `c` is the sum of `c - k` over the thresholds `k`
    /// below `c`: every member pays one guess per level it has not been solved by.
    thresholds: Vec<u8>,
    /// The OR pass's lookup tables by the feedbacks' ranks, when every index fits them.
    planes: Option<Planes>,
    /// Whether every feedback index is below 32, as [`Splitter::part_scores`] needs.
    bits: bool,
    /// The kernels' level.
    level: Level,
}

/// The lookup tables of the OR pass in byte planes ([`or_pass::score_planes`]): plane `p` maps
/// a feedback index to bit `k - 8p` of its rank `k` among the game's feedbacks, when that is
/// below 8, and everything else (the padding of a partial block, [`PADDING_INDEX`]) to 0.
#[derive(Debug, Clone)]
// Read by the x86-64 kernels only: elsewhere the part scores take the plain OR pass.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Planes {
    /// One table per plane: as many as the feedbacks need, 3 for 20.
    tables: Vec<Aligned<[u8; BLOCK]>>,
    /// The plane and bit of the winning feedback.
    win_plane: usize,
    win_bit: u8,
    /// The same planes for 16-entry lookups, when every index is below 32.
    halves: Option<HalfPlanes>,
}

/// [`Planes`] for AVX2, whose byte lookup (`vpshufb`) takes 16 entries: the indexes below 16
/// and those from 16 to 31 are looked up separately, each half's feedbacks ranked within it,
/// eight to a plane. Five-symbol games' 20 feedbacks (15 below 16, 5 above) take three planes,
/// three lookups per member and 32 guesses where spreading each index into a 32-bit mask took
/// a widening, a shift and an or per 8 guesses.
#[derive(Debug, Clone)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct HalfPlanes {
    /// The planes reading indexes below 16 (0 to 2), then those reading 16 to 31 (0 to 2):
    /// each maps the index's low four bits to its bit in the plane, in both 16-byte lanes.
    tables: Vec<Aligned<[u8; 32]>>,
    /// How many of `tables` read the low half.
    low: usize,
    /// The plane and bit of the winning feedback.
    win_plane: usize,
    win_bit: u8,
}

impl Planes {
    /// The planes of `feedbacks` (at most 32, each below [`PADDING_INDEX`]) whose `win`th is
    /// the winning one.
    fn new(feedbacks: &[u8], win: usize) -> Option<Planes> {
        if feedbacks.len() > 32 || feedbacks.iter().any(|&f| f >= PADDING_INDEX) {
            return None;
        }
        let mut tables = vec![Aligned([0u8; BLOCK]); feedbacks.len().div_ceil(8)];
        for (rank, &f) in feedbacks.iter().enumerate() {
            tables[rank / 8].0[usize::from(f)] = 1 << (rank % 8);
        }
        Some(Planes {
            tables,
            win_plane: win / 8,
            win_bit: (win % 8) as u8,
            halves: HalfPlanes::new(feedbacks, feedbacks[win]),
        })
    }
}

impl HalfPlanes {
    /// The half planes of `feedbacks`, when every index is below 32, with `win` the winning
    /// index.
    fn new(feedbacks: &[u8], win: u8) -> Option<HalfPlanes> {
        if feedbacks.iter().any(|&f| f >= 32) {
            return None;
        }
        let (below, above): (Vec<u8>, Vec<u8>) = feedbacks.iter().partition(|&&f| f < 16);
        let low = below.len().div_ceil(8);
        let mut tables = vec![Aligned([0u8; 32]); low + above.len().div_ceil(8)];
        let (mut win_plane, mut win_bit) = (0, 0);
        for (first, half) in [(0, &below), (low, &above)] {
            for (rank, &f) in half.iter().enumerate() {
                let (plane, bit) = (first + rank / 8, (rank % 8) as u8);
                let entry = usize::from(f % 16);
                tables[plane].0[entry] = 1 << bit;
                tables[plane].0[16 + entry] = 1 << bit;
                if f == win {
                    (win_plane, win_bit) = (plane, bit);
                }
            }
        }
        Some(HalfPlanes {
            tables,
            low,
            win_plane,
            win_bit,
        })
    }
}

/// Per-guess results of one bulk pass, indexed by guess.
#[derive(Debug, Default)]
pub(super) struct Splits {
    sum: Vec<u16>,
    parts: Vec<u8>,
    largest: Vec<u8>,
    member: Vec<bool>,
    /// With a last threshold: the members of each guess's parts above it, summed.
    excess: Vec<u16>,
}

impl Splits {
    /// For guess `g`, how many members its parts hold above the last threshold given to
    /// [`Splitter::split_all`] (0 without one).
    #[cfg(test)]
    pub fn excess(&self, g: usize) -> u32 {
        self.excess.get(g).map_or(0, |&e| u32::from(e))
    }

    /// How guess `g` splits the set.
    #[cfg(test)]
    pub fn get(&self, g: usize) -> Split {
        Split {
            sum: u32::from(self.sum[g]),
            parts: u32::from(self.parts[g]),
            largest: u32::from(self.largest[g]),
            member: self.member[g],
        }
    }
}

/// What turns a guess's split of a set into its one-guess bound ([`Splits::bounds`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct BoundRule {
    /// The set's size: every member pays for the guess itself.
    pub n: u32,
    /// What the winning part, summed as a part of one, costs (its member costs nothing more).
    pub win: u32,
    /// What each member above the last threshold costs extra (the pass's excess, see
    /// [`Splitter::split_all`]).
    pub weight: u32,
    /// The largest part that can still be finished within the guesses left.
    pub largest: u8,
    /// The bound given to a guess that teaches nothing (a non-member leaving the set whole) or
    /// leaves a part too large.
    pub none: u32,
}

impl Splits {
    /// Every guess's one-guess bound under `rule`, or `rule.none`, into `out`, by the kernels
    /// of `level`.
    ///
    /// One pass over the arrays with no branch: a loop deciding guess by guess which test
    /// fails mispredicts too often.
    pub fn bounds(&self, level: Level, rule: &BoundRule, out: &mut Vec<u32>) {
        out.clear();
        out.resize(self.sum.len(), 0);
        let excess = (!self.excess.is_empty()).then_some(self.excess.as_slice());
        bounds_pass(
            level,
            &self.sum,
            &self.parts,
            &self.largest,
            &self.member,
            excess,
            rule,
            out,
        );
    }

    /// Whether guess `g` is in the set.
    #[inline]
    pub fn member(&self, g: usize) -> bool {
        self.member[g]
    }
}

by_level! {
    /// Marks the bounds below `limit`, bit `j % 64` of `below[j / 64]` for bound `j`, and
    /// returns the least of the others (`u32::MAX` if none).
    ///
    /// Compared 64 at a time, the marks come out of vector compares, and only the guesses
    /// marked are visited after, instead of a branch per guess.
    pub(super) fn mark_below(bounds: &[u32], limit: u32, below: &mut Vec<u64>) -> u32 {
        below.clear();
        let mut least = u32::MAX;
        let mut chunks = bounds.chunks_exact(64);
        for chunk in &mut chunks {
            let chunk: &[u32; 64] = chunk.try_into().expect("64 bounds");
            let mut mask = 0u64;
            for (i, &b) in chunk.iter().enumerate() {
                mask |= u64::from(b < limit) << i;
                least = least.min(if b < limit { u32::MAX } else { b });
            }
            below.push(mask);
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut mask = 0u64;
            for (i, &b) in rest.iter().enumerate() {
                mask |= u64::from(b < limit) << i;
                least = least.min(if b < limit { u32::MAX } else { b });
            }
            below.push(mask);
        }
        least
    }
}

/// The indexes marked in `marks` (bit `j % 64` of `marks[j / 64]` for index `j`), in order: what
/// [`mark_below`] and [`mark_equal`] mark, visited without a test per unmarked index.
pub(super) fn marked(marks: &[u64]) -> impl Iterator<Item = usize> + '_ {
    marks.iter().enumerate().flat_map(|(word, &mask)| {
        std::iter::successors((mask != 0).then_some(mask), |&m| {
            let rest = m & (m - 1);
            (rest != 0).then_some(rest)
        })
        .map(move |m| 64 * word + m.trailing_zeros() as usize)
    })
}

by_level! {
    /// Marks the scores equal to `level`, bit `j % 64` of `marks[j / 64]` for score `j`.
    ///
    /// [`Bounds::min_bound_by_parts`](super::lower_bounds::Bounds::min_bound_by_parts) takes the
    /// guesses with the most parts first, one score at a time; 64 compared at once take a few
    /// instructions where picking them out byte by byte dominated its time.
    pub(super) fn mark_equal(scores: &[u8], level: u8, marks: &mut Vec<u64>) {
        marks.clear();
        for chunk in scores.chunks(64) {
            let mut mask = 0u64;
            for (i, &s) in chunk.iter().enumerate() {
                mask |= u64::from(s == level) << i;
            }
            marks.push(mask);
        }
    }
}

by_level! {
    /// Marks the scores above `level`, bit `j % 64` of `marks[j / 64]` for score `j`, and
    /// returns the highest of the others (0 if none).
    ///
    /// [`super::candidates`] keeps the guesses whose parts floor (`3n` less the score) is below
    /// the limit; the highest score left out gives the least floor of those it skips.
    pub(super) fn mark_above(scores: &[u8], level: u8, marks: &mut Vec<u64>) -> u8 {
        marks.clear();
        let mut rest = 0u8;
        for chunk in scores.chunks(64) {
            let mut mask = 0u64;
            for (i, &s) in chunk.iter().enumerate() {
                mask |= u64::from(s > level) << i;
                rest = rest.max(if s > level { 0 } else { s });
            }
            marks.push(mask);
        }
        rest
    }
}

by_level! {
    /// The highest of `scores`, and the highest of those at most `level` (0 if none).
    ///
    /// [`super::candidates::FloorOrder`] takes the guesses one score at a time from the highest
    /// down, and the highest score it leaves out gives the least parts floor of those it skips.
    pub(super) fn highest(scores: &[u8], level: u8) -> (u8, u8) {
        let (mut top, mut rest) = (0u8, 0u8);
        for &s in scores {
            top = top.max(s);
            rest = rest.max(if s > level { 0 } else { s });
        }
        (top, rest)
    }
}

impl Splitter {
    /// A splitter for a game whose occurring feedback indexes are `feedbacks` (winning one
    /// `win` among them) and whose level-filling bound gives a part of `c` the total `lb[c]`.
    /// `None` when the bound is not of the threshold form for small parts (only for games with
    /// a single non-winning feedback, where the scalar scan is as good). Its kernels run at
    /// `level`.
    pub fn new(feedbacks: Vec<u8>, win: u8, lb: &[u32], level: Level) -> Option<Splitter> {
        let win = feedbacks.iter().position(|&f| f == win)?;
        // Recover the thresholds from the bound: the increment lb[c+1] - lb[c] counts the
        // thresholds below c + 1.
        let mut thresholds = Vec::new();
        let top = MAX_SET.min(lb.len().saturating_sub(1));
        for c in 0..top {
            let step = lb[c + 1] - lb[c];
            let below = thresholds.len() as u32;
            if step < below {
                return None;
            }
            for _ in below..step {
                thresholds.push(c as u8);
            }
        }
        (thresholds.len() <= 8).then(|| Splitter {
            planes: Planes::new(&feedbacks, win),
            bits: feedbacks.iter().all(|&f| f < 32),
            feedbacks,
            win,
            thresholds,
            level,
        })
    }

    /// Whether [`Splitter::part_scores`] applies: every feedback index is below 32.
    pub fn has_bits(&self) -> bool {
        self.bits
    }

    /// For each of `guesses` guesses on the set whose members' score rows are `rows`: its
    /// non-empty parts plus one if it is a member (so the parts floor of its bound is `3n` less
    /// this), or 0 if it teaches nothing (a non-member leaving the set whole).
    ///
    /// # Panics
    ///
    /// Without [`Splitter::has_bits`]: the bits of indexes of 32 and more would alias those
    /// below at every level without VBMI, and a wrong score prunes a guess the search needs.
    pub fn part_scores(&self, rows: &[&[u8]], guesses: usize, out: &mut Vec<u8>) {
        assert!(
            self.bits,
            "part scores need feedback indexes below 32: check Splitter::has_bits first"
        );
        let level = self.level;
        out.clear();
        out.resize(guesses, 0);
        let win = u32::from(self.feedbacks[self.win]);
        let nibbles = self.feedbacks.iter().all(|&f| f < 16);
        if !nibbles {
            if let Some(planes) = &self.planes {
                if score_planes(level, rows, planes, out) {
                    return;
                }
            }
        }
        let mut start = 0;
        while start < guesses {
            let width = (guesses - start).min(BLOCK);
            let mut tail = Aligned([0u8; BLOCK]);
            // Full blocks are scored straight into `out`: copying each out of a buffer was a
            // call to memcpy per block.
            let scores: &mut [u8; BLOCK] = match out[start..].first_chunk_mut() {
                Some(block) => block,
                None => &mut tail.0,
            };
            if nibbles {
                let (mut low, mut high) = (Aligned([0u8; BLOCK]), Aligned([0u8; BLOCK]));
                or_nibbles(level, rows, start, width, &mut low.0, &mut high.0);
                score_nibbles(level, &low.0, &high.0, win as u8, scores);
            } else {
                let mut bits = Aligned([0u32; BLOCK]);
                or_block(level, rows, start, width, &mut bits.0);
                score_block(level, &bits.0, win, scores);
            }
            if width < BLOCK {
                out[start..].copy_from_slice(&tail.0[..width]);
            }
            start += width;
        }
    }

    /// How each of `guesses` guesses splits the set whose members' score rows are `rows`.
    /// Scoring must be symmetric, so a member's row gives its feedback against every guess.
    /// With `last`, also counts the members each guess's parts hold above `last`
    /// (the excess [`Splits::bounds`] weighs): the secrets a weighted objective charges extra.
    pub fn split_all(&self, rows: &[&[u8]], guesses: usize, last: Option<u8>, out: &mut Splits) {
        debug_assert!(rows.len() <= MAX_SET);
        out.excess.clear();
        if last.is_some() {
            out.excess.resize(guesses, 0);
        }
        out.sum.resize(guesses, 0);
        out.parts.resize(guesses, 0);
        out.largest.resize(guesses, 0);
        out.member.resize(guesses, false);
        let mut counts = vec![Counters([0; BLOCK]); self.feedbacks.len()];
        let mut start = 0;
        while start < guesses {
            let width = (guesses - start).min(BLOCK);
            for c in counts.iter_mut() {
                c.0.fill(0);
            }
            count_block(self.level, rows, start, width, &self.feedbacks, &mut counts);
            let end = start + width;
            // Full blocks are finished straight into `out`, as in `part_scores`; finish_block
            // adds to what it is given, so the reused buffers are zeroed first.
            let (mut sum_tail, mut parts_tail, mut largest_tail) = (
                Aligned([0u16; BLOCK]),
                Aligned([0u8; BLOCK]),
                Aligned([0u8; BLOCK]),
            );
            let (sum, parts, largest) = match (
                out.sum[start..].first_chunk_mut(),
                out.parts[start..].first_chunk_mut(),
                out.largest[start..].first_chunk_mut(),
            ) {
                (Some(sum), Some(parts), Some(largest)) => (sum, parts, largest),
                _ => (&mut sum_tail.0, &mut parts_tail.0, &mut largest_tail.0),
            };
            sum.fill(0);
            parts.fill(0);
            largest.fill(0);
            finish_block(self.level, &counts, &self.thresholds, sum, parts, largest);
            if width < BLOCK {
                out.sum[start..end].copy_from_slice(&sum_tail.0[..width]);
                out.parts[start..end].copy_from_slice(&parts_tail.0[..width]);
                out.largest[start..end].copy_from_slice(&largest_tail.0[..width]);
            }
            for (m, &c) in out.member[start..end].iter_mut().zip(&counts[self.win].0) {
                *m = c > 0;
            }
            if let Some(last) = last {
                let mut excess = [0u16; BLOCK];
                let (mut p, mut l) = ([0u8; BLOCK], [0u8; BLOCK]);
                finish_block(self.level, &counts, &[last], &mut excess, &mut p, &mut l);
                out.excess[start..end].copy_from_slice(&excess[..width]);
            }
            start = end;
        }
    }
}

#[cfg(test)]
mod tests;
