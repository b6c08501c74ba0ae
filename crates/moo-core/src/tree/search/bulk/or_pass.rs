//! The OR pass's kernels behind [`super::Splitter::part_scores`]: noting, for 64 guesses at a
//! time, which feedbacks some member gives (a bit per feedback, or byte planes of bits on
//! AVX-512 with VBMI), and scoring a block from those bits. Split from the counting kernels
//! ([`super::kernels`]), whose block loads and vector helpers they share.

use super::kernels::block;
#[cfg(target_arch = "x86_64")]
use super::kernels::{prefetch, vector, vector512, AHEAD};
use super::{Aligned, Planes, BLOCK};
use crate::kernel::by_level;
#[cfg(target_arch = "x86_64")]
use {
    super::HalfPlanes,
    crate::kernel::{AVX2, AVX512, VBMI},
};

by_level! {
    /// Sets bit `f` of `bits[j]` when guess `start + j` gets feedback `f` from some member
    /// (feedback indexes below 32). On AVX-512 with VBMI the part scores come from
    /// [`score_planes`] instead.
    pub(super) fn or_block(rows: &[&[u8]], start: usize, width: usize, bits: &mut [u32; BLOCK]) {
        or_block_plain(rows, start, width, bits);
    }
}

/// [`or_block`] as plain loops, which the compiler vectorises.
#[inline(always)]
pub(super) fn or_block_plain(rows: &[&[u8]], start: usize, width: usize, bits: &mut [u32; BLOCK]) {
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
#[cfg(target_arch = "x86_64")]
pub(super) const fn bit_table<const N: usize, const LANE: usize>(plane: usize) -> [u8; N] {
    let mut table = [0u8; N];
    let mut i = 0;
    while i < N {
        let f = i % LANE;
        if f >= 8 * plane && f < 8 * plane + 8 {
            table[i] = 1 << (f - 8 * plane);
        }
        i += 1;
    }
    table
}

by_level! {
    /// Every guess's part score ([`super::Splitter::part_scores`]) into `out`, from planes of
    /// bits: on AVX-512 with VBMI by 64-entry lookups, on AVX2 by 16-entry ones when every index
    /// is below 32 ([`HalfPlanes`]); `false`, with `out` untouched, where neither applies.
    pub(super) fn score_planes(rows: &[&[u8]], planes: &Planes, out: &mut [u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if K >= VBMI {
            // SAFETY: `score_planes` calls this body at level `K` only on a CPU that has it.
            unsafe {
                match planes.tables.len() {
                    1 => score_planes_of::<1>(rows, planes, out),
                    2 => score_planes_of::<2>(rows, planes, out),
                    3 => score_planes_of::<3>(rows, planes, out),
                    _ => score_planes_of::<4>(rows, planes, out),
                }
            }
            return true;
        }
        #[cfg(target_arch = "x86_64")]
        if K >= AVX2 {
            if let Some(halves) = &planes.halves {
                // SAFETY: as above.
                unsafe {
                    match (halves.low, halves.tables.len() - halves.low) {
                        (0, 1) => score_halves_avx2::<0, 1>(rows, halves, out),
                        (0, _) => score_halves_avx2::<0, 2>(rows, halves, out),
                        (1, 1) => score_halves_avx2::<1, 1>(rows, halves, out),
                        (1, _) => score_halves_avx2::<1, 2>(rows, halves, out),
                        (_, 1) => score_halves_avx2::<2, 1>(rows, halves, out),
                        _ => score_halves_avx2::<2, 2>(rows, halves, out),
                    }
                }
                return true;
            }
        }
        // The scalar level has no use for them: the caller takes the plain OR pass.
        let _ = (rows, planes, out);
        false
    }
}

/// [`score_planes`] on AVX2, by [`HalfPlanes`]: `LOW` planes for the indexes below 16 and `HIGH`
/// for those from 16 to 31 (each 1 or 2, or none below 16). Adding 0x70 with saturation keeps an
/// index below 16 in the low nibble with the top bit clear and sets the top bit of every other
/// (the padding included), which makes `vpshufb` look it up as zero; subtracting 16 does the
/// same for the high half. A block's scores come from byte popcounts of the planes, as in
/// [`score_planes_of`].
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn score_halves_avx2<const LOW: usize, const HIGH: usize>(
    rows: &[&[u8]],
    halves: &HalfPlanes,
    out: &mut [u8],
) {
    use std::arch::x86_64::{
        __m256i, _mm256_adds_epu8, _mm256_or_si256, _mm256_set1_epi8, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_sub_epi8,
    };
    let mut tail = Aligned([u8::MAX; BLOCK]);
    let mut start = 0;
    while start < out.len() {
        let width = (out.len() - start).min(BLOCK);
        // Loaded for each block, not once for the call: every ymm register is lost across the
        // calls between blocks, and tables kept from before them were read from the stack for
        // every member (`perf annotate`); constants were broadcast again for every member. The
        // opaque values keep the compiler from hoisting the loads back out.
        let tables = std::hint::black_box(&halves.tables);
        let low_tables: [__m256i; LOW] = std::array::from_fn(|p| vector(&tables[p].0));
        let high_tables: [__m256i; HIGH] = std::array::from_fn(|p| vector(&tables[LOW + p].0));
        let (to_low, to_high) =
            std::hint::black_box((_mm256_set1_epi8(0x70), _mm256_set1_epi8(16)));
        let mut low = [[_mm256_setzero_si256(); 2]; LOW];
        let mut high = [[_mm256_setzero_si256(); 2]; HIGH];
        let mut note = |block: &[u8; BLOCK]| {
            for h in 0..2 {
                let f = vector(&block[32 * h..32 * h + 32]);
                let (below, above) = (_mm256_adds_epu8(f, to_low), _mm256_sub_epi8(f, to_high));
                for (held, table) in low.iter_mut().zip(&low_tables) {
                    held[h] = _mm256_or_si256(held[h], _mm256_shuffle_epi8(*table, below));
                }
                for (held, table) in high.iter_mut().zip(&high_tables) {
                    held[h] = _mm256_or_si256(held[h], _mm256_shuffle_epi8(*table, above));
                }
            }
        };
        if width == BLOCK {
            for row in rows {
                prefetch(row, start + AHEAD);
                note(row[start..start + BLOCK].try_into().expect("a block"));
            }
        } else {
            for row in rows {
                note(block(row, start, width, &mut tail.0));
            }
        }
        let mut scores = [0u8; BLOCK];
        for h in 0..2 {
            let mut planes = [_mm256_setzero_si256(); 4];
            for (to, held) in planes.iter_mut().zip(low.iter().chain(&high)) {
                *to = held[h];
            }
            scores[32 * h..32 * h + 32]
                .copy_from_slice(&half_scores(&planes[..LOW + HIGH], halves));
        }
        match out[start..].first_chunk_mut::<BLOCK>() {
            Some(full) => *full = scores,
            None => out[start..].copy_from_slice(&scores[..width]),
        }
        start += width;
    }
}

/// The part scores of 32 guesses from their `planes` ([`score_halves_avx2`]): the feedbacks
/// each guess gets, counted by byte popcounts, plus one for a member, and 0 for a non-member
/// that leaves the set whole.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn half_scores(planes: &[std::arch::x86_64::__m256i], halves: &HalfPlanes) -> [u8; 32] {
    use std::arch::x86_64::{
        _mm256_add_epi8, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8, _mm256_or_si256,
        _mm256_set1_epi8, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_srli_epi16,
        _mm256_sub_epi8,
    };
    let ones = vector(&std::array::from_fn::<u8, 32, _>(|i| {
        (i % 16).count_ones() as u8
    }));
    let nibble = _mm256_set1_epi8(0x0f);
    let mut parts = _mm256_setzero_si256();
    for &plane in planes {
        let bits_low = _mm256_shuffle_epi8(ones, _mm256_and_si256(plane, nibble));
        let high_nibbles = _mm256_and_si256(_mm256_srli_epi16::<4>(plane), nibble);
        let bits_high = _mm256_shuffle_epi8(ones, high_nibbles);
        parts = _mm256_add_epi8(parts, _mm256_add_epi8(bits_low, bits_high));
    }
    let win = _mm256_set1_epi8(1 << halves.win_bit);
    // All ones where the guess is a member, else zero.
    let member = _mm256_cmpeq_epi8(_mm256_and_si256(planes[halves.win_plane], win), win);
    // A non-member leaving the set whole teaches nothing: score 0.
    let useful = _mm256_or_si256(member, _mm256_cmpgt_epi8(parts, _mm256_set1_epi8(1)));
    // Subtracting the all-ones mask adds one for a member.
    bytemuck::cast(_mm256_and_si256(useful, _mm256_sub_epi8(parts, member)))
}

/// [`score_planes`] with `P` planes of bits: bit `k % 8` of plane `k / 8` is the feedback of
/// rank `k` among those of the game, so that 20 feedbacks take three planes, whatever their
/// indexes (Mastermind's five positions number them up to 30). A member takes one 64-entry
/// byte lookup (`vpermb`) and one or per plane for 64 guesses, and a block's scores come
/// straight from the planes, with byte popcounts and masks, not through a bit set per guess.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vbmi")]
fn score_planes_of<const P: usize>(rows: &[&[u8]], planes: &Planes, out: &mut [u8]) {
    use std::arch::x86_64::{
        __m512i, _mm512_add_epi8, _mm512_and_si512, _mm512_cmplt_epu8_mask, _mm512_mask_add_epi8,
        _mm512_maskz_mov_epi8, _mm512_or_si512, _mm512_permutexvar_epi8, _mm512_set1_epi8,
        _mm512_setzero_si512, _mm512_shuffle_epi8, _mm512_srli_epi16, _mm512_test_epi8_mask,
    };
    let tables: [__m512i; P] = std::array::from_fn(|p| vector512(&planes.tables[p].0));
    // The bits set in each nibble, for popcounts by two byte lookups.
    let ones = vector512(&std::array::from_fn::<u8, BLOCK, _>(|i| {
        (i % 16).count_ones() as u8
    }));
    let nibble = _mm512_set1_epi8(0x0f);
    let (one, two) = (_mm512_set1_epi8(1), _mm512_set1_epi8(2));
    let win = _mm512_set1_epi8(1 << planes.win_bit);
    let mut tail = Aligned([u8::MAX; BLOCK]);
    let mut start = 0;
    while start < out.len() {
        let width = (out.len() - start).min(BLOCK);
        let mut held = [_mm512_setzero_si512(); P];
        if width == BLOCK {
            // Two members at a time: the two lookups of a plane are or-ed into it by one
            // three-way instruction.
            let mut pairs = rows.chunks_exact(2);
            for pair in &mut pairs {
                let (a, b) = (
                    vector512(&pair[0][start..start + BLOCK]),
                    vector512(&pair[1][start..start + BLOCK]),
                );
                for (h, t) in held.iter_mut().zip(&tables) {
                    let both = _mm512_or_si512(
                        _mm512_permutexvar_epi8(a, *t),
                        _mm512_permutexvar_epi8(b, *t),
                    );
                    *h = _mm512_or_si512(*h, both);
                }
            }
            for row in pairs.remainder() {
                let m = vector512(&row[start..start + BLOCK]);
                for (h, t) in held.iter_mut().zip(&tables) {
                    *h = _mm512_or_si512(*h, _mm512_permutexvar_epi8(m, *t));
                }
            }
        } else {
            for row in rows {
                let m = vector512(block(row, start, width, &mut tail.0));
                for (h, t) in held.iter_mut().zip(&tables) {
                    *h = _mm512_or_si512(*h, _mm512_permutexvar_epi8(m, *t));
                }
            }
        }
        let mut parts = _mm512_setzero_si512();
        for h in held {
            let low = _mm512_shuffle_epi8(ones, _mm512_and_si512(h, nibble));
            let high =
                _mm512_shuffle_epi8(ones, _mm512_and_si512(_mm512_srli_epi16::<4>(h), nibble));
            parts = _mm512_add_epi8(parts, _mm512_add_epi8(low, high));
        }
        let member = _mm512_test_epi8_mask(held[planes.win_plane], win);
        // A non-member leaving the set whole teaches nothing: score 0.
        let useful = member | !_mm512_cmplt_epu8_mask(parts, two);
        let scores: [u8; BLOCK] = bytemuck::cast(_mm512_maskz_mov_epi8(
            useful,
            _mm512_mask_add_epi8(parts, member, parts, one),
        ));
        // A full block is one vector store; copying a slice of a length not known at compile
        // time was a call to memmove per block, 3% of Mastermind 5x6.
        match out[start..].first_chunk_mut::<BLOCK>() {
            Some(full) => *full = scores,
            None => out[start..].copy_from_slice(&scores[..width]),
        }
        start += width;
    }
}

by_level! {
    /// [`or_block`] for feedback indexes below 16 (a compact table's): sets bit `f` of
    /// `low[j]`, or bit `f - 8` of `high[j]` for `f` of 8 or more, when guess `start + j` gets
    /// feedback `f`.
    pub(super) fn or_nibbles(
        rows: &[&[u8]],
        start: usize,
        width: usize,
        low: &mut [u8; BLOCK],
        high: &mut [u8; BLOCK],
    ) {
        #[cfg(target_arch = "x86_64")]
        {
            if K >= AVX512 {
                // SAFETY: `or_nibbles` calls this body at level `K` only on a CPU that has it.
                return unsafe { or_nibbles_avx512(rows, start, width, low, high) };
            }
            if K >= AVX2 {
                // SAFETY: as above.
                return unsafe { or_nibbles_avx2(rows, start, width, low, high) };
            }
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return or_nibbles_simd128(rows, start, width, low, high);
        #[allow(unreachable_code)]
        or_nibbles_plain(rows, start, width, low, high)
    }
}

/// [`or_nibbles`] in WebAssembly's 128-bit vectors, the browser build's: a byte swizzle (which
/// gives 0 for an index of 16 or more, padding included) looks up the low byte of `1 << f` and
/// another its high byte, 16 guesses at a time, where the plain loop's per-byte shifts have no
/// vector form and run a byte at a time (two thirds of the browser's search time on Bulls and
/// Cows before this).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn or_nibbles_simd128(
    rows: &[&[u8]],
    start: usize,
    width: usize,
    low: &mut [u8; BLOCK],
    high: &mut [u8; BLOCK],
) {
    use std::arch::wasm32::{i8x16_swizzle, u8x16, v128, v128_load, v128_or, v128_store};
    const LANES: usize = BLOCK / 16;
    let low_bits = u8x16(1, 2, 4, 8, 16, 32, 64, 128, 0, 0, 0, 0, 0, 0, 0, 0);
    let high_bits = u8x16(0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 16, 32, 64, 128);
    // SAFETY: every load and store is of 16 bytes inside a `[u8; BLOCK]`, BLOCK a multiple of 16.
    let load =
        |bytes: &[u8; BLOCK], i: usize| unsafe { v128_load(bytes.as_ptr().add(16 * i).cast()) };
    let mut lo: [v128; LANES] = std::array::from_fn(|i| load(low, i));
    let mut hi: [v128; LANES] = std::array::from_fn(|i| load(high, i));
    let mut tail = Aligned([u8::MAX; BLOCK]);
    for row in rows {
        let block = block(row, start, width, &mut tail.0);
        for i in 0..LANES {
            let f = load(block, i);
            lo[i] = v128_or(lo[i], i8x16_swizzle(low_bits, f));
            hi[i] = v128_or(hi[i], i8x16_swizzle(high_bits, f));
        }
    }
    for i in 0..LANES {
        // SAFETY: as above.
        unsafe {
            v128_store(low.as_mut_ptr().add(16 * i).cast(), lo[i]);
            v128_store(high.as_mut_ptr().add(16 * i).cast(), hi[i]);
        }
    }
}

/// [`or_nibbles`] without vector instructions.
#[inline(always)]
pub(super) fn or_nibbles_plain(
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
pub(super) fn or_nibbles_avx2(
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
pub(super) fn or_nibbles_avx512(
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

by_level! {
    /// [`score_block`] for the bits of [`or_nibbles`].
    pub(super) fn score_nibbles(
        low: &[u8; BLOCK],
        high: &[u8; BLOCK],
        win: u8,
        scores: &mut [u8; BLOCK],
    ) {
        let (plane, shift) = if win < 8 { (low, win) } else { (high, win - 8) };
        for j in 0..BLOCK {
            let member = (plane[j] >> shift) & 1;
            let parts = (low[j].count_ones() + high[j].count_ones()) as u8;
            let useless = u8::from(member == 0 && parts < 2);
            scores[j] = (parts + member) * (1 - useless);
        }
    }
}

by_level! {
    /// Turns a block's feedback bits into part scores (see
    /// [`super::Splitter::part_scores`]).
    pub(super) fn score_block(bits: &[u32; BLOCK], win: u32, scores: &mut [u8; BLOCK]) {
        for j in 0..BLOCK {
            let member = (bits[j] >> win) & 1;
            let parts = bits[j].count_ones();
            let useless = u32::from(member == 0 && parts < 2);
            scores[j] = ((parts + member) * (1 - useless)) as u8;
        }
    }
}
