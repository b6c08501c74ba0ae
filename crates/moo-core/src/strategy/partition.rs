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
//!   Spaces too big for a table score a guess against all the secrets into a buffer first (a
//!   vectorised loop over packed codes), then count the parts and score them.
//!
//! Every choice is bounded by a pair budget ([`Sampling`]): when the guesses left by the renaming
//! shortcut times the candidates exceed it, the choice scores a seeded sample of guesses against a
//! seeded sample of candidates instead (module `sample` says how the samples are drawn). Inside
//! the budget nothing changes, so the known answers hold. [`PartitionStrategy::choose`] also takes
//! a [`Stop`], checked every few thousand pairs, and returns the best guess scored so far when it
//! fires.
//!
//! Big games (spaces that score packed codes, beyond the table: Bulls and Cows of 5 digits and
//! more) choose in three more steps, each bounded by a count, never by the clock, so a seed
//! plays the same game on any machine:
//! - a sampled choice improves the sample's best guesses by local search (module `refine`:
//!   two places swapped or one symbol replaced, while that scores better, within as many pairs as
//!   the sample took) and judges the results on up to 32768 candidates;
//! - entropy's score gives a guess that may win now a bonus worth what a guess is worth
//!   (`CANDIDATE_BITS`), since a game is counted in guesses, not bits;
//! - with at most 64 candidates left, entropy's best guesses are compared by the guesses they
//!   are expected to take, two guesses ahead (module `lookahead`).
//!
//! None of these apply where the table serves, so every figure of the 4-digit games holds.

use rayon::prelude::*;

// A ranked guess orders by the tie-break: score, then candidates first, then the first code in
// alphabet order.
use super::book::Book;
use super::lookahead;
use super::refine::{self, Ranked};
use super::sample::{self, exact_pool, is_member, sample_of, sample_pool, Guesses};
use super::{GuessPool, Knowledge, Strategy, StrategyError};
use crate::code::Code;
use crate::codeset::CodeSet;
use crate::space::{CodeSpace, Gathered};
use crate::stop::Stop;

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
    (c * crate::log2(c) * 4_294_967_296.0).round() as u64
}

/// How a guess splits a candidate set, in the terms people use to explain a choice.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize)]
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
            stats.entropy -= p * crate::log2(p);
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

/// How much work one partition choice may do, and the seed of its samples.
///
/// A choice scores guesses against candidates; when the guesses worth scoring (after the exact
/// renaming shortcut) times the candidates exceed `max_pairs`, it scores a sample instead: a
/// seeded sample of the candidates against a sample of the guesses, candidates first (see the
/// module docs). The same seed and position give the same guess on any number of threads.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Sampling {
    /// The most (guess, candidate) pairs one choice scores.
    pub max_pairs: u64,
    /// The seed of the samples.
    pub seed: u64,
}

impl Sampling {
    /// The default pair budget: a sampled choice on the biggest games (10 digits) stays within
    /// milliseconds, and every choice on Mastermind 4x6 and Bulls and Cows 4x10 stays a full
    /// scan, so their published figures hold.
    pub const DEFAULT_MAX_PAIRS: u64 = 2_000_000;

    /// A budget of `max_pairs` pairs per choice, sampling with `seed`.
    pub fn new(max_pairs: u64, seed: u64) -> Sampling {
        Sampling {
            max_pairs: max_pairs.max(1),
            seed,
        }
    }

    /// No budget: every choice is a full scan, however long it takes.
    pub fn exhaustive() -> Sampling {
        Sampling::new(u64::MAX, 0)
    }
}

impl Default for Sampling {
    fn default() -> Sampling {
        Sampling::new(Sampling::DEFAULT_MAX_PAIRS, 0)
    }
}

/// A partition strategy's guess and how it was found.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Choice {
    /// The guess, as an index of the code space.
    pub guess: usize,
    /// How the guess splits the whole candidate set (exact, even when the choice was sampled).
    pub stats: PartitionStats,
    /// Whether the choice scored a sample of the guesses or of the candidates, rather than
    /// every guess worth scoring against every candidate.
    pub sampled: bool,
    /// How many guesses were scored (after the renaming shortcut, or in the sample).
    pub guesses_scored: usize,
    /// How many candidates each guess was scored against (none when only one guess was worth
    /// scoring).
    pub secrets_scored: usize,
    /// Whether the guess is the arena's opening book's ([`Book`]), chosen offline.
    pub book: bool,
}

/// What a choice found, before its statistics.
#[derive(Debug, Clone, Copy)]
struct Found {
    guess: usize,
    sampled: bool,
    guesses_scored: usize,
    secrets_scored: usize,
    book: bool,
}

impl Found {
    /// A guess chosen without comparing guesses: the only one worth scoring, or the book's.
    fn unscored(guess: usize, secrets_scored: usize, book: bool) -> Found {
        Found {
            guess,
            sampled: false,
            guesses_scored: 1,
            secrets_scored,
            book,
        }
    }
}

