//! `moo tree split`, `moo tree job`, `moo tree join`, `moo tree status`: one exact search run
//! as independent jobs (on several processes or machines) and joined into one verified tree.
//!
//! The jobs' directory is the only thing the machines share: `split.json` (the manifest), one
//! `NNNN.job.json` per subproblem and, once run, its `NNNN.result.json` beside it. Files are
//! numbered so a batch system's task index names its job (`moo tree job DIR --index N`), and
//! every file is written whole or not at all, so a job killed midway leaves no result and is
//! simply run again. A split whose large parts go deeper has later rounds: `join` writes each
//! round's jobs, numbered after the rounds before, and `status` names the jobs still to run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use moo_core::text::read_capped;
use moo_core::tree::{
    array_range, exact_space, Ceiling, DeepPart, Estimate, Job, JobEntry, JobResult, Joined,
    OpenPart, PartOutcome, Progress, RunDir, Split, SplitOptions, Standing, MAX_TREE_FILE,
};
use moo_core::{Kernel, Stop, TreeStats};
use serde::Serialize;

use super::flags::SearchArgs;
use super::stats::print_stats;
use crate::cli::output::{check_run_entry, outln, write_file, write_run_file};
use crate::cli::{parse_threads, RuleArgs, UsageError};

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

/// What `moo tree split --json` prints: where the jobs went and what they are.
#[derive(Serialize)]
struct SplitReport<'a> {
    dir: String,
    fingerprint: &'a str,
    first_guesses: &'a [String],
    /// How many parts went deeper (their later rounds come from `join`).
    deeper: usize,
    jobs: &'a [JobEntry],
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<&'a Estimate>,
}

/// What `moo tree job --json` prints: the job, the work its search did and what it proved.
#[derive(Serialize)]
struct JobReport<'a> {
    #[serde(flatten)]
    entry: &'a JobEntry,
    nodes: u64,
    seconds: f64,
    /// Whether the result file already answered the job, so nothing was searched.
    already_done: bool,
    file: String,
    /// The bound a run of later guesses ended under, when other runs of its position lowered
    /// it below its job's.
    #[serde(skip_serializing_if = "Option::is_none")]
    tightened: Option<u64>,
    /// The kernel level its search ran at (absent in results written before it was recorded).
    #[serde(skip_serializing_if = "Option::is_none")]
    kernel: Option<Kernel>,
    #[serde(flatten)]
    outcome: JobOutcome,
}

/// The summary of a job's [`PartOutcome`], without its trees.
#[derive(Serialize)]
#[serde(untagged)]
enum JobOutcome {
    Solved { total: u64, worst: u32 },
    Depths { depths: Vec<DepthSummary> },
    Impossible { impossible: bool, max_depth: u32 },
    AtLeast { at_least: u64 },
    Pieces { pieces: Vec<JobOutcome> },
}

/// One depth limit of a worst-case job: its total and how many secrets need every guess.
#[derive(Serialize)]
struct DepthSummary {
    depth: u32,
    total: u64,
    at_depth: u64,
}

impl JobOutcome {
    fn of(outcome: &PartOutcome) -> JobOutcome {
        match outcome {
            PartOutcome::Solved { total, worst, .. } => JobOutcome::Solved {
                total: *total,
                worst: *worst,
            },
            PartOutcome::Depths { columns } => JobOutcome::Depths {
                depths: columns
                    .iter()
                    .map(|c| DepthSummary {
                        depth: c.depth,
                        total: c.total,
                        at_depth: c.at_limit(),
                    })
                    .collect(),
            },
            PartOutcome::Impossible { max_depth } => JobOutcome::Impossible {
                impossible: true,
                max_depth: *max_depth,
            },
            PartOutcome::AtLeast { bound } => JobOutcome::AtLeast { at_least: *bound },
            PartOutcome::Pieces { pieces } => JobOutcome::Pieces {
                pieces: pieces.iter().map(JobOutcome::of).collect(),
            },
        }
    }
}

