//! `moo tree split`, `moo tree job`, `moo tree join`, `moo tree status`: one exact search run
//! as independent jobs (on several processes or machines) and joined into one verified tree.
//!
//! The jobs' directory is the only thing the machines share: `split.json` (the manifest), one
//! `NNNN.job.json` per subproblem and, once run, its `NNNN.result.json` beside it. Files are
//! numbered so a batch system's task index names its job (`moo tree job DIR --index N`), and
//! every file is written whole or not at all, so a job killed midway leaves no result and is
//! simply run again. A split whose large parts go deeper has later rounds: `join` writes each
//! round's jobs, numbered after the rounds before, and `status` names the jobs still to run.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use moo_core::text::read_capped;
use moo_core::tree::{
    array_range, exact_space, Ceiling, Job, JobResult, Joined, Progress, RunDir, Split,
    SplitOptions, MAX_TREE_FILE,
};
use moo_core::Stop;

use super::flags::SearchArgs;
use super::run_report::{self, print_standing, report_job, JoinReport};
use crate::cli::output::{check_run_entry, outln, write_file, write_run_file};
use crate::cli::{parse_threads, worker_pool, RuleArgs, UsageError};

/// `moo tree split`'s flags.
#[derive(Debug, ClapArgs)]
pub struct SplitArgs {
    /// The directory to write the jobs to (created if missing; it must not hold another split).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Print the list of jobs as JSON on stdout.
    #[arg(long)]
    json: bool,

    /// Split a part or a large piece at its next guess when estimated above PERCENT of the run
    #[arg(long, value_name = "PERCENT", default_value_t = 2.0, value_parser = parse_percent)]
    share: f64,

    /// Also run a sample of the jobs here, and the largest and smallest parts split deeper
    /// through all their rounds, and predict the CPU time of the whole run from them
    #[arg(long)]
    estimate: bool,

    /// Estimate (as --estimate) within this much of the estimate's own CPU time, e.g. 90s or
    /// 20m: round 1's jobs and the parts split deeper are run from the smallest up while the
    /// next is predicted to fit, and the rest predicted by the power of size through them, as
    /// a range
    #[arg(long, value_name = "DURATION", value_parser = parse_budget)]
    estimate_budget: Option<f64>,

    #[command(flatten)]
    rules: RuleArgs,

    #[command(flatten)]
    search: SearchArgs,
}

/// `moo tree job`'s flags.
#[derive(Debug, ClapArgs)]
pub struct JobArgs {
    /// A job file (`DIR/0007.job.json`), or the jobs' directory with `--index`.
    path: PathBuf,

    /// With a directory: which job to run (0 to the number of jobs - 1), e.g.
    /// `$SLURM_ARRAY_TASK_ID` or `$JOB_COMPLETION_INDEX`.
    #[arg(long, value_name = "N")]
    index: Option<usize>,

    /// Where to write the result [default: the job file's name with `.result.json`].
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,

    /// Solve again even if the result file already answers this job.
    #[arg(long)]
    force: bool,

    /// Worker threads, at most 4 per core [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,

    /// Print a summary of the result as JSON on stdout.
    #[arg(long)]
    json: bool,

    /// The most memory the search's cache may take, e.g. 8GiB. A job of more than minutes can
    /// fill the default, and a full cache forgets its smallest candidate sets, which the search
    /// then meets and solves again: more memory costs less time, never another result
    /// [default: 640 MiB].
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::parse_size, help_heading = "Memory")]
    cache_memory: Option<u64>,

    /// Run under the job's own bound only. Without this, a run of later guesses in a jobs'
    /// directory reads the results of its position's other runs, as they come in, and needs
    /// only to beat the trees they found, which refutes its guesses sooner (often several
    /// times over); the join gives the same tree either way, but the run's lower bound, if it
    /// finds no tree, then depends on which results were in.
    #[arg(long)]
    alone: bool,
}

/// `moo tree status`'s flags.
#[derive(Debug, ClapArgs)]
pub struct StatusArgs {
    /// The jobs' directory.
    dir: PathBuf,

    /// Print how far the run has got instead of the range: jobs written and done, the CPU time
    /// the done ones took, and both by first-level part (for a run that lasts days).
    #[arg(long)]
    summary: bool,

    /// Print what the results in prove instead of the range, while a round is still running:
    /// the parts settled with their optima, a lower bound for each part still open, the least
    /// total any strategy can reach, and the best strategy found so far. Derives every
    /// position as a join does (as long as a join takes).
    #[arg(long)]
    bounds: bool,

