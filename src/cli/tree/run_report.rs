//! What the commands of a split run print (`moo tree split`, `job`, `join` and `status`): each
//! report as JSON for a machine or as lines for a reader, kept apart from the commands so a
//! command reads as what it does and its report as what it says.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::Result;
use moo_core::tree::{
    array_range, exact_space, DeepPart, Estimate, Job, JobEntry, JobResult, OpenPart, PartOutcome,
    RunDir, Split, Standing,
};
use moo_core::{Kernel, TreeStats};
use serde::Serialize;

use super::stats::print_stats;
use crate::cli::output::outln;

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
pub(super) enum JoinReport<'a> {
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

/// Prints what `moo tree split` wrote to `dir`: the jobs, the parts split deeper, the estimate
/// when one ran, and how to run the jobs.
pub(super) fn print_split(
    dir: &Path,
    split: &Split,
    estimate: Option<&Estimate>,
    json: bool,
) -> Result<()> {
    if json {
        let report = SplitReport {
            dir: dir.display().to_string(),
            fingerprint: &split.fingerprint,
            first_guesses: &split.first_guesses,
            deeper: split.deeper.len(),
            jobs: &split.jobs,
            estimate,
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
        dir.display(),
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
        super::estimate::print(estimate)?;
    }
    let last = split.jobs.len().saturating_sub(1);
    outln!(
        "run each job with `moo tree job {} --index N` (N = 0..={last}), then `moo tree join {} -o tree.json`",
        dir.display(),
        dir.display()
    )
}

/// Prints what `moo tree join` did in `dir`: the tree it wrote, the proof that none fits, or
/// the round of jobs it wrote.
pub(super) fn print_join(report: &JoinReport, split: &Split, dir: &Path, json: bool) -> Result<()> {
    if json {
        return outln!("{}", serde_json::to_string(report)?);
    }
    match report {
        JoinReport::Found {
            stats,
            nodes,
            job_seconds,
            jobs,
            cpu_seconds,
            largest_cpu_seconds,
            largest_job,
            hosts,
            file,
            claims,
            ..
        } => {
            print_stats(stats)?;
            outln!(
                "joined    {jobs} jobs ({nodes} candidate sets, {job_seconds:.2} s of search); tree verified and written to {file}"
            )?;
            if let (Some(sum), Some(largest), Some(index)) =
                (cpu_seconds, largest_cpu_seconds, largest_job)
            {
                outln!(
                    "cpu       {sum:.1} s in all jobs; the largest, job {index}, {largest:.1} s ({:.1}%)",
                    100.0 * largest / sum.max(f64::MIN_POSITIVE)
                )?;
            }
            outln!("{}", rests_on_jobs(hosts))?;
            if let Some(path) = claims {
                outln!("claims    each job's claim and the machine that proved it in {path}")?;
            }
            Ok(())
        }
        JoinReport::Impossible {
            max_depth, hosts, ..
        } => {
            outln!(
                "no strategy solves every secret within {max_depth} guesses (proven by {} jobs; no tree written)",
                split.jobs.len()
            )?;
            outln!("{}", rests_on_jobs(hosts))
        }
        JoinReport::Round {
            round,
            jobs,
            array,
            standing,
        } => {
            outln!(
                "round {round} written: {jobs} jobs (--array={array}): run them with `moo tree job {} --index N`, then join again",
                dir.display()
            )?;
            print_standing(split, standing)
        }
    }
}

/// Prints a job's result: `cached` when the result file already answered it.
pub(super) fn report_job(
    result: &JobResult,
    output: &Path,
    cached: bool,
    json: bool,
) -> Result<()> {
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

/// The parts split deeper settled so far with their optima, the open ones with their bounds,
/// and the whole game's bounds.
pub(super) fn print_standing(split: &Split, standing: &Standing) -> Result<()> {
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
pub(super) fn print_open_guesses(o: &OpenPart) -> Result<()> {
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

/// How many of the results each machine ran, by the name the result records ("unrecorded" for
/// results written before moo recorded it, or by a runner that could not tell).
pub(super) fn hosts_of(results: &[Option<JobResult>]) -> BTreeMap<String, usize> {
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
pub(super) fn rests_on_jobs(hosts: &BTreeMap<String, usize>) -> String {
    let each: Vec<String> = hosts.iter().map(|(h, n)| format!("{h} ({n})")).collect();
    format!(
        "rests on  {} job results, each its own search taken as proven, run on {}; `moo tree job --force` re-proves one on a machine you trust",
        hosts.values().sum::<usize>(),
        each.join(", ")
    )
}

/// The CPU time of the jobs whose runner measured it: the sum, the largest and its job.
pub(super) fn cpu_of(results: &[Option<JobResult>]) -> Option<(f64, f64, usize)> {
    let timed: Vec<(f64, usize)> = results
        .iter()
        .flatten()
        .filter_map(|r| Some((r.cpu_seconds?, r.entry.index)))
        .collect();
    let sum = timed.iter().map(|&(c, _)| c).sum();
    let &(largest, index) = timed.iter().max_by(|a, b| a.0.total_cmp(&b.0))?;
    Some((sum, largest, index))
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
pub(super) fn summary(run: &RunDir, split: &Split) -> Result<()> {
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
