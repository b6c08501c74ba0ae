//! Parts split deeper: which parts go deeper, the jobs each position below them needs, round
//! after round, and the part each settles into once its jobs are in.
//!
//! Which parts: the cost of a part's search grows much faster than its size, so a part's share
//! of the run is estimated as its size squared over the sum of every part's, and a part above
//! the share asked for goes deeper; below it, a piece whose size squared exceeds the same
//! threshold ([`Split::heavy`](super::Split::heavy)) is a position of its own, one level down
//! ([`DEEPEST`]). A position split so is settled as its search settles it: the guesses it
//! tries, in its order, the cheapest winning (the earliest among equals). The first
//! [`FIRST_SECONDS`] are tried under the position's own bound (none for a part); the best of
//! them bounds the rest, and a later guess whose lower bound (closed forms and one-guess
//! lookaheads of its pieces, as the search sharpens it before it searches) is not below that
//! bound is never tried.
//!
//! A guess tried under a bound `B` at a position of `n` secrets whose pieces' lower bounds sum
//! to `L` leaves `B - n - L` to share among its pieces: a piece that cannot be solved below its
//! own lower bound plus that spare proves the guess costs `B` or more, which is all the
//! position needs to know of it. Its light pieces are jobs first, the smallest first in each,
//! and a heavy piece waits for them: it is a position bounded by what they left of the spare,
//! searched only if they left any. A part's later guesses are tried one by one so, since one
//! can cost as much as a large piece; a position below a part tries its later guesses in runs,
//! many to a job ([`Task::Guesses`]), since most of them are refuted at once and one job with
//! one cache refutes them much faster than one job each.
//!
//! While some of its jobs have no result, a position's value is not known, but a lower bound on
//! it is: the least, over the guesses its search tries, of what each is proven to cost so far.
//! That is its one-guess bound until its jobs are in; then `n` plus, for each piece, its
//! optimum, the bound a job proved of it, or (a piece split again, still waiting) the same least
//! one level down, else its own lower bound; a run's result bounds each guess in the run, since
//! its tree is its cheapest guess's. The join reports it for each part still open.
//!
//! Everything here is derived from the manifest and the results so far: each join derives the
//! jobs again in the same order, numbers those not written before after them (the next
//! round), and refuses a result that answers anything else.

use std::borrow::Cow;
use std::collections::HashMap;

use super::read::{read_pieces, read_run};
use super::values::{histogram_total, ruled_out, spent, Derived, Trials, Value};
use super::{JobEntry, JobResult, Piece, SplitError, Step, Task};
use crate::codeset::CodeSet;
use crate::feedback::Feedback;
use crate::history::History;
use crate::rules::Rules;
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::tree::search::PositionRoot;
use crate::tree::{Progress, SearchOptions};

use super::shared::{graft, FirstPart};

/// Which of `parts` go deeper: those whose estimated share of the run exceeds `share`, and the
/// threshold of size squared above which a set goes deeper.
/// A part of one secret is solved by its next guess and has no pieces, so it never goes deeper.
pub(super) fn heavy_parts(parts: &[FirstPart], share: f64) -> (Vec<bool>, u64) {
    let cost = |p: &FirstPart| (p.set.len() as u64).pow(2);
    let whole: u64 = parts.iter().map(cost).sum();
    let heavy = (share * whole as f64).floor() as u64;
    let flags = parts
        .iter()
        .map(|p| p.set.len() > 1 && cost(p) > heavy)
        .collect();
    (flags, heavy)
}

/// Checks the runs that proved a lower bound under a bound lowered from their job's
/// (`lowered`: job index and bound) against the position's trials, all in: another run must
/// have found a tree below each such bound, as the runner lowered it for one. Else the run's
/// bound says nothing of the guess that wins, and its result must be made again.
fn check_lowered(trials: &Trials, lowered: &[(usize, u64)]) -> Result<(), SplitError> {
    let cheapest = trials.values.iter().filter_map(Value::total).min();
    match lowered
        .iter()
        .find(|&&(_, b)| cheapest.is_none_or(|t| t >= b))
    {
        Some(&(index, b)) => Err(SplitError::Mismatch {
            index,
            reason: format!(
                "it ran under a bound lowered to {b}, but no other run of its position found a tree below that: delete its result to run it again"
            ),
        }),
        None => Ok(()),
    }
}

/// The pieces `second` leaves of `set`, the win left out, in feedback order.
pub(super) fn pieces(space: &CodeSpace, set: &CodeSet, second: u32) -> Vec<(Feedback, CodeSet)> {
    space
        .partition(second as usize, set)
        .into_iter()
        .filter(|(f, _)| !f.is_win(space.length()))
        .collect()
}

