//! `moo tree split`, `moo tree job`, `moo tree join`: one exact search run as independent jobs
//! (on several processes or machines) and joined into one verified tree.
//!
//! The jobs' directory is the only thing the machines share: `split.json` (the manifest), one
//! `NNNN.job.json` per subproblem and, once run, its `NNNN.result.json` beside it. Files are
//! numbered so a batch system's task index names its job (`moo tree job DIR --index N`), and
//! every file is written whole or not at all, so a job killed midway leaves no result and is
//! simply run again.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args as ClapArgs;
use moo_core::text::read_capped;
use moo_core::tree::{
    Job, JobEntry, JobResult, Joined, PartOutcome, Progress, Split, MAX_TREE_FILE,
};
use moo_core::{CodeSpace, Stop, TreeStats};
use serde::Serialize;

use super::flags::SearchArgs;
use super::stats::print_stats;
use crate::cli::output::{outln, write_file};
use crate::cli::{parse_threads, RuleArgs, UsageError};

/// The manifest's name in the jobs' directory.
const MANIFEST: &str = "split.json";

/// `moo tree split`'s flags.
#[derive(Debug, ClapArgs)]
pub struct SplitArgs {
    /// The directory to write the jobs to (created if missing; it must not hold another split).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,

    /// Print the list of jobs as JSON on stdout.
    #[arg(long)]
    json: bool,

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
}

/// `moo tree join`'s flags.
#[derive(Debug, ClapArgs)]
pub struct JoinArgs {
    /// The jobs' directory, with `split.json` and every job's result.
    dir: PathBuf,

    /// Where to write the joined tree (JSON), written whole or not at all.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: PathBuf,

    /// Print the result as JSON on stdout.
    #[arg(long)]
    json: bool,
}

/// What `moo tree split --json` prints: where the jobs went and what they are.
#[derive(Serialize)]
struct SplitReport<'a> {
    dir: String,
    fingerprint: &'a str,
    first_guesses: &'a [String],
    jobs: &'a [JobEntry],
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
        }
    }
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
        file: String,
    },
    Impossible {
        impossible: bool,
        max_depth: u32,
    },
}

fn job_name(index: usize) -> String {
    format!("{index:04}.job.json")
}

fn result_name(index: usize) -> String {
    format!("{index:04}.result.json")
}

