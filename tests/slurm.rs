//! A real cluster engine: a Slurm of two compute nodes started on this machine runs `moo tree
//! split`'s jobs, round after round, as array jobs through the very scripts the docs show
//! (`scripts/slurm-split.sh` submitting `scripts/slurm-tree.sh`); one node is killed midway, its
//! tasks are requeued onto the other, and the joined tree must still be `moo tree build`'s, byte
//! for byte.
//!
//! The cluster is Debian's `slurm-wlm` and `munge` (installed by `.ci/run`): munged as the munge
//! user, slurmctld and one slurmd per node in the foreground as children of the test (Slurm's
//! multiple-slurmd mode, which Debian's build has: each slurmd serves one node name on a port of
//! its own), every file (key, sockets, state, spools, logs) in a temporary directory, free ports,
//! no cgroups and no accounting, so it runs in a container and beside other runs of itself.
//! Starting daemons as other users needs root. Without Slurm, munge or root the test fails when
//! `CI=true` or `MOO_REQUIRE_SLURM=1`, and is skipped otherwise with a warning on stderr.
//!
//! Only the processes it started are stopped, also when it fails: any job still queued is
//! cancelled through its own controller, then the daemons get SIGTERM, and SIGKILL if they
//! linger.

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use nix::sys::signal::{kill, Signal};
use nix::unistd::Pid;

#[path = "common/require.rs"]
mod require;

/// The batch script, as the docs show it.
const SCRIPT: &str = "scripts/slurm-tree.sh";
/// The script that submits every round of a split, as the docs show it.
const DRIVER: &str = "scripts/slurm-split.sh";
const MUNGED: &str = "/usr/sbin/munged";
const SLURMCTLD: &str = "/usr/sbin/slurmctld";
const SLURMD: &str = "/usr/sbin/slurmd";
/// The nodes' names, as each `slurmd -N` registers its own.
const NODES: [&str; 2] = ["moo-node1", "moo-node2"];
/// The node the test kills midway.
const DOOMED: &str = NODES[1];
/// The tasks the doomed node finishes before it is killed: most of its share of the first round
/// (23 tasks), so that the kill comes while the other node still has that round to run.
const BEFORE_KILL: usize = 8;
/// What marks a process as belonging to one node: set on its slurmd (and so inherited by the
/// step daemons it starts), and the `SLURMD_NODENAME` Slurm gives the job's own processes.
const NODE_MARK: &str = "MOO_TEST_NODE";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Every fenced block of the docs that holds an `#SBATCH` line is the script, character for
/// character, so that what a user copies is what this test runs. An mdBook include of the file
/// counts as a quote; at least one quote must exist.
#[test]
fn the_docs_quote_the_slurm_script_exactly() {
    let script = fs::read_to_string(repo().join(SCRIPT)).unwrap();
    let mut pages = vec![repo().join("README.md")];
    let mut dirs = vec![repo().join("docs")];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    let mut quotes = 0;
    for page in &pages {
        let text = fs::read_to_string(page).unwrap();
        for line in text.lines() {
            if line.contains("{{#include") && line.contains("slurm-tree.sh") {
                quotes += 1;
            }
        }
        for block in fenced_blocks(&text) {
            if block.lines().any(|l| l.starts_with("#SBATCH")) {
                assert_eq!(
                    block,
                    script,
                    "{} quotes a Slurm script that is not {SCRIPT}: copy the file into it",
                    page.display()
                );
                quotes += 1;
            }
        }
    }
    assert!(quotes > 0, "no page quotes {SCRIPT}");
}

/// The bodies of the fenced code blocks of a Markdown text, each line ending in a newline.
fn fenced_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    for line in text.lines() {
        match open.as_mut() {
            None if line.starts_with("```") => open = Some(String::new()),
            Some(_) if line.starts_with("```") => blocks.extend(open.take()),
            Some(body) => {
                body.push_str(line);
                body.push('\n');
            }
            None => {}
        }
    }
    blocks
}

