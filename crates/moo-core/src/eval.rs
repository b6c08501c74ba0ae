//! Playing a strategy against every secret: totals, histogram, time.
//!
//! A deterministic strategy answers the same history with the same guess, so all secrets that got
//! the same feedback so far share their game up to that point. Such strategies are evaluated as a
//! tree: each guess is chosen once per distinct history and the candidates are split by feedback,
//! which is what makes exhaustive figures cheap: the expensive choice is made once per node of the
//! tree instead of once per secret and turn. Subtrees near the root run in parallel; deeper ones are
//! walked depth-first with one history that grows and shrinks, so long chains (brute force needs
//! thousands of guesses) cost neither stack nor copies.
//!
//! Other strategies play each secret on its own, in parallel, each game with its own seed derived
//! from the evaluation seed and the secret, so results do not depend on thread scheduling.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::space::CodeSpace;
use crate::strategy::{Knowledge, Strategy, StrategyError};

/// Builds a fresh strategy seeded with the given seed; evaluation calls it once per parallel task
/// (deterministic strategies) or per secret (random ones).
pub type Builder<'a> = dyn Fn(u64) -> Result<Box<dyn Strategy>, StrategyError> + Sync + 'a;

/// How an evaluation is run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[non_exhaustive]
pub struct EvalOptions {
    /// The most guesses a game may take before it counts as given up; `None` means ten times the
    /// number of codes (enough for brute force, and a random guesser gives up with probability
    /// e^-10 per game).
    pub max_guesses: Option<usize>,
    /// The seed of random strategies; each game derives its own from it.
    pub seed: u64,
}

/// The result of playing one strategy against every secret.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Evaluation {
    /// The strategy's name.
    pub strategy: String,
    /// The number of games played (one per secret).
    pub secrets: usize,
    /// The guesses used in the games that were won.
    pub total: u64,
    /// The guesses of the longest won game.
    pub max: usize,
    /// `histogram[i]`: the number of games won in `i + 1` guesses.
    pub histogram: Vec<u64>,
    /// Games that hit the guess cap (or in which the strategy gave up).
    pub gave_up: usize,
    /// Wall-clock seconds the evaluation took.
    pub seconds: f64,
    /// Whether the strategy was evaluated as a tree (deterministic).
    pub deterministic: bool,
}

impl Evaluation {
    /// The number of games won.
    pub fn solved(&self) -> usize {
        self.secrets - self.gave_up
    }

    /// The mean guesses of the games won (0 if none was).
    pub fn average(&self) -> f64 {
        match self.solved() {
            0 => 0.0,
            n => self.total as f64 / n as f64,
        }
    }
}

/// Counts while games end; merged across parallel tasks.
#[derive(Debug, Clone, Default)]
struct Tally {
    total: u64,
    max: usize,
    histogram: Vec<u64>,
    gave_up: usize,
}

impl Tally {
    fn won(&mut self, guesses: usize, games: usize) {
        if self.histogram.len() < guesses {
            self.histogram.resize(guesses, 0);
        }
        self.histogram[guesses - 1] += games as u64;
        self.total += (guesses * games) as u64;
        self.max = self.max.max(guesses);
    }

    fn merge(mut self, other: Tally) -> Tally {
        if self.histogram.len() < other.histogram.len() {
            self.histogram.resize(other.histogram.len(), 0);
        }
        for (a, b) in self.histogram.iter_mut().zip(&other.histogram) {
            *a += b;
        }
        self.total += other.total;
        self.max = self.max.max(other.max);
        self.gave_up += other.gave_up;
        self
    }
}

/// Shared by the workers of one evaluation.
struct Run<'a> {
    space: &'a CodeSpace,
    build: &'a Builder<'a>,
    seed: u64,
    cap: usize,
    done: AtomicUsize,
    progress: &'a (dyn Fn(usize) + Sync),
}

impl Run<'_> {
    fn finished(&self, games: usize) {
        let done = self.done.fetch_add(games, Ordering::Relaxed) + games;
        (self.progress)(done);
    }
}

