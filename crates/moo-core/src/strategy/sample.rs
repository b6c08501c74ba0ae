//! Which guesses and which secrets a partition choice scores.
//!
//! A full scan scores every guess worth scoring against every candidate. Two exact reductions come
//! first: symbols no guess has used yet are interchangeable, and so are symbols no candidate holds,
//! so of each class of guesses equal up to renaming within those classes only the first in
//! alphabet order (its "canonical" member) needs scoring ([`Renaming`], in the crate's symmetry
//! module, which serves the exact search too). The canonical guesses are generated directly,
//! depth first in alphabet order, so a tiny pool in a huge space (the opening of 10 digits has
//! one) costs nothing to list, and generation stops as soon as the pool is known to be too big.
//!
//! When the pool times the candidates still exceeds the pair budget, the choice scores a sample
//! ([`sample_pool`]): a seeded random sample of the candidates stands in for the candidate set, and the
//! guesses are the canonical candidates (all if they fit, else a seeded sample) followed by
//! non-candidates drawn at random and spread over classes of guesses that relate alike to the
//! history ([`signature`]): round-robin over the classes, so a class of rare guesses (say, keeping
//! two symbols of the last guess in place and bringing in fresh ones) is as likely to be tried as a
//! common one. Every draw comes from one ChaCha stream seeded by the sampling seed and the
//! candidate set, so the same seed and knowledge give the same sample on any number of threads.

use hashbrown::{HashMap, HashSet};
use rand::seq::index;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{GuessPool, Knowledge};
use crate::code::Code;
use crate::code::MAX_LENGTH;
use crate::codeset::CodeSet;
use crate::symmetry::Renaming;

/// The guesses to score, candidates first; each list sorted by index.
#[derive(Debug, Default)]
pub(super) struct Pool {
    /// Guesses that are candidates.
    pub candidates: Vec<u32>,
    /// Guesses that are not.
    pub others: Vec<u32>,
}

impl Pool {
    pub fn len(&self) -> usize {
        self.candidates.len() + self.others.len()
    }
}

/// What the guesses of one choice are drawn from: the position, which codes may be guessed, the
/// position's renaming symmetry, and its candidates as a bitmap.
pub(super) struct Guesses<'a> {
    knowledge: Knowledge<'a>,
    pool: GuessPool,
    symmetry: Renaming,
    /// The candidate set as a bitmap, for constant-time membership tests in the scoring loop.
    pub member: Vec<u64>,
}

impl<'a> Guesses<'a> {
    pub fn new(knowledge: &Knowledge<'a>, pool: GuessPool) -> Guesses<'a> {
        Guesses {
            knowledge: *knowledge,
            pool,
            symmetry: Renaming::new(knowledge.space, knowledge.history, knowledge.candidates),
            member: membership(knowledge.space.len(), knowledge.candidates),
        }
    }
}

impl Guesses<'_> {
    /// The position the guesses are drawn for.
    pub fn knowledge(&self) -> &Knowledge<'_> {
        &self.knowledge
    }

    /// The index of the canonical member of `code`'s renaming class: the one guess of the class
    /// that is scored, since all split the candidates alike.
    pub fn canonical_index(&self, code: &Code) -> u32 {
        self.knowledge.space.rank(&self.symmetry.canonical(code)) as u32
    }
}

/// The candidate set as a bitmap ([`is_member`]).
pub(super) fn membership(n: usize, set: &CodeSet) -> Vec<u64> {
    if set.len() == n {
        // Every code (the opening): no need to visit millions of members to know it.
        let mut bits = vec![u64::MAX; n.div_ceil(64)];
        if !n.is_multiple_of(64) {
            *bits.last_mut().expect("n > 0") = (1 << (n % 64)) - 1;
        }
        return bits;
    }
    let mut bits = vec![0u64; n.div_ceil(64)];
    for &i in set.as_slice() {
        bits[i as usize / 64] |= 1 << (i % 64);
    }
    bits
}

pub(super) fn is_member(member: &[u64], g: u32) -> bool {
    member[g as usize / 64] >> (g % 64) & 1 == 1
}

/// Canonical codes generated past this many times the limit stop the generation; the pool of a
/// consistent-only strategy is then counted among the candidates.
const GENERATE_FACTOR: usize = 4;

