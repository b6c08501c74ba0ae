//! Hostile input, output and load (issue 12): the real `moo` binary fed what a careless user or
//! an attacker would feed it, and the web server held open by slow clients.
//!
//! Every CLI case runs in a fresh directory of its own inside one temporary directory, with that
//! directory as its working directory, `TMPDIR` and `HOME`, and with an address-space limit set
//! before `exec`, so a runaway allocation fails inside the child instead of filling the machine.
//! Each case checks its exit code and message, that nothing panicked, that no file was left
//! behind or replaced (device nodes and FIFOs made here stay what they are), and the suite
//! checks that no child's peak resident memory reached 1 GB and that nothing outside its
//! temporary directory changed. Devices are made with `mknod` inside the temporary directory,
//! never touched under the real `/dev`; cases that need root or a tmpfs mount are skipped, with
//! a note, where those are not available.
//!
//! The suite prints `hostile: N cases tried, N passed`.

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The address-space limit of every child: far above what any case needs.
const ADDRESS_SPACE: u64 = 2 << 30;
/// The most resident memory any child may have reached.
const MAX_RESIDENT_KB: i64 = 1 << 20;
/// A case that runs longer than this is killed and fails.
const CASE_TIMEOUT: Duration = Duration::from_secs(60);

/// An extra check on a case directory after the run.
type Check = fn(&Path) -> Result<(), String>;

/// Where a case's stdout goes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Out {
    /// A pipe read to the end.
    Pipe,
    /// The `full` device node of the case directory (writes fail with ENOSPC).
    Full,
    /// A pipe whose reading end is closed at once (writes fail with EPIPE).
    Closed,
}

/// One hostile invocation and what it must do.
struct Case {
    name: String,
    args: Vec<String>,
    out: Out,
    /// The exit code wanted.
    code: i32,
    /// Text stderr must contain.
    stderr_has: Vec<String>,
    /// Text stderr must not contain.
    stderr_lacks: Vec<String>,
    /// The longest stderr allowed, in bytes (echoes of huge input are excerpts).
    stderr_max: usize,
    /// Files the case may create, relative to its directory.
    creates: Vec<String>,
    /// Needs the device nodes and FIFO (root).
    needs_devices: bool,
    /// Needs a small tmpfs mounted at `small/` (root with mount rights).
    needs_small_fs: bool,
    /// Extra check on the case directory afterwards.
    check: Option<Check>,
    /// The most time the case may take (for the former quadratic cases).
    within: Option<Duration>,
}

impl Case {
    fn new(name: impl Into<String>, args: &[&str], code: i32) -> Case {
        Case {
            name: name.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
            out: Out::Pipe,
            code,
            stderr_has: Vec::new(),
            stderr_lacks: Vec::new(),
            stderr_max: 4096,
            creates: Vec::new(),
            needs_devices: false,
            needs_small_fs: false,
            check: None,
            within: None,
        }
    }

    fn owned(name: impl Into<String>, args: Vec<String>, code: i32) -> Case {
        let mut case = Case::new(name, &[], code);
        case.args = args;
        case
    }

    fn says(mut self, text: &str) -> Case {
        self.stderr_has.push(text.to_string());
        self
    }

    fn never_says(mut self, text: &str) -> Case {
        self.stderr_lacks.push(text.to_string());
        self
    }

    fn out(mut self, out: Out) -> Case {
        if out == Out::Full {
            self.needs_devices = true;
        }
        self.out = out;
        self
    }

    fn devices(mut self) -> Case {
        self.needs_devices = true;
        self
    }

    fn creates(mut self, file: &str) -> Case {
        self.creates.push(file.to_string());
        self
    }

    fn check(mut self, f: Check) -> Case {
        self.check = Some(f);
        self
    }

    fn stderr_max(mut self, bytes: usize) -> Case {
        self.stderr_max = bytes;
        self
    }

    fn within(mut self, limit: Duration) -> Case {
        self.within = Some(limit);
        self
    }
}

/// What every case directory holds before the case runs, made by [`prepare`].
struct Fixture {
    /// Whether `mknod` and `mkfifo` worked.
    devices: bool,
}

/// Fills a case directory: a small valid tree, device nodes and a FIFO, links, big and odd files.
fn prepare(dir: &Path, tree: &str, case: &Case) -> Fixture {
    std::fs::write(dir.join("tree.json"), tree).unwrap();
    if case.args.iter().any(|a| a == "huge-guess.json") {
        // A tree whose root guess is 10 MB long: its echo must be an excerpt.
        let huge = format!(
            r#"{{"rules":{{"length":2,"symbols":"123456","repeats":true}},"root":{{"guess":"{}","children":{{}}}}}}"#,
            "1".repeat(10_000_000)
        );
        std::fs::write(dir.join("huge-guess.json"), huge).unwrap();
    }
    // Sparse files past the caps (no disk blocks are used).
    std::fs::File::create(dir.join("big.json"))
        .unwrap()
        .set_len((64 << 20) + 1)
        .unwrap();
    std::fs::File::create(dir.join("big.txt"))
        .unwrap()
        .set_len((16 << 20) + 1)
        .unwrap();
    std::fs::write(dir.join("latin1.txt"), b"caf\xe9 au lait").unwrap();
    std::fs::write(dir.join("notes.txt"), NOTES).unwrap();
    if case.args.iter().any(|a| a.contains("deep.json")) {
        std::fs::write(dir.join("deep.json"), DEEP_TREE.get().expect("built first")).unwrap();
    }
    if case.args.iter().any(|a| a == "nested.json") {
        // Braces nested past any tree moo writes, in a file well within the size cap.
        let levels = 50_000;
        let text = r#"{"rules":{"length":1,"symbols":"ab","repeats":false},"root":"#.to_string()
            + &r#"{"guess":"a","children":{"0B0C":"#.repeat(levels)
            + r#"{"guess":"b"}"#
            + &"}}".repeat(levels)
            + "}";
        std::fs::write(dir.join("nested.json"), text).unwrap();
    }
    for (name, guess, root) in TAMPERED {
        if case.args.iter().any(|a| a == name) {
            let honest = CHECKPOINT.get().expect("the checkpoint is built first");
            std::fs::write(dir.join(name), tamper(honest, guess, *root)).unwrap();
        }
    }
    if case.args.iter().any(|a| a == "long-line.ckpt") {
        // A true header, then a line of 16 MiB and one byte that never ends.
        let honest = CHECKPOINT.get().expect("the checkpoint is built first");
        let header = honest.lines().next().unwrap();
        let text = format!("{header}\n") + &"7".repeat((16 << 20) + 1);
        std::fs::write(dir.join("long-line.ckpt"), text).unwrap();
    }
    std::fs::create_dir(dir.join("adir")).unwrap();
    let devices = case.needs_devices && make_devices(dir);
    Fixture { devices }
}

/// `full`, `null`, `zero` and `urandom` device nodes, `full.svg` and `full.png` (a full device
/// under a plot's name), a FIFO, and links to them, inside `dir`.
fn make_devices(dir: &Path) -> bool {
    let nodes = [
        ("full", "7"),
        ("null", "3"),
        ("zero", "5"),
        ("urandom", "9"),
        ("full.svg", "7"),
        ("full.png", "7"),
    ];
    for (name, minor) in nodes {
        let ok = Command::new("mknod")
            .args([name, "c", "1", minor])
            .current_dir(dir)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            return false;
        }
    }
    let fifo = Command::new("mkfifo")
        .arg("fifo")
        .current_dir(dir)
        .status()
        .is_ok_and(|s| s.success());
    std::os::unix::fs::symlink("null", dir.join("link-to-null")).unwrap();
    std::os::unix::fs::symlink("zero", dir.join("zero.json")).unwrap();
    std::os::unix::fs::symlink("urandom", dir.join("urandom.json")).unwrap();
    fifo
}

/// Every entry under `dir`: relative path -> kind.
fn listing(dir: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            let meta = std::fs::symlink_metadata(entry.path()).unwrap();
            let t = meta.file_type();
            let kind = if t.is_symlink() {
                "link"
            } else if t.is_dir() {
                stack.push(entry.path());
                "dir"
            } else if t.is_file() {
                "file"
            } else if t.is_char_device() {
                "char device"
            } else if t.is_fifo() {
                "fifo"
            } else {
                "other"
            };
            let rel = entry.path().strip_prefix(dir).unwrap().to_path_buf();
            out.insert(rel, kind.to_string());
        }
    }
    out
}

/// The result of one run.
struct Run {
    code: Option<i32>,
    stderr: String,
    elapsed: Duration,
}

/// Runs `moo` with the case's arguments in `dir`, under the address-space limit.
fn run(dir: &Path, case: &Case) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_moo"));
    cmd.args(&case.args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("TMPDIR", dir)
        .env("HOME", dir)
        .stdin(Stdio::null())
        .stderr(Stdio::piped());
    match case.out {
        Out::Pipe | Out::Closed => {
            cmd.stdout(Stdio::piped());
        }
        Out::Full => {
            let full = std::fs::OpenOptions::new()
                .write(true)
                .open(dir.join("full"))
                .unwrap();
            cmd.stdout(full);
        }
    }
    // SAFETY: setrlimit and umask are async-signal-safe and touch no memory of the parent.
    unsafe {
        cmd.pre_exec(|| {
            // A private umask: files moo creates must honour it (issue 30).
            nix::sys::stat::umask(nix::sys::stat::Mode::from_bits_truncate(0o077));
            nix::sys::resource::setrlimit(
                nix::sys::resource::Resource::RLIMIT_AS,
                ADDRESS_SPACE,
                ADDRESS_SPACE,
            )
            .map_err(std::io::Error::from)
        });
    }
    let start = Instant::now();
    let mut child = cmd.spawn().expect("moo starts");
    let stdout = child.stdout.take();
    if case.out == Out::Closed {
        drop(stdout);
    } else if let Some(mut stdout) = stdout {
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = stdout.read_to_end(&mut sink);
        });
    }
    let mut stderr = child.stderr.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut text = Vec::new();
        let _ = stderr.read_to_end(&mut text);
        String::from_utf8_lossy(&text).into_owned()
    });
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if start.elapsed() > CASE_TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    Run {
        code: status.and_then(|s| s.code()),
        stderr: reader.join().unwrap(),
        elapsed,
    }
}

