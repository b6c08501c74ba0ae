//! The review's tests: known games, exact searches of every part a move leaves, time limits.

use super::*;
use crate::advisor::{AdviceOptions, Chooser};
use crate::published::{KOYAMA_LAI, TANAKA};
use crate::rules::Rules;
use crate::tree::{Search, SearchOutcome};
use rand::{Rng, SeedableRng};

/// Optimal totals by candidate set, for the tests' own searches.
type Totals = std::collections::HashMap<CodeSet, u64>;

/// The optimal total of the codes `history` leaves, from an exact search with no time limit
/// and nothing shared with the review (no advisor, no tree; `totals` holds only this
/// function's own results).
fn optimal_total(space: &CodeSpace, history: &History, totals: &mut Totals) -> u64 {
    let candidates = history.candidates(space);
    if let Some(&t) = totals.get(&candidates) {
        return t;
    }
    let total = match candidates.len() {
        0 => 0,
        1 | 2 => 2 * candidates.len() as u64 - 1,
        _ => match Search::after(space, history, &candidates).run().unwrap() {
            SearchOutcome::Found(plan) => plan.total,
            other => panic!("no plan: {other:?}"),
        },
    };
    totals.insert(candidates, total);
    total
}

/// Checks every move of a game's review against exact searches of each part its guess
/// leaves and of the position itself; `whole` is the whole game's optimal total.
fn check_against_searches(
    space: &CodeSpace,
    history: &History,
    review: &GameReview,
    whole: u64,
    totals: &mut Totals,
) {
    assert_eq!(review.moves.len(), history.len());
    let length = space.length();
    let mut before = History::new();
    for (turn, m) in history.turns().iter().zip(&review.moves) {
        let candidates = before.candidates(space);
        let n = candidates.len() as u64;
        let best = if before.is_empty() {
            whole
        } else {
            optimal_total(space, &before, totals)
        } - n;
        let g = space.index_of(&turn.guess).unwrap();
        let played: u64 = space
            .partition(g, &candidates)
            .into_iter()
            .filter(|(f, _)| !f.is_win(length))
            .map(|(f, _)| {
                let mut h = before.clone();
                h.push(turn.guess, f);
                optimal_total(space, &h, totals)
            })
            .sum();
        assert!(m.proven, "{m:?}");
        assert_eq!(m.total_after_best, Some(best), "{m:?}");
        assert_eq!(m.total_after_guess, Some(played), "{m:?}");
        assert_eq!(m.cost, (played - best) as f64 / n as f64, "{m:?}");
        assert_eq!(m.is_best, played == best);
        assert_eq!(m.before as u64, n);
        before.push(turn.guess, turn.feedback);
        assert_eq!(m.after, before.candidates(space).len());
    }
}

/// A game against `secret` that opens with `opening`, then draws its guesses at random
/// among the codes still possible (and, one time in four, among all codes), so it leaves
/// any tree at once.
fn random_game(space: &CodeSpace, secret: &crate::Code, opening: &str, seed: u64) -> History {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut history = History::new();
    let opening = space.rules().parse_code(opening).unwrap();
    history.push(opening, opening.score(secret));
    play_on_randomly(space, secret, history, 4, &mut rng)
}

/// `history` played on against `secret` to the win, each guess drawn at random, with chance
/// `1 / wild` among all codes (`wild` 0: never) and otherwise among the codes still possible.
fn play_on_randomly(
    space: &CodeSpace,
    secret: &crate::Code,
    mut history: History,
    wild: u32,
    rng: &mut impl Rng,
) -> History {
    while !history.is_won(space.length()) {
        let candidates = history.candidates(space);
        let pool = if wild > 0 && rng.gen_ratio(1, wild) && candidates.len() > 2 {
            space.all()
        } else {
            candidates
        };
        let guess = space.code(pool.as_slice()[rng.gen_range(0..pool.len())] as usize);
        history.push(guess, guess.score(secret));
    }
    history
}

fn review_all(space: &CodeSpace, history: &History) -> GameReview {
    let options = ReviewOptions::default().with_move_time(None);
    review(&Advisor::new(), space, history, &options, &Stop::never()).unwrap()
}

