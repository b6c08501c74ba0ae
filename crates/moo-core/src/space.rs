//! The code space of a game: every valid code, in alphabet order, and the score table.
//!
//! Strategies score the same pairs of codes millions of times, so for spaces up to
//! [`TABLE_MAX_CODES`] codes the space precomputes every guess x secret feedback index once, one byte
//! per pair (25 MB for Bulls and Cows), and scoring becomes a load. A caller with memory to spare
//! can allow a larger table through [`SpaceOptions::with_table_bytes`], up to
//! [`TABLE_LIMIT_CODES`] codes (5 digits of 0-9, 30240 codes, take 915 MB). Other spaces score on the fly,
//! from a packed copy of each code when the alphabet has at most 16 symbols (every game up to 10
//! digits or Mastermind 6x9): the symbols four bits each in one `u64`, so bulls are the equal
//! nibbles of an exclusive or, and either the symbol mask (distinct games: bulls + cows is the
//! popcount of the two masks' intersection) or sixteen per-symbol counts (repeats: the sum of
//! their minima, which the compiler vectorises). A pair then costs a few instructions and no
//! branch, and filtering millions of codes runs on every core.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::kernel::{by_level, Level};
use rayon::prelude::*;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::rules::Rules;

/// The rows of [`CodeSpace::score_table`] one thread scores at a time: enough to amortise the
/// hand-off, few enough that both halves of a small table run in parallel.
const SCORE_TABLE_ROWS: usize = 32;

/// The most codes a space will enumerate.
pub const MAX_CODES: usize = 4_000_000;

/// The most codes for which the score table is built by default (its size is the square, in
/// bytes: 121 MB at this limit).
pub const TABLE_MAX_CODES: usize = 11_000;

/// The most codes any score table serves, whatever memory it is allowed: the exact search packs
/// the members of a candidate set as 16-bit indexes.
pub const TABLE_LIMIT_CODES: usize = 1 << 16;

/// How to build a [`CodeSpace`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct SpaceOptions {
    /// The most codes the space will enumerate.
    pub max_codes: usize,
    /// The most bytes the score table may take; a space whose table would be larger scores on the
    /// fly. The table of `n` codes takes `n * n` bytes.
    pub table_bytes: u64,
}

impl Default for SpaceOptions {
    fn default() -> SpaceOptions {
        SpaceOptions {
            max_codes: MAX_CODES,
            table_bytes: (TABLE_MAX_CODES * TABLE_MAX_CODES) as u64,
        }
    }
}

impl SpaceOptions {
    /// Whether a space of `codes` codes gets a score table under these options.
    pub fn builds_table(&self, codes: usize) -> bool {
        codes <= TABLE_LIMIT_CODES && (codes as u64).pow(2) <= self.table_bytes
    }
}

with_setters!(SpaceOptions {
    /// These options with a limit on the codes enumerated.
    with_max_codes: max_codes: usize;
    /// These options with a memory budget for the score table.
    with_table_bytes: table_bytes: u64;
});

/// Why a code space could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SpaceError {
    /// The rules allow more codes than the operation can enumerate.
    #[error("these rules allow {size} codes, more than the {limit} this operation can enumerate: use a shorter code or fewer symbols")]
    TooLarge {
        /// How many codes the rules allow (saturating).
        size: u128,
        /// The most this operation handles.
        limit: usize,
    },
}

/// Every valid code of a [`Rules`], with fast scoring between them.
#[derive(Clone)]
pub struct CodeSpace {
    rules: Rules,
    codes: Vec<Code>,
    /// Row-major guess x secret feedback indexes, when the space is small enough.
    table: Option<Rows>,
    /// The codes packed for fast scoring, when there is no table.
    packed: Packed,
    /// The score table with each feedback renumbered by its rank among those that occur, built
    /// the first time the exact search asks for it (see [`CompactTable`]).
    compact: OnceLock<Option<CompactTable>>,
    /// Which feedback indexes the table holds, found by one pass over it the first time the
    /// exact search asks ([`CodeSpace::feedbacks_seen`]).
    seen: OnceLock<Vec<bool>>,
}