/// What is wrong with a run's exit code, stderr and time, for `case`.
fn output_problems(case: &Case, run: &Run) -> Vec<String> {
    let mut problems = Vec::new();
    if run.stderr.contains("panicked at") {
        problems.push("panicked".to_string());
    }
    if run.code != Some(case.code) {
        problems.push(format!("exit {:?}, wanted {}", run.code, case.code));
    }
    for want in &case.stderr_has {
        if !run.stderr.contains(want.as_str()) {
            problems.push(format!("stderr lacks {want:?}"));
        }
    }
    for unwanted in &case.stderr_lacks {
        if run.stderr.contains(unwanted.as_str()) {
            problems.push(format!("stderr has {unwanted:?}"));
        }
    }
    if run.stderr.len() > case.stderr_max {
        problems.push(format!(
            "stderr is {} bytes, over {}",
            run.stderr.len(),
            case.stderr_max
        ));
    }
    if let Some(limit) = case.within {
        if run.elapsed > limit {
            problems.push(format!("took {:?}, over {limit:?}", run.elapsed));
        }
    }
    problems
}

/// The files a run removed, changed the kind of, or left behind that `case` does not create.
fn file_problems(
    case: &Case,
    before: &BTreeMap<PathBuf, String>,
    after: &BTreeMap<PathBuf, String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    for (path, kind) in before {
        match after.get(path) {
            None => problems.push(format!("{} was removed", path.display())),
            Some(k) if k != kind => {
                problems.push(format!("{} became a {k} (was a {kind})", path.display()))
            }
            _ => {}
        }
    }
    for path in after.keys().filter(|p| !before.contains_key(*p)) {
        if !case.creates.iter().any(|c| Path::new(c) == path) {
            problems.push(format!("{} was left behind", path.display()));
        }
    }
    problems
}

/// Runs one case in a fresh directory; `Err` says what went wrong.
fn try_case(root: &Path, index: usize, case: &Case, tree: &str) -> Result<(), String> {
    let dir = root.join(format!("case-{index:03}"));
    std::fs::create_dir(&dir).unwrap();
    let fixture = prepare(&dir, tree, case);
    if case.needs_devices && !fixture.devices {
        return Err("skip".into());
    }
    let _mount = if case.needs_small_fs {
        match SmallFs::mount(&dir.join("small")) {
            Some(m) => Some(m),
            None => return Err("skip".into()),
        }
    } else {
        None
    };
    let before = listing(&dir);
    // A reader for the FIFO, so a write to it can finish.
    let fifo_reader = (case.args.iter().any(|a| a == "fifo") && case.code == 0).then(|| {
        let path = dir.join("fifo");
        std::thread::spawn(move || {
            let mut text = String::new();
            std::fs::File::open(path)
                .unwrap()
                .read_to_string(&mut text)
                .unwrap();
            text
        })
    });
    let run = run(&dir, case);
    if let Some(reader) = fifo_reader {
        let text = reader.join().unwrap();
        if !text.starts_with("{\"rules\"") {
            return Err(format!(
                "the FIFO's reader got {:?}",
                &text[..text.len().min(40)]
            ));
        }
    }
    let mut problems = output_problems(case, &run);
    problems.extend(file_problems(case, &before, &listing(&dir)));
    if let Some(check) = case.check {
        if let Err(e) = check(&dir) {
            problems.push(e);
        }
    }
    drop(_mount);
    if problems.is_empty() {
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    } else {
        Err(format!(
            "{}\n    stderr: {}",
            problems.join("; "),
            moo_core::text::shorten(run.stderr.trim(), 300)
        ))
    }
}

/// A 64 KiB tmpfs mounted inside the case directory, unmounted when dropped.
struct SmallFs(PathBuf);

impl SmallFs {
    fn mount(path: &Path) -> Option<SmallFs> {
        std::fs::create_dir(path).ok()?;
        let ok = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=64k", "tmpfs"])
            .arg(path)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            let _ = std::fs::remove_dir(path);
            return None;
        }
        // Fill it up, so a plot's bytes cannot fit (the write stops at the end of the space).
        let _ = std::fs::write(path.join("filler"), vec![b'x'; 64 << 10]);
        Some(SmallFs(path.to_path_buf()))
    }
}

impl Drop for SmallFs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

fn is_char_device(path: &Path) -> Result<(), String> {
    let t = std::fs::symlink_metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .file_type();
    if t.is_char_device() {
        Ok(())
    } else {
        Err(format!("{} is no longer a device", path.display()))
    }
}