#[test]
fn a_game_on_the_shipped_tree_costs_nothing() {
    let rules = Rules::bulls();
    let space = CodeSpace::new(rules.clone()).unwrap();
    let advisor = Advisor::new();
    // The tree opens with 0123; a game opening with 9876 is followed through the image of
    // the tree under the symmetry that renames the digits.
    for (secret, opening) in [("4271", None), ("9876", None), ("0132", Some("9876"))] {
        let secret = rules.parse_code(secret).unwrap();
        let mut history = History::new();
        if let Some(opening) = opening {
            let opening = rules.parse_code(opening).unwrap();
            history.push(opening, opening.score(&secret));
        }
        while !history.is_won(4) {
            let candidates = history.candidates(&space);
            let options = AdviceOptions::default();
            let advice = advisor
                .advise(
                    &space,
                    &history,
                    &candidates,
                    Chooser::Advisor(&options, &Stop::never()),
                )
                .unwrap();
            history.push(advice.code, advice.code.score(&secret));
        }
        let r = review(
            &advisor,
            &space,
            &history,
            &ReviewOptions::default(),
            &Stop::never(),
        )
        .unwrap();
        assert!(r.won && r.proven && r.contradiction.is_none());
        assert_eq!(r.optimal_expected, Some(TANAKA.total as f64 / 5040.0));
        for m in &r.moves {
            assert_eq!((m.cost, m.is_best, m.proven), (0.0, true, true), "{m:?}");
            assert_eq!((m.verdict, m.verdict_estimated), (Verdict::Best, false));
            if m.turn > 1 {
                // The first move may be the tree's own or any of its images.
                assert_eq!(m.played.guess, m.best_guess);
            }
        }
        assert_eq!(r.total_cost, 0.0);
    }
}

#[test]
fn the_shipped_tree_totals_its_secrets_guesses() {
    let space = CodeSpace::new(Rules::bulls()).unwrap();
    let totals = crate::strategy::shipped_totals(&space, GuessPool::All, 0).unwrap();
    assert_eq!(totals[0], TANAKA.total);
    // Each node's total is its codes plus its children's totals, so no node costs less
    // than one guess per code.
    let tree = crate::strategy::shipped(space.rules(), GuessPool::All).unwrap();
    for (i, node) in tree.nodes().iter().enumerate() {
        let below: u64 = node.children.iter().map(|&(_, c)| totals[c.index()]).sum();
        assert!(totals[i] > below, "node {i}");
    }
}

#[test]
fn without_a_score_table_only_true_proofs_are_labelled_proven() {
    let rules = Rules::mastermind();
    let space = CodeSpace::new(rules.clone()).unwrap();
    let bare = CodeSpace::with_options(
        rules,
        &crate::space::SpaceOptions::default().with_table_bytes(0),
    )
    .unwrap();
    assert!(!bare.has_table());
    let mut totals = Totals::new();
    let mut labelled = 0;
    for seed in 0..6 {
        let secret = space.code(seed as usize * 211);
        let history = random_game(&space, &secret, "1123", seed);
        let r = review_all(&bare, &history);
        let mut before = History::new();
        for (turn, m) in history.turns().iter().zip(&r.moves) {
            if let Some(best) = m.total_after_best {
                labelled += 1;
                let n = before.candidates(&space).len() as u64;
                let exact = if before.is_empty() {
                    KOYAMA_LAI.total
                } else {
                    optimal_total(&space, &before, &mut totals)
                };
                assert_eq!(best, exact - n, "{m:?}");
            }
            assert!(m.cost >= 0.0, "{m:?}");
            before.push(turn.guess, turn.feedback);
        }
    }
    assert!(labelled > 0, "endgames are proven by their closed forms");
}

/// 7 distinct digits of 0-9, a game far too large to search (604800 codes), and `guesses`
/// played against the secret 9876543.
fn seven_of_ten(guesses: &[&str]) -> (CodeSpace, History) {
    let rules = Rules::new(7, "0123456789", false, false).unwrap();
    let space = CodeSpace::new(rules.clone()).unwrap();
    let secret = rules.parse_code("9876543").unwrap();
    let mut history = History::new();
    for g in guesses {
        let g = rules.parse_code(g).unwrap();
        history.push(g, g.score(&secret));
    }
    (space, history)
}

