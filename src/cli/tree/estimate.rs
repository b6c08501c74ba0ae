//! `moo tree split --estimate`: a few of the split's jobs run here, timed in CPU seconds, and
//! the whole run predicted from them ([`Split::estimate`]).

use std::path::Path;

use anyhow::{Context, Result};
use moo_core::tree::{Estimate, Job, Progress, SampledJob, Split};
use moo_core::Stop;

use crate::cli::output::{outln, write_file};

/// How many jobs an estimate runs.
const SAMPLES: usize = 6;

/// This process's CPU time so far (user and system), in seconds, where the platform tells it.
pub fn cpu_seconds() -> Option<f64> {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::uninit();
        // SAFETY: getrusage writes the whole struct when it returns 0.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) } != 0 {
            return None;
        }
        // SAFETY: initialised by the successful call above.
        let usage = unsafe { usage.assume_init() };
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        None
    }
}

/// Runs a sample of `split`'s jobs and predicts the whole run; the sampled results are written
/// beside their jobs in `dir`, so the run does not repeat them.
pub fn estimate(split: &Split, jobs: &[Job], dir: &Path) -> Result<Estimate> {
    let Some(mut before) = cpu_seconds() else {
        anyhow::bail!("--estimate needs this platform's CPU clock (Linux with glibc)");
    };
    let mut sampled = Vec::new();
    for index in split.sample(SAMPLES) {
        let job = &jobs[index];
        let mut result = job
            .solve(&Progress::new(), &Stop::never())
            .with_context(|| format!("sampling job {index}"))?;
        let after = cpu_seconds().unwrap_or(before);
        result.cpu_seconds = Some(after - before);
        write_file(
            &dir.join(format!("{index:04}.result.json")),
            result.to_json().as_bytes(),
        )?;
        sampled.push(SampledJob {
            index,
            size: job.entry.size,
            cpu_seconds: after - before,
        });
        before = after;
    }
    Ok(split.estimate(sampled))
}

/// Prints an estimate for a reader.
pub fn print(estimate: &Estimate) -> Result<()> {
    let each: Vec<String> = estimate
        .sampled
        .iter()
        .map(|s| {
            format!(
                "job {} ({} secrets) {:.2} s",
                s.index, s.size, s.cpu_seconds
            )
        })
        .collect();
    outln!("sampled   {}", each.join(", "))?;
    outln!(
        "estimate  {:.0} CPU s in all ({:.0} s round 1, {:.0} s the later rounds; a job of n secrets ~ {:.2} + {:.3e} * n^{:.2} s; the largest job {:.1} s)",
        estimate.total,
        estimate.round_one,
        estimate.later_rounds,
        estimate.start,
        estimate.scale,
        estimate.exponent,
        estimate.largest
    )
}