fn s(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// Every case of issue 12, by item number.
/// Every case of issue 12, by item number, then those of issue 30.
fn cases() -> Vec<Case> {
    let mut c = Vec::new();
    output_targets(&mut c);
    stdout_errors(&mut c);
    huge_counts(&mut c);
    unbounded_reads(&mut c);
    short_echoes(&mut c);
    parsing_symbols(&mut c);
    parsing_flags(&mut c);
    quadratic_work(&mut c);
    plots(&mut c);
    round_two(&mut c);
    c
}

/// A small benchmark: Knuth's strategy on Mastermind of 2 pegs.
const BENCH_SMALL: [&str; 7] = [
    "bench",
    "--game",
    "mastermind",
    "--length",
    "2",
    "-S",
    "knuth",
];

/// A small tree build (Mastermind of 2 pegs) with `extra` flags.
fn small_tree(extra: &[&str]) -> Vec<String> {
    let mut v = s(&["tree", "build", "--game", "mastermind", "--length", "2"]);
    v.extend(s(extra));
    v
}

/// The commands whose whole output goes to stdout, for item 2: each must report a full disk
/// and stay quiet on a closed pipe.
fn full_disk_commands() -> Vec<(&'static str, Vec<String>)> {
    let crack_small = ["crack", "--repeats", "--length", "40"];
    vec![
        ("hint", s(&["hint"])),
        ("hint --json", s(&["hint", "--json"])),
        ("hint --list 5040", s(&["hint", "--list", "5040"])),
        ("tree verify", s(&["tree", "verify", "tree.json"])),
        (
            "tree verify --json",
            s(&["tree", "verify", "--json", "tree.json"]),
        ),
        ("tree show", s(&["tree", "show", "tree.json"])),
        (
            "tree build --json",
            small_tree(&["--json", "-o", "out.json"]),
        ),
        ("tree build", small_tree(&["-o", "out.json"])),
        ("crack", s(&crack_small)),
        ("crack --json", {
            let mut v = s(&crack_small);
            v.push("--json".into());
            v
        }),
        ("crack --trials 2", {
            let mut v = s(&crack_small);
            v.extend(s(&["--trials", "2"]));
            v
        }),
        (
            "crack --table",
            s(&[
                "crack",
                "--table",
                "--lengths",
                "10",
                "--runs",
                "1",
                "--generations",
                "5",
            ]),
        ),
        (
            "crack --table --json",
            s(&[
                "crack",
                "--table",
                "--lengths",
                "10",
                "--runs",
                "1",
                "--generations",
                "5",
                "--json",
            ]),
        ),
        ("bench", s(&BENCH_SMALL)),
        ("bench --json", {
            let mut v = s(&BENCH_SMALL);
            v.push("--json".into());
            v
        }),
        ("bench --list", s(&["bench", "--list"])),
        (
            "solve --secret",
            s(&["solve", "--secret", "1234", "--game", "mastermind"]),
        ),
    ]
}

/// Counts past their range, for item 3: the command, and the range its refusal must give.
const HUGE_COUNTS: &[(&str, &[&str], &str)] = &[
    (
        "bench --runs 1e9",
        &[
            "bench",
            "--game",
            "mastermind",
            "-S",
            "random",
            "--runs",
            "1000000000",
        ],
        "1..=10000",
    ),
    (
        "crack ga --runs 1e12",
        &[
            "crack",
            "--repeats",
            "--method",
            "ga",
            "--length",
            "10",
            "--runs",
            "1000000000000",
        ],
        "1..=1000",
    ),
    (
        "crack --table --runs 1e12",
        &[
            "crack",
            "--table",
            "--lengths",
            "10",
            "--runs",
            "1000000000000",
        ],
        "1..=1000",
    ),
    (
        "bench --runs u64::MAX",
        &["bench", "-S", "random", "--runs", "18446744073709551615"],
        "1..=10000",
    ),
    (
        "crack --runs u64::MAX",
        &[
            "crack",
            "--repeats",
            "--method",
            "ga",
            "--runs",
            "18446744073709551615",
        ],
        "1..=1000",
    ),
    (
        "crack --generations 1e12",
        &[
            "crack",
            "--repeats",
            "--method",
            "ga",
            "--generations",
            "1000000000000",
        ],
        "1..=1000000",
    ),
    (
        "crack --trials 2^32",
        &["crack", "--repeats", "--trials", "4294967296"],
        "1..=10000",
    ),
    (
        "crack --table --lengths 0",
        &["crack", "--table", "--lengths", "10,0"],
        "1..=300",
    ),
    (
        "bench --max-guesses 0",
        &["bench", "-S", "random", "--max-guesses", "0"],
        "1..=",
    ),
    (
        "tree build --max-depth 0",
        &["tree", "build", "--max-depth", "0", "-o", "x.json"],
        "1..=1000",
    ),
    (
        "tree build --max-depth u32::MAX",
        &["tree", "build", "--max-depth", "4294967295", "-o", "x.json"],
        "1..=1000",
    ),
];

/// Issue 12, item 1. Output targets: devices and FIFOs are written to, never replaced.
fn output_targets(c: &mut Vec<Case>) {
    c.push(
        Case::owned(
            "1 tree build -o null (device)",
            small_tree(&["-o", "null"]),
            0,
        )
        .devices()
        .check(|d| is_char_device(&d.join("null"))),
    );
    c.push(
        Case::owned(
            "1 tree build -o full (device)",
            small_tree(&["-o", "full"]),
            1,
        )
        .devices()
        .says("No space left on device")
        .check(|d| is_char_device(&d.join("full"))),
    );
    c.push(
        Case::owned(
            "1 tree build -o link-to-null",
            small_tree(&["-o", "link-to-null"]),
            0,
        )
        .devices()
        .check(|d| {
            is_char_device(&d.join("null"))?;
            let t = std::fs::symlink_metadata(d.join("link-to-null")).unwrap();
            if t.file_type().is_symlink() {
                Ok(())
            } else {
                Err("the link was replaced".into())
            }
        }),
    );
    c.push(Case::owned("1 tree build -o fifo", small_tree(&["-o", "fifo"]), 0).devices());
    c.push(
        Case::owned(
            "1 tree build -o a new file",
            small_tree(&["-o", "new.json"]),
            0,
        )
        .creates("new.json"),
    );
    c.push(
        Case::owned(
            "1 tree build -o an existing file",
            small_tree(&["-o", "tree.json"]),
            0,
        )
        .check(|d| {
            let text = std::fs::read_to_string(d.join("tree.json")).unwrap();
            if text.starts_with("{\"rules\"") {
                Ok(())
            } else {
                Err("tree.json was not rewritten".into())
            }
        }),
    );
    c.push(
        Case::owned(
            "1 tree build -o a directory",
            small_tree(&["-o", "adir"]),
            1,
        )
        .says("is a directory"),
    );
    c.push(
        Case::owned(
            "1 tree build -o missing/dir/x.json",
            small_tree(&["-o", "missing/dir/x.json"]),
            1,
        )
        .says("cannot write missing/dir/x.json"),
    );
}

/// Issue 12, item 2. stdout: a full disk is an error (exit 1), a closed pipe a quiet success.
fn stdout_errors(c: &mut Vec<Case>) {
    for (name, args) in &full_disk_commands() {
        let creates_out = args.iter().any(|a| a == "out.json");
        let mut case = Case::owned(format!("2 {name} > full"), args.clone(), 1)
            .out(Out::Full)
            .says("No space left on device")
            .never_says("failed printing");
        if creates_out {
            case = case.creates("out.json");
        }
        c.push(case);
        let mut case = Case::owned(format!("2 {name} | closed pipe"), args.clone(), 0)
            .out(Out::Closed)
            .stderr_max(0);
        if creates_out {
            case = case.creates("out.json");
        }
        c.push(case);
    }
    c.push(
        Case::new(
            "2 crack --length 2000 --json | closed pipe",
            &["crack", "--repeats", "--length", "2000", "--json"],
            0,
        )
        .out(Out::Closed)
        .stderr_max(0),
    );
}

/// Issue 12, item 3. Huge counts are refused when parsed, with the range.
fn huge_counts(c: &mut Vec<Case>) {
    for &(name, args, range) in HUGE_COUNTS {
        c.push(Case::new(format!("3 {name}"), args, 2).says(range));
    }
    for threads in ["0", "10000", "100000", "4294967296", "18446744073709551616"] {
        c.push(
            Case::owned(
                format!("3 tree build --threads {threads}"),
                small_tree(&["--threads", threads, "-o", "x.json"]),
                2,
            )
            .says("--threads"),
        );
    }
    c.push(
        Case::owned(
            "3 tree build --threads 1",
            small_tree(&["--threads", "1", "-o", "x.json"]),
            0,
        )
        .creates("x.json"),
    );
}

/// Issue 12, item 4. Unbounded reads: devices, FIFOs and oversized files are refused.
fn unbounded_reads(c: &mut Vec<Case>) {
    for file in ["zero", "zero.json", "urandom.json", "fifo"] {
        for (what, args) in [
            ("tree verify", vec!["tree", "verify", file]),
            ("tree show", vec!["tree", "show", file]),
        ] {
            c.push(
                Case::new(format!("4 {what} {file}"), &args, 1)
                    .devices()
                    .says("not a regular file"),
            );
        }
        let strategy = format!("tree:{file}");
        c.push(
            Case::owned(
                format!("4 solve --strategy tree:{file}"),
                s(&["solve", "--secret", "0123", "--strategy", &strategy]),
                1,
            )
            .devices()
            .says("not a regular file"),
        );
        c.push(
            Case::owned(
                format!("4 bench -S tree:{file}"),
                s(&["bench", "-S", &strategy]),
                1,
            )
            .devices()
            .says("not a regular file"),
        );
        c.push(
            Case::new(
                format!("4 crack --secret-file {file}"),
                &["crack", "--repeats", "--secret-file", file],
                1,
            )
            .devices()
            .says("not a regular file"),
        );
    }
    c.push(
        Case::new("4 tree verify big.json", &["tree", "verify", "big.json"], 1)
            .says("larger than the limit of 67108864 bytes (64 MiB)"),
    );
    c.push(
        Case::new(
            "4 solve --strategy tree:big.json",
            &["solve", "--secret", "0123", "--strategy", "tree:big.json"],
            1,
        )
        .says("64 MiB"),
    );
    c.push(
        Case::new(
            "4 crack --secret-file big.txt",
            &["crack", "--repeats", "--secret-file", "big.txt"],
            1,
        )
        .says("larger than the limit of 16777216 bytes (16 MiB)"),
    );
    c.push(
        Case::new(
            "4 crack --secret-file latin1.txt",
            &["crack", "--repeats", "--secret-file", "latin1.txt"],
            1,
        )
        .says("not UTF-8"),
    );
    c.push(
        Case::new("4 tree verify adir", &["tree", "verify", "adir"], 1).says("not a regular file"),
    );
}

/// Issue 12, item 5. Echoes of huge input are short.
fn short_echoes(c: &mut Vec<Case>) {
    c.push(
        Case::new(
            "5 tree verify huge-guess.json",
            &["tree", "verify", "huge-guess.json"],
            1,
        )
        .says("(10000000 bytes)")
        .stderr_max(600),
    );
    c.push(
        Case::new(
            "5 tree show huge-guess.json",
            &["tree", "show", "huge-guess.json"],
            1,
        )
        .stderr_max(600),
    );
    let long = "1".repeat(100_000);
    c.push(
        Case::owned(
            "5 hint LONG=1B",
            vec!["hint".into(), format!("{long}=1B")],
            2,
        )
        .says("(100000 bytes)")
        .stderr_max(600),
    );
    c.push(
        Case::owned(
            "5 hint 0123=LONG",
            vec!["hint".into(), format!("0123={long}")],
            2,
        )
        .says("(100000 bytes)")
        .stderr_max(600),
    );
    c.push(Case::owned("5 hint LONG", vec!["hint".into(), long.clone()], 2).stderr_max(600));
    c.push(
        Case::owned(
            "5 solve --secret LONG",
            vec!["solve".into(), "--secret".into(), long.clone()],
            2,
        )
        .stderr_max(600),
    );
    c.push(
        Case::owned(
            "5 crack --secret LONG",
            vec![
                "crack".into(),
                "--repeats".into(),
                "--secret".into(),
                format!("{long}!"),
            ],
            2,
        )
        .stderr_max(600),
    );
    c.push(
        Case::owned(
            "5 crack --secret ?LONG",
            vec![
                "crack".into(),
                "--repeats".into(),
                "--length".into(),
                "300".into(),
                "--secret".into(),
                format!("!{}", "a".repeat(299)),
            ],
            2,
        )
        .stderr_max(600),
    );
}

/// Issue 12, item 6. Parsing: signs, invisible and combining symbols.
fn parsing_symbols(c: &mut Vec<Case>) {
    for feedback in ["-1B", "-1b2c", "1B-", "-1 2", "1 2-", ",1 2"] {
        c.push(
            Case::owned(
                format!("6 hint 0123={feedback}"),
                s(&["hint", &format!("0123={feedback}")]),
                2,
            )
            .says("cannot read"),
        );
    }
    for (name, ch) in [
        ("U+202E", '\u{202E}'),
        ("U+200F", '\u{200F}'),
        ("U+200B", '\u{200B}'),
        ("U+FEFF", '\u{FEFF}'),
        ("U+0301", '\u{0301}'),
        ("U+0000-like control", '\u{0007}'),
        ("U+E000 private use", '\u{E000}'),
        ("U+0378 unassigned", '\u{0378}'),
    ] {
        let symbols = format!("abc{ch}d");
        c.push(
            Case::owned(
                format!("6 hint --symbols with {name}"),
                s(&["hint", "--symbols", &symbols]),
                2,
            )
            .says("cannot be used"),
        );
        c.push(
            Case::owned(
                format!("6 crack --symbols with {name}"),
                s(&["crack", "--repeats", "--length", "3", "--symbols", &symbols]),
                2,
            )
            .says("cannot be used"),
        );
        c.push(
            Case::owned(
                format!("6 crack --secret with {name}"),
                s(&["crack", "--repeats", "--secret", &format!("ab{ch}c")]),
                2,
            )
            .says("not in the alphabet"),
        );
    }
    c.push(
        Case::new(
            "6 hint abe+U+0301 over abcde",
            &[
                "hint",
                "--symbols",
                "abcde",
                "--length",
                "3",
                "abe\u{0301}=1B",
            ],
            2,
        )
        .says("U+0301"),
    );
    c.push(
        Case::new(
            "6 hint --repeats --distinct",
            &["hint", "--repeats", "--distinct"],
            2,
        )
        .says("cannot be used with"),
    );
    c.push(
        Case::new(
            "6 crack --repeats --distinct",
            &["crack", "--repeats", "--distinct", "--length", "5"],
            2,
        )
        .says("cannot be used with"),
    );
}

/// Issue 12, item 6. Parsing: conflicting flags, missing parts, exit codes.
fn parsing_flags(c: &mut Vec<Case>) {
    c.push(Case::new("6 hint 0123 (no =)", &["hint", "0123"], 2));
    c.push(Case::new("6 hint =1B (no guess)", &["hint", "=1B"], 2));
    c.push(Case::new(
        "6 hint 0123= (no feedback)",
        &["hint", "0123="],
        2,
    ));
    c.push(Case::new(
        "6 hint 0123=5B (impossible)",
        &["hint", "0123=5B"],
        2,
    ));
    c.push(Case::new(
        "6 hint 0023=1B (repeat)",
        &["hint", "0023=1B"],
        2,
    ));
    c.push(Case::new(
        "6 solve --strategy nonsense",
        &["solve", "--secret", "0123", "--strategy", "nonsense"],
        2,
    ));
    c.push(Case::new(
        "6 bench -S nonsense",
        &["bench", "-S", "nonsense"],
        2,
    ));
    c.push(
        Case::new(
            "6 solve --strategy tree:missing",
            &["solve", "--secret", "0123", "--strategy", "tree:missing"],
            1,
        )
        .says("No such file"),
    );
    c.push(Case::new(
        "6 bench -S tree:missing",
        &["bench", "-S", "tree:missing"],
        1,
    ));
    c.push(
        Case::new("6 tree verify missing", &["tree", "verify", "missing"], 1).says("No such file"),
    );
    c.push(Case::new(
        "6 tree show missing",
        &["tree", "show", "missing"],
        1,
    ));
    c.push(Case::new(
        "6 hint --strategy tree:tree.json (other rules)",
        &["hint", "--strategy", "tree:tree.json"],
        1,
    ));
}

/// Issue 12, item 7. Quadratic work: long histories are bounded and repaired in one pass.
fn quadratic_work(c: &mut Vec<Case>) {
    let mut turns = vec!["hint".to_string()];
    turns.extend(std::iter::repeat_n("0123=0B0C".to_string(), 9_999));
    turns.push("4567=0B0C".to_string());
    c.push(
        Case::owned("7 hint with 10000 contradictory turns", turns.clone(), 1)
            .says("if the answer to guess 10000 (4567) was not 0B0C")
            .within(Duration::from_secs(30)),
    );
    turns.push("0123=0B0C".to_string());
    c.push(Case::owned("7 hint with 10001 turns", turns, 2).says("at most 10000"));
    c.push(
        Case::new(
            "7 crack --length 100000",
            &["crack", "--length", "100000"],
            2,
        )
        .says("1..=5000"),
    );
    c.push(
        Case::new(
            "7 crack --length 2001 (distinct)",
            &["crack", "--length", "2001"],
            2,
        )
        .says("practical limit of 2000"),
    );
    c.push(
        Case::owned(
            "7 crack --secret of 5001 symbols",
            s(&["crack", "--repeats", "--secret", &"a".repeat(5001)]),
            2,
        )
        .says("practical limit of 5000"),
    );
}

/// Issue 12, item 8. Plots: written whole or not at all, errors in words.
fn plots(c: &mut Vec<Case>) {
    for plot in ["full.svg", "full.png"] {
        c.push(
            Case::owned(
                format!("8 bench --plot {plot} (full device)"),
                {
                    let mut v = s(&BENCH_SMALL);
                    v.extend(s(&["--plot", plot]));
                    v
                },
                1,
            )
            .devices()
            .says("No space left on device")
            .never_says("ImageError")
            .never_says("IoError"),
        );
    }
    for plot in ["small/p.svg", "small/p.png"] {
        let mut case = Case::owned(
            format!("8 bench --plot {plot} (full disk)"),
            {
                let mut v = s(&BENCH_SMALL);
                v.extend(s(&["--plot", plot]));
                v
            },
            1,
        )
        .says("No space left on device")
        .never_says("ImageError");
        case.needs_small_fs = true;
        c.push(case);
    }
    for plot in ["p.svg", "p.png"] {
        c.push(
            Case::owned(
                format!("8 bench --plot {plot}"),
                {
                    let mut v = s(&BENCH_SMALL);
                    v.extend(s(&["--plot", plot]));
                    v
                },
                0,
            )
            .creates(plot),
        );
    }
}

/// `moo hint` on 10 digits with no leading zero, 1 s a move, listing 3, after `turns`.
fn long_hint(turns: Vec<String>) -> Vec<String> {
    let mut v = s(&[
        "hint",
        "--length",
        "10",
        "--no-leading-zero",
        "--time-limit",
        "1s",
        "--list",
        "3",
    ]);
    v.extend(turns);
    v
}

/// [`small_tree`] written to `x.json`, with `extra` flags.
fn small_build(extra: &[&str]) -> Vec<String> {
    let mut v = small_tree(&["-o", "x.json"]);
    v.extend(s(extra));
    v
}

/// Issue 30, by item number.
fn round_two(c: &mut Vec<Case>) {
    checkpoints(c);
    special_files(c);
    tampered_facts(c);
    long_checkpoint_line(c);
    bench_advisor_counts(c);
    lesser_items(c);
    deep_trees(c);
    table_refusals(c);
    long_hint_time_limit(c);
}

/// Issue 30, item 3. --checkpoint never overwrites a file that is not a checkpoint (a tree was
/// destroyed).
fn checkpoints(c: &mut Vec<Case>) {
    c.push(
        Case::owned(
            "30.3 --checkpoint onto a tree file",
            small_build(&["--checkpoint", "tree.json"]),
            1,
        )
        .says("tree.json is not a moo checkpoint")
        .check(tree_unchanged),
    );
    c.push(
        Case::owned(
            "30.3 --checkpoint onto a text file",
            small_build(&["--checkpoint", "notes.txt"]),
            1,
        )
        .says("notes.txt is not a moo checkpoint")
        .check(notes_unchanged),
    );
    c.push(
        Case::owned(
            "30.3 --checkpoint onto a Latin-1 file",
            small_build(&["--checkpoint", "latin1.txt"]),
            1,
        )
        .says("latin1.txt is not a moo checkpoint"),
    );
    c.push(
        Case::owned(
            "30.3 --checkpoint onto a 64 MiB file",
            small_build(&["--checkpoint", "big.json"]),
            1,
        )
        .says("big.json is not a moo checkpoint"),
    );
    c.push(
        Case::owned(
            "30.3 --checkpoint new file",
            small_build(&["--checkpoint", "new.ckpt"]),
            0,
        )
        .creates("new.ckpt")
        .creates("x.json")
        .check(x_json_is_private),
    );
}

/// Issue 30, item 4. Devices, FIFOs and directories are refused as checkpoints and progress logs.
fn special_files(c: &mut Vec<Case>) {
    for (name, what) in [
        ("zero", "not a regular file"),
        ("zero.json", "not a regular file"),
        ("fifo", "not a regular file"),
        ("adir", "not a regular file"),
    ] {
        c.push(
            Case::owned(
                format!("30.4 --checkpoint {name}"),
                small_build(&["--checkpoint", name]),
                1,
            )
            .devices()
            .says(what)
            .within(Duration::from_secs(20)),
        );
    }
    for (name, what) in [
        ("fifo", "not a regular file"),
        ("null", "not a regular file"),
        ("adir", "it is a directory"),
        ("nonexistent/x.log", "cannot write the progress log"),
    ] {
        c.push(
            Case::owned(
                format!("30.4 --progress-log {name}"),
                small_build(&["--progress-log", name]),
                1,
            )
            .devices()
            .says(what)
            .within(Duration::from_secs(20)),
        );
    }
    c.push(
        Case::owned(
            "30.4 --progress-log new file",
            small_build(&["--progress-log", "log.txt"]),
            0,
        )
        .creates("log.txt")
        .creates("x.json"),
    );
}

/// Issue 30, item 5. Tampered facts: an error naming the line or the falsehood, never a panic or a
/// worse tree.
fn tampered_facts(c: &mut Vec<Case>) {
    for (name, guess, root) in TAMPERED {
        let mut args = build_with_checkpoint(name);
        if *root {
            args.push("--json".into());
        }
        let case = Case::owned(format!("30.5 --checkpoint with guess {guess}"), args, 1);
        c.push(if *root {
            case.says("holds a false fact: the tree built from its facts costs 6318 in total, not the 5625 they claim")
        } else {
            case.says(&format!("{name}, line 2: guess {guess} is not a code of this game"))
        });
    }
}

/// A checkpoint is read a line at a time, with no cap on the file (a search of hours writes
/// gigabytes) but one on a line, which no fact comes near.
fn long_checkpoint_line(c: &mut Vec<Case>) {
    c.push(
        Case::owned(
            "30.5 --checkpoint with a line of 16 MiB",
            build_with_checkpoint("long-line.ckpt"),
            1,
        )
        .says("long-line.ckpt, line 2: the line is longer than 16777216 bytes"),
    );
}

/// `moo tree build` of Mastermind 4x6 into `x.json`, with the checkpoint `name`.
fn build_with_checkpoint(name: &str) -> Vec<String> {
    s(&[
        "tree",
        "build",
        "--game",
        "mastermind",
        "-o",
        "x.json",
        "--checkpoint",
        name,
    ])
}

/// Issue 30, item 8. bench advisor: counts checked when parsed, no endless draw.
fn bench_advisor_counts(c: &mut Vec<Case>) {
    c.push(
        Case::new(
            "30.8 bench advisor --positions 1000000000",
            &["bench", "advisor", "--positions", "1000000000"],
            2,
        )
        .says("1000000000 is not in 0..=100000")
        .within(Duration::from_secs(10)),
    );
    c.push(
        Case::new(
            "30.8 bench advisor --cross-checks 1000000000",
            &["bench", "advisor", "--cross-checks", "1000000000"],
            2,
        )
        .says("1000000000 is not in 0..=100000"),
    );
    c.push(
        Case::new(
            "30.8 bench advisor --positions 5 --length 1 --symbols a",
            &[
                "bench",
                "advisor",
                "--positions",
                "5",
                "--length",
                "1",
                "--symbols",
                "a",
            ],
            2,
        )
        .says("every game is won by its first guess")
        .within(Duration::from_secs(10)),
    );
}

/// Issue 30, item 9. Lesser items of the command line.
fn lesser_items(c: &mut Vec<Case>) {
    c.push(
        Case::new("30.9 moo --help > full", &["--help"], 1)
            .out(Out::Full)
            .says("No space left on device"),
    );
    c.push(
        Case::new("30.9 moo --version > full", &["--version"], 1)
            .out(Out::Full)
            .says("No space left on device"),
    );
    c.push(Case::new("30.9 moo --help | closed pipe", &["--help"], 0).out(Out::Closed));
    c.push(
        Case::new(
            "30.9 --table-memory 18446744073709551616",
            &["hint", "--table-memory", "18446744073709551616"],
            2,
        )
        .says("18446744073709551616 bytes is more than any machine has")
        .never_says("couldn't parse"),
    );
    c.push(
        Case::new(
            "30.9 regional indicator symbols",
            &["hint", "--length", "2", "--symbols", "🇫🇷🇩🇪"],
            2,
        )
        .says("regional indicator"),
    );
}

/// Issue 30, item 9. moo reads its own deep trees (serde_json's 128 levels refused them), and
/// refuses nesting past any tree it writes without overflowing its stack.
fn deep_trees(c: &mut Vec<Case>) {
    c.push(Case::new(
        "30.9 tree verify of a 64-guess-deep tree",
        &["tree", "verify", "deep.json"],
        0,
    ));
    c.push(Case::new(
        "30.9 tree show of a 64-guess-deep tree",
        &["tree", "show", "deep.json"],
        0,
    ));
    c.push(Case::new(
        "30.9 hint --strategy tree: of a 64-guess-deep tree",
        &[
            "hint",
            "--length",
            "1",
            "--symbols",
            SYMBOLS_64,
            "--strategy",
            "tree:deep.json",
        ],
        0,
    ));
    c.push(
        Case::new(
            "30.9 tree verify of braces nested 100000 deep",
            &["tree", "verify", "nested.json"],
            1,
        )
        .says("nests 100002 levels deep"),
    );
}

/// Issue 30, item 9. One table refusal, one exit code, and no advice to raise --table-memory where
/// the table cannot be built at any size.
fn table_refusals(c: &mut Vec<Case>) {
    for (name, args) in [
        (
            "tree build",
            vec!["tree", "build", "--length", "6", "-o", "x.json"],
        ),
        (
            "tree split",
            vec!["tree", "split", "--length", "6", "--out", "jobs"],
        ),
    ] {
        c.push(
            Case::new(format!("30.9 {name} --length 6"), &args, 2)
                .says("the score table, which is built for at most 65536 codes")
                .never_says("--table-memory"),
        );
    }
}

/// Issue 30, item 7. The time limit holds at the 10000-turn cap, contradictions included (74 s and
/// 418 s).
fn long_hint_time_limit(c: &mut Vec<Case>) {
    c.push(
        Case::owned(
            "30.7 hint: 10000 turns of 10 digits, --time-limit 1s",
            long_hint(long_history(10_000, false)),
            0,
        )
        .within(Duration::from_secs(2)),
    );
    c.push(
        Case::owned(
            "30.7 hint: 10000 turns of 10 digits, the last contradicting, --time-limit 1s",
            long_hint(long_history(9_999, true)),
            1,
        )
        .says("no code fits all the answers")
        .within(Duration::from_secs(2)),
    );
}

/// Ten-digit turns for `moo hint`: `times` copies of one guess with its true answer to a secret,
/// and, if `contradict`, a last copy with another answer.
fn long_history(times: usize, contradict: bool) -> Vec<String> {
    let rules = moo_core::Rules::new(10, "0123456789", false, true).unwrap();
    let guess = rules.parse_code("1023456789").unwrap();
    let secret = rules.parse_code("9876543210").unwrap();
    let f = guess.score(&secret);
    let mut turns = vec![format!("1023456789={}B{}C", f.bulls, f.cows); times];
    if contradict {
        turns.push(format!("1023456789={}B{}C", f.bulls + 1, f.cows - 1));
    }
    turns
}

/// A text file of the user's that no command may replace.
const NOTES: &str = "my notes\n";

/// 64 symbols: a tree of codes of length 1 over them is 64 guesses deep.
const SYMBOLS_64: &str = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/";

/// The tree `moo tree build --length 1 --symbols SYMBOLS_64` writes, built once per run.
static DEEP_TREE: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// A Mastermind checkpoint as `moo tree build --checkpoint` writes it, built once per run.
static CHECKPOINT: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Checkpoints with one fact's guess edited and its checksum recomputed (issue 30 item 5): the
/// file name, the guess, and whether the fact edited is that of the whole game (else the first).
const TAMPERED: &[(&str, &str, bool)] = &[
    ("guess-1296.ckpt", "1296", false),
    ("guess-60000.ckpt", "60000", false),
    ("guess-4000000000.ckpt", "4000000000", false),
    ("guess-0.ckpt", "0", true),
];

/// `honest` with the guess of one fact replaced, as someone who knows the format would.
fn tamper(honest: &str, guess: &str, root: bool) -> String {
    let fnv = |text: &str| {
        text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    let members = |line: &str| line.split(' ').nth(6).map_or(0, |m| m.split(',').count());
    let mut lines: Vec<String> = honest.lines().map(String::from).collect();
    let target = if root {
        (1..lines.len())
            .find(|&i| members(&lines[i]) == 1296)
            .expect("the whole game's fact is written")
    } else {
        1
    };
    let mut fields: Vec<&str> = lines[target].split(' ').collect();
    fields.pop();
    fields[5] = guess;
    let body = fields.join(" ");
    lines[target] = format!("{body} {:016x}", fnv(&body));
    lines.join("\n") + "\n"
}

fn notes_unchanged(dir: &Path) -> Result<(), String> {
    match std::fs::read_to_string(dir.join("notes.txt")) {
        Ok(text) if text == NOTES => Ok(()),
        other => Err(format!("notes.txt was changed: {other:?}")),
    }
}

fn tree_unchanged(dir: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(dir.join("tree.json")).map_err(|e| e.to_string())?;
    if text.starts_with("{\"rules\"") && text.len() > 1000 {
        Ok(())
    } else {
        Err(format!(
            "tree.json became {:?}",
            &text[..text.len().min(60)]
        ))
    }
}

/// The tree file written under the private umask is private.
fn x_json_is_private(dir: &Path) -> Result<(), String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(dir.join("x.json"))
        .map_err(|e| e.to_string())?
        .permissions()
        .mode();
    if mode & 0o077 == 0 {
        Ok(())
    } else {
        Err(format!(
            "x.json has mode {:o} under umask 077",
            mode & 0o777
        ))
    }
}

/// Held by the tests that load the machine or time answers, so they do not run at once: the
/// timings of one would measure the load of the other.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Every hostile CLI case, one after another; prints the count.
/// Builds the trees the cases read, in `dir`: a small valid tree (returned), a checkpoint
/// ([`CHECKPOINT`]) and a deep tree ([`DEEP_TREE`]); each is built once, for every case.
fn build_fixtures(dir: &Path) -> String {
    let tree_path = dir.join("fixture.json");
    let built = Command::new(env!("CARGO_BIN_EXE_moo"))
        .args([
            "tree",
            "build",
            "--game",
            "mastermind",
            "--length",
            "2",
            "-o",
        ])
        .arg(&tree_path)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(built.success());
    let tree = std::fs::read_to_string(&tree_path).unwrap();
    std::fs::remove_file(&tree_path).unwrap();
    let checkpoint_path = dir.join("fixture.ckpt");
    let built = Command::new(env!("CARGO_BIN_EXE_moo"))
        .args(["tree", "build", "--game", "mastermind", "-o"])
        .arg(&tree_path)
        .arg("--checkpoint")
        .arg(&checkpoint_path)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(built.success());
    CHECKPOINT
        .set(std::fs::read_to_string(&checkpoint_path).unwrap())
        .unwrap();
    let built = Command::new(env!("CARGO_BIN_EXE_moo"))
        .args([
            "tree",
            "build",
            "--length",
            "1",
            "--symbols",
            SYMBOLS_64,
            "-o",
        ])
        .arg(&tree_path)
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(built.success());
    DEEP_TREE
        .set(std::fs::read_to_string(&tree_path).unwrap())
        .unwrap();
    std::fs::remove_file(&tree_path).unwrap();
    std::fs::remove_file(&checkpoint_path).unwrap();
    tree
}

#[test]
fn hostile_cli_input_and_output() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let root = tempfile::tempdir().unwrap();
    let outside_before = outside_snapshot();
    // Device nodes need root; make_devices reports whether mknod worked.
    let devices = true;
    let tree = build_fixtures(root.path());

    let cases = cases();
    let (mut tried, mut passed, mut skipped) = (0, 0, 0);
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if case.needs_devices && !devices {
            skipped += 1;
            continue;
        }
        match try_case(root.path(), i, case, &tree) {
            Err(e) if e == "skip" => skipped += 1,
            Ok(()) => {
                tried += 1;
                passed += 1;
            }
            Err(e) => {
                tried += 1;
                failures.push(format!("  {}: {e}", case.name));
            }
        }
    }
    let peak = peak_child_resident_kb();
    println!("hostile: {tried} cases tried, {passed} passed, {skipped} skipped (no root or no tmpfs); peak child resident memory {} MB", peak / 1024);
    assert!(
        failures.is_empty(),
        "hostile cases failed:\n{}",
        failures.join("\n")
    );
    assert!(peak < MAX_RESIDENT_KB, "a child reached {peak} KB resident");
    assert_eq!(
        outside_before,
        outside_snapshot(),
        "something outside the temporary directory changed"
    );
    // The temporary directory holds nothing but the case directories of failed cases.
    let left: Vec<_> = std::fs::read_dir(root.path()).unwrap().collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// The peak resident memory of any child this test process has waited for, in KB.
