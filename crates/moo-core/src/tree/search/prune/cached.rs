//! What the search's cache knows of each part: the second rule, after the closed forms, since
//! most lookups miss the CPU's caches.

use super::{Known, PartBounds, PartRule, TriedGuess};

/// Each part's cached bound or cost, largest part first, stopping at the first bound that
/// rejects the guess: a large part's entry, when there is one, raises the bound most.
pub(super) struct Cached;

impl PartRule for Cached {
    fn sharpen(&self, tried: &TriedGuess, bounds: &mut PartBounds) -> Result<(), u32> {
        for (i, p) in tried.parts.iter().enumerate() {
            if bounds.known[i] == Known::Exact {
                continue;
            }
            if let Some(e) = tried.state.lookup(p, tried.depth) {
                bounds.raise(i, bounds.bounds[i].max(e.bound), Known::Bounded)?;
            }
        }
        Ok(())
    }
}