/// Plays the strategy `build` makes against every secret of `space`.
///
/// `progress` is called with the number of games finished so far, from any thread.
pub fn evaluate(
    space: &CodeSpace,
    build: &Builder<'_>,
    options: &EvalOptions,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Evaluation, StrategyError> {
    let start = Instant::now();
    let probe = build(options.seed)?;
    let strategy = probe.name().to_string();
    let deterministic = probe.is_deterministic();
    let run = Run {
        space,
        build,
        seed: options.seed,
        cap: options
            .max_guesses
            .unwrap_or(space.len().saturating_mul(10)),
        done: AtomicUsize::new(0),
        progress,
    };
    let tally = if deterministic {
        tree(&run, probe, History::new(), space.all())?
    } else {
        each_secret(&run)?
    };
    Ok(Evaluation {
        strategy,
        secrets: space.len(),
        total: tally.total,
        max: tally.max,
        histogram: tally.histogram,
        gave_up: tally.gave_up,
        seconds: start.elapsed().as_secs_f64(),
        deterministic,
    })
}

/// Below this many candidates a subtree is walked by one worker.
const PARALLEL_SUBTREE: usize = 64;

/// Evaluates the subtree of `history` (whose consistent secrets are `candidates`): chooses the
/// guess once, then evaluates the children in parallel when they are worth a task.
fn tree(
    run: &Run<'_>,
    mut strategy: Box<dyn Strategy>,
    history: History,
    candidates: CodeSet,
) -> Result<Tally, StrategyError> {
    if candidates.len() < PARALLEL_SUBTREE {
        return walk(run, strategy.as_mut(), history, candidates);
    }
    let mut tally = Tally::default();
    if history.len() >= run.cap {
        tally.gave_up += candidates.len();
        run.finished(candidates.len());
        return Ok(tally);
    }
    let (guess, children) = expand(run, strategy.as_mut(), &history, &candidates, &mut tally)?;
    drop(strategy);
    let rest = children
        .into_par_iter()
        .map(|(feedback, part)| {
            let mut h = history.clone();
            h.push(guess, feedback);
            tree(run, (run.build)(run.seed)?, h, part)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))?;
    Ok(tally.merge(rest))
}

/// Asks the strategy for its guess at one node, counts the secrets it wins there, and returns
/// the guess with the other parts of the candidates, in feedback order.
fn expand(
    run: &Run<'_>,
    strategy: &mut dyn Strategy,
    history: &History,
    candidates: &CodeSet,
    tally: &mut Tally,
) -> Result<(Code, Vec<(Feedback, CodeSet)>), StrategyError> {
    let guess = strategy.next_guess(&Knowledge {
        space: run.space,
        history,
        candidates,
    })?;
    let mut children = Vec::new();
    for (feedback, part) in split(run.space, &guess, candidates) {
        if feedback.is_win(run.space.length()) {
            tally.won(history.len() + 1, part.len());
            run.finished(part.len());
        } else {
            children.push((feedback, part));
        }
    }
    Ok((guess, children))
}

/// One node waiting on the walk's stack: the children still to visit, last first.
struct Frame {
    depth: usize,
    guess: Code,
    children: Vec<(Feedback, CodeSet)>,
}

/// Evaluates a subtree depth-first with one growing and shrinking history.
fn walk(
    run: &Run<'_>,
    strategy: &mut dyn Strategy,
    mut history: History,
    candidates: CodeSet,
) -> Result<Tally, StrategyError> {
    let mut tally = Tally::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut next = Some(candidates);
    loop {
        if let Some(candidates) = next.take() {
            if candidates.len() == 1 {
                // One secret left: play it out in place. Strategies that ignore feedback (brute
                // force) spend thousands of guesses here, so this path allocates nothing.
                lone_secret(run, strategy, &mut history, &candidates, &mut tally)?;
            } else if history.len() >= run.cap {
                tally.gave_up += candidates.len();
                run.finished(candidates.len());
            } else {
                let (guess, mut children) =
                    expand(run, strategy, &history, &candidates, &mut tally)?;
                children.reverse();
                stack.push(Frame {
                    depth: history.len(),
                    guess,
                    children,
                });
            }
        }
        let Some(frame) = stack.last_mut() else {
            return Ok(tally);
        };
        match frame.children.pop() {
            Some((feedback, part)) => {
                while history.len() > frame.depth {
                    history.undo();
                }
                history.push(frame.guess, feedback);
                next = Some(part);
            }
            None => {
                stack.pop();
            }
        }
    }
}

/// Plays on against the only candidate left, growing `history`, until a win or the cap.
fn lone_secret(
    run: &Run<'_>,
    strategy: &mut dyn Strategy,
    history: &mut History,
    candidates: &CodeSet,
    tally: &mut Tally,
) -> Result<(), StrategyError> {
    let secret = run.space.code(candidates.as_slice()[0] as usize);
    while history.len() < run.cap {
        let guess = strategy.next_guess(&Knowledge {
            space: run.space,
            history,
            candidates,
        })?;
        if guess == secret {
            tally.won(history.len() + 1, 1);
            run.finished(1);
            return Ok(());
        }
        history.push(guess, guess.score(&secret));
    }
    tally.gave_up += 1;
    run.finished(1);
    Ok(())
}

/// Splits `candidates` by the feedback each gives to `guess`, which may lie outside the space.
fn split(space: &CodeSpace, guess: &Code, candidates: &CodeSet) -> Vec<(Feedback, CodeSet)> {
    match space.index_of(guess) {
        Some(g) => space.partition(g, candidates),
        None => {
            let k = space.length();
            let mut parts: Vec<Vec<u32>> = vec![Vec::new(); space.rules().feedback_slots()];
            for &s in candidates.as_slice() {
                parts[guess.score(&space.code(s as usize)).index(k)].push(s);
            }
            parts
                .into_iter()
                .enumerate()
                .filter(|(_, p)| !p.is_empty())
                .map(|(i, p)| (Feedback::from_index(i, k), CodeSet::from_sorted(p)))
                .collect()
        }
    }
}

/// Plays every secret on its own, each game seeded from the run seed and the secret.
fn each_secret(run: &Run<'_>) -> Result<Tally, StrategyError> {
    (0..run.space.len())
        .into_par_iter()
        .map(|secret| {
            let mut strategy = (run.build)(game_seed(run.seed, secret as u64))?;
            let mut tally = Tally::default();
            match play_capped(run, strategy.as_mut(), &run.space.code(secret))? {
                Some(guesses) => tally.won(guesses, 1),
                None => tally.gave_up += 1,
            }
            run.finished(1);
            Ok(tally)
        })
        .try_reduce(Tally::default, |a, b| Ok(a.merge(b)))
}

/// The guesses `strategy` needs against `secret`, or `None` if it hit the cap or gave up.
fn play_capped(
    run: &Run<'_>,
    strategy: &mut dyn Strategy,
    secret: &Code,
) -> Result<Option<usize>, StrategyError> {
    let space = run.space;
    let mut history = History::new();
    let mut candidates = space.all();
    while history.len() < run.cap {
        let guess = match strategy.next_guess(&Knowledge {
            space,
            history: &history,
            candidates: &candidates,
        }) {
            Ok(guess) => guess,
            Err(StrategyError::GaveUp(_)) => return Ok(None),
            Err(e) => return Err(e),
        };
        let feedback = guess.score(secret);
        if feedback.is_win(space.length()) {
            return Ok(Some(history.len() + 1));
        }
        // The secret is always a candidate, so a lone candidate stays alone: skip the filter
        // that would otherwise dominate games thousands of guesses long.
        if candidates.len() > 1 {
            candidates = space.filter_code(&candidates, &guess, feedback);
        }
        history.push(guess, feedback);
    }
    Ok(None)
}

/// A per-game seed: SplitMix64 of the run seed and the secret, so neighbouring secrets get
/// unrelated random streams.
pub fn game_seed(seed: u64, game: u64) -> u64 {
    let mut z = seed
        .wrapping_add(game.wrapping_mul(0x9E37_79B9_7F4A_7C15))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::strategy::{by_name, play, StrategyOptions};
    use crate::Rules;

    fn eval(space: &CodeSpace, name: &str, options: &EvalOptions) -> Evaluation {
        let build = |seed| {
            let o = StrategyOptions {
                seed,
                ..Default::default()
            };
            by_name(name, space, &o)
        };
        evaluate(space, &build, options, &|_| {}).unwrap()
    }

    /// The tree evaluation must agree game by game with the plain harness.
    #[test]
    fn tree_matches_playing_each_secret() {
        let space = CodeSpace::new(Rules::new(3, "012345", false, false).unwrap()).unwrap();
        for name in ["simple", "knuth", "entropy", "cows", "enumerate"] {
            let e = eval(&space, name, &EvalOptions::default());
            assert!(e.deterministic);
            let mut histogram = vec![0u64; e.histogram.len()];
            let mut strategy = by_name(name, &space, &StrategyOptions::default()).unwrap();
            for secret in space.codes() {
                let n = play(strategy.as_mut(), &space, secret, 1000).unwrap().len();
                histogram[n - 1] += 1;
            }
            assert_eq!(e.histogram, histogram, "{name}");
            assert_eq!(
                e.total,
                histogram
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (i as u64 + 1) * c)
                    .sum::<u64>()
            );
            assert_eq!(e.secrets, 120);
            assert_eq!(e.gave_up, 0);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// On small games of every shape, the tree walk and the plain harness agree on every
        /// deterministic strategy.
        #[test]
        fn tree_matches_play_on_small_games(length in 1usize..=3, symbols in 2usize..=6,
                                            repeats: bool, no_leading: bool) {
            let alphabet: String = "abcdef".chars().take(symbols).collect();
            if let Ok(rules) = Rules::new(length, &alphabet, repeats, no_leading) {
                let space = CodeSpace::new(rules).unwrap();
                for name in ["simple", "knuth", "most-parts", "cows", "enumerate"] {
                    let e = eval(&space, name, &EvalOptions::default());
                    let mut strategy = by_name(name, &space, &StrategyOptions::default()).unwrap();
                    let total: usize = space
                        .codes()
                        .iter()
                        .map(|secret| play(strategy.as_mut(), &space, secret, 1000).unwrap().len())
                        .sum();
                    proptest::prop_assert_eq!(e.total, total as u64, "{}", name);
                    proptest::prop_assert_eq!(e.gave_up, 0);
                }
            }
        }
    }

    #[test]
    fn knuth_mastermind_as_a_tree() {
        // Knuth (1976): 5801 guesses in all over 1296 secrets, at most 5.
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let e = eval(&space, "knuth", &EvalOptions::default());
        assert_eq!((e.total, e.max, e.secrets), (5801, 5, 1296));
    }

    #[test]
    fn enumerate_takes_the_secrets_rank() {
        let space = CodeSpace::new(Rules::mastermind()).unwrap();
        let e = eval(&space, "enumerate", &EvalOptions::default());
        assert_eq!(e.total, 1296 * 1297 / 2);
        assert_eq!(e.histogram, vec![1; 1296]);
    }

    #[test]
    fn caps_count_give_ups_and_random_is_reproducible() {
        let space = CodeSpace::new(Rules::new(2, "0123", false, false).unwrap()).unwrap();
        let mut options = EvalOptions {
            max_guesses: Some(3),
            seed: 1,
        };
        let e = eval(&space, "enumerate", &options);
        assert_eq!((e.solved(), e.gave_up, e.total), (3, 9, 6));
        let a = eval(&space, "random", &options);
        assert!(!a.deterministic);
        assert_eq!(a.solved() + a.gave_up, 12);
        assert_eq!(a.histogram, eval(&space, "random", &options).histogram);
        options.max_guesses = None;
        let b = eval(&space, "random", &options);
        assert_eq!(b.gave_up, 0);
        options.seed = 2;
        let c = eval(&space, "random", &options);
        assert_ne!(b.histogram, c.histogram);
    }
}