/// A pieces job's outcome in words: each piece's total, and the bound that ended it if one did.
fn pieces_summary(pieces: &[PartOutcome]) -> String {
    let mut totals = Vec::new();
    let mut ended = String::new();
    for p in pieces {
        match p {
            PartOutcome::Solved { total, .. } => totals.push(total.to_string()),
            PartOutcome::AtLeast { bound } => {
                ended = format!(", then a piece of at least {bound}: its guess is ruled out")
            }
            _ => {}
        }
    }
    format!(
        "{} piece{} solved ({}){ended}",
        totals.len(),
        if totals.len() == 1 { "" } else { "s" },
        totals.join(" + ")
    )
}

/// What `moo tree join --json` prints: the joined tree's statistics with the jobs' work and the
/// file written, or the proof that no tree fits the depth limit.
#[derive(Serialize)]
#[serde(untagged)]
enum JoinReport<'a> {
    Found {
        #[serde(flatten)]
        stats: &'a TreeStats,
        nodes: u64,
        /// The jobs' search time, added up.
        job_seconds: f64,
        /// The join's own time.
        seconds: f64,
        jobs: usize,
        /// The jobs' CPU time (user and system) added up, where their runners measured it.
        #[serde(skip_serializing_if = "Option::is_none")]
        cpu_seconds: Option<f64>,
        /// The largest job's CPU time, and the job.
        #[serde(skip_serializing_if = "Option::is_none")]
        largest_cpu_seconds: Option<f64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        largest_job: Option<usize>,
        /// The machines that ran the jobs, each with how many: the claim of optimality rests on
        /// their searches.
        hosts: &'a BTreeMap<String, usize>,
        file: String,
        /// The file of each job's claim ([`super::claims`]), when one was written.
        #[serde(skip_serializing_if = "Option::is_none")]
        claims: Option<String>,
    },
    Impossible {
        impossible: bool,
        max_depth: u32,
        /// As in `Found`.
        hosts: &'a BTreeMap<String, usize>,
    },
    /// A round of jobs written: run them, then join again.
    Round {
        round: usize,
        jobs: usize,
        /// The round's jobs as an array range (`sbatch --array`).
        array: String,
        /// The parts split deeper settled so far (`guess`, `feedback`, `size`, `total`), those
        /// still open (`guess`, `feedback`, `size`, `lower`, `upper`), and the whole game's
        /// `lower` bound and best strategy's `upper` total.
        #[serde(flatten)]
        standing: Standing,
    },
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
    if args.json {
        let report = SplitReport {
            dir: args.out.display().to_string(),
            fingerprint: &split.fingerprint,
            first_guesses: &split.first_guesses,
            deeper: split.deeper.len(),
            jobs: &split.jobs,
            estimate: estimate.as_ref(),
        };
        return outln!("{}", serde_json::to_string(&report)?);
    }
    outln!(
        "{} jobs for {} first guess{} ({}) written to {} (split {})",
        split.jobs.len(),
        split.first_guesses.len(),
        if split.first_guesses.len() == 1 {
            ""
        } else {
            "es"
        },
        split.first_guesses.join(", "),
        args.out.display(),
        split.fingerprint
    )?;
    outln!("job   guess feedback  secrets  then")?;
    for e in &split.jobs {
        outln!(
            "{:04}  {:5} {:8}  {:>7} {}",
            e.index,
            e.guess,
            e.feedback,
            e.size,
            e.then().trim_start()
        )?;
    }
    if !split.deeper.is_empty() {
        outln!(
            "{} part{} split deeper: round 1 solves the pieces under the first guesses each position tries; `join` then writes the next rounds",
            split.deeper.len(),
            if split.deeper.len() == 1 { " is" } else { "s are" }
        )?;
    }
    if let Some(estimate) = estimate {
        super::estimate::print(&estimate)?;
    }
    let last = split.jobs.len().saturating_sub(1);
    outln!(
        "run each job with `moo tree job {} --index N` (N = 0..={last}), then `moo tree join {} -o tree.json`",
        args.out.display(),
        args.out.display()
    )
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
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
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