fn peak_child_resident_kb() -> i64 {
    let usage = nix::sys::resource::getrusage(nix::sys::resource::UsageWho::RUSAGE_CHILDREN)
        .expect("getrusage works");
    usage.max_rss()
}

/// What the suite could touch by mistake outside its directory: the repository's files (the
/// working directory of `cargo test`) and the real device nodes it imitates.
fn outside_snapshot() -> Vec<(PathBuf, String, Option<std::time::SystemTime>)> {
    let mut out = Vec::new();
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in [repo.to_path_buf(), repo.join("tests"), repo.join("src")] {
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if entry.file_name() == "target" {
                continue;
            }
            let meta = entry.metadata().unwrap();
            let modified = if meta.is_file() {
                meta.modified().ok()
            } else {
                None
            };
            out.push((entry.path(), format!("{:?}", meta.file_type()), modified));
        }
    }
    for dev in ["/dev/null", "/dev/full", "/dev/zero"] {
        let kind = std::fs::symlink_metadata(dev)
            .map(|m| format!("char device: {}", m.file_type().is_char_device()))
            .unwrap_or_default();
        out.push((PathBuf::from(dev), kind, None));
    }
    out.sort();
    out
}

// ---- the server --------------------------------------------------------------------------

/// One HTTP/1.1 request on a fresh connection: (status, body).
async fn http(addr: std::net::SocketAddr, method: &str, path: &str, body: &str) -> (u16, String) {
    let stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    exchange(stream, method, path, body).await
}

