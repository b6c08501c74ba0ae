//! Playing a strategy against every secret: totals, histogram, time, and the decision tree of a
//! deterministic strategy.
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
//!
//! The tree walk serves every caller that needs the tree of a strategy: [`evaluate`] only counts
//! (`moo bench`, the web benchmark), and [`strategy_tree`] also records each guess as a node of a
//! [`DecisionTree`], the format `moo tree` writes and the web explorer reads. Keeping one walk keeps
//! one guess cap, one treatment of guesses outside the space, and the figures of the bench, the
//! web page and a written tree equal by construction. Recording is a run-time choice rather than a
//! type parameter: in counting mode it costs one predictable branch per guess.
//!
//! Games too big to play every secret (Bulls and Cows of 5 to 10 digits, Mastermind 6x9) are
//! measured on a seeded sample of secrets instead ([`EvalOptions::sample`]): the games are played
//! one after another, each on its own, and every guess is timed (the strategy's choice plus the
//! filtering of the candidates, what a player program does each turn), so the figures include the
//! latency of one guess ([`GuessTimes`]) as well as the guesses per game.
//!
//! A server must answer within a time limit and a command may want to stop on Ctrl-C, so an
//! evaluation takes a deadline and a cancellation flag and returns [`EvalError::DeadlinePassed`] or
//! [`EvalError::Cancelled`] when either fires. Both are checked at every node, at the start of
//! every game played on its own, and every 1024 guesses of a long chain: often enough to stop within milliseconds, rarely enough that brute
//! force (a cheap guess per turn) does not read the clock every turn.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use web_time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::code::Code;
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::histogram::Histogram;
use crate::history::History;
use crate::space::CodeSpace;
use crate::strategy::{Knowledge, Strategy, StrategyError};
use crate::tree::{DecisionTree, Node, NodeId};

/// Builds a fresh strategy seeded with the given seed; evaluation calls it once per parallel task
/// (deterministic strategies) or per secret (random ones).
pub type Builder<'a> = dyn Fn(u64) -> Result<Box<dyn Strategy>, StrategyError> + Sync + 'a;

/// Why an evaluation or a strategy's tree did not finish.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EvalError {
    /// The strategy failed to give a guess.
    #[error(transparent)]
    Strategy(#[from] StrategyError),
    /// [`EvalOptions::deadline`] passed first.
    #[error("the evaluation ran past its deadline: try smaller rules or allow more time")]
    DeadlinePassed,
    /// [`EvalOptions::cancel`] was set.
    #[error("the evaluation was cancelled")]
    Cancelled,
    /// Only a deterministic strategy is a single tree.
    #[error("strategy {0:?} is not deterministic, so it has no single decision tree: evaluate it by playing each secret instead")]
    NotDeterministic(String),
    /// The tree grew past the node limit given to [`strategy_tree`].
    #[error(
        "the decision tree of strategy {strategy:?} has more than {max} nodes: try smaller rules"
    )]
    TooManyNodes {
        /// The strategy.
        strategy: String,
        /// The limit.
        max: usize,
    },
    /// A tree must end every game in a win, and some game reached the guess cap.
    #[error("strategy {strategy:?} had not solved every secret after {max_guesses} guesses, so it has no complete decision tree: it is not making progress")]
    Unfinished {
        /// The strategy.
        strategy: String,
        /// The cap.
        max_guesses: usize,
    },
    /// A tree holds only codes of its rules (its file could not be read back otherwise).
    #[error("strategy {strategy:?} guessed {guess}, which the rules do not allow, so it cannot be written as a decision tree")]
    IllegalGuess {
        /// The strategy.
        strategy: String,
        /// The guess, as its symbols.
        guess: String,
    },
}

