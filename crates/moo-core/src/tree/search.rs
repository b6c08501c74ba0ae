//! The exact search for optimal decision trees: depth-first branch and bound on total guesses.
//!
//! `solve(S, limit, depth)` returns the cheapest tree for candidate set `S` if its total is below
//! `limit`, or proves that none is. Every pruning step is a proven lower bound, so the result is
//! optimal, not merely good:
//!
//! * Level filling: with `r` non-winning feedbacks, at most 1 secret is solved by the next guess,
//!   `r` by the one after, `r^2` after that; a set of `n` needs at least `LB(n)` guesses in total
//!   and `LEVELS(n)` guesses for its worst secret.
//! * One-step lookahead: a guess costs `n + sum LB(|part|)` at least, computed from its actual
//!   partition; guesses are tried cheapest bound first (a good upper bound comes early), and the
//!   loop stops at the first guess whose bound reaches the best total found.
//! * Children are solved largest first with the budget left after the others' lower bounds, so a
//!   bad guess fails as soon as one part is too expensive.
//! * Small sets close in O(n^2): if a candidate splits the others into singletons the set costs
//!   `2n - 1`, which is the level bound.
//! * Equivalent guesses are tried once: by the exact symmetries of the history
//!   ([`Symmetry`]), and by identical partitions of `S` (same parts, same winning part), checked
//!   only when a guess's turn comes, since most are cut by the bound before then.
//! * The one-guess bounds of every guess on a set come from one bulk pass ([`super::bulk`]),
//!   which counts feedbacks for 64 guesses at a time with vector instructions. For the bound of
//!   a part, a cheaper pass that only notes which feedbacks occur rules most guesses out by
//!   their number of parts, and only the rest are counted ([`Ctx::min_bound_by_parts`]).
//! * Results are cached by candidate set (exact costs, and proven lower bounds from failed
//!   searches), since a set's cost does not depend on how it was reached; a one-bit filter in
//!   front of the cache answers most misses without a trip to memory.
//! * Large sets try their guesses in parallel (rayon), sharing the best total through an atomic
//!   so every thread prunes with it; ties go to the earliest guess in the order, as sequentially.
//!
//! The search starts from any position ([`search_set`]): the candidate set a history leaves, with
//! the game's symmetries narrowed to those that fix every guess played. It checks its [`Stop`]
//! inside the recursion (the clock every 64 sets, a shared flag at every set), so a caller's
//! deadline or cancel ends it within a few milliseconds; a stopped search returns
//! [`SearchError::Stopped`] and its cache, which may hold unproven results, dies with it.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

use hashbrown::HashTable;
use rayon::prelude::*;

use super::bulk::{Split, Splits, Splitter, MAX_SET};
use super::symmetry::Symmetry;
use super::{DecisionTree, Node, NodeId, TreeStats};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::strategy::GuessPool;

/// What an optimal tree minimises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Objective {
    /// The fewest guesses in total over all secrets (the best average); ties go to the smaller
    /// worst case.
    #[default]
    Average,
    /// The fewest guesses that always suffice; ties go to the fewest in total.
    Worst,
}

impl Objective {
    /// Every objective, for listings.
    pub const ALL: [Objective; 2] = [Objective::Average, Objective::Worst];

    /// The objective's position in [`Objective::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What to search for.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct SearchOptions {
    /// What to minimise.
    pub objective: Objective,
    /// Only trees that solve every secret within this many guesses.
    pub max_depth: Option<u32>,
    /// Which codes may be guessed.
    pub guesses: GuessPool,
}

impl SearchOptions {
    /// Options for `objective`, with no depth limit and any code as a guess.
    pub fn new(objective: Objective) -> SearchOptions {
        SearchOptions {
            objective,
            ..SearchOptions::default()
        }
    }

    /// Only trees that solve every secret within `max_depth` guesses (`None`: no limit).
    pub fn with_max_depth(mut self, max_depth: Option<u32>) -> SearchOptions {
        self.max_depth = max_depth;
        self
    }

    /// Which codes may be guessed.
    pub fn with_guesses(mut self, guesses: GuessPool) -> SearchOptions {
        self.guesses = guesses;
        self
    }
}

/// Why the search could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SearchError {
    /// The space is too large for the precomputed score table the search relies on.
    #[error("an exact search needs the score table, built only for at most {limit} codes; these rules allow {size}: use a shorter code or fewer symbols")]
    TooLarge {
        /// Codes in the space.
        size: usize,
        /// The most codes with a score table.
        limit: usize,
    },
    /// A depth limit of zero allows no guess at all.
    #[error("--max-depth must be at least 1")]
    ZeroDepth,
    /// The search was stopped before it finished.
    #[error("the search was stopped by its time limit or a cancel")]
    Stopped,
    /// The position has no candidate left, so there is nothing to search.
    #[error("no code is consistent with the history: check the answers given")]
    NoCandidates,
}

/// The result of a search.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum SearchOutcome {
    /// An optimal tree and its statistics.
    Found {
        /// The tree.
        tree: DecisionTree,
        /// Its replayed statistics.
        stats: TreeStats,
    },
    /// Proven: no strategy solves every secret within `max_depth` guesses.
    Impossible {
        /// The depth that is not enough.
        max_depth: u32,
    },
}

/// The result of a search from a position ([`search_set`]).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub enum SetOutcome {
    /// An optimal plan from the position.
    Solved(SetPlan),
    /// Proven: no strategy solves every candidate within `max_depth` more guesses.
    Impossible {
        /// The depth (counted from the position) that is not enough.
        max_depth: u32,
    },
}

/// An optimal strategy from a position, as the guess for every candidate set it reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetPlan {
    /// Guesses summed over every candidate from here on, the winning guess counted.
    pub total: u64,
    /// The most guesses any candidate needs from here.
    pub worst: u32,
    /// `histogram[k - 1]` candidates need exactly `k` more guesses.
    pub histogram: Vec<u64>,
    /// `moves[0]` is the position's candidate set and the optimal guess (a code index); then
    /// every set the plan reaches, depth first, with its guess, so a caller can cache them and
    /// answer later turns without searching.
    pub moves: Vec<(CodeSet, u32)>,
}

