//! How every guess splits one candidate set, computed for all guesses at once.
//!
//! The search asks the same question of nearly every set it meets: for each guess, how large is
//! each part, so what is its level-filling bound? Asking guess by guess means one random read of
//! the score table per guess and secret, with a dependent counter update, about ten cycles each.
//! Scoring is symmetric, so the table row of a *secret* lists its feedback against every guess in
//! order; reading those rows a block of 64 guesses at a time, and counting each feedback with a
//! compare and a subtract on 64 bytes at once, turns the same work into a few vector
//! instructions per secret and block. The loops are plain Rust written for the autovectoriser;
//! `multiversion` compiles them for AVX-512 and AVX2 too and picks the best the CPU has at run
//! time, so the binary stays portable.
//!
//! Counts are bytes, so a set must have at most [`MAX_SET`] members; larger sets (the few at the
//! top of the tree) are scanned guess by guess.
//!
//! A cheaper pass records only *which* feedbacks each guess can get (one bit each, in games whose
//! feedback indexes fit 32 bits). Since the level-filling bound of a part of `c` is at least
//! `2c - 1`, the number of parts alone bounds a guess from below, which is enough to rule most
//! guesses out before counting anything.

use multiversion::multiversion;

/// Guesses per block: one AVX-512 register of byte counters per feedback.
const BLOCK: usize = 64;

/// One counter per guess of a block, aligned to a cache line: a 64-byte vector load or store
/// that straddles two lines costs about twice as much, and the heap gives `[u8; 64]` arrays
/// whatever alignment it happens to have (measured: the counting pass took 1.8 times as long
/// in one build as in another, depending on where its counters landed).
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Counters([u8; BLOCK]);

/// A block's other arrays, aligned the same way and for the same reason: the bits of
/// [`or_block`], read and written once per member, cost a quarter more of the whole search in a
/// build whose stack left them straddling lines (Bulls and Cows on two threads, 9.2 against
/// 11.7 s).
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
    /// Every guess's one-guess bound under `rule`, or `rule.none`, into `out`.
    ///
    /// One pass over the arrays with no branch: a loop deciding guess by guess which test
    /// fails mispredicts often, and took an eighth of the whole search on 4 of 1-9.
    pub fn bounds(&self, rule: &BoundRule, out: &mut Vec<u32>) {
        out.clear();
        out.resize(self.sum.len(), 0);
        let excess = (!self.excess.is_empty()).then_some(self.excess.as_slice());
        bounds_pass(
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

/// [`Splits::bounds`]' pass.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn bounds_pass(
    sum: &[u16],
    parts: &[u8],
    largest: &[u8],
    member: &[bool],
    excess: Option<&[u16]>,
    rule: &BoundRule,
    out: &mut [u32],
) {
    match excess {
        None => bounds_of::<false>(sum, parts, largest, member, &[], rule, out),
        Some(excess) => bounds_of::<true>(sum, parts, largest, member, excess, rule, out),
    }
}

/// Marks the bounds below `limit`, bit `j % 64` of `below[j / 64]` for bound `j`, and returns the
/// least of the others (`u32::MAX` if none).
///
/// Picking the guesses below the limit one by one, with or without a branch, cost a tenth of
/// the whole search on 4 of 1-9; compared 64 at a time, the marks come out of vector compares,
/// and only the guesses marked are visited after.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
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

/// Marks the scores equal to `level`, bit `j % 64` of `marks[j / 64]` for score `j`.
///
/// `Search::min_bound_by_parts` (in `search/bounds.rs`) takes the guesses with the most parts
/// first, one score at a time; picking them out byte by byte was nine tenths of its time (5% of
/// the search on no leading zero), and 64 compared at once take a few instructions.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
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

/// [`bounds_pass`] with or without the excess, inlined into each of its versions.
#[inline(always)]
fn bounds_of<const EXCESS: bool>(
    sum: &[u16],
    parts: &[u8],
    largest: &[u8],
    member: &[bool],
    excess: &[u16],
    rule: &BoundRule,
    out: &mut [u32],
) {
    // Every array cut to one length, so that the loop carries no bounds checks and vectorises.
    let n = out.len();
    let (sum, parts, largest, member) = (&sum[..n], &parts[..n], &largest[..n], &member[..n]);
    let excess = if EXCESS { &excess[..n] } else { &[] };
    for j in 0..n {
        let m = member[j];
        let ok = (m | (parts[j] >= 2)) & (largest[j] <= rule.largest);
        let extra = if EXCESS {
            rule.weight * u32::from(excess[j])
        } else {
            0
        };
        let b = rule.n + u32::from(sum[j]) + extra - u32::from(m) * rule.win;
        out[j] = if ok { b } else { rule.none };
    }
}

impl Splitter {
    /// A splitter for a game whose occurring feedback indexes are `feedbacks` (winning one
    /// `win` among them) and whose level-filling bound gives a part of `c` the total `lb[c]`.
    /// `None` when the bound is not of the threshold form for small parts (only for games with
    /// a single non-winning feedback, where the scalar scan is as good).
    pub fn new(feedbacks: Vec<u8>, win: u8, lb: &[u32]) -> Option<Splitter> {
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
        (thresholds.len() <= 8).then_some(Splitter {
            feedbacks,
            win,
            thresholds,
        })
    }

    /// Whether [`Splitter::part_scores`] applies: every feedback index is below 32.
    pub fn has_bits(&self) -> bool {
        self.feedbacks.iter().all(|&f| f < 32)
    }

    /// For each of `guesses` guesses on the set whose members' score rows are `rows`: its
    /// non-empty parts plus one if it is a member (so the parts floor of its bound is `3n` less
    /// this), or 0 if it teaches nothing (a non-member leaving the set whole). Needs
    /// [`Splitter::has_bits`].
    pub fn part_scores(&self, rows: &[&[u8]], guesses: usize, out: &mut Vec<u8>) {
        debug_assert!(self.has_bits());
        out.clear();
        out.resize(guesses, 0);
        let win = u32::from(self.feedbacks[self.win]);
        let nibbles = self.feedbacks.iter().all(|&f| f < 16);
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
                or_nibbles(rows, start, width, &mut low.0, &mut high.0);
                score_nibbles(&low.0, &high.0, win as u8, scores);
            } else {
                let mut bits = Aligned([0u32; BLOCK]);
                or_block(rows, start, width, &mut bits.0);
                score_block(&bits.0, win, scores);
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
            count_block(rows, start, width, &self.feedbacks, &mut counts);
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
            finish_block(&counts, &self.thresholds, sum, parts, largest);
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
                finish_block(&counts, &[last], &mut excess, &mut p, &mut l);
                out.excess[start..end].copy_from_slice(&excess[..width]);
            }
            start = end;
        }
    }
}