/// The one-step-lookahead strategy that picks the guess whose partition of the candidates scores
/// best under its [`PartitionScore`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PartitionStrategy {
    score: PartitionScore,
    pool: GuessPool,
    sampling: Sampling,
    /// Whether entropy follows the arena's opening book ([`Book`]) where it applies.
    book: bool,
}

/// Above this many (guess, candidate) pairs, a choice is scored by all cores.
const PARALLEL_PAIRS: usize = 1 << 15;

/// Guesses per parallel task: enough to amortise the task, few enough to balance two cores.
const CHUNK: usize = 64;

/// Pairs scored between two looks at the [`Stop`].
const CHECK_PAIRS: usize = 4096;

/// What drawing one guess for a sample costs, in scored pairs.
const DRAW_COST: usize = 512;

/// The fewest candidates a sample of them holds.
const MIN_SECRETS: usize = 64;

/// What listing and scoring one guess costs beyond its pairs, in scored pairs, where codes are
/// scored packed (no table): generating its canonical form and ranking it, then clearing and
/// summing its feedback counters. Against a handful of candidates this is most of a guess's
/// cost, and a budget of pairs alone let a full scan list and score 290,000 guesses against 5
/// candidates, many times what a sample and its climbs take.
const GUESS_COST: usize = 64;

/// [`GUESS_COST`] where it applies: spaces that read a score table keep their pure pair
/// budget, so that their published totals (Mastermind 4x6, Bulls and Cows 4x10) hold.
fn guess_cost(space: &CodeSpace) -> usize {
    if space.rows_in_cache() {
        0
    } else {
        GUESS_COST
    }
}

impl PartitionStrategy {
    /// The strategy scoring partitions by `score`, guessing from `pool`, with the default
    /// [`Sampling`].
    pub fn new(score: PartitionScore, pool: GuessPool) -> PartitionStrategy {
        PartitionStrategy {
            score,
            pool,
            sampling: Sampling::default(),
            book: true,
        }
    }

    /// The same strategy choosing every move itself, even where the arena's opening book
    /// ([`Book`]) has one: what builds the book.
    pub fn without_book(self) -> PartitionStrategy {
        PartitionStrategy {
            book: false,
            ..self
        }
    }

    /// The opening book's move for the position, when this strategy follows the book (entropy
    /// over every code, on the arena's rules) and the history is one of the book's paths.
    fn book_move(&self, knowledge: &Knowledge<'_>) -> Option<usize> {
        if !self.book || self.score != PartitionScore::Entropy || self.pool != GuessPool::All {
            return None;
        }
        // The seeded moves are the game's own at the default budget only.
        let seed =
            (self.sampling.max_pairs == Sampling::DEFAULT_MAX_PAIRS).then_some(self.sampling.seed);
        let code = Book::shipped().next(knowledge.space.rules(), knowledge.history, seed)?;
        knowledge.space.index_of(&code)
    }

    /// The best of `guesses` (code indexes) scored against every candidate, ranked as a choice
    /// in a game ranks them (entropy with its candidate bonus, then candidates, then the first
    /// index); `None` when there are none. Nothing is sampled, whatever the budget: the book's
    /// exact choices.
    pub(super) fn best_of(&self, knowledge: &Knowledge<'_>, guesses: &[u32]) -> Option<u32> {
        let member = sample::membership(knowledge.space.len(), knowledge.candidates);
        let scorer = Scorer::new(
            self.score,
            knowledge.space,
            knowledge.candidates.as_slice(),
            &member,
        );
        let (ranked, _) =
            self.score_all(&scorer, guesses, knowledge.candidates.len(), &Stop::never());
        ranked.into_iter().min().map(|r| r.2)
    }

    /// The same strategy with another work budget and seed.
    pub fn with_sampling(self, sampling: Sampling) -> PartitionStrategy {
        PartitionStrategy { sampling, ..self }
    }

    /// The scoring rule.
    pub fn score(&self) -> PartitionScore {
        self.score
    }

    /// The work budget and seed.
    pub fn sampling(&self) -> Sampling {
        self.sampling
    }

    /// The best guesses, best first, at most `top` of them, each with how it splits the
    /// candidates. Guesses equal up to renaming symbols no guess has used yet (or symbols no
    /// candidate holds) split the candidates alike; only the first of each such class is listed.
    /// This scans every such guess against every candidate, whatever the sampling.
    pub fn ranked(&self, knowledge: &Knowledge<'_>, top: usize) -> Vec<(Code, PartitionStats)> {
        if knowledge.candidates.is_empty() {
            return Vec::new();
        }
        let space = knowledge.space;
        let guesses = Guesses::new(knowledge, self.pool);
        let pool = exact_pool(&guesses, usize::MAX).expect("no limit, no refusal");
        let scorer = Scorer::new(
            self.score,
            space,
            knowledge.candidates.as_slice(),
            &guesses.member,
        );
        let mut guesses = pool.candidates;
        guesses.extend(pool.others);
        let mut all: Vec<Ranked> = guesses
            .par_iter()
            .map_init(Scratch::default, |scratch, &g| {
                scorer
                    .rank(g, u64::MAX, scratch)
                    .expect("no bound, no pruning")
            })
            .collect();
        all.sort_unstable();
        all.truncate(top);
        all.into_iter()
            .map(|(_, _, g)| {
                let g = g as usize;
                (
                    space.code(g),
                    partition_stats(space, g, knowledge.candidates),
                )
            })
            .collect()
    }