/// Sends one request on `stream` and reads the whole answer: (status, body).
async fn exchange(
    mut stream: tokio::net::TcpStream,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await.unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_string();
    (status, body)
}

/// How long until the server closes a connection that sends `prefix` and then drips one byte
/// of `drip` every 100 ms (or nothing, if `drip` is empty), giving up after `limit`.
async fn time_to_close(
    addr: std::net::SocketAddr,
    prefix: &'static str,
    drip: &'static str,
    limit: Duration,
) -> Duration {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let start = Instant::now();
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(prefix.as_bytes()).await.unwrap();
    let (mut reader, mut writer) = stream.into_split();
    let dripper = tokio::spawn(async move {
        for b in drip
            .bytes()
            .cycle()
            .take(if drip.is_empty() { 0 } else { 10_000 })
        {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if writer.write_all(&[b]).await.is_err() {
                break;
            }
        }
        // Keep the writing half open; the server must close the connection itself.
        tokio::time::sleep(Duration::from_secs(3600)).await;
        drop(writer);
    });
    let mut buf = [0u8; 1024];
    let closed = tokio::time::timeout(limit, async {
        loop {
            match reader.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {}
            }
        }
    })
    .await;
    dripper.abort();
    assert!(
        closed.is_ok(),
        "the server kept a slow connection open past {limit:?}"
    );
    start.elapsed()
}