/// The score table with feedback indexes renumbered `0..F` in order among the `F` that occur,
/// when `F` is at most 16 (4-digit games have 14): a feedback then fits a nibble, and the exact
/// search's bulk passes gather and count feedbacks with byte-shuffle lookups, two per 32 pairs
/// ([`crate::tree`]). It is a second copy of the table, so it is built only when the exact search
/// asks for it, and only for tables of at most [`CompactTable::MAX_BYTES`].
#[derive(Clone)]
pub(crate) struct CompactTable {
    /// The feedback index of each compact one.
    feedbacks: Vec<u8>,
    table: Rows,
}

impl CompactTable {
    /// The most feedbacks a compact table holds.
    pub(crate) const MAX_FEEDBACKS: usize = 16;
    /// The largest table that gets a compact copy: 4 of 0-9 (25 MB) and 4 of 0-9 with repeats
    /// (100 MB) do; a larger game keeps to the one table it was allowed, and the search reads
    /// that.
    pub(crate) const MAX_BYTES: usize = 128 << 20;

    /// The feedback index of each compact index, in order.
    pub(crate) fn feedbacks(&self) -> &[u8] {
        &self.feedbacks
    }

    /// Guess `g`'s row (every secret).
    pub(crate) fn row(&self, g: usize) -> &[u8] {
        self.table.row(g)
    }
}

/// A square table of bytes whose every row starts on a cache line (64 bytes).
///
/// The exact search's bulk passes read 64 bytes of one row per member at a time. From rows laid
/// end to end in a block the allocator placed 16 bytes past a line, as glibc does, every such
/// read took two lines; here it takes one. The rows are padded to a multiple of 64 bytes (up to
/// 63 bytes each: under 1% of the table from 6400 codes up, 0.3% for 4 of 0-9), and the table
/// starts where the buffer first reaches a line (up to 63 bytes more). The memory allowed for a
/// table ([`SpaceOptions::table_bytes`]) still counts `n * n` bytes.
#[derive(Clone)]
struct Rows {
    bytes: Vec<u8>,
    /// Where row 0 starts in `bytes`.
    start: usize,
    /// Bytes from one row's start to the next.
    stride: usize,
    n: usize,
}

impl Rows {
    /// An `n` x `n` table of zeros.
    fn new(n: usize) -> Rows {
        let stride = n.next_multiple_of(64);
        let bytes = vec![0u8; n * stride + 63];
        // A clone copies the bytes to a buffer aligned anew, so its rows may straddle lines
        // again: slower, never wrong, since `start` still finds them.
        let start = bytes.as_ptr().align_offset(64).min(63);
        Rows {
            bytes,
            start,
            stride,
            n,
        }
    }

    /// Row `g`.
    #[inline]
    fn row(&self, g: usize) -> &[u8] {
        let at = self.start + g * self.stride;
        &self.bytes[at..at + self.n]
    }

    /// Entry `s` of row `g`.
    #[inline]
    fn get(&self, g: usize, s: usize) -> u8 {
        debug_assert!(s < self.n, "secret {s} past a row of {}", self.n);
        self.bytes[self.start + g * self.stride + s]
    }

    /// Every row, mutably and in parallel, with its index.
    fn par_rows_mut(&mut self) -> impl IndexedParallelIterator<Item = (usize, &mut [u8])> {
        let n = self.n;
        self.bytes[self.start..self.start + n * self.stride]
            .par_chunks_mut(self.stride)
            .map(move |row| &mut row[..n])
            .enumerate()
    }

    /// Every row, in parallel.
    fn par_rows(&self) -> impl IndexedParallelIterator<Item = &[u8]> {
        let n = self.n;
        self.bytes[self.start..self.start + n * self.stride]
            .par_chunks(self.stride)
            .map(move |row| &row[..n])
    }

    /// The entries held, `n * n`.
    fn len(&self) -> usize {
        self.n * self.n
    }
}

/// The codes of a space without a table, packed for scoring (see the module docs).
#[derive(Clone)]
enum Packed {
    /// The table serves, or the alphabet is too large to pack: score [`Code`]s.
    No,
    /// Distinct symbols: positions and symbol mask.
    Distinct(Vec<Distinct>),
    /// Repeats allowed: positions and per-symbol counts.
    Repeats(Vec<Counted>),
}

