//! The cache of the exact search: what is proven about each candidate set met, by set and
//! depth limit.
//!
//! A set's cost does not depend on how the search reached it, so an exact result or a failed
//! search's lower bound found once serves every later path to the same set. Sets are keyed by
//! their members, compared in full on a hash match, so a collision never gives a wrong answer.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use hashbrown::HashTable;

use super::solved::{Solved, NO_GUESS};

/// What is known of one set.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry {
    /// A proven lower bound on the set's total (equal to the total when `exact`).
    pub(super) bound: u32,
    /// The optimal tree, when the set was solved.
    pub(super) exact: Option<Solved>,
}

/// One cached set: its key hash, depth limit, where its members sit in the shard's arena, and
/// what is known. 20 bytes: the cache holds millions, so every field is as narrow as its values.
struct Slot {
    /// The key, folded to 32 bits ([`fold`]).
    hash: u32,
    start: u32,
    len: u32,
    /// A proven lower bound on the set's total, or its optimal total when `worst > 0`.
    value: u32,
    /// The optimal tree's first guess, when solved (spaces with a score table have at most
    /// 65536 codes).
    guess: u16,
    depth: u8,
    /// The optimal tree's worst case, when solved; 0 when only a bound is known. [`BORROWED`]
    /// is set on a result borrowed from an equivalent set, whose first guess is not known.
    worst: u8,
}

/// The flag in [`Slot::worst`] of a borrowed result ([`NO_GUESS`]); worst cases are far below it.
const BORROWED: u8 = 0x80;

const _: () = assert!(std::mem::size_of::<Slot>() == 20);

/// A part of the cache: slots in an open-addressing table that keeps the hash beside each slot
/// (most probes end there, without touching the set), and every set's members packed one after
/// another in an [`Arena`], as `u16` (spaces with a score table have at most [`TABLE_LIMIT_CODES`](crate::space::TABLE_LIMIT_CODES) codes).
#[derive(Default)]
struct Shard {
    slots: HashTable<Slot>,
    arena: Arena,
    /// The heap bytes counted for this shard in [`Memo::bytes`].
    counted: u64,
}

/// How many members an [`Arena`] block holds, as a power of two: 1 MiB, which `moo` has the
/// allocator map straight from the system and give back when freed, and more than a set can
/// have (a space with a score table has at most 65536 codes), so every set fits one block.
const BLOCK_BITS: u32 = 19;
const BLOCK: usize = 1 << BLOCK_BITS;

/// The members of a shard's sets, one after another in blocks of [`BLOCK`] that never move. One
/// vector growing by doubling counted up to twice what it held against the budget, so a full
/// cache forgot sets it had room for. Only the first block grows, so a small search takes
/// little. A set starts at `block << BLOCK_BITS | offset` and never spans two blocks.
#[derive(Default)]
struct Arena {
    blocks: Vec<Vec<u16>>,
}

impl Arena {
    /// The `len` members stored at `start`.
    #[inline]
    fn get(&self, start: u32, len: usize) -> &[u16] {
        let offset = start as usize & (BLOCK - 1);
        &self.blocks[(start >> BLOCK_BITS) as usize][offset..offset + len]
    }

    /// Stores `set` and returns where it starts.
    fn push(&mut self, set: impl ExactSizeIterator<Item = u16>) -> u32 {
        let len = set.len();
        debug_assert!(len <= BLOCK);
        if self.blocks.last().is_none_or(|b| b.len() + len > BLOCK) {
            // Later blocks take their full size at once; the first grows with its use.
            let capacity = if self.blocks.is_empty() { 0 } else { BLOCK };
            self.blocks.push(Vec::with_capacity(capacity));
        }
        let index = self.blocks.len() - 1;
        let block = &mut self.blocks[index];
        let offset = block.len();
        block.extend(set);
        u32::try_from(index << BLOCK_BITS | offset).expect("a shard holds under 8 GB of sets")
    }

