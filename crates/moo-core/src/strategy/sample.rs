//! Which guesses and which secrets a partition choice scores.
//!
//! A full scan scores every guess worth scoring against every candidate. Two exact reductions come
//! first: symbols no guess has used yet are interchangeable, and so are symbols no candidate holds,
//! so of each class of guesses equal up to renaming within those classes only the first in
//! alphabet order (its "canonical" member) needs scoring ([`Symmetry`]). The canonical guesses are
//! generated directly, depth first in alphabet order, so a tiny pool in a huge space (the opening
//! of 10 digits has one) costs nothing to list, and generation stops as soon as the pool is
//! known to be too big.
//!
//! When the pool times the candidates still exceeds the pair budget, the choice scores a sample
//! ([`sample`]): a seeded random sample of the candidates stands in for the candidate set, and the
//! guesses are the canonical candidates (all if they fit, else a seeded sample) followed by
//! non-candidates drawn at random and spread over classes of guesses that relate alike to the
//! history ([`signature`]): round-robin over the classes, so a class of rare guesses (say, keeping
//! two symbols of the last guess in place and bringing in fresh ones) is as likely to be tried as a
//! common one. Every draw comes from one ChaCha stream seeded by the sampling seed and the
//! candidate set, so the same seed and knowledge give the same sample on any number of threads.

use hashbrown::{HashMap, HashSet};
use rand::seq::index;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{GuessPool, Knowledge};
use crate::code::Code;
use crate::rules::{Rules, MAX_LENGTH};

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

/// The renaming symmetry of one position: two classes of interchangeable symbols.
pub(super) struct Symmetry {
    /// Symbols no guess used, and symbols no candidate holds (never the pinned leading symbol).
    classes: [u64; 2],
    /// Whether some class has two symbols or more, so that renaming does anything.
    pub active: bool,
}

impl Symmetry {
    pub fn new(knowledge: &Knowledge<'_>) -> Symmetry {
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
        let pinned = u64::from(rules.no_leading());
        let free = all_symbols & !pinned;
        // Symbols no candidate holds: swapping two of them fixes every candidate. Big sets hold
        // every symbol after a few members, so the scan stops there.
        let mut present = 0u64;
        for c in knowledge.candidates.iter() {
            present |= space.code(c).mask();
            if present & free == free {
                break;
            }
        }
        let absent = free & !present;
        // Symbols no guess used: swapping two of them fixes the history, hence the candidates.
        let fresh = free & !used & !absent;
        let classes = [fresh, absent];
        Symmetry {
            classes,
            active: classes.iter().any(|c| c.count_ones() >= 2),
        }
    }

    /// The symbols no candidate holds.
    pub fn absent(&self) -> u64 {
        self.classes[1]
    }

    /// Whether `code` is the first in alphabet order of the codes it can be renamed to: for each
    /// class, the class's symbols in `code` appear (first occurrences, in order) as the smallest of
    /// the class in increasing order.
    pub fn is_canonical(&self, code: &Code) -> bool {
        !self.active || is_canonical(code, self.classes)
    }

    /// The first in alphabet order of the codes `code` can be renamed to.
    pub fn canonical(&self, code: &Code) -> Code {
        if !self.active {
            return *code;
        }
        let mut unseen = self.classes;
        let mut renamed = [u8::MAX; 64];
        let mut out = [0u8; MAX_LENGTH];
        for (o, &s) in out.iter_mut().zip(code.symbols()) {
            *o = s;
            let bit = 1u64 << s;
            if let Some(c) = self.classes.iter().position(|c| c & bit != 0) {
                if renamed[usize::from(s)] == u8::MAX {
                    let to = unseen[c].trailing_zeros() as u8;
                    unseen[c] &= unseen[c] - 1;
                    renamed[usize::from(s)] = to;
                }
                *o = renamed[usize::from(s)];
            }
        }
        Code::from_symbols(&out[..code.len()])
    }