/// A code of a distinct game, packed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Distinct {
    /// Symbol `i` in bits `4i..4i + 4`.
    positions: u64,
    /// One bit per symbol used.
    mask: u64,
}

/// A code of a game with repeats, packed.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Counted {
    /// Symbol `i` in bits `4i..4i + 4`.
    positions: u64,
    /// How many times each symbol appears.
    counts: [u8; 16],
}

/// The largest alphabet whose codes are packed four bits a symbol.
const PACKED_SYMBOLS: usize = 16;

/// Four bits a symbol, symbol `i` in bits `4i..4i + 4`.
fn positions(code: &Code) -> u64 {
    code.symbols()
        .iter()
        .enumerate()
        .fold(0, |p, (i, &s)| p | u64::from(s) << (4 * i))
}

/// The positions at which two packed codes hold different symbols.
#[inline(always)]
fn differing(a: u64, b: u64) -> u32 {
    let x = a ^ b;
    let x = x | x >> 1;
    let x = x | x >> 2;
    (x & 0x1111_1111_1111_1111).count_ones()
}

impl Distinct {
    fn new(code: &Code) -> Distinct {
        Distinct {
            positions: positions(code),
            mask: code.mask(),
        }
    }

    /// The feedback index of `self` as a guess against `secret`, both of `length` symbols.
    #[inline(always)]
    pub(crate) fn score(self, secret: Distinct, length: u32) -> u8 {
        let bulls = length - differing(self.positions, secret.positions);
        let common = (self.mask & secret.mask).count_ones();
        // bulls * (length + 1) + (common - bulls)
        (bulls * length + common) as u8
    }
}

impl Counted {
    fn new(code: &Code) -> Counted {
        let mut counts = [0u8; 16];
        for &s in code.symbols() {
            counts[usize::from(s)] += 1;
        }
        Counted {
            positions: positions(code),
            counts,
        }
    }

    /// The feedback index of `self` as a guess against `secret`, both of `length` symbols.
    #[inline(always)]
    pub(crate) fn score(&self, secret: &Counted, length: u32) -> u8 {
        let bulls = length - differing(self.positions, secret.positions);
        let common: u8 = self
            .counts
            .iter()
            .zip(&secret.counts)
            .map(|(a, b)| *a.min(b))
            .sum();
        (bulls * length + u32::from(common)) as u8
    }
}

by_level! {
    /// Writes the feedback index of `guess` against each code `codes[at[i]]` into `out[i]`.
    /// Compiled for each [`crate::Kernel`] level (popcount, AVX2, AVX-512), the one
    /// [`Level::active`] names picked at run time, so the binary stays portable.
    fn distinct_feedbacks(
        guess: Distinct,
        codes: &[Distinct],
        at: &[u32],
        length: u32,
        out: &mut [u8],
    ) {
        for (o, &s) in out.iter_mut().zip(at) {
            *o = guess.score(codes[s as usize], length);
        }
    }
}

/// Secrets copied out of a packed space, side by side, for scoring many guesses against the same
/// secrets: the loops then read memory in order and the compiler vectorises them.
pub(crate) enum Gathered {
    /// A distinct game: positions and masks.
    Distinct(Vec<u64>, Vec<u64>),
    /// A game with repeats: positions and per-symbol counts.
    Repeats(Vec<u64>, Vec<[u8; 16]>),
}

/// Each nibble's lowest bit.
const NIBBLES: u64 = 0x1111_1111_1111_1111;

by_level! {
    /// [`distinct_feedbacks`] against gathered secrets.
    fn distinct_gathered(
        guess: Distinct,
        positions: &[u64],
        masks: &[u64],
        length: u32,
        out: &mut [u8],
    ) {
        for ((o, &p), &m) in out.iter_mut().zip(positions).zip(masks) {
            let x = guess.positions ^ p;
            let x = x | x >> 1;
            let x = x | x >> 2;
            let bulls = length - (x & NIBBLES).count_ones();
            *o = (bulls * length + (guess.mask & m).count_ones()) as u8;
        }
    }
}

