//! `moo tree`: build provably optimal decision trees, verify tree files, show them, and run one
//! search as jobs on many machines (`jobs`). The flags both a build and a split take live in
//! `flags`, the statistics both print in `stats`, so the subcommands import them, never each other.

use std::io::{IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use clap::{Args as ClapArgs, Subcommand};
use moo_core::text::read_capped_bytes;
use moo_core::tree::{
    Checkpoint, OptimalTree, Progress, Search, SearchError, SearchOutcome, MAX_TREE_FILE,
};
use moo_core::{CodeSpace, DecisionTree, Kernel, TreeStats};
use serde::Serialize;

use super::output::{out, outln, write_file};
use super::progress::{watched, Finished};
use super::{parse_threads, worker_pool, RuleArgs, TableArgs, UsageError};
use flags::SearchArgs;
use stats::print_stats;

mod bound;
mod claims;
mod estimate;
mod flags;
mod jobs;
mod refute;
mod run_report;
mod stats;
mod watch;

/// Build, verify or show decision trees.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(subcommand)]
    command: TreeCommand,
}

#[derive(Debug, Subcommand)]
enum TreeCommand {
    /// Search for an optimal strategy and write it as a tree (proven optimal, not heuristic).
    #[command(after_help = "Examples:
  moo tree build --game mastermind -o mm.json         fewest guesses on average (5625 in total)
  moo tree build -o bulls.json                        Bulls and Cows: 26274 in total
  moo tree build --objective worst -o w.json          fewest guesses that always suffice
  moo tree build --max-depth 6 -o d6.json             proves no strategy always wins within 6
  moo tree build --length 3 --guesses consistent -o hard3.json
  moo tree build --no-leading-zero --first-guess 1023 -o open1023.json   best tree opening 1023")]
    Build(BuildArgs),
    /// Replay every secret through a tree file and print its statistics.
    #[command(after_help = "Examples:
  moo tree verify bulls.json
  moo tree verify --json bulls.json")]
    Verify(VerifyArgs),
    /// Print the top levels of a tree file.
    #[command(after_help = "Example:
  moo tree show --depth 2 bulls.json")]
    Show(ShowArgs),
    /// Write a tree file in plain text, one line per secret: the guesses that find it.
    #[command(after_help = "Examples:
  moo tree export bulls.json -o bulls.txt
  moo tree export crates/moo-core/trees/bulls-5x9-average.json.gz | head
The text form, and scripts/verify-tree.py, which checks it without moo, are described in the
book's page on optimal strategies.")]
    Export(ExportArgs),
    /// Write a search's first-guess subproblems as independent job files, to run anywhere.
    #[command(after_help = "Examples:
  moo tree split --out jobs                           Bulls and Cows: large parts go deeper
  moo tree split --share 100 --out jobs               the first level only: 13 jobs in jobs/
Then run every job (any order, any machine sharing the directory) and join; while the join
writes another round, run that round's jobs (`moo tree status jobs` names them) and join again:
  ls jobs/*.job.json | xargs -P 2 -n 1 moo tree job --threads 1
  moo tree join jobs -o bulls.json")]
    Split(jobs::SplitArgs),
    /// Solve one job of a split exactly and write its result beside it.
    #[command(after_help = "Examples:
  moo tree job jobs/0003.job.json
  moo tree job jobs --index \"$SLURM_ARRAY_TASK_ID\"      a batch system's task index names the job")]
    Job(jobs::JobArgs),
    /// Join a split's results into one verified optimal tree, or write its next round of jobs.
    #[command(after_help = "Example:
  moo tree join jobs -o bulls.json")]
    Join(jobs::JoinArgs),
    /// Print a split's jobs still without a result, as an array range, or how far it has got.
    #[command(
        after_help = "Examples, the jobs still to run as one Slurm array (scripts/slurm-split.sh loops over rounds),
and how far a long run has got (jobs done and their CPU time, by part):
  sbatch --array=\"$(moo tree status jobs)\" --wait scripts/slurm-tree.sh jobs
  moo tree status jobs --summary"
    )]
    Status(jobs::StatusArgs),
    /// Bound the optimal total of a game too large to settle: a strategy's tree, or --lower
    ///
    /// Above the optimum, a strategy's verified tree: a heuristic where many candidates are
    /// left, the exact search's endgames where few are. Below it (--lower), a proof.
    #[command(after_help = "Examples:
  moo tree bound --game mastermind --length 5 --symbols 12345678 -o mm5x8.json
  moo tree bound --game mastermind --length 5 --symbols 12345678 --top 3 --top-levels 1 -o t.json
  moo tree bound --game mastermind --length 5 --symbols 12345678 --lower")]
    Bound(bound::BoundArgs),
    /// Prove that no strategy always wins within N guesses, as a file checked without moo
    ///
    /// The proof names, position by position, a feedback that leaves too much to win in the
    /// guesses left, for one guess of each kind; guesses that leave a part too large to tell
    /// apart are left for the checker to count. `refutation-check` (crates/refutation-check)
    /// verifies it with its own scoring and symmetries.
    #[command(after_help = "Examples:
  moo tree refute --game mastermind --within 4 -o mm4.txt       Knuth's 5 cannot be beaten
  moo tree refute --game mastermind --length 5 --within 5 -o mm5x6-5.txt.gz
  cargo run --release -p refutation-check -- mm5x6-5.txt.gz")]
    Refute(refute::RefuteArgs),
    /// List the search's kernel levels and which of them this CPU runs
    ///
    /// A level is a set of vector instructions the search's inner loops are compiled for. Every level gives the same trees; only the speed differs. The search takes the best this
    /// CPU has; the environment variable MOO_KERNEL holds it at a lower one (scalar, avx2,
    /// avx512, vbmi), which is how one machine tests every version it can run.
    #[command(after_help = "Examples:
  moo tree kernels
  moo tree kernels --supported                        one name a line, for scripts
  MOO_KERNEL=avx2 moo tree build -o bulls.json        the same tree, by the AVX2 kernels")]
    Kernels(KernelsArgs),
}

#[derive(Debug, ClapArgs)]
struct KernelsArgs {
    /// Print only the names of the levels this CPU can run, lowest first, one a line.
    #[arg(long, conflicts_with = "json")]
    supported: bool,
    /// Print the levels as JSON: each with whether this CPU runs it, and the one in use.
    #[arg(long)]
    json: bool,
}

/// What `moo tree kernels --json` prints.
#[derive(Serialize)]
struct KernelsReport {
    /// The level searches run at.
    active: Kernel,
    /// The best level this CPU has.
    detected: Kernel,
    /// Every level and whether this CPU runs it.
    levels: Vec<KernelLevel>,
}

/// One level of [`KernelsReport`].
#[derive(Serialize)]
struct KernelLevel {
    name: Kernel,
    supported: bool,
}

fn kernels(args: KernelsArgs) -> Result<()> {
    if args.supported {
        for k in Kernel::supported() {
            outln!("{k}")?;
        }
        return Ok(());
    }
    if args.json {
        let report = KernelsReport {
            active: Kernel::active(),
            detected: Kernel::detected(),
            levels: Kernel::ALL
                .into_iter()
                .map(|name| KernelLevel {
                    name,
                    supported: name.is_supported(),
                })
                .collect(),
        };
        return outln!("{}", serde_json::to_string(&report)?);
    }
    for k in Kernel::ALL {
        let what = if k == Kernel::active() {
            "in use"
        } else if k.is_supported() {
            "runs here"
        } else {
            "not on this CPU"
        };
        outln!("{:<7} {what}", k.name())?;
    }
    Ok(())
}

#[derive(Debug, ClapArgs)]
struct BuildArgs {
    /// The most memory the search's cache may take, e.g. 1GiB. A full cache forgets its
    /// smallest candidate sets to make room, so less costs time, never exactness
    /// [default: 640 MiB].
    #[arg(long, value_name = "SIZE", value_parser = crate::cli::parse_size, help_heading = "Memory")]
    cache_memory: Option<u64>,

    /// Search without sharing results between candidate sets that are equal up to relabelling
    /// symbols and permuting positions: the same tree, found more slowly. For measuring what
    /// the sharing saves.
    #[arg(long)]
    no_classes: bool,

    /// Where to write the tree (JSON); written to a temporary file first, then renamed, so an
    /// interrupted build (Ctrl-C exits with status 130) leaves no partial file. Devices and pipes
    /// are written to directly.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: PathBuf,

    /// Worker threads, at most 4 per core [default: one per core].
    #[arg(long, value_name = "N", value_parser = parse_threads)]
    threads: Option<usize>,

    /// Print the result as JSON on stdout.
    #[arg(long)]
    json: bool,

    /// Append what is proven about large candidate sets to FILE as the search goes, after
    /// loading what FILE already holds: an interrupted build run again with the same FILE and
    /// options resumes where it stopped and writes the same tree.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<PathBuf>,

    /// Append a progress line to FILE every minute (for long runs without a terminal).
    #[arg(long, value_name = "FILE")]
    progress_log: Option<PathBuf>,

    #[command(flatten)]
    rules: RuleArgs,

    #[command(flatten)]
    table: TableArgs,

    /// Only trees that open with CODE: the best of those (every later guess as optimal as
    /// ever), which costs more than the optimal tree unless CODE is an optimal opening. The
    /// advisor ships one for 1023 with --no-leading-zero, so every opening gets proven moves.
    #[arg(long, value_name = "CODE", help_heading = "Search")]
    first_guess: Option<String>,

    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Debug, ClapArgs)]
struct VerifyArgs {
    /// The tree file (JSON, as written by `moo tree build`).
    file: PathBuf,

    /// Print the statistics as JSON on stdout.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, ClapArgs)]
struct ShowArgs {
    /// The tree file (JSON, as written by `moo tree build`).
    file: PathBuf,

    /// How many levels of guesses to print.
    #[arg(long, short = 'd', value_name = "K", default_value_t = 2)]
    depth: usize,
}

#[derive(Debug, ClapArgs)]
struct ExportArgs {
    /// The tree file (JSON, gzipped or not, as `moo tree build` writes and moo ships them).
    file: PathBuf,

    /// The format to write: `text`, one line per secret with the guesses that find it, the
    /// secret last, after `# ` comment lines that give the rules as JSON; or `json`, moo's own
    /// form, uncompressed.
    #[arg(long, value_enum, default_value_t = ExportFormat::Text)]
    format: ExportFormat,

    /// Write to FILE instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
}

/// The forms `moo tree export` writes.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ExportFormat {
    /// One line per secret: the guesses that find it.
    Text,
    /// moo's JSON form.
    Json,
}

/// Runs `moo tree`.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        TreeCommand::Build(a) => build(a),
        TreeCommand::Verify(a) => verify(a),
        TreeCommand::Show(a) => show(a),
        TreeCommand::Export(a) => export(a),
        TreeCommand::Split(a) => jobs::split(a),
        TreeCommand::Job(a) => jobs::job(a),
        TreeCommand::Join(a) => jobs::join(a),
        TreeCommand::Status(a) => jobs::status(a),
        TreeCommand::Bound(a) => bound::bound(a),
        TreeCommand::Refute(a) => refute::refute(a),
        TreeCommand::Kernels(a) => kernels(a),
    }
}

fn build(args: BuildArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let written = exit_on_interrupt()?;
    let space = CodeSpace::with_options(rules.clone(), &args.table.for_exact_search())?;
    let first_guess = match &args.first_guess {
        Some(text) => Some(rules.parse_code(text).map_err(|e| {
            UsageError(format!(
                "invalid --first-guess: {e} (the rules are {})",
                rules.describe()
            ))
        })?),
        None => None,
    };
    let options = args
        .search
        .options()
        .with_cache_bytes(args.cache_memory)
        .with_classes(!args.no_classes)
        .with_first_guess(first_guess);
    let pool = worker_pool(args.threads)?;
    let checkpoint = match &args.checkpoint {
        Some(path) => Some(Checkpoint::open(path, &space, &options)?),
        None => None,
    };
    // Opened before the search, so a path that cannot take the log is an error now, not a
    // log silently lost (or a build that hangs on a pipe nobody reads).
    let log = match &args.progress_log {
        Some(path) => Some(open_log(path)?),
        None => None,
    };
    let progress = Progress::new();
    let start = Instant::now();
    let outcome = with_progress(&progress, log.as_ref(), checkpoint.as_ref(), || {
        let search = Search::whole(&space).options(&options).progress(&progress);
        pool.install(|| match &checkpoint {
            Some(c) => search.checkpoint(c).run(),
            None => search.run(),
        })
    })
    .map_err(|e| match e {
        // Rules and flags the search refuses are usage errors, as in `tree split`.
        SearchError::TooLarge { .. }
        | SearchError::ZeroDepth
        | SearchError::TooLargeToWeigh { .. }
        | SearchError::FirstGuess { .. } => anyhow::Error::from(UsageError(e.to_string())),
        e => e.into(),
    })?;
    let seconds = start.elapsed().as_secs_f64();
    warn_unwritten(checkpoint.as_ref());
    let rests_on = checkpoint
        .as_ref()
        .filter(|c| c.loaded() > 0)
        .map(|c| RestsOn {
            file: c.path().display().to_string(),
            facts: c.loaded(),
        });
    report_build(&args, outcome, &progress, seconds, &written, rests_on)
}

/// Writes the tree a build found (holding `written`'s lock, see [`exit_on_interrupt`]) and prints
/// what it found, or the proof that no tree fits the depth limit.
fn report_build(
    args: &BuildArgs,
    outcome: SearchOutcome<OptimalTree>,
    progress: &Progress,
    seconds: f64,
    written: &Mutex<bool>,
    rests_on: Option<RestsOn>,
) -> Result<()> {
    // A checkpoint's facts are taken as proven, not searched again: a result that used some says
    // so, so that a claim of optimality is never stronger than what this run proved.
    let rests = rests_on.as_ref().map(|r| {
        format!(
            "rests on  {} facts read from the checkpoint {}, proven by an earlier run and taken as true here (a build without --checkpoint proves it alone)",
            r.facts, r.file
        )
    });
    match outcome {
        SearchOutcome::Found(OptimalTree { tree, stats }) => {
            let text = tree.to_json(false);
            {
                let mut written = written.lock().unwrap_or_else(|p| p.into_inner());
                write_file(&args.output, text.as_bytes())?;
                *written = true;
            }
            if args.json {
                let report = BuildReport::Found {
                    stats: &stats,
                    nodes: progress.nodes(),
                    seconds,
                    kernel: Kernel::active(),
                    rests_on: rests_on.as_ref(),
                    file: args.output.display().to_string(),
                };
                outln!("{}", serde_json::to_string(&report)?)?;
            } else {
                print_stats(&stats)?;
                outln!(
                    "searched  {} candidate sets in {seconds:.2} s on the {} kernels ({} answered by an equivalent set's result); tree written to {}",
                    progress.nodes(),
                    Kernel::active(),
                    progress.borrowed(),
                    args.output.display()
                )?;
            }
        }
        SearchOutcome::Impossible { max_depth } => {
            let message = format!(
                "no strategy solves every secret within {max_depth} guess{}",
                if max_depth == 1 { "" } else { "es" }
            );
            if args.json {
                let report = BuildReport::Impossible {
                    impossible: true,
                    max_depth,
                    nodes: progress.nodes(),
                    seconds,
                    kernel: Kernel::active(),
                    rests_on: rests_on.as_ref(),
                };
                outln!("{}", serde_json::to_string(&report)?)?;
            } else {
                outln!(
                    "{message} (proven in {seconds:.2} s on the {} kernels; no tree written)",
                    Kernel::active()
                )?;
            }
        }
    }
    if let Some(rests) = rests.filter(|_| !args.json) {
        outln!("{rests}")?;
    }
    Ok(())
}

/// What `moo tree build --json` prints: the tree's statistics with the search's work and the
/// file written, or the proof that no tree fits the depth limit.
#[derive(Serialize)]
#[serde(untagged)]
enum BuildReport<'a> {
    Found {
        #[serde(flatten)]
        stats: &'a TreeStats,
        nodes: u64,
        seconds: f64,
        /// The kernel level the search ran at.
        kernel: Kernel,
        /// The checkpoint facts the result rests on, when it read any.
        #[serde(skip_serializing_if = "Option::is_none")]
        rests_on: Option<&'a RestsOn>,
        file: String,
    },
    Impossible {
        impossible: bool,
        max_depth: u32,
        nodes: u64,
        seconds: f64,
        kernel: Kernel,
        #[serde(skip_serializing_if = "Option::is_none")]
        rests_on: Option<&'a RestsOn>,
    },
}

/// The facts of a checkpoint a build read and took as proven instead of searching them again.
#[derive(Serialize)]
struct RestsOn {
    /// The checkpoint file.
    file: String,
    /// The facts read from it.
    facts: usize,
}

/// The exit status after Ctrl-C: 128 + SIGINT, what shells report for a process the signal
/// ended, so scripts see the interruption either way.
const INTERRUPTED: i32 = 130;

/// Makes Ctrl-C end the process with a message and [`INTERRUPTED`], and returns the flag that
/// says whether the tree file has been written.
///
/// The search has no way to stop midway, so the handler ends the process itself. Writing the
/// file holds the flag's lock from creating the temporary file until the rename, and the handler
/// takes the lock before exiting, so an interruption never leaves a temporary file behind: it
/// comes either before the write starts or after the rename.
fn exit_on_interrupt() -> Result<Arc<Mutex<bool>>> {
    let written = Arc::new(Mutex::new(false));
    let seen_by_handler = written.clone();
    let clear_line = if std::io::stderr().is_terminal() {
        "\r\x1b[2K"
    } else {
        ""
    };
    ctrlc::set_handler(move || {
        let written = seen_by_handler.lock().unwrap_or_else(|p| p.into_inner());
        let what = if *written {
            "the tree was already written"
        } else {
            "no tree written"
        };
        eprintln!("{clear_line}interrupted; {what}");
        // The lock stays held: no write may start between this message and the exit.
        std::process::exit(INTERRUPTED);
    })
    .context("cannot set up the Ctrl-C handler")?;
    Ok(written)
}

/// Shows the search's counters on the progress line until the search ends.
fn show_progress(progress: &Progress, done: &Finished) {
    let line = super::progress::ProgressLine::spinner("searching");
    while !done.wait(Duration::from_millis(250)) {
        let bound = progress.bound().map_or("-".to_string(), |b| b.to_string());
        line.set_message(format!(
            "{} sets, {} cached, {} first-guess parts solved, best {bound}",
            progress.nodes(),
            progress.cached(),
            progress.parts_solved(),
        ));
    }
    line.finish();
}

/// Opens the progress log for appending: a regular file (made if missing), never a device or a
/// pipe, which could block the build or swallow the log.
pub(super) fn open_log(path: &Path) -> Result<std::fs::File> {
    let refuse =
        |why: &str| anyhow::anyhow!("cannot write the progress log {}: {why}", path.display());
    match std::fs::metadata(path) {
        Ok(meta) if meta.is_dir() => return Err(refuse("it is a directory; name a file in it")),
        Ok(meta) if !meta.is_file() => {
            return Err(refuse(
                "it is not a regular file (devices and pipes are refused): name a file",
            ))
        }
        _ => {}
    }
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot write the progress log {}", path.display()))?;
    if !file.metadata()?.is_file() {
        return Err(refuse(
            "it is not a regular file (devices and pipes are refused): name a file",
        ));
    }
    Ok(file)
}

/// Runs `work`, a search counting in `progress`, with its progress on the terminal and, with a
/// `log`, appended to it every minute.
pub(super) fn with_progress<T>(
    progress: &Progress,
    log: Option<&std::fs::File>,
    checkpoint: Option<&Checkpoint>,
    work: impl FnOnce() -> T,
) -> T {
    let start = Instant::now();
    let watch = |done: &Finished| {
        std::thread::scope(|scope| {
            if let Some(log) = log {
                scope.spawn(move || log_progress(log, progress, checkpoint, done, start));
            }
            show_progress(progress, done);
        })
    };
    watched(watch, work)
}

/// Warns when facts could not be appended to a checkpoint. The result stands (it never depends
/// on the file); only a resumed run loses the facts.
pub(super) fn warn_unwritten(checkpoint: Option<&Checkpoint>) {
    if let Some(c) = checkpoint.filter(|c| c.failed() > 0) {
        eprintln!(
            "warning: {} facts could not be written to the checkpoint {} (is its disk full?): a run resumed from it would search them again; free space on that disk, or give --checkpoint a file on another",
            c.failed(),
            c.path().display()
        );
    }
}

/// Appends a progress line to `log` every minute until the search ends (and once at the start
/// and the end), so a long run in the background can be followed with `tail -f`.
fn log_progress(
    log: &std::fs::File,
    progress: &Progress,
    checkpoint: Option<&Checkpoint>,
    done: &Finished,
    start: Instant,
) {
    let line = |what: &str| {
        let (loaded, written) = checkpoint.map_or((0, 0), |c| (c.loaded() as u64, c.written()));
        let depth = progress
            .depth()
            .map_or(String::new(), |d| format!("trying depth {d}, "));
        format!(
            "{} {what}: {:.0} s, {depth}{} sets searched, {} cached, {} first-guess parts solved, checkpoint {loaded} loaded + {written} written\n",
            utc_now(),
            start.elapsed().as_secs_f64(),
            progress.nodes(),
            progress.cached(),
            progress.parts_solved(),
        )
    };
    // A line that cannot be written (a full disk) is dropped: the build matters more.
    let append = |text: String| {
        let mut log = log;
        let _ = log.write_all(text.as_bytes());
    };
    append(line("started"));
    let mut last = Instant::now();
    while !done.wait(Duration::from_millis(250)) {
        if last.elapsed() >= Duration::from_secs(60) {
            last = Instant::now();
            append(line("searching"));
        }
    }
    append(line("ended"));
}

/// The time now in UTC, `2026-11-23T20:15:00Z`, for log lines.
fn utc_now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

/// Reads a tree file: a regular file of at most [`MAX_TREE_FILE`] bytes, so a link to
/// `/dev/zero` is refused instead of filling memory, gzipped (as moo ships its larger trees) or
/// not, and at most [`MAX_TREE_FILE`] bytes unpacked.
pub(crate) fn read_tree(path: &Path) -> Result<DecisionTree> {
    let bytes = read_capped_bytes(path, MAX_TREE_FILE)?;
    let text = if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes.as_slice())
            .take(MAX_TREE_FILE + 1)
            .read_to_string(&mut text)
            .with_context(|| {
                format!(
                    "{} looks gzipped but does not unpack to UTF-8 text",
                    path.display()
                )
            })?;
        anyhow::ensure!(
            text.len() as u64 <= MAX_TREE_FILE,
            "{} unpacks to more than the limit of {} MiB",
            path.display(),
            MAX_TREE_FILE >> 20
        );
        text
    } else {
        String::from_utf8(bytes).map_err(|_| {
            anyhow::anyhow!(
                "cannot read {}: it is neither UTF-8 JSON nor gzipped JSON",
                path.display()
            )
        })?
    };
    DecisionTree::from_json(&text).with_context(|| format!("{}", path.display()))
}

fn verify(args: VerifyArgs) -> Result<()> {
    let tree = read_tree(&args.file)?;
    let stats = tree
        .verify()
        .with_context(|| format!("{} is not a valid tree", args.file.display()))?;
    if args.json {
        outln!("{}", serde_json::to_string(&stats)?)?;
    } else {
        outln!("rules     {}", tree.rules().describe())?;
        print_stats(&stats)?;
    }
    Ok(())
}

fn export(args: ExportArgs) -> Result<()> {
    let tree = read_tree(&args.file)?;
    let text = match args.format {
        ExportFormat::Text => tree
            .to_text()
            .with_context(|| format!("{} is not a valid tree", args.file.display()))?,
        ExportFormat::Json => {
            tree.verify()
                .with_context(|| format!("{} is not a valid tree", args.file.display()))?;
            tree.to_json(false) + "\n"
        }
    };
    match &args.output {
        Some(path) => write_file(path, text.as_bytes()),
        None => out!("{text}"),
    }
}

fn show(args: ShowArgs) -> Result<()> {
    let tree = read_tree(&args.file)?;
    outln!("rules: {}", tree.rules().describe())?;
    out!("{}", tree.render(args.depth.max(1)))
}
