//! Where output goes: devices and FIFOs are written to, never replaced; a full disk is an
//! error and a closed pipe a quiet success; a plot is written whole or not at all.

use crate::harness::{check, is_char_device, s, small_tree, Case, Out, BENCH_SMALL};

/// `tree build -o` onto a device, a link to one or a FIFO writes into it and leaves it what it is.
#[test]
fn tree_build_writes_into_devices_links_and_fifos() {
    check(
        "tree_build_writes_into_devices_links_and_fifos",
        vec![
            Case::owned(
                "1 tree build -o null (device)",
                small_tree(&["-o", "null"]),
                0,
            )
            .devices()
            .check(|d| is_char_device(&d.join("null"))),
            Case::owned(
                "1 tree build -o full (device)",
                small_tree(&["-o", "full"]),
                1,
            )
            .devices()
            .says("No space left on device")
            .check(|d| is_char_device(&d.join("full"))),
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
            Case::owned("1 tree build -o fifo", small_tree(&["-o", "fifo"]), 0).devices(),
        ],
    );
}

/// `tree build -o` creates and replaces regular files, and says why it cannot write elsewhere.
#[test]
fn tree_build_writes_new_and_existing_files_and_refuses_the_rest() {
    check(
        "tree_build_writes_new_and_existing_files_and_refuses_the_rest",
        vec![
            Case::owned(
                "1 tree build -o a new file",
                small_tree(&["-o", "new.json"]),
                0,
            )
            .creates("new.json"),
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
            Case::fails(
                "1 tree build -o a directory",
                small_tree(&["-o", "adir"]),
                "is a directory",
            ),
            Case::fails(
                "1 tree build -o missing/dir/x.json",
                small_tree(&["-o", "missing/dir/x.json"]),
                "cannot write missing/dir/x.json",
            ),
        ],
    );
}

/// The commands whose whole output goes to stdout: each must report a full disk and stay quiet
/// on a closed pipe.
fn full_disk_commands() -> Vec<(&'static str, Vec<String>)> {
    let crack_small = ["crack", "--repeats", "--length", "40"];
    let crack_table = [
        "crack",
        "--table",
        "--lengths",
        "10",
        "--runs",
        "1",
        "--generations",
        "5",
    ];
    let with = |base: &[&str], more: &[&str]| s(&[base, more].concat());
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
        ("crack --json", with(&crack_small, &["--json"])),
        ("crack --trials 2", with(&crack_small, &["--trials", "2"])),
        ("crack --table", s(&crack_table)),
        ("crack --table --json", with(&crack_table, &["--json"])),
        ("bench", s(&BENCH_SMALL)),
        ("bench --json", with(&BENCH_SMALL, &["--json"])),
        ("bench --list", s(&["bench", "--list"])),
        (
            "solve --secret",
            s(&["solve", "--secret", "1234", "--game", "mastermind"]),
        ),
    ]
}

/// A full disk is an error (exit 1), a closed pipe a quiet success, for each command of
/// [`full_disk_commands`] that `command` runs.
fn stdout_cases(command: &str) -> Vec<Case> {
    let mut c = Vec::new();

    for (name, args) in full_disk_commands()
        .iter()
        .filter(|(_, args)| args[0] == command)
    {
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
    if command == "crack" {
        // The longest answer, which a closed pipe must cut short as quietly.
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
    c
}

/// One test a command, each checking [`stdout_cases`] of that command.
macro_rules! output_tests {
    ($($test:ident: $command:literal,)*) => {$(
        #[doc = concat!("`moo ", $command, "`'s output to a full disk and a closed pipe.")]
        #[test]
        fn $test() {
            check(stringify!($test), stdout_cases($command));
        }
    )*};
}

output_tests! {
    hint_output_to_a_full_disk_or_a_closed_pipe: "hint",
    tree_output_to_a_full_disk_or_a_closed_pipe: "tree",
    crack_output_to_a_full_disk_or_a_closed_pipe: "crack",
    bench_output_to_a_full_disk_or_a_closed_pipe: "bench",
    solve_output_to_a_full_disk_or_a_closed_pipe: "solve",
}

/// `moo --help` and `--version`, whose printing clap does, report a full disk too.
#[test]
fn help_and_version_to_a_full_disk_or_a_closed_pipe() {
    check(
        "help_and_version_to_a_full_disk_or_a_closed_pipe",
        vec![
            Case::new("30.9 moo --help > full", &["--help"], 1)
                .out(Out::Full)
                .says("No space left on device"),
            Case::new("30.9 moo --version > full", &["--version"], 1)
                .out(Out::Full)
                .says("No space left on device"),
            Case::new("30.9 moo --help | closed pipe", &["--help"], 0).out(Out::Closed),
        ],
    );
}

/// The small benchmark of [`BENCH_SMALL`] plotted to `plot`.
fn bench_plot(plot: &str) -> Vec<String> {
    let mut v = s(&BENCH_SMALL);
    v.extend(s(&["--plot", plot]));
    v
}

/// A plot onto a full device: an error in words, not the image library's.
#[test]
fn plots_on_a_full_device_are_an_error_in_words() {
    let mut c = Vec::new();

    for plot in ["full.svg", "full.png"] {
        c.push(
            Case::owned(
                format!("8 bench --plot {plot} (full device)"),
                bench_plot(plot),
                1,
            )
            .devices()
            .says("No space left on device")
            .never_says("ImageError")
            .never_says("IoError"),
        );
    }

    check("plots_on_a_full_device_are_an_error_in_words", c);
}

/// A plot onto a full tmpfs: the same.
#[test]
fn plots_on_a_full_disk_are_an_error_in_words() {
    let mut c = Vec::new();
    for plot in ["small/p.svg", "small/p.png"] {
        let mut case = Case::fails(
            format!("8 bench --plot {plot} (full disk)"),
            bench_plot(plot),
            "No space left on device",
        )
        .never_says("ImageError");
        case.needs_small_fs = true;
        c.push(case);
    }

    check("plots_on_a_full_disk_are_an_error_in_words", c);
}

/// A plot with room to be written is.
#[test]
fn plots_are_written() {
    let mut c = Vec::new();
    for plot in ["p.svg", "p.png"] {
        c.push(Case::owned(format!("8 bench --plot {plot}"), bench_plot(plot), 0).creates(plot));
    }

    check("plots_are_written", c);
}