by_level! {
    /// [`counted_feedbacks`] against gathered secrets.
    fn counted_gathered(
        guess: &Counted,
        positions: &[u64],
        counts: &[[u8; 16]],
        length: u32,
        out: &mut [u8],
    ) {
        for ((o, &p), c) in out.iter_mut().zip(positions).zip(counts) {
            let bulls = length - differing(guess.positions, p);
            let common: u8 = guess.counts.iter().zip(c).map(|(a, b)| *a.min(b)).sum();
            *o = (bulls * length + u32::from(common)) as u8;
        }
    }
}

by_level! {
    /// [`distinct_feedbacks`] for games with repeats.
    fn counted_feedbacks(
        guess: &Counted,
        codes: &[Counted],
        at: &[u32],
        length: u32,
        out: &mut [u8],
    ) {
        for (o, &s) in out.iter_mut().zip(at) {
            *o = guess.score(&codes[s as usize], length);
        }
    }
}

impl std::fmt::Debug for CodeSpace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CodeSpace")
            .field("rules", &self.rules)
            .field("codes", &self.codes.len())
            .field("table", &self.table.is_some())
            .finish()
    }
}

impl CodeSpace {
    /// Enumerates the code space, refusing spaces over [`MAX_CODES`], with a score table up to
    /// [`TABLE_MAX_CODES`] codes.
    pub fn new(rules: Rules) -> Result<CodeSpace, SpaceError> {
        CodeSpace::with_options(rules, &SpaceOptions::default())
    }

    /// Enumerates the code space, refusing spaces over `limit` codes.
    pub fn with_limit(rules: Rules, limit: usize) -> Result<CodeSpace, SpaceError> {
        CodeSpace::with_options(rules, &SpaceOptions::default().with_max_codes(limit))
    }

    /// Enumerates the code space as `options` say.
    pub fn with_options(rules: Rules, options: &SpaceOptions) -> Result<CodeSpace, SpaceError> {
        let size = rules.space_size();
        let limit = options.max_codes;
        if size > limit as u128 {
            return Err(SpaceError::TooLarge { size, limit });
        }
        let codes = enumerate(&rules);
        debug_assert_eq!(codes.len() as u128, size);
        let packed = if rules.alphabet().len() > PACKED_SYMBOLS {
            Packed::No
        } else if rules.repeats() {
            Packed::Repeats(codes.par_iter().map(Counted::new).collect())
        } else {
            Packed::Distinct(codes.par_iter().map(Distinct::new).collect())
        };
        let mut space = CodeSpace {
            rules,
            codes,
            table: None,
            packed,
            compact: OnceLock::new(),
            seen: OnceLock::new(),
        };
        if options.builds_table(space.codes.len()) {
            space.table = Some(space.build_table());
            if space.rows_in_cache() {
                // Every score is then a load from a row in cache; the packed codes would only
                // take memory. A larger table keeps them for the heuristics (see `cached_row`).
                space.packed = Packed::No;
            }
        }
        Ok(space)
    }

    /// The rules this space enumerates.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The code length.
    pub fn length(&self) -> usize {
        self.rules.length()
    }

    /// The number of codes.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether the space is empty (never, for valid rules).
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// Every code, in alphabet order.
    pub fn codes(&self) -> &[Code] {
        &self.codes
    }

    /// The symbols that some code of `members` (indices) holds, as a bit per symbol index: an
    /// alphabet has at most 64 symbols (`crate::rules::MAX_SYMBOLS`).
    pub(crate) fn symbols_held(&self, members: &[u32]) -> u64 {
        members
            .iter()
            .flat_map(|&c| self.codes[c as usize].symbols())
            .fold(0u64, |held, &s| held | 1 << s)
    }

    /// The code at `index`.
    ///
    /// # Panics
    /// If `index` is out of range.
    pub fn code(&self, index: usize) -> Code {
        self.codes[index]
    }

    /// The index of a code, if it is valid in this space.
    pub fn index_of(&self, code: &Code) -> Option<usize> {
        self.codes.binary_search(code).ok()
    }

