//! What a whole split run will cost, predicted from a few of its jobs and from parts driven
//! through all their rounds here.
//!
//! Round 1's jobs differ mostly by the size of the position they search: each costs a fixed
//! start (the process, the score table) and a search whose cost grows as a power of that size.
//! A handful of them are taken at evenly spaced steps of their cumulative estimated cost (size
//! squared), the smallest sample gives the fixed start, and the others the power and its scale
//! by least squares on logarithms; every whole part is predicted from its size so.
//!
//! A part split deeper cannot be predicted from round 1: its later rounds depend on the bounds
//! round 1 proves, and on one game they cost 4 times its round 1, on another 50 times, mostly in
//! the runs of later guesses at a few positions whose bound is tight. So the largest and the
//! smallest parts split deeper are *driven*: every job of every round derived as the join
//! derives it, in this process, each answered at once. Pieces are solved whole (their values
//! make the bounds the later rounds use). A run of later guesses, where the time goes, is tried
//! on one guess in [`RUN_STRIDE`] only, spread evenly over the run, and its search time scaled
//! up by the guesses left out and down by [`SHARED_CACHE`]; its result stands for the run's
//! (a tree below the bound if a sampled guess finds one, else the bound), so the derivation
//! goes on as the run would. The other deep parts are predicted from the driven ones by a power
//! of their size.
//!
//! On a game whose largest part is most of the problem (Mastermind 5x8, Bulls and Cows 5 of
//! 0-9) no estimate can drive it. Within a CPU budget the caller instead samples round 1's jobs
//! from the smallest up ([`Split::sample_upward`]) and drives deep parts from the smallest up at
//! sizes spread apart ([`Split::drive_upward`]) while the next fits; every part not measured is
//! then predicted by the fit, and also given a range ([`Estimate::low`], [`Estimate::high`]):
//! the powers 1 to 4 of size from the nearest measured part, widened by how far the measured
//! ones scatter about the fit. A part's cost depends on more than its size (how tight its bounds
//! are), so the range is what the measured parts allow, not a guarantee: the book's splitting
//! chapter gives how it fared where the run's cost is known.

use std::collections::HashMap;

use serde::Serialize;

use super::deeper::{DeepPosition, Deeper};
use super::join::first_part;
use super::{JobEntry, JobResult, Split, SplitError, Task};
use crate::space::CodeSpace;
use crate::stop::Stop;
use crate::tree::Progress;

/// A driven part tries one guess in this many of each run of later guesses, the middle one of
/// each stretch of this many (at least one guess a run).
pub const RUN_STRIDE: usize = 32;

/// How much more a run's guesses cost each when only one in [`RUN_STRIDE`] is tried than when
/// the whole run is: a run's guesses share one cache, whose sets and bounds a sparse sample
/// shares less. Measured by trying every run of one position both ways: this at the costliest
/// positions, where the time is, and less at cheap ones (the book's `docs/src/performance.md`).
pub const SHARED_CACHE: f64 = 2.0;

/// How much larger each part an estimate within a budget drives is than the one before.
pub const DRIVE_STEP: f64 = 1.25;

/// The powers of size a fit may find: a search costs more on a larger set, and no part of the
/// games measured grew faster than the cube.
const POWERS: std::ops::RangeInclusive<f64> = 1.0..=4.0;

/// One sampled job and its measured cost.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SampledJob {
    /// The job's index.
    pub index: usize,
    /// The size of the position it searched.
    pub size: usize,
    /// The CPU time it took, in seconds.
    pub cpu_seconds: f64,
}