fn report_job(result: &JobResult, output: &Path, cached: bool, json: bool) -> Result<()> {
    let e = &result.entry;
    if json {
        let report = JobReport {
            entry: e,
            nodes: result.nodes,
            seconds: result.seconds,
            already_done: cached,
            file: output.display().to_string(),
            tightened: result.tightened,
            kernel: result.kernel,
            outcome: JobOutcome::of(&result.outcome),
        };
        return outln!("{}", serde_json::to_string(&report)?);
    }
    let what = match &result.outcome {
        PartOutcome::Solved { total, worst, .. } => {
            format!("{total} guesses after the first, worst {worst}")
        }
        PartOutcome::Depths { columns } => {
            let each: Vec<String> = columns
                .iter()
                .map(|c| format!("{} ({} at {})", c.total, c.at_limit(), c.depth))
                .collect();
            format!(
                "guesses after the first within {} to {} more: {}",
                columns.first().map_or(0, |c| c.depth),
                columns.last().map_or(0, |c| c.depth),
                each.join(", ")
            )
        }
        PartOutcome::Impossible { max_depth } => {
            format!("no tree within {max_depth} more guesses")
        }
        PartOutcome::AtLeast { bound } => {
            format!("at least {bound} guesses after the first with this second guess")
        }
        PartOutcome::Pieces { pieces } => pieces_summary(pieces),
    };
    let mut when = if cached {
        "already done".to_string()
    } else {
        format!("{} sets in {:.2} s", result.nodes, result.seconds)
            + &result
                .kernel
                .map(|k| format!(" on the {k} kernels"))
                .unwrap_or_default()
    };
    if let Some(bound) = result.tightened {
        when += &format!(", below {bound} from another run of its position");
    }
    let then = e.then();
    outln!(
        "job {:04} ({} {}{then}, {} secrets): {what}; {when}; result in {}",
        e.index,
        e.guess,
        e.feedback,
        e.size,
        output.display()
    )
}

/// Runs `moo tree join`.
pub fn join(args: JoinArgs) -> Result<()> {
    let start = Instant::now();
    let run = RunDir::new(&args.dir);
    let split = run.read_split()?;
    let results = run.read_results(&split)?;
    let joined = split.join(&results)?;
    let seconds = start.elapsed().as_secs_f64();
    match joined {
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
            let cpu = cpu_of(&results[..jobs]);
            let hosts = hosts_of(&results[..jobs]);
            if args.json {
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
                outln!("{}", serde_json::to_string(&report)?)?;
            } else {
                print_stats(&stats)?;
                outln!(
                    "joined    {jobs} jobs ({nodes} candidate sets, {job_seconds:.2} s of search); tree verified and written to {}",
                    args.output.display()
                )?;
                if let Some((sum, largest, index)) = cpu {
                    outln!(
                        "cpu       {sum:.1} s in all jobs; the largest, job {index}, {largest:.1} s ({:.1}%)",
                        100.0 * largest / sum.max(f64::MIN_POSITIVE)
                    )?;
                }
                outln!("{}", rests_on_jobs(&hosts))?;
                if let Some(path) = &claims {
                    outln!(
                        "claims    each job's claim and the machine that proved it in {}",
                        path.display()
                    )?;
                }
            }
        }
        Joined::Impossible { max_depth } => {
            let hosts = hosts_of(&results);
            if args.json {
                let report = JoinReport::Impossible {
                    impossible: true,
                    max_depth,
                    hosts: &hosts,
                };
                outln!("{}", serde_json::to_string(&report)?)?;
            } else {
                outln!(
                    "no strategy solves every secret within {max_depth} guesses (proven by {} jobs; no tree written)",
                    split.jobs.len()
                )?;
                outln!("{}", rests_on_jobs(&hosts))?;
            }
        }
        Joined::Round {
            round,
            jobs,
            standing,
        } => {
            write_jobs(&args.dir, &jobs)?;
            let indexes: Vec<usize> = jobs.iter().map(|j| j.entry.index).collect();
            let range = array_range(&indexes);
            if args.json {
                let report = JoinReport::Round {
                    round,
                    jobs: jobs.len(),
                    array: range,
                    standing,
                };
                outln!("{}", serde_json::to_string(&report)?)?;
            } else {
                outln!(
                    "round {round} written: {} jobs (--array={range}): run them with `moo tree job {} --index N`, then join again",
                    jobs.len(),
                    args.dir.display()
                )?;
                print_standing(&split, &standing)?;
            }
        }
        _ => bail!("the join ended in a way this version of moo does not know"),
    }
    Ok(())
}