    /// The index of `code`, which must be valid in this space, computed from its symbols in
    /// constant time (no search): the number of valid codes before it in alphabet order.
    pub(crate) fn rank(&self, code: &Code) -> usize {
        let n = self.rules.alphabet().len();
        let k = self.length();
        let lead = usize::from(self.rules.no_leading());
        let mut index = 0usize;
        if self.rules.repeats() {
            // Mixed radix: the first symbol has n - lead choices, the others n.
            for (i, &s) in code.symbols().iter().enumerate() {
                let digit = usize::from(s) - if i == 0 { lead } else { 0 };
                index = index * n + digit;
            }
            return index;
        }
        // Distinct: the rank of each symbol among those still allowed, times the arrangements of
        // the positions after it.
        let mut used = 0u64;
        for (i, &s) in code.symbols().iter().enumerate() {
            let smaller = (!used & ((1u64 << s) - 1)).count_ones() as usize;
            let rank = smaller - if i == 0 && s > 0 { lead } else { 0 };
            let left = n - 1 - i;
            let after: usize = (0..k - 1 - i).map(|j| left - j).product();
            index += rank * after;
            used |= 1 << s;
        }
        index
    }

    /// Every code, as a set.
    pub fn all(&self) -> CodeSet {
        CodeSet::full(self.codes.len())
    }

    /// Whether the score table was built.
    pub fn has_table(&self) -> bool {
        self.table.is_some()
    }

    /// The feedback index of guess `g` against secret `s`.
    #[inline]
    pub fn score_index(&self, g: usize, s: usize) -> u8 {
        if let Some(t) = &self.table {
            return t.get(g, s);
        }
        let length = self.length() as u32;
        match &self.packed {
            Packed::Distinct(p) => p[g].score(p[s], length),
            Packed::Repeats(p) => p[g].score(&p[s], length),
            Packed::No => self.codes[g].score(&self.codes[s]).index(self.length()) as u8,
        }
    }

    /// The feedback of guess `g` against secret `s`.
    #[inline]
    pub fn score(&self, g: usize, s: usize) -> Feedback {
        Feedback::from_index(usize::from(self.score_index(g, s)), self.length())
    }

    /// Writes the feedback index of guess `g` against each secret `at[i]` into `out[i]`: the
    /// fastest way to score one guess against many secrets.
    ///
    /// # Panics
    /// If `out` is shorter than `at`.
    #[inline]
    pub(crate) fn feedbacks(&self, g: usize, at: &[u32], out: &mut [u8]) {
        let out = &mut out[..at.len()];
        if let Some(row) = self.score_row(g) {
            for (o, &s) in out.iter_mut().zip(at) {
                *o = row[s as usize];
            }
            return;
        }
        let (length, level) = (self.length() as u32, Level::active());
        match &self.packed {
            Packed::Distinct(p) => distinct_feedbacks(level, p[g], p, at, length, out),
            Packed::Repeats(p) => counted_feedbacks(level, &p[g], p, at, length, out),
            Packed::No => {
                let guess = self.codes[g];
                for (o, &s) in out.iter_mut().zip(at) {
                    *o = guess.score(&self.codes[s as usize]).index(self.length()) as u8;
                }
            }
        }
    }

    /// Writes the feedback index ([`Feedback::index`]) of every guess of `guesses` against every
    /// secret of `secrets` into `out`, row by row (`out[i * secrets.len() + j]` is guess `i`
    /// against secret `j`): a table of scores with the kernels the search uses, rows scored in
    /// parallel, for callers that score many codes at once (Python's arrays).
    ///
    /// # Panics
    /// If `out` does not hold `guesses.len() * secrets.len()` entries or an index is out of range.
    pub fn score_table(&self, guesses: &[u32], secrets: &[u32], out: &mut [u8]) {
        assert_eq!(
            out.len(),
            guesses.len() * secrets.len(),
            "one entry per pair"
        );
        assert!(
            guesses
                .iter()
                .chain(secrets)
                .all(|&c| (c as usize) < self.len()),
            "a code index is out of range"
        );
        if secrets.is_empty() {
            return;
        }
        out.par_chunks_mut(secrets.len())
            .zip(guesses.par_iter())
            .with_min_len(SCORE_TABLE_ROWS)
            .for_each(|(row, &g)| self.feedbacks(g as usize, secrets, row));
    }