/// The bytes of `row` for guesses `start..start + width` as a full block. The last, partial block
/// is copied into `tail`, whose padding must be `u8::MAX`: no feedback has that index, so
/// padding lanes count nowhere (and lanes past `width` are never read back anyway).
#[inline(always)]
fn block<'a>(
    row: &'a [u8],
    start: usize,
    width: usize,
    tail: &'a mut [u8; BLOCK],
) -> &'a [u8; BLOCK] {
    if width == BLOCK {
        row[start..start + BLOCK]
            .try_into()
            .expect("a full block is BLOCK bytes")
    } else {
        tail[..width].copy_from_slice(&row[start..start + width]);
        tail
    }
}

/// Counts, for guesses `start..start + width`, how many members give each feedback.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vbmi",
    "x86_64+avx512f+avx512bw",
    "x86_64+avx2"
))]
fn count_block(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    // With the number of feedbacks known at compile time the counters stay in vector registers
    // from member to member, instead of a load and a store each per member. A block's counter
    // takes one AVX-512 register but two AVX2 ones, of which there are only 16: there the
    // feedbacks are counted in groups of at most seven, one pass over the rows for each group
    // (the later passes find the rows in the core's cache). On an AVX2 machine this took 13% off
    // the counting pass of Bulls and Cows on one thread (`perf record`), 4% off the whole search.
    let wide = multiversion::target::target_cfg_f!(target_feature = "avx512bw");
    if feedbacks.iter().all(|&f| f < 16) {
        multiversion::target::match_target! {
            "x86_64+avx512f+avx512bw" => return count_nibbles_avx512(rows, start, width, feedbacks, counts),
            "x86_64+avx2" => return count_nibbles_avx2(rows, start, width, feedbacks, counts),
            _ => {}
        }
    }
    if feedbacks.iter().all(|&f| f < PADDING_INDEX) {
        multiversion::target::match_target! {
            "x86_64+avx512f+avx512bw+avx512vbmi" => return count_nibbles_vbmi(rows, start, width, feedbacks, counts),
            _ => {}
        }
    }
    match (feedbacks.len(), wide) {
        (9, true) => count_held::<9>(rows, start, width, feedbacks, counts),
        (14, true) => count_held::<14>(rows, start, width, feedbacks, counts),
        (20, true) => count_held::<20>(rows, start, width, feedbacks, counts),
        (9, false) => {
            count_held::<5>(rows, start, width, &feedbacks[..5], &mut counts[..5]);
            count_held::<4>(rows, start, width, &feedbacks[5..], &mut counts[5..]);
        }
        (14, false) => {
            count_held::<7>(rows, start, width, &feedbacks[..7], &mut counts[..7]);
            count_held::<7>(rows, start, width, &feedbacks[7..], &mut counts[7..]);
        }
        (20, false) => {
            count_held::<7>(rows, start, width, &feedbacks[..7], &mut counts[..7]);
            count_held::<7>(rows, start, width, &feedbacks[7..14], &mut counts[7..14]);
            count_held::<6>(rows, start, width, &feedbacks[14..], &mut counts[14..]);
        }
        _ => {
            let mut tail = Aligned([u8::MAX; BLOCK]);
            for row in rows {
                let block = block(row, start, width, &mut tail.0);
                for (Counters(c), &f) in counts.iter_mut().zip(feedbacks) {
                    for j in 0..BLOCK {
                        c[j] += u8::from(block[j] == f);
                    }
                }
            }
        }
    }
}