/// Live counters of a running search, readable from another thread (for progress display).
#[derive(Debug, Default)]
pub struct Progress {
    nodes: AtomicU64,
    memo: AtomicU64,
    bound: AtomicU64,
    solved: AtomicU64,
}

impl Progress {
    /// A fresh set of counters.
    pub fn new() -> Progress {
        Progress {
            bound: AtomicU64::new(u64::MAX),
            ..Progress::default()
        }
    }

    /// Candidate sets searched so far (cache hits and closed forms included).
    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }

    /// Candidate sets in the cache.
    pub fn cached(&self) -> u64 {
        self.memo.load(Ordering::Relaxed)
    }

    /// The best total proven so far for the whole game, if one is known yet.
    pub fn bound(&self) -> Option<u64> {
        Some(self.bound.load(Ordering::Relaxed)).filter(|&b| b != u64::MAX)
    }

    /// How many of the first guess's parts have been solved exactly.
    pub fn parts_solved(&self) -> u64 {
        self.solved.load(Ordering::Relaxed)
    }
}

/// Sets up to this size get their probe bound by counting parts first
/// ([`Ctx::min_bound_by_parts`]); larger ones count every guess's parts in bulk. Larger sets have
/// more parts over the level-1 capacity, so the parts floor rules out fewer guesses; measured on
/// Bulls and Cows 4x10 (one thread, CPU seconds): 71 counting every set in bulk, 50 with 30 here,
/// 47 with 60.
const PARTS_FIRST_MAX: usize = 60;
/// No depth limit.
const UNLIMITED: u8 = u8::MAX;
/// No total limit.
const INF: u32 = u32::MAX;
/// Sets at least this large try their guesses in parallel.
const PARALLEL_MIN: usize = 150;

/// What the closed forms for small sets know.
enum Small {
    /// The set's optimal tree.
    Exact(Sol),
    /// A lower bound on its total.
    AtLeast(u32),
    /// Nothing (the set is too large).
    Unknown,
}

/// An exact result for a set: its optimal total, the worst case of the tree found, and its first
/// guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Sol {
    total: u32,
    worst: u8,
    guess: u32,
}

/// Finds an optimal tree for `space` under `options`, or proves none exists within the depth
/// limit. Runs on the current rayon pool; `progress` is updated as it goes.
pub fn search(
    space: &CodeSpace,
    options: &SearchOptions,
    progress: &Progress,
) -> Result<SearchOutcome, SearchError> {
    search_with_cache(space, options, progress, MEMO_BUDGET)
}

/// [`search`] with the cache capped at `cache_bytes`.
pub(crate) fn search_with_cache(
    space: &CodeSpace,
    options: &SearchOptions,
    progress: &Progress,
    cache_bytes: u64,
) -> Result<SearchOutcome, SearchError> {
    let root: Vec<u32> = (0..space.len() as u32).collect();
    let sym = Symmetry::new(space.rules());
    let stop = Stop::never();
    let plan = match search_from(space, &root, &sym, options, progress, &stop, cache_bytes)? {
        Ok(plan) => plan,
        Err(max_depth) => return Ok(SearchOutcome::Impossible { max_depth }),
    };
    let total = plan.total;
    let nodes = plan.nodes.into_iter().map(|n| n.node).collect();
    let tree = DecisionTree::from_nodes(space.rules().clone(), nodes);
    let stats = tree
        .verify_in(space)
        .expect("the search builds trees that solve every secret");
    debug_assert_eq!(stats.total, total);
    Ok(SearchOutcome::Found { tree, stats })
}

/// Exact search from the position a history leaves: the optimal plan for `candidates` (the set
/// `history` leaves in `space`) under `options`, whose depth limit counts from this position.
/// Equivalent guesses are pruned with the symmetries of the game that fix every guess of the
/// history. Runs on the current rayon pool; returns [`SearchError::Stopped`] soon after `stop`
/// fires.
pub fn search_set(
    space: &CodeSpace,
    history: &History,
    candidates: &CodeSet,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
) -> Result<SetOutcome, SearchError> {
    debug_assert!(
        *candidates == history.candidates(space),
        "the candidates are the set the history leaves"
    );
    if candidates.is_empty() {
        return Err(SearchError::NoCandidates);
    }
    let sym = history
        .turns()
        .iter()
        .fold(Symmetry::new(space.rules()), |sym, turn| {
            sym.after(turn.guess.symbols())
        });
    let root = candidates.as_slice();
    let plan = match search_from(space, root, &sym, options, progress, stop, MEMO_BUDGET)? {
        Ok(plan) => plan,
        Err(max_depth) => return Ok(SetOutcome::Impossible { max_depth }),
    };
    let moves = plan
        .nodes
        .into_iter()
        .map(|n| (CodeSet::from_sorted(n.set), n.guess))
        .collect();
    Ok(SetOutcome::Solved(SetPlan {
        total: plan.total,
        worst: plan.worst,
        histogram: plan.histogram,
        moves,
    }))
}

/// A solved position, written out: every node of the optimal tree in depth-first order, with the
/// set it is reached with.
struct Plan {
    total: u64,
    worst: u32,
    histogram: Vec<u64>,
    nodes: Vec<PlanNode>,
}

/// One node of a [`Plan`]: the tree node, and the candidate set and guess index behind it.
struct PlanNode {
    node: Node,
    set: Vec<u32>,
    guess: u32,
}