/// Bulls and Cows 3 of 0-9 (nine rounds of jobs, seconds in all; `--share 5` keeps it to about
/// 120 tasks, each a process Slurm starts, with positions below the parts split too): split,
/// every round as an array job through the driver script over two nodes, one of them killed
/// once it has finished its share of the first rounds and holds a running task, and the same
/// file as `tree build` writes.
///
/// The tasks find `moo` through a wrapper on their PATH that logs which node started and
/// finished each task, and that holds a task on the doomed node once the test says so, so that
/// the node is killed with a task of its own running (a crash mid-task, not between tasks).
#[test]
fn a_split_runs_over_two_slurm_nodes_survives_one_killed_and_joins_to_the_built_tree() {
    let Some(cluster) = Cluster::start_or_skip() else {
        return;
    };
    let started = Instant::now();
    let moo = PathBuf::from(env!("CARGO_BIN_EXE_moo"));
    let work = cluster.dir.path().join("work");
    fs::create_dir(&work).unwrap();
    let game = ["--length", "3"];
    // `moo ARGS PATH` on the game, printing JSON: the split, and the build its join must equal.
    let moo_json =
        |args: &[&str], path: &Path| run_json(Command::new(&moo).args(args).arg(path).args(game));
    let jobs = work.join("jobs");

    let split = moo_json(
        &["tree", "split", "--share", "20", "--json", "--out"],
        &jobs,
    );
    let first = split["jobs"].as_array().unwrap().len();
    assert!(first > 1, "{split}");
    assert!(split["deeper"].as_u64().unwrap() > 0, "{split}");

    let bin = work.join("bin");
    let tasks = work.join("tasks.log");
    let hold = work.join("hold");
    write_wrapper(&bin, &moo, &tasks, &hold);
    // The job finds `moo` on the PATH it inherits from sbatch (`--export=ALL`, the default).
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let joined = work.join("joined.json");
    let mut driver = cluster.client("bash");
    driver
        .current_dir(&work)
        .env("PATH", path)
        .arg(repo().join(DRIVER))
        .arg(&jobs)
        .arg(&joined);
    let killed = std::sync::atomic::AtomicBool::new(false);
    let done = std::sync::atomic::AtomicBool::new(false);
    let submitted = std::thread::scope(|scope| {
        let watcher = scope.spawn(|| kill_midway(&tasks, &hold, &done, &killed));
        let submitted = cluster.wait_for(driver, Duration::from_secs(400));
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        watcher.join().unwrap();
        submitted
    });
    assert!(
        submitted.status.success(),
        "{DRIVER} failed: {}{}\n{}",
        String::from_utf8_lossy(&submitted.stdout),
        String::from_utf8_lossy(&submitted.stderr),
        cluster.logs()
    );
    assert!(
        killed.load(std::sync::atomic::Ordering::Relaxed),
        "{DOOMED} never held a task to be killed with\n{}",
        cluster.logs()
    );
    let array_seconds = started.elapsed().as_secs_f64();
    let report = String::from_utf8_lossy(&submitted.stdout);
    let rounds = report
        .lines()
        .filter(|l| l.starts_with("Submitted batch job"))
        .count();
    // Round 1, the later guesses of the parts, then the positions below them.
    assert!(rounds > 2, "one array job per round\n{}", cluster.logs());

    // Every task of every round ran to its end on some node; the one held on the doomed node
    // started again on the other after the kill.
    let log = TaskLog::read(&tasks);
    let count = fs::read_dir(&jobs)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".job.json"))
        .count();
    assert_eq!(
        log.finished.len(),
        count,
        "tasks finished\n{}",
        cluster.logs()
    );
    let (held_task, _) = log.held.first().expect("a task was held").clone();
    let restarts: Vec<&String> = log
        .started
        .iter()
        .filter(|(task, _)| *task == held_task)
        .map(|(_, node)| node)
        .collect();
    assert_eq!(
        restarts,
        [&DOOMED.to_string(), &NODES[0].to_string()],
        "task {held_task}: started on {DOOMED}, requeued onto {}\n{}",
        NODES[0],
        cluster.logs()
    );
    let shares: Vec<String> = NODES
        .iter()
        .map(|node| {
            let n = log.finished.iter().filter(|(_, n)| n == node).count();
            assert!(n > 0, "{node} finished no task\n{}", cluster.logs());
            format!("{node} {n}")
        })
        .collect();
    // The join's report names the nodes whose results its claim rests on.
    let last_join = report
        .lines()
        .rev()
        .find(|l| l.contains("rests on"))
        .unwrap_or_default();
    for node in NODES {
        assert!(last_join.contains(node), "{last_join}");
    }

    let built = work.join("built.json");
    let build = moo_json(&["tree", "build", "--threads", "1", "--json", "-o"], &built);
    assert_eq!(
        fs::read(&joined).unwrap(),
        fs::read(&built).unwrap(),
        "the tree joined from the Slurm jobs differs from tree build's"
    );
    // The test's log line, quoted in docs/src/exact-results.md.
    let _ = writeln!(
        std::io::stderr(),
        "slurm: Bulls and Cows 3 of 0-9 ({count} array tasks in {rounds} rounds, {DRIVER} submitting {SCRIPT}) ran in {array_seconds:.1} s \
         on a two-node Slurm {} (tasks finished: {}; {DOOMED} killed with task {held_task} running, which was requeued onto {}); \
         joined tree identical to tree build's ({} guesses in total)",
        cluster.version,
        shares.join(", "),
        NODES[0],
        build["total"]
    );
}