/// 32 bytes as an AVX2 vector (an unaligned load, without a raw pointer).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn vector(bytes: &[u8]) -> std::arch::x86_64::__m256i {
    bytemuck::cast::<[u8; 32], _>(bytes.try_into().expect("32 bytes"))
}

/// [`count_block`] on AVX2 for feedback indexes below 16, which `counts` must hold at zero.
///
/// A compare and a subtract per feedback count one feedback in 32 lanes. Here one byte-shuffle
/// lookup maps each lane's feedback to an increment for two feedbacks at once, 1 in the low
/// nibble for the one and 16 for the other, and one add counts both. A nibble holds 15, so every
/// 15 members the nibbles are added into the byte counters and cleared: 14 feedbacks take 7
/// lookups and 7 adds per member and 32 lanes instead of 28 instructions.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn count_nibbles_avx2(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    // Four pairs at a time: their nibble counters, tables and the member's two halves take 14 of
    // the 16 vector registers.
    for (feedbacks, counts) in feedbacks.chunks(8).zip(counts.chunks_mut(8)) {
        match feedbacks.len().div_ceil(2) {
            1 => count_pairs_avx2::<1>(rows, start, width, feedbacks, counts),
            2 => count_pairs_avx2::<2>(rows, start, width, feedbacks, counts),
            3 => count_pairs_avx2::<3>(rows, start, width, feedbacks, counts),
            _ => count_pairs_avx2::<4>(rows, start, width, feedbacks, counts),
        }
    }
}

/// The byte-lookup table of the nibble passes for the pair that starts `feedbacks` (the first
/// one or two): the first feedback maps to 1, the second to 16, and everything else to 0, in
/// every `LANE` bytes of an `N`-byte vector, since the lookup does not cross lanes (16 bytes for
/// `vpshufb`, 64 for `vpermb`).
fn pair_table<const N: usize, const LANE: usize>(feedbacks: &[u8]) -> [u8; N] {
    let mut table = [0u8; N];
    for (k, &f) in feedbacks.iter().take(2).enumerate() {
        for lane in (0..N).step_by(LANE) {
            table[lane + usize::from(f)] = 1 << (4 * k);
        }
    }
    table
}

/// [`count_nibbles_avx2`] for `P` pairs of feedbacks (the last may be a single one).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn count_pairs_avx2<const P: usize>(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    use std::arch::x86_64::{
        __m256i, _mm256_add_epi8, _mm256_and_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_srli_epi16,
    };
    let tables: [__m256i; P] =
        std::array::from_fn(|p| vector(&pair_table::<32, 16>(&feedbacks[2 * p..])));
    let nibble = _mm256_set1_epi8(0x0f);
    let mut packed = [[_mm256_setzero_si256(); 2]; P];
    let mut flush = |packed: &mut [[__m256i; 2]; P]| {
        for (p, halves) in packed.iter_mut().enumerate() {
            for (h, v) in halves.iter_mut().enumerate() {
                let low = _mm256_and_si256(*v, nibble);
                let high = _mm256_and_si256(_mm256_srli_epi16::<4>(*v), nibble);
                for (k, part) in [low, high]
                    .into_iter()
                    .enumerate()
                    .take(feedbacks.len() - 2 * p)
                {
                    let counter = &mut counts[2 * p + k].0[32 * h..32 * h + 32];
                    let sum: [u8; 32] = bytemuck::cast(_mm256_add_epi8(vector(counter), part));
                    counter.copy_from_slice(&sum);
                }
                *v = _mm256_setzero_si256();
            }
        }
    };
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for chunk in rows.chunks(15) {
        for row in chunk {
            let block = block(row, start, width, &mut tail.0);
            let halves = [vector(&block[..32]), vector(&block[32..])];
            for (p, table) in tables.iter().enumerate() {
                for h in 0..2 {
                    let step = _mm256_shuffle_epi8(*table, halves[h]);
                    packed[p][h] = _mm256_add_epi8(packed[p][h], step);
                }
            }
        }
        flush(&mut packed);
    }
}

