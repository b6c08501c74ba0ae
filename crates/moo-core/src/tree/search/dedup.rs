//! Guesses that split a set the same way are the same move: only the first is searched.

use hashbrown::HashTable;

use super::memo::hash_combine;

/// Recognises guesses that split a set exactly as an earlier one did (same parts, same winning
/// part): they have the same cost, so only the first is searched. Used lazily, as guesses are
/// reached, because most candidates of a node are cut by the bound before their turn comes.
pub(super) struct SplitDedup<'s> {
    set: &'s [u32],
    win: usize,
    /// The key hash and arena offset of every split seen.
    seen: HashTable<(u64, u32)>,
    /// Every split seen, as part labels per member, one after another.
    labels: Vec<u8>,
    remap: Vec<u8>,
}

impl<'s> SplitDedup<'s> {
    /// A deduplicator for the guesses at `set`, in a game of `slots` feedbacks whose winning
    /// one is `win`.
    pub(super) fn new(set: &'s [u32], slots: usize, win: usize) -> SplitDedup<'s> {
        SplitDedup {
            set,
            win,
            seen: HashTable::new(),
            labels: Vec::new(),
            remap: vec![u8::MAX; slots],
        }
    }

    /// Whether the split by a guess whose feedback against member `s` is `feedback(s)` is new;
    /// remembers it.
    pub(super) fn is_new_split(&mut self, feedback: impl Fn(u32) -> u8) -> bool {
        // Parts are labelled in order of first appearance, so equal splits get equal labels.
        let n = self.set.len();
        let start = self.labels.len();
        self.remap.fill(u8::MAX);
        self.remap[self.win] = 0;
        let mut next = 1u8;
        let mut h = 0u64;
        for &s in self.set {
            let f = usize::from(feedback(s));
            if self.remap[f] == u8::MAX {
                self.remap[f] = next;
                next += 1;
            }
            self.labels.push(self.remap[f]);
            h = hash_combine(h, u64::from(self.remap[f]));
        }
        let (seen, new) = self.labels.split_at(start);
        let same =
            |&(hash, at): &(u64, u32)| hash == h && seen[at as usize..at as usize + n] == *new;
        if self.seen.find(h, same).is_some() {
            self.labels.truncate(start);
            return false;
        }
        self.seen
            .insert_unique(h, (h, start as u32), |&(hash, _)| hash);
        true
    }
}
