//! What a whole split run will cost, predicted from a few of its jobs run first.
//!
//! The jobs of one split differ mostly by the size of the position they search: each costs a
//! fixed start (the process, the score table) and a search whose cost grows as a power of that
//! size. Most jobs are small and most of the time is in the few large ones, so a handful of
//! round 1's jobs are taken at evenly spaced steps of their cumulative estimated cost (size
//! squared), the smallest sample gives the fixed start, and the others the power and its scale
//! by least squares on logarithms; every job of round 1 is then predicted from its size. The
//! later rounds cannot be sampled before round 1 is in (their jobs need its bounds), so they are
//! predicted as [`LATER_ROUNDS_RATIO`] times round 1's pieces' predicted cost: the later guesses
//! of a position refuted, in proportion to what its first guesses cost to solve.

use serde::Serialize;

use super::{Split, Task};

/// The later rounds' cost relative to round 1's pieces' cost. Measured on Bulls and Cows 4 of
/// 0-9 (see the book's splitting chapter), not on the game it predicts.
pub const LATER_ROUNDS_RATIO: f64 = 3.9;

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

/// The predicted CPU time of a whole split run.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[non_exhaustive]
pub struct Estimate {
    /// The jobs sampled.
    pub sampled: Vec<SampledJob>,
    /// The fixed start of a job, in CPU seconds (the smallest sample's).
    pub start: f64,
    /// A job of `n` secrets is predicted to take `start + scale * n^exponent` CPU seconds.
    pub exponent: f64,
    /// See [`Estimate::exponent`].
    pub scale: f64,
    /// Round 1's predicted CPU time, in seconds.
    pub round_one: f64,
    /// The later rounds' predicted CPU time, in seconds.
    pub later_rounds: f64,
    /// The whole run's predicted CPU time, in seconds.
    pub total: f64,
    /// The largest predicted job of round 1, in seconds.
    pub largest: f64,
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

    /// The whole run's CPU time predicted from `sampled` jobs (at least two of different sizes
    /// for a power; with fewer, cost is taken as proportional to size squared).
    pub fn estimate(&self, sampled: Vec<SampledJob>) -> Estimate {
        let start = sampled
            .iter()
            .map(|s| s.cpu_seconds)
            .fold(f64::INFINITY, f64::min);
        let start = if start.is_finite() { start } else { 0.0 };
        let searches: Vec<SampledJob> = sampled
            .iter()
            .filter(|s| s.cpu_seconds > start)
            .map(|s| SampledJob {
                cpu_seconds: s.cpu_seconds - start,
                ..s.clone()
            })
            .collect();
        let (exponent, scale) = fit(&searches);
        let predict = |size: usize| start + scale * (size.max(1) as f64).powf(exponent);
        let round_one: f64 = self.jobs.iter().map(|e| predict(e.size)).sum();
        let later_rounds = LATER_ROUNDS_RATIO
            * self
                .jobs
                .iter()
                .filter(|e| matches!(e.task, Task::Pieces { .. }))
                .map(|e| predict(e.size))
                .sum::<f64>();
        let largest = self
            .jobs
            .iter()
            .map(|e| predict(e.size))
            .fold(0.0, f64::max);
        Estimate {
            sampled,
            start,
            exponent,
            scale,
            round_one,
            later_rounds,
            total: round_one + later_rounds,
            largest,
        }
    }
}

/// `(exponent, scale)` of `cost = scale * size^exponent`, by least squares on logarithms.
fn fit(sampled: &[SampledJob]) -> (f64, f64) {
    let points: Vec<(f64, f64)> = sampled
        .iter()
        .filter(|s| s.cpu_seconds > 0.0)
        .map(|s| ((s.size.max(1) as f64).ln(), s.cpu_seconds.ln()))
        .collect();
    let n = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / n;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / n;
    let sxx: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    let sxy: f64 = points.iter().map(|p| (p.0 - mean_x) * (p.1 - mean_y)).sum();
    if points.len() < 2 || sxx < 1e-9 {
        // One size only: the square, through the mean.
        let exponent = 2.0;
        let scale = if points.is_empty() {
            0.0
        } else {
            (mean_y - exponent * mean_x).exp()
        };
        return (exponent, scale);
    }
    let exponent = sxy / sxx;
    (exponent, (mean_y - exponent * mean_x).exp())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_power_law_is_recovered() {
        let sampled: Vec<SampledJob> = [10usize, 100, 1000]
            .iter()
            .enumerate()
            .map(|(index, &size)| SampledJob {
                index,
                size,
                cpu_seconds: 0.001 * (size as f64).powf(1.5),
            })
            .collect();
        let (exponent, scale) = fit(&sampled);
        assert!((exponent - 1.5).abs() < 1e-9, "{exponent}");
        assert!((scale - 0.001).abs() < 1e-9, "{scale}");
    }
}
