//! Two guesses ahead, for the last few candidates of a big game.
//!
//! Entropy values information, but a game is scored in guesses: with a few dozen candidates
//! left, a guess that may win now, or one that leaves parts the next guess can finish, beats a
//! guess that gains a little more information. So once few candidates are left, the best guesses
//! by entropy are compared by the guesses they are expected to take in all: each guess splits the
//! candidates, each part gets the best reply of a short list (every candidate, and the best
//! non-candidates by entropy), and each part that reply leaves is valued by [`leaf`]. The work is
//! the roots times the replies times the candidates, a few hundred thousand pairs at most.

use crate::space::CodeSpace;

use super::refine::Ranked;

/// The information one guess gains late in a big game, in bits, for [`leaf`].
const BITS_PER_GUESS: f64 = 2.5;

/// The guesses expected to find one of `c` equally likely codes, as a guess: exact for one and
/// two codes (1 and 1.5), else at least a candidate's split of the rest into singletons can do
/// (`2 - 1/c`) and about what the information they hold takes.
fn leaf(c: usize) -> f64 {
    match c {
        0 => 0.0,
        1 => 1.0,
        2 => 1.5,
        _ => {
            let c = c as f64;
            (2.0 - 1.0 / c).max(1.0 + crate::log2(c) / BITS_PER_GUESS)
        }
    }
}

/// Fixed point for expected guesses, so the choice orders by integers.
const ONE: f64 = (1u64 << 32) as f64;

/// The feedback index of a win: every symbol a bull.
fn win(space: &CodeSpace) -> u8 {
    let length = space.length();
    (length * (length + 1)) as u8
}

/// The expected guesses after `guess` (this one included) to find each of `set`, each later part
/// valued by [`leaf`]; `buffer` and `counts` are scratch.
fn split_cost(
    space: &CodeSpace,
    guess: u32,
    set: &[u32],
    buffer: &mut Vec<u8>,
    counts: &mut [u32; 256],
) -> f64 {
    buffer.resize(set.len(), 0);
    space.feedbacks(guess as usize, set, buffer);
    for &f in buffer.iter() {
        counts[usize::from(f)] += 1;
    }
    let win = win(space);
    let mut cost = set.len() as f64;
    for (f, c) in counts.iter_mut().enumerate() {
        if *c > 0 && f != usize::from(win) {
            cost += f64::from(*c) * leaf(*c as usize);
        }
        *c = 0;
    }
    cost / set.len() as f64
}

/// The expected guesses to find each of `set` when the next guess is the best of `replies`.
fn part_cost(space: &CodeSpace, set: &[u32], replies: &[u32], buffer: &mut Vec<u8>) -> f64 {
    if set.len() <= 2 {
        return leaf(set.len());
    }
    let mut counts = [0u32; 256];
    replies
        .iter()
        .chain(set)
        .map(|&g| split_cost(space, g, set, buffer, &mut counts))
        .fold(f64::INFINITY, f64::min)
}

/// Of `roots`, the guess that takes the fewest guesses on average to find each of `candidates`,
/// looking two guesses ahead with `replies` (guesses that are not candidates; the candidates of
/// each part are tried too). Ties go to a candidate, then to the first code in alphabet order.
pub(super) fn best(
    space: &CodeSpace,
    candidates: &[u32],
    roots: &[Ranked],
    replies: &[u32],
) -> Option<Ranked> {
    let n = candidates.len();
    let win = win(space);
    let mut buffer = Vec::with_capacity(n);
    let mut parts: Vec<Vec<u32>> = vec![Vec::new(); 256];
    roots
        .iter()
        .map(|&(_, other, g)| {
            buffer.resize(n, 0);
            space.feedbacks(g as usize, candidates, &mut buffer);
            for (&f, &s) in buffer.iter().zip(candidates) {
                parts[usize::from(f)].push(s);
            }
            let mut cost = n as f64;
            for (f, part) in parts.iter_mut().enumerate() {
                if !part.is_empty() && f != usize::from(win) {
                    cost += part.len() as f64 * part_cost(space, part, replies, &mut buffer);
                }
                part.clear();
            }
            ((cost / n as f64 * ONE).round() as u64, other, g)
        })
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Rules;

    #[test]
    fn leaves_are_exact_for_one_and_two_codes_and_grow() {
        assert_eq!(leaf(1), 1.0);
        assert_eq!(leaf(2), 1.5);
        for c in 2..200 {
            assert!(leaf(c + 1) >= leaf(c), "{c}");
        }
    }

    #[test]
    fn a_candidate_that_splits_the_rest_beats_a_non_candidate_that_splits_all() {
        // Three codes of 5 digits; one of them tells the other two apart.
        let rules = Rules::new(5, "0123456789", false, true).unwrap();
        let space = CodeSpace::new(rules.clone()).unwrap();
        let idx = |t: &str| space.index_of(&rules.parse_code(t).unwrap()).unwrap() as u32;
        let (a, b, c) = (idx("12345"), idx("12354"), idx("12435"));
        let mut candidates = vec![a, b, c];
        candidates.sort_unstable();
        let roots: Vec<Ranked> = candidates.iter().map(|&g| (0, false, g)).collect();
        let chosen = best(&space, &candidates, &roots, &[]).unwrap();
        // 12345 scores 3B2C against both others: it does not tell them apart.
        assert_ne!(chosen.2, a);
        // One guess that wins a third of the time and splits the rest: (1 + 2 + 2) / 3.
        assert_eq!(chosen.0, (5.0 / 3.0 * ONE).round() as u64);
    }
}
