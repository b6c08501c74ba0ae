//! `moo tree split --estimate`: a few of the split's jobs run here, and the largest and
//! smallest parts split deeper driven through all their rounds ([`Split::drive`]), timed in CPU
//! seconds on one thread, and the whole run predicted from them ([`Split::estimate`]).

use std::path::Path;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};
use moo_core::tree::{
    exact_space, DrivenPart, Estimate, Job, JobResult, Progress, SampledJob, SearchError, Split,
    SplitError,
};
use moo_core::{CodeSpace, Stop};

use crate::cli::output::{outln, write_run_file};

/// How many jobs an estimate runs.
const SAMPLES: usize = 6;

/// This process's CPU time so far (user and system), in seconds, where the platform tells it.
pub fn cpu_seconds() -> Option<f64> {
    own_usage().map(|u| u.cpu_seconds)
}

/// The most memory this process has held at once (its peak resident set), in bytes, where the
/// platform tells it.
pub fn peak_bytes() -> Option<u64> {
    own_usage()?.peak_bytes
}

/// The name of the node running this job: Slurm's name for it (`SLURMD_NODENAME`) under Slurm,
/// else this machine's name as the kernel has it, where the platform tells it. A job result
/// records it so that a join can say which machines its claims rest on. Slurm's name comes
/// first because several slurmd daemons can serve one machine (multiple-slurmd), each a node of
/// its own under one host name.
pub fn host_name() -> Option<String> {
    let name = std::env::var("SLURMD_NODENAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/proc/sys/kernel/hostname").ok())?;
    let name = name.trim();
    (!name.is_empty()).then(|| moo_core::text::excerpt(name))
}

/// What this process has used so far, as [`cpu_seconds`] and [`peak_bytes`] report it.
struct Usage {
    cpu_seconds: f64,
    peak_bytes: Option<u64>,
}

/// This process's [`Usage`], on Linux with glibc (the one platform where `libc` is a
/// dependency and `ru_maxrss` is known to count KiB).
fn own_usage() -> Option<Usage> {
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
        Some(Usage {
            cpu_seconds: seconds(usage.ru_utime) + seconds(usage.ru_stime),
            peak_bytes: u64::try_from(usage.ru_maxrss).ok().map(|kib| kib * 1024),
        })
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    {
        None
    }
}