    /// The index of the best guess within the strategy's budget, or `None` when there are no
    /// candidates.
    pub fn best(&self, knowledge: &Knowledge<'_>) -> Option<usize> {
        self.find(knowledge, &Stop::never()).map(|f| f.guess)
    }

    /// The best guess and how it was found; `None` only if stopped before any guess was scored
    /// (or if there are no candidates).
    ///
    /// Within the budget of the strategy's [`Sampling`] the choice is a full scan and equals
    /// [`PartitionStrategy::ranked`]'s first; beyond it, a seeded sample is scored. `stop` is
    /// checked every few thousand pairs; once it fires, the best guess scored so far is returned.
    pub fn choose(&self, knowledge: &Knowledge<'_>, stop: &Stop) -> Option<Choice> {
        let found = self.find(knowledge, stop)?;
        Some(Choice {
            guess: found.guess,
            stats: partition_stats(knowledge.space, found.guess, knowledge.candidates),
            sampled: found.sampled,
            guesses_scored: found.guesses_scored,
            secrets_scored: found.secrets_scored,
            book: found.book,
        })
    }

    fn find(&self, knowledge: &Knowledge<'_>, stop: &Stop) -> Option<Found> {
        if knowledge.candidates.is_empty() {
            return None;
        }
        if let Some(found) = self.unscored(knowledge) {
            return Some(found);
        }
        let space = knowledge.space;
        let guesses = Guesses::new(knowledge, self.pool);
        let mut rng = sample::rng(self.sampling.seed, knowledge);
        let (secrets, pool, full) = self.within_budget(&guesses, &mut rng);
        if full && pool.len() == 1 {
            // One guess worth scoring (the opening of a distinct game): it is the choice.
            let guess = pool.candidates.iter().chain(&pool.others).next();
            return guess.map(|&g| Found::unscored(g as usize, 0, false));
        }
        let scorer = Scorer::new(self.score, space, &secrets, &guesses.member);
        if !space.rows_in_cache() {
            return self.refined(&guesses, &scorer, &pool, full, &mut rng, stop);
        }
        let (best, scored) = scorer.scan_pool(&pool, stop);
        best.map(|b| Found {
            guess: b.2 as usize,
            sampled: !full,
            guesses_scored: scored,
            secrets_scored: secrets.len(),
            book: false,
        })
    }

    /// The choice when nothing needs scoring: two candidates or fewer, or the opening book's move.
    fn unscored(&self, knowledge: &Knowledge<'_>) -> Option<Found> {
        let n = knowledge.candidates.len();
        if n <= 2 {
            // Guessing the first of two splits them into singletons, which no guess beats under
            // any rule, and candidates win ties.
            return knowledge
                .candidates
                .first()
                .map(|guess| Found::unscored(guess, n, false));
        }
        self.book_move(knowledge)
            .map(|guess| Found::unscored(guess, 0, true))
    }

    /// The secrets to score against and the guesses to score within the strategy's budget, and
    /// whether they are all of both (else a sample).
    fn within_budget(
        &self,
        guesses: &Guesses<'_>,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> (Vec<u32>, sample::Pool, bool) {
        let knowledge = guesses.knowledge();
        let n = knowledge.candidates.len();
        let budget = self.sampling.max_pairs.max(1);
        // Sample the candidates only when even the guesses' share of the budget at the square
        // root would not cover them all.
        let secrets_cap = ((budget as f64).sqrt() as usize).max(MIN_SECRETS);
        let secrets_wanted = n.min(secrets_cap);
        let per_guess = guess_cost(knowledge.space);
        let guess_limit =
            usize::try_from(budget / (secrets_wanted + per_guess) as u64).unwrap_or(usize::MAX);
        let exact = exact_pool(guesses, guess_limit);
        let full = exact
            .as_ref()
            .is_some_and(|p| (p.len() as u128) * ((n + per_guess) as u128) <= u128::from(budget));
        if full {
            let secrets = knowledge.candidates.as_slice().to_vec();
            return (secrets, exact.expect("checked"), true);
        }
        let secrets = sample_of(knowledge.candidates.as_slice(), secrets_wanted, rng);
        let pool = match exact {
            Some(pool) => pool,
            // Drawing and classifying a guess costs about as much as scoring it against a
            // few hundred secrets: count that against the budget too.
            None => sample_pool(
                guesses,
                usize::try_from(budget / secrets_wanted.max(DRAW_COST) as u64)
                    .unwrap_or(usize::MAX),
                rng,
            ),
        };
        (secrets, pool, false)
    }
}

/// The most candidates a choice looks two guesses ahead for ([`lookahead`]).
const LOOKAHEAD_MAX: usize = 64;

/// The guesses a look two guesses ahead compares: the best by entropy.
const ROOTS: usize = 24;

/// The non-candidates a look two guesses ahead tries as replies (the candidates are tried too).
const REPLIES: usize = 48;