    /// The secrets `at` copied side by side for [`CodeSpace::gathered_feedbacks`], when the space
    /// scores packed codes.
    pub(crate) fn gather(&self, at: &[u32]) -> Option<Gathered> {
        match &self.packed {
            Packed::No => None,
            Packed::Distinct(p) => Some(Gathered::Distinct(
                at.iter().map(|&s| p[s as usize].positions).collect(),
                at.iter().map(|&s| p[s as usize].mask).collect(),
            )),
            Packed::Repeats(p) => Some(Gathered::Repeats(
                at.iter().map(|&s| p[s as usize].positions).collect(),
                at.iter().map(|&s| p[s as usize].counts).collect(),
            )),
        }
    }

    /// [`CodeSpace::feedbacks`] of guess `g` against secrets gathered from this space.
    pub(crate) fn gathered_feedbacks(&self, g: usize, secrets: &Gathered, out: &mut [u8]) {
        let (length, level) = (self.length() as u32, Level::active());
        match (&self.packed, secrets) {
            (Packed::Distinct(p), Gathered::Distinct(positions, masks)) => {
                distinct_gathered(level, p[g], positions, masks, length, out)
            }
            (Packed::Repeats(p), Gathered::Repeats(positions, counts)) => {
                counted_gathered(level, &p[g], positions, counts, length, out)
            }
            _ => unreachable!("secrets are gathered from the same space"),
        }
    }

    /// Every guess x secret feedback index, scored from the packed codes where there are some
    /// (the table of 5 digits has 914 million pairs).
    fn build_table(&self) -> Rows {
        let n = self.codes.len();
        let every: Vec<u32> = (0..n as u32).collect();
        let mut table = Rows::new(n);
        table
            .par_rows_mut()
            .for_each(|(g, row)| self.feedbacks(g, &every, row));
        table
    }

    /// Whether the space has a table whose rows are short enough to stay in the CPU's caches while
    /// a heuristic scores one guess against scattered secrets: at most [`TABLE_MAX_CODES`] codes
    /// (11 KB). The rows of a larger table come from main memory, and scoring packed codes on the
    /// fly is faster for the heuristics (measured in the book's `docs/src/strategies.md`); the
    /// exact search still reads it, a secret's whole row in order.
    pub(crate) fn rows_in_cache(&self) -> bool {
        self.table.is_some() && self.codes.len() <= TABLE_MAX_CODES
    }

    /// The row of the score table for guess `g`, when [`CodeSpace::rows_in_cache`].
    pub(crate) fn cached_row(&self, g: usize) -> Option<&[u8]> {
        self.score_row(g).filter(|_| self.rows_in_cache())
    }

    /// The score table renumbered to the feedbacks that occur, when there is a table of at most
    /// [`CompactTable::MAX_BYTES`] and they are at most [`CompactTable::MAX_FEEDBACKS`]; built on
    /// the first call.
    /// Which feedback indexes occur in the score table (all `false` without one), indexed by
    /// feedback index. A pass over the whole table, so it is made once: searches of many small
    /// positions of one large space (`moo tree bound`'s endgames) would otherwise each pay it.
    pub(crate) fn feedbacks_seen(&self) -> &[bool] {
        self.seen.get_or_init(|| {
            let mut seen = vec![false; self.rules.feedback_slots()];
            if let Some(table) = &self.table {
                for g in 0..self.codes.len() {
                    for &f in table.row(g) {
                        seen[usize::from(f)] = true;
                    }
                }
            }
            seen
        })
    }

    pub(crate) fn compact_table(&self) -> Option<&CompactTable> {
        self.compact
            .get_or_init(|| {
                let table = self.table.as_ref()?;
                if table.len() > CompactTable::MAX_BYTES {
                    return None;
                }
                let mut seen = [false; 256];
                for g in 0..self.codes.len() {
                    for &f in table.row(g) {
                        seen[usize::from(f)] = true;
                    }
                }
                let feedbacks: Vec<u8> = (0..=u8::MAX).filter(|&f| seen[usize::from(f)]).collect();
                if feedbacks.len() > CompactTable::MAX_FEEDBACKS {
                    return None;
                }
                let mut rank = [0u8; 256];
                for (i, &f) in feedbacks.iter().enumerate() {
                    rank[usize::from(f)] = i as u8;
                }
                let mut compact = Rows::new(self.codes.len());
                compact
                    .par_rows_mut()
                    .zip(table.par_rows())
                    .for_each(|((_, to), from)| {
                        for (t, &f) in to.iter_mut().zip(from) {
                            *t = rank[usize::from(f)];
                        }
                    });
                Some(CompactTable {
                    feedbacks,
                    table: compact,
                })
            })
            .as_ref()
    }

