//! The parts of a set under one tried guess, and their bounds as a try sharpens them.

use smallvec::{smallvec, SmallVec};

use super::lower_bounds::Bounds;
use super::solved::FEEDBACKS;

/// The parts of a set under one guess, one after another in `members`; part `i` ends at
/// `ends[i]`. `at` holds each member's position in the set, for a set of at most 256 codes
/// (empty otherwise): its pairwise feedbacks are indexed by them ([`super::pairs::Pairs`]).
pub(super) struct Parts {
    members: SmallVec<[u32; 64]>,
    at: SmallVec<[u8; 64]>,
    ends: SmallVec<[usize; FEEDBACKS]>,
}

impl Parts {
    /// The non-winning parts of `set` under guess `g`, largest first (ties in feedback order),
    /// each sorted: one counting pass and one buffer for all of them (and one for the feedbacks),
    /// since this runs for every guess tried and a vector per part was costly in the allocator.
    pub(super) fn new(bounds: &Bounds, set: &[u32], g: u32) -> Parts {
        // The feedbacks first, then the counts: the table reads of a small set are scattered,
        // and with no counter update between them many can be under way at once.
        let scores: SmallVec<[u8; 256]> = set.iter().map(|&s| bounds.feedback(s, g)).collect();
        Parts::from_feedbacks(bounds, set, &scores)
    }

    /// [`Parts::new`] of the guess against which `set`'s members score `scores`, in the set's
    /// order (gathered beforehand: [`super::columns::Columns`]).
    pub(super) fn from_feedbacks(bounds: &Bounds, set: &[u32], scores: &[u8]) -> Parts {
        debug_assert_eq!(set.len(), scores.len());
        // Indexed by any byte, so neither loop below checks a feedback against the slots.
        let mut counts = [0u32; 256];
        for &f in scores {
            counts[usize::from(f)] += 1;
        }
        counts[bounds.win] = 0;
        let mut order: SmallVec<[u8; FEEDBACKS]> = (0..bounds.slots as u8)
            .filter(|&f| counts[usize::from(f)] > 0)
            .collect();
        // Stable, so equal sizes stay in feedback order, as the trees depend on it.
        order.sort_by_key(|&f| std::cmp::Reverse(counts[usize::from(f)]));
        let mut ends = SmallVec::new();
        let mut at = 0;
        for &f in &order {
            let len = counts[usize::from(f)];
            // `counts` now holds where the part's next member goes.
            counts[usize::from(f)] = at;
            at += len;
            ends.push(at as usize);
        }
        let mut members: SmallVec<[u32; 64]> = smallvec![0; at as usize];
        let win = bounds.win as u8;
        let positions = if set.len() <= usize::from(u8::MAX) + 1 {
            let mut positions: SmallVec<[u8; 64]> = smallvec![0; at as usize];
            let (to_members, to_positions) = (&mut members[..], &mut positions[..]);
            for (i, (&s, &f)) in set.iter().zip(scores).enumerate() {
                if f != win {
                    let to = &mut counts[usize::from(f)];
                    to_members[*to as usize] = s;
                    to_positions[*to as usize] = i as u8;
                    *to += 1;
                }
            }
            positions
        } else {
            let to_members = &mut members[..];
            for (&s, &f) in set.iter().zip(scores) {
                if f != win {
                    let to = &mut counts[usize::from(f)];
                    to_members[*to as usize] = s;
                    *to += 1;
                }
            }
            SmallVec::new()
        };
        Parts {
            members,
            at: positions,
            ends,
        }
    }

    /// The parts, largest first.
    pub(super) fn iter(&self) -> impl Iterator<Item = &[u32]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let part = &self.members[start..end];
            start = end;
            part
        })
    }

    /// Each part's members' positions in the set, as [`Parts::iter`] lists the parts; `None`
    /// for a set of more than 256 codes.
    pub(super) fn at(&self) -> Option<impl Iterator<Item = &[u8]>> {
        let mut start = 0;
        (self.at.len() == self.members.len()).then(|| {
            self.ends.iter().map(move |&end| {
                let part = &self.at[start..end];
                start = end;
                part
            })
        })
    }
}
