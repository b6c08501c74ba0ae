use super::bulk::MAX_SET;
use super::levels::LevelBounds;
use super::orbits::Orbits;
use super::recursion::Solver;
use super::solved::INF;
use super::solved::UNLIMITED;
use super::*;
use crate::rules::{games, Rules};

/// Every set two guesses can leave in `space`, from a few first guesses, with the symmetry
/// the search would have there.
fn sets(space: &CodeSpace) -> Vec<(Vec<u32>, Symmetry)> {
    let all: Vec<u32> = (0..space.len() as u32).collect();
    let split = |set: &[u32], g: u32| {
        let mut parts: Vec<Vec<u32>> = vec![Vec::new(); space.rules().feedback_slots()];
        for &s in set {
            parts[usize::from(space.score_index(g as usize, s as usize))].push(s);
        }
        parts.into_iter().filter(|p| p.len() > 2)
    };
    let mut out = Vec::new();
    let root = Symmetry::new(space.rules());
    for g in [0, space.len() as u32 / 2] {
        let sym = root.after(space.code(g as usize).symbols());
        for part in split(&all, g) {
            for h in [1, space.len() as u32 / 3] {
                let sym2 = sym.after(space.code(h as usize).symbols());
                out.extend(split(&part, h).map(|p| (p, sym2.clone())));
            }
            out.push((part, sym.clone()));
        }
    }
    out
}

/// Runs `test` on a fresh single-threaded search of each game, every code a guess: the setup
/// the tests of the search's parts share.
fn each_search(games: impl IntoIterator<Item = Rules>, mut test: impl FnMut(&CodeSpace, &Solver)) {
    for rules in games {
        let space = CodeSpace::new(rules).unwrap();
        let (progress, stop) = (Progress::new(), Stop::never());
        let search = Solver::new(&space, GuessPool::All, &progress, &stop, 1, None, 1 << 24);
        test(&space, &search);
    }
}

