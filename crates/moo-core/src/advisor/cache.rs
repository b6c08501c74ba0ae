//! Proven moves by position, so that once an exact search has solved a position, every position
//! its optimal plan leads to is answered at once for the rest of the process (or server).

use std::collections::HashMap;
use std::sync::Mutex;

use crate::codeset::CodeSet;
use crate::pool::GuessPool;
use crate::rules::Rules;

/// A proven optimal move for one candidate set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Planned {
    /// The code index to guess.
    pub guess: u32,
    /// Guesses that solving every candidate takes from here, this one included, when known.
    pub total: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Key {
    rules: Rules,
    guesses: GuessPool,
    set: Box<[u32]>,
}

/// Proven moves keyed by rules, guess pool and candidate set, within a memory budget.
///
/// When the budget is reached the cache is emptied and starts again: simpler than an LRU, and
/// a plan is only ever reused along one game, whose positions are inserted together.
#[derive(Debug)]
pub(crate) struct PlanCache {
    inner: Mutex<Inner>,
    budget: usize,
}

#[derive(Debug, Default)]
struct Inner {
    map: HashMap<Key, Planned>,
    bytes: usize,
    /// The most candidates of any set in the map: a longer set is not looked up, since a key
    /// costs a copy of the set (13 MB for 9 digits after no guess, several ms).
    longest: usize,
}

impl PlanCache {
    pub fn new(budget: usize) -> PlanCache {
        PlanCache {
            inner: Mutex::default(),
            budget,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn get(&self, rules: &Rules, guesses: GuessPool, set: &CodeSet) -> Option<Planned> {
        if set.len() > self.lock().longest {
            return None;
        }
        let key = Key {
            rules: rules.clone(),
            guesses,
            set: set.as_slice().into(),
        };
        self.lock().map.get(&key).copied()
    }

    /// Records every position of a plan.
    pub fn insert_all(
        &self,
        rules: &Rules,
        guesses: GuessPool,
        moves: impl IntoIterator<Item = (CodeSet, Planned)>,
    ) {
        let entries: Vec<(Key, Planned)> = moves
            .into_iter()
            .map(|(set, planned)| {
                let key = Key {
                    rules: rules.clone(),
                    guesses,
                    set: set.as_slice().into(),
                };
                (key, planned)
            })
            .collect();
        let cost: usize = entries.iter().map(|(k, _)| entry_bytes(k)).sum();
        if cost > self.budget {
            return;
        }
        let mut inner = self.lock();
        if inner.bytes + cost > self.budget {
            inner.map.clear();
            inner.bytes = 0;
            inner.longest = 0;
        }
        for (key, planned) in entries {
            let bytes = entry_bytes(&key);
            inner.longest = inner.longest.max(key.set.len());
            if inner.map.insert(key, planned).is_none() {
                inner.bytes += bytes;
            }
        }
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }
}

/// Roughly what an entry holds: the set, the key and value, and the map's overhead.
fn entry_bytes(key: &Key) -> usize {
    key.set.len() * 4 + 128
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_cache_starts_again_rather_than_growing() {
        let cache = PlanCache::new(1000);
        let rules = Rules::bulls();
        let plan = |first: u32| {
            (first..first + 3).map(|i| {
                (
                    CodeSet::from_sorted(vec![i, i + 100]),
                    Planned {
                        guess: i,
                        total: Some(3),
                    },
                )
            })
        };
        cache.insert_all(&rules, GuessPool::All, plan(0));
        assert_eq!(cache.len(), 3);
        let set = CodeSet::from_sorted(vec![1, 101]);
        assert_eq!(
            cache.get(&rules, GuessPool::All, &set),
            Some(Planned {
                guess: 1,
                total: Some(3)
            })
        );
        assert_eq!(cache.get(&rules, GuessPool::Consistent, &set), None);
        // A set longer than any cached one is not looked up, and not found.
        let long = CodeSet::from_sorted(vec![1, 101, 201]);
        assert_eq!(cache.get(&rules, GuessPool::All, &long), None);
        // Three entries of about 136 bytes each: the next plan does not fit beside them.
        for k in 1..10 {
            cache.insert_all(&rules, GuessPool::All, plan(k * 10));
        }
        assert!(cache.len() <= 1000 / 136);
        assert!(cache.len() >= 3);
    }
}