/// Runs a sample of `split`'s jobs and drives a sample of its deep parts, on one thread as the
/// jobs are measured, and predicts the whole run; the sampled jobs' results are written beside
/// their jobs in `dir`, so the run does not repeat them. Without a `budget` it samples six jobs
/// and drives the largest and the smallest deep part; within one (CPU seconds of the estimate's
/// own) it samples and drives from the smallest up while the next is predicted to fit.
pub fn estimate(split: &Split, jobs: &[Job], dir: &Path, budget: Option<f64>) -> Result<Estimate> {
    if cpu_seconds().is_none() {
        anyhow::bail!("--estimate needs this platform's CPU clock (Linux with glibc)");
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .context("cannot start the estimate's thread")?;
    let space = exact_space(split.rules.clone())?;
    pool.install(|| match budget {
        None => everything(split, jobs, dir, &space),
        Some(budget) => within(split, jobs, dir, &space, budget),
    })
}

/// This process's CPU clock, in seconds.
fn clock() -> f64 {
    cpu_seconds().unwrap_or(0.0)
}

/// The smallest job, the fixed start of every job: run as its own process, as the run will run
/// it (a process's start, with its score table, is most of a small game's job).
fn start(jobs: &[Job], dir: &Path, index: usize) -> Result<SampledJob> {
    Ok(SampledJob {
        index,
        size: jobs[index].entry.size,
        cpu_seconds: in_a_process(dir, index)?,
    })
}

/// Solves job `index` here, its result written beside it, and returns its CPU time, or `None`
/// when `stop` fired first.
fn sample(
    jobs: &[Job],
    dir: &Path,
    space: &CodeSpace,
    index: usize,
    stop: &Stop,
) -> Result<Option<SampledJob>> {
    let job = &jobs[index];
    let before = clock();
    let mut result = match job.solve_in(space, &Progress::new(), stop, None) {
        Ok(result) => result,
        Err(SplitError::Search(SearchError::Stopped)) => return Ok(None),
        Err(e) => return Err(e).with_context(|| format!("sampling job {index}")),
    };
    let seconds = clock() - before;
    result.cpu_seconds = Some(seconds);
    write_run_file(
        &dir.join(format!("{index:04}.result.json")),
        result.to_json().as_bytes(),
    )?;
    Ok(Some(SampledJob {
        index,
        size: job.entry.size,
        cpu_seconds: seconds,
    }))
}

/// Drives deep part `which`, or `None` when `stop` fired first.
fn drive(
    split: &Split,
    space: &CodeSpace,
    which: usize,
    stop: &Stop,
) -> Result<Option<DrivenPart>> {
    let d = &split.deeper[which];
    match split.drive(space, which, &clock, stop) {
        Ok(p) => Ok(Some(p)),
        Err(SplitError::Search(SearchError::Stopped)) => Ok(None),
        Err(e) => Err(e).with_context(|| format!("driving part {} {}", d.guess, d.feedback)),
    }
}

/// Six of round 1's jobs, and the largest and smallest deep parts, whatever they cost.
fn everything(split: &Split, jobs: &[Job], dir: &Path, space: &CodeSpace) -> Result<Estimate> {
    let mut sampled = Vec::new();
    let picked = split.sample(SAMPLES);
    if let Some(&index) = picked.first() {
        sampled.push(start(jobs, dir, index)?);
    }
    for &index in picked.iter().skip(1) {
        sampled.extend(sample(jobs, dir, space, index, &Stop::never())?);
    }
    let mut driven = Vec::new();
    for which in split.drive_sample() {
        driven.extend(drive(split, space, which, &Stop::never())?);
    }
    Ok(split.estimate(sampled, driven))
}

/// Round 1's jobs and the deep parts from the smallest up ([`Split::sample_upward`],
/// [`Split::drive_upward`]), each while the CPU time its
/// predecessors predict for it fits in what is left of `budget` (round 1's jobs in a quarter of
/// it: the deep parts are most of a large game's run), a part predicted not to fit skipped for
/// the next; a step that overruns is stopped when the budget is spent and left out.
fn within(
    split: &Split,
    jobs: &[Job],
    dir: &Path,
    space: &CodeSpace,
    budget: f64,
) -> Result<Estimate> {
    let begun = clock();
    let mut outside = 0.0;
    let mut sampled: Vec<SampledJob> = Vec::new();
    let order = split.sample_upward();
    if let Some(&index) = order.first() {
        let s = start(jobs, dir, index)?;
        outside += s.cpu_seconds;
        sampled.push(s);
    }
    // The clock reading at which `share` of the budget is spent.
    let until = |share: f64, outside: f64| begun + share - outside;
    for &index in order.iter().skip(1) {
        let size = jobs[index].entry.size;
        let last = sampled.last().map_or((1, 0.0), |s| (s.size, s.cpu_seconds));
        if clock() + next_cost(last, size) > until(budget / 4.0, outside) {
            break;
        }
        let limit = CpuLimit::at(until(budget / 4.0, outside));
        match sample(jobs, dir, space, index, &limit.stop)? {
            Some(s) => sampled.push(s),
            None => break,
        }
    }
    let mut driven: Vec<DrivenPart> = Vec::new();
    for which in split.drive_upward() {
        let size = split.deeper[which].size;
        let next = driven
            .iter()
            .map(|p| next_cost((p.size, p.took), size))
            .fold(0.0, f64::max);
        if clock() + next > until(budget, outside) {
            continue;
        }
        let limit = CpuLimit::at(until(budget, outside));
        match drive(split, space, which, &limit.stop)? {
            Some(p) => driven.push(p),
            None => break,
        }
    }
    let Some(smallest) = split.drive_upward().first().map(|&i| &split.deeper[i]) else {
        let mut estimate = split.estimate(sampled, driven).within(budget);
        estimate.took = clock() - begun + outside;
        return Ok(estimate);
    };
    if driven.is_empty() {
        anyhow::bail!(
            "the estimate's budget of {} CPU s ran out before the smallest part split deeper ({} {}, {} secrets) was driven through its rounds, so nothing predicts the deep parts: give a larger --estimate-budget",
            secs(budget),
            smallest.guess,
            smallest.feedback,
            smallest.size
        );
    }
    let mut estimate = split.estimate(sampled, driven).within(budget);
    // What the budget paid for, a step stopped and left out included.
    estimate.took = clock() - begun + outside;
    Ok(estimate)
}

/// What the next step, of `size`, is predicted to cost from one before, `(size, CPU seconds)`:
/// the square of the sizes' ratio, the power most of the fits find (a drive is predicted by the
/// costliest of the drives before it, since one part's drive may cost several times another's
/// of its size).
fn next_cost((size0, cost0): (usize, f64), size: usize) -> f64 {
    cost0 * (size as f64 / size0.max(1) as f64).powi(2)
}

/// A stop that fires once this process's CPU clock reaches a reading: a thread looks at the
/// clock every 20 ms, and is ended and joined on drop.
struct CpuLimit {
    stop: Stop,
    done: Arc<AtomicBool>,
    watcher: Option<std::thread::JoinHandle<()>>,
}

impl CpuLimit {
    fn at(reading: f64) -> CpuLimit {
        let flag = Arc::new(AtomicBool::new(false));
        let done = Arc::new(AtomicBool::new(false));
        let watcher = {
            let (flag, done) = (flag.clone(), done.clone());
            std::thread::spawn(move || {
                while !done.load(Ordering::Relaxed) {
                    if clock() >= reading {
                        flag.store(true, Ordering::Relaxed);
                        return;
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
            })
        };
        CpuLimit {
            stop: Stop::never().with_flag(flag),
            done,
            watcher: Some(watcher),
        }
    }
}

impl Drop for CpuLimit {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(watcher) = self.watcher.take() {
            // A watcher only reads a clock and sets a flag: it cannot have panicked on its own.
            let _ = watcher.join();
        }
    }
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
    print_measured(estimate)?;
    if !estimate.parts.is_empty() {
        print_parts(estimate)?;
    }
    print_total(estimate)?;
    if let Some(budget) = estimate.budget {
        print_range(estimate, budget)?;
    }
    Ok(())
}

/// What was run here: the sampled jobs and the parts driven through their rounds.
fn print_measured(estimate: &Estimate) -> Result<()> {
    let each = listed(&estimate.sampled, |s| {
        format!(
            "job {} ({} secrets) {} s",
            s.index,
            s.size,
            secs(s.cpu_seconds)
        )
    });
    outln!("sampled   {each}")?;
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
    Ok(())
}

/// `items`, each written by `each`, separated by commas: one line of the report.
fn listed<T>(items: &[T], each: impl Fn(&T) -> String) -> String {
    items.iter().map(each).collect::<Vec<_>>().join(", ")
}

/// Each part split deeper, driven or predicted, and the power law for the rest.
fn print_parts(estimate: &Estimate) -> Result<()> {
    let each = listed(&estimate.parts, |p| {
        if p.driven {
            format!("{} ({}) {} s (driven)", p.feedback, p.size, secs(p.seconds))
        } else {
            format!(
                "{} ({}) {} s ({} to {})",
                p.feedback,
                p.size,
                secs(p.seconds),
                secs(p.low),
                secs(p.high)
            )
        }
    });
    outln!(
        "parts     {}; the others ~ {:.3e} * n^{:.2} s for n secrets",
        each,
        estimate.deep_scale,
        estimate.deep_exponent
    )?;
    Ok(())
}

/// The whole run's CPU time and the fit it came from.
fn print_total(estimate: &Estimate) -> Result<()> {
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
    )?;
    Ok(())
}

/// The range within the budget, and the wall time that range means on a cluster.
fn print_range(estimate: &Estimate, budget: f64) -> Result<()> {
    let driven = estimate.parts.iter().filter(|p| p.driven).count();
    outln!(
        "range     {} to {} CPU s ({:.2} to {:.2} CPU hours; {:.2} central): {} of {} parts split deeper driven within the budget of {} CPU s, the others predicted by size, each between the powers through two driven parts",
        secs(estimate.low),
        secs(estimate.high),
        estimate.low / 3600.0,
        estimate.high / 3600.0,
        estimate.total / 3600.0,
        driven,
        estimate.parts.len(),
        secs(budget)
    )?;
    for nodes in CLUSTERS {
        let (low, central, high) = estimate.wall(nodes, 2);
        outln!(
            "cluster   {nodes} nodes of 2 cores: at least {:.2} wall hours ({:.2} to {:.2}), were the CPU time spread evenly",
            central / 3600.0,
            low / 3600.0,
            high / 3600.0
        )?;
    }
    Ok(())
}

/// The cluster sizes an estimate within a budget gives wall times for, in nodes of 2 cores.
const CLUSTERS: [usize; 2] = [16, 128];
