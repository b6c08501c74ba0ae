//! The search's hot kernels, reachable from the benchmarks under `benches/` (the search keeps
//! them private): not part of the API, and hidden from its documentation.

use super::classes::Classes;
use super::lower_bounds::Bounds;
use crate::pool::GuessPool;
use crate::space::CodeSpace;

/// One game's bounds, as an exact search of it reads them, for timing its kernels one at a
/// time.
pub struct Kernels<'a> {
    bounds: Bounds<'a>,
    classes: Option<Classes>,
}

impl<'a> Kernels<'a> {
    /// The kernels of a search of `space` from every code, without a last-level weight.
    pub fn new(space: &'a CodeSpace) -> Kernels<'a> {
        Kernels {
            bounds: Bounds::new(space, GuessPool::All, None),
            classes: Classes::new(space),
        }
    }

    /// Every guess's part score on `set` (the OR pass that notes which feedbacks occur), summed
    /// so that nothing is optimised away; `None` when the pass does not apply.
    pub fn part_scores(&self, set: &[u32]) -> Option<u64> {
        self.bounds
            .with_part_scores(set, |scores, _| scores.iter().map(|&s| u64::from(s)).sum())
    }

    /// The name of `set`'s class for the cache of classes, as the sum of its codes (`None` when
    /// the game or the set cannot be named).
    pub fn class_name(&self, set: &[u32]) -> Option<u64> {
        let name = self.classes.as_ref()?.name(&self.bounds, set, None)?;
        Some(name.iter().map(|&c| u64::from(c)).sum())
    }
}
