//! Bounds on the optimal total of games too large for the exact search to settle.
//!
//! A module of its own beside [`crate::tree`] and [`crate::strategy`], since it uses both: the
//! heuristic picks the guesses of an upper bound's tree and the exact search its endgames.
//!
//! **Upper bound** ([`upper_bound`]): the tree of a strategy, so its total is achievable. Where
//! more than `exact_below` candidates are left a partition heuristic picks the guess; at the top
//! `top_levels` levels its `top` best guesses are each played out to a whole subtree and the
//! cheapest is kept (a rollout); at `exact_below` candidates or fewer the exact search
//! ([`Search::after`]) gives the optimal subtree. The tree is replayed by
//! [`DecisionTree::verify_in`] before it is returned.
//!
//! **Lower bound** ([`lower_bound`]): every strategy opens with some guess `g`, and then pays one
//! guess for every secret plus, on each non-winning part `P` of `g`'s partition, at least the
//! optimal total of `P` alone (a strategy for the whole set restricted to the secrets of `P` is a
//! strategy for `P`). So `OPT >= min over g of (n + sum over parts of B(P))` for any lower bound
//! `B`, and the minimum needs one `g` per symmetry class of first guesses. `B` is, from the
//! cheapest to the strongest:
//!
//! * the level-filling bound `LB(|P|)`: one secret can be solved by the next guess, at most `r`
//!   by the one after (`r` non-winning feedbacks), `r^2` after that, ... (depth 0);
//! * the same argument one guess deeper, `min over g' of (|P| + sum LB(parts of g'))` over every
//!   guess `g'` (depth 1: the exact search's own set bound), and so on for larger depths;
//! * the exact optimum of `P` when it has at most `exact_below` codes, or when a run of the exact
//!   search settled it and wrote it to its checkpoint ([`lower_bound_from`]; a set that run only
//!   bounded counts at least that bound).
//!
//! Each is a lower bound of the optimum of its set, so the result is a proven bound. At depth
//! `d >= 1` guesses are taken in the order of their depth-0 bound, and the loop stops at the first
//! whose depth-0 bound already reaches the best found: a deeper bound is never below the depth-0
//! one, so none of the rest can do better.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::pool::GuessPool;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::strategy::{Knowledge, PartitionScore, PartitionStrategy};
use crate::symmetry::Symmetry;
use crate::tree::{
    DecisionTree, Node, NodeId, ProvenSets, Search, SearchError, SearchOptions, SearchOutcome,
    SetPlan, TreeStats,
};

/// How [`upper_bound`] and [`lower_bound`] work.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct BoundOptions {
    /// The rule that picks guesses where too many candidates are left for the exact search.
    pub heuristic: PartitionScore,
    /// Positions with at most this many candidates are solved exactly.
    pub exact_below: usize,
    /// How many of the heuristic's best guesses a rollout tries at the top levels.
    pub top: usize,
    /// How many levels from the root try `top` guesses (below them the heuristic's first).
    pub top_levels: usize,
    /// For the lower bound: how many guesses past the first its parts' bounds look ahead.
    pub depth: u32,
}

impl Default for BoundOptions {
    fn default() -> BoundOptions {
        BoundOptions {
            heuristic: PartitionScore::Entropy,
            exact_below: 32,
            top: 1,
            top_levels: 0,
            depth: 1,
        }
    }
}

/// Counters a bound updates as it goes, for a display on another thread.
#[derive(Debug, Default)]
pub struct BoundProgress {
    /// Positions settled by the exact search (or, for the lower bound, parts bounded).
    pub sets: AtomicU64,
    /// The codes in them.
    pub codes: AtomicU64,
}

impl BoundProgress {
    fn settled(&self, codes: usize) {
        self.sets.fetch_add(1, Ordering::Relaxed);
        self.codes.fetch_add(codes as u64, Ordering::Relaxed);
    }
}

