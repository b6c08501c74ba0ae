//! The fewest-at-worst objective against the exhaustive recursion and its known answers.

use super::*;

/// What [`naive_fewest`] found, by set and depth.
type FewestMemo = HashMap<(Vec<u32>, u32), Option<(u32, u32)>>;

/// The obvious exhaustive recursion for the fewest-at-worst objective: the least
/// (secrets solved by the `depth`-th guess from here, total) for `set` within `depth` guesses.
fn naive_fewest(
    space: &CodeSpace,
    pool: GuessPool,
    set: &[u32],
    depth: u32,
    memo: &mut FewestMemo,
) -> Option<(u32, u32)> {
    if depth == 0 {
        return None;
    }
    if set.len() == 1 {
        return Some((u32::from(depth == 1), 1));
    }
    if let Some(&r) = memo.get(&(set.to_vec(), depth)) {
        return r;
    }
    let win = Feedback::win(space.length()).index(space.length()) as u8;
    let guesses: Vec<u32> = match pool {
        GuessPool::All => (0..space.len() as u32).collect(),
        GuessPool::Consistent => set.to_vec(),
    };
    let mut best: Option<(u32, u32)> = None;
    for g in guesses {
        let mut parts: HashMap<u8, Vec<u32>> = HashMap::new();
        for &s in set {
            parts
                .entry(space.score_index(g as usize, s as usize))
                .or_default()
                .push(s);
        }
        let member = parts.remove(&win).is_some();
        if parts.len() == 1 && parts.values().next().unwrap().len() == set.len() {
            continue;
        }
        let mut cost = Some((u32::from(member && depth == 1), set.len() as u32));
        for part in parts.values() {
            cost = match (cost, naive_fewest(space, pool, part, depth - 1, memo)) {
                (Some((c, t)), Some((pc, pt))) => Some((c + pc, t + pt)),
                _ => None,
            };
        }
        if let Some(c) = cost {
            best = Some(best.map_or(c, |b| b.min(c)));
        }
    }
    memo.insert((set.to_vec(), depth), best);
    best
}

/// Fewest at worst: the naive minimum depth, then the fewest secrets needing it, then the
/// fewest in total, on every tiny game, from the start and from every position one guess in.
#[test]
fn fewest_worst_matches_exhaustive_recursion() {
    for rules in tiny_games() {
        let space = CodeSpace::new(rules.clone()).unwrap();
        for pool in GuessPool::ALL {
            let mut memo = HashMap::new();
            let opts = options(Objective::FewestWorst, None, pool);
            let mut check = |set: &[u32], got: (u32, u64, u64), what: &str| {
                let depth = (1..)
                    .find(|&d| naive_fewest(&space, pool, set, d, &mut memo).is_some())
                    .unwrap();
                let (count, total) = naive_fewest(&space, pool, set, depth, &mut memo).unwrap();
                assert_eq!(
                    got,
                    (depth, u64::from(count), u64::from(total)),
                    "{} {pool:?} {what}",
                    rules.describe()
                );
            };
            let all: Vec<u32> = (0..space.len() as u32).collect();
            let (tree, stats) = found(&space, &opts);
            assert_eq!(tree.verify().unwrap(), stats);
            check(&all, (stats.max, stats.at_worst, stats.total), "whole game");
            for (history, set) in one_guess_in(&space) {
                let plan = plan_of(&space, &history, &opts);
                check_plan(&space, &set, &plan);
                let at_worst = plan.histogram.last().copied().unwrap_or(0);
                check(
                    set.as_slice(),
                    (plan.worst, at_worst, plan.total),
                    &format!("{history:?}"),
                );
            }
        }
    }
}

/// What the fewest-worst objective minimises, in its order, as replaying every secret of
/// `tree` finds it: the worst case, the secrets at it, the total.
fn worst_figures(tree: &DecisionTree) -> (u32, u64, u64) {
    let stats = tree.verify().unwrap();
    (stats.max, stats.at_worst, stats.total)
}