/// How an evaluation is run.
#[derive(Debug, Clone, Default)]
#[non_exhaustive]
pub struct EvalOptions {
    /// The most guesses a game may take before it counts as given up; `None` means ten times the
    /// number of codes (enough for brute force, and a random guesser gives up with probability
    /// e^-10 per game).
    pub max_guesses: Option<usize>,
    /// The seed of random strategies; each game derives its own from it.
    pub seed: u64,
    /// Stop with [`EvalError::DeadlinePassed`] once this instant has passed.
    pub deadline: Option<Instant>,
    /// Stop with [`EvalError::Cancelled`] once this flag is set, from any thread.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Play this many secrets drawn at random with `seed` (all of them if the space is no
    /// larger) instead of every secret, one game at a time, timing every guess.
    pub sample: Option<usize>,
}

/// How long guesses took, in seconds: each is the strategy's choice plus filtering the candidates
/// by the answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GuessTimes {
    /// The guesses timed.
    pub guesses: usize,
    /// The mean.
    pub mean: f64,
    /// The median.
    pub p50: f64,
    /// The 99th percentile: 99% of the guesses took at most this long.
    pub p99: f64,
    /// The slowest guess.
    pub max: f64,
}

impl GuessTimes {
    /// The summary of `seconds` (each one guess); `None` if there are none.
    pub fn of(mut seconds: Vec<f64>) -> Option<GuessTimes> {
        if seconds.is_empty() {
            return None;
        }
        seconds.sort_by(f64::total_cmp);
        let n = seconds.len();
        // The nearest-rank percentile: the smallest time at least `p` of the guesses do not exceed.
        let rank = |p: f64| seconds[((p * n as f64).ceil() as usize).clamp(1, n) - 1];
        Some(GuessTimes {
            guesses: n,
            mean: seconds.iter().sum::<f64>() / n as f64,
            p50: rank(0.5),
            p99: rank(0.99),
            max: seconds[n - 1],
        })
    }
}

/// The result of playing one strategy against every secret (or a sample of them), once or in
/// several runs: the one report `moo bench --json` prints a row of and the web's `/api/bench`
/// returns.
///
/// Its JSON form is `{"strategy", "secrets", "games", "total", "average", "max", "histogram",
/// "gave_up", "seconds", "deterministic"}`, then `"runs"` when runs were combined and
/// `"guess_times"` when guesses were timed.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Evaluation {
    /// The strategy's name.
    pub strategy: String,
    /// The secrets each run played (every secret, or the sample).
    pub secrets: usize,
    /// The games of every run, by the guesses they took, and the games given up (at the guess
    /// cap, or by the strategy).
    #[serde(flatten)]
    pub histogram: Histogram,
    /// Wall-clock seconds the evaluation took (every run's, added up).
    pub seconds: f64,
    /// Whether the strategy was evaluated as a tree (deterministic).
    pub deterministic: bool,
    /// Each run of a random strategy, when runs were combined ([`Evaluation::combine`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub runs: Vec<RunSummary>,
    /// How long each guess took, when the secrets were a sample played one game at a time (of
    /// the run with the slowest 99th percentile, when runs were combined).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guess_times: Option<GuessTimes>,
}

/// The figures of one run among several of a random strategy.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunSummary {
    /// The run's number, from 1.
    pub run: usize,
    /// The seed the run played with.
    pub seed: u64,
    /// The guesses used in the games won.
    pub total: u64,
    /// The mean guesses of the games won.
    pub average: f64,
    /// The guesses of the longest game won.
    pub max: usize,
    /// The games given up.
    pub gave_up: u64,
    /// Wall-clock seconds the run took.
    pub seconds: f64,
}

