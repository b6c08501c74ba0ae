//! The partition-scored heuristics: Knuth's minimax, expected size, entropy and most parts.
//!
//! All four look one guess ahead the same way: for each allowed guess, split the candidates by the
//! feedback they would give, and score the sizes of the parts. They differ only in the score, so
//! one strategy, [`PartitionStrategy`], takes the rule as a parameter ([`PartitionScore`]).
//!
//! Every score is an integer where smaller is better, so ties are exact and the tie-break (then a
//! code still possible, then the first code in alphabet order) never depends on float noise or on
//! the order parallel workers finish in. Entropy is maximised by minimising `sum c·log2 c` over the
//! part sizes `c`; each term is rounded to a fixed point of 2^-32 before adding, so equal multisets
//! of part sizes always score equal.
//!
//! Exact shortcuts keep the search fast without changing any choice:
//! - Symbols no guess has used yet are interchangeable, and so are symbols no candidate holds:
//!   renaming within either class maps the candidate set onto itself and keeps every partition's
//!   sizes. Of each class of guesses equal up to such renaming, only the one whose interchangeable
//!   symbols appear in increasing order is scored; it is also the first of its class in alphabet
//!   order and a candidate exactly when the others are, so the tie-break picks the same code a
//!   full scan would. On an empty history this leaves one guess for Bulls and Cows and five for
//!   Mastermind.
//! - Candidates are scored first; each guess is abandoned as soon as its running score cannot
//!   beat the best so far, and a candidate that splits the rest into singletons ends the search.
//! - Scoring is a loop over one row of the space's score table, counting into a small array.

use rayon::prelude::*;

use super::{GuessPool, Knowledge, Strategy, StrategyError};
use crate::code::Code;
use crate::codeset::CodeSet;
use crate::space::CodeSpace;

/// How a partition of the candidates is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartitionScore {
    /// Knuth (1976): the smallest largest part (the fewest candidates left in the worst case).
    Minimax,
    /// The smallest expected number of candidates left: the sum of squared part sizes.
    ExpectedSize,
    /// The largest entropy of the feedback: the most information expected.
    Entropy,
    /// The most non-empty parts (Kooi 2005).
    MostParts,
}

impl PartitionScore {
    /// Every rule, in registry order.
    pub const ALL: [PartitionScore; 4] = [
        PartitionScore::Minimax,
        PartitionScore::ExpectedSize,
        PartitionScore::Entropy,
        PartitionScore::MostParts,
    ];

    /// The rule's position in [`PartitionScore::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The registry name of the strategy that uses this rule.
    pub fn name(self) -> &'static str {
        match self {
            PartitionScore::Minimax => "knuth",
            PartitionScore::ExpectedSize => "expected-size",
            PartitionScore::Entropy => "entropy",
            PartitionScore::MostParts => "most-parts",
        }
    }

    /// The rule's score of the part sizes in `counts` (zeros are empty parts); smaller is better.
    pub fn key(self, counts: &[u32]) -> u64 {
        match self {
            PartitionScore::Minimax => counts.iter().copied().max().map_or(0, u64::from),
            PartitionScore::ExpectedSize => counts.iter().map(|&c| u64::from(c).pow(2)).sum(),
            PartitionScore::Entropy => counts.iter().map(|&c| xlog2x_fixed(c)).sum(),
            PartitionScore::MostParts => counts.iter().filter(|&&c| c == 0).count() as u64,
        }
    }
}

/// `c·log2(c)` in fixed point with 32 fractional bits (exact integers for powers of two).
fn xlog2x_fixed(c: u32) -> u64 {
    if c <= 1 {
        return 0;
    }
    let c = f64::from(c);
    (c * c.log2() * 4_294_967_296.0).round() as u64
}

/// How a guess splits a candidate set, in the terms people use to explain a choice.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PartitionStats {
    /// The number of non-empty parts (distinct feedbacks the guess can get).
    pub parts: usize,
    /// The size of the largest part: candidates left in the worst case.
    pub largest: usize,
    /// The expected number of candidates left, if every candidate is equally likely.
    pub expected_size: f64,
    /// The entropy of the feedback in bits.
    pub entropy: f64,
    /// Whether the guess is itself a candidate (it may win now).
    pub is_candidate: bool,
}

