//! Guesses that split a set the same way are the same move: only the first is searched.
//!
//! Two splits are the same when every member lands in the same part, the winning part included:
//! labelling each guess's parts in order of first appearance (the winning one 0) gives equal
//! splits equal labels. Labelling guess by guess reads each member's score row at the guess's
//! column, a line of memory per member and guess; so the labels are hashed for all the guesses
//! at once instead, 64 columns to a line of each row, and labelled one by one only where two
//! hashes agree, which decides whether the splits do.
//!
//! The search labels only the sets where a whole family of guesses must split alike: those
//! that two symbols miss entirely, where a guess and its copy with one such symbol for the
//! other are the same move. Elsewhere few guesses repeat a split (counted in the book's
//! `docs/src/performance.md`), and trying one again costs less than labelling them all: its
//! parts are answered by the cache.

use hashbrown::HashTable;
use smallvec::SmallVec;

use super::candidates::Candidate;
use super::lower_bounds::Bounds;
use super::memo::hash_combine;

/// A part not labelled yet.
const NONE: u8 = u8::MAX;

/// Guesses per line of a score row.
const LINE: usize = 64;

/// [`keep_new_splits`] when whole families of guesses split `set` alike: when at least two of
/// the game's symbols are missing from every member. A guess scores the same against every
/// member with one missing symbol put for another, so its copies are the same move; without
/// such symbols, repeated splits are few and labelling every candidate costs more than trying
/// the few again.
pub(super) fn keep_new_splits_where_likely(
    bounds: &Bounds,
    set: &[u32],
    cands: &mut Vec<Candidate>,
) {
    if missing_symbols(bounds, set) >= 2 {
        keep_new_splits(bounds, set, cands);
    }
}

/// How many of the game's symbols no member of `set` holds.
fn missing_symbols(bounds: &Bounds, set: &[u32]) -> u32 {
    let alphabet = bounds.space.rules().alphabet().len() as u32;
    alphabet - bounds.space.symbols_held(set).count_ones()
}

/// Keeps of `cands`, in their order, only the first guess of each split of `set`: the others
/// split it exactly as an earlier one (same parts, same winning part), so they cost the same.
pub(super) fn keep_new_splits(bounds: &Bounds, set: &[u32], cands: &mut Vec<Candidate>) {
    if cands.len() < 2 {
        return;
    }
    let hashes = split_hashes(bounds, set, cands);
    let mut seen: HashTable<(u64, u32)> = HashTable::with_capacity(cands.len());
    let (mut mine, mut theirs) = (Vec::new(), Vec::new());
    let new: Vec<bool> = cands
        .iter()
        .zip(&hashes)
        .map(|(c, &h)| {
            let same = |&(hash, earlier): &(u64, u32)| {
                hash == h && {
                    labels(bounds, set, c.guess, &mut mine);
                    labels(bounds, set, earlier, &mut theirs);
                    mine == theirs
                }
            };
            if seen.find(h, same).is_some() {
                return false;
            }
            seen.insert_unique(h, (h, c.guess), |&(hash, _)| hash);
            true
        })
        .collect();
    let mut new = new.into_iter();
    cands.retain(|_| new.next().unwrap_or(true));
}

/// The labels of guess `g`'s parts of `set`, member by member, into `out`: the winning part is
/// 0, the others numbered in order of first appearance.
fn labels(bounds: &Bounds, set: &[u32], g: u32, out: &mut Vec<u8>) {
    let mut remap: SmallVec<[u8; 64]> = SmallVec::from_elem(NONE, bounds.slots);
    remap[bounds.win] = 0;
    let mut next = 1u8;
    out.clear();
    out.extend(set.iter().map(|&s| {
        let f = usize::from(bounds.feedback(s, g));
        if remap[f] == NONE {
            remap[f] = next;
            next += 1;
        }
        remap[f]
    }));
}

