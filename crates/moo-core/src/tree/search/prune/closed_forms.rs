//! The closed forms of the parts small enough for one
//! ([`Bounds::closed_form_by`](crate::tree::search::lower_bounds::Bounds::closed_form_by)): the first
//! rule, since it needs no trip to memory beyond the parts' own rows, so a guess it rejects
//! costs no lookup and no lookahead, and a part it settles is never looked up.

use super::{Known, PartBounds, PartRule, TriedGuess};
use crate::tree::search::lower_bounds::ClosedForm;

/// Each part's closed form, smallest part first: a small part's is the cheapest, and most
/// parts that have one are small.
pub(super) struct ClosedForms;

impl PartRule for ClosedForms {
    fn sharpen(&self, tried: &TriedGuess, bounds: &mut PartBounds) -> Result<(), u32> {
        for (i, p) in tried.parts.iter().enumerate().rev() {
            if bounds.known[i] == Known::Exact {
                continue;
            }
            let pairs = tried.part_pairs(i);
            match tried.bounds.closed_form_by(p, tried.depth, pairs) {
                ClosedForm::Exact(sol) => bounds.raise(i, sol.total, Known::Exact)?,
                ClosedForm::AtLeast(b) => {
                    bounds.raise(i, b.max(bounds.bounds[i]), Known::Bounded)?;
                }
                ClosedForm::Unknown => {}
            }
        }
        Ok(())
    }
}
