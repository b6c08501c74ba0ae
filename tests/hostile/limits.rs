//! Limits: counts past their range refused when parsed, devices, FIFOs and oversized files
//! refused as input, echoes of huge input kept short, long histories bounded in time.

use std::time::Duration;

use crate::harness::{check, s, small_tree, Case};

/// Counts past their range: the command, and the range its refusal must give.
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

/// Counts past their range are refused when parsed, naming the range.
#[test]
fn huge_counts_are_refused_with_their_range() {
    let mut c = Vec::new();

    for &(name, args, range) in HUGE_COUNTS {
        c.push(Case::new(format!("3 {name}"), args, 2).says(range));
    }

    check("huge_counts_are_refused_with_their_range", c);
}

/// `--threads` takes what a machine could have, no more.
#[test]
fn thread_counts_are_bounded() {
    let mut c = Vec::new();
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

    check("thread_counts_are_bounded", c);
}

/// Device nodes and FIFOs (and links to them) that a command is given to read.
const SPECIAL: [&str; 4] = ["zero", "zero.json", "urandom.json", "fifo"];
/// For each of [`SPECIAL`], the command lines (name, arguments) that `commands` makes to read it,
/// each refused as not a regular file.
fn special_reads(commands: impl Fn(&str) -> Vec<(String, Vec<String>)>) -> Vec<Case> {
    SPECIAL
        .iter()
        .flat_map(|file| commands(file))
        .map(|(name, args)| {
            Case::owned(format!("4 {name}"), args, 1)
                .devices()
                .says("not a regular file")
        })
        .collect()
}

/// Reading a tree from a device or a FIFO would never end: refused.
#[test]
fn devices_and_fifos_are_not_read_as_trees() {
    check(
        "devices_and_fifos_are_not_read_as_trees",
        special_reads(|file| {
            ["verify", "show"]
                .map(|what| (format!("tree {what} {file}"), s(&["tree", what, file])))
                .to_vec()
        }),
    );
}

/// Nor as the tree a strategy plays.
#[test]
fn devices_and_fifos_are_not_read_as_strategies() {
    check(
        "devices_and_fifos_are_not_read_as_strategies",
        special_reads(|file| {
            let strategy = format!("tree:{file}");
            vec![
                (
                    format!("solve --strategy {strategy}"),
                    s(&["solve", "--secret", "0123", "--strategy", &strategy]),
                ),
                (
                    format!("bench -S {strategy}"),
                    s(&["bench", "-S", &strategy]),
                ),
            ]
        }),
    );
}

/// Nor as the secret `crack` reads.
#[test]
fn devices_and_fifos_are_not_read_as_secrets() {
    check(
        "devices_and_fifos_are_not_read_as_secrets",
        special_reads(|file| {
            vec![(
                format!("crack --secret-file {file}"),
                s(&["crack", "--repeats", "--secret-file", file]),
            )]
        }),
    );
}

/// Files past the size caps, not UTF-8, or directories: refused, saying why.
#[test]
fn oversized_and_odd_files_are_refused() {
    check(
        "oversized_and_odd_files_are_refused",
        vec![
            Case::new("4 tree verify big.json", &["tree", "verify", "big.json"], 1)
                .says("larger than the limit of 67108864 bytes (64 MiB)"),
            Case::new(
                "4 solve --strategy tree:big.json",
                &["solve", "--secret", "0123", "--strategy", "tree:big.json"],
                1,
            )
            .says("64 MiB"),
            Case::new(
                "4 crack --secret-file big.txt",
                &["crack", "--repeats", "--secret-file", "big.txt"],
                1,
            )
            .says("larger than the limit of 16777216 bytes (16 MiB)"),
            Case::new(
                "4 crack --secret-file latin1.txt",
                &["crack", "--repeats", "--secret-file", "latin1.txt"],
                1,
            )
            .says("not UTF-8"),
            Case::new("4 tree verify adir", &["tree", "verify", "adir"], 1)
                .says("not a regular file"),
        ],
    );
}

/// An error that quotes huge input quotes an excerpt.
#[test]
fn echoes_of_huge_input_are_short() {
    let mut c = Vec::new();

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

    check("echoes_of_huge_input_are_short", c);
}

/// Long histories are bounded, and a contradiction at the end is repaired in one pass, not one per turn.
#[test]
fn long_histories_are_bounded_and_repaired_in_one_pass() {
    let mut c = Vec::new();

    let mut turns = vec!["hint".to_string()];
    turns.extend(std::iter::repeat_n("0123=0B0C".to_string(), 9_999));
    turns.push("4567=0B0C".to_string());
    c.push(
        Case::fails(
            "7 hint with 10000 contradictory turns",
            turns.clone(),
            "if the answer to guess 10000 (4567) was not 0B0C",
        )
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

    check("long_histories_are_bounded_and_repaired_in_one_pass", c);
}

/// The time limit holds at the 10000-turn cap, contradictions included: every filter of the
/// history takes the stop.
#[test]
fn a_long_hint_keeps_its_time_limit() {
    check(
        "a_long_hint_keeps_its_time_limit",
        vec![
            Case::owned(
                "30.7 hint: 10000 turns of 10 digits, --time-limit 1s",
                long_hint(long_history(10_000, false)),
                0,
            )
            .within(Duration::from_secs(2)),
            Case::fails(
                "30.7 hint: 10000 turns of 10 digits, the last contradicting, --time-limit 1s",
                long_hint(long_history(9_999, true)),
                "no code fits all the answers",
            )
            .within(Duration::from_secs(2)),
        ],
    );
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

/// `bench advisor`: counts checked when parsed, no endless draw.
#[test]
fn bench_advisor_counts_are_checked_when_parsed() {
    check(
        "bench_advisor_counts_are_checked_when_parsed",
        vec![
            Case::new(
                "30.8 bench advisor --positions 1000000000",
                &["bench", "advisor", "--positions", "1000000000"],
                2,
            )
            .says("1000000000 is not in 0..=100000")
            .within(Duration::from_secs(10)),
            Case::new(
                "30.8 bench advisor --cross-checks 1000000000",
                &["bench", "advisor", "--cross-checks", "1000000000"],
                2,
            )
            .says("1000000000 is not in 0..=100000"),
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
        ],
    );
}

/// One table refusal, one exit code, and no advice to raise --table-memory where the table
/// cannot be built at any size.
#[test]
fn tables_too_large_are_one_refusal() {
    let mut c = Vec::new();

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

    check("tables_too_large_are_one_refusal", c);
}

/// A memory size past any machine, and flags emoji cannot be symbols: refused in words.
#[test]
fn huge_sizes_and_odd_alphabets_are_refused_in_words() {
    check(
        "huge_sizes_and_odd_alphabets_are_refused_in_words",
        vec![
            Case::new(
                "30.9 --table-memory 18446744073709551616",
                &["hint", "--table-memory", "18446744073709551616"],
                2,
            )
            .says("18446744073709551616 bytes is more than any machine has")
            .never_says("couldn't parse"),
            Case::new(
                "30.9 regional indicator symbols",
                &["hint", "--length", "2", "--symbols", "🇫🇷🇩🇪"],
                2,
            )
            .says("regional indicator"),
        ],
    );
}
