//! The root's guesses in the order the search tries them, which a split search needs to make
//! its jobs and to break ties between equal first guesses as the single search does.

use super::candidates::{candidates, Candidate};
use super::recursion::Solver;
use super::solved::{depth_cap, weighted_cost_scale, INF};
use super::{Objective, Progress, SearchError, SearchOptions};
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// The first guesses a search of the whole space under `options` tries, in the order it tries
/// them: one per symmetry class, cheapest lower bound first, without the guesses that cannot
/// fit the depth limit. [`crate::tree::jobs`] makes its jobs from these and breaks ties between equal
/// first guesses by this order, as the search does.
pub(crate) fn first_guesses(
    space: &CodeSpace,
    options: &SearchOptions,
) -> Result<Vec<u32>, SearchError> {
    let cap = depth_cap(space, options)?;
    Ok(root_order(space, options, cap, None))
}

/// The first guesses the search of the whole space under a worst-case objective tries when it
/// gets to depth limit `depth`, in the order it tries them (its bounds depend on the depth, and
/// for the fewest at worst on the depth's weight). [`crate::tree::jobs`] breaks ties between equal
/// first guesses by this order, as the search does.
pub(crate) fn first_guesses_at(
    space: &CodeSpace,
    options: &SearchOptions,
    depth: u32,
) -> Result<Vec<u32>, SearchError> {
    let cap = depth_cap(space, options)?;
    let depth = u8::try_from(depth).unwrap_or(cap).min(cap);
    let last_level = match options.objective {
        Objective::FewestWorst => {
            Some((depth, weighted_cost_scale(space.len(), space.len(), depth)?))
        }
        _ => None,
    };
    Ok(root_order(space, options, depth, last_level))
}

/// The root's guesses in the order the search tries them within `depth`.
fn root_order(
    space: &CodeSpace,
    options: &SearchOptions,
    depth: u8,
    last_level: Option<(u8, u32)>,
) -> Vec<u32> {
    let root: Vec<u32> = (0..space.len() as u32).collect();
    let sym = Symmetry::new(space.rules());
    let progress = Progress::new();
    let stop = Stop::never();
    // Only the bounds are needed, not the cache: the smallest one will do.
    let search = Solver::new(
        space,
        options.guesses,
        &progress,
        &stop,
        root.len(),
        last_level,
        0,
    );
    let (mut cands, _) = candidates(
        &search.bounds,
        &root,
        &search.bounds.orbits(&sym),
        INF,
        depth,
        &stop,
    )
    .expect("a search that never stops");
    cands.sort_unstable_by_key(Candidate::order);
    cands.into_iter().map(|c| c.guess).collect()
}