/// The guesses of a sample that each start a climb ([`refine::climb`]).
const STARTS: usize = 24;

/// The pairs all the climbs of a choice may score, in budgets ([`Sampling::max_pairs`]): with
/// the sample's own and the finalists', a choice scores at most about five budgets.
const CLIMB_SHARE: u64 = 4;

/// The most candidates the finalists of a climb are scored against.
const FINAL_SECRETS: usize = 1 << 15;

/// The finalists of a climb: its optima, then the sample's best guesses.
const FINALISTS: usize = 16;

/// For entropy on a sample, what guessing a candidate is worth against a guess that cannot win
/// now, in bits of `c·log2 c` summed over the candidates: a candidate ends the game for one code
/// in `n`, which saves that code a whole guess, worth about the information one guess gains.
const CANDIDATE_BITS: f64 = 2.0;

impl PartitionStrategy {
    /// The choice of a sampled big game: every guess of the sample scored, the best of them
    /// improved by local search ([`refine`]), and the finalists scored on a larger sample.
    fn refined(
        &self,
        guesses: &Guesses<'_>,
        scorer: &Scorer<'_>,
        pool: &sample::Pool,
        full: bool,
        rng: &mut rand_chacha::ChaCha8Rng,
        stop: &Stop,
    ) -> Option<Found> {
        let knowledge = guesses.knowledge();
        let space = knowledge.space;
        let n = knowledge.candidates.len();
        let sampled: Vec<u32> = pool
            .candidates
            .iter()
            .chain(&pool.others)
            .copied()
            .collect();
        let (mut ranked, stopped) = self.score_all(scorer, &sampled, n, stop);
        ranked.sort_unstable();
        let (mut best, climbed) = if full || stopped {
            (*ranked.first()?, 0)
        } else {
            self.climbed(knowledge, guesses, scorer, &ranked, rng, stop)?
        };
        if self.score == PartitionScore::Entropy && n <= LOOKAHEAD_MAX && !stop.is_stopped() {
            let mut roots: Vec<Ranked> = vec![best];
            roots.extend(ranked.iter().filter(|r| r.2 != best.2).take(ROOTS - 1));
            let replies: Vec<u32> = ranked
                .iter()
                .filter(|r| r.1)
                .take(REPLIES)
                .map(|r| r.2)
                .collect();
            if let Some(b) =
                lookahead::best(space, knowledge.candidates.as_slice(), &roots, &replies)
            {
                best = b;
            }
        }
        Some(Found {
            guess: best.2 as usize,
            sampled: !full,
            guesses_scored: sampled.len() + climbed,
            secrets_scored: scorer.secrets.len(),
            book: false,
        })
    }

    /// The sample's best guesses improved by local search, and judged on a larger sample: the
    /// best, and the guesses the climbs scored.
    fn climbed(
        &self,
        knowledge: &Knowledge<'_>,
        guesses: &Guesses<'_>,
        scorer: &Scorer<'_>,
        ranked: &[Ranked],
        rng: &mut rand_chacha::ChaCha8Rng,
        stop: &Stop,
    ) -> Option<(Ranked, usize)> {
        let space = knowledge.space;
        let n = knowledge.candidates.len();
        let starts = &ranked[..STARTS.min(ranked.len())];
        let max_guesses = usize::try_from(
            CLIMB_SHARE.saturating_mul(self.sampling.max_pairs)
                / (scorer.secrets.len() + guess_cost(space)) as u64,
        )
        .unwrap_or(usize::MAX);
        let (optima, climbed) = refine::climb(
            starts,
            space,
            refine::Climb {
                index: |code: &Code| guesses.canonical_index(code),
                score: |gs: &[u32]| match self.score_all(scorer, gs, n, stop) {
                    (_, true) => None,
                    (ranks, false) => Some(ranks),
                },
                max_guesses,
            },
        );
        let mut finalists: Vec<u32> = optima.iter().map(|r| r.2).collect();
        for r in ranked {
            if finalists.len() >= FINALISTS {
                break;
            }
            if !finalists.contains(&r.2) {
                finalists.push(r.2);
            }
        }
        let wide = sample_of(knowledge.candidates.as_slice(), FINAL_SECRETS, rng);
        let judge = Scorer::new(self.score, space, &wide, &guesses.member);
        let best = match self.score_all(&judge, &finalists, n, stop) {
            (judged, false) => judged.into_iter().min(),
            (_, true) => optima.first().copied().or(ranked.first().copied()),
        }?;
        Some((best, climbed))
    }