/// A part split deeper, driven through all its rounds in this process.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct DrivenPart {
    /// The first guess, as text.
    pub guess: String,
    /// The feedback to it.
    pub feedback: String,
    /// How many secrets the part holds.
    pub size: usize,
    /// The jobs of every round the part needs.
    pub jobs: usize,
    /// How many of them solve pieces, each solved here.
    pub pieces: usize,
    /// The pieces' search time, measured, in CPU seconds (no job's start).
    pub pieces_seconds: f64,
    /// How many jobs are runs of later guesses.
    pub runs: usize,
    /// The later guesses in those runs.
    pub later_guesses: usize,
    /// How many of them were tried.
    pub tried_guesses: usize,
    /// The runs' search time, scaled up from the guesses tried, in CPU seconds (no job's start).
    pub runs_seconds: f64,
    /// The costliest job's predicted search, in CPU seconds (no start).
    pub largest: f64,
    /// The CPU time driving the part took here (derivation included), in seconds.
    pub took: f64,
}

impl DrivenPart {
    /// The part's predicted CPU time in all: each job's start, and the searches.
    pub fn cost(&self, start: f64) -> f64 {
        self.jobs as f64 * start + self.pieces_seconds + self.runs_seconds
    }
}

/// One part split deeper and its predicted CPU time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartEstimate {
    /// The first guess, as text.
    pub guess: String,
    /// The feedback to it.
    pub feedback: String,
    /// How many secrets the part holds.
    pub size: usize,
    /// Its predicted CPU time, every round, in seconds.
    pub seconds: f64,
    /// The least of the predictions the driven parts allow, in seconds: the powers of size
    /// through each two of them (see [`Estimate::low`]); `seconds` for a driven part.
    pub low: f64,
    /// The most of them, in seconds.
    pub high: f64,
    /// Whether it was driven (else predicted from its size).
    pub driven: bool,
}

/// The predicted CPU time of a whole split run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Estimate {
    /// Round 1's jobs sampled.
    pub sampled: Vec<SampledJob>,
    /// The fixed start of a job, in CPU seconds: the first sample's, the smallest job run as a
    /// process of its own.
    pub start: f64,
    /// A job of round 1 of `n` secrets is predicted to take `start + scale * n^exponent` CPU
    /// seconds.
    pub exponent: f64,
    /// See [`Estimate::exponent`].
    pub scale: f64,
    /// The parts driven through all their rounds.
    pub driven: Vec<DrivenPart>,
    /// A part split deeper of `n` secrets is predicted to take `deep_scale * n^deep_exponent`
    /// CPU seconds in all, fitted to the driven parts (the square through one).
    pub deep_exponent: f64,
    /// See [`Estimate::deep_exponent`].
    pub deep_scale: f64,
    /// Every part split deeper, predicted.
    pub parts: Vec<PartEstimate>,
    /// The whole parts' predicted CPU time (round 1's jobs that are not pieces), in seconds.
    pub whole: f64,
    /// Round 1's predicted CPU time by the size fit, in seconds.
    pub round_one: f64,
    /// The whole run's predicted CPU time, in seconds.
    pub total: f64,
    /// The least the whole run's CPU time is predicted at, in seconds: each part predicted by
    /// size (not driven or sampled) at the least of the powers of size through each two of the
    /// measured ones (the fit's spread; exponents kept to 1 to 4, through one point those two),
    /// the measured ones at their measurement.
    pub low: f64,
    /// The most, likewise, in seconds.
    pub high: f64,
    /// The CPU budget the estimate was given, in seconds (`None`: the largest and smallest parts
    /// split deeper driven, whatever they cost).
    pub budget: Option<f64>,
    /// The largest predicted job, in seconds.
    pub largest: f64,
    /// The CPU time the estimate took: the sampled jobs and the driven parts, in seconds; within
    /// a budget, all the budget paid for, a step stopped and left out included.
    pub took: f64,
}

impl Estimate {
    /// The estimate, recording that it was made within `budget` CPU seconds.
    pub fn within(mut self, budget: f64) -> Estimate {
        self.budget = Some(budget);
        self
    }