/// The search both entry points share: the optimal plan for `root` (sorted code indexes) under
/// `options`, or `Err(max_depth)` when no tree fits the depth limit.
fn search_from(
    space: &CodeSpace,
    root: &[u32],
    sym: &Symmetry,
    options: &SearchOptions,
    progress: &Progress,
    stop: &Stop,
    cache_bytes: u64,
) -> Result<Result<Plan, u32>, SearchError> {
    if !space.has_table() {
        return Err(SearchError::TooLarge {
            size: space.len(),
            limit: crate::space::TABLE_MAX_CODES,
        });
    }
    if options.max_depth == Some(0) {
        return Err(SearchError::ZeroDepth);
    }
    let ctx = Ctx::new(
        space,
        options.guesses,
        progress,
        stop,
        root.len(),
        cache_bytes,
    );
    // Every result is checked for a stop before it is believed: a stopped search returns `None`
    // or a tree that is not proven optimal.
    let solve = |limit: u32, depth: u8| {
        let sol = ctx.solve(root, sym, limit, depth);
        if ctx.halted() {
            Err(SearchError::Stopped)
        } else {
            Ok(sol)
        }
    };
    let cap = options
        .max_depth
        .map_or(UNLIMITED, |d| d.min(u32::from(UNLIMITED) - 1) as u8);
    let found = match options.objective {
        Objective::Average => {
            let Some(mut best) = solve(INF, cap)? else {
                return Ok(Err(options.max_depth.unwrap_or(0)));
            };
            // Among trees with this total, the smallest worst case: ask for the same total
            // within one guess less until that is proven impossible.
            let mut depth = cap;
            while best.worst > ctx.levels(root.len()) {
                match solve(best.total + 1, best.worst - 1)? {
                    Some(s) => {
                        depth = best.worst - 1;
                        best = s;
                    }
                    None => break,
                }
            }
            (best, depth)
        }
        Objective::Worst => {
            // The first depth that admits a tree, proving each smaller one impossible.
            let mut depth = ctx.levels(root.len());
            loop {
                if depth > cap {
                    return Ok(Err(u32::from(cap)));
                }
                if let Some(s) = solve(INF, depth)? {
                    break (s, depth);
                }
                depth += 1;
            }
        }
    };
    let (sol, depth) = found;
    progress
        .bound
        .store(u64::from(sol.total), Ordering::Relaxed);
    let mut nodes = Vec::new();
    let built = ctx.build(root, sym, depth, sol, 1, &mut nodes);
    if ctx.halted() || built.is_none() {
        return Err(SearchError::Stopped);
    }
    let mut histogram: Vec<u64> = Vec::new();
    for (n, level) in &nodes {
        if n.set.binary_search(&n.guess).is_ok() {
            let level = *level as usize;
            if histogram.len() < level {
                histogram.resize(level, 0);
            }
            histogram[level - 1] += 1;
        }
    }
    let total: u64 = histogram
        .iter()
        .enumerate()
        .map(|(k, &c)| (k as u64 + 1) * c)
        .sum();
    debug_assert_eq!(total, u64::from(sol.total));
    Ok(Ok(Plan {
        total,
        worst: histogram.len() as u32,
        histogram,
        nodes: nodes.into_iter().map(|(n, _)| n).collect(),
    }))
}

/// A candidate guess at a node, with its proven lower bound.
#[derive(Debug, Clone, Copy)]
struct Cand {
    guess: u32,
    bound: u32,
    member: bool,
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    /// A proven lower bound on the set's total (equal to the total when `exact`).
    bound: u32,
    exact: Option<Sol>,
}

/// One cached set: its key hash, depth limit, where its members sit in the shard's arena, and
/// what is known.
struct Slot {
    hash: u64,
    depth: u8,
    start: u32,
    len: u32,
    entry: Entry,
}

/// A part of the cache: slots in an open-addressing table that keeps the hash beside each slot
/// (most probes end there, without touching the set), and every set's members packed one after
/// another in an arena, as `u16` (spaces with a score table have at most 11000 codes).
#[derive(Default)]
struct Shard {
    slots: HashTable<Slot>,
    arena: Vec<u16>,
}

impl Slot {
    /// Whether this slot is for `set` under `depth`; `hash` is their key.
    fn is(&self, hash: u64, set: &[u32], depth: u8, arena: &[u16]) -> bool {
        let start = self.start as usize;
        self.hash == hash
            && self.depth == depth
            && self.len as usize == set.len()
            && arena[start..start + set.len()]
                .iter()
                .zip(set)
                .all(|(&a, &b)| u32::from(a) == b)
    }
}

/// Exact results and proven bounds by candidate set (and depth limit), in shards with a lock
/// each so threads rarely wait for one another.
///
/// Most lookups miss (small sets are met again rarely, but when they are, their cached exact
/// cost saves a search), and a miss in a table of millions of slots costs two trips to memory.
/// A one-bit-per-hash filter small enough to stay in cache answers most misses first, without
/// the lock. A bit set by another thread an instant too late only costs a recomputation.
///
/// The cache stops growing at [`MEMO_BUDGET`] bytes: a search that outgrows it goes on without
/// remembering new sets (slower, still exact) instead of outgrowing the machine.
struct Memo {
    shards: Vec<Mutex<Shard>>,
    filter: Vec<AtomicU64>,
    /// Bytes held by the slots and arenas, roughly (tables grow by doubling, which this ignores).
    bytes: AtomicU64,
    /// The most bytes the cache may take.
    budget: u64,
}

/// The most memory the cache takes. Bulls and Cows 4x10 needs about 0.2 GB; without a cap, a
/// search of 5 symbols of 0-7 passed 4 GB after 15 minutes.
const MEMO_BUDGET: u64 = 3 << 30;

impl Memo {
    fn new(codes: usize, budget: u64) -> Memo {
        // About 256 bits per code: 10 MB for Bulls and Cows, where the cache ends up with a few
        // million sets.
        let words = (codes * 4).next_power_of_two();
        Memo {
            shards: (0..64).map(|_| Mutex::default()).collect(),
            filter: (0..words).map(|_| AtomicU64::new(0)).collect(),
            bytes: AtomicU64::new(0),
            budget,
        }
    }

    /// The filter word and bit of a key (the shard index uses the top bits, this the low ones).
    fn filter_bit(&self, key: u64) -> (&AtomicU64, u64) {
        let word = (key >> 6) as usize & (self.filter.len() - 1);
        (&self.filter[word], 1 << (key & 63))
    }

    fn key(set: &[u32], depth: u8) -> u64 {
        let mut h = u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        for &x in set {
            h = mix(h, u64::from(x));
        }
        h
    }

