//! Guesses built for the position by local search, where a sample of guesses is all a choice can
//! afford.
//!
//! On a big game (7 to 10 digits) a random sample of a few thousand guesses out of millions rarely
//! holds the few that split the candidates well: those keep the places a past guess got right,
//! move the symbols it got wrong, and bring in symbols in proportions no uniform draw favours. A
//! good guess is, however, almost always a small change of another good one, so the best
//! guesses of the sample are improved one change at a time (two places swapped, or one symbol
//! replaced by one the guess lacks) for as long as a change scores better: hill climbing, from
//! several starts. Each start climbs to a local optimum, within a count of guesses scored, so the
//! result is reproducible and its time bounded on any machine.
//!
//! The climb scores on a sample of the candidates, and a climb finds the guess that suits that
//! sample best, noise included; so the optima and the sample's best guesses are scored once more
//! against a larger sample (every candidate, when they fit) before one is chosen.

use crate::code::{Code, MAX_LENGTH};
use crate::rules::Rules;

/// A scored guess, smaller first: the score, whether it is not a candidate, and its index.
pub(super) type Ranked = (u64, bool, u32);

/// Every code one change away from `code` under `rules`: two places swapped, or one place given a
/// symbol the code lacks (any other symbol, when symbols may repeat). Codes the rules forbid (a
/// leading forbidden symbol) are left out.
pub(super) fn neighbours(code: &Code, rules: &Rules, out: &mut Vec<Code>) {
    out.clear();
    let symbols = code.symbols();
    let length = symbols.len();
    let alphabet = rules.alphabet().len() as u8;
    let mask = code.mask();
    let mut work = [0u8; MAX_LENGTH];
    let work = &mut work[..length];
    let legal = |w: &[u8]| !(rules.no_leading() && w[0] == 0);
    for i in 0..length {
        for j in i + 1..length {
            if symbols[i] == symbols[j] {
                continue;
            }
            work.copy_from_slice(symbols);
            work.swap(i, j);
            if legal(work) {
                out.push(Code::from_symbols(work));
            }
        }
        for s in 0..alphabet {
            let lacking = if rules.repeats() {
                s != symbols[i]
            } else {
                mask >> s & 1 == 0
            };
            if !lacking {
                continue;
            }
            work.copy_from_slice(symbols);
            work[i] = s;
            if legal(work) {
                out.push(Code::from_symbols(work));
            }
        }
    }
}

/// How a climb scores guesses, and how far it may go.
pub(super) struct Climb<Index, Score> {
    /// The index a code is scored under: equal for codes that split the candidates alike (the
    /// canonical member of its renaming class), so each class is scored once.
    pub index: Index,
    /// The scores of some guesses (indexes), in order; `None` if the choice was stopped.
    pub score: Score,
    /// The most guesses the climb scores in all.
    pub max_guesses: usize,
}

/// The local optimum each of `starts` climbs to, best first, distinct, at most one per start.
pub(super) fn climb<Index, Score>(
    starts: &[Ranked],
    space: &crate::space::CodeSpace,
    climb: Climb<Index, Score>,
) -> (Vec<Ranked>, usize)
where
    Index: Fn(&Code) -> u32,
    Score: Fn(&[u32]) -> Option<Vec<Ranked>>,
{
    let mut seen: hashbrown::HashSet<u32> = starts.iter().map(|r| r.2).collect();
    let mut scored = 0usize;
    let mut optima: Vec<Ranked> = Vec::with_capacity(starts.len());
    let mut codes = Vec::new();
    'starts: for &start in starts {
        let mut here = start;
        loop {
            neighbours(&space.code(here.2 as usize), space.rules(), &mut codes);
            let fresh: Vec<u32> = codes
                .iter()
                .map(|c| (climb.index)(c))
                .filter(|&g| seen.insert(g))
                .collect();
            if fresh.is_empty() {
                break;
            }
            if scored + fresh.len() > climb.max_guesses {
                optima.push(here);
                break 'starts;
            }
            scored += fresh.len();
            let Some(ranks) = (climb.score)(&fresh) else {
                optima.push(here);
                break 'starts;
            };
            match ranks.into_iter().min() {
                Some(better) if better < here => here = better,
                _ => break,
            }
        }
        optima.push(here);
    }
    optima.sort_unstable();
    optima.dedup();
    (optima, scored)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::space::CodeSpace;

    /// How many places two codes of one length differ in: the neighbours' distance.
    fn places_differing(a: &Code, b: &Code) -> usize {
        a.symbols()
            .iter()
            .zip(b.symbols())
            .filter(|(x, y)| x != y)
            .count()
    }

    #[test]
    fn neighbours_are_legal_and_one_change_away() {
        for (rules, code) in [
            (Rules::new(4, "0123456789", false, true).unwrap(), "1023"),
            (
                Rules::new(10, "0123456789", false, true).unwrap(),
                "1023456789",
            ),
            (Rules::new(4, "123456", true, false).unwrap(), "1122"),
        ] {
            let code = rules.parse_code(code).unwrap();
            let mut out = Vec::new();
            neighbours(&code, &rules, &mut out);
            assert!(!out.is_empty());
            let space = CodeSpace::new(rules.clone()).unwrap_or_else(|_| {
                CodeSpace::with_limit(rules.clone(), crate::space::MAX_CODES).unwrap()
            });
            let mut unique = out.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), out.len(), "no neighbour twice");
            for n in &out {
                rules.check_code(n).unwrap();
                assert!(space.index_of(n).is_some());
                let differ = places_differing(n, &code);
                assert!(differ == 1 || differ == 2, "{n:?} from {code:?}");
                assert_ne!(*n, code);
            }
        }
    }

    /// A score with one optimum, the places a code differs from a target: every start climbs to
    /// it, and a climb allowed no guesses stays where it started.
    #[test]
    fn climbs_reach_the_optimum_within_their_count() {
        let rules = Rules::new(5, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let target = rules.parse_code("98765").unwrap();
        let rank = |g: u32| -> Ranked {
            let differ = places_differing(&space.code(g as usize), &target);
            (differ as u64, true, g)
        };
        let starts: Vec<Ranked> = ["10234", "56789", "89567"]
            .iter()
            .map(|t| rank(space.index_of(&rules.parse_code(t).unwrap()).unwrap() as u32))
            .collect();
        let run = |max_guesses: usize| {
            climb(
                &starts,
                &space,
                Climb {
                    index: |c: &Code| space.index_of(c).unwrap() as u32,
                    score: |gs: &[u32]| Some(gs.iter().map(|&g| rank(g)).collect()),
                    max_guesses,
                },
            )
        };
        let (optima, scored) = run(usize::MAX);
        assert_eq!(optima[0], rank(space.index_of(&target).unwrap() as u32));
        assert!(scored > 0);
        let (stayed, none) = run(0);
        assert_eq!(none, 0);
        assert_eq!(stayed, vec![starts[0]]);
    }

    #[test]
    fn ten_digits_have_every_legal_swap() {
        let rules = Rules::new(10, "0123456789", false, true).unwrap();
        let code = rules.parse_code("1023456789").unwrap();
        let mut out = Vec::new();
        neighbours(&code, &rules, &mut out);
        // 45 swaps, less the one that puts 0 first (swapping places 0 and 1); no symbol is lacking.
        assert_eq!(out.len(), 44);
    }
}