    /// The ranks of `guesses` against `scorer`'s secrets, of `n` candidates, with entropy's
    /// candidate bonus ([`CANDIDATE_BITS`]), and whether `stop` fired (then some are missing).
    fn score_all(
        &self,
        scorer: &Scorer<'_>,
        guesses: &[u32],
        n: usize,
        stop: &Stop,
    ) -> (Vec<Ranked>, bool) {
        let penalty = match self.score {
            PartitionScore::Entropy => {
                (CANDIDATE_BITS * 4_294_967_296.0 * scorer.secrets.len() as f64 / n as f64) as u64
            }
            _ => 0,
        };
        let rank = |scratch: &mut Scratch, g: u32| {
            let (key, other, g) = scorer.rank(g, u64::MAX, scratch).expect("no bound");
            (key + if other { penalty } else { 0 }, other, g)
        };
        let ranked: Vec<Option<Vec<Ranked>>> = guesses
            .par_chunks(CHUNK)
            .map_init(Scratch::default, |scratch, chunk| {
                (!stop.is_stopped()).then(|| chunk.iter().map(|&g| rank(scratch, g)).collect())
            })
            .collect();
        let stopped = ranked.iter().any(Option::is_none);
        (ranked.into_iter().flatten().flatten().collect(), stopped)
    }
}

/// What a scan of some guesses found.
#[derive(Debug, Clone, Copy, Default)]
struct Scan {
    /// The best guess that beat the bound given, if any.
    best: Option<Ranked>,
    /// Guesses looked at.
    examined: usize,
    /// Whether the stop fired.
    stopped: bool,
}

impl Scan {
    fn join(self, other: Scan) -> Scan {
        Scan {
            best: match (self.best, other.best) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
            examined: self.examined + other.examined,
            stopped: self.stopped || other.stopped,
        }
    }
}

/// The counters and buffer of one worker's scoring, all zeros between guesses.
struct Scratch {
    counts: [u32; 256],
    lanes: [[u32; 256]; 3],
    buffer: Vec<u8>,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            counts: [0; 256],
            lanes: [[0; 256]; 3],
            buffer: Vec::new(),
        }
    }
}

/// Scores guesses against one set of secrets: the candidates, or a sample of them.
struct Scorer<'a> {
    score: PartitionScore,
    space: &'a CodeSpace,
    secrets: &'a [u32],
    /// The whole candidate set, for the tie-break.
    member: &'a [u64],
    slots: usize,
    /// The score of a split of the secrets into singletons, when there are few enough of them.
    perfect: Option<u64>,
    /// For entropy, `steps[c]` is how much `c·log2 c` grows when a part of `c` gains a member
    /// (for the running score over a table row).
    steps: Vec<u64>,
    /// For entropy, `xlogx[c]` is `c·log2 c`, for part sizes up to a bound (for scores from
    /// counts).
    xlogx: Vec<u64>,
    /// The secrets copied side by side, when the space has no table and they are few enough.
    gathered: Option<Gathered>,
}

/// The most secrets a choice copies side by side (16 bytes each).
const MAX_GATHERED: usize = 1 << 16;