/// The whole pool of canonical guesses, or `None` if it has more than `limit` guesses.
pub(super) fn exact_pool(guesses: &Guesses<'_>, limit: usize) -> Option<Pool> {
    let Guesses {
        knowledge,
        pool,
        symmetry,
        member,
    } = guesses;
    let space = knowledge.space;
    let candidates = knowledge.candidates.as_slice();
    let ranked =
        |codes: Vec<Code>| -> Vec<u32> { codes.iter().map(|c| space.rank(c) as u32).collect() };
    match pool {
        GuessPool::All => {
            if !symmetry.active {
                if space.len() > limit {
                    return None;
                }
                let others = (0..space.len() as u32)
                    .filter(|&g| !is_member(member, g))
                    .collect();
                return Some(Pool {
                    candidates: candidates.to_vec(),
                    others,
                });
            }
            let all = ranked(symmetry.codes(space.rules(), limit)?);
            let (candidates, others) = all.into_iter().partition(|&g| is_member(member, g));
            Some(Pool { candidates, others })
        }
        GuessPool::Consistent => {
            let canonical: Vec<u32> = if !symmetry.active {
                if candidates.len() > limit {
                    return None;
                }
                candidates.to_vec()
            } else if let Some(codes) = symmetry.codes(
                space.rules(),
                limit.saturating_mul(GENERATE_FACTOR).saturating_add(1024),
            ) {
                ranked(codes)
                    .into_iter()
                    .filter(|&g| is_member(member, g))
                    .collect()
            } else {
                let mut kept = Vec::new();
                for &g in candidates {
                    if symmetry.is_canonical(&space.code(g as usize)) {
                        kept.push(g);
                        if kept.len() > limit {
                            return None;
                        }
                    }
                }
                kept
            };
            (canonical.len() <= limit).then_some(Pool {
                candidates: canonical,
                others: Vec::new(),
            })
        }
    }
}

/// The random stream of one choice: the sampling seed mixed with the candidate set, so that
/// successive turns draw afresh and the same position always draws the same.
pub(super) fn rng(seed: u64, knowledge: &Knowledge<'_>) -> ChaCha8Rng {
    let c = knowledge.candidates.as_slice();
    let mut h = seed;
    for x in [
        c.len() as u64,
        c.first().copied().map_or(0, u64::from),
        c.last().copied().map_or(0, u64::from),
        c.get(c.len() / 2).copied().map_or(0, u64::from),
        knowledge.history.len() as u64,
    ] {
        h = mix(h ^ x);
    }
    ChaCha8Rng::seed_from_u64(h)
}

/// SplitMix64's finaliser.
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `count` distinct members of `set`, drawn at random, in increasing order.
pub(super) fn sample_of(set: &[u32], count: usize, rng: &mut ChaCha8Rng) -> Vec<u32> {
    if count >= set.len() {
        return set.to_vec();
    }
    let mut picked: Vec<u32> = index::sample(rng, set.len(), count)
        .into_iter()
        .map(|i| set[i])
        .collect();
    picked.sort_unstable();
    picked
}

/// The most non-candidate guesses a sample holds.
const MAX_SAMPLED_OTHERS: usize = 8_000;

/// A sample of about `budget` guesses of the pool: canonical candidates first (up to half the
/// budget when non-candidates may be guessed), then non-candidates spread over their classes.
pub(super) fn sample_pool(guesses: &Guesses<'_>, budget: usize, rng: &mut ChaCha8Rng) -> Pool {
    let (knowledge, symmetry) = (&guesses.knowledge, &guesses.symmetry);
    let pool = guesses.pool;
    let space = knowledge.space;
    let candidates = knowledge.candidates.as_slice();
    let for_candidates = match pool {
        GuessPool::All => budget.div_ceil(2),
        GuessPool::Consistent => budget,
    }
    .max(1);
    let mut sample = Pool {
        candidates: if candidates.len() <= GENERATE_FACTOR * for_candidates {
            let canonical: Vec<u32> = candidates
                .iter()
                .copied()
                .filter(|&g| symmetry.is_canonical(&space.code(g as usize)))
                .collect();
            sample_of(&canonical, for_candidates, rng)
        } else {
            // Draw candidates and keep their canonical forms (renaming keeps a candidate one).
            let mut seen = HashSet::with_capacity(for_candidates);
            let mut kept = Vec::with_capacity(for_candidates);
            for _ in 0..2 * for_candidates {
                let c = candidates[crate::index_below(rng, candidates.len())];
                let g = space.rank(&symmetry.canonical(&space.code(c as usize))) as u32;
                if seen.insert(g) {
                    kept.push(g);
                    if kept.len() == for_candidates {
                        break;
                    }
                }
            }
            kept.sort_unstable();
            kept
        },
        others: Vec::new(),
    };
    if pool == GuessPool::All {
        let want = budget
            .saturating_sub(sample.candidates.len())
            .clamp(1, MAX_SAMPLED_OTHERS);
        sample.others = spread_others(guesses, want, rng);
    }
    sample
}