/// 64 bytes as an AVX-512 vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn vector512(bytes: &[u8]) -> std::arch::x86_64::__m512i {
    bytemuck::cast::<[u8; 64], _>(bytes.try_into().expect("64 bytes"))
}

/// [`count_nibbles_avx2`] on AVX-512: a block is one register, so a lookup and an add count two
/// feedbacks in all 64 lanes, and with 32 registers up to eight pairs are counted in one pass
/// over the members: 14 feedbacks take 14 vector instructions per member and block instead of a
/// compare and an add per feedback, 28.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn count_nibbles_avx512(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    for (feedbacks, counts) in feedbacks.chunks(16).zip(counts.chunks_mut(16)) {
        match feedbacks.len().div_ceil(2) {
            1 => count_pairs_avx512::<1>(rows, start, width, feedbacks, counts),
            2 => count_pairs_avx512::<2>(rows, start, width, feedbacks, counts),
            3 => count_pairs_avx512::<3>(rows, start, width, feedbacks, counts),
            4 => count_pairs_avx512::<4>(rows, start, width, feedbacks, counts),
            5 => count_pairs_avx512::<5>(rows, start, width, feedbacks, counts),
            6 => count_pairs_avx512::<6>(rows, start, width, feedbacks, counts),
            7 => count_pairs_avx512::<7>(rows, start, width, feedbacks, counts),
            _ => count_pairs_avx512::<8>(rows, start, width, feedbacks, counts),
        }
    }
}