/// The parts split deeper settled so far with their optima, the open ones with their bounds,
/// and the whole game's bounds.
fn print_standing(split: &Split, standing: &Standing) -> Result<()> {
    let part = |p: &DeepPart| format!("{} {} ({} secrets)", p.guess, p.feedback, p.size);
    outln!(
        "settled   {} of the {} parts split deeper so far{}",
        standing.settled.len(),
        split.deeper.len(),
        if standing.settled.is_empty() { "" } else { ":" }
    )?;
    for s in &standing.settled {
        outln!(
            "          {}: {} guesses after the first",
            part(&s.part),
            s.total
        )?;
    }
    if !standing.open.is_empty() {
        outln!(
            "open      {} parts, each proven to take (and the best subtree found so far):",
            standing.open.len()
        )?;
        for o in &standing.open {
            let best = o
                .upper
                .map_or(String::new(), |u| format!("; the best found takes {u}"));
            outln!(
                "          {}: at least {} guesses after the first{best}",
                part(&o.part),
                o.lower
            )?;
            print_open_guesses(o)?;
        }
    }
    let secrets = exact_space(split.rules.clone())?.len();
    if let Some(lower) = standing.lower {
        outln!(
            "lower     every strategy takes at least {lower} guesses over the {secrets} secrets (average {:.4})",
            lower as f64 / secrets as f64
        )?;
    }
    if let Some(upper) = standing.upper {
        outln!(
            "upper     the best strategy found so far takes {upper} guesses (average {:.4})",
            upper as f64 / secrets as f64
        )?;
    }
    Ok(())
}

/// How many second guesses of an open part may still beat its best subtree, and the least
/// proven of them: where the next rounds' time goes.
fn print_open_guesses(o: &OpenPart) -> Result<()> {
    /// How many guesses to name.
    const NAMED: usize = 3;
    let n = o.guesses.len();
    let named: Vec<String> = o
        .guesses
        .iter()
        .take(NAMED)
        .map(|g| format!("{} (at least {})", g.guess, g.lower))
        .collect();
    let (guesses, which) = match (n, o.upper) {
        (0, _) => return Ok(()),
        (1, Some(_)) => ("guess", "may still beat it: "),
        (1, None) => ("guess", "is still open: "),
        (_, Some(_)) => ("guesses", "may still beat it, the least bound first: "),
        (_, None) => ("guesses", "are still open, the least bound first: "),
    };
    let more = if n > NAMED { ", ..." } else { "" };
    outln!(
        "            {n} second {guesses} {which}{}{more}",
        named.join(", ")
    )
}

/// The CPU time of the jobs whose runner measured it: the sum, the largest and its job.
/// How many of the results each machine ran, by the name the result records ("unrecorded" for
/// results written before moo recorded it, or by a runner that could not tell).
fn hosts_of(results: &[Option<JobResult>]) -> BTreeMap<String, usize> {
    let mut hosts = BTreeMap::new();
    for r in results.iter().flatten() {
        let name = r.host.clone().unwrap_or_else(|| "unrecorded".to_string());
        *hosts.entry(name).or_insert(0) += 1;
    }
    hosts
}

/// The join's line on what its claim of optimality rests on: every job's own search, on the
/// machines that ran them. The join checks that each result answers its job and that the
/// joined tree replays every secret at the claimed total; that no subtree could be cheaper is
/// each job's own claim.
fn rests_on_jobs(hosts: &BTreeMap<String, usize>) -> String {
    let each: Vec<String> = hosts.iter().map(|(h, n)| format!("{h} ({n})")).collect();
    format!(
        "rests on  {} job results, each its own search taken as proven, run on {}; `moo tree job --force` re-proves one on a machine you trust",
        hosts.values().sum::<usize>(),
        each.join(", ")
    )
}

