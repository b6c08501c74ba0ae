//! The cache of the exact search: what is proven about each candidate set met, by set and
//! depth limit.
//!
//! A set's cost does not depend on how the search reached it, so an exact result or a failed
//! search's lower bound found once serves every later path to the same set. Sets are keyed by
//! their members, compared in full on a hash match, so a collision never gives a wrong answer.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use hashbrown::HashTable;

use super::Solved;

/// What is known of one set.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    /// A proven lower bound on the set's total (equal to the total when `exact`).
    pub(super) bound: u32,
    /// The optimal tree, when the set was solved.
    pub(super) exact: Option<Solved>,
}

/// One cached set: its key hash, depth limit, where its members sit in the shard's arena, and
/// what is known.
struct Slot {
    hash: u64,
    depth: u8,
    start: u32,
    len: u32,
    entry: Entry,
}

/// A part of the cache: slots in an open-addressing table that keeps the hash beside each slot
/// (most probes end there, without touching the set), and every set's members packed one after
/// another in an arena, as `u16` (spaces with a score table have at most [`TABLE_LIMIT_CODES`](crate::space::TABLE_LIMIT_CODES) codes).
#[derive(Default)]
struct Shard {
    slots: HashTable<Slot>,
    arena: Vec<u16>,
}

impl Slot {
    /// Whether this slot is for `set` under `depth`; `hash` is their key.
    fn is(&self, hash: u64, set: &[u32], depth: u8, arena: &[u16]) -> bool {
        let start = self.start as usize;
        self.hash == hash
            && self.depth == depth
            && self.len as usize == set.len()
            && arena[start..start + set.len()]
                .iter()
                .zip(set)
                .all(|(&a, &b)| u32::from(a) == b)
    }
}

/// Exact results and proven bounds by candidate set (and depth limit), in shards with a lock
/// each so threads rarely wait for one another.
///
/// Most lookups miss (small sets are met again rarely, but when they are, their cached exact
/// cost saves a search), and a miss in a table of millions of slots costs two trips to memory.
/// A one-bit-per-hash filter small enough to stay in cache answers most misses first, without
/// the lock. A bit set by another thread an instant too late only costs a recomputation.
///
/// The cache holds at most [`MEMO_BUDGET`] bytes. When it is full it makes room by forgetting
/// its smallest sets, and from then on admits only sets at least that large: a small set is
/// quick to search again, while the large ones hold hours of work. A search that outgrows the
/// budget so goes on remembering what matters most (slower, still exact) instead of outgrowing
/// the machine, or of forgetting everything new.
pub(super) struct Memo {
    shards: Vec<Mutex<Shard>>,
    filter: Vec<AtomicU64>,
    /// Bytes held by the slots and arenas, roughly (tables grow by doubling, which this ignores).
    bytes: AtomicU64,
    /// The bytes held by sets of each size (the last counts every larger size too).
    by_size: Vec<AtomicU64>,
    /// Sets smaller than this are no longer admitted.
    min_size: AtomicUsize,
    /// Set while one thread makes room, so the others do not start to as well.
    making_room: AtomicBool,
    /// The most bytes the cache may take.
    budget: u64,
}

/// Sizes are counted separately up to this one, above which a set is never forgotten to make
/// room (no game searched so far comes close to needing it).
const SIZES: usize = 64;

/// The most memory the cache takes. Bulls and Cows 4x10 needs about 0.2 GB; without a cap, a
/// search of 5 symbols of 0-7 passed 4 GB after 15 minutes.
pub(super) const MEMO_BUDGET: u64 = 3 << 30;

impl Memo {
    /// An empty cache for a space of `codes` codes, growing to at most `budget` bytes.
    pub(super) fn new(codes: usize, budget: u64) -> Memo {
        // About 256 bits per code: 10 MB for Bulls and Cows, where the cache ends up with a few
        // million sets.
        let words = (codes * 4).next_power_of_two();
        Memo {
            shards: (0..64).map(|_| Mutex::default()).collect(),
            filter: (0..words).map(|_| AtomicU64::new(0)).collect(),
            bytes: AtomicU64::new(0),
            by_size: (0..SIZES).map(|_| AtomicU64::new(0)).collect(),
            min_size: AtomicUsize::new(0),
            making_room: AtomicBool::new(false),
            budget,
        }
    }

    /// The size class a set of `len` codes is counted in.
    fn size_class(len: usize) -> usize {
        len.min(SIZES - 1)
    }

    /// Frees a quarter of the budget or more by forgetting every set below some size, and
    /// admits no smaller set from then on. Does nothing if another thread is already at it, or
    /// if that would mean forgetting the largest sizes.
    #[cold]
    #[inline(never)]
    fn make_room(&self) {
        if self
            .making_room
            .compare_exchange(false, true, Ordering::Acquire, Ordering::Relaxed)
            .is_err()
        {
            return;
        }
        let held: Vec<u64> = self
            .by_size
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect();
        let mut freed = 0;
        let mut size = self.min_size.load(Ordering::Relaxed);
        while size < SIZES - 1 && freed < self.budget / 4 {
            freed += held[size];
            size += 1;
        }
        if freed >= self.budget / 4 && freed > 0 {
            self.min_size.store(size, Ordering::Relaxed);
            for shard in &self.shards {
                let mut shard = shard.lock().unwrap_or_else(|e| e.into_inner());
                shard.forget_below(size);
            }
            for b in &self.by_size[..size] {
                let gone = b.swap(0, Ordering::Relaxed);
                self.bytes.fetch_sub(gone, Ordering::Relaxed);
            }
        }
        self.making_room.store(false, Ordering::Release);
    }