    fn shard(&self, key: u64) -> std::sync::MutexGuard<'_, Shard> {
        self.shards[(key >> 58) as usize]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    fn get(&self, set: &[u32], depth: u8) -> Option<Entry> {
        let key = Memo::key(set, depth);
        let (word, bit) = self.filter_bit(key);
        if word.load(Ordering::Relaxed) & bit == 0 {
            return None;
        }
        let shard = self.shard(key);
        shard
            .slots
            .find(key, |s| s.is(key, set, depth, &shard.arena))
            .map(|s| s.entry)
    }

    /// Records a result; exact results are never replaced, bounds only raised. Returns whether
    /// a new slot was made.
    fn put(&self, set: &[u32], depth: u8, entry: Entry) -> bool {
        let key = Memo::key(set, depth);
        let mut guard = self.shard(key);
        let shard = &mut *guard;
        let arena = &shard.arena;
        let found = shard.slots.find_mut(key, |s| s.is(key, set, depth, arena));
        if let Some(slot) = found {
            if slot.entry.exact.is_none() {
                if entry.exact.is_some() {
                    slot.entry = entry;
                } else {
                    slot.entry.bound = slot.entry.bound.max(entry.bound);
                }
            }
            return false;
        }
        let cost = (set.len() * 2 + std::mem::size_of::<Slot>() + 8) as u64;
        if self.bytes.fetch_add(cost, Ordering::Relaxed) + cost > self.budget {
            self.bytes.fetch_sub(cost, Ordering::Relaxed);
            return false;
        }
        let start = shard.arena.len() as u32;
        shard.arena.extend(
            set.iter()
                .map(|&x| u16::try_from(x).expect("codes fit 16 bits")),
        );
        let (word, bit) = self.filter_bit(key);
        word.fetch_or(bit, Ordering::Relaxed);
        shard.slots.insert_unique(
            key,
            Slot {
                hash: key,
                depth,
                start,
                len: set.len() as u32,
                entry,
            },
            |s| s.hash,
        );
        true
    }
}

struct Ctx<'a> {
    space: &'a CodeSpace,
    pool: GuessPool,
    n_codes: usize,
    slots: usize,
    win: usize,
    alphabet: usize,
    /// `lb[n]`: the level-filling lower bound on the total of a set of `n`.
    lb: Vec<u32>,
    /// `step[c] = lb[c + 1] - lb[c]`: the level at which the `c+1`-th member of a set is solved.
    step: Vec<u32>,
    /// `outside_lb[n]`: a lower bound on the total of a set of `n` when the next guess is not a
    /// member (nobody is solved by it).
    outside_lb: Vec<u32>,
    /// `levels[n]`: the fewest guesses that can solve every member of a set of `n`.
    levels: Vec<u8>,
    /// The non-winning feedbacks that can occur.
    branches: usize,
    /// The bulk split of sets small enough for it (none for degenerate games).
    splitter: Option<Splitter>,
    memo: Memo,
    progress: &'a Progress,
    /// When to give up.
    stop: &'a Stop,
    /// Set once `stop` has fired: every search still running returns at once, and nothing more
    /// is cached.
    halted: AtomicBool,
    /// The size of the set the search started from (its parts count as progress).
    root_len: usize,
}