/// Writes `bin/moo`: the real `moo` run through a shell script that, under Slurm, logs each
/// task's node at its start and end to `log`, and holds a task on the doomed node while `hold`
/// exists (until the node is killed).
fn write_wrapper(bin: &Path, moo: &Path, log: &Path, hold: &Path) {
    fs::create_dir(bin).unwrap();
    let script = format!(
        r#"#!/bin/sh
if [ -n "$SLURMD_NODENAME" ]; then
  task="${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}"
  echo "start $task $SLURMD_NODENAME" >> '{log}'
  if [ "$SLURMD_NODENAME" = '{DOOMED}' ] && [ -e '{hold}' ]; then
    echo "held $task $SLURMD_NODENAME" >> '{log}'
    sleep 600
  fi
  '{moo}' "$@" || exit
  echo "finished $task $SLURMD_NODENAME" >> '{log}'
  exit 0
fi
exec '{moo}' "$@"
"#,
        log = log.display(),
        hold = hold.display(),
        moo = moo.display(),
    );
    let wrapper = bin.join("moo");
    fs::write(&wrapper, script).unwrap();
    fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755)).unwrap();
}

/// The wrapper's log: (task, node) of each start, hold and finish, in order.
struct TaskLog {
    started: Vec<(String, String)>,
    held: Vec<(String, String)>,
    finished: Vec<(String, String)>,
}

impl TaskLog {
    fn read(path: &Path) -> TaskLog {
        let mut log = TaskLog {
            started: Vec::new(),
            held: Vec::new(),
            finished: Vec::new(),
        };
        for line in fs::read_to_string(path).unwrap_or_default().lines() {
            let mut words = line.split(' ');
            let (Some(what), Some(task), Some(node)) = (words.next(), words.next(), words.next())
            else {
                continue;
            };
            let entry = (task.to_string(), node.to_string());
            match what {
                "start" => log.started.push(entry),
                "held" => log.held.push(entry),
                "finished" => log.finished.push(entry),
                _ => {}
            }
        }
        log
    }
}