/// The hash of each candidate's [`labels`], in the order of `cands`. The candidates are taken
/// by lines of 64 guesses: each member's row is read a line at a time, which holds the
/// feedbacks of all the candidates in it, and their labels are hashed side by side.
fn split_hashes(bounds: &Bounds, set: &[u32], cands: &[Candidate]) -> Vec<u64> {
    let rows: Vec<&[u8]> = set.iter().map(|&s| bounds.row(s)).collect();
    let mut by_guess: Vec<(u32, u32)> = (0..cands.len() as u32)
        .map(|i| (cands[i as usize].guess, i))
        .collect();
    by_guess.sort_unstable();
    let slots = bounds.slots;
    let mut out = vec![0u64; cands.len()];
    let mut remap: Vec<u8> = Vec::new();
    for line in by_guess.chunk_by(|a, b| a.0 as usize / LINE == b.0 as usize / LINE) {
        let start = line[0].0 as usize / LINE * LINE;
        let lanes: SmallVec<[usize; LINE]> =
            line.iter().map(|&(g, _)| g as usize - start).collect();
        remap.clear();
        remap.resize(lanes.len() * slots, NONE);
        for lane in remap.chunks_exact_mut(slots) {
            lane[bounds.win] = 0;
        }
        let mut next = [1u8; LINE];
        let mut hashes = [0u64; LINE];
        for row in &rows {
            let row = &row[start..(start + LINE).min(row.len())];
            for (k, (&j, lane)) in lanes.iter().zip(remap.chunks_exact_mut(slots)).enumerate() {
                let label = &mut lane[usize::from(row[j])];
                if *label == NONE {
                    *label = next[k];
                    next[k] += 1;
                }
                hashes[k] = hash_combine(hashes[k], u64::from(*label));
            }
        }
        for (&(_, i), &h) in line.iter().zip(&hashes) {
            out[i as usize] = h;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pool::GuessPool;
    use crate::rules::{games, Rules};
    use crate::space::CodeSpace;

    /// The guesses kept are the first of each split in the order given, as comparing every
    /// guess's labels with every earlier one's finds them, on sets where many guesses split
    /// alike (few members) and where few do.
    #[test]
    fn the_first_guess_of_each_split_is_kept() {
        for rules in games("4 123456 repeats, 5 1234 repeats, 3 012345") {
            let space = CodeSpace::new(rules).unwrap();
            let bounds = Bounds::new(&space, GuessPool::All, None);
            let n = space.len() as u32;
            let mut dropped = 0;
            for (size, step) in [(3u32, 17u32), (12, 7), (40, 3), (150, 5)] {
                let mut set: Vec<u32> = (0..size).map(|i| (i * step * 31 + 5) % n).collect();
                set.sort_unstable();
                set.dedup();
                // Every guess, in an order that is not the index order.
                let mut cands: Vec<Candidate> = (0..n)
                    .map(|i| Candidate {
                        guess: (i * 7 + 3) % n,
                        bound: 0,
                        member: false,
                    })
                    .collect();
                cands.sort_unstable_by_key(|c| (c.guess * 13) % n);
                let mut seen: Vec<Vec<u8>> = Vec::new();
                let mut want = Vec::new();
                let mut l = Vec::new();
                for c in &cands {
                    labels(&bounds, &set, c.guess, &mut l);
                    if !seen.contains(&l) {
                        seen.push(l.clone());
                        want.push(c.guess);
                    }
                }
                keep_new_splits(&bounds, &set, &mut cands);
                let kept: Vec<u32> = cands.iter().map(|c| c.guess).collect();
                assert_eq!(kept, want, "{}, a set of {}", space.rules(), set.len());
                dropped += n as usize - kept.len();
            }
            assert!(dropped > 0, "{}: no two guesses split alike", space.rules());
        }
    }

    /// The search labels a set's splits only when two symbols are missing from every member,
    /// and then keeps what labelling keeps; otherwise it keeps every candidate.
    #[test]
    fn splits_are_labelled_where_two_symbols_are_missing() {
        let space = CodeSpace::new(Rules::new(4, "123456", true, false).unwrap()).unwrap();
        let bounds = Bounds::new(&space, GuessPool::All, None);
        let every: Vec<Candidate> = (0..space.len() as u32)
            .map(|guess| Candidate {
                guess,
                bound: 0,
                member: false,
            })
            .collect();
        let codes = |symbols: &str| -> Vec<u32> {
            (0..space.len() as u32)
                .filter(|&c| {
                    space
                        .code(c as usize)
                        .symbols()
                        .iter()
                        .all(|&s| symbols.contains(char::from(b'1' + s)))
                })
                .collect()
        };
        // Codes of 1234 only: 5 and 6 are missing, so guesses with either split alike.
        let missing_two = codes("1234");
        assert_eq!(missing_symbols(&bounds, &missing_two), 2);
        let (mut kept, mut want) = (every.clone(), every.clone());
        keep_new_splits_where_likely(&bounds, &missing_two, &mut kept);
        keep_new_splits(&bounds, &missing_two, &mut want);
        let guesses = |c: &[Candidate]| c.iter().map(|c| c.guess).collect::<Vec<_>>();
        assert_eq!(guesses(&kept), guesses(&want));
        assert!(kept.len() < every.len());
        // Codes of 12345: one symbol missing, so every candidate is kept as it is.
        let missing_one = codes("12345");
        assert_eq!(missing_symbols(&bounds, &missing_one), 1);
        let mut kept = every.clone();
        keep_new_splits_where_likely(&bounds, &missing_one, &mut kept);
        assert_eq!(guesses(&kept), guesses(&every));
    }
}