impl Evaluation {
    /// Several runs of one strategy (each with the seed it played with) as one evaluation: every
    /// run's games counted together and their times added, with a summary of each run when the
    /// strategy is random (a deterministic one gives the same figures every run).
    ///
    /// # Panics
    /// If `runs` is empty.
    pub fn combine(runs: &[(u64, Evaluation)]) -> Evaluation {
        let (_, first) = runs.first().expect("at least one run to combine");
        let mut combined = Evaluation {
            strategy: first.strategy.clone(),
            secrets: first.secrets,
            histogram: Histogram::new(),
            seconds: 0.0,
            deterministic: first.deterministic,
            runs: Vec::new(),
            guess_times: runs
                .iter()
                .filter_map(|(_, e)| e.guess_times.clone())
                .max_by(|a, b| a.p99.total_cmp(&b.p99)),
        };
        for (i, (seed, e)) in runs.iter().enumerate() {
            combined.histogram = combined.histogram.merge(&e.histogram);
            combined.seconds += e.seconds;
            if !e.deterministic {
                combined.runs.push(RunSummary {
                    run: i + 1,
                    seed: *seed,
                    total: e.histogram.total(),
                    average: e.histogram.average(),
                    max: e.histogram.max(),
                    gave_up: e.histogram.gave_up(),
                    seconds: e.seconds,
                });
            }
        }
        combined
    }
}

/// A deterministic strategy written out as a tree, with its figures.
#[derive(Debug, Clone)]
pub struct StrategyTree {
    /// Every guess the strategy makes against every secret.
    pub tree: DecisionTree,
    /// What the walk counted; every game is won, or the walk would have failed.
    pub evaluation: Evaluation,
}

/// What a walk of part of a tree produced: the counts, and when recording, its nodes with ids
/// local to the part (its root is 0), so parallel parts can be built apart and grafted.
#[derive(Debug, Default)]
struct Part {
    /// Games counted while they end; merged across parallel parts.
    tally: Histogram,
    nodes: Vec<Node>,
}

impl Part {
    /// Appends `child`, reached from this part's root by `feedback`, shifting its node ids.
    fn graft(&mut self, feedback: Feedback, child: Part) {
        self.tally = std::mem::take(&mut self.tally).merge(&child.tally);
        if child.nodes.is_empty() {
            return;
        }
        let offset = self.nodes.len() as u32;
        self.nodes[0].children.push((feedback, NodeId::new(offset)));
        self.nodes.extend(child.nodes.into_iter().map(|mut node| {
            for (_, id) in &mut node.children {
                *id = NodeId::new(id.index() as u32 + offset);
            }
            node
        }));
    }

    /// Makes the next node added the child of `parent` for `feedback`.
    fn link(&mut self, parent: usize, feedback: Feedback) {
        let next = NodeId::new(self.nodes.len() as u32);
        self.nodes[parent].children.push((feedback, next));
    }
}

/// Nodes counted so far against the most a recorded tree may have.
struct NodeBudget {
    max: usize,
    used: AtomicUsize,
}

/// Shared by the workers of one evaluation.
struct Run<'a> {
    space: &'a CodeSpace,
    build: &'a Builder<'a>,
    strategy: String,
    seed: u64,
    cap: usize,
    deadline: Option<Instant>,
    cancel: Option<&'a AtomicBool>,
    /// Present when the walk records the tree's nodes.
    record: Option<NodeBudget>,
    done: AtomicUsize,
    progress: &'a (dyn Fn(usize) + Sync),
}

/// How many guesses of one game may pass between two checks of the deadline and the flag.
const CHECK_EVERY: usize = 1024;