/// How many guesses of a position split deeper are tried under the position's own bound, the
/// first ones in its search's order: the best is often the second or third, and every later
/// guess is tried under the best of them.
pub(super) const FIRST_SECONDS: usize = 3;

/// How many guesses below a part a position split deeper may be: 2 splits the parts and the
/// heavy pieces under them. A position below a part tries its later guesses in runs
/// ([`Task::Guesses`]), so its pieces never go deeper: at that depth, on Bulls and Cows 5 of
/// 0-7, they hold at most a few hundred secrets.
const DEEPEST: usize = 2;

/// How many runs of later guesses a position below a part is cut into per
/// [`Split::heavy`](super::Split::heavy) of its size squared: most of its later guesses are
/// refuted at once, but the first few in its order cost a search each.
const RUNS_PER_HEAVY: u64 = 12;

/// The fewest guesses a run holds (when the position has that many): a job costs a process's
/// start, and a run of guesses refuted at once costs little more.
const RUN_LEAST: usize = 200;

/// [`Deeper::piece`]: how many pieces at the most of one job fit in a set split again.
const PIECE_OF_HEAVY: u64 = 4;

/// A position below a first-level part: the part, the way there and the secrets left.
pub(super) struct DeepPosition {
    /// The part's first guess and feedback, as text.
    part: (String, String),
    /// The whole history, the first guess included.
    history: History,
    /// The steps after the first guess, as text.
    path: Vec<Step>,
    set: CodeSet,
    /// The total the position must stay below, if any.
    below: Option<u64>,
}

impl DeepPosition {
    /// A first-level part, unbounded.
    pub(super) fn part(space: &CodeSpace, part: &FirstPart) -> DeepPosition {
        let rules = space.rules();
        DeepPosition {
            part: (
                rules.format_code(&space.code(part.guess as usize)),
                part.feedback.to_string(),
            ),
            history: part.history(space),
            path: Vec::new(),
            set: part.set.clone(),
            below: None,
        }
    }

    fn child(
        &self,
        rules: &Rules,
        space: &CodeSpace,
        guess: u32,
        feedback: Feedback,
        set: CodeSet,
        below: Option<u64>,
    ) -> DeepPosition {
        let code = space.code(guess as usize);
        let mut history = self.history.clone();
        history.push(code, feedback);
        let mut path = self.path.clone();
        path.push(Step {
            guess: rules.format_code(&code),
            feedback: feedback.to_string(),
        });
        DeepPosition {
            part: self.part.clone(),
            history,
            path,
            set,
            below,
        }
    }
}

/// A guess at a position cut into its pieces: each with its lower bound, and what they may cost
/// above those bounds in all for the guess to win (`None`: no bound).
#[derive(Clone, Copy)]
struct Cut<'p> {
    guess: u32,
    parts: &'p [(Feedback, CodeSet)],
    lowers: &'p [(Feedback, u64)],
    spare: Option<u64>,
}

/// Derives the jobs of the positions below parts split deeper, and settles them from the
/// results in.
pub(super) struct Deeper<'a> {
    space: &'a CodeSpace,
    options: SearchOptions,
    heavy: u64,
    /// The jobs written so far, by [`key`], with their results (every one has one).
    done: HashMap<String, &'a JobResult>,
    /// The jobs found wanting a result, in the order found, numbered from 0.
    pub(super) wanted: Vec<JobEntry>,
    /// Answers a job at once instead of wanting it (an estimate drives a part so, in one
    /// process): every position is then derived once, not once per round.
    answer: Option<Box<Answer<'a>>>,
}

/// What answers a job at once: its result, as `moo tree job` would write it.
pub(super) type Answer<'a> = dyn FnMut(&JobEntry) -> Result<JobResult, SplitError> + 'a;

/// What identifies a job of a later round, its number aside.
pub(super) fn key(e: &JobEntry) -> String {
    serde_json::to_string(&(&e.guess, &e.feedback, &e.task)).unwrap_or_default()
}