/// Mastermind 4x6: every secret within 5 guesses (Knuth 1977), and then the fewest secrets that
/// need the fifth. The count is this search's own result (no published figure we know of),
/// cross-checked by the exhaustive recursion on the tiny games above and by `moo tree verify`.
#[test]
#[ignore = "exact search, seconds in release; run with --ignored"]
fn mastermind_fewest_at_worst_is_5_with_539() {
    let tree = reproduce(&published::MASTERMIND_FEWEST_WORST);
    assert_eq!(worst_figures(&tree), (5, 539, 5627));
}

/// The tree of the fewest-at-worst proof for Bulls and Cows 4 of 0-9 (the open question of how
/// few secrets must need 7 guesses; best known 50, Slovesnov's "crush5o"): replaying every
/// secret shows 50 at 7 and 26450 in total. That no tree does better is the search's proof,
/// rerun by the ignored test below.
#[test]
fn bulls_fewest_at_worst_tree_has_50_at_7() {
    let tree = DecisionTree::from_json(include_str!("../../../trees/bulls-4x10-fewest-worst.json"))
        .unwrap();
    assert_eq!(worst_figures(&tree), (7, 50, 26450));
}

/// The optimal tree of Bulls and Cows with 5 distinct digits of 0-7 (6720 secrets), new as far
/// as we know: replaying every secret gives 34444 guesses in total, 93 secrets at 7. That no
/// tree does better is the search's proof (`moo tree build --length 5 --symbols 01234567`, see
/// the book's `docs/src/performance.md` for its time), too long for CI.
#[test]
fn bulls_5_of_0_7_tree_totals_34444() {
    let tree =
        DecisionTree::from_json(include_str!("../../../trees/bulls-5x8-average.json")).unwrap();
    assert_eq!(
        tree.rules(),
        &Rules::new(5, "01234567", false, false).unwrap()
    );
    let stats = tree.verify().unwrap();
    assert_eq!((stats.secrets, stats.total), (6720, 34444));
    assert_eq!((stats.max, stats.at_worst), (7, 93));
    published::BULLS_5_OF_0_7
        .compare(&Histogram::from_counts(stats.histogram))
        .unwrap();
}

/// The gzipped optimal trees the split runs proved, new as far as we know, each replayed over
/// every secret against its row of `NEW_RESULTS`: Bulls and Cows 5 of 0-8 (81847, one secret at
/// 8; `runs/bulls-5x9/`, 14.3 CPU hours) and Mastermind 5x7 (85645, 43 secrets at 7;
/// `runs/mastermind-5x7/`, 2.2 CPU hours). That no tree does better is each run's proof, far too
/// long for CI; an ignored CLI test joins each run's shipped results to its tree again.
#[test]
fn split_run_trees_replay_with_their_optima() {
    for (gz, row) in [
        (
            &include_bytes!("../../../trees/bulls-5x9-average.json.gz")[..],
            &published::BULLS_5_OF_0_8,
        ),
        (
            &include_bytes!("../../../trees/mastermind-5x7-average.json.gz")[..],
            &published::MASTERMIND_5X7,
        ),
    ] {
        let tree = super::gunzipped_tree(gz);
        assert_eq!(tree.rules(), &row.game.rules().unwrap());
        let stats = tree.verify().unwrap();
        row.compare(&Histogram::from_counts(stats.histogram))
            .unwrap_or_else(|e| panic!("{}: {e}", row.describe()));
    }
}

/// The proof itself: depths 5 and 6 impossible, then at 7 no tree with fewer than 50 secrets
/// at the seventh guess, nor with 50 and fewer than 26450 in total; it writes the shipped file
/// byte for byte.
#[test]
#[ignore = "exact search, about three minutes of CPU in release; run with --ignored"]
fn bulls_fewest_at_worst_is_7_with_50() {
    let tree = reproduce(&published::BULLS_FEWEST_WORST);
    assert_eq!(worst_figures(&tree), (7, 50, 26450));
    assert_eq!(
        tree.to_json(false),
        include_str!("../../../trees/bulls-4x10-fewest-worst.json"),
        "rebuild with `moo tree build --objective fewest-worst \
         -o crates/moo-core/trees/bulls-4x10-fewest-worst.json`"
    );
}