    /// The heap bytes the blocks take.
    fn bytes(&self) -> usize {
        self.blocks.iter().map(|b| b.capacity() * 2).sum()
    }
}

impl Slot {
    /// Whether this slot is for `set` under `depth`; `hash` is their folded key.
    fn is(&self, hash: u32, set: &[u32], depth: u8, arena: &Arena) -> bool {
        self.hash == hash
            && self.depth == depth
            && self.len as usize == set.len()
            && arena
                .get(self.start, set.len())
                .iter()
                .zip(set)
                .all(|(&a, &b)| u32::from(a) == b)
    }

    fn entry(&self) -> Entry {
        Entry {
            bound: self.value,
            exact: (self.worst > 0).then_some(Solved {
                total: self.value,
                worst: self.worst & !BORROWED,
                guess: if self.worst & BORROWED == 0 {
                    u32::from(self.guess)
                } else {
                    NO_GUESS
                },
            }),
        }
    }

    fn set_entry(&mut self, entry: Entry) {
        match entry.exact {
            Some(sol) if sol.guess == NO_GUESS => {
                self.value = sol.total;
                self.worst = sol.worst.max(1) | BORROWED;
                self.guess = 0;
            }
            Some(sol) => {
                self.value = sol.total;
                self.worst = sol.worst.max(1);
                self.guess = u16::try_from(sol.guess).expect("codes fit 16 bits");
            }
            None => {
                self.value = entry.bound;
                self.worst = 0;
                self.guess = 0;
            }
        }
    }
}