    /// The wall seconds the run would take at best on `nodes` machines of `cores` cores each,
    /// for the low, the central and the high estimate: the CPU time spread evenly over every
    /// core, which the jobs' rounds (each waits for the one before) and a job larger than the
    /// rest only lengthen.
    pub fn wall(&self, nodes: usize, cores: usize) -> (f64, f64, f64) {
        let cores = (nodes * cores).max(1) as f64;
        (self.low / cores, self.total / cores, self.high / cores)
    }
}

/// What driving a part has counted so far.
#[derive(Default)]
struct Tally {
    part: Option<DrivenPart>,
    /// The search setup of each position whose runs were tried (its root's guesses and their
    /// bounds), by its path: every run there pays it once, whatever it tries.
    setups: HashMap<String, f64>,
}

impl Split {
    /// Up to `count` of round 1's jobs to sample, the smallest first: the smallest job (its
    /// fixed start), then those at the middle of `count - 1` equal steps of the jobs' cumulative
    /// size squared, sorted by size.
    pub fn sample(&self, count: usize) -> Vec<usize> {
        let mut by_size: Vec<(usize, usize)> =
            self.jobs.iter().map(|e| (e.size, e.index)).collect();
        by_size.sort_unstable();
        let Some(&(_, smallest)) = by_size.first() else {
            return Vec::new();
        };
        let weight = |size: usize| (size as f64).powi(2);
        let whole: f64 = by_size.iter().map(|&(size, _)| weight(size)).sum();
        let steps = count.saturating_sub(1).max(1);
        let mut picked = vec![smallest];
        let mut cumulative = 0.0;
        let mut step = 0;
        for &(size, index) in &by_size {
            cumulative += weight(size);
            while step < steps && cumulative >= whole * (2 * step + 1) as f64 / (2 * steps) as f64 {
                step += 1;
                if picked.last() != Some(&index) {
                    picked.push(index);
                }
            }
        }
        picked
    }

    /// Round 1's jobs to sample within a budget, in the order to run them: the smallest, then
    /// each next job of at least twice the size of the one before, so that the sizes a power is
    /// fitted through spread as far as the budget reaches.
    pub fn sample_upward(&self) -> Vec<usize> {
        let mut by_size: Vec<(usize, usize)> =
            self.jobs.iter().map(|e| (e.size, e.index)).collect();
        by_size.sort_unstable();
        let mut picked = Vec::new();
        let mut last = 0;
        for (size, index) in by_size {
            if picked.is_empty() || size >= 2 * last {
                picked.push(index);
                last = size.max(1);
            }
        }
        picked
    }

    /// Every part split deeper as `(size, index into [`Split::deeper`])`, smallest first.
    fn deeper_by_size(&self) -> Vec<(usize, usize)> {
        let mut by_size: Vec<(usize, usize)> = self
            .deeper
            .iter()
            .enumerate()
            .map(|(i, d)| (d.size, i))
            .collect();
        by_size.sort_unstable();
        by_size
    }

    /// Every part split deeper (indexes into [`Split::deeper`]) in the order an estimate within
    /// a budget tries to drive them: the smallest, the cheapest, then each next of at least
    /// [`DRIVE_STEP`] times the size of the one before, so that the sizes the others are
    /// predicted from spread as far as the budget reaches (parts of nearly one size tell
    /// nothing of how cost grows with it), then the others, the smallest first.
    pub fn drive_upward(&self) -> Vec<usize> {
        let by_size = self.deeper_by_size();
        let mut picked = Vec::new();
        let mut last = 0.0;
        for &(size, i) in &by_size {
            if picked.is_empty() || size as f64 >= DRIVE_STEP * last {
                picked.push(i);
                last = size as f64;
            }
        }
        let rest: Vec<usize> = by_size
            .iter()
            .map(|&(_, i)| i)
            .filter(|i| !picked.contains(i))
            .collect();
        picked.extend(rest);
        picked
    }

