//! The recursion of the exact search: [`Solver::solve_within`] answers a candidate set from its
//! closed form, the cache or the cache of classes, and otherwise searches it
//! ([`Solver::search_node`]): every guess worth trying, cheapest bound first, each costed by
//! [`Solver::try_guess`] from its parts' bounds before any part is searched in depth.

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;
use smallvec::SmallVec;

use super::bounds::{Bounds, ClosedForm};
use super::candidates::{candidates, Candidate, FloorOrder, Next};
use super::columns::Columns;
use super::dedup::keep_new_splits_where_likely;
use super::memo::Entry;
use super::pairs::PartPairs;
use super::parts::{PartBounds, Parts};
use super::ranked::Ranked;
use super::solved::{below, child_limit, Solved, CLOCK_SET, FEEDBACKS, INF, NO_GUESS};
use super::state::State;
use super::{Progress, SearchError, SearchOptions};
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

/// How many of a node's candidates are put in order at a time (see [`Solver::search_node`]).
const SORT_CHUNK: usize = 32;
/// Sets at least this large try their guesses in parallel.
const PARALLEL_MIN: usize = 150;

/// One search in progress: the bounds it reads, what it has proven, and its root.
pub(super) struct Solver<'a> {
    /// The game's tables and the bounds computed from them.
    pub(super) bounds: Bounds<'a>,
    /// The caches, the progress counters and how to stop.
    pub(super) state: State<'a>,
    /// The size of the set the search started from (its parts count as progress).
    root_len: usize,
}