/// Why a bound could not be computed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoundError {
    /// The exact search of an endgame failed (or was stopped).
    #[error(transparent)]
    Search(#[from] SearchError),
    /// The built tree did not replay as built, which is a bug.
    #[error("the strategy's tree does not replay as built: {0}")]
    Replay(String),
}

/// A strategy's tree of the whole game: an upper bound on the optimal total.
#[derive(Debug, Clone)]
pub struct UpperBound {
    /// The tree.
    pub tree: DecisionTree,
    /// Its replayed statistics.
    pub stats: TreeStats,
}

/// A subtree under construction: its nodes with ids local to it (its root is 0) and its total.
struct Sub {
    nodes: Vec<Node>,
    total: u64,
}

impl Sub {
    /// Appends `child`, reached from this subtree's root by `feedback`, shifting its ids.
    fn graft(&mut self, feedback: Feedback, child: Sub) {
        self.total += child.total;
        let offset = self.nodes.len() as u32;
        self.nodes[0].children.push((feedback, NodeId::new(offset)));
        self.nodes.extend(child.nodes.into_iter().map(|mut node| {
            for (_, id) in &mut node.children {
                *id = NodeId::new(id.index() as u32 + offset);
            }
            node
        }));
    }
}

/// What every step of one bound shares.
struct Ctx<'a> {
    space: &'a CodeSpace,
    options: &'a BoundOptions,
    search: SearchOptions,
    stop: &'a Stop,
    progress: &'a BoundProgress,
    /// What a checkpoint of the exact search proved about sets (empty unless given).
    known: &'a ProvenSets,
}

impl<'a> Ctx<'a> {
    /// Both bounds' context: the exact search they call on small sets runs with the default
    /// options.
    fn new(
        space: &'a CodeSpace,
        options: &'a BoundOptions,
        stop: &'a Stop,
        progress: &'a BoundProgress,
        known: &'a ProvenSets,
    ) -> Ctx<'a> {
        Ctx {
            space,
            options,
            search: SearchOptions::default(),
            stop,
            progress,
            known,
        }
    }

    /// The checkpoint's best lower bound of `set`, and whether it is its optimum.
    fn proven(&self, set: &CodeSet) -> Option<(u64, bool)> {
        if self.known.is_empty() {
            return None;
        }
        self.known
            .bound(set.as_slice())
            .map(|(bound, exact)| (u64::from(bound), exact))
    }

    /// The optimal plan of a position, from the exact search.
    fn exact(&self, history: &History, set: &CodeSet) -> Result<SetPlan, BoundError> {
        let found = Search::after(self.space, history, set)
            .options(&self.search)
            .stop(self.stop)
            .run()?;
        let SearchOutcome::Found(plan) = found else {
            unreachable!("the search has no depth limit")
        };
        self.progress.settled(set.len());
        Ok(plan)
    }

    fn check(&self) -> Result<(), BoundError> {
        if self.stop.is_stopped() {
            Err(SearchError::Stopped.into())
        } else {
            Ok(())
        }
    }
}

/// Builds the tree of the strategy described in the [module docs](self) and replays it.
pub fn upper_bound(
    space: &CodeSpace,
    options: &BoundOptions,
    stop: &Stop,
    progress: &BoundProgress,
) -> Result<UpperBound, BoundError> {
    let known = ProvenSets::default();
    let ctx = Ctx::new(space, options, stop, progress, &known);
    let sub = build(&ctx, &History::new(), space.all())?;
    let total = sub.total;
    let tree = DecisionTree::from_nodes(space.rules().clone(), sub.nodes);
    let stats = tree
        .verify_in(space)
        .map_err(|e| BoundError::Replay(e.to_string()))?;
    if stats.total != total {
        return Err(BoundError::Replay(format!(
            "built for {total} guesses in total, replayed {}",
            stats.total
        )));
    }
    Ok(UpperBound { tree, stats })
}

