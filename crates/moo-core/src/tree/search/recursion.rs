//! The recursion of the exact search: [`Solver::solve_within`] answers a candidate set from its
//! closed form, the cache or the cache of classes, and otherwise searches it
//! ([`Solver::search_node`]): every guess worth trying, cheapest bound first, each costed by
//! [`Solver::try_guess`] from its parts' bounds, which the pruning rules ([`prune`]) sharpen
//! before any part is searched in depth. One loop ([`Solver::search_in_order`]) takes the
//! guesses of every node but the largest, which every thread shares
//! ([`Solver::search_parallel`]).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;
use smallvec::SmallVec;

use super::candidates::{candidates, Candidate, FloorOrder, GuessOrder, Next, SortedChunks};
use super::columns::Columns;
use super::dedup::keep_new_splits_where_likely;
use super::lower_bounds::{Bounds, ClosedForm};
use super::memo::Entry;
use super::pairs::PartPairs;
use super::parts::Parts;
use super::prune::{self, PartBounds, TriedGuess};
use super::ranked::Ranked;
use super::solved::{below, child_limit, Solved, FEEDBACKS, INF, NO_GUESS};
use super::state::State;
use super::{Progress, SearchError, SearchOptions};
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::symmetry::Symmetry;

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
        self.solve_part_within(set, None, sym, limit, depth)
    }

    /// [`Solver::solve_within`] of a part of a searched set, with the set's pairwise feedbacks
    /// when it gathered them: the part's closed form, its name for the cache of classes and its
    /// own table of pairs then read them there, in the core's cache, not in the score table.
    fn solve_part_within(
        &self,
        set: &[u32],
        pairs: Option<PartPairs>,
        sym: &Symmetry,
        limit: u32,
        depth: u8,
    ) -> Result<Solved, u32> {
        if self.state.tick(set.len()) {
            return Err(limit);
        }
        let bound = match self.settled(set, pairs, limit, depth) {
            ControlFlow::Break(answer) => return answer,
            ControlFlow::Continue(bound) => bound,
        };
        let bound = match self.state.recalled(set, limit, depth, bound) {
            ControlFlow::Break(answer) => return answer,
            ControlFlow::Continue(bound) => bound,
        };
        let class = self.state.class_of(&self.bounds, set, pairs);
        let bound = match self
            .state
            .borrowed(set, class.as_deref(), limit, depth, bound)
        {
            ControlFlow::Break(answer) => return answer,
            ControlFlow::Continue(bound) => bound,
        };
        let result = self.search_node(set, pairs, sym, limit, depth, bound);
        if self.state.halted() {
            // Neither a tree nor a failure found after the stop is proven.
            return Err(limit);
        }
        self.state
            .remember(set, class.as_deref(), depth, limit, result)
    }

    /// What a set's size, its level bounds and its closed form settle without a search: the
    /// answer, or the bound the search starts from.
    fn settled(
        &self,
        set: &[u32],
        pairs: Option<PartPairs>,
        limit: u32,
        depth: u8,
    ) -> ControlFlow<Result<Solved, u32>, u32> {
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
        match self.bounds.closed_form_by(set, depth, pairs) {
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
        pairs: Option<PartPairs>,
        sym: &Symmetry,
        limit: u32,
        depth: u8,
        bound: u32,
    ) -> Result<Solved, u32> {
        let orbits = self.bounds.orbits(sym);
        let ranked = Ranked::within(set, pairs);
        let node = Searching {
            set,
            sym,
            ranked: &ranked,
            depth,
        };
        if set.len() < PARALLEL_MIN && limit < INF {
            if let Some((order, left_out)) =
                FloorOrder::new(&self.bounds, set, &orbits, limit, depth)
            {
                let (best, least) = self.search_in_order(&node, order, limit);
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
            self.search_parallel(&node, cands, limit)
                .map_err(|failed| left_out.min(failed).max(bound))
        } else {
            let (best, least) = self.search_in_order(&node, SortedChunks::new(&cands), limit);
            best.ok_or(left_out.min(least).max(bound))
        }
    }

    /// [`Solver::search_node`] of a large set: guesses that split it alike tried once where such
    /// guesses are likely (two symbols missing from every member), and the others by every
    /// thread, each taking the next guess in the order and sharing the best total through an
    /// atomic. On failure, the least bound the guesses proved.
    fn search_parallel(
        &self,
        node: &Searching,
        mut cands: Vec<Candidate>,
        limit: u32,
    ) -> Result<Solved, u32> {
        let set = node.set;
        cands.sort_unstable_by_key(Candidate::order);
        let best = AtomicU64::new(pack(limit, 0));
        let first = (limit == INF).then(|| self.try_guess_at_once(node, cands[0]));
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
            let column = columns.column(self.bounds.rows, k);
            let parts = Parts::from_feedbacks(&self.bounds, set, column);
            let sol = self.try_parts(node, c, parts, limit_here)?;
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

    /// [`Solver::search_node`] one guess after another, as `order` gives them: the best found
    /// (if any beat `limit`) and the least bound the others proved.
    fn search_in_order(
        &self,
        node: &Searching,
        mut order: impl GuessOrder,
        limit: u32,
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
            match self.try_candidate(node, c, limit) {
                Ok(sol) => {
                    limit = sol.total;
                    best = Some(sol);
                }
                Err(at_least) => least = least.min(at_least),
            }
        }
        (best, least)
    }

    /// The cost of guessing `c.guess` at `node`, if below `limit`; if not, a proven lower bound
    /// on it (`limit` or more): [`Solver::try_guess_at_once`] while there is no limit, which only
    /// the first guess of a node meets, else [`Solver::try_guess`].
    pub(super) fn try_candidate(
        &self,
        node: &Searching,
        c: Candidate,
        limit: u32,
    ) -> Result<Solved, u32> {
        if limit == INF {
            self.try_guess_at_once(node, c)
        } else {
            self.try_guess(node, c, limit)
        }
    }

    /// The cost of guessing `c.guess` at `node`, if below `limit`; if not, a proven lower bound
    /// on it (`limit` or more). Each part's bound is first sharpened by the pruning rules
    /// ([`prune`]), so a guess whose parts are known to be expensive fails before any part is
    /// searched in depth.
    pub(super) fn try_guess(
        &self,
        node: &Searching,
        c: Candidate,
        limit: u32,
    ) -> Result<Solved, u32> {
        let parts = Parts::new(&self.bounds, node.set, c.guess);
        self.try_parts(node, c, parts, limit)
    }

    /// [`Solver::try_guess`] of a guess whose parts are formed already.
    fn try_parts(
        &self,
        node: &Searching,
        c: Candidate,
        parts: Parts,
        limit: u32,
    ) -> Result<Solved, u32> {
        let at: SmallVec<[&[u8]; FEEDBACKS]> =
            parts.at().map_or(SmallVec::new(), Iterator::collect);
        let pairs: SmallVec<[Option<PartPairs>; FEEDBACKS]> =
            match node.ranked.pairs.table(self.bounds.rows) {
                Some(table) if !at.is_empty() => at.iter().map(|at| Some(table.part(at))).collect(),
                _ => SmallVec::new(),
            };
        let parts: SmallVec<[&[u32]; FEEDBACKS]> = parts.iter().collect();
        let tried = TriedGuess {
            bounds: &self.bounds,
            state: &self.state,
            parts: &parts,
            pairs: &pairs,
            at: &at,
            ranked: node.ranked,
            sym: &node
                .sym
                .after(self.bounds.space.code(c.guess as usize).symbols()),
            depth: child_limit(node.depth),
        };
        let mut bounds = PartBounds::new(&self.bounds, &parts, tried.depth, c.bound, limit);
        prune::sharpen(&tried, &mut bounds)?;
        let (total, worst) = self.solve_parts(&tried, bounds)?;
        let guess = c.guess;
        below(
            Solved {
                total,
                worst,
                guess,
            },
            limit,
        )
    }

    /// The cost of guessing `c.guess` at `node` with no limit: its parts are independent, so
    /// they are solved at once on every thread, which gives the other guesses a bound.
    pub(super) fn try_guess_at_once(&self, node: &Searching, c: Candidate) -> Result<Solved, u32> {
        let parts = Parts::new(&self.bounds, node.set, c.guess);
        let parts: SmallVec<[&[u32]; FEEDBACKS]> = parts.iter().collect();
        let child_sym = node
            .sym
            .after(self.bounds.space.code(c.guess as usize).symbols());
        let (total, worst) = self.solve_parts_at_once(
            node.set,
            &parts,
            &child_sym,
            child_limit(node.depth),
            c.bound,
        )?;
        let guess = c.guess;
        below(
            Solved {
                total,
                worst,
                guess,
            },
            INF,
        )
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

    /// Last: solves the parts one after another, largest first, each within the budget the
    /// others' bounds leave, and returns the guess's total and worst case.
    fn solve_parts(&self, tried: &TriedGuess, bounds: PartBounds) -> Result<(u32, u8), u32> {
        let PartBounds {
            bounds,
            mut total,
            limit,
            ..
        } = bounds;
        let mut worst = 1u8;
        for (i, (p, &b)) in tried.parts.iter().zip(&bounds).enumerate() {
            let budget = limit - (total - b);
            let s = self
                .solve_part_within(p, tried.part_pairs(i), tried.sym, budget, tried.depth)
                .map_err(|at_least| total.saturating_add(at_least - b))?;
            total += s.total - b;
            worst = worst.max(s.worst + 1);
        }
        Ok((total, worst))
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
            .search_node(set, None, sym, sol.total + 1, depth, sol.total)
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

/// A set being searched, as each of its guesses' tries reads it.
pub(super) struct Searching<'n> {
    /// Its members.
    pub(super) set: &'n [u32],
    /// The symmetries of the position it is the candidates of.
    pub(super) sym: &'n Symmetry,
    /// Its guesses ranked for its parts' lookaheads.
    pub(super) ranked: &'n Ranked<'n>,
    /// The guesses left for it.
    pub(super) depth: u8,
}

fn pack(total: u32, index: u32) -> u64 {
    (u64::from(total) << 32) | u64::from(index)
}

fn unpack(x: u64) -> (u32, u32) {
    ((x >> 32) as u32, x as u32)
}
