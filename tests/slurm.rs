//! A real cluster engine: a one-node Slurm started on this machine runs `moo tree split`'s jobs,
//! round after round, as array jobs through the very scripts the docs show
//! (`scripts/slurm-split.sh` submitting `scripts/slurm-tree.sh`), and the joined tree must be
//! `moo tree build`'s, byte for byte.
//!
//! The cluster is Debian's `slurm-wlm` and `munge` (installed by `.ci/run`): munged as the munge
//! user, slurmctld and slurmd in the foreground as children of the test, every file (key,
//! sockets, state, spool, logs) in a temporary directory, free ports, no cgroups and no
//! accounting, so it runs in a container and beside other runs of itself. Starting daemons as
//! other users needs root. Without Slurm, munge or root the test fails when `CI=true` or
//! `MOO_REQUIRE_SLURM=1`, and is skipped otherwise with a warning on stderr.
//!
//! Only the processes it started are stopped, also when it fails: any job still queued is
//! cancelled through its own controller, then slurmd, slurmctld and munged get SIGTERM, and
//! SIGKILL if they linger.

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

/// The batch script, as the docs show it.
const SCRIPT: &str = "scripts/slurm-tree.sh";
/// The script that submits every round of a split, as the docs show it.
const DRIVER: &str = "scripts/slurm-split.sh";
const MUNGED: &str = "/usr/sbin/munged";
const SLURMCTLD: &str = "/usr/sbin/slurmctld";
const SLURMD: &str = "/usr/sbin/slurmd";
/// The one node's name, as `slurmd -N` registers it.
const NODE: &str = "moo-node";

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
/// every round as an array job through the driver script, and the same file as `tree build`
/// writes.
#[test]
fn a_split_runs_as_a_slurm_array_job_and_joins_to_the_built_tree() {
    let Some(cluster) = Cluster::start_or_skip() else {
        return;
    };
    let started = Instant::now();
    let moo = PathBuf::from(env!("CARGO_BIN_EXE_moo"));
    let work = cluster.dir.path().join("work");
    fs::create_dir(&work).unwrap();
    let game = ["--length", "3"];
    let jobs = work.join("jobs");

    let split = run(Command::new(&moo)
        .args(["tree", "split", "--share", "5", "--json", "--out"])
        .arg(&jobs)
        .args(game));
    let split: serde_json::Value = serde_json::from_slice(&split.stdout).unwrap();
    let first = split["jobs"].as_array().unwrap().len();
    assert!(first > 1, "{split}");
    assert!(split["deeper"].as_u64().unwrap() > 0, "{split}");

    // The job finds `moo` on the PATH it inherits from sbatch (`--export=ALL`, the default).
    let path = format!(
        "{}:{}",
        moo.parent().unwrap().display(),
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
    let submitted = cluster.wait_for(driver, Duration::from_secs(300));
    assert!(
        submitted.status.success(),
        "{DRIVER} failed: {}{}\n{}",
        String::from_utf8_lossy(&submitted.stdout),
        String::from_utf8_lossy(&submitted.stderr),
        cluster.logs()
    );
    let array_seconds = started.elapsed().as_secs_f64();
    let rounds = String::from_utf8_lossy(&submitted.stdout)
        .lines()
        .filter(|l| l.starts_with("Submitted batch job"))
        .count();
    // Round 1, the later guesses of the parts, then the positions below them.
    assert!(rounds > 2, "one array job per round\n{}", cluster.logs());
    // Slurm ran every task of every round: each wrote its own output file.
    let count = fs::read_dir(&jobs)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".job.json"))
        .count();
    let outputs = fs::read_dir(&work)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "out"))
        .count();
    assert_eq!(outputs, count, "array task outputs\n{}", cluster.logs());
    let built = work.join("built.json");
    let build = run(Command::new(&moo)
        .args(["tree", "build", "--threads", "1", "--json", "-o"])
        .arg(&built)
        .args(game));
    let build: serde_json::Value = serde_json::from_slice(&build.stdout).unwrap();
    assert_eq!(
        fs::read(&joined).unwrap(),
        fs::read(&built).unwrap(),
        "the tree joined from the Slurm jobs differs from tree build's"
    );
    // The test's log line, quoted in docs/src/exact-results.md.
    let _ = writeln!(
        std::io::stderr(),
        "slurm: Bulls and Cows 3 of 0-9 ({count} array tasks in {rounds} rounds, {DRIVER} submitting {SCRIPT}) ran in {array_seconds:.1} s \
         on a one-node Slurm {}; joined tree identical to tree build's ({} guesses in total)",
        cluster.version,
        build["total"]
    );
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
        return Some("the one-node Slurm starts its daemons as root and munge: run as root".into());
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