    /// Which parts split deeper (indexes into [`Split::deeper`]) an estimate drives: the
    /// largest, where most of the time goes, and the smallest, the cheapest to drive, which
    /// with it gives the power of size the others are predicted by.
    pub fn drive_sample(&self) -> Vec<usize> {
        let by_size = self.deeper_by_size();
        let mut picked: Vec<usize> = by_size.last().map(|&(_, i)| i).into_iter().collect();
        if let Some(&(_, i)) = by_size.first() {
            if !picked.contains(&i) {
                picked.push(i);
            }
        }
        picked
    }

    /// Drives the part split deeper `which` (an index into [`Split::deeper`]) through every
    /// round here, in `space` (the split's rules' [`super::exact_space`]), timing each job by `clock` (CPU seconds of this process): its pieces solved
    /// whole, its runs of later guesses on one guess in [`RUN_STRIDE`] (see the module docs).
    /// Runs on the current rayon pool; returns [`crate::tree::SearchError::Stopped`] soon
    /// after `stop` fires.
    pub fn drive(
        &self,
        space: &CodeSpace,
        which: usize,
        clock: &dyn Fn() -> f64,
        stop: &Stop,
    ) -> Result<DrivenPart, SplitError> {
        let d = self
            .deeper
            .get(which)
            .ok_or_else(|| SplitError::Malformed {
                kind: "split manifest",
                reason: format!(
                    "it has {} parts split deeper, not {which}",
                    self.deeper.len()
                ),
            })?;
        let begun = clock();
        let part = first_part(self, space, d)?;
        let mut tally = Tally {
            part: Some(DrivenPart {
                guess: d.guess.clone(),
                feedback: d.feedback.clone(),
                size: d.size,
                jobs: 0,
                pieces: 0,
                pieces_seconds: 0.0,
                runs: 0,
                later_guesses: 0,
                tried_guesses: 0,
                runs_seconds: 0.0,
                largest: 0.0,
                took: 0.0,
            }),
            setups: HashMap::new(),
        };
        {
            let answer = |entry: &JobEntry| self.answer(space, entry, clock, stop, &mut tally);
            let mut deeper = Deeper::new(space, self.options(), self.heavy, HashMap::new())
                .answering(Box::new(answer));
            deeper.node(&DeepPosition::part(space, &part))?;
        }
        let mut driven = tally.part.take().unwrap_or_else(|| unreachable!());
        driven.took = clock() - begun;
        Ok(driven)
    }

    /// One job of a driven part answered at once, and counted in `tally`.
    fn answer(
        &self,
        space: &CodeSpace,
        entry: &JobEntry,
        clock: &dyn Fn() -> f64,
        stop: &Stop,
        tally: &mut Tally,
    ) -> Result<JobResult, SplitError> {
        let timed = |job: &super::Job| -> Result<(JobResult, f64), SplitError> {
            let before = clock();
            let result = job.solve_in(space, &Progress::new(), stop, None)?;
            Ok((result, (clock() - before).max(0.0)))
        };
        let Task::Guesses { path, guesses, .. } = &entry.task else {
            let (result, seconds) = timed(&self.job(entry.clone()))?;
            let part = tally.part.as_mut().unwrap_or_else(|| unreachable!());
            part.jobs += 1;
            part.pieces += 1;
            part.pieces_seconds += seconds;
            part.largest = part.largest.max(seconds);
            return Ok(result);
        };
        let with = |guesses: Vec<String>| {
            let mut e = entry.clone();
            if let Task::Guesses { guesses: g, .. } = &mut e.task {
                *g = guesses;
            }
            self.job(e)
        };
        let position = serde_json::to_string(path).unwrap_or_default();
        let setup = match tally.setups.get(&position) {
            Some(&s) => s,
            None => {
                let (_, s) = timed(&with(Vec::new()))?;
                tally.setups.insert(position, s);
                s
            }
        };
        let tried = stride(guesses, RUN_STRIDE);
        let count = tried.len();
        let (mut result, seconds) = timed(&with(tried))?;
        let search = (seconds - setup).max(0.0);
        let scaled = setup + search * guesses.len() as f64 / count.max(1) as f64 / SHARED_CACHE;
        let part = tally.part.as_mut().unwrap_or_else(|| unreachable!());
        part.jobs += 1;
        part.runs += 1;
        part.later_guesses += guesses.len();
        part.tried_guesses += count;
        part.runs_seconds += scaled;
        part.largest = part.largest.max(scaled);
        // The sample's answer stands for the run's: a tree below the bound rooted at one of
        // its guesses, or the bound.
        result.entry = entry.clone();
        Ok(result)
    }