/// The AVX-512 kernel of the nibble passes, for `P` pairs of feedbacks (the last may be a
/// single one): `$table` builds a pair's lookup table and `$lookup` looks a member's feedbacks up
/// in it. The kernels with `vpshufb` and with `vpermb` differ only in those two, and the
/// instructions need the target features of the function they are called in, so each kernel is
/// written out by this macro rather than shared through a generic function.
macro_rules! count_pairs_512 {
    (
        $(#[$attr:meta])*
        fn $name:ident, table: $table:expr, lookup: |$t:ident, $m:ident| $lookup:expr
    ) => {
        $(#[$attr])*
        fn $name<const P: usize>(
            rows: &[&[u8]],
            start: usize,
            width: usize,
            feedbacks: &[u8],
            counts: &mut [Counters],
        ) {
            use std::arch::x86_64::{
                __m512i, _mm512_add_epi8, _mm512_and_si512, _mm512_set1_epi8,
                _mm512_setzero_si512, _mm512_srli_epi16,
            };
            let tables: [__m512i; P] =
                std::array::from_fn(|p| vector512(&$table(&feedbacks[2 * p..])));
            let nibble = _mm512_set1_epi8(0x0f);
            let mut packed = [_mm512_setzero_si512(); P];
            let mut flush = |packed: &mut [__m512i; P]| {
                for (p, v) in packed.iter_mut().enumerate() {
                    let low = _mm512_and_si512(*v, nibble);
                    let high = _mm512_and_si512(_mm512_srli_epi16::<4>(*v), nibble);
                    for (k, part) in [low, high]
                        .into_iter()
                        .enumerate()
                        .take(feedbacks.len() - 2 * p)
                    {
                        let counter = &mut counts[2 * p + k].0;
                        *counter = bytemuck::cast(_mm512_add_epi8(vector512(counter), part));
                    }
                    *v = _mm512_setzero_si512();
                }
            };
            let mut tail = Aligned([u8::MAX; BLOCK]);
            for chunk in rows.chunks(15) {
                for row in chunk {
                    let $m = vector512(block(row, start, width, &mut tail.0));
                    for (v, &$t) in packed.iter_mut().zip(&tables) {
                        *v = _mm512_add_epi8(*v, $lookup);
                    }
                }
                flush(&mut packed);
            }
        }
    };
}

count_pairs_512! {
    /// [`count_nibbles_avx512`] for `P` pairs of feedbacks (the last may be a single one).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    fn count_pairs_avx512,
    table: pair_table::<64, 16>,
    lookup: |table, member| std::arch::x86_64::_mm512_shuffle_epi8(table, member)
}

/// What the padding of a partial block ([`block`], `u8::MAX`) looks up in a 64-entry table:
/// its low six bits, the only ones `vpermb` reads. The VBMI passes take only feedbacks below it,
/// so padding lanes count nowhere, as in the other passes (and lanes past `width` are never read
/// back anyway).
const PADDING_INDEX: u8 = 63;

/// [`count_nibbles_avx512`] for feedback indexes of up to 62, on AVX-512 with VBMI, whose byte
/// lookup (`vpermb`) takes a 64-entry table instead of 16: the five-symbol games' 20 feedbacks,
/// which a compare and an add per feedback counted before, take 10 lookups and 10 adds per
/// member and block.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn count_nibbles_vbmi(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    // Up to 24 feedbacks in one pass: 12 counters, 12 tables, the member and the nibble mask
    // take 26 of the 32 registers.
    for (feedbacks, counts) in feedbacks.chunks(24).zip(counts.chunks_mut(24)) {
        match feedbacks.len().div_ceil(2) {
            1 => count_pairs_vbmi::<1>(rows, start, width, feedbacks, counts),
            2 => count_pairs_vbmi::<2>(rows, start, width, feedbacks, counts),
            3 => count_pairs_vbmi::<3>(rows, start, width, feedbacks, counts),
            4 => count_pairs_vbmi::<4>(rows, start, width, feedbacks, counts),
            5 => count_pairs_vbmi::<5>(rows, start, width, feedbacks, counts),
            6 => count_pairs_vbmi::<6>(rows, start, width, feedbacks, counts),
            7 => count_pairs_vbmi::<7>(rows, start, width, feedbacks, counts),
            8 => count_pairs_vbmi::<8>(rows, start, width, feedbacks, counts),
            9 => count_pairs_vbmi::<9>(rows, start, width, feedbacks, counts),
            10 => count_pairs_vbmi::<10>(rows, start, width, feedbacks, counts),
            11 => count_pairs_vbmi::<11>(rows, start, width, feedbacks, counts),
            _ => count_pairs_vbmi::<12>(rows, start, width, feedbacks, counts),
        }
    }
}

count_pairs_512! {
    /// [`count_nibbles_vbmi`] for `P` pairs of feedbacks (the last may be a single one).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
    fn count_pairs_vbmi,
    table: pair_table::<64, 64>,
    lookup: |table, member| std::arch::x86_64::_mm512_permutexvar_epi8(member, table)
}

/// [`count_block`] for `F` feedbacks.
#[inline(always)]
fn count_held<const F: usize>(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    let feedbacks: &[u8; F] = feedbacks.try_into().expect("F feedbacks");
    let mut held = [Counters([0; BLOCK]); F];
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for row in rows {
        let block = block(row, start, width, &mut tail.0);
        for (Counters(c), &f) in held.iter_mut().zip(feedbacks) {
            for j in 0..BLOCK {
                c[j] += u8::from(block[j] == f);
            }
        }
    }
    counts[..F].copy_from_slice(&held);
}

/// Sets bit `f` of `bits[j]` when guess `start + j` gets feedback `f` from some member.
#[multiversion(targets(
    "x86_64+avx512f+avx512bw+avx512vbmi",
    "x86_64+avx512f+avx512bw",
    "x86_64+avx2"
))]
fn or_block(rows: &[&[u8]], start: usize, width: usize, bits: &mut [u32; BLOCK]) {
    multiversion::target::match_target! {
        "x86_64+avx512f+avx512bw+avx512vbmi" => or_planes_vbmi(rows, start, width, bits),
        _ => or_block_plain(rows, start, width, bits),
    }
}

/// [`or_block`] as plain loops, which the compiler vectorises.
#[inline(always)]
fn or_block_plain(rows: &[&[u8]], start: usize, width: usize, bits: &mut [u32; BLOCK]) {
    let mut tail = Aligned([u8::MAX; BLOCK]);
    // A local copy, which can stay in registers from member to member.
    let mut held = Aligned(*bits);
    for row in rows {
        let block = block(row, start, width, &mut tail.0);
        for (h, &f) in held.0.iter_mut().zip(block) {
            *h |= 1u32 << (f & 31);
        }
    }
    *bits = held.0;
}

/// The byte-lookup table of the passes that note feedbacks in planes of bits: in every `LANE`
/// bytes of an `N`-byte vector (the lookup does not cross lanes), index `f` maps to bit
/// `f - 8 * plane` when that is below 8, and to 0 otherwise.
fn bit_table<const N: usize, const LANE: usize>(plane: usize) -> [u8; N] {
    std::array::from_fn(|i| match (i % LANE).checked_sub(8 * plane) {
        Some(b) if b < 8 => 1 << b,
        _ => 0,
    })
}