impl PartitionStats {
    /// The statistics of part sizes `counts` over `total` candidates.
    fn from_counts(counts: &[u32], total: usize, is_candidate: bool) -> PartitionStats {
        let n = total as f64;
        let mut stats = PartitionStats {
            parts: 0,
            largest: 0,
            expected_size: 0.0,
            entropy: 0.0,
            is_candidate,
        };
        for &c in counts.iter().filter(|&&c| c > 0) {
            let c = c as usize;
            stats.parts += 1;
            stats.largest = stats.largest.max(c);
            let p = c as f64 / n;
            stats.expected_size += p * c as f64;
            stats.entropy -= p * p.log2();
        }
        stats
    }
}

/// How guess `guess` (an index of `space`) splits `candidates`.
///
/// ```
/// use moo_core::{CodeSpace, Rules};
/// use moo_core::strategy::partition_stats;
/// let space = CodeSpace::new(Rules::mastermind())?;
/// let guess = space.index_of(&Rules::mastermind().parse_code("1122")?).unwrap();
/// let stats = partition_stats(&space, guess, &space.all());
/// assert_eq!((stats.parts, stats.largest), (13, 256)); // Knuth's opening: 13 feedbacks, at most 256 left
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn partition_stats(space: &CodeSpace, guess: usize, candidates: &CodeSet) -> PartitionStats {
    let mut counts = [0u32; 256];
    let slots = space.rules().feedback_slots();
    space.partition_counts(guess, candidates, &mut counts);
    PartitionStats::from_counts(
        &counts[..slots],
        candidates.len(),
        candidates.contains(guess),
    )
}

/// A guess with its rule score, ordered by the tie-break: score, then candidates first, then the
/// first code in alphabet order.
type Ranked = (u64, bool, u32);

/// The one-step-lookahead strategy that picks the guess whose partition of the candidates scores
/// best under its [`PartitionScore`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartitionStrategy {
    score: PartitionScore,
    pool: GuessPool,
}

/// Above this many (guess, candidate) pairs, a choice is scored by all cores.
const PARALLEL_PAIRS: usize = 1 << 15;

/// Guesses per parallel task: enough to amortise the task, few enough to balance two cores.
const CHUNK: usize = 64;

impl PartitionStrategy {
    /// The strategy scoring partitions by `score`, guessing from `pool`.
    pub fn new(score: PartitionScore, pool: GuessPool) -> PartitionStrategy {
        PartitionStrategy { score, pool }
    }

    /// The scoring rule.
    pub fn score(&self) -> PartitionScore {
        self.score
    }

    /// The best guesses, best first, at most `top` of them, each with how it splits the
    /// candidates. Guesses equal up to renaming symbols no guess has used yet (or symbols no
    /// candidate holds) split the candidates alike; only the first of each such class is listed.
    pub fn ranked(&self, knowledge: &Knowledge<'_>, top: usize) -> Vec<(Code, PartitionStats)> {
        if knowledge.candidates.is_empty() {
            return Vec::new();
        }
        let scorer = Scorer::new(self.score, knowledge.space, knowledge.candidates);
        let (mut candidates, others) = self.pool(knowledge, &scorer.member);
        candidates.extend(others);
        let mut all: Vec<Ranked> = candidates
            .par_iter()
            .map_init(
                || [0u32; 256],
                |counts, &g| {
                    scorer
                        .rank(g, u64::MAX, counts)
                        .expect("no bound, no pruning")
                },
            )
            .collect();
        all.sort_unstable();
        all.truncate(top);
        all.into_iter()
            .map(|(_, _, g)| {
                let g = g as usize;
                (
                    knowledge.space.code(g),
                    partition_stats(knowledge.space, g, knowledge.candidates),
                )
            })
            .collect()
    }

    /// The index of the best guess, or `None` when there are no candidates.
    pub fn best(&self, knowledge: &Knowledge<'_>) -> Option<usize> {
        let n = knowledge.candidates.len();
        match n {
            0 => return None,
            // Two candidates: guessing the first splits them into singletons, which no guess
            // beats under any rule, and candidates win ties.
            1 | 2 => return knowledge.candidates.first(),
            _ => {}
        }
        let scorer = Scorer::new(self.score, knowledge.space, knowledge.candidates);
        let (candidates, others) = self.pool(knowledge, &scorer.member);

        // Candidates first: they win ties, so the best of them bounds every other guess, and a
        // split into singletons among them ends the search (nothing scores better).
        let slots = knowledge.space.rules().feedback_slots();
        let perfect = (n <= slots).then(|| {
            let mut singletons = [0u32; 256];
            singletons[..n].fill(1);
            self.score.key(&singletons[..slots])
        });
        let mut counts = [0u32; 256];
        let mut best: Option<Ranked> = None;
        if candidates.len() * n < PARALLEL_PAIRS {
            for &g in &candidates {
                let bound = best.map_or(u64::MAX, |b| b.0);
                if let Some(r) = scorer.rank(g, bound, &mut counts) {
                    if Some(r.0) == perfect {
                        return Some(g as usize);
                    }
                    best = best.min(Some(r)).or(Some(r));
                }
            }
        } else {
            best = candidates
                .par_chunks(CHUNK)
                .filter_map(|chunk| scorer.best_of(chunk, None))
                .min();
        }
        if best.is_some_and(|b| Some(b.0) == perfect) {
            return best.map(|b| b.2 as usize);
        }
        let rest = if others.len() * n < PARALLEL_PAIRS {
            scorer.best_of(&others, best)
        } else {
            others
                .par_chunks(CHUNK)
                .filter_map(|chunk| scorer.best_of(chunk, best))
                .min()
        };
        best.into_iter().chain(rest).min().map(|b| b.2 as usize)
    }