    /// Every canonical code of `rules` in alphabet order, or `None` once there are more than
    /// `cap`. Generated depth first, so the work is proportional to the codes listed.
    pub fn codes(&self, rules: &Rules, cap: usize) -> Option<Vec<Code>> {
        struct Walk<'a> {
            rules: &'a Rules,
            classes: [u64; 2],
            cap: usize,
            current: Vec<u8>,
            out: Vec<Code>,
        }
        impl Walk<'_> {
            /// False once the cap is passed.
            fn extend(&mut self, used: u64, unseen: [u64; 2]) -> bool {
                if self.current.len() == self.rules.length() {
                    self.out.push(Code::from_symbols(&self.current));
                    return self.out.len() <= self.cap;
                }
                let first = u8::from(self.current.is_empty() && self.rules.no_leading());
                for s in first..self.rules.alphabet().len() as u8 {
                    let bit = 1u64 << s;
                    if !self.rules.repeats() && used & bit != 0 {
                        continue;
                    }
                    let mut unseen = unseen;
                    if let Some(c) = self.classes.iter().position(|c| c & bit != 0) {
                        if unseen[c] & bit != 0 {
                            // A class symbol's first use must be the smallest unused of its class.
                            if s as u32 != unseen[c].trailing_zeros() {
                                continue;
                            }
                            unseen[c] &= !bit;
                        }
                    }
                    self.current.push(s);
                    let more = self.extend(used | bit, unseen);
                    self.current.pop();
                    if !more {
                        return false;
                    }
                }
                true
            }
        }
        let classes = if self.active { self.classes } else { [0, 0] };
        let mut walk = Walk {
            rules,
            classes,
            cap,
            current: Vec::with_capacity(rules.length()),
            out: Vec::new(),
        };
        walk.extend(0, classes).then_some(walk.out)
    }
}

/// See [`Symmetry::is_canonical`].
pub(super) fn is_canonical(code: &Code, classes: [u64; 2]) -> bool {
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

pub(super) fn is_member(member: &[u64], g: u32) -> bool {
    member[g as usize / 64] >> (g % 64) & 1 == 1
}

/// Canonical codes generated past this many times the limit stop the generation; the pool of a
/// consistent-only strategy is then counted among the candidates.
const GENERATE_FACTOR: usize = 4;

/// The whole pool of canonical guesses, or `None` if it has more than `limit` guesses.
pub(super) fn exact_pool(
    knowledge: &Knowledge<'_>,
    pool: GuessPool,
    symmetry: &Symmetry,
    member: &[u64],
    limit: usize,
) -> Option<Pool> {
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
pub(super) fn sample_pool(
    knowledge: &Knowledge<'_>,
    pool: GuessPool,
    symmetry: &Symmetry,
    member: &[u64],
    budget: usize,
    rng: &mut ChaCha8Rng,
) -> Pool {
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
                let c = candidates[rng.gen_range(0..candidates.len())];
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
        sample.others = spread_others(knowledge, symmetry, member, want, rng);
    }
    sample
}

/// About `want` canonical non-candidates, drawn at random and taken round-robin over their
/// [`signature`] classes.
fn spread_others(
    knowledge: &Knowledge<'_>,
    symmetry: &Symmetry,
    member: &[u64],
    want: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<u32> {
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
    use crate::{CodeSet, CodeSpace, History, Rules};

    #[test]
    fn generated_canonical_codes_are_the_canonical_codes() {
        for rules in [
            Rules::bulls(),
            Rules::mastermind(),
            Rules::new(4, "0123456789", false, true).unwrap(),
            Rules::new(3, "abcde", true, true).unwrap(),
        ] {
            let space = CodeSpace::new(rules.clone()).unwrap();
            let mut history = History::new();
            let g = space.code(space.len() / 3);
            let fb = g.score(&space.code(space.len() / 2));
            history.push(g, fb);
            let candidates: CodeSet = space.filter_code(&space.all(), &g, fb);
            for history in [History::new(), history] {
                let candidates = if history.is_empty() {
                    space.all()
                } else {
                    candidates.clone()
                };
                let k = Knowledge {
                    space: &space,
                    history: &history,
                    candidates: &candidates,
                };
                let symmetry = Symmetry::new(&k);
                let listed = symmetry.codes(&rules, usize::MAX).unwrap();
                let filtered: Vec<Code> = space
                    .codes()
                    .iter()
                    .copied()
                    .filter(|c| symmetry.is_canonical(c))
                    .collect();
                assert_eq!(listed, filtered);
                for c in space.codes().iter().step_by(7) {
                    let canonical = symmetry.canonical(c);
                    assert!(symmetry.is_canonical(&canonical));
                    assert!(canonical <= *c);
                    assert!(rules.check_code(&canonical).is_ok());
                }
                assert!(symmetry.codes(&rules, listed.len() - 1).is_none());
            }
        }
    }
}