#[test]
fn a_review_keeps_to_its_time_limit() {
    let (space, history) = seven_of_ten(&[
        "0123456", "1234567", "2345678", "3456789", "4567890", "5678901",
    ]);
    let start = Instant::now();
    let options = ReviewOptions::default().with_move_time(None);
    let r = review(
        &Advisor::new(),
        &space,
        &history,
        &options,
        &Stop::after(Duration::from_millis(300)),
    );
    // Partitions of 604800 codes run past a deadline only by their own length.
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    match r {
        Ok(r) => assert!(!r.proven),
        Err(e) => assert!(matches!(e, ReviewError::Stopped { .. }), "{e}"),
    }
}

#[test]
fn mastermind_costs_match_exact_searches_of_every_part() {
    let rules = Rules::mastermind();
    let space = CodeSpace::new(rules.clone()).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(28);
    let mut totals = Totals::new();
    for (i, opening) in ["1122", "1123", "1234"].into_iter().enumerate() {
        let secret = space.code(rng.gen_range(0..space.len()));
        let history = random_game(&space, &secret, opening, i as u64);
        let r = review_all(&space, &history);
        check_against_searches(&space, &history, &r, KOYAMA_LAI.total, &mut totals);
    }
}

#[test]
#[ignore = "exact searches of every part of 20 games: minutes"]
fn bulls_costs_match_exact_searches_of_every_part() {
    let rules = Rules::bulls();
    let space = CodeSpace::new(rules).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(28);
    let mut totals = Totals::new();
    let mut off_tree = 0;
    for seed in 0..20 {
        let secret = space.code(rng.gen_range(0..space.len()));
        // Every game opens alike, so the searches of the positions one guess leaves (the
        // longest) are shared.
        let history = random_game(&space, &secret, "0123", seed);
        let r = review_all(&space, &history);
        off_tree += r.moves.iter().filter(|m| !m.is_best).count();
        check_against_searches(&space, &history, &r, TANAKA.total, &mut totals);
    }
    assert!(off_tree >= 20, "the games should leave the tree");
}

/// A game against `secret` in which each guess is, with chance `1 / wild`, any code, and
/// otherwise a code still possible, drawn at random: a player who keeps to the answers
/// (`wild` 0: always) and one who sometimes does not.
fn seeded_player_game(space: &CodeSpace, secret: &crate::Code, wild: u32, seed: u64) -> History {
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    play_on_randomly(space, secret, History::new(), wild, &mut rng)
}

#[test]
#[ignore = "reviews a few hundred games: minutes; prints the distribution of move costs the verdict thresholds come from"]
fn cost_distribution() {
    use crate::strategy::{self, Cost, StrategyOptions};
    let mut costs: Vec<(String, f64)> = Vec::new();
    for (game, rules, games) in [
        ("bulls", Rules::bulls(), 40u64),
        ("mastermind", Rules::mastermind(), 60),
    ] {
        let space = CodeSpace::new(rules).unwrap();
        let advisor = Advisor::new();
        let options = ReviewOptions::default();
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(52);
        let mut add = |player: &str, history: &History| {
            let r = review(&advisor, &space, history, &options, &Stop::never()).unwrap();
            for m in &r.moves {
                costs.push((format!("{game} {player}"), m.cost));
            }
        };
        for info in strategy::list().filter(|i| i.cost != Cost::Blind) {
            let mut s = strategy::by_name(info.name, &space, &StrategyOptions::default()).unwrap();
            for _ in 0..games {
                let secret = space.code(rng.gen_range(0..space.len()));
                let history = strategy::play(s.as_mut(), &space, &secret, 100).unwrap();
                add(info.name, &history);
            }
        }
        for (player, wild) in [("consistent", 0), ("wild", 3)] {
            for seed in 0..4 * games {
                let secret = space.code(rng.gen_range(0..space.len()));
                add(player, &seeded_player_game(&space, &secret, wild, seed));
            }
        }
    }
    let mut all: Vec<f64> = costs.iter().map(|&(_, c)| c).collect();
    all.sort_by(f64::total_cmp);
    let costly: Vec<f64> = all.iter().copied().filter(|&c| c > 0.0).collect();
    eprintln!("{} moves, {} costing something", all.len(), costly.len());
    for q in [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99] {
        let i = ((costly.len() as f64 * q) as usize).min(costly.len() - 1);
        eprintln!("costly moves, quantile {q}: {:.3}", costly[i]);
    }
    let edges = [
        0.0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0, 2.0,
    ];
    let mut below = -1.0f64;
    for edge in edges {
        let n = all.iter().filter(|&&c| c <= edge && c > below).count();
        eprintln!("cost in ({below:.2}, {edge:.2}]: {n}");
        below = edge;
    }
    eprintln!("cost above 2: {}", all.iter().filter(|&&c| c > 2.0).count());
    let mut groups: Vec<String> = costs.iter().map(|(g, _)| g.clone()).collect();
    groups.sort();
    groups.dedup();
    for g in groups {
        let mut counts = [0usize; 6];
        for (_, c) in costs.iter().filter(|(h, _)| *h == g) {
            counts[Verdict::of_cost(*c).index()] += 1;
        }
        eprintln!("{g}: {counts:?}");
    }
}