    /// The guesses worth scoring, split into candidates and the others (empty when only
    /// candidates may be guessed): one per class of guesses equal up to renaming the symbols no
    /// guess has used yet.
    fn pool(&self, knowledge: &Knowledge<'_>, member: &[u64]) -> (Vec<u32>, Vec<u32>) {
        let space = knowledge.space;
        let rules = space.rules();
        let used = knowledge
            .history
            .turns()
            .iter()
            .fold(0u64, |m, t| m | t.guess.mask());
        let all_symbols = if rules.alphabet().len() == 64 {
            u64::MAX
        } else {
            (1u64 << rules.alphabet().len()) - 1
        };
        // The first symbol may not lead a code: renaming it could make a code invalid, so it is
        // never treated as interchangeable.
        let pinned = if rules.no_leading() { 1 } else { 0 };
        let free = all_symbols & !pinned;
        // Symbols no candidate holds: swapping two of them fixes every candidate.
        let present = knowledge
            .candidates
            .iter()
            .fold(0u64, |m, c| m | space.code(c).mask());
        let absent = free & !present;
        // Symbols no guess used: swapping two of them fixes the history, hence the candidates.
        let fresh = free & !used & !absent;
        let classes = [fresh, absent];
        let shortcut = classes.iter().any(|c| c.count_ones() >= 2);
        let canonical = |g: u32| !shortcut || is_canonical(&space.code(g as usize), classes);
        let candidates: Vec<u32> = knowledge
            .candidates
            .as_slice()
            .iter()
            .copied()
            .filter(|&g| canonical(g))
            .collect();
        let others = match self.pool {
            GuessPool::All => (0..space.len() as u32)
                .filter(|&g| !is_member(member, g) && canonical(g))
                .collect(),
            GuessPool::Consistent => Vec::new(),
        };
        (candidates, others)
    }
}

/// Scores guesses against one candidate set.
struct Scorer<'a> {
    score: PartitionScore,
    space: &'a CodeSpace,
    candidates: &'a [u32],
    member: Vec<u64>,
    slots: usize,
    /// For entropy, `steps[c]` is how much `c·log2 c` grows when a part of `c` gains a member.
    steps: Vec<u64>,
}

