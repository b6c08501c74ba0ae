//! Which classes of sets the search has met, by a cheap invariant, so that a set is named for the
//! cache of classes only when its class may be met a second time.
//!
//! Naming a set costs about a tenth of Mastermind 5x6's search, and most classes are met once:
//! their names are never asked for again. A name is only needed to find a second set of the
//! class, so the first set of each invariant ([`super::classes::Classes::invariant`]) is kept
//! here as it is, unnamed, and its result stays in the cache by set. The second set with that
//! invariant names both: the first's result, taken from the cache by set, is filed under the
//! first's name, and from then on every set with that invariant is named as before. So the
//! answers are the ones naming every set gave, up to a first set the cache by set has forgotten
//! meanwhile, for the cost of naming the sets whose invariant recurs.

use std::sync::Mutex;

use hashbrown::HashTable;

/// What [`Sightings::sight`] found of a set's invariant.
pub(super) enum Sighting {
    /// Not met before: the set is kept as the first of its invariant, and need not be named.
    First,
    /// This very set was the first of its invariant: the cache by set knows what the class does.
    Again,
    /// Another set was the first of its invariant, given back once (it has no name yet).
    Second(Vec<u32>),
    /// Met twice or more: name the set.
    Named,
}

/// One invariant met: where its first set's members sit, or `len == 0` once named.
#[derive(Clone, Copy)]
struct Seen {
    invariant: u64,
    start: u32,
    len: u32,
}

/// The invariants met, in two generations: when the newer fills its half of the budget, the
/// older is forgotten and the newer takes its place, so what was met recently stays.
#[derive(Default)]
struct Generation {
    seen: HashTable<Seen>,
    members: Vec<u16>,
}

impl Generation {
    /// What the generation holds, roughly: a table slot and its control byte per invariant,
    /// and the first sets' members.
    fn bytes(&self) -> usize {
        self.seen.len() * (std::mem::size_of::<Seen>() + 1) + self.members.len() * 2
    }
}

#[derive(Default)]
struct Shard {
    new: Generation,
    old: Generation,
}

/// The invariants of the sets named or about to be, in shards with a lock each.
pub(super) struct Sightings {
    shards: Vec<Mutex<Shard>>,
    /// The bytes each shard's newer generation may take.
    generation_bytes: usize,
}

impl Sightings {
    /// An empty record taking at most about `budget` bytes.
    pub(super) fn new(budget: u64) -> Sightings {
        const SHARDS: usize = 64;
        Sightings {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            generation_bytes: usize::try_from(budget / (2 * SHARDS as u64)).unwrap_or(usize::MAX),
        }
    }

    /// Records that `set`, whose invariant is `invariant`, is met, and says whether to name it.
    /// Code indexes must fit 16 bits (as in the cache by set).
    pub(super) fn sight(&self, invariant: u64, set: &[u32]) -> Sighting {
        let mut guard = self.shards[(invariant >> 58) as usize]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let shard = &mut *guard;
        for generation in [&mut shard.new, &mut shard.old] {
            let members = &generation.members;
            let Some(seen) = generation
                .seen
                .find_mut(invariant, |s| s.invariant == invariant)
            else {
                continue;
            };
            if seen.len == 0 {
                return Sighting::Named;
            }
            let first = &members[seen.start as usize..(seen.start + seen.len) as usize];
            if first.len() == set.len() && first.iter().zip(set).all(|(&a, &b)| u32::from(a) == b) {
                return Sighting::Again;
            }
            let first = first.iter().map(|&a| u32::from(a)).collect();
            seen.len = 0;
            return Sighting::Second(first);
        }
        if shard.new.bytes() + 2 * set.len() + 32 > self.generation_bytes {
            shard.old = std::mem::take(&mut shard.new);
        }
        let new = &mut shard.new;
        let start = new.members.len() as u32;
        new.members.extend(
            set.iter()
                .map(|&x| u16::try_from(x).expect("codes fit 16 bits")),
        );
        new.seen.insert_unique(
            invariant,
            Seen {
                invariant,
                start,
                len: set.len() as u32,
            },
            |s| s.invariant,
        );
        Sighting::First
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_set_of_an_invariant_is_given_back_once() {
        let s = Sightings::new(1 << 20);
        assert!(matches!(s.sight(7, &[1, 2, 3]), Sighting::First));
        assert!(matches!(s.sight(7, &[1, 2, 3]), Sighting::Again));
        match s.sight(7, &[4, 5, 6]) {
            Sighting::Second(first) => assert_eq!(first, [1, 2, 3]),
            _ => panic!("the first set is given back"),
        }
        assert!(matches!(s.sight(7, &[1, 2, 3]), Sighting::Named));
        assert!(matches!(s.sight(8, &[4, 5, 6]), Sighting::First));
    }

    #[test]
    fn a_full_record_forgets_its_older_generation() {
        // Room for three sets of 20 per generation (each shard takes 200 bytes a generation),
        // all in one shard: the sets met first are forgotten, the last kept.
        let s = Sightings::new(64 * 2 * 200);
        let set: Vec<u32> = (0..20).collect();
        for k in 0..40u64 {
            assert!(matches!(s.sight(k, &set), Sighting::First));
        }
        assert!(matches!(s.sight(39, &set), Sighting::Again));
        assert!(matches!(s.sight(36, &set), Sighting::Again));
        assert!(matches!(s.sight(0, &set), Sighting::First));
    }
}