    /// The whole run's CPU time predicted from `sampled` jobs of round 1, the first of them the
    /// smallest run as its own process ([`Estimate::start`]; the others want two sizes for a
    /// power, else cost is taken as proportional to size squared), and the `driven` parts.
    pub fn estimate(&self, sampled: Vec<SampledJob>, driven: Vec<DrivenPart>) -> Estimate {
        let start = sampled.first().map_or(0.0, |s| s.cpu_seconds);
        // What every sample costs besides its search, to tell the search apart: the first
        // sample's start holds a process's too, which the others, run here, do not pay.
        let floor = sampled
            .iter()
            .map(|s| s.cpu_seconds)
            .fold(f64::INFINITY, f64::min);
        let searches: Vec<(usize, f64)> = sampled
            .iter()
            .skip(1)
            .filter(|s| s.cpu_seconds > floor)
            .map(|s| (s.size, s.cpu_seconds - floor))
            .collect();
        let (exponent, scale) = fit(&searches);
        let predict = |size: usize| start + scale * (size.max(1) as f64).powf(exponent);
        // A sampled job's measurement stands for itself; the others span the fit's spread.
        let range = |e: &JobEntry| match sampled.iter().find(|s| s.index == e.index) {
            Some(s) => {
                let central = predict(e.size);
                (s.cpu_seconds.min(central), s.cpu_seconds.max(central))
            }
            None => {
                let (low, high) = spread(&searches, (exponent, scale), e.size);
                let central = predict(e.size);
                ((start + low).min(central), (start + high).max(central))
            }
        };
        let round_one: f64 = self.jobs.iter().map(|e| predict(e.size)).sum();
        let wholes = || self.jobs.iter().filter(|e| e.task == Task::Part);
        let whole: f64 = wholes().map(|e| predict(e.size)).sum();
        let (whole_low, whole_high) = wholes()
            .map(range)
            .fold((0.0, 0.0), |(l, h), (a, b)| (l + a, h + b));
        let (parts, (deep_exponent, deep_scale)) = self.deep_parts(&driven, start);
        let largest = wholes()
            .map(|e| predict(e.size))
            .chain(driven.iter().map(|p| start + p.largest))
            .fold(0.0, f64::max);
        let took = sampled.iter().map(|s| s.cpu_seconds).sum::<f64>()
            + driven.iter().map(|p| p.took).sum::<f64>();
        Estimate {
            sampled,
            start,
            exponent,
            scale,
            driven,
            deep_exponent,
            deep_scale,
            total: whole + parts.iter().map(|p| p.seconds).sum::<f64>(),
            low: whole_low + parts.iter().map(|p| p.low).sum::<f64>(),
            high: whole_high + parts.iter().map(|p| p.high).sum::<f64>(),
            budget: None,
            parts,
            whole,
            round_one,
            largest,
            took,
        }
    }