impl<'a> Ctx<'a> {
    fn new(
        space: &'a CodeSpace,
        pool: GuessPool,
        progress: &'a Progress,
        stop: &'a Stop,
        root_len: usize,
        cache_bytes: u64,
    ) -> Ctx<'a> {
        let length = space.length();
        let n = space.len();
        // Feedbacks that actually occur in this space bound how many parts a guess makes.
        let mut seen = vec![false; space.rules().feedback_slots()];
        for g in 0..n {
            if let Some(row) = space.score_row(g) {
                for &f in row {
                    seen[usize::from(f)] = true;
                }
            }
        }
        let win = Feedback::win(length).index(length);
        let branches = seen
            .iter()
            .enumerate()
            .filter(|&(i, &s)| s && i != win)
            .count()
            .max(1);
        // Level filling: capacities 1, r, r^2, ... (or 0, r, r^2, ... when the first guess is not a
        // member of the set).
        let fill = |m: usize, first: u64| {
            let (mut left, mut cap, mut level, mut total) = (m as u64, first, 1u64, 0u64);
            while left > 0 {
                let here = left.min(cap);
                total += here * level;
                left -= here;
                cap = if cap == 0 {
                    branches as u64
                } else {
                    cap.saturating_mul(branches as u64)
                };
                level += 1;
            }
            (
                total as u32,
                (level - 1).min(u64::from(UNLIMITED) - 1) as u8,
            )
        };
        let (mut lb, mut levels, mut outside_lb) =
            (vec![0u32; n + 2], vec![0u8; n + 2], vec![0u32; n + 2]);
        for m in 1..=n + 1 {
            (lb[m], levels[m]) = fill(m, 1);
            outside_lb[m] = fill(m, 0).0;
        }
        let step = (0..=n).map(|c| lb[c + 1] - lb[c]).collect();
        let feedbacks = (0..seen.len())
            .filter(|&f| seen[f] || f == win)
            .map(|f| f as u8)
            .collect();
        let splitter = Splitter::new(feedbacks, win as u8, &lb);
        Ctx {
            space,
            pool,
            n_codes: n,
            slots: space.rules().feedback_slots(),
            win,
            alphabet: space.rules().alphabet().len(),
            lb,
            step,
            outside_lb,
            levels,
            branches,
            splitter,
            memo: Memo::new(n, cache_bytes),
            progress,
            stop,
            halted: AtomicBool::new(false),
            root_len,
        }
    }

    /// Whether the search has been stopped (one load).
    fn halted(&self) -> bool {
        self.halted.load(Ordering::Relaxed)
    }

    /// Counts one more set searched and says whether the search must stop. The clock is read
    /// every 64 sets, which keeps its cost out of the profile while still stopping within a
    /// few milliseconds of the deadline.
    fn tick(&self) -> bool {
        let seen = self.progress.nodes.fetch_add(1, Ordering::Relaxed);
        if self.halted() {
            return true;
        }
        if (seen % 64 == 0 && self.stop.is_stopped()) || self.stop.is_cancelled() {
            self.halted.store(true, Ordering::Relaxed);
            return true;
        }
        false
    }

    fn levels(&self, n: usize) -> u8 {
        self.levels[n]
    }

    /// What the cache knows about `set` within `depth` guesses. A result without the depth limit
    /// still helps: its bound holds under any limit, and its tree is optimal under the limit too
    /// when it already fits.
    fn lookup(&self, set: &[u32], depth: u8) -> Option<Entry> {
        let own = self.memo.get(set, depth);
        if depth == UNLIMITED || own.is_some_and(|e| e.exact.is_some()) {
            return own;
        }
        let free = self.memo.get(set, UNLIMITED);
        match (own, free) {
            (own, Some(free)) => {
                let exact = free.exact.filter(|s| s.worst <= depth);
                let bound = free.bound.max(own.map_or(0, |e| e.bound));
                Some(Entry {
                    bound: exact.map_or(bound, |s| s.total),
                    exact,
                })
            }
            (own, None) => own,
        }
    }

    fn row(&self, g: u32) -> &[u8] {
        self.space
            .score_row(g as usize)
            .expect("the search runs only with a score table")
    }

    /// The one-guess lower bound on the total for `set` when `g` is guessed next, and whether
    /// `g` is in the set; `None` when `g` is not the canonical member of its symmetry orbit, its
    /// bound reaches `limit`, it teaches nothing (a non-member leaving the set whole), or a part
    /// is too large to finish within `child_depth` more guesses.
    #[allow(clippy::too_many_arguments)]
    fn guess_bound(
        &self,
        g: u32,
        set: &[u32],
        counts: &mut [u32],
        limit: u32,
        sym: &Symmetry,
        identity: bool,
        child_depth: u8,
    ) -> Option<(u32, bool)> {
        if !identity && !sym.is_canonical(self.space.code(g as usize).symbols()) {
            return None;
        }
        self.admit(set.len(), self.scan(g, set, counts, limit)?, child_depth)
    }

    /// The one-guess bound of a split of a set of `n`, and whether the guess is a member; `None`
    /// when the guess teaches nothing (a non-member leaving the set whole) or leaves a part too
    /// large to finish within `child_depth` more guesses.
    #[inline]
    fn admit(&self, n: usize, split: Split, child_depth: u8) -> Option<(u32, bool)> {
        let Split {
            sum,
            parts,
            largest,
            member,
        } = split;
        if (!member && parts < 2) || self.levels[largest as usize] > child_depth {
            return None;
        }
        Some((n as u32 + sum - u32::from(member), member))
    }

    /// How every guess splits `set`, when the bulk pass applies: every code may be guessed and
    /// the set is small enough for byte counters.
    fn split_all(&self, set: &[u32]) -> Option<Splits> {
        let splitter = self.splitter.as_ref()?;
        if set.len() > MAX_SET {
            return None;
        }
        let mut out = Splits::default();
        splitter.split_all(&self.bulk_rows(set)?, self.n_codes, &mut out);
        Some(out)
    }

    /// The score rows of `set`'s members, which list each member's feedback against every
    /// guess, when the bulk passes apply: every code may be guessed.
    fn bulk_rows(&self, set: &[u32]) -> Option<Vec<&[u8]>> {
        (self.pool == GuessPool::All).then(|| set.iter().map(|&s| self.row(s)).collect())
    }

    /// Every guess's part score on `set` ([`Splitter::part_scores`]), when every code may be
    /// guessed and feedbacks fit 32 bits.
    fn part_scores(&self, set: &[u32]) -> Option<Vec<u8>> {
        let splitter = self.splitter.as_ref().filter(|s| s.has_bits())?;
        let mut out = Vec::new();
        splitter.part_scores(&self.bulk_rows(set)?, self.n_codes, &mut out);
        Some(out)
    }

    /// The smallest one-guess bound on `set` below `cap` (else `cap`), over every guess.
    ///
    /// A part of `c` costs at least `2c - 1`, so a guess making `p` parts (the winning one
    /// included) costs at least `3n - p - member`. Guesses are taken most parts first, each
    /// counted exactly, until that floor reaches the best bound found: usually after a handful,
    /// where counting every guess would cost a full pass.
    fn min_bound_by_parts(&self, set: &[u32], score: &[u8], child_depth: u8, cap: u32) -> u32 {
        let n = set.len() as u32;
        let mut counts = vec![0u32; self.slots];
        let top = u32::from(score.iter().copied().max().unwrap_or(0));
        let mut best = cap;
        // With no part above the level-1 capacity the floor is the bound itself; only a depth
        // limit that a part might exceed still needs the parts counted.
        let exact = n <= 1 + self.branches as u32
            && (child_depth == UNLIMITED || self.levels[set.len()] <= child_depth);
        for level in (1..=top).rev() {
            if 3 * n - level >= best {
                break;
            }
            if exact {
                best = 3 * n - level;
                break;
            }
            for (g, _) in score
                .iter()
                .enumerate()
                .filter(|&(_, &s)| u32::from(s) == level)
            {
                if let Some(split) = self.scan(g as u32, set, &mut counts, best) {
                    if let Some((bound, _)) = self.admit(set.len(), split, child_depth) {
                        best = best.min(bound);
                    }
                }
            }
        }
        best
    }

    /// Splits `set` by guess `g` into `counts` (left zeroed again) and sums the level-filling
    /// bounds of the parts, giving up as soon as the bound reaches `limit`: `None` then.
    #[inline]
    fn scan(&self, g: u32, set: &[u32], counts: &mut [u32], limit: u32) -> Option<Split> {
        let row = self.row(g);
        // Sum of lb[part size] kept incrementally: adding a member to a part of c raises its
        // bound by step[c]. The bound only grows as members are added, so stop as soon as it
        // reaches the limit (the winning part, at most one member, can take back at most 1).
        let give_up = limit.saturating_sub(set.len() as u32) + 1;
        let (mut sum, mut parts, mut largest, mut seen) = (0u32, 0u32, 0u32, 0usize);
        for &s in set {
            let f = usize::from(row[s as usize]);
            let c = counts[f];
            counts[f] = c + 1;
            sum += self.step[c as usize];
            parts += u32::from(c == 0);
            largest = largest.max(c + 1);
            seen += 1;
            if sum >= give_up {
                break;
            }
        }
        let member = counts[self.win] > 0;
        for &s in &set[..seen] {
            counts[usize::from(row[s as usize])] = 0;
        }
        (seen == set.len()).then_some(Split {
            sum,
            parts,
            largest,
            member,
        })
    }

    /// The cheapest tree for `set` with every secret solved within `depth` guesses, if its total
    /// is below `limit`; `None` proves there is none.
    fn solve(&self, set: &[u32], sym: &Symmetry, limit: u32, depth: u8) -> Option<Sol> {
        if self.tick() {
            return None;
        }
        let n = set.len();
        if depth == 0 || self.lb[n] >= limit || self.levels[n] > depth {
            return None;
        }
        match n {
            1 => {
                return Some(Sol {
                    total: 1,
                    worst: 1,
                    guess: set[0],
                })
            }
            2 => {
                return Some(Sol {
                    total: 3,
                    worst: 2,
                    guess: set[0],
                })
            }
            _ => {}
        }
        let mut bound = self.lb[n];
        match self.small(set, depth) {
            Small::Exact(sol) => return (sol.total < limit).then_some(sol),
            Small::AtLeast(b) if b >= limit => return None,
            Small::AtLeast(b) => bound = bound.max(b),
            Small::Unknown => {}
        }
        if let Some(entry) = self.lookup(set, depth) {
            if let Some(sol) = entry.exact {
                return (sol.total < limit).then_some(sol);
            }
            if entry.bound >= limit {
                return None;
            }
            bound = bound.max(entry.bound);
        }
        let result = self.search_node(set, sym, limit, depth, bound);
        if self.halted() {
            // Neither a tree nor a failure found after the stop is proven.
            return None;
        }
        let entry = match result {
            Some(sol) => Entry {
                bound: sol.total,
                exact: Some(sol),
            },
            None => Entry {
                bound: limit,
                exact: None,
            },
        };
        if self.memo.put(set, depth, entry) {
            self.progress.memo.fetch_add(1, Ordering::Relaxed);
        }
        result
    }

    /// Closed forms for sets small enough that one guess can separate them: a candidate that
    /// splits the others into singletons costs `2n - 1` (the level bound, so optimal); failing
    /// that, one leaving a single pair costs `2n` (optimal too: with no perfect candidate every
    /// candidate guess leaves a pair, and any other guess costs at least `n + n`).
    fn small(&self, set: &[u32], depth: u8) -> Small {
        let n = set.len();
        if n > self.branches + 1 || depth < 2 {
            return Small::Unknown;
        }
        let mut pair: Option<u32> = None;
        for &g in set {
            let row = self.row(g);
            let mut seen = [0u64; 4];
            let mut repeats = 0;
            for &s in set {
                if s == g {
                    continue;
                }
                let f = row[s as usize];
                let (w, b) = (usize::from(f >> 6), 1u64 << (f & 63));
                if seen[w] & b != 0 {
                    repeats += 1;
                }
                seen[w] |= b;
            }
            if repeats == 0 {
                return Small::Exact(Sol {
                    total: 2 * n as u32 - 1,
                    worst: 2,
                    guess: g,
                });
            }
            // A single repeat is a single pair (a triple would repeat twice).
            if repeats == 1 && pair.is_none() {
                pair = Some(g);
            }
        }
        match pair {
            Some(g) if depth >= 3 => Small::Exact(Sol {
                total: 2 * n as u32,
                worst: 3,
                guess: g,
            }),
            // Every candidate leaves a part of two or more, and any other guess solves nobody now.
            _ => Small::AtLeast(2 * n as u32),
        }
    }

    /// The guesses worth trying at a node, each with its lower bound, cheapest first; guesses
    /// that cannot beat `limit` or fit `depth` are left out.
    fn candidates(&self, set: &[u32], sym: &Symmetry, limit: u32, depth: u8) -> Vec<Cand> {
        let n = set.len();
        let child_depth = child_limit(depth);
        let identity = sym.is_identity(self.alphabet);
        let mut counts = vec![0u32; self.slots];
        let mut out = Vec::new();
        let mut consider = |g: u32, out: &mut Vec<Cand>| {
            let Some((bound, member)) =
                self.guess_bound(g, set, &mut counts, limit, sym, identity, child_depth)
            else {
                return;
            };
            if bound >= limit {
                return;
            }
            out.push(Cand {
                guess: g,
                bound,
                member,
            });
        };
        // A guess outside the set solves nobody now, so it costs at least `outside_lb[n]`; when
        // that cannot beat the limit only members are worth scanning.
        if self.pool == GuessPool::Consistent || self.outside_lb[n] >= limit {
            set.iter().for_each(|&g| consider(g, &mut out));
        } else if let Some(splits) = self.split_all(set) {
            for g in 0..self.n_codes {
                let Some((bound, member)) = self.admit(n, splits.get(g), child_depth) else {
                    continue;
                };
                if bound >= limit || !(identity || sym.is_canonical(self.space.code(g).symbols())) {
                    continue;
                }
                out.push(Cand {
                    guess: g as u32,
                    bound,
                    member,
                });
            }
        } else {
            // The sets too large for the bulk pass take longest here: look at the clock now and
            // then, and return nothing once stopped (the caller then gives up too).
            for g in 0..self.n_codes as u32 {
                if g % 256 == 255 && self.stop.is_stopped() {
                    self.halted.store(true, Ordering::Relaxed);
                    return Vec::new();
                }
                consider(g, &mut out);
            }
        }
        out.sort_by_key(|c| (c.bound, !c.member, c.guess));
        out
    }

    fn search_node(
        &self,
        set: &[u32],
        sym: &Symmetry,
        limit: u32,
        depth: u8,
        bound: u32,
    ) -> Option<Sol> {
        let cands = self.candidates(set, sym, limit, depth);
        let first_bound = cands.first()?.bound;
        if first_bound.max(bound) >= limit {
            return None;
        }
        let n = set.len();
        let mut dedup = Dedup::new(set, self.slots, self.win);
        if n >= PARALLEL_MIN && cands.len() > 1 {
            let cands: Vec<Cand> = cands
                .into_iter()
                .filter(|c| dedup.fresh(self.row(c.guess)))
                .collect();
            let mut rest = &cands[..];
            // With no limit yet, the first guess's parts are independent: solve them in parallel
            // to get a bound for the others.
            let best = AtomicU64::new(pack(limit, 0));
            let mut sols: Vec<Option<Sol>> = vec![None; cands.len()];
            if limit == INF {
                if let Some(sol) = self.try_guess(set, sym, cands[0], INF, depth, true) {
                    best.store(pack(sol.total, 0), Ordering::Relaxed);
                    sols[0] = Some(sol);
                }
                rest = &cands[1..];
            }
            let offset = cands.len() - rest.len();
            let results: Vec<Option<Sol>> = rest
                .par_iter()
                .enumerate()
                .map(|(i, &c)| {
                    let i = (i + offset) as u32;
                    let (total, index) = unpack(best.load(Ordering::Relaxed));
                    // A guess beats the best if cheaper, or as cheap and earlier in the order.
                    let limit_here = total.saturating_add(u32::from(i < index));
                    if c.bound >= limit_here {
                        return None;
                    }
                    let sol = self.try_guess(set, sym, c, limit_here, depth, false)?;
                    best.fetch_min(pack(sol.total, i), Ordering::Relaxed);
                    Some(sol)
                })
                .collect();
            sols[offset..].copy_from_slice(&results);
            let (total, index) = unpack(best.load(Ordering::Relaxed));
            if total >= limit {
                return None;
            }
            return sols[index as usize];
        }
        let mut best: Option<Sol> = None;
        let mut limit = limit;
        for &c in &cands {
            if c.bound >= limit {
                break;
            }
            if !dedup.fresh(self.row(c.guess)) {
                continue;
            }
            let parallel = limit == INF && best.is_none();
            if let Some(sol) = self.try_guess(set, sym, c, limit, depth, parallel) {
                limit = sol.total;
                best = Some(sol);
            }
        }
        best
    }

    /// The cost of guessing `c.guess` at this node, if below `limit`.
    fn try_guess(
        &self,
        set: &[u32],
        sym: &Symmetry,
        c: Cand,
        limit: u32,
        depth: u8,
        parallel: bool,
    ) -> Option<Sol> {
        let parts = self.parts(set, c.guess);
        let child_sym = sym.after(self.space.code(c.guess as usize).symbols());
        let child_depth = child_limit(depth);
        let mut worst = 1u8;
        let mut total = c.bound;
        if parallel && limit == INF {
            let sols: Vec<Option<Sol>> = parts
                .par_iter()
                .map(|p| {
                    let s = self.solve(p, &child_sym, INF, child_depth);
                    if set.len() == self.root_len {
                        self.progress.solved.fetch_add(1, Ordering::Relaxed);
                    }
                    s
                })
                .collect();
            for (p, s) in parts.iter().zip(sols) {
                let s = s?;
                total += s.total - self.lb[p.len()];
                worst = worst.max(s.worst + 1);
            }
        } else {
            // Sharpen each part's bound with what the cache already proved, so a guess whose
            // later parts are known to be expensive fails before any part is searched.
            // `None` marks the parts the cache knows nothing about.
            let cached: Vec<Option<u32>> = parts
                .iter()
                .map(|p| {
                    let lb = self.lb[p.len()];
                    if p.len() < 3 {
                        return Some(lb);
                    }
                    self.lookup(p, child_depth).map(|e| lb.max(e.bound))
                })
                .collect();
            let mut bounds: Vec<u32> = cached
                .iter()
                .zip(&parts)
                .map(|(c, p)| c.unwrap_or(self.lb[p.len()]))
                .collect();
            for (p, &b) in parts.iter().zip(&bounds) {
                total += b - self.lb[p.len()];
            }
            if total >= limit {
                return None;
            }
            // Then with each part's own one-guess lookahead, which costs one scan per part but
            // rejects most losing guesses before any part is searched in depth.
            if parts.len() > 1 {
                for ((p, b), c) in parts.iter().zip(bounds.iter_mut()).zip(&cached) {
                    if c.is_some() {
                        continue;
                    }
                    let cap = limit - (total - *b);
                    let sharper = self.probe(p, &child_sym, child_depth, *b, cap);
                    if sharper > *b {
                        total += sharper - *b;
                        *b = sharper;
                        if total >= limit {
                            return None;
                        }
                    }
                }
            }
            for (p, &b) in parts.iter().zip(&bounds) {
                let budget = limit - (total - b);
                let s = self.solve(p, &child_sym, budget, child_depth)?;
                total += s.total - b;
                worst = worst.max(s.worst + 1);
            }
        }
        (total < limit).then_some(Sol {
            total,
            worst,
            guess: c.guess,
        })
    }

    /// A lower bound on the total of `set` from the closed forms or a one-guess lookahead (the
    /// cheapest `n + sum LB(part)` over all guesses), remembered in the cache. `known` is a bound
    /// already proven; the caller has checked that the cache knows nothing of the set.
    ///
    /// Guesses are only followed until their bound reaches `cap`; if none stays below it, `cap`
    /// itself is the bound returned (and cached), which is all the caller needs to reject.
    fn probe(&self, set: &[u32], sym: &Symmetry, depth: u8, known: u32, cap: u32) -> u32 {
        let n = set.len();
        if self.levels[n] > depth {
            return INF;
        }
        match self.small(set, depth) {
            Small::Exact(sol) => return sol.total,
            Small::AtLeast(b) => return b.max(known),
            Small::Unknown => {}
        }
        let child_depth = child_limit(depth);
        let identity = sym.is_identity(self.alphabet);
        let mut counts = vec![0u32; self.slots];
        let mut scan = |guesses: &mut dyn Iterator<Item = u32>, mut best: u32| {
            for g in guesses {
                if let Some((bound, _)) =
                    self.guess_bound(g, set, &mut counts, best, sym, identity, child_depth)
                {
                    best = best.min(bound);
                }
            }
            best
        };
        // The bulk passes skip the symmetry check: symmetric guesses have equal bounds, so the
        // minimum is the same either way.
        let best = if self.pool == GuessPool::Consistent || self.outside_lb[n] >= cap {
            scan(&mut set.iter().copied(), cap)
        } else if let Some(score) = (n <= PARTS_FIRST_MAX)
            .then(|| self.part_scores(set))
            .flatten()
        {
            self.min_bound_by_parts(set, &score, child_depth, cap)
        } else if let Some(splits) = self.split_all(set) {
            (0..self.n_codes)
                .filter_map(|g| self.admit(n, splits.get(g), child_depth))
                .fold(cap, |best, (bound, _)| best.min(bound))
        } else {
            scan(&mut (0..self.n_codes as u32), cap)
        };
        let bound = best.max(known);
        if self.halted() {
            return bound;
        }
        if self.memo.put(set, depth, Entry { bound, exact: None }) {
            self.progress.memo.fetch_add(1, Ordering::Relaxed);
        }
        bound
    }

    /// The non-winning parts of `set` under guess `g`, largest first.
    fn parts(&self, set: &[u32], g: u32) -> Vec<Vec<u32>> {
        let row = self.row(g);
        let mut parts: Vec<Vec<u32>> = vec![Vec::new(); self.slots];
        for &s in set {
            parts[usize::from(row[s as usize])].push(s);
        }
        parts[self.win].clear();
        let mut parts: Vec<Vec<u32>> = parts.into_iter().filter(|p| !p.is_empty()).collect();
        parts.sort_by_key(|p| std::cmp::Reverse(p.len()));
        parts
    }

    /// Writes out the tree of an exact result, depth first, each node with its set and level
    /// (1 for `set`), looking the children up in the cache (or re-solving them when they were
    /// closed forms). `None` if the search was stopped meanwhile.
    fn build(
        &self,
        set: &[u32],
        sym: &Symmetry,
        depth: u8,
        sol: Sol,
        level: u32,
        nodes: &mut Vec<(PlanNode, u32)>,
    ) -> Option<NodeId> {
        let id = NodeId(nodes.len() as u32);
        nodes.push((
            PlanNode {
                node: Node {
                    guess: self.space.code(sol.guess as usize),
                    children: Vec::new(),
                },
                set: set.to_vec(),
                guess: sol.guess,
            },
            level,
        ));
        let length = self.space.length();
        let row = self.row(sol.guess);
        let mut parts: Vec<(u8, Vec<u32>)> = Vec::new();
        for &s in set {
            let f = row[s as usize];
            if usize::from(f) == self.win {
                continue;
            }
            match parts.iter_mut().find(|(g, _)| *g == f) {
                Some((_, p)) => p.push(s),
                None => parts.push((f, vec![s])),
            }
        }
        parts.sort_by_key(|(f, _)| *f);
        let child_sym = sym.after(self.space.code(sol.guess as usize).symbols());
        let child_depth = child_limit(depth);
        let mut children = Vec::new();
        for (f, part) in parts {
            let child = self.solve(&part, &child_sym, INF, child_depth);
            let Some(child) = child else {
                assert!(self.halted(), "a part of an optimal tree has a tree");
                return None;
            };
            let child_id = self.build(&part, &child_sym, child_depth, child, level + 1, nodes)?;
            children.push((Feedback::from_index(usize::from(f), length), child_id));
        }
        nodes[id.index()].0.node.children = children;
        Some(id)
    }
}