    /// With --bounds, also write the best strategy the results have found so far to FILE (a
    /// tree, replayed over every secret first): each part's optimum where it is settled, else
    /// the cheapest subtree found for it
    #[arg(long, value_name = "FILE", requires = "bounds")]
    strategy: Option<PathBuf>,

    /// Check the whole directory instead of printing the range, writing nothing: every entry a
    /// regular file of the run (no links, pipes or strangers), the first round's job files the
    /// manifest's own, every result the answer to the job the manifest and the results before
    /// it derive, the next round's job files (where written) the ones the join would write, and
    /// a finished run's tree replayed over every secret. Fails on the first problem. What it
    /// cannot check is a job's own search, which each result claims.
    #[arg(long, conflicts_with_all = ["summary", "bounds"])]
    verify: bool,
}

/// `moo tree join`'s flags.
#[derive(Debug, ClapArgs)]
pub struct JoinArgs {
    /// The jobs' directory, with `split.json` and every job's result.
    dir: PathBuf,

    /// Where to write the joined tree (JSON), written whole or not at all.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: PathBuf,

    /// Where to write what the tree's claim of optimality rests on (each job's claim, and the
    /// machine and kernel that proved it); default: beside the tree, `.claims.json` added to
    /// its name
    #[arg(long, value_name = "FILE")]
    claims: Option<PathBuf>,

    /// Print the result as JSON on stdout.
    #[arg(long)]
    json: bool,
}

/// An estimate's CPU budget, in seconds.
fn parse_budget(text: &str) -> Result<f64, String> {
    let d = humantime::parse_duration(text)
        .map_err(|e| format!("{e}: write a CPU time such as 90s, 20m or 2h"))?;
    if d.is_zero() {
        return Err("the estimate's budget must be more than 0, e.g. 90s or 20m".into());
    }
    Ok(d.as_secs_f64())
}

/// A percentage from 0 to 100.
fn parse_percent(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..=100.0).contains(&p) => Ok(p),
        Ok(p) => Err(format!("{p} is not a percentage from 0 to 100")),
        Err(e) => Err(format!("{e}")),
    }
}

/// Runs `moo tree split`.
pub fn split(args: SplitArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let space = exact_space(rules)?;
    let options = args.search.options();
    let how =
        SplitOptions::default().with_share((args.share < 100.0).then_some(args.share / 100.0));
    let (split, jobs) =
        Split::plan(&space, &options, &how).map_err(|e| UsageError(e.to_string()))?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let run = RunDir::new(&args.out);
    if run.manifest().exists() {
        let old = run.read_split()?;
        if old.fingerprint != split.fingerprint {
            bail!(
                "{} already holds another split (fingerprint {}): use an empty directory",
                args.out.display(),
                old.fingerprint
            );
        }
    }
    write_jobs(&args.out, &jobs)?;
    // The manifest last: a directory with a manifest has every job file.
    write_run_file(&run.manifest(), split.to_json().as_bytes())?;
    let estimate = if args.estimate || args.estimate_budget.is_some() {
        Some(super::estimate::estimate(
            &split,
            &jobs,
            &args.out,
            args.estimate_budget,
        )?)
    } else {
        None
    };
    run_report::print_split(&args.out, &split, estimate.as_ref(), args.json)
}

/// Writes each job's file, whole or not at all; an existing file that already says the same
/// is left alone, so a round written again changes nothing.
fn write_jobs(dir: &Path, jobs: &[Job]) -> Result<()> {
    for job in jobs {
        let path = RunDir::new(dir).job(job.entry.index);
        let text = job.to_json();
        if check_run_entry(&path)? && std::fs::read_to_string(&path).is_ok_and(|old| old == text) {
            continue;
        }
        write_run_file(&path, text.as_bytes())?;
    }
    Ok(())
}