impl<'a> Scorer<'a> {
    fn new(score: PartitionScore, space: &'a CodeSpace, candidates: &'a CodeSet) -> Scorer<'a> {
        let steps = if score == PartitionScore::Entropy {
            (0..candidates.len() as u32)
                .map(|c| xlog2x_fixed(c + 1) - xlog2x_fixed(c))
                .collect()
        } else {
            Vec::new()
        };
        Scorer {
            score,
            space,
            candidates: candidates.as_slice(),
            member: membership(space.len(), candidates),
            slots: space.rules().feedback_slots(),
            steps,
        }
    }

    /// The best-ranked guess of `guesses` (scanned in order) that beats `best`, if any.
    fn best_of(&self, guesses: &[u32], mut best: Option<Ranked>) -> Option<Ranked> {
        let mut counts = [0u32; 256];
        let mut found = None;
        for &g in guesses {
            // A later guess ties with the best so far only to lose the tie: it is not a
            // candidate (these are scanned first) or comes later in alphabet order.
            let bound = best.map_or(u64::MAX, |b| b.0.saturating_sub(1));
            if let Some(r) = self.rank(g, bound, &mut counts) {
                if best.map_or(true, |b| r < b) {
                    best = Some(r);
                    found = Some(r);
                }
            }
        }
        found
    }

    /// The rank of guess `g`, or `None` as soon as its score is sure to exceed `bound`.
    ///
    /// `counts` must be all zeros; it is left so.
    fn rank(&self, g: u32, bound: u64, counts: &mut [u32; 256]) -> Option<Ranked> {
        let key = match self.space.score_row(g as usize) {
            Some(row) => self.key(|s| row[s as usize], bound, counts),
            None => self.key(
                |s| self.space.score_index(g as usize, s as usize),
                bound,
                counts,
            ),
        }?;
        Some((key, !is_member(&self.member, g), g))
    }

    /// Counts the parts and keeps the score up to date as each candidate lands, so a guess can
    /// be abandoned as soon as it cannot beat `bound`; then clears the counters it touched.
    #[inline]
    fn key(
        &self,
        feedback: impl Fn(u32) -> u8,
        bound: u64,
        counts: &mut [u32; 256],
    ) -> Option<u64> {
        // One loop per rule, so each is compiled without the others' branches.
        match self.score {
            PartitionScore::Minimax => self.scan(
                feedback,
                counts,
                |c, key| u64::from(c + 1 > key as u32),
                |key, _| key > bound,
            ),
            // Each candidate still to come adds at least 1 (a new singleton part).
            PartitionScore::ExpectedSize => self.scan(
                feedback,
                counts,
                |c, _| 2 * u64::from(c) + 1,
                |key, left| key + left as u64 > bound,
            ),
            PartitionScore::Entropy => self.scan(
                feedback,
                counts,
                |c, _| self.steps[c as usize],
                |key, _| key > bound,
            ),
            // The score falls as parts appear; give up once even a new part for every candidate
            // still to come would leave it above the bound.
            PartitionScore::MostParts => {
                let slots = self.slots as u64;
                self.scan(
                    feedback,
                    counts,
                    |c, _| u64::from(c == 0),
                    |parts, left| slots.saturating_sub(parts + left as u64) > bound,
                )
                .map(|parts| slots - parts)
            }
        }
    }

    /// Adds `step(count, key)` for each candidate landing in a part of `count`; stops early when
    /// `hopeless(key, candidates left)`.
    #[inline(always)]
    fn scan(
        &self,
        feedback: impl Fn(u32) -> u8,
        counts: &mut [u32; 256],
        step: impl Fn(u32, u64) -> u64,
        hopeless: impl Fn(u64, usize) -> bool,
    ) -> Option<u64> {
        let n = self.candidates.len();
        let mut key = 0u64;
        let mut seen = n;
        for (i, &s) in self.candidates.iter().enumerate() {
            let c = &mut counts[usize::from(feedback(s))];
            key += step(*c, key);
            *c += 1;
            if hopeless(key, n - i - 1) {
                seen = i + 1;
                break;
            }
        }
        for &s in &self.candidates[..seen] {
            counts[usize::from(feedback(s))] = 0;
        }
        (seen == n && !hopeless(key, 0)).then_some(key)
    }
}

fn is_member(member: &[u64], g: u32) -> bool {
    member[g as usize / 64] >> (g % 64) & 1 == 1
}

/// Whether, for each class of interchangeable symbols, the class's symbols in `code` appear (first
/// occurrences, in order) as the smallest of the class in increasing order: then `code` is the
/// first in alphabet order of the codes it can be renamed to.
fn is_canonical(code: &Code, classes: [u64; 2]) -> bool {
    let mut unseen = classes;
    for &s in code.symbols() {
        let bit = 1u64 << s;
        for (class, unseen) in classes.iter().zip(&mut unseen) {
            if class & bit != 0 {
                if *unseen & bit != 0 {
                    if s as u32 != unseen.trailing_zeros() {
                        return false;
                    }
                    *unseen &= !bit;
                }
                break;
            }
        }
    }
    true
}

/// The candidate set as a bitmap, for constant-time membership tests in the scoring loop.
fn membership(n: usize, set: &CodeSet) -> Vec<u64> {
    let mut bits = vec![0u64; n.div_ceil(64)];
    for &i in set.as_slice() {
        bits[i as usize / 64] |= 1 << (i % 64);
    }
    bits
}