    /// Makes [`CodeSpace::compact_table`] answer `None`, so that tests can run the exact search
    /// on the space's own table.
    #[cfg(test)]
    pub(crate) fn skip_compact_table(&self) {
        // Already decided either way is fine for the callers, which call this first.
        let _ = self.compact.set(None);
    }

    /// The row of the score table for guess `g` (every secret), when the table exists.
    pub fn score_row(&self, g: usize) -> Option<&[u8]> {
        self.table.as_ref().map(|t| t.row(g))
    }

    /// Counts, for each feedback index, how many codes of `set` would give it to guess `g`.
    ///
    /// `counts` must have at least [`Rules::feedback_slots`] entries; it is overwritten.
    pub fn partition_counts(&self, g: usize, set: &CodeSet, counts: &mut [u32]) {
        let slots = self.rules.feedback_slots();
        counts[..slots].fill(0);
        let set = set.as_slice();
        if self.table.is_none() && set.len() >= PARALLEL_CODES {
            let parts = set
                .par_chunks(PARALLEL_CODES)
                .map(|chunk| {
                    let mut counts = [0u32; 256];
                    self.count_into(g, chunk, &mut counts);
                    counts
                })
                .reduce(
                    || [0u32; 256],
                    |mut a, b| {
                        a.iter_mut().zip(b).for_each(|(a, b)| *a += b);
                        a
                    },
                );
            counts[..slots].copy_from_slice(&parts[..slots]);
        } else {
            self.count_into(g, set, counts);
        }
    }

    /// [`CodeSpace::partition_counts`] when no part but the win has more than `cap` codes, and
    /// `false` (with `counts` only partly filled) as soon as one does. Most guesses at a position
    /// that only a few guesses can still win overflow within the first codes, which a refutation
    /// settles by counting.
    pub fn partition_counts_within(
        &self,
        g: usize,
        set: &CodeSet,
        cap: u64,
        counts: &mut [u32],
    ) -> bool {
        let win = Feedback::win(self.length()).index(self.length());
        let Some(row) = self.score_row(g) else {
            self.partition_counts(g, set, counts);
            return counts
                .iter()
                .enumerate()
                .all(|(i, &n)| i == win || u64::from(n) <= cap);
        };
        counts[..self.rules.feedback_slots()].fill(0);
        let cap = u32::try_from(cap).unwrap_or(u32::MAX);
        set.iter().all(|s| {
            let f = usize::from(row[s]);
            counts[f] += 1;
            counts[f] <= cap || f == win
        })
    }

    /// Adds to `counts` the feedback indexes of the secrets `set` against guess `g`.
    fn count_into(&self, g: usize, set: &[u32], counts: &mut [u32]) {
        if let Some(row) = self.score_row(g) {
            for &s in set {
                counts[usize::from(row[s as usize])] += 1;
            }
            return;
        }
        let mut buffer = [0u8; BLOCK];
        for block in set.chunks(BLOCK) {
            self.feedbacks(g, block, &mut buffer);
            for &f in &buffer[..block.len()] {
                counts[usize::from(f)] += 1;
            }
        }
    }

    /// Splits `set` by the feedback each member gives to guess `g`, in feedback-index order,
    /// leaving out empty parts.
    pub fn partition(&self, g: usize, set: &CodeSet) -> Vec<(Feedback, CodeSet)> {
        let mut parts: Vec<Vec<u32>> = vec![Vec::new(); self.rules.feedback_slots()];
        for s in set.iter() {
            parts[usize::from(self.score_index(g, s))].push(s as u32);
        }
        parts
            .into_iter()
            .enumerate()
            .filter(|(_, p)| !p.is_empty())
            .map(|(i, p)| {
                (
                    Feedback::from_index(i, self.length()),
                    CodeSet::from_sorted(p),
                )
            })
            .collect()
    }