impl<'a> Deeper<'a> {
    pub(super) fn new(
        space: &'a CodeSpace,
        options: SearchOptions,
        heavy: u64,
        done: HashMap<String, &'a JobResult>,
    ) -> Deeper<'a> {
        Deeper {
            space,
            options,
            heavy,
            done,
            wanted: Vec::new(),
            answer: None,
        }
    }

    /// The same, answering every job at once by `answer`.
    pub(super) fn answering(mut self, answer: Box<Answer<'a>>) -> Deeper<'a> {
        self.answer = Some(answer);
        self
    }

    /// `entry`'s result: a job's done, or answered at once; `None` (and `entry` wanted) while
    /// it has none.
    fn result(&mut self, entry: JobEntry) -> Result<Option<Cow<'a, JobResult>>, SplitError> {
        if let Some(&r) = self.done.get(&key(&entry)) {
            return Ok(Some(Cow::Borrowed(r)));
        }
        match &mut self.answer {
            Some(answer) => answer(&entry).map(|r| Some(Cow::Owned(r))),
            None => {
                self.wanted.push(entry);
                Ok(None)
            }
        }
    }

    /// The position's value, or what the results so far prove of it while some of its jobs
    /// have none.
    pub(super) fn node(&mut self, node: &DeepPosition) -> Result<Derived, SplitError> {
        let (progress, stop) = (Progress::new(), Stop::never());
        let root = PositionRoot::new(
            self.space,
            &node.history,
            &node.set,
            &self.options,
            &progress,
            &stop,
        )?;
        let guesses = root.guesses();
        let limit = node.below.unwrap_or(u64::MAX);
        let mut lowered = Vec::new();
        let mut trials = Trials::new(&guesses);
        for (i, &(g, lower)) in guesses.iter().enumerate().take(FIRST_SECONDS) {
            if lower >= limit {
                continue;
            }
            trials.record(&[i], self.guess(node, &root, g, node.below)?);
        }
        if trials.pending {
            return Ok(trials.waiting(node.path.is_empty().then_some(&guesses[..])));
        }
        let bound = trials
            .values
            .iter()
            .filter_map(Value::total)
            .fold(limit, u64::min);
        let (at, later): (Vec<usize>, Vec<(u32, u64)>) = guesses
            .iter()
            .copied()
            .enumerate()
            .skip(FIRST_SECONDS)
            .filter(|&(_, (_, lower))| lower < bound)
            .unzip();
        if node.path.is_empty() {
            // A part's later guess can cost as much as a large piece: its pieces are jobs.
            for (&i, &(g, _)) in at.iter().zip(&later) {
                trials.record(&[i], self.guess(node, &root, g, Some(bound))?);
            }
        } else {
            let mut start = 0;
            for run in runs(&later, bound, self.runs(node.set.len(), later.len())) {
                let value = self.run(node, run, bound, &mut lowered)?;
                let waiting = Derived::waiting(0);
                trials.record(
                    &at[start..start + run.len()],
                    value.map_or(waiting, Derived::Value),
                );
                start += run.len();
            }
        }
        if trials.pending {
            return Ok(trials.waiting(node.path.is_empty().then_some(&guesses[..])));
        }
        check_lowered(&trials, &lowered)?;
        match (trials.cheapest(limit), node.below) {
            (Some(v), _) => Ok(Derived::Value(v)),
            (None, Some(b)) => Ok(Derived::Value(Value::AtLeast(b))),
            (None, None) => Err(SplitError::Malformed {
                kind: "split manifest",
                reason: format!(
                    "no guess solves part {} {} at all",
                    node.part.0, node.part.1
                ),
            }),
        }
    }

    /// The position's value with `guess` at its root, if below `budget`: its pieces' values,
    /// each large piece a position of its own, the small ones in jobs of a few.
    fn guess(
        &mut self,
        node: &DeepPosition,
        root: &PositionRoot,
        guess: u32,
        budget: Option<u64>,
    ) -> Result<Derived, SplitError> {
        let n = node.set.len() as u64;
        let Some((bound, lowers)) = root.pieces(guess) else {
            return Ok(Derived::Value(Value::AtLeast(u64::MAX)));
        };
        let sum: u64 = n + lowers.iter().map(|&(_, b)| b).sum::<u64>();
        if budget.is_some_and(|b| bound.max(sum) >= b) {
            return Ok(Derived::Value(Value::AtLeast(bound.max(sum))));
        }
        // Each piece's lower bound, raised by what a heavy piece's results prove meanwhile.
        let mut floors = lowers.clone();
        let waiting_on = |values: &[Option<Value>], floors: &[(Feedback, u64)]| {
            Derived::waiting(bound.max(ruled_out(n, values, floors)))
        };
        // What the pieces may cost above their lower bounds in all, for the guess to win.
        let spare = budget.map(|b| b - sum);
        let rules = self.space.rules();
        let parts = pieces(self.space, &node.set, guess);
        let mut values: Vec<Option<Value>> = vec![None; parts.len()];
        let (light, mut heavy): (Vec<usize>, Vec<usize>) = (0..parts.len()).partition(|&i| {
            let n = parts[i].1.len();
            node.path.len() + 1 >= DEEPEST || n <= 1 || (n as u64).pow(2) <= self.piece()
        });
        debug_assert!(parts.iter().zip(&lowers).all(|((f, _), (lf, _))| f == lf));
        let cut = Cut {
            guess,
            parts: &parts,
            lowers: &lowers,
            spare,
        };
        let mut waiting = !self.light(node, &cut, light, &mut values)?;
        // Under a bound, a heavy piece waits for the light ones: what they spend of the spare
        // bounds it, and when they spend it all, it is never searched.
        if spare.is_some() && waiting {
            return Ok(waiting_on(&values, &floors));
        }
        if values.iter().any(|v| matches!(v, Some(Value::AtLeast(_)))) {
            let lower = ruled_out(n, &values, &lowers);
            return Ok(Derived::Value(Value::AtLeast(lower)));
        }
        heavy.sort_by_key(|&i| parts[i].1.len());
        for i in heavy {
            // Under a bound, one heavy piece after another, the smallest first, each bounded by
            // what the pieces before it left; without one, all at once.
            let below = spare.map(|s| lowers[i].1 + s.saturating_sub(spent(&values, &lowers)));
            let (f, set) = &parts[i];
            let child = node.child(rules, self.space, guess, *f, set.clone(), below);
            match self.node(&child)? {
                Derived::Value(v) => values[i] = Some(v),
                Derived::Waiting { lower, .. } => {
                    floors[i].1 = floors[i].1.max(lower);
                    if spare.is_some() {
                        return Ok(waiting_on(&values, &floors));
                    }
                    waiting = true;
                }
            }
            if matches!(values[i], Some(Value::AtLeast(_))) {
                let lower = ruled_out(n, &values, &lowers);
                return Ok(Derived::Value(Value::AtLeast(lower)));
            }
        }
        if waiting {
            return Ok(waiting_on(&values, &floors));
        }
        let total = ruled_out(n, &values, &lowers);
        if budget.is_some_and(|b| total >= b) {
            return Ok(Derived::Value(Value::AtLeast(total)));
        }
        self.assemble(node, guess, &parts, values)
            .map(Derived::Value)
    }

    /// How many runs the later guesses of a position of `n` secrets below a part are cut into:
    /// [`RUNS_PER_HEAVY`] per [`Split::heavy`](super::Split::heavy) of its size squared, but
    /// no fewer than [`RUN_LEAST`] guesses to a run.
    fn runs(&self, n: usize, later: usize) -> usize {
        let weight = (n as u64).pow(2).saturating_mul(RUNS_PER_HEAVY);
        let by_size = weight.div_ceil(self.heavy.max(1)) as usize;
        by_size.min(later.div_ceil(RUN_LEAST)).max(1)
    }

    /// The most a piece solved by a job, or the pieces of one job together, may hold of size
    /// squared: a quarter of [`Split::heavy`](super::Split::heavy), since a piece's search can
    /// cost as much as a whole part's of twice its size.
    fn piece(&self) -> u64 {
        self.heavy / PIECE_OF_HEAVY
    }

    /// The value of a run of a position's later guesses below `below`, or `None` while its job
    /// has no result (the job is added to [`Deeper::wanted`]). A run that found no tree under
    /// a bound lowered from its job's ([`JobResult::tightened`]) is added to `lowered`, as its
    /// job's index and that bound.
    fn run(
        &mut self,
        node: &DeepPosition,
        run: &[(u32, u64)],
        below: u64,
        lowered: &mut Vec<(usize, u64)>,
    ) -> Result<Option<Value>, SplitError> {
        let rules = self.space.rules();
        let entry = JobEntry {
            index: 0,
            guess: node.part.0.clone(),
            feedback: node.part.1.clone(),
            size: node.set.len(),
            task: Task::Guesses {
                path: node.path.clone(),
                guesses: run
                    .iter()
                    .map(|&(g, _)| rules.format_code(&self.space.code(g as usize)))
                    .collect(),
                below,
            },
        };
        let Some(result) = self.result(entry)? else {
            return Ok(None);
        };
        let value = read_run(&result, below)?;
        if let (Value::AtLeast(b), Some(_)) = (&value, result.tightened) {
            lowered.push((result.entry.index, *b));
        }
        Ok(Some(value))
    }

    /// The light pieces of `cut` (`light`), in jobs of a few: their values from the jobs'
    /// results into `values`, and `false` while some job has none.
    fn light(
        &mut self,
        node: &DeepPosition,
        cut: &Cut,
        mut light: Vec<usize>,
        values: &mut [Option<Value>],
    ) -> Result<bool, SplitError> {
        // The smallest pieces first: each one solved spends some of the spare, so the largest,
        // where the time is, are searched under the tightest bound, or not at all.
        light.sort_by_key(|&i| cut.parts[i].1.len());
        let cost = |i: &usize| (cut.parts[*i].1.len() as u64).pow(2);
        let mut all_in = true;
        let mut bundle: Vec<usize> = Vec::new();
        for i in light {
            if bundle.iter().map(cost).sum::<u64>() + cost(&i) > self.piece() {
                all_in &= self.bundle(node, cut, &bundle, values)?;
                bundle.clear();
            }
            bundle.push(i);
        }
        Ok(self.bundle(node, cut, &bundle, values)? && all_in)
    }

    /// One job's pieces (`which` of the cut's, none for no job): their values from its result
    /// into `values`, or `false` when it has none yet.
    fn bundle(
        &mut self,
        node: &DeepPosition,
        cut: &Cut,
        which: &[usize],
        values: &mut [Option<Value>],
    ) -> Result<bool, SplitError> {
        let Cut {
            guess,
            parts,
            lowers,
            spare,
        } = *cut;
        if which.is_empty() {
            return Ok(true);
        }
        let rules = self.space.rules();
        let pieces: Vec<Piece> = which
            .iter()
            .map(|&i| Piece {
                feedback: parts[i].0.to_string(),
                size: parts[i].1.len(),
                lower: lowers[i].1,
            })
            .collect();
        let entry = JobEntry {
            index: 0,
            guess: node.part.0.clone(),
            feedback: node.part.1.clone(),
            size: pieces.iter().map(|p| p.size).sum(),
            task: Task::Pieces {
                path: node.path.clone(),
                guess: rules.format_code(&self.space.code(guess as usize)),
                pieces,
                spare,
            },
        };
        let Some(result) = self.result(entry)? else {
            return Ok(false);
        };
        for (&i, v) in which.iter().zip(read_pieces(&result)?) {
            values[i] = Some(v);
        }
        Ok(true)
    }

    /// The position's subtree with `guess` at its root over its pieces' subtrees.
    fn assemble(
        &self,
        node: &DeepPosition,
        guess: u32,
        parts: &[(Feedback, CodeSet)],
        values: Vec<Option<Value>>,
    ) -> Result<Value, SplitError> {
        let mut histogram = vec![0u64];
        let mut covered = 0;
        let mut first = None;
        let mut children = Vec::new();
        for ((f, set), v) in parts.iter().zip(&values) {
            let Some(Value::Tree {
                histogram: h,
                tree,
                index,
                ..
            }) = v
            else {
                unreachable!("every piece has a tree once none is ruled out");
            };
            first.get_or_insert(*index);
            children.push((*f, tree, *index));
            covered += set.len();
            if histogram.len() < h.len() + 1 {
                histogram.resize(h.len() + 1, 0);
            }
            for (k, &c) in h.iter().enumerate() {
                histogram[k + 1] += c;
            }
        }
        // The guess itself, when it is one of the position's secrets, is solved at once.
        histogram[0] = (node.set.len() - covered.min(node.set.len())) as u64;
        let tree = graft(
            self.space.rules(),
            self.space.code(guess as usize),
            &children,
        )?;
        Ok(Value::Tree {
            total: histogram_total(&histogram),
            histogram,
            tree,
            index: first.unwrap_or(0),
        })
    }
}

/// `later` (a position's later guesses with their lower bounds, in its order) cut into at most
/// `count` runs in that order, of about equal weight: a guess weighs the square of the gap
/// between its lower bound and `bound`, since the nearer its lower bound is to the bound, the
/// sooner the search refutes it (the first guesses in the order are the costly ones).
pub(super) fn runs(later: &[(u32, u64)], bound: u64, count: usize) -> Vec<&[(u32, u64)]> {
    let weight = |&(_, lower): &(u32, u64)| (bound.saturating_sub(lower).max(1) as f64).powi(2);
    let whole: f64 = later.iter().map(weight).sum();
    let count = count.clamp(1, later.len().max(1));
    let mut out = Vec::new();
    let (mut start, mut sum) = (0, 0.0);
    for (i, g) in later.iter().enumerate() {
        sum += weight(g);
        if out.len() + 1 < count && sum * count as f64 >= whole * (out.len() + 1) as f64 {
            out.push(&later[start..=i]);
            start = i + 1;
        }
    }
    if start < later.len() {
        out.push(&later[start..]);
    }
    out
}