/// Two distinct free ports, both held until both are chosen.
fn free_ports() -> (u16, u16) {
    let bind = || TcpListener::bind("127.0.0.1:0").unwrap();
    let (a, b) = (bind(), bind());
    (
        a.local_addr().unwrap().port(),
        b.local_addr().unwrap().port(),
    )
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

/// A one-node Slurm and its munged, stopped when dropped.
struct Cluster {
    dir: tempfile::TempDir,
    conf: PathBuf,
    /// (name, process), in the order started.
    daemons: Vec<(&'static str, Child)>,
    version: String,
}

impl Cluster {
    /// Starts the cluster, or says why it cannot and returns `None` (a panic instead under
    /// `CI=true` or `MOO_REQUIRE_SLURM=1`).
    fn start_or_skip() -> Option<Cluster> {
        if let Some(why) = missing() {
            let required = std::env::var("CI").is_ok_and(|v| v == "true")
                || std::env::var("MOO_REQUIRE_SLURM").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "{why} (the Slurm test is required here: CI=true or MOO_REQUIRE_SLURM=1)"
            );
            let _ = writeln!(
                std::io::stderr(),
                "\n!!! WARNING: the Slurm test of tests/slurm.rs is SKIPPED and passes without \
                 running a cluster.\n!!! {why}\n!!! Set MOO_REQUIRE_SLURM=1 (or CI=true) to make \
                 it fail instead.\n"
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
        cluster.spawn(
            "slurmd",
            Command::new(SLURMD)
                .arg("-D")
                .arg("-f")
                .arg(&conf)
                .args(["-N", NODE]),
        );
        await_ready(
            &cluster,
            "the node did not come up idle",
            Duration::from_secs(30),
            || {
                cluster
                    .client("sinfo")
                    .args(["-h", "-N", "-o", "%t"])
                    .output()
                    .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "idle")
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
    /// resolve), one node of this machine's CPUs, no cgroups, no accounting, scheduling on every
    /// event so that short array tasks follow each other without the default 3 s delay.
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
        let (ctld_port, slurmd_port) = free_ports();
        let mut conf = String::new();
        for line in [
            "ClusterName=moo-test".to_string(),
            format!("SlurmctldHost={host}(127.0.0.1)"),
            format!("SlurmctldPort={ctld_port}"),
            format!("SlurmdPort={slurmd_port}"),
            "SlurmUser=root".into(),
            "SlurmdUser=root".into(),
            "AuthType=auth/munge".into(),
            "CredType=cred/munge".into(),
            format!("AuthInfo=socket={}", munge_socket.display()),
            format!("StateSaveLocation={d}/state"),
            format!("SlurmdSpoolDir={d}/spool"),
            format!("SlurmctldPidFile={d}/slurmctld.pid"),
            format!("SlurmdPidFile={d}/slurmd.pid"),
            format!("SlurmctldLogFile={d}/slurmctld.log"),
            format!("SlurmdLogFile={d}/slurmd.log"),
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
            "SchedulerParameters=batch_sched_delay=0,sched_min_interval=0".into(),
            "MinJobAge=2".into(),
            "ReturnToService=2".into(),
            "MailProg=/bin/true".into(),
            format!(
                "NodeName={NODE} NodeAddr=127.0.0.1 CPUs={cpus} RealMemory={mem_mb} State=UNKNOWN"
            ),
            format!("PartitionName=test Nodes={NODE} Default=YES MaxTime=10 State=UP"),
        ] {
            writeln!(conf, "{line}").unwrap();
        }
        fs::write(&self.conf, conf).unwrap();
    }

    /// Starts a daemon with its output in `NAME.out` of the cluster's directory.
    fn spawn(&mut self, name: &'static str, cmd: &mut Command) {
        let log = fs::File::create(self.dir.path().join(format!("{name}.out"))).unwrap();
        let child = cmd
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log)
            .spawn()
            .unwrap_or_else(|e| panic!("{name} did not start: {e}"));
        self.daemons.push((name, child));
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
        let mut files: Vec<PathBuf> = [
            "slurmctld.log",
            "slurmd.log",
            "munged.out",
            "slurmctld.out",
            "slurmd.out",
        ]
        .iter()
        .map(|f| self.dir.path().join(f))
        .collect();
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
        if self.daemons.iter().any(|(name, _)| *name == "slurmctld") {
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