/// About `want` canonical non-candidates, drawn at random and taken round-robin over their
/// [`signature`] classes.
fn spread_others(guesses: &Guesses<'_>, want: usize, rng: &mut ChaCha8Rng) -> Vec<u32> {
    let (knowledge, symmetry) = (&guesses.knowledge, &guesses.symmetry);
    let member = &guesses.member;
    let space = knowledge.space;
    let turns: Vec<(Code, u64)> = knowledge
        .history
        .turns()
        .iter()
        .rev()
        .take(MAX_SIGNATURE_TURNS)
        .map(|t| (t.guess, t.guess.mask()))
        .collect();
    let mut seen: HashSet<u32> = HashSet::with_capacity(2 * want);
    let mut per_class: HashMap<u64, u32> = HashMap::new();
    // (turn of this guess in its class's round, draw order, guess)
    let mut drawn: Vec<(u32, u32, u32)> = Vec::with_capacity(2 * want);
    for draw in 0..2 * want as u32 + 16 {
        // Drawn from the rules, not looked up in the space: a big space's codes are megabytes,
        // and a random look-up there costs more than the draw.
        let code = symmetry.canonical(&space.rules().random_code(rng));
        let g = space.rank(&code) as u32;
        if is_member(member, g) || !seen.insert(g) {
            continue;
        }
        let round = per_class
            .entry(signature(&code, &turns, symmetry.absent()))
            .or_insert(0);
        drawn.push((*round, draw, g));
        *round += 1;
    }
    drawn.sort_unstable();
    let mut others: Vec<u32> = drawn.into_iter().take(want).map(|(_, _, g)| g).collect();
    others.sort_unstable();
    others
}

/// The turns a signature looks back on.
const MAX_SIGNATURE_TURNS: usize = 16;

/// A class of guesses that relate alike to the history: for each of the guess's symbols, which
/// recent guesses used it and which had it in the same place, whether no candidate holds it, and
/// how often the guess repeats it; as a multiset over the positions, hashed.
fn signature(code: &Code, turns: &[(Code, u64)], absent: u64) -> u64 {
    let symbols = code.symbols();
    let mut features = [0u64; MAX_LENGTH];
    for (i, (f, &s)) in features.iter_mut().zip(symbols).enumerate() {
        let mut x = 0u64;
        for (t, (guess, mask)) in turns.iter().enumerate() {
            x |= (mask >> s & 1) << (2 * t);
            x |= u64::from(guess.symbols()[i] == s) << (2 * t + 1);
        }
        x |= (absent >> s & 1) << 40;
        x |= (symbols.iter().filter(|&&y| y == s).count() as u64) << 41;
        *f = x;
    }
    let features = &mut features[..symbols.len()];
    features.sort_unstable();
    features.iter().fold(0, |h, &f| mix(h ^ f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_membership_of_every_code_is_every_bit_up_to_the_last() {
        for n in [1, 63, 64, 65, 200] {
            let all = CodeSet::from_sorted((0..n as u32).collect());
            let bits = membership(n, &all);
            let visited = {
                let mut bits = vec![0u64; n.div_ceil(64)];
                for &i in all.as_slice() {
                    bits[i as usize / 64] |= 1 << (i % 64);
                }
                bits
            };
            assert_eq!(bits, visited, "{n}");
        }
        assert!(membership(0, &CodeSet::from_sorted(Vec::new())).is_empty());
    }
}