/// [`or_block`] on AVX-512 with VBMI, for feedback indexes below 32 (all that fit the bits).
/// Widening every byte to a 32-bit lane to shift takes 13 instructions per member and block; here
/// the bits are kept as four planes of bytes, bit `f % 8` of plane `f / 8`, and a 64-entry byte
/// lookup (`vpermb`) gives each plane's byte: 4 lookups and 4 ors, and the padding's index
/// ([`PADDING_INDEX`]) looks up zero.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn or_planes_vbmi(rows: &[&[u8]], start: usize, width: usize, bits: &mut [u32; BLOCK]) {
    use std::arch::x86_64::{
        __m512i, _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_setzero_si512,
    };
    let tables: [__m512i; 4] = std::array::from_fn(|plane| vector512(&bit_table::<64, 64>(plane)));
    let mut planes = [_mm512_setzero_si512(); 4];
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for row in rows {
        let member = vector512(block(row, start, width, &mut tail.0));
        for (plane, table) in planes.iter_mut().zip(&tables) {
            *plane = _mm512_or_si512(*plane, _mm512_permutexvar_epi8(member, *table));
        }
    }
    let planes: [[u8; BLOCK]; 4] = planes.map(bytemuck::cast);
    for (j, b) in bits.iter_mut().enumerate() {
        *b |= u32::from_le_bytes([planes[0][j], planes[1][j], planes[2][j], planes[3][j]]);
    }
}

/// [`or_block`] for feedback indexes below 16 (a compact table's): sets bit `f` of `low[j]`, or
/// bit `f - 8` of `high[j]` for `f` of 8 or more, when guess `start + j` gets feedback `f`.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn or_nibbles(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    low: &mut [u8; BLOCK],
    high: &mut [u8; BLOCK],
) {
    multiversion::target::match_target! {
        "x86_64+avx512f+avx512bw" => or_nibbles_avx512(rows, start, width, low, high),
        "x86_64+avx2" => or_nibbles_avx2(rows, start, width, low, high),
        _ => or_nibbles_plain(rows, start, width, low, high),
    }
}

/// [`or_nibbles`] without vector instructions.
#[inline(always)]
fn or_nibbles_plain(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    low: &mut [u8; BLOCK],
    high: &mut [u8; BLOCK],
) {
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for row in rows {
        let block = block(row, start, width, &mut tail.0);
        for j in 0..BLOCK {
            // Padding (and any index of 16 or more) sets nothing; the AVX2 version reads only the
            // low nibble of indexes below 128, which the caller keeps below 16.
            let f = block[j];
            low[j] |= u8::from(f < 8) << (f & 7);
            high[j] |= u8::from((8..16).contains(&f)) << (f & 7);
        }
    }
}

/// [`or_nibbles`] on AVX2. Widening every byte to a 32-bit lane and shifting, as [`or_block`]
/// does, takes 13 instructions per 32 guesses and member; with the index in a nibble, one
/// byte-shuffle lookup gives the low byte of `1 << f` and another the high byte, 5 instructions
/// in all. An index with its top bit set (the padding) looks up zero.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn or_nibbles_avx2(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    low: &mut [u8; BLOCK],
    high: &mut [u8; BLOCK],
) {
    use std::arch::x86_64::{
        _mm256_or_si256, _mm256_setr_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8,
    };
    // The shuffle looks up each 128-bit half separately, so both halves hold the table.
    #[rustfmt::skip]
    let low_bits = _mm256_setr_epi8(
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
        1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0,
    );
    #[rustfmt::skip]
    let high_bits = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
        0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, -128,
    );
    let mut lo = [_mm256_setzero_si256(); 2];
    let mut hi = [_mm256_setzero_si256(); 2];
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for row in rows {
        let block = block(row, start, width, &mut tail.0);
        for h in 0..2 {
            let f = vector(&block[32 * h..32 * h + 32]);
            lo[h] = _mm256_or_si256(lo[h], _mm256_shuffle_epi8(low_bits, f));
            hi[h] = _mm256_or_si256(hi[h], _mm256_shuffle_epi8(high_bits, f));
        }
    }
    for h in 0..2 {
        let (l, u): ([u8; 32], [u8; 32]) = (bytemuck::cast(lo[h]), bytemuck::cast(hi[h]));
        for j in 0..32 {
            low[32 * h + j] |= l[j];
            high[32 * h + j] |= u[j];
        }
    }
}