#[test]
fn a_repeated_guess_costs_one_guess_and_says_so() {
    let rules = Rules::mastermind();
    let space = CodeSpace::new(rules.clone()).unwrap();
    let mut history = History::new();
    let g = rules.parse_code("1122").unwrap();
    let f = crate::Feedback::new(1, 0);
    history.push(g, f);
    history.push(g, f);
    let r = review_all(&space, &history);
    let m = &r.moves[1];
    assert_eq!(m.repeats_turn, Some(1));
    assert!(m.told_nothing_apart && !m.could_be_secret && !m.is_best);
    assert_eq!(m.cost, 1.0);
    assert_eq!(m.before, m.after);
    assert!(!r.won);
}

#[test]
fn contradictions_and_turns_after_a_win_are_reported() {
    let rules = Rules::bulls();
    let space = CodeSpace::new(rules.clone()).unwrap();
    let mut bad = History::new();
    for g in ["0123", "4567"] {
        bad.push(rules.parse_code(g).unwrap(), crate::Feedback::new(0, 0));
    }
    let r = review_all(&space, &bad);
    assert!(r.moves.is_empty());
    assert!(r.contradiction.unwrap().single_change_fixes);

    let mut late = History::new();
    late.push(
        rules.parse_code("0123").unwrap(),
        crate::Feedback::new(4, 0),
    );
    late.push(
        rules.parse_code("4567").unwrap(),
        crate::Feedback::new(0, 0),
    );
    let e = review(
        &Advisor::new(),
        &space,
        &late,
        &ReviewOptions::default(),
        &Stop::never(),
    );
    assert_eq!(e, Err(ReviewError::AfterWin { turn: 2, won: 1 }));
}

#[test]
fn games_too_large_to_search_get_labelled_estimates() {
    let (space, history) = seven_of_ten(&["0123456", "7890123", "9876540"]);
    let options = ReviewOptions::default().with_move_time(Some(Duration::from_millis(300)));
    let r = review(&Advisor::new(), &space, &history, &options, &Stop::never()).unwrap();
    assert_eq!(r.moves.len(), 3);
    assert!(!r.proven);
    for m in &r.moves {
        assert!(!m.proven && m.total_after_guess.is_none(), "{m:?}");
        assert!(m.note.is_some() && m.cost >= 0.0, "{m:?}");
        assert!(m.expected_after_guess >= m.expected_after_best);
    }
}

#[test]
fn verdicts_follow_the_threshold_table() {
    assert_eq!(Verdict::of_cost(0.0), Verdict::Best);
    assert_eq!(Verdict::of_cost(-1e-12), Verdict::Best);
    for pair in Verdict::THRESHOLDS.windows(2) {
        let ((v, most), (next, _)) = (pair[0], pair[1]);
        assert_eq!(Verdict::of_cost(most), v);
        assert_eq!(Verdict::of_cost(most + 1e-9), next);
    }
    // A guess that tells nothing apart costs a whole guess.
    assert_eq!(Verdict::of_cost(1.0), Verdict::Blunder);
    for v in Verdict::ALL {
        assert_eq!(serde_json::to_string(&v).unwrap(), format!("\"{v}\""));
        assert_eq!(Verdict::ALL[v.index()], v);
    }
}

#[test]
fn estimates_never_undercut_the_best_conceivable_play() {
    for size in 0..200 {
        for information in [0.5, 1.0, 2.0, 3.5, 10.0] {
            let e = estimated_total(size, information);
            assert!(
                e >= (2 * size).saturating_sub(1) as f64,
                "{size} {information}"
            );
        }
    }
    assert_eq!(estimated_total(1, 3.0), 1.0);
    assert_eq!(estimated_total(2, 3.0), 3.0);
}