/// Recognises guesses that split a set exactly as an earlier one did (same parts, same winning
/// part): they have the same cost, so only the first is searched. Used lazily, as guesses are
/// reached, because most candidates of a node are cut by the bound before their turn comes.
struct Dedup<'s> {
    set: &'s [u32],
    win: usize,
    /// The key hash and arena offset of every split seen.
    seen: HashTable<(u64, u32)>,
    /// Every split seen, as part labels per member, one after another.
    labels: Vec<u8>,
    remap: Vec<u8>,
}

impl<'s> Dedup<'s> {
    fn new(set: &'s [u32], slots: usize, win: usize) -> Dedup<'s> {
        Dedup {
            set,
            win,
            seen: HashTable::new(),
            labels: Vec::new(),
            remap: vec![u8::MAX; slots],
        }
    }

    /// Whether the split by score row `row` is new; remembers it.
    fn fresh(&mut self, row: &[u8]) -> bool {
        // Parts are labelled in order of first appearance, so equal splits get equal labels.
        let n = self.set.len();
        let start = self.labels.len();
        self.remap.fill(u8::MAX);
        self.remap[self.win] = 0;
        let mut next = 1u8;
        let mut h = 0u64;
        for &s in self.set {
            let f = usize::from(row[s as usize]);
            if self.remap[f] == u8::MAX {
                self.remap[f] = next;
                next += 1;
            }
            self.labels.push(self.remap[f]);
            h = mix(h, u64::from(self.remap[f]));
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

/// FxHash-style mixing of one more value into a hash: fast, and every user resolves collisions
/// by comparing the keys themselves.
#[inline]
fn mix(h: u64, x: u64) -> u64 {
    (h.rotate_left(5) ^ x).wrapping_mul(0x517C_C1B7_2722_0A95)
}

/// The depth limit left for the parts after one more guess.
fn child_limit(depth: u8) -> u8 {
    if depth == UNLIMITED {
        UNLIMITED
    } else {
        depth - 1
    }
}

fn pack(total: u32, index: u32) -> u64 {
    (u64::from(total) << 32) | u64::from(index)
}

fn unpack(x: u64) -> (u32, u32) {
    ((x >> 32) as u32, x as u32)
}