fn cpu_of(results: &[Option<JobResult>]) -> Option<(f64, f64, usize)> {
    let timed: Vec<(f64, usize)> = results
        .iter()
        .flatten()
        .filter_map(|r| Some((r.cpu_seconds?, r.entry.index)))
        .collect();
    let sum = timed.iter().map(|&(c, _)| c).sum();
    let &(largest, index) = timed.iter().max_by(|a, b| a.0.total_cmp(&b.0))?;
    Some((sum, largest, index))
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
        summary(&run, &split)?;
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
    let dir = run.path();
    let written = run.written_jobs(split);
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
    let results = run.read_results(split)?;
    let done = results.iter().flatten().count();
    let hosts = hosts_of(&results);
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
        return outln!("{}", rests_on_jobs(&hosts));
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
    outln!("{}", rests_on_jobs(&hosts))
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

/// Jobs written and done, and the CPU time of the done ones, of one first-level part or of the
/// whole run.
#[derive(Default)]
struct Tally {
    written: usize,
    done: usize,
    cpu: f64,
    nodes: u64,
    /// The largest peak memory of a job, with its index.
    peak: Option<(u64, usize)>,
}

impl Tally {
    fn add(&mut self, result: Option<&JobResult>) {
        self.written += 1;
        if let Some(r) = result {
            self.done += 1;
            self.cpu += r.cpu_seconds.unwrap_or(0.0);
            self.nodes += r.nodes;
            if let Some(bytes) = r
                .peak_bytes
                .filter(|&b| self.peak.is_none_or(|(p, _)| b > p))
            {
                self.peak = Some((bytes, r.entry.index));
            }
        }
    }
}

/// `moo tree status --summary`: what a long run has done so far, read from its files alone
/// (which positions are settled only the join can tell, by deriving them).
fn summary(run: &RunDir, split: &Split) -> Result<()> {
    let mut all = Tally::default();
    // (first guess, feedback, secrets, split deeper), in the order of the jobs.
    let mut parts: Vec<((String, String, usize, bool), Tally)> = Vec::new();
    let mut pending = Vec::new();
    for index in 0..run.written_jobs(split) {
        let result = JobResult::read(&run.result(index))?;
        let entry = match &result {
            Some(r) => r.entry.clone(),
            None => {
                pending.push(index);
                Job::read(&run.job(index))?.entry
            }
        };
        all.add(result.as_ref());
        // A job below a part searches a smaller position: the part's size is the manifest's.
        let deeper = split
            .deeper
            .iter()
            .find(|d| d.guess == entry.guess && d.feedback == entry.feedback);
        let size = deeper.map_or(entry.size, |d| d.size);
        let key = (entry.guess, entry.feedback, size, deeper.is_some());
        let at = match parts.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                parts.push((key, Tally::default()));
                parts.len() - 1
            }
        };
        parts[at].1.add(result.as_ref());
    }
    let hours = all.cpu / 3600.0;
    outln!(
        "split {} of {}: {} jobs written ({} in round 1), {} with a result, {} to run{}",
        split.fingerprint,
        split.rules,
        all.written,
        split.jobs.len(),
        all.done,
        pending.len(),
        if pending.is_empty() {
            String::new()
        } else {
            format!(" ({})", array_range(&pending))
        }
    )?;
    outln!(
        "done      {:.1} CPU s ({hours:.2} h) and {} candidate sets in the jobs with a result",
        all.cpu,
        all.nodes
    )?;
    if let Some((bytes, index)) = all.peak {
        outln!(
            "memory    {:.2} GB at most, by job {index} (the peak of the jobs that measured it)",
            bytes as f64 / 1e9
        )?;
    }
    outln!(
        "by part   first guess, feedback, secrets: jobs with a result of those written, their CPU"
    )?;
    for ((guess, feedback, size, deeper), t) in &parts {
        outln!(
            "          {guess} {feedback} {size}{}: {} of {}, {:.1} s",
            if *deeper { " (split deeper)" } else { "" },
            t.done,
            t.written,
            t.cpu
        )?;
    }
    Ok(())
}