/// The subtree of the position `history` leaves, whose candidates are `set`.
fn build(ctx: &Ctx<'_>, history: &History, set: CodeSet) -> Result<Sub, BoundError> {
    ctx.check()?;
    if set.len() == 1 {
        let code = ctx.space.code(set.as_slice()[0] as usize);
        return Ok(Sub {
            nodes: vec![Node {
                guess: code,
                children: Vec::new(),
            }],
            total: 1,
        });
    }
    if set.len() <= ctx.options.exact_below {
        let plan = ctx.exact(history, &set)?;
        return Ok(plan_sub(ctx.space, &plan, set));
    }
    let top = if history.len() < ctx.options.top_levels {
        ctx.options.top.max(1)
    } else {
        1
    };
    let strategy = PartitionStrategy::new(ctx.options.heuristic, GuessPool::All);
    let knowledge = Knowledge::new(ctx.space, history, &set);
    let mut best: Option<Sub> = None;
    for (guess, _) in strategy.ranked(&knowledge, top) {
        let sub = with_guess(ctx, history, &set, guess)?;
        if best.as_ref().is_none_or(|b| sub.total < b.total) {
            best = Some(sub);
        }
    }
    Ok(best.expect("a set of two or more codes has a best guess"))
}

/// The subtree that plays `guess` on `set`, its parts built in parallel.
fn with_guess(
    ctx: &Ctx<'_>,
    history: &History,
    set: &CodeSet,
    guess: Code,
) -> Result<Sub, BoundError> {
    let length = ctx.space.length();
    let parts: Vec<(Feedback, CodeSet)> = ctx
        .space
        .partition_code(&guess, set)
        .into_iter()
        .filter(|(f, _)| !f.is_win(length))
        .collect();
    let children = parts
        .into_par_iter()
        .map(|(feedback, part)| {
            let mut h = history.clone();
            h.push(guess, feedback);
            Ok((feedback, build(ctx, &h, part)?))
        })
        .collect::<Result<Vec<_>, BoundError>>()?;
    let mut sub = Sub {
        nodes: vec![Node {
            guess,
            children: Vec::new(),
        }],
        total: set.len() as u64,
    };
    for (feedback, child) in children {
        sub.graft(feedback, child);
    }
    Ok(sub)
}

/// The subtree of an exact plan of `set`: each set the plan reaches plays the plan's guess.
fn plan_sub(space: &CodeSpace, plan: &SetPlan, set: CodeSet) -> Sub {
    let guesses: HashMap<&CodeSet, u32> = plan.moves.iter().map(|m| (&m.set, m.guess)).collect();
    let mut nodes = Vec::new();
    // Depth first, children in feedback order, as trees are stored.
    let mut stack: Vec<(Option<(usize, Feedback)>, CodeSet)> = vec![(None, set)];
    while let Some((parent, set)) = stack.pop() {
        let guess = match guesses.get(&set) {
            Some(&g) => g as usize,
            // The plan need not list a lone code: it is guessed.
            None if set.len() == 1 => set.as_slice()[0] as usize,
            None => unreachable!("an optimal plan has a guess for every set it reaches"),
        };
        let id = nodes.len();
        if let Some((p, feedback)) = parent {
            let nodes: &mut Vec<Node> = &mut nodes;
            nodes[p].children.push((feedback, NodeId::new(id as u32)));
        }
        nodes.push(Node {
            guess: space.code(guess),
            children: Vec::new(),
        });
        let mut parts: Vec<(Feedback, CodeSet)> = space
            .partition(guess, &set)
            .into_iter()
            .filter(|(f, _)| !f.is_win(space.length()))
            .collect();
        parts.reverse();
        stack.extend(parts.into_iter().map(|(f, p)| (Some((id, f)), p)));
    }
    Sub {
        nodes,
        total: plan.total,
    }
}

/// A proven lower bound on the optimal total of the whole game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LowerBound {
    /// The bound: no strategy takes fewer guesses in total.
    pub total: u64,
    /// For each class of first guesses, a representative and the bound of every strategy that
    /// opens with it, smallest first.
    pub openings: Vec<(Code, u64)>,
    /// The first opening's parts (the non-winning feedbacks of its partition), in feedback order.
    pub parts: Vec<PartBound>,
}