/// Runs `moo tree job`.
pub fn job(args: JobArgs) -> Result<()> {
    let (job_path, dir) = if args.path.is_dir() {
        let Some(index) = args.index else {
            return Err(UsageError(format!(
                "{} is a directory: say which job with --index N",
                args.path.display()
            ))
            .into());
        };
        (RunDir::new(&args.path).job(index), Some(args.path.clone()))
    } else {
        if args.index.is_some() {
            return Err(
                UsageError("--index goes with a directory, not with a job file".into()).into(),
            );
        }
        let dir = args.path.parent().map(Path::to_path_buf);
        (args.path.clone(), dir)
    };
    let job = Job::read(&job_path)?;
    // The manifest beside the job, when there is one, confirms the job is one of its split's.
    let mut beside = None;
    if let Some(dir) = dir.map(RunDir::new).filter(|d| d.manifest().exists()) {
        let split = dir.read_split()?;
        job.check(&split)
            .with_context(|| format!("{}", job_path.display()))?;
        beside = Some((dir.written_jobs(&split), dir));
    }
    let output = match args.output {
        Some(path) => path,
        None => RunDir::new(job_path.parent().unwrap_or(Path::new(""))).result(job.entry.index),
    };
    // Refused before the search, not after it: a link or pipe at the result's name.
    check_run_entry(&output)?;
    if !args.force {
        if let Some(done) = JobResult::read(&output)?.filter(|r| job.is_answered_by(r)) {
            return report_job(&done, &output, true, args.json);
        }
    }
    let pool = worker_pool(args.threads)?;
    let progress = Progress::new();
    let space =
        exact_space(job.rules.clone()).with_context(|| format!("{}", job_path.display()))?;
    let others = match beside {
        Some((written, dir)) if !args.alone => super::watch::other_runs(&dir, &job, written),
        _ => Vec::new(),
    };
    let ceiling = Ceiling::new();
    let mut result = super::watch::watching(&job, others, &ceiling, || {
        pool.install(|| {
            job.solve_under(
                &space,
                &progress,
                &Stop::never(),
                args.cache_memory,
                &ceiling,
            )
        })
    })
    .with_context(|| format!("{}", job_path.display()))?;
    result.cpu_seconds = super::estimate::cpu_seconds();
    result.peak_bytes = super::estimate::peak_bytes();
    result.host = super::estimate::host_name();
    write_run_file(&output, result.to_json().as_bytes())?;
    report_job(&result, &output, false, args.json)
}

/// Runs `moo tree join`.
pub fn join(args: JoinArgs) -> Result<()> {
    let start = Instant::now();
    let run = RunDir::new(&args.dir);
    let split = run.read_split()?;
    let results = run.read_results(&split)?;
    let joined = split.join(&results)?;
    let seconds = start.elapsed().as_secs_f64();
    let report = match joined {
        Joined::Found {
            tree,
            stats,
            nodes,
            seconds: job_seconds,
            jobs,
        } => {
            let claims = args
                .claims
                .clone()
                .or_else(|| super::claims::default_path(&args.output));
            write_file(&args.output, tree.to_json(false).as_bytes())?;
            if let Some(path) = &claims {
                super::claims::write(path, &args.output, &tree, &stats, &results[..jobs])?;
            }
            let cpu = run_report::cpu_of(&results[..jobs]);
            let hosts = run_report::hosts_of(&results[..jobs]);
            let report = JoinReport::Found {
                stats: &stats,
                nodes,
                job_seconds,
                seconds,
                jobs,
                cpu_seconds: cpu.map(|c| c.0),
                largest_cpu_seconds: cpu.map(|c| c.1),
                largest_job: cpu.map(|c| c.2),
                hosts: &hosts,
                file: args.output.display().to_string(),
                claims: claims.as_ref().map(|c| c.display().to_string()),
            };
            return run_report::print_join(&report, &split, &args.dir, args.json);
        }
        Joined::Impossible { max_depth } => JoinReport::Impossible {
            impossible: true,
            max_depth,
            hosts: &run_report::hosts_of(&results),
        },
        Joined::Round {
            round,
            jobs,
            standing,
        } => {
            write_jobs(&args.dir, &jobs)?;
            let indexes: Vec<usize> = jobs.iter().map(|j| j.entry.index).collect();
            JoinReport::Round {
                round,
                jobs: jobs.len(),
                array: array_range(&indexes),
                standing,
            }
        }
        _ => bail!("the join ended in a way this version of moo does not know"),
    };
    run_report::print_join(&report, &split, &args.dir, args.json)
}

/// Runs `moo tree status`: the jobs written so far that have no result yet, as a batch
/// system's array range (`0-15,17`), or nothing when every one has.
pub fn status(args: StatusArgs) -> Result<()> {
    let run = RunDir::new(&args.dir);
    let split = run.read_split()?;
    if args.verify {
        return verify_run(&run, &split);
    }
    if args.summary {
        run_report::summary(&run, &split)?;
    }
    if args.bounds {
        bounds(&run, &split, args.strategy.as_deref())?;
    }
    if args.summary || args.bounds {
        return Ok(());
    }
    let mut pending = Vec::new();
    for index in 0..run.written_jobs(&split) {
        if JobResult::read(&run.result(index))?.is_none() {
            pending.push(index);
        }
    }
    if pending.is_empty() {
        return Ok(());
    }
    outln!("{}", array_range(&pending))
}

