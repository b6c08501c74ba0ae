//! The harness of the command-line cases: each case runs the real `moo` in a fresh directory
//! of its own, and a test runs its cases one after another, checking what the suite promises
//! (see `main.rs`).

use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The address-space limit of every child: far above what any case needs.
const ADDRESS_SPACE: u64 = 2 << 30;
/// The most resident memory any child may have reached.
const MAX_RESIDENT_KB: i64 = 1 << 20;
/// A case that runs longer than this is killed and fails.
const CASE_TIMEOUT: Duration = Duration::from_secs(60);

/// An extra check on a case directory after the run.
pub type Check = fn(&Path) -> Result<(), String>;

/// Where a case's stdout goes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Out {
    /// A pipe read to the end.
    Pipe,
    /// The `full` device node of the case directory (writes fail with ENOSPC).
    Full,
    /// A pipe whose reading end is closed at once (writes fail with EPIPE).
    Closed,
}

/// One hostile invocation and what it must do.
pub struct Case {
    name: String,
    pub args: Vec<String>,
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
    pub needs_small_fs: bool,
    /// Extra check on the case directory afterwards.
    check: Option<Check>,
    /// The most time the case may take (for the former quadratic cases).
    within: Option<Duration>,
}

impl Case {
    pub fn new(name: impl Into<String>, args: &[&str], code: i32) -> Case {
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

    pub fn owned(name: impl Into<String>, args: Vec<String>, code: i32) -> Case {
        let mut case = Case::new(name, &[], code);
        case.args = args;
        case
    }

    /// A run that must fail (exit 1) saying `text`: most cases here are one.
    pub fn fails(name: impl Into<String>, args: Vec<String>, text: &str) -> Case {
        Case::owned(name, args, 1).says(text)
    }

    pub fn says(mut self, text: &str) -> Case {
        self.stderr_has.push(text.to_string());
        self
    }

    pub fn never_says(mut self, text: &str) -> Case {
        self.stderr_lacks.push(text.to_string());
        self
    }

    pub fn out(mut self, out: Out) -> Case {
        if out == Out::Full {
            self.needs_devices = true;
        }
        self.out = out;
        self
    }

    pub fn devices(mut self) -> Case {
        self.needs_devices = true;
        self
    }

    pub fn creates(mut self, file: &str) -> Case {
        self.creates.push(file.to_string());
        self
    }

    pub fn check(mut self, f: Check) -> Case {
        self.check = Some(f);
        self
    }

    pub fn stderr_max(mut self, bytes: usize) -> Case {
        self.stderr_max = bytes;
        self
    }

    pub fn within(mut self, limit: Duration) -> Case {
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
fn prepare(dir: &Path, case: &Case) -> Fixture {
    let fixtures = fixtures();
    std::fs::write(dir.join("tree.json"), &fixtures.tree).unwrap();
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
        std::fs::write(dir.join("deep.json"), &fixtures.deep_tree).unwrap();
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
            std::fs::write(dir.join(name), tamper(&fixtures.checkpoint, guess, *root)).unwrap();
        }
    }
    if case.args.iter().any(|a| a == "long-line.ckpt") {
        // A true header, then a line of 16 MiB and one byte that never ends.
        let header = fixtures.checkpoint.lines().next().unwrap();
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
            // A private umask: files moo creates must honour it, as a tree may be private.
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

/// Runs one case in a fresh directory: `Ok(Some(why))` if it could not run here, `Err` says what
/// went wrong.
fn try_case(root: &Path, index: usize, case: &Case) -> Result<Option<&'static str>, String> {
    let dir = root.join(format!("case-{index:03}"));
    std::fs::create_dir(&dir).unwrap();
    let fixture = prepare(&dir, case);
    if case.needs_devices && !fixture.devices {
        return Ok(Some("mknod and mkfifo need root"));
    }
    let _mount = if case.needs_small_fs {
        match SmallFs::mount(&dir.join("small")) {
            Some(m) => Some(m),
            None => return Ok(Some("mounting a tmpfs needs root with mount rights")),
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
        Ok(None)
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

pub fn is_char_device(path: &Path) -> Result<(), String> {
    let t = std::fs::symlink_metadata(path)
        .map_err(|e| format!("{}: {e}", path.display()))?
        .file_type();
    if t.is_char_device() {
        Ok(())
    } else {
        Err(format!("{} is no longer a device", path.display()))
    }
}

pub fn s(args: &[&str]) -> Vec<String> {
    args.iter().map(|a| a.to_string()).collect()
}

/// A small benchmark: Knuth's strategy on Mastermind of 2 pegs.
pub const BENCH_SMALL: [&str; 7] = [
    "bench",
    "--game",
    "mastermind",
    "--length",
    "2",
    "-S",
    "knuth",
];

/// A small tree build (Mastermind of 2 pegs) with `extra` flags.
pub fn small_tree(extra: &[&str]) -> Vec<String> {
    let mut v = s(&["tree", "build", "--game", "mastermind", "--length", "2"]);
    v.extend(s(extra));
    v
}

/// [`small_tree`] written to `x.json`, with `extra` flags.
pub fn small_build(extra: &[&str]) -> Vec<String> {
    let mut v = small_tree(&["-o", "x.json"]);
    v.extend(s(extra));
    v
}

/// A text file of the user's that no command may replace.
pub const NOTES: &str = "my notes\n";

/// 64 symbols: a tree of codes of length 1 over them is 64 guesses deep.
pub const SYMBOLS_64: &str = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+/";

/// Checkpoints with one fact's guess edited and its checksum recomputed, as someone who knows
/// the format could forge them: the file name, the guess, and whether the fact edited is that of the whole game (else the first).
pub const TAMPERED: &[(&str, &str, bool)] = &[
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

/// What every case directory is given, built once for all the tests of a run.
struct Fixtures {
    /// A small valid tree (Mastermind of 2 pegs).
    tree: String,
    /// A Mastermind checkpoint as `moo tree build --checkpoint` writes it.
    checkpoint: String,
    /// The tree `moo tree build --length 1 --symbols SYMBOLS_64` writes.
    deep_tree: String,
}

/// The [`Fixtures`], built by the first test that asks.
fn fixtures() -> &'static Fixtures {
    static FIXTURES: OnceLock<Fixtures> = OnceLock::new();
    FIXTURES.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        build_fixtures(dir.path())
    })
}

/// Runs `cases` one after another, each in a fresh directory, and fails with every case that
/// went wrong; prints `hostile: NAME: N cases tried, N passed`. A case that needs root where
/// there is none is skipped with a warning, or fails under CI (see `require`).
pub fn check(name: &str, cases: Vec<Case>) {
    let _serial = crate::SERIAL.lock().unwrap_or_else(|p| p.into_inner());
    fixtures();
    let root = tempfile::tempdir().unwrap();
    let outside_before = outside_snapshot();
    let (mut tried, mut passed, mut skipped) = (0, 0, Vec::new());
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        match try_case(root.path(), i, case) {
            Ok(Some(why)) => skipped.push(format!("{} ({why})", case.name)),
            Ok(None) => {
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
    println!(
        "hostile: {name}: {tried} cases tried, {passed} passed, {} skipped; peak child resident memory {} MB",
        skipped.len(),
        peak / 1024
    );
    assert!(
        failures.is_empty(),
        "hostile cases failed:\n{}",
        failures.join("\n")
    );
    if !skipped.is_empty() {
        crate::require::missing(
            &format!("{} hostile cases of {name}", skipped.len()),
            "MOO_REQUIRE_ROOT",
            &format!(
                "run the tests as root, where mknod and mount -t tmpfs work: {}",
                skipped.join(", ")
            ),
        );
    }
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

/// Builds the trees the cases read, in `dir`.
fn build_fixtures(dir: &Path) -> Fixtures {
    let tree_path = dir.join("fixture.json");
    let checkpoint_path = dir.join("fixture.ckpt");
    let build = |args: &[&str]| {
        let built = Command::new(env!("CARGO_BIN_EXE_moo"))
            .args(["tree", "build"])
            .args(args)
            .arg("-o")
            .arg(&tree_path)
            .stdout(Stdio::null())
            .status()
            .unwrap();
        assert!(built.success(), "moo tree build {args:?}");
        std::fs::read_to_string(&tree_path).unwrap()
    };
    let tree = build(&["--game", "mastermind", "--length", "2"]);
    build(&[
        "--game",
        "mastermind",
        "--checkpoint",
        checkpoint_path.to_str().unwrap(),
    ]);
    Fixtures {
        tree,
        checkpoint: std::fs::read_to_string(&checkpoint_path).unwrap(),
        deep_tree: build(&["--length", "1", "--symbols", SYMBOLS_64]),
    }
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
