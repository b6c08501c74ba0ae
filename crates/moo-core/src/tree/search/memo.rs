//! The cache of the exact search: what is proven about each candidate set met, by set and
//! depth limit.
//!
//! A set's cost does not depend on how the search reached it, so an exact result or a failed
//! search's lower bound found once serves every later path to the same set. Sets are keyed by
//! their members, compared in full on a hash match, so a collision never gives a wrong answer.

use std::sync::atomic::{AtomicU64, Ordering};
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
/// The cache stops growing at [`MEMO_BUDGET`] bytes: a search that outgrows it goes on without
/// remembering new sets (slower, still exact) instead of outgrowing the machine.
pub(super) struct Memo {
    shards: Vec<Mutex<Shard>>,
    filter: Vec<AtomicU64>,
    /// Bytes held by the slots and arenas, roughly (tables grow by doubling, which this ignores).
    bytes: AtomicU64,
    /// The most bytes the cache may take.
    budget: u64,
}

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
            budget,
        }
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
        let cost = (set.len() * 2 + std::mem::size_of::<Slot>() + 8) as u64;
        if self.bytes.fetch_add(cost, Ordering::Relaxed) + cost > self.budget {
            self.bytes.fetch_sub(cost, Ordering::Relaxed);
            return false;
        }
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

/// FxHash-style mixing of one more value into a hash: fast, and every user resolves collisions
/// by comparing the keys themselves.
#[inline]
pub(super) fn hash_combine(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x517C_C1B7_2722_0A95)
}
