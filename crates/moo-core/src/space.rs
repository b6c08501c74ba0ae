//! The code space of a game: every valid code, in alphabet order, and the score table.
//!
//! Strategies score the same pairs of codes millions of times, so for spaces up to
//! [`TABLE_MAX_CODES`] codes the space precomputes every guess x secret feedback index once, one byte
//! per pair (25 MB for Bulls and Cows), and scoring becomes a load. Larger spaces score on the fly.

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::rules::Rules;

/// The most codes a space will enumerate.
pub const MAX_CODES: usize = 4_000_000;

/// The most codes for which the full score table is built (its size is the square, in bytes).
pub const TABLE_MAX_CODES: usize = 11_000;

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
    table: Option<Vec<u8>>,
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
    /// Enumerates the code space, refusing spaces over [`MAX_CODES`].
    pub fn new(rules: Rules) -> Result<CodeSpace, SpaceError> {
        CodeSpace::with_limit(rules, MAX_CODES)
    }

    /// Enumerates the code space, refusing spaces over `limit` codes.
    pub fn with_limit(rules: Rules, limit: usize) -> Result<CodeSpace, SpaceError> {
        let size = rules.space_size();
        if size > limit as u128 {
            return Err(SpaceError::TooLarge { size, limit });
        }
        let codes = enumerate(&rules);
        debug_assert_eq!(codes.len() as u128, size);
        let table = (codes.len() <= TABLE_MAX_CODES).then(|| build_table(&rules, &codes));
        Ok(CodeSpace {
            rules,
            codes,
            table,
        })
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
        match &self.table {
            Some(t) => t[g * self.codes.len() + s],
            None => self.codes[g].score(&self.codes[s]).index(self.length()) as u8,
        }
    }

    /// The feedback of guess `g` against secret `s`.
    #[inline]
    pub fn score(&self, g: usize, s: usize) -> Feedback {
        Feedback::from_index(usize::from(self.score_index(g, s)), self.length())
    }

    /// The row of the score table for guess `g` (every secret), when the table exists.
    pub fn score_row(&self, g: usize) -> Option<&[u8]> {
        let n = self.codes.len();
        self.table.as_ref().map(|t| &t[g * n..(g + 1) * n])
    }

    /// Counts, for each feedback index, how many codes of `set` would give it to guess `g`.
    ///
    /// `counts` must have at least [`Rules::feedback_slots`] entries; it is overwritten.
    pub fn partition_counts(&self, g: usize, set: &CodeSet, counts: &mut [u32]) {
        let slots = self.rules.feedback_slots();
        counts[..slots].fill(0);
        match self.score_row(g) {
            Some(row) => {
                for &s in set.as_slice() {
                    counts[usize::from(row[s as usize])] += 1;
                }
            }
            None => {
                for s in set.iter() {
                    counts[usize::from(self.score_index(g, s))] += 1;
                }
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
        set.filter(|s| self.score_index(g, s) == want)
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

fn build_table(rules: &Rules, codes: &[Code]) -> Vec<u8> {
    let n = codes.len();
    let k = rules.length();
    let mut table = vec![0u8; n * n];
    table.par_chunks_mut(n).enumerate().for_each(|(g, row)| {
        let guess = codes[g];
        for (slot, secret) in row.iter_mut().zip(codes) {
            *slot = guess.score(secret).index(k) as u8;
        }
    });
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enumeration_is_sorted_valid_and_complete() {
        for rules in [
            Rules::bulls(),
            Rules::mastermind(),
            Rules::new(4, "0123456789", false, true).unwrap(),
            Rules::new(3, "abc", true, true).unwrap(),
        ] {
            let space = CodeSpace::new(rules.clone()).unwrap();
            assert_eq!(space.len() as u128, rules.space_size());
            assert!(space.codes().windows(2).all(|w| w[0] < w[1]));
            for (i, c) in space.codes().iter().enumerate() {
                assert!(rules.check_code(c).is_ok());
                assert_eq!(space.index_of(c), Some(i));
            }
        }
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        assert_eq!(Rules::bulls().format_code(&space.code(0)), "0123");
        assert_eq!(Rules::bulls().format_code(&space.code(5039)), "9876");
    }

    #[test]
    fn table_matches_direct_scoring() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        assert!(space.has_table());
        for g in (0..space.len()).step_by(7) {
            for s in 0..space.len() {
                assert_eq!(space.score(g, s), space.code(g).score(&space.code(s)));
            }
        }
    }

    #[test]
    fn too_large_spaces_are_refused_with_the_limit() {
        let rules = Rules::new(12, "0123456789", true, false).unwrap();
        let err = CodeSpace::new(rules).unwrap_err();
        assert_eq!(
            err,
            SpaceError::TooLarge {
                size: 1_000_000_000_000,
                limit: MAX_CODES
            }
        );
        assert!(err.to_string().contains("1000000000000 codes"));
    }

    #[test]
    fn partition_covers_the_set() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let all = space.all();
        let parts = space.partition(0, &all);
        assert_eq!(parts.iter().map(|(_, p)| p.len()).sum::<usize>(), 5040);
        // The classic first-guess partition of Bulls and Cows: 14 feedbacks, largest 0B1C with 1440 (one common symbol, misplaced).
        assert_eq!(parts.len(), 14);
        let largest = parts.iter().max_by_key(|(_, p)| p.len()).unwrap();
        assert_eq!((largest.0, largest.1.len()), (Feedback::new(0, 1), 1440));
        let mut counts = [0u32; 25];
        space.partition_counts(0, &all, &mut counts);
        for (f, p) in &parts {
            assert_eq!(counts[f.index(4)] as usize, p.len());
        }
    }
}