    /// The filter word and bit of a key (the shard index uses the top bits, this the low ones).
    fn filter_bit(&self, key: u64) -> (&AtomicU64, u64) {
        let word = (key >> 6) as usize & (self.filter.len() - 1);
        (&self.filter[word], 1 << (key & 63))
    }

    fn key(set: &[u32], depth: u8) -> u64 {
        let mut h = u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for &x in set {
            h = hash_combine(h, u64::from(x));
        }
        h
    }

    fn shard(&self, key: u64) -> std::sync::MutexGuard<'_, Shard> {
        self.shards[(key >> 58) as usize]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// What is known of `set` under exactly this depth limit.
    pub(super) fn get(&self, set: &[u32], depth: u8) -> Option<Entry> {
        let key = Memo::key(set, depth);
        let (word, bit) = self.filter_bit(key);
        if word.load(Ordering::Relaxed) & bit == 0 {
            return None;
        }
        let shard = self.shard(key);
        shard
            .slots
            .find(key, |s| s.is(key, set, depth, &shard.arena))
            .map(|s| s.entry)
    }

    /// Records a result; exact results are never replaced, bounds only raised. Returns whether
    /// a new slot was made.
    pub(super) fn put(&self, set: &[u32], depth: u8, entry: Entry) -> bool {
        let key = Memo::key(set, depth);
        let mut guard = self.shard(key);
        let shard = &mut *guard;
        let arena = &shard.arena;
        let found = shard.slots.find_mut(key, |s| s.is(key, set, depth, arena));
        if let Some(slot) = found {
            if slot.entry.exact.is_none() {
                if entry.exact.is_some() {
                    slot.entry = entry;
                } else {
                    slot.entry.bound = slot.entry.bound.max(entry.bound);
                }
            }
            return false;
        }
        if set.len() < self.min_size.load(Ordering::Relaxed) {
            return false;
        }
        let cost = Memo::cost(set.len());
        if self.bytes.fetch_add(cost, Ordering::Relaxed) + cost > self.budget {
            self.bytes.fetch_sub(cost, Ordering::Relaxed);
            drop(guard);
            self.make_room();
            return false;
        }
        self.by_size[Memo::size_class(set.len())].fetch_add(cost, Ordering::Relaxed);
        let start = shard.arena.len() as u32;
        shard.arena.extend(
            set.iter()
                .map(|&x| u16::try_from(x).expect("codes fit 16 bits")),
        );
        let (word, bit) = self.filter_bit(key);
        word.fetch_or(bit, Ordering::Relaxed);
        shard.slots.insert_unique(
            key,
            Slot {
                hash: key,
                depth,
                start,
                len: set.len() as u32,
                entry,
            },
            |s| s.hash,
        );
        true
    }
}

impl Memo {
    /// What the cache counts a set of `len` codes as taking.
    fn cost(len: usize) -> u64 {
        (len * 2 + std::mem::size_of::<Slot>() + 8) as u64
    }
}

impl Shard {
    /// Forgets every set of fewer than `size` codes, and the arena space they took.
    fn forget_below(&mut self, size: usize) {
        let mut slots = HashTable::with_capacity(self.slots.len());
        let mut arena = Vec::new();
        for slot in self.slots.drain().filter(|s| s.len as usize >= size) {
            let start = slot.start as usize;
            let moved = Slot {
                start: arena.len() as u32,
                ..slot
            };
            arena.extend_from_slice(&self.arena[start..start + slot.len as usize]);
            slots.insert_unique(moved.hash, moved, |s: &Slot| s.hash);
        }
        slots.shrink_to_fit(|s| s.hash);
        arena.shrink_to_fit();
        self.slots = slots;
        self.arena = arena;
    }
}

/// FxHash-style mixing of one more value into a hash: fast, and every user resolves collisions
/// by comparing the keys themselves.
#[inline]
pub(super) fn hash_combine(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x517C_C1B7_2722_0A95)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(bound: u32) -> Entry {
        Entry { bound, exact: None }
    }

    #[test]
    fn a_full_cache_forgets_its_smallest_sets_first() {
        // 100 sets of each size from 3 to 39, smallest first, into room for half of them.
        let sets: Vec<Vec<u32>> = (3..40u32)
            .flat_map(|n| (0..100u32).map(move |k| (k..k + n).collect()))
            .collect();
        let total: u64 = sets.iter().map(|s| Memo::cost(s.len())).sum();
        let memo = Memo::new(1000, total / 2);
        let admitted: Vec<bool> = sets.iter().map(|s| memo.put(s, 5, bound(7))).collect();
        assert!(memo.bytes.load(Ordering::Relaxed) <= total / 2);
        let min = memo.min_size.load(Ordering::Relaxed);
        assert!(min > 3 && min < 39, "{min}");
        let kept = |s: &Vec<u32>| memo.get(s, 5).map(|e| e.bound) == Some(7);
        for (s, &admitted) in sets.iter().zip(&admitted) {
            // Only the puts that found the cache full were refused, and all smaller sets are
            // forgotten: the rest is all there.
            assert_eq!(kept(s), s.len() >= min && admitted, "a set of {}", s.len());
        }
        let refused = admitted.iter().filter(|&&a| !a).count();
        assert!(refused > 0 && refused < sets.len() / 2, "{refused}");
        assert!(
            !memo.put(&sets[0], 5, bound(9)),
            "too small to be admitted again"
        );
        // A set already held still learns a higher bound.
        let last = sets.last().unwrap();
        memo.put(last, 5, bound(9));
        assert_eq!(memo.get(last, 5).unwrap().bound, 9);
    }
}