/// One part of an opening's partition in a [`LowerBound`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartBound {
    /// The feedback to the first guess that leaves the part.
    pub feedback: Feedback,
    /// How many codes it holds.
    pub codes: usize,
    /// A lower bound on its optimal total (counting from the second guess).
    pub bound: u64,
    /// Whether the bound is the part's optimum: solved exactly, or settled in the checkpoint.
    pub exact: bool,
}

/// The lower bound described in the [module docs](self), at `options.depth` guesses of
/// lookahead past the first and with exact optima for parts of at most `options.exact_below`.
pub fn lower_bound(
    space: &CodeSpace,
    options: &BoundOptions,
    stop: &Stop,
    progress: &BoundProgress,
) -> Result<LowerBound, BoundError> {
    lower_bound_from(space, options, &ProvenSets::default(), stop, progress)
}

/// [`lower_bound`], counting every set that `known` (a checkpoint of the exact search of the
/// same game, [`ProvenSets::read`]) settled at its optimum and every set it bounded at least at
/// that bound: so a long exact run, while it goes on or after it was stopped, tightens the
/// bound by the parts it has proven.
pub fn lower_bound_from(
    space: &CodeSpace,
    options: &BoundOptions,
    known: &ProvenSets,
    stop: &Stop,
    progress: &BoundProgress,
) -> Result<LowerBound, BoundError> {
    let ctx = Ctx::new(space, options, stop, progress, known);
    let levels = Levels::new(space);
    let firsts = Search::whole(space).first_guesses(None)?;
    let mut openings = firsts
        .into_iter()
        .map(|g| {
            let parts = opening_parts(&ctx, &levels, g)?;
            let bound = space.len() as u64 + parts.iter().map(|p| p.bound).sum::<u64>();
            Ok((space.code(g as usize), bound, parts))
        })
        .collect::<Result<Vec<_>, BoundError>>()?;
    openings.sort_by_key(|&(_, b, _)| b);
    let total = openings.first().map_or(0, |&(_, b, _)| b);
    let parts = openings
        .first_mut()
        .map(|(_, _, parts)| std::mem::take(parts))
        .unwrap_or_default();
    let openings = openings.into_iter().map(|(code, b, _)| (code, b)).collect();
    Ok(LowerBound {
        total,
        openings,
        parts,
    })
}

/// The bound of every non-winning part of the first guess `g`, each in full (no cap).
fn opening_parts(ctx: &Ctx<'_>, levels: &Levels, g: u32) -> Result<Vec<PartBound>, BoundError> {
    let space = ctx.space;
    let guess = space.code(g as usize);
    let length = space.length();
    space
        .partition(g as usize, &space.all())
        .into_iter()
        .filter(|(f, _)| !f.is_win(length))
        .map(|(feedback, part)| {
            let mut history = History::new();
            history.push(guess, feedback);
            let depth = ctx.options.depth;
            let bound = set_bound(ctx, levels, &history, &part, depth, u64::MAX)?;
            let exact = part.len() <= 2.max(ctx.options.exact_below)
                || ctx.proven(&part).is_some_and(|(_, exact)| exact);
            Ok(PartBound {
                feedback,
                codes: part.len(),
                bound,
                exact,
            })
        })
        .collect()
}

/// The level-filling bounds of one game: `total[n]` is the least total of any set of `n`.
struct Levels {
    total: Vec<u64>,
}

impl Levels {
    fn new(space: &CodeSpace) -> Levels {
        // The non-winning feedbacks: bulls + cows at most the length, less the win and `len - 1`
        // bulls with a cow. More than a game has only lowers the bound, which stays sound.
        let len = space.length() as u64;
        let r = ((len + 1) * (len + 2) / 2).saturating_sub(2).max(1);
        let total = (0..=space.len() as u64)
            .map(|n| {
                let (mut left, mut cap, mut level, mut total) = (n, 1u64, 1u64, 0u64);
                while left > 0 {
                    let here = left.min(cap);
                    total += here * level;
                    left -= here;
                    cap = cap.saturating_mul(r);
                    level += 1;
                }
                total
            })
            .collect();
        Levels { total }
    }