    /// Splits `set` by the feedback each member gives to `guess` (any code of the right length,
    /// inside the space or not), in feedback-index order, leaving out empty parts.
    pub fn partition_code(&self, guess: &Code, set: &CodeSet) -> Vec<(Feedback, CodeSet)> {
        match self.index_of(guess) {
            Some(g) => self.partition(g, set),
            None => {
                let length = self.length();
                let mut parts: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
                for s in set.iter() {
                    let f = guess.score(&self.code(s));
                    parts.entry(f.index(length)).or_default().push(s as u32);
                }
                parts
                    .into_iter()
                    .map(|(i, p)| (Feedback::from_index(i, length), CodeSet::from_sorted(p)))
                    .collect()
            }
        }
    }

    /// The members of `set` that would answer `feedback` to guess `g`.
    pub fn filter(&self, set: &CodeSet, g: usize, feedback: Feedback) -> CodeSet {
        let want = feedback.index(self.length()) as u8;
        if set.len() < PARALLEL_CODES {
            return set.filter(|s| self.score_index(g, s) == want);
        }
        let keep = |chunk: &[u32], kept: &mut Vec<u32>| {
            let mut buffer = [0u8; BLOCK];
            for block in chunk.chunks(BLOCK) {
                self.feedbacks(g, block, &mut buffer);
                kept.extend(
                    block
                        .iter()
                        .zip(buffer)
                        .filter(|&(_, f)| f == want)
                        .map(|(&s, _)| s),
                );
            }
        };
        if rayon::current_num_threads() == 1 {
            // One worker (the arena's one core): one pass into one vector, whose pages are
            // touched only where written, with no parts to grow and join.
            let mut kept = Vec::with_capacity(set.len());
            keep(set.as_slice(), &mut kept);
            kept.shrink_to_fit();
            return CodeSet::from_sorted(kept);
        }
        // Order-preserving parallel filter: each chunk keeps its members in order, and the
        // chunks are joined in order.
        let parts: Vec<Vec<u32>> = set
            .as_slice()
            .par_chunks(PARALLEL_CODES)
            .map(|chunk| {
                let mut kept = Vec::new();
                keep(chunk, &mut kept);
                kept
            })
            .collect();
        let members = parts.concat();
        CodeSet::from_sorted(members)
    }

    /// The members of `set` consistent with guessing `guess` (any code, even outside the space)
    /// and hearing `feedback`.
    pub fn filter_code(&self, set: &CodeSet, guess: &Code, feedback: Feedback) -> CodeSet {
        match self.index_of(guess) {
            Some(g) => self.filter(set, g, feedback),
            None => set.filter(|s| guess.score(&self.codes[s]) == feedback),
        }
    }
}

/// Sets at least this large are filtered and counted by every core.
const PARALLEL_CODES: usize = 1 << 16;

/// Secrets scored into one buffer at a time.
const BLOCK: usize = 4096;

/// Lists the codes of `rules` in alphabet order (lexicographic by symbol index).
fn enumerate(rules: &Rules) -> Vec<Code> {
    let (k, n) = (rules.length(), rules.alphabet().len() as u8);
    let mut out = Vec::with_capacity(usize::try_from(rules.space_size()).unwrap_or(0));
    let mut current = Vec::with_capacity(k);
    fn extend(
        rules: &Rules,
        k: usize,
        n: u8,
        used: u64,
        current: &mut Vec<u8>,
        out: &mut Vec<Code>,
    ) {
        if current.len() == k {
            out.push(Code::from_symbols(current));
            return;
        }
        let first = if current.is_empty() && rules.no_leading() {
            1
        } else {
            0
        };
        for s in first..n {
            if !rules.repeats() && used & (1 << s) != 0 {
                continue;
            }
            current.push(s);
            extend(rules, k, n, used | 1 << s, current, out);
            current.pop();
        }
    }
    extend(rules, k, n, 0, &mut current, &mut out);
    out
}

#[cfg(test)]
mod tests;
