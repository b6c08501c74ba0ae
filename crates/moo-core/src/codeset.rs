//! Sets of codes, as sorted indexes into a [`CodeSpace`](crate::CodeSpace).
//!
//! Candidate sets shrink fast (5040 codes become a few hundred after one guess), and strategies
//! walk them far more often than they test membership, so a sorted vector of `u32` indexes beats a
//! bitset: iteration touches only members, and set operations are linear merges.

use std::fmt;

/// A set of code indexes into one code space, kept sorted and free of duplicates.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct CodeSet {
    members: Vec<u32>,
}

impl CodeSet {
    /// The empty set.
    pub fn new() -> CodeSet {
        CodeSet::default()
    }

    /// Every index below `n`.
    pub fn full(n: usize) -> CodeSet {
        CodeSet {
            members: (0..n as u32).collect(),
        }
    }

    /// Builds a set from indexes that are already sorted and distinct.
    ///
    /// # Panics
    /// In debug builds, if the indexes are not strictly increasing.
    pub fn from_sorted(members: Vec<u32>) -> CodeSet {
        debug_assert!(members.windows(2).all(|w| w[0] < w[1]));
        CodeSet { members }
    }

    /// The number of codes in the set.
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// Whether `index` is in the set.
    pub fn contains(&self, index: usize) -> bool {
        u32::try_from(index).is_ok_and(|i| self.members.binary_search(&i).is_ok())
    }

    /// The indexes in increasing order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = usize> + Clone + '_ {
        self.members.iter().map(|&i| i as usize)
    }

    /// The indexes as a slice, for hot loops.
    pub fn as_slice(&self) -> &[u32] {
        &self.members
    }

    /// The smallest index, if any.
    pub fn first(&self) -> Option<usize> {
        self.members.first().map(|&i| i as usize)
    }

    /// The members for which `keep` is true.
    pub fn filter(&self, mut keep: impl FnMut(usize) -> bool) -> CodeSet {
        CodeSet {
            members: self
                .members
                .iter()
                .copied()
                .filter(|&i| keep(i as usize))
                .collect(),
        }
    }

    /// The codes in both sets.
    pub fn intersection(&self, other: &CodeSet) -> CodeSet {
        self.merge(other, |a, b| a && b)
    }

    /// The codes in either set.
    pub fn union(&self, other: &CodeSet) -> CodeSet {
        self.merge(other, |a, b| a || b)
    }

    /// The codes in `self` but not in `other`.
    pub fn difference(&self, other: &CodeSet) -> CodeSet {
        self.merge(other, |a, b| a && !b)
    }

    /// One linear merge serves all three set operations: `keep(in_self, in_other)` decides.
    fn merge(&self, other: &CodeSet, keep: impl Fn(bool, bool) -> bool) -> CodeSet {
        let (a, b) = (&self.members, &other.members);
        let mut out = Vec::with_capacity(a.len().max(b.len()));
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let (x, in_a, in_b) = match (a.get(i), b.get(j)) {
                (Some(&x), Some(&y)) if x == y => (x, true, true),
                (Some(&x), Some(&y)) if x < y => (x, true, false),
                (Some(&x), None) => (x, true, false),
                (_, Some(&y)) => (y, false, true),
                (None, None) => unreachable!("the loop condition holds one side"),
            };
            i += usize::from(in_a);
            j += usize::from(in_b);
            if keep(in_a, in_b) {
                out.push(x);
            }
        }
        CodeSet { members: out }
    }
}

impl FromIterator<usize> for CodeSet {
    fn from_iter<I: IntoIterator<Item = usize>>(iter: I) -> Self {
        let mut members: Vec<u32> = iter
            .into_iter()
            .map(|i| u32::try_from(i).expect("code indexes fit in u32"))
            .collect();
        members.sort_unstable();
        members.dedup();
        CodeSet { members }
    }
}

impl<'a> IntoIterator for &'a CodeSet {
    type Item = usize;
    type IntoIter = std::iter::Map<std::slice::Iter<'a, u32>, fn(&u32) -> usize>;

    fn into_iter(self) -> Self::IntoIter {
        self.members.iter().map(|&i| i as usize)
    }
}

impl fmt::Debug for CodeSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(&self.members).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn set_operations_agree_with_std(a in prop::collection::vec(0usize..64, 0..40),
                                         b in prop::collection::vec(0usize..64, 0..40)) {
            use std::collections::BTreeSet;
            let (sa, sb): (BTreeSet<_>, BTreeSet<_>) = (a.iter().copied().collect(), b.iter().copied().collect());
            let (ca, cb): (CodeSet, CodeSet) = (a.into_iter().collect(), b.into_iter().collect());
            prop_assert_eq!(ca.intersection(&cb).iter().collect::<Vec<_>>(), sa.intersection(&sb).copied().collect::<Vec<_>>());
            prop_assert_eq!(ca.union(&cb).iter().collect::<Vec<_>>(), sa.union(&sb).copied().collect::<Vec<_>>());
            prop_assert_eq!(ca.difference(&cb).iter().collect::<Vec<_>>(), sa.difference(&sb).copied().collect::<Vec<_>>());
            for x in 0..64 {
                prop_assert_eq!(ca.contains(x), sa.contains(&x));
            }
        }
    }
}