impl<'a> Run<'a> {
    fn new(
        space: &'a CodeSpace,
        build: &'a Builder<'a>,
        strategy: &dyn Strategy,
        options: &'a EvalOptions,
        record: Option<NodeBudget>,
        progress: &'a (dyn Fn(usize) + Sync),
    ) -> Run<'a> {
        Run {
            space,
            build,
            strategy: strategy.name().to_string(),
            seed: options.seed,
            cap: options
                .max_guesses
                .unwrap_or(space.len().saturating_mul(10)),
            deadline: options.deadline,
            cancel: options.cancel.as_deref(),
            record,
            done: AtomicUsize::new(0),
            progress,
        }
    }

    fn finished(&self, games: usize) {
        let done = self.done.fetch_add(games, Ordering::Relaxed) + games;
        (self.progress)(done);
    }

    /// Whether the walk should stop now.
    fn check(&self) -> Result<(), EvalError> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(EvalError::Cancelled);
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(EvalError::DeadlinePassed);
        }
        Ok(())
    }

    /// Counts `games` that reached the cap; a recorded tree cannot hold them.
    fn give_up(&self, tally: &mut Histogram, games: usize) -> Result<(), EvalError> {
        if self.record.is_some() {
            return Err(EvalError::Unfinished {
                strategy: self.strategy.clone(),
                max_guesses: self.cap,
            });
        }
        tally.give_up(games as u64);
        self.finished(games);
        Ok(())
    }

    /// Records `guess` as the next node of `nodes`, when recording.
    // Inlined so that counting, which brute force does millions of times, costs one branch.
    #[inline]
    fn add_node(&self, nodes: &mut Vec<Node>, guess: Code) -> Result<(), EvalError> {
        match &self.record {
            None => Ok(()),
            Some(budget) => self.record_node(budget, nodes, guess),
        }
    }

    #[inline(never)]
    fn record_node(
        &self,
        budget: &NodeBudget,
        nodes: &mut Vec<Node>,
        guess: Code,
    ) -> Result<(), EvalError> {
        if self.space.index_of(&guess).is_none() {
            return Err(EvalError::IllegalGuess {
                strategy: self.strategy.clone(),
                guess: self.space.rules().format_code(&guess),
            });
        }
        if budget.used.fetch_add(1, Ordering::Relaxed) >= budget.max {
            return Err(EvalError::TooManyNodes {
                strategy: self.strategy.clone(),
                max: budget.max,
            });
        }
        nodes.push(Node {
            guess,
            children: Vec::new(),
        });
        Ok(())
    }

    fn evaluation(&self, tally: Histogram, start: Instant, deterministic: bool) -> Evaluation {
        Evaluation {
            strategy: self.strategy.clone(),
            secrets: self.space.len(),
            histogram: tally,
            seconds: start.elapsed().as_secs_f64(),
            deterministic,
            runs: Vec::new(),
            guess_times: None,
        }
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
) -> Result<Evaluation, EvalError> {
    let start = Instant::now();
    let probe = build(options.seed)?;
    let deterministic = probe.is_deterministic();
    let run = Run::new(space, build, probe.as_ref(), options, None, progress);
    if let Some(count) = options.sample {
        let secrets = sample_secrets(space, count, options.seed);
        let (tally, times) = each_sampled(&run, &secrets, deterministic)?;
        let mut evaluation = run.evaluation(tally, start, deterministic);
        evaluation.secrets = secrets.len();
        evaluation.guess_times = GuessTimes::of(times);
        return Ok(evaluation);
    }
    let tally = if deterministic {
        subtree(&run, probe, History::new(), space.all())?.tally
    } else {
        each_secret(&run)?
    };
    Ok(run.evaluation(tally, start, deterministic))
}

/// The decision tree of the deterministic strategy `build` makes: its guess for every history
/// any secret reaches, in the form [`DecisionTree::to_json`] writes. Fails rather than return a
/// tree of more than `max_nodes` nodes (one per guess asked), or a tree in which some secret hits
/// the guess cap.
pub fn strategy_tree(
    space: &CodeSpace,
    build: &Builder<'_>,
    options: &EvalOptions,
    max_nodes: Option<usize>,
) -> Result<StrategyTree, EvalError> {
    let start = Instant::now();
    let probe = build(options.seed)?;
    if !probe.is_deterministic() {
        return Err(EvalError::NotDeterministic(probe.name().to_string()));
    }
    let budget = NodeBudget {
        // Node ids are 32 bits.
        max: max_nodes.map_or(u32::MAX as usize, |m| m.min(u32::MAX as usize)),
        used: AtomicUsize::new(0),
    };
    let quiet = |_: usize| {};
    let run = Run::new(space, build, probe.as_ref(), options, Some(budget), &quiet);
    let part = subtree(&run, probe, History::new(), space.all())?;
    Ok(StrategyTree {
        tree: DecisionTree::from_nodes(space.rules().clone(), part.nodes),
        evaluation: run.evaluation(part.tally, start, true),
    })
}

/// Below this many candidates a subtree is walked by one worker.
const PARALLEL_SUBTREE: usize = 64;