impl Strategy for PartitionStrategy {
    fn name(&self) -> &str {
        self.score.name()
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        self.best(knowledge)
            .map(|g| knowledge.space.code(g))
            .ok_or(StrategyError::NoCandidates)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{History, Rules};

    /// The choice a full scan of every allowed guess makes, without any shortcut.
    fn brute_force(s: &PartitionStrategy, k: &Knowledge<'_>) -> usize {
        let member = membership(k.space.len(), k.candidates);
        let pool: Vec<u32> = match s.pool {
            GuessPool::All => (0..k.space.len() as u32).collect(),
            GuessPool::Consistent => k.candidates.as_slice().to_vec(),
        };
        let slots = k.space.rules().feedback_slots();
        pool.iter()
            .map(|&g| {
                let mut counts = [0u32; 256];
                k.space
                    .partition_counts(g as usize, k.candidates, &mut counts);
                (s.score.key(&counts[..slots]), !is_member(&member, g), g)
            })
            .min()
            .unwrap()
            .2 as usize
    }

    #[test]
    fn knuths_opening_and_second_guesses() {
        let rules = Rules::mastermind();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let s = PartitionStrategy::new(PartitionScore::Minimax, GuessPool::All);
        let history = History::new();
        let all = space.all();
        let k = Knowledge {
            space: &space,
            history: &history,
            candidates: &all,
        };
        // Knuth (1976): 1122 leaves at most 256 codes.
        assert_eq!(rules.format_code(&space.code(s.best(&k).unwrap())), "1122");
    }

    /// Plays every `step`-th secret, checking each choice against a full scan.
    fn check_against_full_scan(rules: &Rules, step: usize) {
        let space = CodeSpace::new(rules.clone()).unwrap();
        for score in PartitionScore::ALL {
            for pool in GuessPool::ALL {
                let s = PartitionStrategy::new(score, pool);
                // Walk a few games so the histories use some symbols and not others.
                for secret in space.codes().iter().step_by(step) {
                    let mut history = History::new();
                    let mut candidates = space.all();
                    while !history.is_won(rules.length()) {
                        let k = Knowledge {
                            space: &space,
                            history: &history,
                            candidates: &candidates,
                        };
                        let g = s.best(&k).unwrap();
                        assert_eq!(g, brute_force(&s, &k), "{score:?} {pool:?} {history:?}");
                        let fb = space.code(g).score(secret);
                        candidates = space.filter(&candidates, g, fb);
                        history.push(space.code(g), fb);
                    }
                }
            }
        }
    }

    #[test]
    fn shortcut_matches_full_scan() {
        for rules in [
            Rules::mastermind(),
            Rules::new(3, "012345", false, true).unwrap(),
            Rules::new(3, "01234", true, false).unwrap(),
        ] {
            check_against_full_scan(&rules, 37);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Small games of every shape: the renaming shortcut, the bounds and the candidate-first
        /// scan never change a choice.
        #[test]
        fn shortcuts_never_change_a_choice(length in 1usize..=3, symbols in 2usize..=6,
                                            repeats: bool, no_leading: bool, step in 1usize..=5) {
            let alphabet: String = "abcdef".chars().take(symbols).collect();
            if let Ok(rules) = Rules::new(length, &alphabet, repeats, no_leading) {
                check_against_full_scan(&rules, step);
            }
        }
    }

    #[test]
    fn stats_describe_the_partition() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        let stats = partition_stats(&space, 0, &space.all());
        assert_eq!(stats.parts, 14);
        assert_eq!(stats.largest, 1440);
        assert!(stats.is_candidate);
        assert!(
            stats.entropy > 2.0 && stats.entropy < 3.0,
            "{}",
            stats.entropy
        );
        assert!(stats.expected_size > 1.0 && stats.expected_size < 1440.0);
    }

    #[test]
    fn scores_order_partitions() {
        let even = [2u32, 2, 2, 0];
        let lopsided = [4u32, 1, 1, 0];
        for score in PartitionScore::ALL {
            if score == PartitionScore::MostParts {
                assert_eq!(score.key(&even), score.key(&lopsided));
            } else {
                assert!(score.key(&even) < score.key(&lopsided), "{score:?}");
            }
        }
        assert!(
            PartitionScore::MostParts.key(&[1, 1, 1, 3]) < PartitionScore::MostParts.key(&even)
        );
    }
}

#[cfg(test)]
mod known_answers {
    use super::*;
    use crate::strategy::play;
    use crate::Rules;

    /// Plays every secret with the generic harness; the evaluator has its own tests.
    fn totals(rules: Rules, score: PartitionScore, pool: GuessPool) -> (usize, usize) {
        let space = CodeSpace::new(rules).unwrap();
        let mut s = PartitionStrategy::new(score, pool);
        space.codes().iter().fold((0, 0), |(total, worst), secret| {
            let n = play(&mut s, &space, secret, 20).unwrap().len();
            (total + n, worst.max(n))
        })
    }

    #[test]
    fn knuth_mastermind() {
        let knuth = crate::published::KNUTH;
        assert_eq!(
            totals(Rules::mastermind(), PartitionScore::Minimax, GuessPool::All),
            (knuth.total as usize, knuth.max.unwrap() as usize),
            "{}",
            knuth.source
        );
    }
}
