//! `moo tree split --estimate`: a few of the split's jobs run here, and the largest and
//! smallest parts split deeper driven through all their rounds ([`Split::drive`]), timed in CPU
//! seconds on one thread, and the whole run predicted from them ([`Split::estimate`]).

use std::path::Path;

use anyhow::{Context, Result};
use moo_core::tree::{Estimate, Job, JobResult, Progress, SampledJob, Split};
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

/// Runs a sample of `split`'s jobs and drives a sample of its deep parts, on one thread as the
/// jobs are measured, and predicts the whole run; the sampled jobs' results are written beside
/// their jobs in `dir`, so the run does not repeat them.
pub fn estimate(split: &Split, jobs: &[Job], dir: &Path) -> Result<Estimate> {
    if cpu_seconds().is_none() {
        anyhow::bail!("--estimate needs this platform's CPU clock (Linux with glibc)");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .context("cannot start the estimate's thread")?;
    pool.install(|| {
        let clock = || cpu_seconds().unwrap_or(0.0);
        let mut sampled = Vec::new();
        let picked = split.sample(SAMPLES);
        // The smallest job is the fixed start of every job: run as its own process, as the run
        // will run it (a process's start is most of a small game's job).
        if let Some(&index) = picked.first() {
            sampled.push(SampledJob {
                index,
                size: jobs[index].entry.size,
                cpu_seconds: in_a_process(dir, index)?,
            });
        }
        for &index in picked.iter().skip(1) {
            let job = &jobs[index];
            let before = clock();
            let mut result = job
                .solve(&Progress::new(), &Stop::never())
                .with_context(|| format!("sampling job {index}"))?;
            let seconds = clock() - before;
            result.cpu_seconds = Some(seconds);
            write_file(
                &dir.join(format!("{index:04}.result.json")),
                result.to_json().as_bytes(),
            )?;
            sampled.push(SampledJob {
                index,
                size: job.entry.size,
                cpu_seconds: seconds,
            });
        }
        let mut driven = Vec::new();
        for which in split.drive_sample() {
            let d = &split.deeper[which];
            driven.push(
                split
                    .drive(which, &clock, &Stop::never())
                    .with_context(|| format!("driving part {} {}", d.guess, d.feedback))?,
            );
        }
        Ok(split.estimate(sampled, driven))
    })
}

/// Runs job `index` of `dir` as `moo tree job` does in a process of its own, and returns the
/// CPU time that process took, as its result records it.
fn in_a_process(dir: &Path, index: usize) -> Result<f64> {
    let exe = std::env::current_exe().context("cannot find this program to run a job with")?;
    let out = std::process::Command::new(exe)
        .args(["tree", "job", "--force", "--threads", "1", "--index"])
        .arg(index.to_string())
        .arg(dir)
        .output()
        .with_context(|| format!("cannot run job {index}"))?;
    if !out.status.success() {
        anyhow::bail!(
            "job {index} failed: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let path = dir.join(format!("{index:04}.result.json"));
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let result = JobResult::from_json(&text).with_context(|| format!("{}", path.display()))?;
    result
        .cpu_seconds
        .with_context(|| format!("{} records no CPU time", path.display()))
}

/// Seconds as a reader takes them: three figures or so.
fn secs(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 1.0 {
        format!("{x:.1}")
    } else if x >= 0.01 {
        format!("{x:.2}")
    } else {
        format!("{x:.3}")
    }
}

/// Prints an estimate for a reader.
pub fn print(estimate: &Estimate) -> Result<()> {
    let each: Vec<String> = estimate
        .sampled
        .iter()
        .map(|s| {
            format!(
                "job {} ({} secrets) {} s",
                s.index,
                s.size,
                secs(s.cpu_seconds)
            )
        })
        .collect();
    outln!("sampled   {}", each.join(", "))?;
    for p in &estimate.driven {
        outln!(
            "driven    {} {} ({} secrets, {} CPU s here): {} jobs; {} of pieces, {} s; {} runs of {} later guesses, {} tried, {} s scaled up; {} s with {} s a job's start",
            p.guess,
            p.feedback,
            p.size,
            secs(p.took),
            p.jobs,
            p.pieces,
            secs(p.pieces_seconds),
            p.runs,
            p.later_guesses,
            p.tried_guesses,
            secs(p.runs_seconds),
            secs(p.cost(estimate.start)),
            secs(estimate.start)
        )?;
    }
    if !estimate.parts.is_empty() {
        let each: Vec<String> = estimate
            .parts
            .iter()
            .map(|p| {
                let driven = if p.driven { " (driven)" } else { "" };
                format!("{} {} s{driven}", p.feedback, secs(p.seconds))
            })
            .collect();
        outln!(
            "parts     {}; the others ~ {:.3e} * n^{:.2} s for n secrets",
            each.join(", "),
            estimate.deep_scale,
            estimate.deep_exponent
        )?;
    }
    let deeper = if estimate.parts.is_empty() {
        String::new()
    } else {
        format!(
            "{} s the parts split deeper, ",
            secs(estimate.total - estimate.whole)
        )
    };
    outln!(
        "estimate  {} CPU s in all: {deeper}{} s the whole parts (a job of n secrets ~ {} + {:.3e} * n^{:.2} s); the largest job {} s; the estimate took {} CPU s",
        secs(estimate.total),
        secs(estimate.whole),
        secs(estimate.start),
        estimate.scale,
        estimate.exponent,
        secs(estimate.largest),
        secs(estimate.took)
    )
}