impl<'a> Solver<'a> {
    pub(super) fn new(
        space: &'a CodeSpace,
        pool: GuessPool,
        progress: &'a Progress,
        stop: &'a Stop,
        root_len: usize,
        last_level: Option<(u8, u32)>,
        cache_bytes: u64,
    ) -> Solver<'a> {
        Solver {
            bounds: Bounds::new(space, pool, last_level),
            state: State::new(space.len(), progress, stop, cache_bytes),
            root_len,
        }
    }

    /// A search under `options` from a root of `root_len` codes.
    pub(super) fn for_options(
        space: &'a CodeSpace,
        options: &SearchOptions,
        progress: &'a Progress,
        stop: &'a Stop,
        root_len: usize,
        last_level: Option<(u8, u32)>,
    ) -> Solver<'a> {
        let mut search = Solver::new(
            space,
            options.guesses,
            progress,
            stop,
            root_len,
            last_level,
            options.cache_budget(),
        );
        if options.classes {
            search
                .state
                .share_classes(space, options.cache_budget(), options.classes_after);
        }
        search
    }

    /// [`Solver::solve`] of a root, checked for a stop before it is believed: a stopped search
    /// returns `None` or a tree that is not proven optimal.
    pub(super) fn solve_root(
        &self,
        root: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
    ) -> Result<Option<Solved>, SearchError> {
        let sol = self
            .solve(root, sym, limit, depth)
            .and_then(|sol| self.own_guess(root, sym, depth, sol));
        if self.state.halted() {
            Err(SearchError::Stopped)
        } else {
            Ok(sol)
        }
    }

    /// The cheapest tree for `set` with every secret solved within `depth` guesses, if its total
    /// is below `limit`; `None` proves there is none.
    pub(super) fn solve(
        &self,
        set: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
    ) -> Option<Solved> {
        self.solve_within(set, sym, limit, depth).ok()
    }

    /// [`Solver::solve`], and when it fails, a proven lower bound on the set's total (`limit` or
    /// more; [`INF`] when no tree fits `depth`). A failure usually proves more than the limit
    /// asked, and the cache keeps what it proves: a set met again under a larger budget is then
    /// often refused without a second search.
    pub(super) fn solve_within(
        &self,
        set: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
    ) -> Result<Solved, u32> {
        if self.state.tick(set.len()) {
            return Err(limit);
        }
        let bound = match self.settled(set, limit, depth) {
            ControlFlow::Break(answer) => return answer,
            ControlFlow::Continue(bound) => bound,
        };
        let bound = match self.state.recalled(set, limit, depth, bound) {
            ControlFlow::Break(answer) => return answer,
            ControlFlow::Continue(bound) => bound,
        };
        let class = self.state.class_of(&self.bounds, set);
        let bound = match self
            .state
            .borrowed(set, class.as_deref(), limit, depth, bound)
        {
            ControlFlow::Break(answer) => return answer,
            ControlFlow::Continue(bound) => bound,
        };
        let result = self.search_node(set, sym, limit, depth, bound);
        if self.state.halted() {
            // Neither a tree nor a failure found after the stop is proven.
            return Err(limit);
        }
        self.state
            .remember(set, class.as_deref(), depth, limit, result)
    }

    /// What a set's size, its level bounds and its closed form settle without a search: the
    /// answer, or the bound the search starts from.
    fn settled(&self, set: &[u32], limit: u32, depth: u8) -> ControlFlow<Result<Solved, u32>, u32> {
        let n = set.len();
        if depth == 0 || self.bounds.levels(n) > depth {
            return ControlFlow::Break(Err(INF));
        }
        let floor = self.bounds.total(n, depth);
        if floor >= limit {
            return ControlFlow::Break(Err(floor));
        }
        if n <= 2 {
            return ControlFlow::Break(Ok(Solved {
                total: floor,
                worst: n as u8,
                guess: set[0],
            }));
        }
        match self.bounds.closed_form(set, depth) {
            ClosedForm::Exact(sol) => ControlFlow::Break(below(sol, limit)),
            ClosedForm::AtLeast(b) if b >= limit => ControlFlow::Break(Err(b)),
            ClosedForm::AtLeast(b) => ControlFlow::Continue(floor.max(b)),
            ClosedForm::Unknown => ControlFlow::Continue(floor),
        }
    }

    /// Searches `set`: its guesses worth trying, cheapest bound first, until the bound of the
    /// next reaches the best total found. On failure, the least bound over every guess not
    /// proven to cost more (fail-soft), and at least `bound`.
    pub(super) fn search_node(
        &self,
        set: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
        bound: u32,
    ) -> Result<Solved, u32> {
        let orbits = self.bounds.orbits(sym);
        let ranked = Ranked::new(set);
        if set.len() < PARALLEL_MIN && limit < INF {
            if let Some((order, left_out)) =
                FloorOrder::new(&self.bounds, set, &orbits, limit, depth)
            {
                let (best, least) =
                    self.search_in_floor_order(set, sym, &ranked, order, limit, depth);
                return best.ok_or(left_out.min(least).max(bound));
            }
        }
        let (cands, left_out) =
            candidates(&self.bounds, set, &orbits, limit, depth, self.state.stop).unwrap_or_else(
                || {
                    // Stopped while scanning a set too large for the bulk pass: give up too.
                    self.state.halt();
                    (Vec::new(), limit)
                },
            );
        let Some(first_bound) = cands.iter().map(|c| c.bound).min() else {
            return Err(left_out.max(bound));
        };
        if first_bound.max(bound) >= limit {
            return Err(left_out.min(first_bound).max(bound));
        }
        if set.len() >= PARALLEL_MIN && cands.len() > 1 {
            self.search_parallel(set, sym, &ranked, cands, limit, depth)
                .map_err(|failed| left_out.min(failed).max(bound))
        } else {
            let (best, least) = self.search_sequential(set, sym, &ranked, cands, limit, depth);
            best.ok_or(left_out.min(least).max(bound))
        }
    }

    /// [`Solver::search_node`] of a large set: guesses that split it alike tried once where such
    /// guesses are likely (two symbols missing from every member), and the others by every
    /// thread, each taking the next guess in the order and sharing the best total through an
    /// atomic. On failure, the least bound the guesses proved.
    fn search_parallel(
        &self,
        set: &[u32],
        sym: &Symmetry,
        ranked: &Ranked,
        mut cands: Vec<Candidate>,
        limit: u32,
        depth: u8,
    ) -> Result<Solved, u32> {
        cands.sort_unstable_by_key(Candidate::order);
        // With no limit yet, the first guess's parts are independent: solve them in parallel
        // to get a bound for the others.
        let best = AtomicU64::new(pack(limit, 0));
        let first =
            (limit == INF).then(|| self.try_guess(set, sym, ranked, cands[0], INF, depth, true));
        if let Some(Ok(sol)) = first {
            best.store(pack(sol.total, 0), Ordering::Relaxed);
            // The guesses whose bound reaches its total cannot beat it (they come later in the
            // order), so their splits need not be told apart: labelling every split cost a
            // sixteenth of Mastermind 5x6.
            cands.truncate(cands.partition_point(|c| c.bound < sol.total).max(1));
        }
        keep_new_splits_where_likely(&self.bounds, set, &mut cands);
        let mut rest = &cands[..];
        let mut sols: Vec<Result<Solved, u32>> = vec![Err(INF); cands.len()];
        if let Some(first) = first {
            sols[0] = first;
            rest = &cands[1..];
        }
        let offset = cands.len() - rest.len();
        let columns = Columns::new(set, rest.iter().map(|c| c.guess).collect());
        let try_one = |k: usize, c: Candidate| {
            let i = (k + offset) as u32;
            let (total, index) = unpack(best.load(Ordering::Relaxed));
            // A guess beats the best if cheaper, or as cheap and earlier in the order.
            let limit_here = total.saturating_add(u32::from(i < index));
            if c.bound >= limit_here {
                return Err(c.bound);
            }
            let parts = Parts::from_feedbacks(&self.bounds, set, columns.column(&self.bounds, k));
            let sol = self.try_parts(set, sym, ranked, c, parts, limit_here, depth, false)?;
            best.fetch_min(pack(sol.total, i), Ordering::Relaxed);
            Ok(sol)
        };
        // Each worker takes the next guess in the order, so the guesses under way at any time
        // are the next few a sequential search would try, each with every total found before
        // it; split into ranges, a thread would start halfway down the order under limits the
        // guesses before would have tightened.
        let next = AtomicUsize::new(0);
        let workers = rayon::current_num_threads().min(rest.len());
        let results: Vec<(usize, Result<Solved, u32>)> = (0..workers)
            .into_par_iter()
            .flat_map_iter(|_| {
                let mut mine = Vec::new();
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&c) = rest.get(k) else { break };
                    mine.push((k, try_one(k, c)));
                }
                mine
            })
            .collect();
        for (k, result) in results {
            sols[offset + k] = result;
        }
        let (total, index) = unpack(best.load(Ordering::Relaxed));
        if total >= limit {
            // Nothing beat the limit, so every guess failed against it.
            return Err(sols.iter().filter_map(|s| s.err()).min().unwrap_or(INF));
        }
        sols[index as usize]
    }

    /// [`Solver::search_node`] of a smaller set, one guess after another: the best found (if
    /// any beat `limit`) and the least bound the others proved.
    fn search_sequential(
        &self,
        set: &[u32],
        sym: &Symmetry,
        ranked: &Ranked,
        cands: Vec<Candidate>,
        limit: u32,
        depth: u8,
    ) -> (Option<Solved>, u32) {
        let mut best: Option<Solved> = None;
        let mut least = INF;
        let mut limit = limit;
        // A node tries a few dozen of its hundreds of candidates before the bound stops it, so
        // they are sorted a chunk at a time, as the loop reaches them: `keys[..sorted]` are the
        // smallest, in order. The keys are distinct, so the order is the full sort's.
        let mut keys: Vec<u64> = cands.iter().map(Candidate::key).collect();
        let mut sorted = 0;
        for i in 0..keys.len() {
            if i == sorted {
                let end = (sorted + SORT_CHUNK).min(keys.len());
                if end < keys.len() {
                    keys[sorted..].select_nth_unstable(end - sorted - 1);
                }
                keys[sorted..end].sort_unstable();
                sorted = end;
            }
            let c = Candidate::from_key(keys[i]);
            if c.bound >= limit {
                least = least.min(c.bound);
                break;
            }
            let parallel = limit == INF && best.is_none();
            match self.try_guess(set, sym, ranked, c, limit, depth, parallel) {
                Ok(sol) => {
                    limit = sol.total;
                    best = Some(sol);
                }
                Err(at_least) => least = least.min(at_least),
            }
        }
        (best, least)
    }

    /// [`Solver::search_sequential`] of the guesses `order` takes in the order of their exact
    /// bounds, counting each only when its parts floor comes first ([`FloorOrder`]): the
    /// guesses are tried in the order and under the limits [`Solver::search_sequential`] would
    /// try them, and only the few counted that the loop reaches. The least bound the others
    /// proved is the first one to reach the limit.
    fn search_in_floor_order(
        &self,
        set: &[u32],
        sym: &Symmetry,
        ranked: &Ranked,
        mut order: FloorOrder,
        limit: u32,
        depth: u8,
    ) -> (Option<Solved>, u32) {
        let mut best: Option<Solved> = None;
        let mut least = INF;
        let mut limit = limit;
        loop {
            let c = match order.next(limit) {
                Next::Try(c) => c,
                Next::Done(bound) => {
                    least = least.min(bound);
                    break;
                }
            };
            match self.try_guess(set, sym, ranked, c, limit, depth, false) {
                Ok(sol) => {
                    limit = sol.total;
                    best = Some(sol);
                }
                Err(at_least) => least = least.min(at_least),
            }
        }
        (best, least)
    }

    /// The cost of guessing `c.guess` at this node, if below `limit`; if not, a proven lower
    /// bound on it (`limit` or more). With `parallel` and no limit yet, the parts are solved
    /// at once on every thread; otherwise each part's bound is first sharpened with what is
    /// already proven, cheapest proof first, so a guess whose parts are known to be expensive
    /// fails before any part is searched in depth. `ranked` is the set's guesses ranked for
    /// its parts' lookaheads.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn try_guess(
        &self,
        set: &[u32],
        sym: &Symmetry,
        ranked: &Ranked,
        c: Candidate,
        limit: u32,
        depth: u8,
        parallel: bool,
    ) -> Result<Solved, u32> {
        let parts = self.bounds.parts(set, c.guess);
        self.try_parts(set, sym, ranked, c, parts, limit, depth, parallel)
    }

    /// [`Solver::try_guess`] of a guess whose parts are formed already.
    #[allow(clippy::too_many_arguments)]
    fn try_parts(
        &self,
        set: &[u32],
        sym: &Symmetry,
        ranked: &Ranked,
        c: Candidate,
        parts: Parts,
        limit: u32,
        depth: u8,
        parallel: bool,
    ) -> Result<Solved, u32> {
        let at: SmallVec<[&[u8]; FEEDBACKS]> =
            parts.at().map_or(SmallVec::new(), Iterator::collect);
        let pairs: SmallVec<[Option<PartPairs>; FEEDBACKS]> = match ranked.pairs.table(&self.bounds)
        {
            Some(table) if !at.is_empty() => at.iter().map(|at| Some(table.part(at))).collect(),
            _ => SmallVec::new(),
        };
        let parts: SmallVec<[&[u32]; FEEDBACKS]> = parts.iter().collect();
        let child_sym = sym.after(self.bounds.space.code(c.guess as usize).symbols());
        let child_depth = child_limit(depth);
        let (total, worst) = if parallel && limit == INF {
            self.solve_parts_at_once(set, &parts, &child_sym, child_depth, c.bound)?
        } else {
            let mut bounds = PartBounds::new(&self.bounds, &parts, child_depth, c.bound, limit);
            let to_look_up =
                self.sharpen_by_closed_forms(&parts, &pairs, child_depth, &mut bounds)?;
            self.sharpen_by_cache(&parts, &to_look_up, child_depth, &mut bounds)?;
            let tables = (ranked, &pairs[..], &at[..]);
            self.sharpen_by_lookahead(&parts, &child_sym, tables, child_depth, &mut bounds)?;
            self.solve_parts(&parts, &child_sym, child_depth, bounds)?
        };
        if total < limit {
            Ok(Solved {
                total,
                worst,
                guess: c.guess,
            })
        } else {
            Err(total)
        }
    }

    /// Solves every part of a guess on every thread, with no limit, and returns the guess's
    /// total (from `total`, its bound) and worst case; `Err(INF)` if a part has no tree.
    fn solve_parts_at_once(
        &self,
        set: &[u32],
        parts: &[&[u32]],
        child_sym: &Symmetry,
        child_depth: u8,
        mut total: u32,
    ) -> Result<(u32, u8), u32> {
        let sols: Vec<Result<Solved, u32>> = parts
            .par_iter()
            .map(|p| {
                let s = self.solve_within(p, child_sym, INF, child_depth);
                if set.len() == self.root_len {
                    self.state.progress.solved.fetch_add(1, Ordering::Relaxed);
                }
                s
            })
            .collect();
        let mut worst = 1u8;
        for (p, s) in parts.iter().zip(sols) {
            let s = s.map_err(|_| INF)?;
            total += s.total - self.bounds.total(p.len(), child_depth);
            worst = worst.max(s.worst + 1);
        }
        Ok((total, worst))
    }

    /// First sharpening: the closed forms of the parts small enough for one, which need no trip
    /// to memory, smallest part first. Taken before any lookup or lookahead, so a guess they
    /// reject costs neither, and the parts they settle are never looked up. Returns the parts
    /// still to look up, smallest first.
    pub(super) fn sharpen_by_closed_forms(
        &self,
        parts: &[&[u32]],
        pairs: &[Option<PartPairs>],
        child_depth: u8,
        bounds: &mut PartBounds,
    ) -> Result<SmallVec<[usize; FEEDBACKS]>, u32> {
        let mut to_look_up = SmallVec::new();
        for (i, p) in parts.iter().enumerate().rev() {
            let lb = bounds.bounds[i];
            let b = if p.len() < 3 {
                lb
            } else {
                let pairs = pairs.get(i).copied().flatten();
                match self.bounds.closed_form_by(p, child_depth, pairs) {
                    ClosedForm::Exact(sol) => sol.total,
                    ClosedForm::AtLeast(b) => {
                        to_look_up.push(i);
                        b.max(lb)
                    }
                    ClosedForm::Unknown => {
                        to_look_up.push(i);
                        continue;
                    }
                }
            };
            bounds.known[i] = true;
            bounds.raise(i, b)?;
        }
        Ok(to_look_up)
    }

    /// Second sharpening: what the cache knows of the parts `to_look_up` (given smallest first),
    /// largest first, stopping at the first bound that rejects the guess: most lookups miss the
    /// CPU's caches.
    fn sharpen_by_cache(
        &self,
        parts: &[&[u32]],
        to_look_up: &[usize],
        child_depth: u8,
        bounds: &mut PartBounds,
    ) -> Result<(), u32> {
        for &i in to_look_up.iter().rev() {
            if let Some(e) = self.state.lookup(parts[i], child_depth) {
                bounds.known[i] = true;
                bounds.raise(i, bounds.bounds[i].max(e.bound))?;
            }
        }
        Ok(())
    }

    /// Third sharpening: each part's own one-guess lookahead, for the parts nothing else
    /// bounded, which costs one scan per part but rejects most losing guesses before any part is
    /// searched in depth. Smallest part first: its scan is the cheapest, and a small part's best
    /// guess misses more feedbacks, so its bound rises furthest above the level bound.
    pub(super) fn sharpen_by_lookahead(
        &self,
        parts: &[&[u32]],
        child_sym: &Symmetry,
        (ranked, pairs, at): (&Ranked, &[Option<PartPairs>], &[&[u8]]),
        child_depth: u8,
        bounds: &mut PartBounds,
    ) -> Result<(), u32> {
        if parts.len() < 2 {
            return Ok(());
        }
        for (i, p) in parts.iter().enumerate().rev() {
            if bounds.known[i] {
                continue;
            }
            let b = bounds.bounds[i];
            let cap = bounds.limit - (bounds.total - b);
            let tables = (ranked, pairs.get(i).copied().flatten(), at.get(i).copied());
            let sharper = self.lookahead_bound(p, child_sym, tables, child_depth, b, cap);
            if sharper > b {
                bounds.raise(i, sharper)?;
            }
        }
        Ok(())
    }

    /// Last: solves the parts one after another, largest first, each within the budget the
    /// others' bounds leave, and returns the guess's total and worst case.
    fn solve_parts(
        &self,
        parts: &[&[u32]],
        child_sym: &Symmetry,
        child_depth: u8,
        bounds: PartBounds,
    ) -> Result<(u32, u8), u32> {
        let PartBounds {
            bounds,
            mut total,
            limit,
            ..
        } = bounds;
        let mut worst = 1u8;
        for (p, &b) in parts.iter().zip(&bounds) {
            let budget = limit - (total - b);
            let s = self
                .solve_within(p, child_sym, budget, child_depth)
                .map_err(|at_least| total.saturating_add(at_least - b))?;
            total += s.total - b;
            worst = worst.max(s.worst + 1);
        }
        Ok((total, worst))
    }

    /// A lower bound on the total of `set` from a one-guess lookahead ([`Bounds::lookahead_by`]).
    /// `known` is a bound already proven; the caller has checked that the cache knows nothing
    /// of the set and that it has no closed form. If no guess stays below `cap`, `cap` itself
    /// is the bound returned, which is all the caller needs to reject. Not remembered in the
    /// cache: parts seldom recur, so the bounds of millions of parts took most of its budget
    /// and pushed out the searched sets' results, which are dearer to prove again. `ranked`
    /// holds the guesses of the set `set` is a part of, ranked ([`Ranked`]): the same bound,
    /// from fewer guesses; `pairs`, if any, the part's pairwise feedbacks, which a lookahead
    /// over its members alone reads; `at`, if known, its members' positions in that set.
    fn lookahead_bound(
        &self,
        set: &[u32],
        sym: &Symmetry,
        (ranked, pairs, at): (&Ranked, Option<PartPairs>, Option<&[u8]>),
        depth: u8,
        known: u32,
        cap: u32,
    ) -> u32 {
        let n = set.len();
        if self.bounds.levels(n) > depth {
            return INF;
        }
        // The lookahead of a large set is a bulk pass of its own; once stopped, any bound will
        // do, since nothing found after the stop is believed.
        if self.state.must_stop(n >= CLOCK_SET) {
            return cap;
        }
        let best = self
            .bounds
            .counts_parts_first(n, depth, cap)
            .then(|| ranked.min_bound(&self.bounds, (set, at), child_limit(depth), cap))
            .flatten()
            .unwrap_or_else(|| {
                self.bounds
                    .lookahead_by(set, pairs, &self.bounds.orbits(sym), depth, cap)
            });
        best.max(known)
    }

    /// `sol` with this set's own first guess. A result borrowed from an equivalent set
    /// ([`NO_GUESS`]) is searched again under its known total: the search then keeps the first
    /// guess in its order that reaches that total, the one a search of this set alone would
    /// have kept, so the trees written do not depend on which set of a class came first.
    /// `None` only if the search was stopped meanwhile.
    pub(super) fn own_guess(
        &self,
        set: &[u32],
        sym: &Symmetry,
        depth: u8,
        sol: Solved,
    ) -> Option<Solved> {
        if sol.guess != NO_GUESS {
            return Some(sol);
        }
        let own = self
            .search_node(set, sym, sol.total + 1, depth, sol.total)
            .ok()?;
        debug_assert_eq!(own.total, sol.total);
        self.state.memo.put(
            set,
            depth,
            Entry {
                bound: own.total,
                exact: Some(own),
            },
        );
        Some(own)
    }
}

fn pack(total: u32, index: u32) -> u64 {
    (u64::from(total) << 32) | u64::from(index)
}

fn unpack(x: u64) -> (u32, u32) {
    ((x >> 32) as u32, x as u32)
}