/// A failed search's bound is proven: never above the optimum, never below the limit asked.
#[test]
fn failures_bound_the_optimum() {
    for rules in games("3 012345, 3 1234 repeats") {
        let space = CodeSpace::new(rules).unwrap();
        let (progress, stop) = (Progress::new(), Stop::never());
        let fresh = || Solver::new(&space, GuessPool::All, &progress, &stop, 1, None, 1 << 24);
        let sets = sets(&space);
        assert!(sets.len() > 20);
        for (set, sym) in &sets {
            for depth in [UNLIMITED, 3] {
                let Ok(opt) = fresh().solve_within(set, sym, INF, depth) else {
                    assert_eq!(fresh().solve_within(set, sym, 1000, depth), Err(INF));
                    continue;
                };
                // One search reused across limits, as the recursion reuses its cache.
                let shared = fresh();
                for limit in (set.len() as u32..opt.total + 3).rev() {
                    for search in [&fresh(), &shared] {
                        match search.solve_within(set, sym, limit, depth) {
                            Ok(sol) => {
                                assert!(limit > opt.total);
                                assert_eq!(sol, opt);
                            }
                            Err(lb) => {
                                assert!(limit <= opt.total, "{set:?} failed under {limit}");
                                assert!(lb >= limit && lb <= opt.total, "{lb} for {opt:?}");
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The guesses a node tries are the canonical ones, whether its symmetries are checked code by
/// code or read from the bits kept by the symbols played, and those bits are shared only by
/// histories that play the same symbols.
#[test]
fn orbits_try_the_canonical_guesses() {
    each_search(
        games("4 0123456789 no-leading, 4 123456 repeats, 3 012345"),
        |space, search| {
            let n = space.len();
            let mut histories: Vec<[usize; 2]> = [0, n / 2, n - 1]
                .into_iter()
                .flat_map(|g| [1, n / 3, n / 5, n - 2].map(|h| [g, h]))
                .collect();
            // Two guesses with repeats that no permutation of positions fixes together, where
            // the game has them.
            let index = |symbols: &[u8]| {
                space.index_of(&crate::code::Code::from_symbols(&symbols[..space.length()]))
            };
            if let (Some(g), Some(h)) = (index(&[0, 0, 1, 2]), index(&[0, 1, 0, 3])) {
                histories.push([g, h]);
            }
            let root = Symmetry::new(space.rules());
            let mut marked = 0;
            for [g, h] in histories {
                let first = root.after(space.code(g).symbols());
                let second = first.after(space.code(h).symbols());
                for sym in [&root, &first, &second] {
                    let orbits = search.bounds.orbits(sym);
                    marked += usize::from(matches!(orbits, Orbits::Marked(_)));
                    for c in 0..n {
                        assert_eq!(
                            orbits.tries(space, c),
                            sym.is_canonical(space.code(c).symbols()),
                            "{:?} after {:?} and {:?}",
                            space.code(c),
                            space.code(g),
                            space.code(h)
                        );
                    }
                }
            }
            assert!(
                marked > 0,
                "no history left only unplayed symbols to rename"
            );
        },
    );
}

/// The bulk pass's test of the largest part, `c <= largest_within(d)`, is the level bound's
/// `levels(c) <= d`, for every part size it sees and every depth left.
#[test]
fn largest_within_matches_the_level_test() {
    for (branches, n) in [(13usize, 5040usize), (2, 300), (1, 20)] {
        let bounds = LevelBounds::new(branches, n, None);
        for depth in (0..=12).chain([UNLIMITED - 1, UNLIMITED]) {
            let largest = usize::from(bounds.largest_within(depth));
            for c in 0..=MAX_SET.min(n) {
                assert_eq!(
                    c <= largest,
                    bounds.levels(c) <= depth,
                    "{branches} branches, part of {c}, {depth} left"
                );
            }
        }
    }
}

/// The guesses [`super::candidates::FloorOrder`] gives, under a fixed limit, are those
/// [`super::candidates::candidates`] keeps below it, with the same bounds and in the order they
/// are tried in ([`super::candidates::Candidate::order`]), and the bound it stops at is the
/// least of those left out by the one or by the other: so the search in floor order tries the
/// same guesses in the same order, and proves as much when it fails.
#[test]
fn the_floor_order_is_the_candidates_order() {
    use super::candidates::{candidates, Candidate, FloorOrder, GuessOrder, Next};
    each_search(
        games("4 123456 repeats, 3 012345, 5 1234 repeats"),
        |space, search| {
            let stop = Stop::never();
            let bounds = &search.bounds;
            let mut compared = 0;
            for (set, sym) in sets(space) {
                let orbits = bounds.orbits(&sym);
                let n = set.len() as u32;
                for depth in [UNLIMITED, 4, 3] {
                    for limit in [2 * n + 2, 2 * n + n / 2, 3 * n - 4, 3 * n] {
                        let Some((mut order, left_out)) =
                            FloorOrder::new(bounds, &set, &orbits, limit, depth)
                        else {
                            continue;
                        };
                        let mut taken = Vec::new();
                        let stopped_at = loop {
                            match order.next(limit) {
                                Next::Try(c) => taken.push(c.key()),
                                Next::Done(bound) => break bound,
                            }
                        };
                        let (cands, least) = candidates(bounds, &set, &orbits, limit, depth, &stop)
                            .expect("never stopped");
                        let mut keys: Vec<u64> = cands.iter().map(Candidate::key).collect();
                        keys.sort_unstable();
                        let at = format!("{} codes, limit {limit}, depth {depth}", n);
                        assert_eq!(taken, keys, "{at}");
                        assert!(stopped_at >= limit, "{at}");
                        // Both bound what they leave out from below; the exact bounds the floor
                        // order counts can only be sharper than the floors the candidates keep.
                        assert!(left_out.min(stopped_at) >= least.min(limit), "{at}");
                        compared += 1;
                    }
                }
            }
            assert!(compared > 20, "only {compared} sets compared");
        },
    );
}

/// The lookahead of a part from its set's ranked guesses ([`super::ranked::Ranked`]) is the
/// lookahead over every guess, under every cap and depth, whichever block of ranks it stops at.
#[test]
fn ranked_lookaheads_are_the_full_ones() {
    use super::parts::Parts;
    use super::ranked::Ranked;
    use super::solved::child_limit;
    each_search(games("4 123456 repeats, 3 012345"), |space, search| {
        let bounds = &search.bounds;
        let mut compared = 0;
        let mut below_cap = 0;
        for (set, sym) in sets(space) {
            let orbits = bounds.orbits(&sym);
            let ranked = Ranked::new(&set);
            for g in [0, space.len() as u32 / 7, space.len() as u32 - 1] {
                let parts = Parts::new(bounds, &set, g);
                let at: Vec<Option<&[u8]>> = match parts.at() {
                    Some(at) => at.map(Some).collect(),
                    None => parts.iter().map(|_| None).collect(),
                };
                for (part, at) in parts.iter().zip(at).filter(|(p, _)| p.len() > 2) {
                    let n = part.len() as u32;
                    for depth in [UNLIMITED, 4, 3] {
                        for cap in [2 * n, 2 * n + 2, 2 * n + n / 2, 3 * n, INF] {
                            if !bounds.counts_parts_first(part.len(), depth, cap) {
                                continue;
                            }
                            let full = bounds.lookahead(part, &orbits, depth, cap);
                            // The first asks are answered the old way, before the set ranks.
                            let Some(fast) =
                                ranked.min_bound(bounds, (part, None), child_limit(depth), cap)
                            else {
                                continue;
                            };
                            assert_eq!(fast, full, "{n} codes, cap {cap}, depth {depth}");
                            // The members' positions as the try knows them give the same.
                            let by_at =
                                ranked.min_bound(bounds, (part, at), child_limit(depth), cap);
                            assert_eq!(by_at, Some(full), "{n} codes, positions given");
                            compared += 1;
                            below_cap += usize::from(full < cap);
                        }
                    }
                }
            }
        }
        assert!(compared > 100, "only {compared} parts compared");
        assert!(below_cap > 20, "only {below_cap} bounds below the cap");
    });
}

/// The parts floor of a guess's score never exceeds the guess's one-guess bound, and the
/// lookahead of a set too large for the byte counters, which counts only the guesses that floor
/// leaves below the best found, is the least bound over every guess counted one by one.
#[test]
fn large_lookaheads_by_floors_are_the_full_ones() {
    use super::solved::child_limit;
    each_search(
        games("4 123456 repeats, 5 1234 repeats"),
        |space, search| {
            let bounds = &search.bounds;
            let all: Vec<u32> = (0..space.len() as u32).collect();
            let mut large: Vec<(Vec<u32>, Symmetry)> = sets(space)
                .into_iter()
                .filter(|(set, _)| set.len() > MAX_SET)
                .collect();
            large.push((all, Symmetry::new(space.rules())));
            let mut counts = vec![0; bounds.slots];
            let mut floors = 0;
            for (set, sym) in &large {
                let orbits = bounds.orbits(sym);
                let n = set.len() as u32;
                for depth in [UNLIMITED, 5, 4] {
                    let d = child_limit(depth);
                    let each: Vec<Option<u32>> = (0..space.len() as u32)
                        .map(|g| {
                            let split = bounds.split_bound(g, set, &mut counts, INF, d)?;
                            let (bound, member) = bounds.bound_of_split(set.len(), split, d)?;
                            let score = split.parts + u32::from(member);
                            if depth == UNLIMITED {
                                assert!(bounds.level.parts_floor(set.len(), score) <= bound);
                                floors += 1;
                            }
                            Some(bound)
                        })
                        .collect();
                    let least = each.iter().flatten().copied().min().unwrap_or(INF);
                    for cap in [3 * n, least, least + 1, INF] {
                        let fast = bounds.lookahead(set, &orbits, depth, cap);
                        assert_eq!(fast, least.min(cap), "{n} codes, cap {cap}, depth {depth}");
                    }
                }
            }
            assert!(large.len() > 1, "only {} large sets", large.len());
            assert!(floors > 1000, "only {floors} floors compared");
        },
    );
}

/// The columns a set searched in parallel gathers, a block of guesses at a time and out of
/// their index order, hold each member's feedback against each guess, and a try's parts formed
/// from them are the parts formed from the score table.
#[test]
fn gathered_columns_are_the_feedbacks() {
    use super::columns::Columns;
    use super::parts::Parts;
    let space = CodeSpace::new(Rules::new(4, "123456", true, false).unwrap()).unwrap();
    let (progress, stop) = (Progress::new(), Stop::never());
    let search = Solver::new(&space, GuessPool::All, &progress, &stop, 1, None, 1 << 24);
    let bounds = &search.bounds;
    let mut checked = 0;
    for (set, _) in sets(&space).into_iter().filter(|(set, _)| set.len() > 1) {
        // More guesses than a block, in an order that is not the index order.
        let guesses: Vec<u32> = (0..space.len() as u32).rev().step_by(3).collect();
        let columns = Columns::new(&set, guesses.clone());
        for (k, &g) in guesses.iter().enumerate().rev() {
            let column = columns.column(bounds.rows, k);
            let want: Vec<u8> = set.iter().map(|&s| bounds.feedback(s, g)).collect();
            assert_eq!(column, &want[..], "guess {g} of a set of {}", set.len());
            let from = Parts::from_feedbacks(bounds, &set, column);
            let direct = Parts::new(bounds, &set, g);
            assert!(from.iter().eq(direct.iter()), "guess {g}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} columns checked");
}