    fn of(&self, n: usize) -> u64 {
        self.total[n]
    }
}

/// A lower bound on the optimal total of `set` (the candidates `history` leaves) with `depth`
/// guesses of lookahead, or what the checkpoint proved if that is more; `cap` is a value the
/// caller is content with: a bound that reaches it may stop there.
fn set_bound(
    ctx: &Ctx<'_>,
    levels: &Levels,
    history: &History,
    set: &CodeSet,
    depth: u32,
    cap: u64,
) -> Result<u64, BoundError> {
    let proven = match ctx.proven(set) {
        Some((bound, exact)) if exact || bound >= cap => return Ok(bound),
        Some((bound, _)) => bound,
        None => 0,
    };
    // From here on, what the checkpoint proved only raises the bound found by the levels, the
    // exact search or the lookahead.
    let n = set.len();
    if n <= 2 {
        return Ok(levels.of(n).max(proven));
    }
    if n <= ctx.options.exact_below {
        return Ok(ctx.exact(history, set)?.total.max(proven));
    }
    if depth == 0 {
        return Ok(levels.of(n).max(proven));
    }
    ctx.check()?;
    let sym = history
        .turns()
        .iter()
        .fold(Symmetry::new(ctx.space.rules()), |sym, turn| {
            sym.after(turn.guess.symbols())
        });
    let space = ctx.space;
    let slots = space.rules().feedback_slots();
    let win = Feedback::win(space.length()).index(space.length());
    // The depth-0 bound of every guess not equivalent to an earlier one.
    let mut order: Vec<(u64, u32)> = (0..space.len() as u32)
        .into_par_iter()
        .filter(|&g| sym.is_canonical(space.code(g as usize).symbols()))
        .map_init(
            || vec![0u32; slots],
            |counts, g| {
                counts.iter_mut().for_each(|c| *c = 0);
                space.partition_counts(g as usize, set, counts);
                counts[win] = 0;
                let parts: u64 = counts.iter().map(|&c| levels.of(c as usize)).sum();
                (n as u64 + parts, g)
            },
        )
        .collect();
    order.sort_unstable();
    let mut best = cap;
    for (cheap, g) in order {
        if cheap >= best {
            break;
        }
        best = best.min(guess_bound(ctx, levels, history, set, g, depth - 1, best)?);
    }
    ctx.progress.settled(n);
    Ok(best.max(proven))
}