/// Runs `moo tree split`.
pub fn split(args: SplitArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let space = CodeSpace::new(rules)?;
    let options = args.search.options();
    let (split, jobs) = Split::plan(&space, &options).map_err(|e| UsageError(e.to_string()))?;
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let manifest = args.out.join(MANIFEST);
    if manifest.exists() {
        let old = read_manifest(&args.out)?;
        if old.fingerprint != split.fingerprint {
            bail!(
                "{} already holds another split (fingerprint {}): use an empty directory",
                args.out.display(),
                old.fingerprint
            );
        }
    }
    for job in &jobs {
        write_file(
            &args.out.join(job_name(job.entry.index)),
            job.to_json().as_bytes(),
        )?;
    }
    // The manifest last: a directory with a manifest has every job file.
    write_file(&manifest, split.to_json().as_bytes())?;
    if args.json {
        let report = SplitReport {
            dir: args.out.display().to_string(),
            fingerprint: &split.fingerprint,
            first_guesses: &split.first_guesses,
            jobs: &split.jobs,
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
    outln!("job   guess feedback  secrets")?;
    for e in &split.jobs {
        outln!(
            "{:04}  {:5} {:8}  {:>7}",
            e.index,
            e.guess,
            e.feedback,
            e.size
        )?;
    }
    let last = split.jobs.len().saturating_sub(1);
    outln!(
        "run each job with `moo tree job {} --index N` (N = 0..={last}), then `moo tree join {} -o tree.json`",
        args.out.display(),
        args.out.display()
    )
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
        (args.path.join(job_name(index)), Some(args.path.clone()))
    } else {
        if args.index.is_some() {
            return Err(
                UsageError("--index goes with a directory, not with a job file".into()).into(),
            );
        }
        let dir = args.path.parent().map(Path::to_path_buf);
        (args.path.clone(), dir)
    };
    let text = read_capped(&job_path, MAX_TREE_FILE)?;
    let job = Job::from_json(&text).with_context(|| format!("{}", job_path.display()))?;
    // The manifest beside the job, when there is one, confirms the job is one of its split's.
    if let Some(dir) = dir.filter(|d| d.join(MANIFEST).exists()) {
        let split = read_manifest(&dir)?;
        job.check(&split)
            .with_context(|| format!("{}", job_path.display()))?;
    }
    let output = match args.output {
        Some(path) => path,
        None => job_path.with_file_name(result_name(job.entry.index)),
    };
    if !args.force {
        if let Some(done) = read_result(&output)?.filter(|r| job.is_answered_by(r)) {
            return report_job(&done, &output, true, args.json);
        }
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        pool = pool.num_threads(n);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
    let progress = Progress::new();
    let result = pool
        .install(|| job.solve(&progress, &Stop::never()))
        .with_context(|| format!("{}", job_path.display()))?;
    write_file(&output, result.to_json().as_bytes())?;
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
    };
    let when = if cached {
        "already done".to_string()
    } else {
        format!("{} sets in {:.2} s", result.nodes, result.seconds)
    };
    outln!(
        "job {:04} ({} {}, {} secrets): {what}; {when}; result in {}",
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
    let split = read_manifest(&args.dir)?;
    let mut results = Vec::with_capacity(split.jobs.len());
    for e in &split.jobs {
        let path = args.dir.join(result_name(e.index));
        let result = read_result(&path)?;
        if let Some(r) = &result {
            split
                .check_result(e.index, r)
                .with_context(|| format!("{}", path.display()))?;
        }
        results.push(result);
    }
    let joined = split.join(&results)?;
    let seconds = start.elapsed().as_secs_f64();
    match joined {
        Joined::Found {
            tree,
            stats,
            nodes,
            seconds: job_seconds,
        } => {
            write_file(&args.output, tree.to_json(false).as_bytes())?;
            if args.json {
                let report = JoinReport::Found {
                    stats: &stats,
                    nodes,
                    job_seconds,
                    seconds,
                    jobs: split.jobs.len(),
                    file: args.output.display().to_string(),
                };
                outln!("{}", serde_json::to_string(&report)?)?;
            } else {
                print_stats(&stats)?;
                outln!(
                    "joined    {} jobs ({} candidate sets, {job_seconds:.2} s of search); tree verified and written to {}",
                    split.jobs.len(),
                    nodes,
                    args.output.display()
                )?;
            }
        }
        Joined::Impossible { max_depth } => {
            if args.json {
                let report = JoinReport::Impossible {
                    impossible: true,
                    max_depth,
                };
                outln!("{}", serde_json::to_string(&report)?)?;
            } else {
                outln!(
                    "no strategy solves every secret within {max_depth} guesses (proven by {} jobs; no tree written)",
                    split.jobs.len()
                )?;
            }
        }
        _ => bail!("the join ended in a way this version of moo does not know"),
    }
    Ok(())
}

fn read_manifest(dir: &Path) -> Result<Split> {
    let path = dir.join(MANIFEST);
    if !path.exists() {
        bail!(
            "{} has no {MANIFEST}: it is not a directory written by `moo tree split`",
            dir.display()
        );
    }
    let text = read_capped(&path, MAX_TREE_FILE)?;
    Split::from_json(&text).with_context(|| format!("{}", path.display()))
}

/// A result file, `None` if it does not exist; a file that is there but unreadable is an error.
fn read_result(path: &Path) -> Result<Option<JobResult>> {
    if !path.exists() {
        return Ok(None);
    }
    let text = read_capped(path, MAX_TREE_FILE)?;
    let result = JobResult::from_json(&text)
        .with_context(|| format!("{} (delete it and run its job again)", path.display()))?;
    Ok(Some(result))
}