    /// Every part split deeper, at its driven cost or predicted by the power of size through
    /// the `driven` ones (whose fit, exponent and scale, comes with them), with its range.
    fn deep_parts(&self, driven: &[DrivenPart], start: f64) -> (Vec<PartEstimate>, (f64, f64)) {
        let points: Vec<(usize, f64)> = driven.iter().map(|p| (p.size, p.cost(start))).collect();
        let (deep_exponent, deep_scale) = fit(&points);
        let parts: Vec<PartEstimate> = self
            .deeper
            .iter()
            .map(|d| {
                let found = driven
                    .iter()
                    .find(|p| p.guess == d.guess && p.feedback == d.feedback);
                let (seconds, low, high) = match found {
                    Some(p) => (p.cost(start), p.cost(start), p.cost(start)),
                    None => {
                        let central = deep_scale * (d.size.max(1) as f64).powf(deep_exponent);
                        let (low, high) = spread(&points, (deep_exponent, deep_scale), d.size);
                        (central, low.min(central), high.max(central))
                    }
                };
                PartEstimate {
                    guess: d.guess.clone(),
                    feedback: d.feedback.clone(),
                    size: d.size,
                    seconds,
                    low,
                    high,
                    driven: found.is_some(),
                }
            })
            .collect();
        (parts, (deep_exponent, deep_scale))
    }
}

/// One of each `step` of `guesses`, the middle of each stretch of `step` (and at least one).
fn stride(guesses: &[String], step: usize) -> Vec<String> {
    let step = step.max(1);
    let mut picked: Vec<String> = guesses
        .iter()
        .skip(step / 2)
        .step_by(step)
        .cloned()
        .collect();
    if picked.is_empty() {
        picked.extend(guesses.get(guesses.len() / 2).cloned());
    }
    picked
}

/// The least and the most cost at `size` that measured `points` allow: the powers at both ends
/// of [`POWERS`] through the point nearest in size below it (above it when none is below), each
/// widened by the points' scatter about their fit `(exponent, scale)`, the largest factor by
/// which one of them is off it. `(0, 0)` without points.
fn spread(points: &[(usize, f64)], (exponent, scale): (f64, f64), size: usize) -> (f64, f64) {
    let log = |n: usize| (n.max(1) as f64).ln();
    let points: Vec<(f64, f64)> = points
        .iter()
        .filter(|&&(_, cost)| cost > 0.0)
        .map(|&(n, cost)| (log(n), cost.ln()))
        .collect();
    let x = log(size);
    let below = points
        .iter()
        .filter(|p| p.0 <= x)
        .max_by(|a, b| a.0.total_cmp(&b.0));
    let above = points
        .iter()
        .filter(|p| p.0 > x)
        .min_by(|a, b| a.0.total_cmp(&b.0));
    let Some(&(x0, y0)) = below.or(above) else {
        return (0.0, 0.0);
    };
    let scatter = points
        .iter()
        .map(|&(px, py)| (py - scale.ln() - exponent * px).abs())
        .fold(0.0, f64::max);
    let ends = [*POWERS.start(), *POWERS.end()].map(|e| y0 + e * (x - x0));
    let (low, high) = (ends[0].min(ends[1]), ends[0].max(ends[1]));
    ((low - scatter).exp(), (high + scatter).exp())
}

/// `(exponent, scale)` of `cost = scale * size^exponent` through `(size, cost)` points, by
/// least squares on logarithms; the square through their mean with one size only, or when the
/// power found is outside [`POWERS`] (timings of a few milliseconds are mostly noise).
fn fit(points: &[(usize, f64)]) -> (f64, f64) {
    let points: Vec<(f64, f64)> = points
        .iter()
        .filter(|&&(_, cost)| cost > 0.0)
        .map(|&(size, cost)| ((size.max(1) as f64).ln(), cost.ln()))
        .collect();
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    let exponent = sxy / sxx;
    if points.len() < 2 || sxx < 1e-9 || !POWERS.contains(&exponent) {
        let exponent = 2.0;
        let scale = if points.is_empty() {
            0.0
        } else {
            (mean_y - exponent * mean_x).exp()
        };
        return (exponent, scale);
    }
    (exponent, (mean_y - exponent * mean_x).exp())
}

#[cfg(test)]
mod tests;