/// The hash a shard's table files a folded key under, spread back over 64 bits (the table takes
/// its control bits from the top).
#[inline]
fn spread(hash: u32) -> u64 {
    u64::from(hash).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// A key's 32 bits kept in its slot: neither the top ones, which pick the shard, nor the lowest,
/// which pick the filter bit.
#[inline]
fn fold(key: u64) -> u32 {
    (key >> 26) as u32
}

/// Exact results and proven bounds by candidate set (and depth limit), in shards with a lock
/// each so threads rarely wait for one another.
///
/// Most lookups miss (small sets are met again rarely, but when they are, their cached exact
/// cost saves a search), and a miss in a table of millions of slots costs two trips to memory.
/// A one-bit-per-hash filter small enough to stay in cache answers most misses first, without
/// the lock. A bit set by another thread an instant too late only costs a recomputation.
///
/// The cache holds at most the bytes it is given ([`super::DEFAULT_CACHE_BYTES`] by default;
/// without a cap, a long search outgrows the machine). When it is full it makes room by
/// forgetting its smallest sets, a quarter of the budget or more: a small set is quick to
/// search again, while the large ones hold hours of work. New sets of every size are
/// still admitted, and forgotten first the next time: a search meets the small sets of the
/// position it is in again and again, and those it met long ago seldom. A search that outgrows
/// the budget so goes on remembering what matters most (slower, still exact) instead of
/// outgrowing the machine. Admitting only sets as large as the last ones forgotten searched far
/// more sets: those refused were the small sets of the position being searched.
pub(super) struct Memo {
    shards: Vec<Mutex<Shard>>,
    filter: Vec<AtomicU64>,
    /// Heap bytes held by the shards' tables and arenas, as allocated (growth by doubling
    /// included). The allocator's own overhead (blocks freed by that growth and by
    /// [`Shard::forget_below`] but kept) is not counted.
    bytes: AtomicU64,
    /// The bytes held by sets of each size (the last counts every larger size too).
    by_size: Vec<AtomicU64>,
    /// Set while one thread makes room, so the others do not start to as well.
    making_room: AtomicBool,
    /// The most bytes the cache may take.
    budget: u64,
}

/// The cache's shards, as a power of two: few enough that each shard's table is many huge pages
/// (the binary puts blocks of 2 MiB and more on them), enough that two threads seldom wait.
const SHARD_BITS: u32 = 3;

/// Sizes are counted separately up to this one, above which a set is never forgotten to make
/// room (no game searched so far comes close to needing it).
const SIZES: usize = 64;

impl Memo {
    /// An empty cache for a space of `codes` codes, growing to at most `budget` bytes.
    pub(super) fn new(codes: usize, budget: u64) -> Memo {
        // About 256 bits per code: 10 MB for Bulls and Cows, where the cache ends up with a few
        // million sets.
        let words = (codes * 4).next_power_of_two();
        Memo {
            shards: (0..1 << SHARD_BITS).map(|_| Mutex::default()).collect(),
            filter: (0..words).map(|_| AtomicU64::new(0)).collect(),
            bytes: AtomicU64::new(0),
            by_size: (0..SIZES).map(|_| AtomicU64::new(0)).collect(),
            making_room: AtomicBool::new(false),
            budget,
        }
    }

    /// The size class a set of `len` codes is counted in.
    fn size_class(len: usize) -> usize {
        len.min(SIZES - 1)
    }

    /// Frees a quarter of the budget or more by forgetting every set below some size. Does
    /// nothing if another thread is already at it, or if that would mean forgetting the largest
    /// sizes.
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
        let mut size = 0;
        while size < SIZES - 1 && freed < self.budget / 4 {
            freed += held[size];
            size += 1;
        }
        if freed >= self.budget / 4 && freed > 0 {
            for shard in &self.shards {
                let mut shard = shard.lock().unwrap_or_else(|e| e.into_inner());
                shard.forget_below(size);
                shard.recount(&self.bytes);
            }
            for b in &self.by_size[..size] {
                b.store(0, Ordering::Relaxed);
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
        self.shards[(key >> (64 - SHARD_BITS)) as usize]
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
        let hash = fold(key);
        shard
            .slots
            .find(spread(hash), |s| s.is(hash, set, depth, &shard.arena))
            .map(Slot::entry)
    }

    /// Records a result; exact results are replaced only to learn a borrowed result's own first
    /// guess, bounds only raised. Returns whether a new slot was made.
    pub(super) fn put(&self, set: &[u32], depth: u8, entry: Entry) -> bool {
        let key = Memo::key(set, depth);
        let hash = fold(key);
        let mut guard = self.shard(key);
        let shard = &mut *guard;
        let arena = &shard.arena;
        let found = shard
            .slots
            .find_mut(spread(hash), |s| s.is(hash, set, depth, arena));
        if let Some(slot) = found {
            let own = entry.exact.is_some_and(|s| s.guess != NO_GUESS);
            if slot.worst == 0 {
                if entry.exact.is_some() {
                    slot.set_entry(entry);
                } else {
                    slot.value = slot.value.max(entry.bound);
                }
            } else if slot.worst & BORROWED != 0 && own {
                slot.set_entry(entry);
            }
            return false;
        }
        let cost = Memo::cost(set.len());
        if self.bytes.load(Ordering::Relaxed) + cost > self.budget {
            drop(guard);
            self.make_room();
            return false;
        }
        self.by_size[Memo::size_class(set.len())].fetch_add(cost, Ordering::Relaxed);
        let start = shard.arena.push(
            set.iter()
                .map(|&x| u16::try_from(x).expect("codes fit 16 bits")),
        );
        let (word, bit) = self.filter_bit(key);
        word.fetch_or(bit, Ordering::Relaxed);
        let mut slot = Slot {
            hash,
            start,
            len: set.len() as u32,
            value: 0,
            guess: 0,
            depth,
            worst: 0,
        };
        slot.set_entry(entry);
        shard
            .slots
            .insert_unique(spread(hash), slot, |s| spread(s.hash));
        shard.recount(&self.bytes);
        true
    }
}

impl Memo {
    /// What a set of `len` codes takes once stored (its slot, control byte and members): what
    /// must fit before it is admitted, and what forgetting its size frees, roughly (the table and
    /// arena grow by doubling, which [`Shard::recount`] counts when it happens).
    fn cost(len: usize) -> u64 {
        (len * 2 + std::mem::size_of::<Slot>() + 1) as u64
    }
}

impl Shard {
    /// Brings this shard's part of `bytes` up to date with what its table and arena hold.
    fn recount(&mut self, bytes: &AtomicU64) {
        // A table slot also takes one control byte.
        let now =
            (self.slots.capacity() * (std::mem::size_of::<Slot>() + 1) + self.arena.bytes()) as u64;
        // Most puts grow neither: no need to touch the counter every thread shares.
        if now == self.counted {
            return;
        }
        if now > self.counted {
            bytes.fetch_add(now - self.counted, Ordering::Relaxed);
        } else {
            bytes.fetch_sub(self.counted - now, Ordering::Relaxed);
        }
        self.counted = now;
    }

    /// Forgets every set of fewer than `size` codes, and the arena space they took.
    fn forget_below(&mut self, size: usize) {
        let mut slots = HashTable::with_capacity(self.slots.len());
        let mut arena = Arena::default();
        for slot in self.slots.drain().filter(|s| s.len as usize >= size) {
            let members = self.arena.get(slot.start, slot.len as usize);
            let moved = Slot {
                start: arena.push(members.iter().copied()),
                ..slot
            };
            slots.insert_unique(spread(moved.hash), moved, |s: &Slot| spread(s.hash));
        }
        slots.shrink_to_fit(|s| spread(s.hash));
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
        let kept = |s: &Vec<u32>| memo.get(s, 5).map(|e| e.bound) == Some(7);
        // Everything held is a suffix of the sizes: the smallest went first.
        let smallest = sets.iter().filter(|s| kept(s)).map(Vec::len).min().unwrap();
        assert!(smallest > 3 && smallest < 39, "{smallest}");
        for (s, &admitted) in sets.iter().zip(&admitted) {
            // Only the puts that found the cache full were refused.
            if s.len() > smallest {
                assert_eq!(kept(s), admitted, "a set of {}", s.len());
            }
        }
        let refused = admitted.iter().filter(|&&a| !a).count();
        assert!(refused > 0 && refused < sets.len() / 2, "{refused}");
        // A small set forgotten is admitted again, and held.
        assert!(!kept(&sets[0]));
        assert!(memo.put(&sets[0], 5, bound(9)));
        assert_eq!(memo.get(&sets[0], 5).unwrap().bound, 9);
        // A set already held still learns a higher bound.
        let last = sets.last().unwrap();
        memo.put(last, 5, bound(9));
        assert_eq!(memo.get(last, 5).unwrap().bound, 9);
    }

    #[test]
    fn small_sets_streaming_through_a_full_cache_leave_the_large_ones() {
        // 200 sets of 60 codes take a third of the room; then ten times the room in small sets.
        let large: Vec<Vec<u32>> = (0..200u32).map(|k| (k..k + 60).collect()).collect();
        let budget = 3 * large.iter().map(|s| Memo::cost(s.len())).sum::<u64>();
        let memo = Memo::new(1000, budget);
        assert!(large.iter().all(|s| memo.put(s, 5, bound(7))));
        let mut streamed = 0;
        let mut k = 0u32;
        while streamed < 10 * budget {
            let small: Vec<u32> = (k % 900..k % 900 + 3 + k % 5).collect();
            memo.put(&small, (k / 900) as u8, bound(3));
            streamed += Memo::cost(small.len());
            k += 1;
        }
        assert!(memo.bytes.load(Ordering::Relaxed) <= budget);
        assert!(large.iter().all(|s| memo.get(s, 5).is_some()));
        // The latest small sets are held.
        let last: Vec<u32> = ((k - 1) % 900..(k - 1) % 900 + 3 + (k - 1) % 5).collect();
        assert!(memo.get(&last, ((k - 1) / 900) as u8).is_some());
    }
}