/// Until `done`: once the doomed node has finished [`BEFORE_KILL`] tasks (its share of the first
/// rounds), has the wrapper hold its next one; once it holds one, kills the node (its slurmd, step daemons and job processes, as a
/// crash would) and says so in `killed`.
fn kill_midway(
    tasks: &Path,
    hold: &Path,
    done: &std::sync::atomic::AtomicBool,
    killed: &std::sync::atomic::AtomicBool,
) {
    use std::sync::atomic::Ordering::Relaxed;
    while !done.load(Relaxed) && !killed.load(Relaxed) {
        let log = TaskLog::read(tasks);
        let finished = log.finished.iter().filter(|(_, n)| n == DOOMED).count();
        if finished >= BEFORE_KILL && !hold.exists() {
            fs::write(hold, "").unwrap();
        }
        if log.held.iter().any(|(_, n)| n == DOOMED) {
            kill_node(DOOMED);
            killed.store(true, Relaxed);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Kills `node` as a crash would: every process of it is stopped at once, then killed, so that
/// none can tell the controller its job ended (a step daemon that outlived its job would report
/// the kill as the job's own failure, not the node's). Its processes are those carrying its
/// [`NODE_MARK`] (its slurmd), its `SLURMD_NODENAME` (its jobs' processes) and the step
/// daemons of those jobs (`slurmstepd: [JOBID.batch]`).
fn kill_node(node: &str) {
    let environ = |pid: i32| -> Vec<String> {
        fs::read(format!("/proc/{pid}/environ"))
            .unwrap_or_default()
            .split(|&b| b == 0)
            .map(|v| String::from_utf8_lossy(v).into_owned())
            .collect()
    };
    let pids: Vec<i32> = fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter_map(|e| e.file_name().to_string_lossy().parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let marks = [
        format!("{NODE_MARK}={node}"),
        format!("SLURMD_NODENAME={node}"),
    ];
    let mut doomed = Vec::new();
    let mut jobs = Vec::new();
    for &pid in &pids {
        let vars = environ(pid);
        if vars.iter().any(|v| marks.contains(v)) {
            doomed.push(pid);
            jobs.extend(
                vars.iter()
                    .filter_map(|v| v.strip_prefix("SLURM_JOB_ID="))
                    .map(|id| format!("slurmstepd: [{id}.")),
            );
        }
    }
    for &pid in &pids {
        let cmdline = fs::read_to_string(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if jobs.iter().any(|j| cmdline.starts_with(j.as_str())) {
            doomed.push(pid);
        }
    }
    for signal in [Signal::SIGSTOP, Signal::SIGKILL] {
        for &pid in &doomed {
            let _ = kill(Pid::from_raw(pid), signal);
        }
    }
}

/// Runs a command to completion; a failure shows its output.
fn run(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// [`run`] of a command that prints JSON: what it printed.
fn run_json(cmd: &mut Command) -> serde_json::Value {
    serde_json::from_slice(&run(cmd).stdout).unwrap()
}

/// Why the cluster cannot start here, or `None` when it can.
fn missing() -> Option<String> {
    for tool in [
        MUNGED,
        SLURMCTLD,
        SLURMD,
        "/usr/bin/sbatch",
        "/usr/bin/sinfo",
    ] {
        if !Path::new(tool).exists() {
            return Some(format!(
                "{tool} is missing: apt-get install -y slurm-wlm munge"
            ));
        }
    }
    if !Command::new("id")
        .arg("munge")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        return Some("there is no munge user: apt-get install -y munge".into());
    }
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    if !root {
        return Some("the test Slurm starts its daemons as root and munge: run as root".into());
    }
    None
}

/// A user's uid and gid, through `id` (which asks NSS, as the daemons do).
fn ids(user: &str) -> (u32, u32) {
    let get = |flag: &str| {
        let out = run(Command::new("id").args([flag, user]));
        String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
    };
    (get("-u"), get("-g"))
}

/// `n` distinct free ports, all held until all are chosen.
fn free_ports(n: usize) -> Vec<u16> {
    let held: Vec<TcpListener> = (0..n)
        .map(|_| TcpListener::bind("127.0.0.1:0").unwrap())
        .collect();
    held.iter()
        .map(|l| l.local_addr().unwrap().port())
        .collect()
}

/// Polls `ready` every 100 ms until it holds; panics with `what` and the logs after `limit`.
fn await_ready(cluster: &Cluster, what: &str, limit: Duration, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !ready() {
        assert!(
            Instant::now() < deadline,
            "{what} within {limit:?}\n{}",
            cluster.logs()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A Slurm of [`NODES`] and its munged, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    /// (name, process), in the order started.
    daemons: Vec<(String, Child)>,
    version: String,
}

impl Cluster {
    /// Starts the cluster, or says why it cannot and returns `None` (a panic instead under
    /// `CI=true` or `MOO_REQUIRE_SLURM=1`).
    fn start_or_skip() -> Option<Cluster> {
        if let Some(why) = missing() {
            require::missing(
                "the Slurm tests of tests/slurm.rs",
                "MOO_REQUIRE_SLURM",
                &why,
            );
            return None;
        }
        Some(Cluster::start())
    }

    fn start() -> Cluster {
        let dir = tempfile::Builder::new()
            .prefix("moo-slurm-")
            .tempdir()
            .unwrap();
        // munged runs as munge and must reach its socket: the tree is readable, not writable,
        // by others (munged refuses a socket directory others may write to).
        fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
        let mut cluster = Cluster {
            conf: dir.path().join("slurm.conf"),
            dir,
            daemons: Vec::new(),
            version: String::new(),
        };
        let socket = cluster.start_munged();
        cluster.write_conf(&socket);
        let conf = cluster.conf.clone();
        cluster.spawn(
            "slurmctld",
            Command::new(SLURMCTLD)
                .arg("-D")
                .arg("-i")
                .arg("-f")
                .arg(&conf),
        );
        for node in NODES {
            cluster.spawn(
                &format!("slurmd-{node}"),
                Command::new(SLURMD)
                    .arg("-D")
                    .arg("-f")
                    .arg(&conf)
                    .args(["-N", node])
                    .env(NODE_MARK, node),
            );
        }
        await_ready(
            &cluster,
            "the nodes did not come up idle",
            Duration::from_secs(30),
            || {
                cluster
                    .client("sinfo")
                    .args(["-h", "-N", "-o", "%t"])
                    .output()
                    .is_ok_and(|o| {
                        let states = String::from_utf8_lossy(&o.stdout);
                        states.lines().filter(|l| l.trim() == "idle").count() == NODES.len()
                    })
            },
        );
        let version = run(cluster.client("sinfo").arg("--version"));
        cluster.version = String::from_utf8_lossy(&version.stdout)
            .trim()
            .trim_start_matches("slurm-wlm ")
            .trim_start_matches("slurm ")
            .to_string();
        cluster
    }

    /// Starts munged as the munge user on a key of its own; returns its socket.
    fn start_munged(&mut self) -> PathBuf {
        let (uid, gid) = ids("munge");
        let munge = self.dir.path().join("munge");
        fs::create_dir(&munge).unwrap();
        let key = munge.join("munge.key");
        let mut bytes = vec![0u8; 1024];
        fs::File::open("/dev/urandom")
            .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes))
            .unwrap();
        fs::write(&key, &bytes).unwrap();
        fs::set_permissions(&key, fs::Permissions::from_mode(0o600)).unwrap();
        std::os::unix::fs::chown(&key, Some(uid), Some(gid)).unwrap();
        std::os::unix::fs::chown(&munge, Some(uid), Some(gid)).unwrap();
        let socket = munge.join("munge.socket");
        let mut cmd = Command::new(MUNGED);
        cmd.arg("--foreground")
            .arg(format!("--socket={}", socket.display()))
            .arg(format!("--key-file={}", key.display()))
            .arg(format!("--pid-file={}", munge.join("munged.pid").display()))
            .arg(format!(
                "--seed-file={}",
                munge.join("munged.seed").display()
            ))
            .arg(format!("--log-file={}", munge.join("munged.log").display()))
            .uid(uid)
            .gid(gid);
        self.spawn("munged", &mut cmd);
        await_ready(
            self,
            "munged did not open its socket",
            Duration::from_secs(10),
            || socket.exists(),
        );
        socket
    }

    /// slurm.conf: this host as the controller, pinned to 127.0.0.1 (its name need not
    /// resolve), two nodes of this machine's CPUs each, no cgroups, no accounting, scheduling on
    /// every event so that short array tasks follow each other without the default 3 s delay.
    fn write_conf(&self, munge_socket: &Path) {
        let host = fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
        let host = host.trim().split('.').next().unwrap().to_string();
        let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
        let meminfo = fs::read_to_string("/proc/meminfo").unwrap();
        let mem_kb: u64 = meminfo
            .lines()
            .find_map(|l| l.strip_prefix("MemTotal:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap();
        // Below what slurmd measures, or the node is drained for "Low RealMemory".
        let mem_mb = mem_kb / 1024 * 9 / 10;
        let d = self.dir.path().display();
        let plugstack = self.dir.path().join("plugstack.conf");
        fs::write(&plugstack, "").unwrap();
        for sub in ["state", "spool"] {
            fs::create_dir(self.dir.path().join(sub)).unwrap();
        }
        let ports = free_ports(1 + NODES.len());
        let mut conf = String::new();
        for line in [
            "ClusterName=moo-test".to_string(),
            format!("SlurmctldHost={host}(127.0.0.1)"),
            format!("SlurmctldPort={}", ports[0]),
            "SlurmUser=root".into(),
            "SlurmdUser=root".into(),
            "AuthType=auth/munge".into(),
            "CredType=cred/munge".into(),
            // A requeued job waits out the credential lifetime before it starts again: 120 s by
            // default, which was most of this test's time.
            format!("AuthInfo=socket={},cred_expire=10", munge_socket.display()),
            format!("StateSaveLocation={d}/state"),
            // %n: each node's own, as multiple-slurmd needs.
            format!("SlurmdSpoolDir={d}/spool/%n"),
            format!("SlurmctldPidFile={d}/slurmctld.pid"),
            format!("SlurmdPidFile={d}/slurmd-%n.pid"),
            format!("SlurmctldLogFile={d}/slurmctld.log"),
            format!("SlurmdLogFile={d}/slurmd-%n.log"),
            format!("PlugStackConfig={}", plugstack.display()),
            "ProctrackType=proctrack/linuxproc".into(),
            "TaskPlugin=task/none".into(),
            "JobAcctGatherType=jobacct_gather/none".into(),
            "AccountingStorageType=accounting_storage/none".into(),
            "JobCompType=jobcomp/none".into(),
            "MpiDefault=none".into(),
            "SwitchType=switch/none".into(),
            "SelectType=select/cons_tres".into(),
            "SelectTypeParameters=CR_CPU".into(),
            "SchedulerType=sched/builtin".into(),
            "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0,sched_interval=1".into(),
            "MinJobAge=2".into(),
            "ReturnToService=2".into(),
            // A killed node is declared down within seconds, and its batch tasks requeued.
            "SlurmdTimeout=5".into(),
            "JobRequeue=1".into(),
            "MailProg=/bin/true".into(),
            format!(
                "PartitionName=test Nodes={} Default=YES MaxTime=10 State=UP",
                NODES.join(",")
            ),
        ] {
            writeln!(conf, "{line}").unwrap();
        }
        // Every node has all of this machine's CPUs: the tasks ask for two each, so that each
        // node runs one at a time.
        for (node, port) in NODES.iter().zip(&ports[1..]) {
            fs::create_dir(self.dir.path().join("spool").join(node)).unwrap();
            writeln!(
                conf,
                "NodeName={node} NodeHostname={host} NodeAddr=127.0.0.1 Port={port} CPUs={cpus} RealMemory={mem_mb} State=UNKNOWN"
            )
            .unwrap();
        }
        fs::write(&self.conf, conf).unwrap();
    }

    /// Starts a daemon with its output in `NAME.out` of the cluster's directory.
    fn spawn(&mut self, name: &str, cmd: &mut Command) {
        let log = fs::File::create(self.dir.path().join(format!("{name}.out"))).unwrap();
        let child = cmd
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{name} did not start: {e}"));
        self.daemons.push((name.to_string(), child));
    }

    /// A Slurm client command talking to this cluster.
    fn client(&self, name: &str) -> Command {
        let mut cmd = Command::new(name);
        cmd.env("SLURM_CONF", &self.conf).stdin(Stdio::null());
        cmd
    }

    /// Runs `cmd`, killing it after `limit` (then panicking with the logs).
    fn wait_for(&self, mut cmd: Command, limit: Duration) -> Output {
        let dir = self.dir.path();
        let (out, err) = (dir.join("client.stdout"), dir.join("client.stderr"));
        let mut child = cmd
            .stdout(fs::File::create(&out).unwrap())
            .stderr(fs::File::create(&err).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
        let deadline = Instant::now() + limit;
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() >= deadline {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{cmd:?} did not finish within {limit:?}\n{}", self.logs());
            }
            std::thread::sleep(Duration::from_millis(100));
        };
        Output {
            status,
            stdout: fs::read(out).unwrap(),
            stderr: fs::read(err).unwrap(),
        }
    }

    /// The last lines of every log, the queue and the job outputs, for a failure message.
    fn logs(&self) -> String {
        let mut text = String::new();
        let mut files: Vec<PathBuf> = ["slurmctld.log", "munged.out", "slurmctld.out"]
            .iter()
            .map(|f| self.dir.path().join(f))
            .collect();
        for node in NODES {
            files.push(self.dir.path().join(format!("slurmd-{node}.log")));
            files.push(self.dir.path().join(format!("slurmd-{node}.out")));
        }
        files.push(self.dir.path().join("work").join("tasks.log"));
        if let Ok(entries) = fs::read_dir(self.dir.path().join("work")) {
            files.extend(
                entries
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|e| e == "out")),
            );
        }
        for file in files {
            let Ok(content) = fs::read_to_string(&file) else {
                continue;
            };
            let lines: Vec<&str> = content.lines().collect();
            let tail = &lines[lines.len().saturating_sub(15)..];
            let _ = writeln!(text, "== {}\n{}", file.display(), tail.join("\n"));
        }
        if let Ok(queue) = self.client("squeue").output() {
            let _ = writeln!(
                text,
                "== squeue\n{}",
                String::from_utf8_lossy(&queue.stdout)
            );
        }
        text
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        // Jobs first, through this cluster's own controller, so no job outlives its slurmd.
        if self.daemons.iter().any(|(name, _)| name == "slurmctld") {
            let _ = self
                .client("scancel")
                .args(["--full", "--user=root"])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
        for (_, child) in self.daemons.iter_mut().rev() {
            let pid = Pid::from_raw(child.id() as i32);
            let _ = kill(pid, Signal::SIGTERM);
            let deadline = Instant::now() + Duration::from_secs(10);
            while child.try_wait().ok().flatten().is_none() {
                if Instant::now() >= deadline {
                    let _ = child.kill();
                    let _ = child.wait();
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
    }
}