impl<'a> Scorer<'a> {
    fn new(
        score: PartitionScore,
        space: &'a CodeSpace,
        secrets: &'a [u32],
        member: &'a [u64],
    ) -> Scorer<'a> {
        let entropy = score == PartitionScore::Entropy;
        let steps = if entropy && space.rows_in_cache() {
            (0..secrets.len() as u32)
                .map(|c| xlog2x_fixed(c + 1) - xlog2x_fixed(c))
                .collect()
        } else {
            Vec::new()
        };
        let xlogx = if entropy && !space.rows_in_cache() {
            (0..=secrets.len().min(MAX_GATHERED) as u32)
                .map(xlog2x_fixed)
                .collect()
        } else {
            Vec::new()
        };
        let slots = space.rules().feedback_slots();
        let n = secrets.len();
        let perfect = (n <= slots).then(|| {
            let mut singletons = [0u32; 256];
            singletons[..n].fill(1);
            score.key(&singletons[..slots])
        });
        Scorer {
            score,
            space,
            secrets,
            member,
            slots,
            perfect,
            steps,
            xlogx,
            gathered: (!space.rows_in_cache() && n <= MAX_GATHERED)
                .then(|| space.gather(secrets))
                .flatten(),
        }
    }

    /// The best guess of `pool` and how many guesses were looked at.
    fn scan_pool(&self, pool: &sample::Pool, stop: &Stop) -> (Option<Ranked>, usize) {
        // Candidates first: they win ties, so the best of them bounds every other guess, and a
        // split into singletons among them ends the search (nothing scores better).
        let first = self.scan(&pool.candidates, None, stop);
        let mut scored = first.examined;
        let mut best = first.best;
        if !first.stopped && best.is_none_or(|b| Some(b.0) != self.perfect) {
            let rest = self.scan(&pool.others, best, stop);
            scored += rest.examined;
            best = best.into_iter().chain(rest.best).min();
        }
        (best, scored)
    }

    /// The best of `guesses` (sorted by index) that beats `best`, on every core when the work is
    /// worth it.
    fn scan(&self, guesses: &[u32], best: Option<Ranked>, stop: &Stop) -> Scan {
        if guesses.len() * self.secrets.len() < PARALLEL_PAIRS {
            self.best_of(guesses, best, stop)
        } else {
            guesses
                .par_chunks(CHUNK)
                .map(|chunk| self.best_of(chunk, best, stop))
                .reduce(Scan::default, Scan::join)
        }
    }

    /// The best-ranked guess of `guesses` (scanned in order) that beats `best`, if any.
    fn best_of(&self, guesses: &[u32], mut best: Option<Ranked>, stop: &Stop) -> Scan {
        let mut scratch = Scratch::default();
        let mut scan = Scan::default();
        let mut since = CHECK_PAIRS;
        for &g in guesses {
            if since >= CHECK_PAIRS {
                since = 0;
                if stop.is_stopped() {
                    scan.stopped = true;
                    break;
                }
            }
            since += self.secrets.len();
            scan.examined += 1;
            // A later guess ties with the best so far only to lose the tie: it is not a
            // candidate (these are scanned first) or comes later in alphabet order.
            let bound = best.map_or(u64::MAX, |b| b.0.saturating_sub(1));
            if let Some(r) = self.rank(g, bound, &mut scratch) {
                if best.is_none_or(|b| r < b) {
                    best = Some(r);
                    scan.best = Some(r);
                    if !r.1 && Some(r.0) == self.perfect {
                        // A candidate splitting the secrets into singletons: nothing later beats it.
                        break;
                    }
                }
            }
        }
        scan
    }

    /// The rank of guess `g`, or `None` as soon as its score is sure to exceed `bound`.
    ///
    /// `counts` must be all zeros; it is left so.
    fn rank(&self, g: u32, bound: u64, scratch: &mut Scratch) -> Option<Ranked> {
        let Scratch {
            counts,
            lanes,
            buffer,
        } = scratch;
        let key = match self.space.cached_row(g as usize) {
            Some(row) => self.key(|_, s| row[s as usize], bound, counts),
            None => {
                // Scoring all the secrets first, in one tight loop, is cheaper than stopping
                // early: the loop has no dependency from one secret to the next.
                buffer.resize(self.secrets.len(), 0);
                match &self.gathered {
                    Some(gathered) => self.space.gathered_feedbacks(g as usize, gathered, buffer),
                    None => self.space.feedbacks(g as usize, self.secrets, buffer),
                }
                self.key_of(buffer, bound, counts, lanes)
            }
        }?;
        Some((key, !is_member(self.member, g), g))
    }

    /// The score of the feedbacks in `buffer`, or `None` if it exceeds `bound`: counted first,
    /// four counters per feedback so that runs of one feedback do not wait on each other, then
    /// scored from the counts (the same key the running score of [`Scorer::key`] ends with).
    ///
    /// `counts` must be all zeros; it is left so.
    fn key_of(
        &self,
        buffer: &[u8],
        bound: u64,
        counts: &mut [u32; 256],
        lanes: &mut [[u32; 256]; 3],
    ) -> Option<u64> {
        let blocks = buffer.chunks_exact(4);
        for &f in blocks.remainder() {
            counts[usize::from(f)] += 1;
        }
        for b in blocks {
            counts[usize::from(b[0])] += 1;
            lanes[0][usize::from(b[1])] += 1;
            lanes[1][usize::from(b[2])] += 1;
            lanes[2][usize::from(b[3])] += 1;
        }
        let counts = &mut counts[..self.slots];
        for lane in lanes.iter_mut() {
            for (c, l) in counts.iter_mut().zip(&mut lane[..self.slots]) {
                *c += *l;
                *l = 0;
            }
        }
        let key = match self.score {
            PartitionScore::Entropy => counts
                .iter()
                .map(|&c| {
                    self.xlogx
                        .get(c as usize)
                        .copied()
                        .unwrap_or_else(|| xlog2x_fixed(c))
                })
                .sum(),
            score => score.key(counts),
        };
        counts.fill(0);
        (key <= bound).then_some(key)
    }

    /// Counts the parts and keeps the score up to date as each candidate lands, so a guess can
    /// be abandoned as soon as it cannot beat `bound`; then clears the counters it touched.
    #[inline]
    fn key(
        &self,
        feedback: impl Fn(usize, u32) -> u8,
        bound: u64,
        counts: &mut [u32; 256],
    ) -> Option<u64> {
        // One loop per rule, so each is compiled without the others' branches.
        match self.score {
            PartitionScore::Minimax => self.tally(
                feedback,
                counts,
                |c, key| u64::from(c + 1 > key as u32),
                |key, _| key > bound,
            ),
            // Each candidate still to come adds at least 1 (a new singleton part).
            PartitionScore::ExpectedSize => self.tally(
                feedback,
                counts,
                |c, _| 2 * u64::from(c) + 1,
                |key, left| key + left as u64 > bound,
            ),
            PartitionScore::Entropy => self.tally(
                feedback,
                counts,
                |c, _| self.steps[c as usize],
                |key, _| key > bound,
            ),
            // The score falls as parts appear; give up once even a new part for every candidate
            // still to come would leave it above the bound.
            PartitionScore::MostParts => {
                let slots = self.slots as u64;
                self.tally(
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
    fn tally(
        &self,
        feedback: impl Fn(usize, u32) -> u8,
        counts: &mut [u32; 256],
        step: impl Fn(u32, u64) -> u64,
        hopeless: impl Fn(u64, usize) -> bool,
    ) -> Option<u64> {
        let n = self.secrets.len();
        let mut key = 0u64;
        let mut seen = n;
        for (i, &s) in self.secrets.iter().enumerate() {
            let c = &mut counts[usize::from(feedback(i, s))];
            key += step(*c, key);
            *c += 1;
            if hopeless(key, n - i - 1) {
                seen = i + 1;
                break;
            }
        }
        // Clearing the few feedback slots costs less than scoring the secrets again.
        counts[..self.slots].fill(0);
        (seen == n && !hopeless(key, 0)).then_some(key)
    }
}

impl Strategy for PartitionStrategy {
    fn name(&self) -> &str {
        self.score.name()
    }

    fn next_guess(&mut self, knowledge: &Knowledge<'_>) -> Result<Code, StrategyError> {
        self.find(knowledge, &Stop::never())
            .map(|f| f.guess)
            .map(|g| knowledge.space.code(g))
            .ok_or(StrategyError::NoCandidates)
    }
}

#[cfg(test)]
mod tests {
    use super::sample::membership;
    use super::*;
    use crate::rules::games;
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
        let k = Knowledge::new(&space, &history, &all);
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
                        let k = Knowledge::new(&space, &history, &candidates);
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
        for rules in games("mastermind, 3 012345 no-leading, 3 01234 repeats") {
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

    /// A position of Bulls and Cows 5x10 after one guess: too many pairs for a small budget.
    fn five_digits_after_one_guess() -> (CodeSpace, History, CodeSet) {
        let rules = Rules::new(5, "0123456789", false, false).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let guess = rules.parse_code("01234").unwrap();
        let fb = guess.score(&rules.parse_code("35678").unwrap());
        let mut history = History::new();
        history.push(guess, fb);
        let candidates = space.filter_code(&space.all(), &guess, fb);
        (space, history, candidates)
    }

    #[test]
    fn sampled_choices_depend_on_the_seed_only() {
        let (space, history, candidates) = five_digits_after_one_guess();
        let k = Knowledge::new(&space, &history, &candidates);
        for score in PartitionScore::ALL {
            for pool in GuessPool::ALL {
                let s = PartitionStrategy::new(score, pool).with_sampling(Sampling::new(50_000, 7));
                let choose = |threads: usize| {
                    rayon::ThreadPoolBuilder::new()
                        .num_threads(threads)
                        .build()
                        .unwrap()
                        .install(|| s.choose(&k, &Stop::never()).unwrap())
                };
                let one = choose(1);
                if pool == GuessPool::All {
                    assert!(one.sampled, "{score:?}");
                    assert!(one.secrets_scored < candidates.len());
                }
                assert!((one.guesses_scored * one.secrets_scored) as u64 <= 50_000 + 512 * 8_000);
                for threads in [1, 2, 3] {
                    let other = choose(threads);
                    assert_eq!(
                        other.guess, one.guess,
                        "{score:?} {pool:?} {threads} threads"
                    );
                    assert_eq!(other.guesses_scored, one.guesses_scored);
                }
                if pool == GuessPool::Consistent {
                    assert!(candidates.contains(one.guess));
                }
            }
        }
    }

    #[test]
    fn seeds_draw_different_samples() {
        let (space, history, candidates) = five_digits_after_one_guess();
        let k = Knowledge::new(&space, &history, &candidates);
        let s = PartitionStrategy::new(PartitionScore::Entropy, GuessPool::All);
        let guesses: std::collections::BTreeSet<usize> = (0..8)
            .map(|seed| {
                s.with_sampling(Sampling::new(20_000, seed))
                    .choose(&k, &Stop::never())
                    .unwrap()
                    .guess
            })
            .collect();
        assert!(guesses.len() > 1, "{guesses:?}");
    }

    #[test]
    fn a_budget_covering_the_full_scan_gives_the_full_choice() {
        let rules = Rules::bulls();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let all = space.all();
        let g = rules.parse_code("0123").unwrap();
        for secret in ["4567", "1045", "3210", "0124"] {
            let fb = g.score(&rules.parse_code(secret).unwrap());
            let mut history = History::new();
            history.push(g, fb);
            let candidates = space.filter_code(&all, &g, fb);
            let k = Knowledge::new(&space, &history, &candidates);
            for score in PartitionScore::ALL {
                for pool in GuessPool::ALL {
                    let full = PartitionStrategy::new(score, pool)
                        .with_sampling(Sampling::exhaustive())
                        .choose(&k, &Stop::never())
                        .unwrap();
                    assert!(!full.sampled);
                    // Every candidate, unless one guess was the only one worth scoring.
                    assert!(
                        full.secrets_scored == candidates.len()
                            || (full.guesses_scored, full.secrets_scored) == (1, 0)
                    );
                    // Just enough pairs for every guess scored, with any seed.
                    let exact = (full.guesses_scored * candidates.len()) as u64;
                    for budget in [exact, exact + 1, Sampling::DEFAULT_MAX_PAIRS] {
                        let s = PartitionStrategy::new(score, pool)
                            .with_sampling(Sampling::new(budget.max(exact), 99));
                        let c = s.choose(&k, &Stop::never()).unwrap();
                        assert!(!c.sampled, "{score:?} {pool:?} {secret}");
                        assert_eq!(c.guess, full.guess, "{score:?} {pool:?} {secret}");
                        assert_eq!(c.stats, full.stats);
                        assert_eq!(s.best(&k), Some(full.guess));
                    }
                    assert_eq!(
                        full.guess,
                        brute_force(&PartitionStrategy::new(score, pool), &k)
                    );
                }
            }
        }
    }

    #[test]
    fn a_stopped_choice_scores_nothing() {
        let (space, history, candidates) = five_digits_after_one_guess();
        let k = Knowledge::new(&space, &history, &candidates);
        let stop = Stop::never().with_flag(std::sync::Arc::new(true.into()));
        let s = PartitionStrategy::new(PartitionScore::Minimax, GuessPool::All);
        assert!(s.choose(&k, &stop).is_none());
        assert!(s.choose(&k, &Stop::never()).is_some());
    }

    /// The arena's biggest game (10 digits, no leading zero): the same seed plays the same game
    /// on one thread or two, every guess is a legal code, and another seed plays another game.
    #[test]
    fn ten_digit_games_depend_on_the_seed_only() {
        let rules = Rules::new(10, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let secret = rules.parse_code("3917052486").unwrap();
        let game = |seed: u64, threads: usize| {
            let mut s = PartitionStrategy::new(PartitionScore::Entropy, GuessPool::All)
                .with_sampling(Sampling::new(Sampling::DEFAULT_MAX_PAIRS, seed));
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap()
                .install(|| crate::strategy::play(&mut s, &space, &secret, 40).unwrap())
        };
        let one = game(1, 1);
        assert!(one.is_won(10));
        for turn in one.turns() {
            rules.check_code(&turn.guess).unwrap();
        }
        assert_eq!(game(1, 2), one);
        assert_ne!(game(2, 1), one);
    }

    /// Late in a 7-digit game a handful of candidates is left while symbols no guess has used
    /// still shrink the guesses to a few hundred thousand classes: a budget of pairs alone let a
    /// choice list and score all of them, longer than a 50 ms turn. Counted with each guess's own
    /// cost, no choice does more than the sample's budget and the climbs' share.
    #[test]
    fn few_candidates_do_not_buy_a_scan_of_every_guess() {
        let rules = Rules::new(7, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let budget = Sampling::DEFAULT_MAX_PAIRS;
        let s = PartitionStrategy::new(PartitionScore::Entropy, GuessPool::All)
            .with_sampling(Sampling::new(budget, 1));
        let mut small = 0;
        for secret in ["9876543", "1023456", "5647382", "3019284"] {
            let secret = rules.parse_code(secret).unwrap();
            let mut history = History::new();
            let mut candidates = space.all();
            while !history.is_won(7) {
                let k = Knowledge::new(&space, &history, &candidates);
                let choice = s.choose(&k, &Stop::never()).unwrap();
                let work =
                    choice.guesses_scored as u64 * (choice.secrets_scored + GUESS_COST) as u64;
                assert!(
                    work <= (CLIMB_SHARE + 2) * budget,
                    "{} candidates: {} guesses x {} secrets",
                    candidates.len(),
                    choice.guesses_scored,
                    choice.secrets_scored
                );
                small += usize::from((3..=16).contains(&candidates.len()));
                let guess = space.code(choice.guess);
                let feedback = guess.score(&secret);
                candidates = space.filter_code(&candidates, &guess, feedback);
                history.push(guess, feedback);
            }
        }
        assert!(
            small > 0,
            "no choice was made among a handful of candidates"
        );
    }

    #[test]
    fn sampled_games_are_won() {
        // Six digits: every choice after the first samples under a small budget.
        let rules = Rules::new(6, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        for score in PartitionScore::ALL {
            let mut s = PartitionStrategy::new(score, GuessPool::All)
                .with_sampling(Sampling::new(200_000, 1));
            for secret in ["987654", "102345", "564738"] {
                let secret = rules.parse_code(secret).unwrap();
                let h = crate::strategy::play(&mut s, &space, &secret, 30).unwrap();
                assert!(h.is_won(6), "{score:?}");
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

#[cfg(test)]
mod bulls_known_answers {
    use super::*;
    use crate::eval::{evaluate, EvalOptions};
    use crate::Rules;

    /// The Bulls and Cows table (`moo bench`) of the book's `docs/src/strategies.md`: every choice
    /// of these trees is a full scan under the default budget, so sampling must not move any
    /// figure.
    #[test]
    fn bulls_and_cows_totals_hold_under_the_default_budget() {
        let space = CodeSpace::new(Rules::bulls()).unwrap();
        for (score, total) in [
            (PartitionScore::Minimax, 27139),
            (PartitionScore::ExpectedSize, 26551),
            (PartitionScore::Entropy, 26424),
            (PartitionScore::MostParts, 26751),
        ] {
            let build = |_| {
                Ok(Box::new(PartitionStrategy::new(score, GuessPool::All)) as Box<dyn Strategy>)
            };
            let e = evaluate(&space, &build, &EvalOptions::default(), &|_| {}).unwrap();
            assert_eq!(e.histogram.total(), total, "{score:?}");
        }
    }
}
