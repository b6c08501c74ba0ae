//! The vector kernels behind [`super::Splitter`] and [`super::Splits`]: counting feedbacks 64
//! guesses at a time and finishing a block into sums, parts and largest parts (OR-ing the bits
//! of the feedbacks that occur is [`super::or_pass`]'s). Most are plain loops compiled once per
//! [`Level`](crate::kernel::Level) ([`by_level!`]); the ones that must hold their counters in registers, or gather
//! through 16-entry tables, are written with the intrinsics of each level.

use super::{Aligned, BoundRule, Counters, BLOCK};
use crate::kernel::{by_level, AVX512};
#[cfg(target_arch = "x86_64")]
use crate::kernel::{AVX2, VBMI};

by_level! {
    /// [`super::Splits::bounds`]' pass.
    pub(super) fn bounds_pass(
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
}

/// [`bounds_pass`] with or without the excess, inlined into each of its versions.
#[inline(always)]
pub(super) fn bounds_of<const EXCESS: bool>(
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

/// The bytes of `row` for guesses `start..start + width` as a full block. The last, partial block
/// is copied into `tail`, whose padding must be `u8::MAX`: no feedback has that index, so
/// padding lanes count nowhere (and lanes past `width` are never read back anyway).
#[inline(always)]
pub(super) fn block<'a>(
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

by_level! {
    /// Counts, for guesses `start..start + width`, how many members give each feedback (each
    /// below `u8::MAX`, the padding), into `counts`, which must hold zeros.
    pub(super) fn count_block(
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
        // (the later passes find the rows in the core's cache).
        let wide = K >= AVX512;
        #[cfg(target_arch = "x86_64")]
        {
            if feedbacks.iter().all(|&f| f < 16) {
                if K >= AVX512 {
                    // SAFETY: `count_block` calls this body at level `K` only on a CPU that has it.
                    return unsafe { count_nibbles_avx512(rows, start, width, feedbacks, counts) };
                }
                if K >= AVX2 {
                    // SAFETY: as above.
                    return unsafe { count_nibbles_avx2(rows, start, width, feedbacks, counts) };
                }
            }
            if K >= VBMI && feedbacks.iter().all(|&f| f < PADDING_INDEX) {
                // SAFETY: as above.
                return unsafe { count_nibbles_vbmi(rows, start, width, feedbacks, counts) };
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if feedbacks.iter().all(|&f| f < 16) {
            return count_nibbles_simd128(rows, start, width, feedbacks, counts);
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
}

/// 32 bytes as an AVX2 vector (an unaligned load, without a raw pointer).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn vector(bytes: &[u8]) -> std::arch::x86_64::__m256i {
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
pub(super) fn count_nibbles_avx2(
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
/// `vpshufb` and WebAssembly's swizzle, 64 for `vpermb`).
#[cfg(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
))]
pub(super) fn pair_table<const N: usize, const LANE: usize>(feedbacks: &[u8]) -> [u8; N] {
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
pub(super) fn count_pairs_avx2<const P: usize>(
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

/// [`count_nibbles_avx2`] in WebAssembly's 128-bit vectors, the browser build's: a swizzle (0
/// for an index of 16 or more, padding included) maps each lane's feedback to 1 or 16 for a
/// pair of feedbacks and one add counts both, flushed from nibbles to bytes every 15 members;
/// two pairs per pass over the members, whose counters, tables and four quarters of a block
/// fit the 16 vector registers the browsers' compilers use.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn count_nibbles_simd128(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    for (feedbacks, counts) in feedbacks.chunks(4).zip(counts.chunks_mut(4)) {
        match feedbacks.len().div_ceil(2) {
            1 => count_pairs_simd128::<1>(rows, start, width, feedbacks, counts),
            _ => count_pairs_simd128::<2>(rows, start, width, feedbacks, counts),
        }
    }
}

/// [`count_nibbles_simd128`] for `P` pairs of feedbacks (the last may be a single one).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn count_pairs_simd128<const P: usize>(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    feedbacks: &[u8],
    counts: &mut [Counters],
) {
    use std::arch::wasm32::{
        i8x16_swizzle, u16x8_shr, u8x16_add, u8x16_splat, v128, v128_and, v128_load, v128_store,
    };
    const QUARTERS: usize = BLOCK / 16;
    // SAFETY: every load is of 16 bytes inside a slice at least that long from the offset.
    let load = |bytes: &[u8], at: usize| unsafe {
        assert!(at + 16 <= bytes.len());
        v128_load(bytes.as_ptr().add(at).cast())
    };
    let tables: [v128; P] =
        std::array::from_fn(|p| load(&pair_table::<16, 16>(&feedbacks[2 * p..]), 0));
    let nibble = u8x16_splat(0x0f);
    let mut packed = [[u8x16_splat(0); QUARTERS]; P];
    let mut flush = |packed: &mut [[v128; QUARTERS]; P]| {
        for (p, quarters) in packed.iter_mut().enumerate() {
            for (q, v) in quarters.iter_mut().enumerate() {
                let low = v128_and(*v, nibble);
                let high = v128_and(u16x8_shr(*v, 4), nibble);
                for (k, part) in [low, high]
                    .into_iter()
                    .enumerate()
                    .take(feedbacks.len() - 2 * p)
                {
                    let counter = &mut counts[2 * p + k].0[16 * q..16 * q + 16];
                    let sum = u8x16_add(load(counter, 0), part);
                    // SAFETY: `counter` is 16 bytes.
                    unsafe { v128_store(counter.as_mut_ptr().cast(), sum) };
                }
                *v = u8x16_splat(0);
            }
        }
    };
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for chunk in rows.chunks(15) {
        for row in chunk {
            let block = block(row, start, width, &mut tail.0);
            let quarters: [v128; QUARTERS] = std::array::from_fn(|q| load(block, 16 * q));
            for (p, table) in tables.iter().enumerate() {
                for q in 0..QUARTERS {
                    let step = i8x16_swizzle(*table, quarters[q]);
                    packed[p][q] = u8x16_add(packed[p][q], step);
                }
            }
        }
        flush(&mut packed);
    }
}

/// 64 bytes as an AVX-512 vector.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(super) fn vector512(bytes: &[u8]) -> std::arch::x86_64::__m512i {
    bytemuck::cast::<[u8; 64], _>(bytes.try_into().expect("64 bytes"))
}

/// [`count_nibbles_avx2`] on AVX-512: a block is one register, so a lookup and an add count two
/// feedbacks in all 64 lanes, and with 32 registers up to eight pairs are counted in one pass
/// over the members: 14 feedbacks take 14 vector instructions per member and block instead of a
/// compare and an add per feedback, 28.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw")]
pub(super) fn count_nibbles_avx512(
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
pub(super) const PADDING_INDEX: u8 = 63;

/// [`count_nibbles_avx512`] for feedback indexes of up to 62, on AVX-512 with VBMI, whose byte
/// lookup (`vpermb`) takes a 64-entry table instead of 16: the five-symbol games' 20 feedbacks,
/// which a compare and an add per feedback counted before, take 10 lookups and 10 adds per
/// member and block.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
pub(super) fn count_nibbles_vbmi(
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

/// How far ahead of the block being worked on [`prefetch`] asks for a row: two blocks, because a
/// small set's pass over its members is shorter than a read from memory, so a request one block
/// ahead would arrive late. (The second block of a pass is not asked for; asking for both was
/// slower, see the performance page.)
pub(super) const AHEAD: usize = 2 * BLOCK;

/// Asks for the cache line of `row` at `at` (the same row's block after next) while this one is
/// worked on. A set's rows are scattered over the score table, more of them at once than the
/// hardware follows as streams, so without this every block of every row waits for memory. A
/// prefetch never faults, so `at` past the row's end is harmless.
#[inline(always)]
pub(super) fn prefetch(row: &[u8], at: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch is only a hint: it reads nothing and faults on no address.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(row.as_ptr().wrapping_add(at).cast()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (row, at);
}

/// [`count_block`] for `F` feedbacks.
#[inline(always)]
pub(super) fn count_held<const F: usize>(
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
        prefetch(row, start + AHEAD);
        let block = block(row, start, width, &mut tail.0);
        for (Counters(c), &f) in held.iter_mut().zip(feedbacks) {
            for j in 0..BLOCK {
                c[j] += u8::from(block[j] == f);
            }
        }
    }
    counts[..F].copy_from_slice(&held);
}

by_level! {
    /// Turns a block's counts into bound sums, part counts and largest parts, added to what
    /// `sum`, `parts` and `largest` hold.
    pub(super) fn finish_block(
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
}