/// Slow clients are cut off by the timeouts while a normal game starts and is played at once;
/// a full connection table makes new clients wait, not fail; a full game store says when to
/// come back and makes room from idle games.
/// Starts a game with a seed, so the secret is known, and plays it to the win; returns the time.
async fn play_seeded_game(addr: std::net::SocketAddr) -> Duration {
    let start = Instant::now();
    let (status, created) = http(
        addr,
        "POST",
        "/api/games",
        r#"{"seed": 12, "preset": "bulls"}"#,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let game: serde_json::Value = serde_json::from_str(&created).unwrap();
    let id = game["id"].as_str().unwrap().to_string();
    let rules = moo_core::Rules::bulls();
    let secret = rules.format_code(
        &rules.random_code(&mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(12)),
    );
    let first = if secret == "0123" { "4567" } else { "0123" };
    for guess in [first, secret.as_str()] {
        let (status, answer) = http(
            addr,
            "POST",
            &format!("/api/games/{id}/guesses"),
            &format!(r#"{{"guess": "{guess}"}}"#),
        )
        .await;
        assert_eq!(status, 200, "{answer}");
        if guess == secret {
            let state: serde_json::Value = serde_json::from_str(&answer).unwrap();
            assert_eq!(state["won"], true, "{answer}");
        }
    }
    start.elapsed()
}

/// A full store: the 503 says when a place frees, and an idle game then makes room.
async fn full_store_frees_a_place(addr: std::net::SocketAddr) {
    for _ in 0..20 {
        assert_eq!(http(addr, "POST", "/api/games", "{}").await.0, 201);
    }
    let (status, full) = http(addr, "POST", "/api/games", "{}").await;
    assert_eq!(status, 503, "{full}");
    assert!(full.contains("try again in"), "{full}");
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(http(addr, "POST", "/api/games", "{}").await.0, 201);
}

/// A full connection table of idle connections: the one idle longest gives way, so a new
/// client is answered at once instead of waiting for a slot.
async fn full_connection_table_makes_room(addr: std::net::SocketAddr) {
    let mut hogs = Vec::new();
    for _ in 0..16 {
        hogs.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let start = Instant::now();
    let (status, _) = http(addr, "GET", "/api/presets", "").await;
    let waited = start.elapsed();
    println!(
        "server: with 16 of 16 connections held idle, a new request was answered after {:.2} s",
        waited.as_secs_f64()
    );
    assert_eq!(status, 200);
    assert!(
        waited < Duration::from_secs(1),
        "the new client waited {waited:?}"
    );
    drop(hogs);
}

#[test]
fn slow_clients_are_cut_off_and_normal_games_go_on() {
    let runtime = runtime();
    runtime.block_on(async {
        let timeout = Duration::from_secs(1);
        let mut config = moo_web::Config::default();
        config.header_timeout = timeout;
        config.body_timeout = timeout;
        config.request_timeout = Duration::from_secs(5);
        config.max_connections = 16;
        config.service.max_games = 20;
        config.service.evict_idle = Duration::from_secs(1);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(moo_web::serve(listener, config));
        // Generous: the close must come after the timeout and well before the old 50 s.
        let limit = timeout + Duration::from_secs(9);

        // Five slow-drip connections: headers one byte every 100 ms, never finished.
        let mut slow = Vec::new();
        for _ in 0..5 {
            slow.push(tokio::spawn(time_to_close(
                addr,
                "POST /api/games HTTP/1.1\r\n",
                "X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
                limit,
            )));
        }
        // A body declared as 1000 bytes of which one is sent; an idle connection.
        let body = tokio::spawn(time_to_close(
            addr,
            "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{",
            "",
            limit,
        ));
        let idle = tokio::spawn(time_to_close(addr, "", "", limit));

        // Meanwhile a normal game: start it with a seed, so the secret is known, and play it.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let played = play_seeded_game(addr).await;

        let mut closes = Vec::new();
        for handle in slow {
            closes.push(handle.await.unwrap());
        }
        let body_close = body.await.unwrap();
        let idle_close = idle.await.unwrap();
        println!(
            "server: a game started and played in {:.1} ms while 5 slow-drip connections were open; \
             they were closed after {} s, a half-sent body after {:.2} s, an idle connection after {:.2} s \
             (timeouts {:.0} s)",
            played.as_secs_f64() * 1000.0,
            closes.iter().map(|d| format!("{:.2}", d.as_secs_f64())).collect::<Vec<_>>().join(", "),
            body_close.as_secs_f64(),
            idle_close.as_secs_f64(),
            timeout.as_secs_f64(),
        );
        // The issue asks for under 100 ms; on a loaded 2-core machine allow far more.
        assert!(played < Duration::from_secs(3), "the game took {played:?}");
        for close in closes.iter().chain([&body_close, &idle_close]) {
            assert!(*close >= timeout.mul_f64(0.8), "closed too early: {close:?}");
        }

        full_store_frees_a_place(addr).await;

        full_connection_table_makes_room(addr).await;
        server.abort();
    });
}

/// Issue 51 item 4: connections that each send a body byte every 400 ms (never pausing long
/// enough to time out) and outnumber the connection table cannot make a normal client wait:
/// the connection idle longest gives way to it; and each of them is closed once its body has
/// taken longer than the whole-body deadline.
#[test]
fn slow_bodies_cannot_hold_the_connection_table() {
    use tokio::io::AsyncWriteExt;
    let runtime = runtime();
    runtime.block_on(async {
        let mut config = moo_web::Config::default();
        config.max_connections = 16;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(moo_web::serve(listener, config));
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let drippers: Vec<_> = (0..20)
            .map(|_| {
                let stop = stop.clone();
                tokio::spawn(async move {
                    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
                    let head = "POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n";
                    if stream.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                        if stream.write_all(b" ").await.is_err() {
                            return;
                        }
                        tokio::time::sleep(Duration::from_millis(400)).await;
                    }
                })
            })
            .collect();
        tokio::time::sleep(Duration::from_millis(500)).await;
        let mut slowest = Duration::ZERO;
        for _ in 0..5 {
            let start = Instant::now();
            let answer =
                tokio::time::timeout(Duration::from_secs(5), http(addr, "GET", "/api/presets", "")).await;
            let took = start.elapsed();
            assert_eq!(answer.map(|a| a.0), Ok(200), "no answer after {took:?}");
            slowest = slowest.max(took);
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        println!(
            "server: 20 connections dripping bodies into a table of 16, a normal request answered within {:.3} s",
            slowest.as_secs_f64()
        );
        assert!(slowest < Duration::from_secs(1), "{slowest:?}");
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        for d in drippers {
            d.await.unwrap();
        }
        server.abort();
    });
}

/// Issue 51 item 4: on a loopback server every client has the address 127.0.0.1, so the
/// address cannot tell the browser's player from a script. A script creating 1100 games (more
/// than the store's 1000) cannot evict the game the player is in the middle of: once the store
/// holds only games nobody may take yet, the script is refused with 503.
#[test]
fn a_local_script_cannot_evict_a_game_in_play() {
    let runtime = runtime();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(moo_web::serve(listener, moo_web::Config::default()));
        let (status, created) =
            http(addr, "POST", "/api/games", r#"{"seed": 12, "preset": "bulls"}"#).await;
        assert_eq!(status, 201, "{created}");
        let game: serde_json::Value = serde_json::from_str(&created).unwrap();
        let path = format!("/api/games/{}", game["id"].as_str().unwrap());
        let rules = moo_core::Rules::bulls();
        let secret = rules.format_code(&rules.random_code(
            &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(12),
        ));
        let [first, second] = ["0123", "4567", "8901"]
            .into_iter()
            .filter(|g| *g != secret)
            .take(2)
            .collect::<Vec<_>>()[..]
        else {
            unreachable!()
        };
        let guess = |g: &str| format!(r#"{{"guess": "{g}"}}"#);
        let (status, answer) = http(addr, "POST", &format!("{path}/guesses"), &guess(first)).await;
        assert_eq!(status, 200, "{answer}");
        let (mut made, mut refused) = (0, 0);
        for _ in 0..1100 {
            let (status, answer) = http(addr, "POST", "/api/games", "{}").await;
            match status {
                201 => made += 1,
                503 => {
                    assert!(answer.contains(r#""code":"busy""#), "{answer}");
                    refused += 1;
                }
                _ => panic!("{status} {answer}"),
            }
        }
        println!("server: a local script made {made} games and was refused {refused}; the game in play lives on");
        let (status, answer) = http(addr, "GET", &path, "").await;
        assert_eq!(status, 200, "the game in play was evicted: {answer}");
        let (status, answer) = http(addr, "POST", &format!("{path}/guesses"), &guess(second)).await;
        assert_eq!(status, 200, "{answer}");
        server.abort();
    });
}

/// One HTTP/1.1 request on a fresh connection from the loopback address `from` (so the server
/// sees a client of its own): (status, body).
async fn http_from(
    from: [u8; 4],
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: &str,
) -> (u16, String) {
    exchange(connect_from(from, addr).await, method, path, body).await
}

async fn connect_from(from: [u8; 4], addr: std::net::SocketAddr) -> tokio::net::TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket
        .bind(std::net::SocketAddr::from((from, 0)))
        .expect("any 127.x.y.z address is the loopback on Linux");
    socket.connect(addr).await.unwrap()
}

/// Sends a request from `from` and hangs up after `after`, as a client that gives up does.
async fn hang_up_after(
    from: [u8; 4],
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: &str,
    after: Duration,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = connect_from(from, addr).await;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut sink = Vec::new();
    let _ = tokio::time::timeout(after, stream.read_to_end(&mut sink)).await;
}

/// The `n`th arrangement of the ten digits in lexicographic order: the first few thousand
/// differ only in their last digits.
fn nth_permutation(mut n: usize) -> String {
    let mut digits: Vec<char> = "0123456789".chars().collect();
    let mut out = String::new();
    for k in (0..10).rev() {
        let f: usize = (1..=k).product();
        out.push(digits.remove(n / f));
        n %= f;
    }
    out
}

/// Issue 30 item 1: a benchmark of 10 binary digits with repeats, naming `optimal` as often as
/// the 16 KiB body limit allows.
fn optimal_bench_body(limit: usize) -> String {
    let head = r#"{"rules":{"length":10,"symbols":"01","repeats":true},"strategies":["#;
    let mut body = head.to_string();
    let mut first = true;
    while body.len() + r#","optimal"]}"#.len() < limit {
        if !first {
            body.push(',');
        }
        body.push_str(r#""optimal""#);
        first = false;
    }
    body.push_str("]}");
    body
}

/// Issue 30 items 1, 2 and 6: while two clients post the benchmark that used to hold both
/// workers for 80 s and two more hold the longest histories the server allows, a third
/// client's Mastermind solver step and Bulls and Cows hint each answer within 1 s, 20 times in
/// a row; and both benchmark workers are free within a second of their clients hanging up.
/// The benchmark clients hang up after half a second: both workers must be free again within a
/// second (they were busy 10 s more before), which two small benchmarks from two other clients,
/// started at the hang-up, show by being answered at once.
async fn workers_free_when_clients_hang_up(addr: std::net::SocketAddr, bench: &str) {
    let hang = [[127, 0, 0, 2], [127, 0, 0, 3]].map(|from| {
        let bench = bench.to_string();
        tokio::spawn(async move {
            hang_up_after(
                from,
                addr,
                "POST",
                "/api/bench",
                &bench,
                Duration::from_millis(500),
            )
            .await
        })
    });
    for h in hang {
        h.await.unwrap();
    }
    let hung_up = Instant::now();
    let small = r#"{"rules":{"length":2,"symbols":"012","repeats":true},"strategies":["simple"]}"#;
    let probes = [[127, 0, 0, 20], [127, 0, 0, 21]].map(|from| {
        tokio::spawn(async move { http_from(from, addr, "POST", "/api/bench", small).await })
    });
    for p in probes {
        let (status, answer) = p.await.unwrap();
        assert_eq!(status, 200, "{answer}");
    }
    let freed = hung_up.elapsed();
    println!(
        "server: both benchmark workers answered other clients {:.2} s after their clients hung up",
        freed.as_secs_f64()
    );
    assert!(
        freed < Duration::from_millis(1500),
        "the workers were busy {freed:?} after the hang-up"
    );
}

/// Two clients' 10-digit games, each played to the turn cap with guesses that differ only in
/// their last digits: the guess past the cap is refused, and every answer stays small.
async fn games_at_the_turn_cap(
    addr: std::net::SocketAddr,
    max_turns: usize,
) -> Vec<([u8; 4], String)> {
    let ten = r#"{"rules":{"length":10,"symbols":"0123456789","repeats":false}}"#;
    let mut ids = Vec::new();
    for from in [[127, 0, 0, 4], [127, 0, 0, 5]] {
        let (status, created) = http_from(from, addr, "POST", "/api/games", ten).await;
        assert_eq!(status, 201, "{created}");
        let game: serde_json::Value = serde_json::from_str(&created).unwrap();
        ids.push((from, game["id"].as_str().unwrap().to_string()));
    }
    for (from, id) in &ids {
        let path = format!("/api/games/{id}/guesses");
        let mut refused = None;
        for turn in 1..=20_000 {
            let guess = format!(r#"{{"guess":"{}"}}"#, nth_permutation(turn));
            let (status, answer) = http_from(*from, addr, "POST", &path, &guess).await;
            if status != 200 {
                assert_eq!(status, 409, "{answer}");
                assert!(
                    answer.contains(&format!("limit of {max_turns} turns")),
                    "{answer}"
                );
                refused = Some(turn);
                break;
            }
            // Every answer lists the turns, so the cap bounds its size too.
            assert!(
                answer.len() < 100 * max_turns + 1000,
                "{} bytes at turn {turn}",
                answer.len()
            );
        }
        assert_eq!(refused, Some(max_turns + 1));
    }
    ids
}

/// The third client plays on under the load: each answer within 1 s, 20 times in a row.
async fn third_client_plays_on(addr: std::net::SocketAddr, me: [u8; 4]) {
    let (status, created) = http_from(
        me,
        addr,
        "POST",
        "/api/games",
        r#"{"preset":"bulls","seed":3}"#,
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let game: serde_json::Value = serde_json::from_str(&created).unwrap();
    let hint = format!("/api/games/{}/hint", game["id"].as_str().unwrap());
    let mut slowest = Duration::ZERO;
    for i in 0..20 {
        let step = format!(
            r#"{{"preset":"mastermind","history":[{{"guess":"1122","feedback":"{}B0C"}}]}}"#,
            i % 2
        );
        for (method, path, body) in [
            ("POST", "/api/solver", step.as_str()),
            ("GET", hint.as_str(), ""),
        ] {
            let start = Instant::now();
            let (status, answer) = http_from(me, addr, method, path, body).await;
            let took = start.elapsed();
            slowest = slowest.max(took);
            assert_eq!(status, 200, "{method} {path} #{i}: {answer}");
            assert!(answer.contains("\"advice\""), "{answer}");
            assert!(
                took < Duration::from_secs(1),
                "{method} {path} #{i} took {took:?}"
            );
        }
    }
    println!(
        "server: 20 solver steps and 20 hints under load, the slowest in {:.3} s",
        slowest.as_secs_f64()
    );
}

#[test]
fn advice_answers_while_benchmarks_and_long_histories_load_the_server() {
    let _serial = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    let runtime = runtime();
    runtime.block_on(async {
        let config = moo_web::Config::default();
        let (body_limit, max_turns) = (config.service.body_limit, config.service.max_turns);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(moo_web::serve(listener, config));
        let bench = optimal_bench_body(body_limit);
        assert!(bench.len() <= body_limit && bench.len() > body_limit - 20);

        workers_free_when_clients_hang_up(addr, &bench).await;

        // The third client has been playing: its first solver steps are done (a Mastermind
        // step searches the game once, which the load below would only slow down; waiting
        // behind others is what is measured).
        let me = [127, 0, 0, 6];
        for feedback in ["0B0C", "1B0C"] {
            let step = format!(r#"{{"preset":"mastermind","history":[{{"guess":"1122","feedback":"{feedback}"}}]}}"#);
            assert_eq!(http_from(me, addr, "POST", "/api/solver", &step).await.0, 200);
        }

        // The load: two benchmark clients post the benchmark again and again...
        let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut load = Vec::new();
        for from in [[127, 0, 0, 2], [127, 0, 0, 3]] {
            let (bench, done) = (bench.clone(), done.clone());
            load.push(tokio::spawn(async move {
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    let (status, answer) = http_from(from, addr, "POST", "/api/bench", &bench).await;
                    assert!(status == 200 || status == 503, "{status} {answer}");
                }
            }));
        }
        // ...and two clients play guesses that differ only in their last digits in a 10-digit
        // game as often as the server allows (20000 times, if it let them), then ask for hints
        // without end, hanging up on every other one.
        let ids = games_at_the_turn_cap(addr, max_turns).await;
        for (from, id) in ids {
            let done = done.clone();
            load.push(tokio::spawn(async move {
                let path = format!("/api/games/{id}/hint");
                let mut n = 0;
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    n += 1;
                    if n % 2 == 0 {
                        hang_up_after(from, addr, "GET", &path, "", Duration::from_millis(300)).await;
                    } else {
                        let (status, answer) = http_from(from, addr, "GET", &path, "").await;
                        assert!(status == 200 || status == 503, "{status} {answer}");
                    }
                }
            }));
        }
        tokio::time::sleep(Duration::from_secs(1)).await;

        third_client_plays_on(addr, me).await;
        done.store(true, std::sync::atomic::Ordering::Relaxed);
        for task in load {
            // A request in flight ends within its own limits.
            tokio::time::timeout(Duration::from_secs(60), task).await.unwrap().unwrap();
        }
        server.abort();
    });
}

/// Sends `request` as it is on a fresh connection and reads the answer until the server closes
/// it or `limit` passes: (status, the whole answer).
async fn raw(addr: std::net::SocketAddr, request: &str, limit: Duration) -> (u16, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let _ = tokio::time::timeout(limit, stream.read_to_end(&mut response)).await;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// The body of an answer, parsed as the JSON error every error answer must be.
fn json_error(answer: &str) -> String {
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    let value: serde_json::Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not a JSON body ({e}): {answer:?}"));
    value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no \"error\" in {answer:?}"))
        .to_string()
}

/// Issue 30 item 9, the server's part: a Host allow-list, JSON for every error the server
/// shapes, no long id echoed whole, an early 413 for a body declared too large.
#[test]
fn the_server_answers_only_its_own_names_and_always_in_json() {
    let runtime = runtime();
    runtime.block_on(async {
        let mut config = moo_web::Config::default();
        config.allowed_hosts = vec!["moo.example".into()];
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(moo_web::serve(listener, config));
        let limit = Duration::from_secs(5);
        let request = |method: &str, path: &str, host: &str, extra: &str| {
            format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Type: application/json\r\n{extra}Content-Length: 2\r\n\r\n{{}}")
        };
        // DNS rebinding: the attacker's name is refused, ours and the allowed ones are not.
        let (status, answer) = raw(addr, &request("POST", "/api/games", "attacker.example", ""), limit).await;
        assert_eq!(status, 421, "{answer}");
        assert!(json_error(&answer).contains("--allow-host"), "{answer}");
        for host in ["localhost:8080", "127.0.0.1", &addr.to_string(), "moo.example:80"] {
            let (status, answer) = raw(addr, &request("POST", "/api/games", host, ""), limit).await;
            assert_eq!(status, 201, "{host}: {answer}");
        }
        // Errors of the framework, as JSON.
        for (method, path, want) in [
            ("GET", "/api/games/%ff", 400),
            ("POST", "/", 405),
            ("TRACE", "/", 405),
            ("DELETE", "/api/solver", 405),
        ] {
            let (status, answer) = raw(addr, &request(method, path, "localhost", ""), limit).await;
            assert_eq!(status, want, "{method} {path}: {answer}");
            json_error(&answer);
        }
        // A 60 KB id is not echoed whole.
        let id = "a".repeat(60_000);
        let (status, answer) = raw(addr, &request("GET", &format!("/api/games/{id}"), "localhost", ""), limit).await;
        assert_eq!(status, 404, "{}", &answer[..answer.len().min(300)]);
        assert!(json_error(&answer).len() < 1000, "{} bytes", answer.len());
        // A body declared too large gets its 413 at once, not a 100 Continue and a wait.
        let start = Instant::now();
        let (status, answer) = raw(
            addr,
            "POST /api/solver HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 100000\r\n\r\n",
            Duration::from_secs(3),
        )
        .await;
        assert_eq!(status, 413, "{answer}");
        assert!(!answer.contains("100 Continue"), "{answer}");
        assert!(json_error(&answer).contains("limit of"), "{answer}");
        assert!(start.elapsed() < Duration::from_secs(3), "{:?}", start.elapsed());
        server.abort();
    });
}

/// Issue 51 item 6: an empty Host header and two Host headers (ours, then another) are refused
/// like a foreign name, and every answer (the page, an API answer, an error) carries the
/// security headers: a policy that loads only the server's own scripts and styles and forbids
/// framing, no framing in older browsers, no type sniffing.
#[test]
fn empty_and_repeated_host_headers_are_refused_and_every_answer_has_security_headers() {
    let runtime = runtime();
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let server = tokio::spawn(moo_web::serve(listener, moo_web::Config::default()));
        let limit = Duration::from_secs(5);
        let post = |hosts: &str| {
            format!("POST /api/games HTTP/1.1\r\n{hosts}Connection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{{}}")
        };
        let (status, answer) = raw(addr, &post("Host: \r\n"), limit).await;
        assert_eq!(status, 421, "{answer}");
        json_error(&answer);
        let (status, answer) = raw(addr, &post("Host: localhost\r\nHost: attacker.example\r\n"), limit).await;
        assert_eq!(status, 400, "{answer}");
        assert!(json_error(&answer).contains("more than one Host"), "{answer}");
        let (status, answer) = raw(addr, &post("Host: localhost\r\nHost: localhost\r\n"), limit).await;
        assert_eq!(status, 400, "{answer}");
        let get = |path: &str| format!("GET {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
        let (status, created) = raw(addr, &post("Host: localhost\r\n"), limit).await;
        assert_eq!(status, 201, "{created}");
        for (what, answer) in [
            ("the page", raw(addr, &get("/"), limit).await.1),
            ("a script", raw(addr, &get("/app.js"), limit).await.1),
            ("an API answer", raw(addr, &get("/api/presets"), limit).await.1),
            ("a created game", created),
            ("an error", raw(addr, &get("/api/games/none"), limit).await.1),
            ("a foreign host", raw(addr, &post("Host: attacker.example\r\n"), limit).await.1),
        ] {
            let head = answer.split_once("\r\n\r\n").map_or(answer.as_str(), |(h, _)| h).to_ascii_lowercase();
            for want in [
                "content-security-policy: default-src 'self'; script-src 'self'; style-src 'self';",
                "frame-ancestors 'none'",
                "x-frame-options: deny",
                "x-content-type-options: nosniff",
            ] {
                assert!(head.contains(want), "{what} lacks {want:?}: {head}");
            }
        }
        server.abort();
    });
}

/// The two-worker runtime each server test runs its server and clients on.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}