/// A lower bound on the total of every strategy that plays `g` on `set`: `|set|` plus a bound
/// of each non-winning part at `depth`. Stops summing once it reaches `cap`.
fn guess_bound(
    ctx: &Ctx<'_>,
    levels: &Levels,
    history: &History,
    set: &CodeSet,
    g: u32,
    depth: u32,
    cap: u64,
) -> Result<u64, BoundError> {
    let space = ctx.space;
    let guess = space.code(g as usize);
    let parts: Vec<(Feedback, CodeSet)> = space
        .partition(g as usize, set)
        .into_iter()
        .filter(|(f, _)| !f.is_win(space.length()))
        .collect();
    // Every part counted at its level bound first, each raised as its own bound comes in.
    let mut total = set.len() as u64 + parts.iter().map(|(_, p)| levels.of(p.len())).sum::<u64>();
    for (feedback, part) in parts {
        if total >= cap {
            break;
        }
        let mut h = history.clone();
        h.push(guess, feedback);
        let floor = levels.of(part.len());
        let room = cap.saturating_sub(total).saturating_add(floor);
        let bound = set_bound(ctx, levels, &h, &part, depth, room)?;
        total += bound.max(floor) - floor;
    }
    Ok(total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Rules;

    fn space(length: usize, symbols: &str) -> CodeSpace {
        CodeSpace::new(Rules::new(length, symbols, true, false).unwrap()).unwrap()
    }

    fn options(depth: u32, exact_below: usize) -> BoundOptions {
        BoundOptions {
            depth,
            exact_below,
            ..BoundOptions::default()
        }
    }

    fn lower(space: &CodeSpace, options: &BoundOptions) -> u64 {
        lower_bound(space, options, &Stop::never(), &BoundProgress::default())
            .unwrap()
            .total
    }

    /// Lower bounds never pass the proven optimum (the first table of docs/src/exact-results.md),
    /// and looking deeper or solving more parts exactly never weakens them.
    #[test]
    fn lower_bounds_stay_below_the_optimum_and_grow_with_depth() {
        for (length, symbols, optimum) in [
            (4, "123456", 5625),
            (3, "123456", 854),
            (3, "0123456789", 5242),
        ] {
            let space = space(length, symbols);
            let by_depth: Vec<u64> = (0..=2).map(|d| lower(&space, &options(d, 0))).collect();
            assert!(by_depth.windows(2).all(|w| w[0] <= w[1]), "{by_depth:?}");
            assert!(by_depth[2] <= optimum, "{by_depth:?} against {optimum}");
            let with_exact = lower(&space, &options(1, 24));
            assert!(
                by_depth[1] <= with_exact && with_exact <= optimum,
                "{with_exact}"
            );
        }
        // Deep enough, the bound is close: 5612 of 5625 at depth 2.
        assert!(lower(&space(4, "123456"), &options(2, 0)) >= 5600);
    }

    /// A checkpoint of the exact search settles parts: with the parts of the one opening of
    /// Bulls and Cows 3 of 0-5 written down, the lower bound is the optimum, where without it
    /// it is below; a set bounded but not solved counts at its bound; the file is only read.
    #[test]
    fn a_checkpoint_lifts_the_lower_bound_to_what_it_settled() {
        use crate::tree::{Checkpoint, SearchOutcome};
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        let path = std::env::temp_dir().join(format!("moo-bound-ckpt-{}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let search = SearchOptions::default();
        let checkpoint = Checkpoint::open(&path, &space, &search)
            .unwrap()
            .with_min_set(3);
        let Ok(SearchOutcome::Found(optimal)) = Search::whole(&space).checkpoint(&checkpoint).run()
        else {
            panic!("no tree")
        };
        drop(checkpoint);
        let written = std::fs::read(&path).unwrap();
        let known = ProvenSets::read(&path, &space).unwrap();
        assert!(!known.is_empty());
        assert_eq!(std::fs::read(&path).unwrap(), written);
        let run = |known: &ProvenSets| {
            let options = options(1, 0);
            lower_bound_from(
                &space,
                &options,
                known,
                &Stop::never(),
                &BoundProgress::default(),
            )
            .unwrap()
        };
        let plain = run(&ProvenSets::default());
        let lifted = run(&known);
        assert!(plain.total < optimal.stats.total, "{}", plain.total);
        assert_eq!(lifted.total, optimal.stats.total);
        // Parts of 3 codes or fewer are settled by closed forms, not written down.
        let mut written_down = lifted.parts.iter().filter(|p| p.codes > 3);
        assert!(written_down.all(|p| p.exact), "{:?}", lifted.parts);
        assert!(plain.parts.iter().any(|p| !p.exact));
        assert_eq!(
            lifted.parts.iter().map(|p| p.codes).sum::<usize>() + 1,
            space.len()
        );
        // A part's bound alone (no solution) still counts: keep only the bounds of the
        // largest part, raised above its level-filling bound by hand.
        let text = String::from_utf8(written).unwrap();
        let largest = lifted.parts.iter().max_by_key(|p| p.codes).unwrap();
        let first = space.index_of(&lifted.openings[0].0).unwrap();
        let (_, members) = space
            .partition(first, &space.all())
            .into_iter()
            .find(|(f, _)| *f == largest.feedback)
            .unwrap();
        let members: Vec<String> = members.iter().map(|m| m.to_string()).collect();
        let header = text.lines().next().unwrap();
        let body = format!("0 255 {} - - - {}", largest.bound, members.join(","));
        let sum = crate::text::fnv1a(&body);
        std::fs::write(&path, format!("{header}\n{body} {sum:016x}\n")).unwrap();
        let bounded = run(&ProvenSets::read(&path, &space).unwrap());
        let part = bounded
            .parts
            .iter()
            .find(|p| p.feedback == largest.feedback)
            .unwrap();
        assert_eq!((part.bound, part.exact), (largest.bound, false));
        // Another search's file is refused, and a missing one is not created.
        let other = SearchOptions::default().with_max_depth(Some(9));
        std::fs::remove_file(&path).unwrap();
        drop(Checkpoint::open(&path, &space, &other).unwrap());
        let err = ProvenSets::read(&path, &space).unwrap_err();
        assert!(err.to_string().contains("another search"), "{err}");
        std::fs::remove_file(&path).unwrap();
        assert!(ProvenSets::read(&path, &space).is_err());
        assert!(!path.exists());
    }

    /// A tree with every position solved exactly is the optimum; a heuristic one replays and is
    /// never better.
    #[test]
    fn upper_bounds_replay_and_meet_the_optimum_when_all_is_exact() {
        let space = space(4, "123456");
        let run = |options: &BoundOptions| {
            upper_bound(&space, options, &Stop::never(), &BoundProgress::default()).unwrap()
        };
        let exact = run(&options(0, 1296));
        assert_eq!(exact.stats.total, 5625);
        assert_eq!(exact.tree.verify_in(&space).unwrap(), exact.stats);
        for (exact_below, top, top_levels) in [(0, 1, 0), (16, 1, 0), (100, 3, 1)] {
            let options = BoundOptions {
                exact_below,
                top,
                top_levels,
                ..BoundOptions::default()
            };
            let upper = run(&options);
            assert!(upper.stats.total >= 5625);
            assert_eq!(upper.tree.verify_in(&space).unwrap(), upper.stats);
        }
        // The rollout keeps the cheapest of the heuristic's best first guesses.
        let plain = run(&options(0, 100)).stats.total;
        let rolled = run(&BoundOptions {
            top: 5,
            top_levels: 1,
            ..options(0, 100)
        })
        .stats
        .total;
        assert!(rolled <= plain, "{rolled} > {plain}");
    }

    /// The trees `moo tree bound` found for the games no single exact search here settles
    /// (docs/src/exact-results.md, "Bounds"), gzipped: each replays with the total the book
    /// gives, Mastermind 5x8's beats the best known strategy (179274), and Mastermind 5x7's and
    /// Bulls and Cows 5 of 0-8's are above the optima their split runs proved (85645, 81847).
    #[test]
    fn shipped_bound_trees_replay_with_their_totals() {
        for (gz, total) in SHIPPED {
            let tree = crate::tree::gunzipped_tree(gz);
            let stats = tree.verify().unwrap();
            assert_eq!(stats.total, *total, "{}", tree.rules().describe());
        }
        assert!(SHIPPED[0].1 < 179_274);
        assert!(SHIPPED[1].1 > crate::published::MASTERMIND_5X7.total);
        assert!(SHIPPED[3].1 > crate::published::BULLS_5_OF_0_8.total);
    }

    const SHIPPED: &[(&[u8], u64)] = &[
        (
            include_bytes!("../trees/mastermind-5x8-bound.json.gz"),
            178699,
        ),
        (
            include_bytes!("../trees/mastermind-5x7-bound.json.gz"),
            86225,
        ),
        (include_bytes!("../trees/bulls-5x10-bound.json.gz"), 172062),
        (include_bytes!("../trees/bulls-5x9-bound.json.gz"), 82095),
    ];
}