/// [`or_nibbles_avx2`] on AVX-512: a block is one register, so each member takes one load, two
/// lookups and two ors for all 64 guesses instead of twice that.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
fn or_nibbles_avx512(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    low: &mut [u8; BLOCK],
    high: &mut [u8; BLOCK],
) {
    use std::arch::x86_64::{_mm512_or_si512, _mm512_setzero_si512, _mm512_shuffle_epi8};
    let (low_bits, high_bits) = (
        vector512(&bit_table::<64, 16>(0)),
        vector512(&bit_table::<64, 16>(1)),
    );
    let (mut lo, mut hi) = (_mm512_setzero_si512(), _mm512_setzero_si512());
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for row in rows {
        let f = vector512(block(row, start, width, &mut tail.0));
        lo = _mm512_or_si512(lo, _mm512_shuffle_epi8(low_bits, f));
        hi = _mm512_or_si512(hi, _mm512_shuffle_epi8(high_bits, f));
    }
    let (l, u): ([u8; BLOCK], [u8; BLOCK]) = (bytemuck::cast(lo), bytemuck::cast(hi));
    for j in 0..BLOCK {
        low[j] |= l[j];
        high[j] |= u[j];
    }
}

/// [`score_block`] for the bits of [`or_nibbles`].
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn score_nibbles(low: &[u8; BLOCK], high: &[u8; BLOCK], win: u8, scores: &mut [u8; BLOCK]) {
    let (plane, shift) = if win < 8 { (low, win) } else { (high, win - 8) };
    for j in 0..BLOCK {
        let member = (plane[j] >> shift) & 1;
        let parts = (low[j].count_ones() + high[j].count_ones()) as u8;
        let useless = u8::from(member == 0 && parts < 2);
        scores[j] = (parts + member) * (1 - useless);
    }
}

/// Turns a block's feedback bits into part scores (see [`Splitter::part_scores`]).
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn score_block(bits: &[u32; BLOCK], win: u32, scores: &mut [u8; BLOCK]) {
    for j in 0..BLOCK {
        let member = (bits[j] >> win) & 1;
        let parts = bits[j].count_ones();
        let useless = u32::from(member == 0 && parts < 2);
        scores[j] = ((parts + member) * (1 - useless)) as u8;
    }
}