/// Walks the subtree of `history` (whose consistent secrets are `candidates`): chooses the guess
/// once, then walks the children in parallel when they are worth a task.
fn subtree(
    run: &Run<'_>,
    mut strategy: Box<dyn Strategy>,
    history: History,
    candidates: CodeSet,
) -> Result<Part, EvalError> {
    if candidates.len() < PARALLEL_SUBTREE {
        return depth_first(run, strategy.as_mut(), history, candidates);
    }
    let mut part = Part::default();
    if history.len() >= run.cap {
        run.give_up(&mut part.tally, candidates.len())?;
        return Ok(part);
    }
    let (guess, children) = expand(run, strategy.as_mut(), &history, &candidates, &mut part)?;
    drop(strategy);
    let children: Vec<(Feedback, Part)> = children
        .into_par_iter()
        .map(|(feedback, set)| {
            let mut h = history.clone();
            h.push(guess, feedback);
            Ok((feedback, subtree(run, (run.build)(run.seed)?, h, set)?))
        })
        .collect::<Result<_, EvalError>>()?;
    for (feedback, child) in children {
        part.graft(feedback, child);
    }
    Ok(part)
}

/// Asks the strategy for its guess at one node, counts the secrets it wins there, and returns
/// the guess with the other parts of the candidates, in feedback order.
fn expand(
    run: &Run<'_>,
    strategy: &mut dyn Strategy,
    history: &History,
    candidates: &CodeSet,
    part: &mut Part,
) -> Result<(Code, Vec<(Feedback, CodeSet)>), EvalError> {
    run.check()?;
    let guess = strategy.next_guess(&Knowledge::new(run.space, history, candidates))?;
    run.add_node(&mut part.nodes, guess)?;
    let mut children = Vec::new();
    for (feedback, set) in run.space.partition_code(&guess, candidates) {
        if feedback.is_win(run.space.length()) {
            part.tally.won(history.len() + 1, set.len() as u64);
            run.finished(set.len());
        } else {
            children.push((feedback, set));
        }
    }
    Ok((guess, children))
}

/// One node waiting on the walk's stack: the children still to visit, last first.
struct Frame {
    depth: usize,
    guess: Code,
    /// The node's index in the part, when recording.
    node: usize,
    children: Vec<(Feedback, CodeSet)>,
}