/// `moo tree status --verify`: the run directory checked as a whole (see the flag).
fn verify_run(run: &RunDir, split: &Split) -> Result<()> {
    let written = run.written_jobs(split);
    check_run_files(run, split, written)?;
    let results = run.read_results(split)?;
    let done = results.iter().flatten().count();
    let hosts = run_report::hosts_of(&results);
    let pending = written - done;
    if pending > 0 {
        // A round still running: its results so far are checked as the join will check them,
        // its job files as their results arrive.
        split.standing(&results)?;
        outln!(
            "verified  {written} jobs and {done} results so far, each result the answer to its job; {pending} jobs still without a result"
        )?;
        if done == 0 {
            return Ok(());
        }
        return outln!("{}", run_report::rests_on_jobs(&hosts));
    }
    match split.join(&results)? {
        Joined::Found { stats, jobs, .. } => {
            outln!(
                "verified  {} jobs, every one with its result, each the answer to its job; the joined tree replays every secret: {} guesses in total (average {:.4}, worst {})",
                jobs,
                stats.total,
                stats.average,
                stats.max
            )?;
        }
        Joined::Impossible { max_depth } => {
            outln!(
                "verified  {written} jobs and {done} results, each the answer to its job; together they prove that no strategy solves every secret within {max_depth} guesses"
            )?;
        }
        Joined::Round { round, jobs, .. } => {
            for job in &jobs {
                let path = run.job(job.entry.index);
                if check_run_entry(&path)? && read_capped(&path, MAX_TREE_FILE)? != job.to_json() {
                    bail!(
                        "{} is not the job the results before it derive: delete it and run `moo tree join` to write it again",
                        path.display()
                    );
                }
            }
            let next = jobs.iter().filter(|j| run.job(j.entry.index).exists());
            outln!(
                "verified  {written} jobs, every one with its result, each the answer to its job; round {round} ({} jobs, {} of them written) is next: `moo tree join` writes it",
                jobs.len(),
                next.count()
            )?;
        }
        _ => bail!("the join ended in a way this version of moo does not know"),
    }
    outln!("{}", run_report::rests_on_jobs(&hosts))
}

/// The files of a run directory: nothing that is no part of the run, and every job of round 1
/// as the manifest holds it, so the results are checked against the jobs the split wrote.
fn check_run_files(run: &RunDir, split: &Split, written: usize) -> Result<()> {
    let dir = run.path();
    let mut strangers = Vec::new();
    for entry in std::fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))? {
        let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
        check_run_entry(&entry.path())?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !RunDir::holds(&name, written) {
            strangers.push(name);
        }
    }
    if !strangers.is_empty() {
        strangers.sort();
        bail!(
            "{} holds files that are no part of the run: {} (a job or result past the last job file, or a file from elsewhere); remove them",
            dir.display(),
            strangers.join(", ")
        );
    }
    for entry in &split.jobs {
        let path = run.job(entry.index);
        let text = read_capped(&path, MAX_TREE_FILE)?;
        if text != split.job(entry.clone()).to_json() {
            bail!(
                "{} is not the job the manifest holds: it was changed after `moo tree split` wrote it; delete it and run `moo tree join` to write it again",
                path.display()
            );
        }
    }
    Ok(())
}

/// `moo tree status --bounds`: what the results in prove, and (to `strategy`) the best strategy
/// they have found so far.
fn bounds(run: &RunDir, split: &Split, strategy: Option<&Path>) -> Result<()> {
    let results = run.read_results(split)?;
    let Some(path) = strategy else {
        return print_standing(split, &split.standing(&results)?);
    };
    let (standing, strategy) = split.standing_with_strategy(&results)?;
    print_standing(split, &standing)?;
    let Some((tree, stats)) = strategy else {
        bail!(
            "the results have no strategy for every part yet: no tree written to {}",
            path.display()
        );
    };
    write_file(path, tree.to_json(false).as_bytes())?;
    outln!(
        "strategy  {} guesses (average {:.4}, worst {}): replayed over every secret and written to {}",
        stats.total,
        stats.average,
        stats.max,
        path.display()
    )
}