/// Turns a block's counts into bound sums, part counts and largest parts.
#[multiversion(targets("x86_64+avx512f+avx512bw", "x86_64+avx2"))]
fn finish_block(
    counts: &[Counters],
    thresholds: &[u8],
    sum: &mut [u16; BLOCK],
    parts: &mut [u8; BLOCK],
    largest: &mut [u8; BLOCK],
) {
    // Each threshold's share of a sum is at most the set's size, so it fits a byte: summing
    // bytes per threshold and widening once at the end does a fraction of the work of widening
    // every feedback's share.
    let mut shares = [Counters([0; BLOCK]); 8];
    let shares = &mut shares[..thresholds.len()];
    for Counters(c) in counts {
        for j in 0..BLOCK {
            parts[j] += u8::from(c[j] > 0);
            largest[j] = largest[j].max(c[j]);
        }
        for (Counters(share), &k) in shares.iter_mut().zip(thresholds) {
            for j in 0..BLOCK {
                share[j] += c[j].saturating_sub(k);
            }
        }
    }
    for Counters(share) in shares.iter() {
        for j in 0..BLOCK {
            sum[j] += u16::from(share[j]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CodeSpace, Rules};

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
            for (start, width) in [(0, BLOCK), (BLOCK, BLOCK), (2 * BLOCK, 23)] {
                let mut counts = vec![Counters([0; BLOCK]); f];
                count_block(&rows, start, width, &feedbacks, &mut counts);
                for (k, &fb) in feedbacks.iter().enumerate() {
                    for j in 0..width {
                        let want = rows.iter().filter(|r| r[start + j] == fb).count();
                        assert_eq!(usize::from(counts[k].0[j]), want, "{f} feedbacks, {k}, {j}");
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
            for level in 0..7 {
                mark_equal(&scores, level, &mut marks);
                assert_eq!(marks.len(), len.div_ceil(64), "{len} scores");
                let marked: Vec<usize> = (0..64 * marks.len())
                    .filter(|&j| marks[j / 64] >> (j % 64) & 1 == 1)
                    .collect();
                let expected: Vec<usize> = (0..len).filter(|&j| scores[j] == level).collect();
                assert_eq!(marked, expected, "{len} scores, level {level}");
                let visited: Vec<usize> = super::marked(&marks).collect();
                assert_eq!(visited, expected, "{len} scores, level {level}");
            }
        }
    }

    /// The nibble pass, with vector instructions and without, marks every feedback a plain
    /// loop finds and nothing in the padding, for full and partial blocks.
    #[test]
    fn nibble_passes_match_a_plain_loop() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(14);
        for f in [9u8, 14, 16] {
            let rows: Vec<Vec<u8>> = (0..37)
                .map(|_| (0..3 * BLOCK).map(|_| rng.gen_range(0..f)).collect())
                .collect();
            let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
            for (start, width) in [(0, BLOCK), (BLOCK, BLOCK), (2 * BLOCK, 23)] {
                let (mut low, mut high) = ([0u8; BLOCK], [0u8; BLOCK]);
                or_nibbles(&rows, start, width, &mut low, &mut high);
                let (mut plain_low, mut plain_high) = ([0u8; BLOCK], [0u8; BLOCK]);
                or_nibbles_plain(&rows, start, width, &mut plain_low, &mut plain_high);
                for j in 0..BLOCK {
                    let want = if j < width {
                        rows.iter().fold(0u16, |m, r| m | 1 << r[start + j])
                    } else {
                        0
                    };
                    let got = u16::from(low[j]) | u16::from(high[j]) << 8;
                    let plain = u16::from(plain_low[j]) | u16::from(plain_high[j]) << 8;
                    assert_eq!(got, want, "{f} feedbacks, block at {start}, guess {j}");
                    assert_eq!(plain, want, "{f} feedbacks, block at {start}, guess {j}");
                }
            }
        }
    }

    /// The bits pass, as this CPU runs it (in byte planes on VBMI) and as plain loops, marks
    /// every feedback a plain loop finds, for full and partial blocks.
    #[test]
    fn bits_passes_match_a_plain_loop() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(15);
        for f in [14u8, 20, 32] {
            let rows: Vec<Vec<u8>> = (0..37)
                .map(|_| (0..3 * BLOCK).map(|_| rng.gen_range(0..f)).collect())
                .collect();
            let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
            for (start, width) in [(0, BLOCK), (BLOCK, BLOCK), (2 * BLOCK, 23)] {
                let mut bits = [0u32; BLOCK];
                or_block(&rows, start, width, &mut bits);
                let mut plain = [0u32; BLOCK];
                or_block_plain(&rows, start, width, &mut plain);
                for j in 0..width {
                    let want = rows.iter().fold(0u32, |m, r| m | 1 << r[start + j]);
                    assert_eq!(bits[j], want, "{f} feedbacks, block at {start}, guess {j}");
                    assert_eq!(plain[j], want, "{f} feedbacks, block at {start}, guess {j}");
                }
            }
        }
    }

    /// The bulk pass agrees with counting guess by guess, on sets of every size it accepts.
    #[test]
    fn bulk_splits_match_guess_by_guess_counting() {
        for rules in [
            Rules::mastermind(),
            Rules::new(3, "012345", false, false).unwrap(),
        ] {
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
            for use_compact in [false, true] {
                let splitter = if use_compact {
                    Splitter::new(numbered.clone(), compact_win as u8, &lb).unwrap()
                } else {
                    Splitter::new(feedbacks.clone(), win, &lb).unwrap()
                };
                check_splitter(&space, &splitter, use_compact, &lb, win);
            }
        }
    }

    /// [`bulk_splits_match_guess_by_guess_counting`] for one splitter: over sets of every size
    /// the bulk pass accepts, its splits, part scores and bounds against counting guess by
    /// guess.
    fn check_splitter(space: &CodeSpace, splitter: &Splitter, compact: bool, lb: &[u32], win: u8) {
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
            out.bounds(&rule, &mut bounds);
            let mut sorted = bounds.clone();
            sorted.sort_unstable();
            let limit = sorted[n / 2];
            let least = mark_below(&bounds, limit, &mut below);
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
                let want = Split {
                    sum: counts.iter().map(|&c| lb[c as usize]).sum(),
                    parts: counts.iter().filter(|&&c| c > 0).count() as u32,
                    largest: *counts.iter().max().unwrap(),
                    member: counts[usize::from(win)] > 0,
                };
                let at = format!("guess {g}, set of {}, compact {compact}", set.len());
                assert_eq!(out.get(g), want, "{at}");
                let excess: u32 = counts
                    .iter()
                    .map(|&c| c.saturating_sub(u32::from(last)))
                    .sum();
                assert_eq!(out.excess(g), excess, "{at}");
                let useful = want.member || want.parts > 1;
                let want_score = u32::from(useful) * (want.parts + u32::from(want.member));
                assert_eq!(u32::from(scores[g]), want_score, "{at}");
                let want_bound = if useful && want.largest <= u32::from(rule.largest) {
                    rule.n + want.sum + rule.weight * excess - u32::from(want.member) * rule.win
                } else {
                    rule.none
                };
                assert_eq!(bounds[g], want_bound, "{at}");
                let marked = below[g / 64] >> (g % 64) & 1 == 1;
                assert_eq!(marked, want_bound < limit, "{at}");
            }
        }
    }
}