/// Walks a subtree depth-first with one growing and shrinking history.
fn depth_first(
    run: &Run<'_>,
    strategy: &mut dyn Strategy,
    mut history: History,
    candidates: CodeSet,
) -> Result<Part, EvalError> {
    let mut part = Part::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut next = Some(candidates);
    loop {
        if let Some(candidates) = next.take() {
            if candidates.len() == 1 {
                // One secret left: play it out in place. Strategies that ignore feedback (brute
                // force) spend thousands of guesses here, so this path allocates nothing unless
                // it records nodes.
                lone_secret(run, strategy, &mut history, &candidates, &mut part)?;
            } else if history.len() >= run.cap {
                run.give_up(&mut part.tally, candidates.len())?;
            } else {
                let node = part.nodes.len();
                let (guess, mut children) =
                    expand(run, strategy, &history, &candidates, &mut part)?;
                children.reverse();
                stack.push(Frame {
                    depth: history.len(),
                    guess,
                    node,
                    children,
                });
            }
        }
        let Some(frame) = stack.last_mut() else {
            return Ok(part);
        };
        match frame.children.pop() {
            Some((feedback, set)) => {
                while history.len() > frame.depth {
                    history.undo();
                }
                history.push(frame.guess, feedback);
                if run.record.is_some() {
                    part.link(frame.node, feedback);
                }
                next = Some(set);
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
    part: &mut Part,
) -> Result<(), EvalError> {
    let secret = run.space.code(candidates.as_slice()[0] as usize);
    let mut asked = 0;
    while history.len() < run.cap {
        // From the first guess on: a walk of lone secrets only must stop as promptly as one
        // of nodes.
        if asked % CHECK_EVERY == 0 {
            run.check()?;
        }
        asked += 1;
        let guess = strategy.next_guess(&Knowledge::new(run.space, history, candidates))?;
        let node = part.nodes.len();
        run.add_node(&mut part.nodes, guess)?;
        if guess == secret {
            part.tally.won(history.len() + 1, 1);
            run.finished(1);
            return Ok(());
        }
        let feedback = guess.score(&secret);
        if run.record.is_some() {
            part.link(node, feedback);
        }
        history.push(guess, feedback);
    }
    run.give_up(&mut part.tally, 1)
}

/// Plays every secret on its own, each game seeded from the run seed and the secret.
fn each_secret(run: &Run<'_>) -> Result<Histogram, EvalError> {
    (0..run.space.len())
        .into_par_iter()
        .map(|secret| {
            let mut strategy = (run.build)(game_seed(run.seed, secret as u64))?;
            let mut tally = Histogram::new();
            match play_capped(run, strategy.as_mut(), &run.space.code(secret), None)? {
                Some(guesses) => tally.won(guesses, 1),
                None => tally.give_up(1),
            }
            run.finished(1);
            Ok(tally)
        })
        .try_reduce(Histogram::new, |a, b| Ok(a.merge(&b)))
}

/// `count` secrets of `space` drawn at random with `seed`, in index order (every secret if there
/// are no more).
pub fn sample_secrets(space: &CodeSpace, count: usize, seed: u64) -> CodeSet {
    use rand::SeedableRng;
    if count >= space.len() {
        return space.all();
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    rand::seq::index::sample(&mut rng, space.len(), count)
        .into_iter()
        .collect()
}

/// Plays each of `secrets` on its own, one game after another so that no game slows another's
/// guesses, timing every guess; random strategies get each game's seed from the run seed and the
/// secret.
fn each_sampled(
    run: &Run<'_>,
    secrets: &CodeSet,
    deterministic: bool,
) -> Result<(Histogram, Vec<f64>), EvalError> {
    let mut tally = Histogram::new();
    let mut times = Vec::new();
    for secret in secrets.iter() {
        run.check()?;
        let seed = if deterministic {
            run.seed
        } else {
            game_seed(run.seed, secret as u64)
        };
        let mut strategy = (run.build)(seed)?;
        match play_capped(
            run,
            strategy.as_mut(),
            &run.space.code(secret),
            Some(&mut times),
        )? {
            Some(guesses) => tally.won(guesses, 1),
            None => tally.give_up(1),
        }
        run.finished(1);
    }
    Ok((tally, times))
}

/// The guesses `strategy` needs against `secret`, or `None` if it hit the cap or gave up; the
/// seconds each guess took are added to `times`, if given.
fn play_capped(
    run: &Run<'_>,
    strategy: &mut dyn Strategy,
    secret: &Code,
    mut times: Option<&mut Vec<f64>>,
) -> Result<Option<usize>, EvalError> {
    let space = run.space;
    let mut history = History::new();
    let mut candidates = space.all();
    while history.len() < run.cap {
        if history.len().is_multiple_of(CHECK_EVERY) {
            run.check()?;
        }
        let start = Instant::now();
        let guess = match strategy.next_guess(&Knowledge::new(space, &history, &candidates)) {
            Ok(guess) => guess,
            Err(StrategyError::GaveUp(_)) => return Ok(None),
            Err(e) => return Err(e.into()),
        };
        let feedback = guess.score(secret);
        if feedback.is_win(space.length()) {
            if let Some(times) = times.as_deref_mut() {
                times.push(start.elapsed().as_secs_f64());
            }
            return Ok(Some(history.len() + 1));
        }
        // The secret is always a candidate, so a lone candidate stays alone: skip the filter
        // that would otherwise dominate games thousands of guesses long.
        if candidates.len() > 1 {
            candidates = space.filter_code(&candidates, &guess, feedback);
        }
        if let Some(times) = times.as_deref_mut() {
            times.push(start.elapsed().as_secs_f64());
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
mod tests;
