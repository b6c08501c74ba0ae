//! `moo tree split`, `job`, `join` and `status`: a search run as separate jobs, at the first
//! level or deeper in rounds, gives the single run's tree, and every way the jobs' directory can
//! be wrong is a clear error.

use std::path::Path;

use predicates::prelude::*;

use crate::common::{fails, json_of, moo, says, stdout_of};

/// 3 distinct digits: 720 secrets, 8 jobs at the first level, each solved in milliseconds.
const GAME: [&str; 2] = ["--length", "3"];

/// Splits `GAME` at the first level only.
fn split(dir: &Path, extra: &[&str]) {
    moo()
        .args(["tree", "split", "--share", "100", "--out"])
        .arg(dir)
        .args(GAME)
        .args(extra)
        .assert()
        .success();
}

fn jobs(dir: &Path) -> usize {
    let text = std::fs::read_to_string(dir.join("split.json")).unwrap();
    let split: serde_json::Value = serde_json::from_str(&text).unwrap();
    split["jobs"].as_array().unwrap().len()
}

fn run_job(dir: &Path, index: usize) {
    moo()
        .args([
            "tree",
            "job",
            "--threads",
            "1",
            "--index",
            &index.to_string(),
        ])
        .arg(dir)
        .assert()
        .success();
}

/// Builds `game` in one run, in `tmp`, and checks that `joined` is its tree, node for node.
fn assert_is_the_single_runs_tree(tmp: &Path, joined: &Path, game: &[&str]) {
    let single_file = tmp.join("single.json");
    moo()
        .args(["tree", "build", "--threads", "2", "-o"])
        .arg(&single_file)
        .args(game)
        .assert()
        .success();
    assert_eq!(
        std::fs::read_to_string(joined).unwrap(),
        std::fs::read_to_string(&single_file).unwrap(),
        "the same tree, node for node"
    );
}

/// A JSON file the run wrote.
fn read_json(file: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap()
}

/// `moo tree join --json`'s report on `dir`, the tree (if it writes one) to `tree`.
fn join_json(dir: &Path, tree: &Path) -> serde_json::Value {
    json_of(
        moo()
            .args(["tree", "join", "--json", "-o"])
            .arg(tree)
            .arg(dir),
    )
}

/// `moo tree join -o TREE DIR`, which must fail with `says` (exit 1) and write no tree.
fn join_fails(dir: &Path, says: &[&str]) {
    let tree = dir.join("t.json");
    fails(
        moo().args(["tree", "join", "-o"]).arg(&tree).arg(dir),
        1,
        says,
    );
    assert!(!tree.exists());
}

#[test]
fn split_jobs_and_join_give_the_single_runs_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("jobs");
    split(&dir, &[]);
    let n = jobs(&dir);
    assert_eq!(
        n, 8,
        "one first guess up to symmetry, 8 feedbacks besides the win"
    );
    for i in 0..n {
        run_job(&dir, i);
    }
    let joined_file = tmp.path().join("joined.json");
    let joined = join_json(&dir, &joined_file);

    let single_file = tmp.path().join("single.json");
    let single = json_of(
        moo()
            .args(["tree", "build", "--json", "--threads", "2", "-o"])
            .arg(&single_file)
            .args(GAME),
    );
    for key in ["secrets", "total", "max", "at_worst", "histogram"] {
        assert_eq!(joined[key], single[key], "{key}");
    }
    assert_eq!(joined["jobs"], 8);
    // The claim rests on the jobs' own searches: the report names the machine that ran them.
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    assert_eq!(joined["hosts"][host.trim()], 8, "{joined}");
    let result = read_json(&dir.join("0000.result.json"));
    assert_eq!(result["host"], host.trim());
    // Beside the tree, each job's claim, what of it the join could check, and who proved it.
    let claims_file = tmp.path().join("joined.json.claims.json");
    assert_eq!(joined["claims"], claims_file.display().to_string());
    let claims = read_json(&claims_file);
    assert_eq!(claims["format"], "moo-claims/1");
    assert_eq!(claims["stats"]["total"], single["total"]);
    let each = claims["claims"].as_array().unwrap();
    assert_eq!(each.len(), 8, "{claims}");
    for (i, c) in each.iter().enumerate() {
        assert_eq!(c["job"], i);
        assert_eq!(c["host"], host.trim());
        assert_eq!(c["kernel"], result["kernel"]);
        assert_eq!(c["checked"], "replayed", "{c}");
        let proves = c["proves"].as_str().unwrap();
        assert!(proves.starts_with("no subtree costs less than "), "{c}");
    }
    assert_eq!(
        claims["first_guess"],
        read_json(&joined_file)["root"]["guess"]
    );
    assert_eq!(
        std::fs::read_to_string(&joined_file).unwrap(),
        std::fs::read_to_string(&single_file).unwrap(),
        "the same tree, node for node"
    );
    says(
        &stdout_of(moo().args(["tree", "verify"]).arg(&joined_file)),
        &[&format!("total     {}", single["total"])],
    );
}

#[test]
fn a_job_run_twice_is_done_once_and_a_job_file_runs_by_name() {
    let tmp = tempfile::tempdir().unwrap();
    split(tmp.path(), &[]);
    let job = tmp.path().join("0003.job.json");
    moo()
        .args(["tree", "job", "--json"])
        .arg(&job)
        .env("MOO_KERNEL", "scalar")
        .assert()
        .success()
        .stdout(predicate::str::contains("\"already_done\":false"))
        .stdout(predicate::str::contains("\"kernel\":\"scalar\""));
    // The result records the kernel level its search ran at.
    let result = read_json(&tmp.path().join("0003.result.json"));
    assert_eq!(result["kernel"], "scalar");
    says(
        &stdout_of(moo().args(["tree", "job"]).arg(&job)),
        &["already done"],
    );
}

/// A job whose cache is far too small forgets and searches again, never answers differently;
/// a bad size is a usage error.
#[test]
fn a_job_with_a_small_cache_gives_the_same_result() {
    let tmp = tempfile::tempdir().unwrap();
    split(tmp.path(), &[]);
    let job = tmp.path().join("0000.job.json");
    let run = |cache: &str| {
        let file = tmp.path().join(format!("{cache}.result.json"));
        let report = json_of(
            moo()
                .args(["tree", "job", "--json", "--cache-memory", cache, "-o"])
                .arg(&file)
                .arg(&job),
        );
        let result = read_json(&file);
        (result["outcome"].clone(), report["nodes"].as_u64().unwrap())
    };
    let (roomy, searched) = run("1GiB");
    let (cramped, searched_again) = run("1KiB");
    assert_eq!(roomy, cramped);
    assert!(searched_again > searched, "{searched_again} {searched}");
    fails(
        moo()
            .args(["tree", "job", "--cache-memory", "much"])
            .arg(&job),
        2,
        &["give a size such as"],
    );
}

#[test]
fn join_names_the_jobs_without_a_result() {
    let tmp = tempfile::tempdir().unwrap();
    split(tmp.path(), &[]);
    for i in [0, 1, 4, 6] {
        run_job(tmp.path(), i);
    }
    join_fails(
        tmp.path(),
        &["4 of 8 jobs have no result yet (jobs 2-3, 5, 7)"],
    );
}

#[test]
fn a_result_of_another_split_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b) = (tmp.path().join("a"), tmp.path().join("b"));
    split(&a, &[]);
    split(&b, &["--guesses", "consistent"]);
    for i in 0..jobs(&a) {
        run_job(&a, i);
    }
    run_job(&b, 2);
    std::fs::copy(b.join("0002.result.json"), a.join("0002.result.json")).unwrap();
    join_fails(&a, &["0002.result.json", "belongs to another split"]);

    // A job file of the other split, dropped into this directory, is refused before it runs.
    std::fs::copy(b.join("0005.job.json"), a.join("0005.job.json")).unwrap();
    fails(
        moo().args(["tree", "job", "--index", "5"]).arg(&a),
        1,
        &["belongs to another split"],
    );
    // And a second split into a directory holding one is refused.
    fails(
        moo()
            .args(["tree", "split", "--share", "100", "--guesses", "consistent"])
            .arg("--out")
            .arg(&a)
            .args(GAME),
        1,
        &["already holds another split"],
    );
}

#[test]
fn damaged_files_are_errors_not_panics() {
    let tmp = tempfile::tempdir().unwrap();
    split(tmp.path(), &[]);
    for i in 0..jobs(tmp.path()) {
        run_job(tmp.path(), i);
    }
    let result = tmp.path().join("0001.result.json");
    let text = std::fs::read_to_string(&result).unwrap();
    std::fs::write(&result, &text[..text.len() / 2]).unwrap();
    join_fails(tmp.path(), &["not a job result file", "0001.result.json"]);

    // A result whose subtree was swapped for another job's claims what its tree does not do.
    let other = std::fs::read_to_string(tmp.path().join("0002.result.json")).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&other).unwrap();
    let mut mine: serde_json::Value = serde_json::from_str(&text).unwrap();
    mine["outcome"]["tree"] = value["outcome"]["tree"].take();
    if let Some(outcome) = mine["outcome"].as_object_mut() {
        outcome.remove("unreduced");
    }
    std::fs::write(&result, mine.to_string()).unwrap();
    join_fails(tmp.path(), &["the joined tree is not valid"]);

    std::fs::write(tmp.path().join("0004.job.json"), "{\"format\": 7}").unwrap();
    let job = |flags: &[&str]| {
        let mut cmd = moo();
        cmd.args(["tree", "job"]).args(flags).arg(tmp.path());
        cmd
    };
    fails(
        &mut job(&["--force", "--index", "4"]),
        1,
        &["not a job file"],
    );
    fails(&mut job(&["--index", "99"]), 1, &["0099.job.json"]);
    fails(&mut job(&[]), 2, &["--index"]);
    std::fs::remove_file(tmp.path().join("split.json")).unwrap();
    join_fails(tmp.path(), &["has no split.json"]);
}

/// Splits `GAME` under `objective`, runs every job, joins, and builds the same search whole:
/// the two `--json` summaries and tree files.
fn split_and_single(objective: &str) -> (serde_json::Value, String, serde_json::Value, String) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("jobs");
    split(&dir, &["--objective", objective]);
    for i in 0..jobs(&dir) {
        let report = json_of(
            moo()
                .args(["tree", "job", "--json", "--threads", "1", "--index"])
                .arg(i.to_string())
                .arg(&dir),
        );
        let depths = report["depths"].as_array().unwrap();
        assert!(!depths.is_empty(), "job {i} proves at least one depth");
    }
    let joined_file = tmp.path().join("joined.json");
    let joined = join_json(&dir, &joined_file);
    let single_file = tmp.path().join("single.json");
    let single = json_of(
        moo()
            .args(["tree", "build", "--json", "--objective", objective])
            .args(GAME)
            .arg("-o")
            .arg(&single_file),
    );
    (
        joined,
        std::fs::read_to_string(&joined_file).unwrap(),
        single,
        std::fs::read_to_string(&single_file).unwrap(),
    )
}

#[test]
fn worst_case_objectives_split_and_join_as_the_single_run() {
    let (joined, joined_tree, single, single_tree) = split_and_single("fewest-worst");
    for key in ["total", "max", "at_worst", "histogram"] {
        assert_eq!(joined[key], single[key], "fewest-worst {key}");
    }
    assert_eq!(joined_tree, single_tree, "fewest-worst: the same tree");
    // Under the worst case only the objective's two figures must agree (ties may differ).
    let (joined, _, single, _) = split_and_single("worst");
    for key in ["total", "max"] {
        assert_eq!(joined[key], single[key], "worst {key}");
    }
}

/// `moo tree status DIR`: the jobs still without a result, as an array range.
fn status(dir: &Path) -> String {
    status_with(dir, &[]).trim().to_string()
}

/// What `moo tree status FLAGS DIR` prints.
fn status_with(dir: &Path, flags: &[&str]) -> String {
    let args: Vec<&str> = ["tree", "status"].iter().chain(flags).copied().collect();
    stdout_of(moo().args(args).arg(dir))
}

/// Every job index of an array range such as `0-3,7`.
fn indexes(range: &str) -> Vec<usize> {
    range
        .split(',')
        .flat_map(|run| {
            let (a, b) = run.split_once('-').unwrap_or((run, run));
            a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap()
        })
        .collect()
}

#[test]
fn a_deeper_split_runs_in_rounds_to_the_single_runs_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("jobs");
    let planned = estimate(&dir, &[]);
    assert!(planned["deeper"].as_u64().unwrap() > 0, "{planned}");
    let first = jobs(&dir);
    assert_eq!(status(&dir), format!("0-{}", first - 1));
    for i in indexes(&status(&dir)) {
        run_job(&dir, i);
    }
    assert_eq!(status(&dir), "");
    let joined_file = tmp.path().join("joined.json");
    let join = || {
        stdout_of(
            moo()
                .args(["tree", "join", "-o"])
                .arg(&joined_file)
                .arg(&dir),
        )
    };
    let said = join();
    assert!(said.contains("round 2 written"), "{said}");
    let second = status(&dir);
    assert!(second.starts_with(&format!("{first}-")), "{second}");
    // Joined again before any of round 2 ran: the same round, written again alike.
    let said = join();
    assert!(said.contains("round 2 written"), "{said}");
    assert_eq!(status(&dir), second);
    assert!(!joined_file.exists());
    // Every later round, each written by the join once the one before is in.
    let mut rounds = 2;
    loop {
        for i in indexes(&status(&dir)) {
            run_job(&dir, i);
        }
        let joined = join();
        if joined.contains("tree verified") {
            break;
        }
        rounds += 1;
        assert!(rounds < 30, "{joined}");
    }
    assert!(rounds > 2, "positions below the parts take more rounds");
    assert_eq!(status(&dir), "");
    assert_is_the_single_runs_tree(tmp.path(), &joined_file, &GAME);
    // Every job of every round has its claim, and the bounds of later rounds' runs, which come
    // with no subtree, rest on their search alone.
    let claims_file = tmp.path().join("claims.json");
    moo()
        .args(["tree", "join", "--claims"])
        .arg(&claims_file)
        .arg("-o")
        .arg(&joined_file)
        .arg(&dir)
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "claims    each job's claim and the machine that proved it in {}",
            claims_file.display()
        )));
    let claims = read_json(&claims_file);
    let each = claims["claims"].as_array().unwrap();
    assert_eq!(each.len(), jobs_in_all(&dir), "{claims}");
    let checked = |how: &str| each.iter().filter(|c| c["checked"] == how).count();
    assert!(
        checked("replayed") > 0 && checked("search only") > 0,
        "{claims}"
    );
    assert!(
        each.iter()
            .any(|c| c["position"].as_str().unwrap().contains(" then ")),
        "later rounds' positions are named by the way to them: {claims}"
    );
}

/// How many job files `dir` holds, every round's.
fn jobs_in_all(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().ends_with(".job.json")
        })
        .count()
}

/// Splits `GAME` into `dir` with an estimate (`how`: its flags) and returns the JSON report.
fn estimate(dir: &Path, how: &[&str]) -> serde_json::Value {
    json_of(
        moo()
            .args(["tree", "split", "--json", "--out"])
            .arg(dir)
            .args(how)
            .args(GAME),
    )
}

#[test]
fn split_estimate_predicts_from_sampled_jobs_and_driven_parts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("jobs");
    let value = estimate(&dir, &["--estimate"]);
    let estimate = &value["estimate"];
    let sampled = estimate["sampled"].as_array().unwrap();
    assert!(sampled.len() >= 2, "{estimate}");
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    assert!(f(&estimate["total"]) > 0.0, "{estimate}");
    // The largest and the smallest deep parts driven through their rounds, every deep part
    // predicted, and the total their sum with the whole parts'.
    let deeper = value["deeper"].as_u64().unwrap() as usize;
    let driven = estimate["driven"].as_array().unwrap();
    assert_eq!(driven.len(), deeper.min(2), "{estimate}");
    for p in driven {
        let jobs = p["jobs"].as_u64().unwrap();
        assert_eq!(
            jobs,
            p["pieces"].as_u64().unwrap() + p["runs"].as_u64().unwrap()
        );
        assert!(jobs > 0, "{p}");
        assert!(
            p["tried_guesses"].as_u64() <= p["later_guesses"].as_u64(),
            "{p}"
        );
    }
    let parts = estimate["parts"].as_array().unwrap();
    assert_eq!(parts.len(), deeper);
    let sum: f64 = parts.iter().map(|p| f(&p["seconds"])).sum();
    assert!((f(&estimate["whole"]) + sum - f(&estimate["total"])).abs() < 1e-9);
    // The sampled jobs' results are kept, so the run does not repeat them, and the rounds
    // after them give the single run's tree.
    let pending = || match status(&dir) {
        r if r.is_empty() => Vec::new(),
        r => indexes(&r),
    };
    let left = pending();
    for s in sampled {
        let index = s["index"].as_u64().unwrap() as usize;
        assert!(dir.join(format!("{index:04}.result.json")).is_file());
        assert!(!left.contains(&index), "job {index} is still to run");
    }
    let joined_file = tmp.path().join("joined.json");
    for _ in 0..30 {
        for i in pending() {
            run_job(&dir, i);
        }
        moo()
            .args(["tree", "join", "-o"])
            .arg(&joined_file)
            .arg(&dir)
            .assert()
            .success();
        if joined_file.exists() {
            break;
        }
    }
    assert_is_the_single_runs_tree(tmp.path(), &joined_file, &GAME);
}

#[test]
fn split_estimate_budget_must_be_a_positive_duration() {
    let tmp = tempfile::tempdir().unwrap();
    for (budget, says) in [
        ("0s", "must be more than 0"),
        ("soon", "write a CPU time such as 90s"),
    ] {
        fails(
            moo()
                .args(["tree", "split", "--estimate-budget", budget, "--out"])
                .arg(tmp.path().join("jobs"))
                .args(GAME),
            2,
            &[says],
        );
    }
    assert!(!tmp.path().join("jobs").exists(), "nothing written");
}

#[test]
fn split_estimate_within_a_budget_drives_the_smallest_part_first_and_gives_a_range() {
    let tmp = tempfile::tempdir().unwrap();
    let value = estimate(&tmp.path().join("jobs"), &["--estimate-budget", "20s"]);
    let estimate = &value["estimate"];
    let f = |v: &serde_json::Value| v.as_f64().unwrap();
    assert_eq!(f(&estimate["budget"]), 20.0);
    // Round 1's samples from the smallest up, each at least twice the one before.
    let sizes: Vec<u64> = estimate["sampled"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["size"].as_u64().unwrap())
        .collect();
    assert!(!sizes.is_empty(), "{estimate}");
    assert!(
        sizes.windows(2).all(|w| w[1] >= 2 * w[0].max(1)),
        "{sizes:?}"
    );
    // The deep parts driven are the smallest ones, and each part's range holds its estimate.
    let parts = estimate["parts"].as_array().unwrap();
    assert_eq!(parts.len(), value["deeper"].as_u64().unwrap() as usize);
    let driven: Vec<&serde_json::Value> = parts.iter().filter(|p| p["driven"] == true).collect();
    assert!(!driven.is_empty(), "{estimate}");
    let smallest = parts.iter().map(|p| p["size"].as_u64()).min().unwrap();
    assert!(
        driven.iter().any(|p| p["size"].as_u64() == smallest),
        "{estimate}"
    );
    for p in parts {
        assert!(
            f(&p["low"]) <= f(&p["seconds"]) && f(&p["seconds"]) <= f(&p["high"]),
            "{p}"
        );
        if p["driven"] == true {
            assert_eq!(f(&p["low"]), f(&p["high"]), "{p}");
        }
    }
    // The parts add up, for the estimate and for both ends of its range.
    for (field, whole_at_most) in [("seconds", "total"), ("low", "low"), ("high", "high")] {
        let sum: f64 = parts.iter().map(|p| f(&p[field])).sum();
        assert!(
            sum <= f(&estimate[whole_at_most]) + 1e-9,
            "{field} {estimate}"
        );
    }
    let sum: f64 = parts.iter().map(|p| f(&p["seconds"])).sum();
    assert!((f(&estimate["whole"]) + sum - f(&estimate["total"])).abs() < 1e-9);
    assert!(f(&estimate["low"]) <= f(&estimate["total"]));
    assert!(f(&estimate["total"]) <= f(&estimate["high"]));
    // The estimate's own CPU time stays near its budget (a step stops when it is spent).
    assert!(f(&estimate["took"]) < 20.0 + 5.0, "{estimate}");
}

/// Splits `game` (at the default share unless it says, its large parts deeper) into
/// `tmp/jobs`.
fn split_deeper(tmp: &Path, game: &[&str]) -> std::path::PathBuf {
    let dir = tmp.join("jobs");
    moo()
        .args(["tree", "split", "--out"])
        .arg(&dir)
        .args(game)
        .assert()
        .success();
    dir
}

/// Runs `scripts/split-local.sh` on `dir`, `procs` jobs at a time, to `tree`, and returns what
/// it printed; fails the test if it fails.
fn split_local(dir: &Path, tree: &Path, procs: usize) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/split-local.sh");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .arg(dir)
        .arg(tree)
        .arg(procs.to_string())
        .env("MOO", env!("CARGO_BIN_EXE_moo"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `scripts/split-local.sh`, the rounds run on this machine: every round to the single run's tree;
/// and run again after losing the last results and the tree (a machine stopped midway), it runs
/// only the jobs without a result and writes the same tree.
#[test]
fn the_local_driver_runs_every_round_and_resumes_after_a_loss() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = split_deeper(tmp.path(), &GAME);
    let joined = tmp.path().join("joined.json");
    let drive = || split_local(&dir, &joined, 2);
    let first = drive();
    assert!(first.contains("round 2 written"), "{first}");
    // Each round's join says which parts split deeper the rounds before it settled.
    assert!(first.contains("settled   0 of the "), "{first}");
    assert!(
        first.contains(" guesses after the first\n"),
        "a part settled before the last round:\n{first}"
    );
    assert_eq!(status(&dir), "");
    assert_is_the_single_runs_tree(tmp.path(), &joined, &GAME);
    let tree = std::fs::read(&joined).unwrap();

    let mut results: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".result.json"))
        .collect();
    results.sort();
    let lost = results.split_off(results.len() - 3);
    for path in &lost {
        std::fs::remove_file(path).unwrap();
    }
    std::fs::remove_file(&joined).unwrap();
    let again = drive();
    let ran = again.matches("result in").count();
    assert_eq!(ran, lost.len(), "only the lost jobs run again:\n{again}");
    assert_eq!(
        std::fs::read(&joined).unwrap(),
        tree,
        "the same tree, byte for byte"
    );
}

/// `moo tree status --summary`: the jobs written and done, overall and by first-level part, with
/// each part's size (not the smaller positions its later jobs search).
#[test]
fn status_summary_counts_jobs_by_part() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = split_deeper(tmp.path(), &GAME);
    let first = jobs(&dir);
    let summary = || status_with(&dir, &["--summary"]);
    let before = summary();
    assert!(
        before.contains(&format!(
            "{first} jobs written ({first} in round 1), 0 with a result, {first} to run (0-{})",
            first - 1
        )),
        "{before}"
    );
    run_job(&dir, 0);
    run_job(&dir, 1);
    let after = summary();
    assert!(after.contains(", 2 with a result, "), "{after}");
    // Each job's runner measured its process's peak memory: a few megabytes at least.
    let peak: Vec<f64> = (0..2)
        .map(|i| {
            let result = read_json(&dir.join(format!("{i:04}.result.json")));
            result["peak_bytes"].as_f64().unwrap()
        })
        .collect();
    assert!(peak.iter().all(|&b| b > 1e6), "{peak:?}");
    let largest = if peak[1] > peak[0] { 1 } else { 0 };
    let line = format!(
        "memory    {:.2} GB at most, by job {largest} ",
        peak[largest] / 1e9
    );
    assert!(after.contains(&line), "{line}\n{after}");
    // 3 of 0-9's first guess leaves 252 secrets with 0B1C, split deeper at the default share.
    assert!(after.contains("012 0B1C 252 (split deeper): "), "{after}");
    let parts = after
        .lines()
        .filter(|l| l.starts_with("          "))
        .count();
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("split.json")).unwrap()).unwrap();
    let mut distinct: Vec<String> = manifest["jobs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|j| format!("{} {}", j["guess"], j["feedback"]))
        .collect();
    distinct.sort();
    distinct.dedup();
    assert_eq!(parts, distinct.len(), "one line per part:\n{after}");
}

/// `moo tree status --bounds` and the join's rounds: what the results in prove, mid-round and
/// at each round's end, rising to the joined tree's total.
#[test]
fn status_bounds_and_rounds_report_the_proven_lower_bound() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = split_deeper(tmp.path(), &GAME);
    let bounds = || status_with(&dir, &["--bounds"]);
    // The whole game's bound: the number on the `lower` line, if there is one.
    let lower = |text: &str| -> Option<u64> {
        let line = text.lines().find(|l| l.starts_with("lower "))?;
        line.split_whitespace().find_map(|w| w.parse().ok())
    };
    // With a part solved whole still to run, no bound for the whole game yet.
    let manifest: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("split.json")).unwrap()).unwrap();
    let jobs = manifest["jobs"].as_array().unwrap();
    assert!(
        jobs.iter().any(|j| j["task"]["kind"] == "part"),
        "3 of 0-9 has parts solved whole"
    );
    let none = bounds();
    says(&none, &["settled   0 of the ", "at least "]);
    assert_eq!(lower(&none), None, "{none}");
    let strategy = tmp.path().join("strategy.json");
    fails(
        moo()
            .args(["tree", "status", "--bounds", "--strategy"])
            .arg(&strategy)
            .arg(&dir),
        1,
        &["no strategy for every part yet"],
    );
    fails(
        moo()
            .args(["tree", "status", "--strategy"])
            .arg(&strategy)
            .arg(&dir),
        2,
        &["--bounds"],
    );
    for i in indexes(&status(&dir)) {
        run_job(&dir, i);
    }
    let first = bounds();
    let mut seen = vec![lower(&first).unwrap_or_else(|| panic!("{first}"))];
    let mut uppers: Vec<u64> = Vec::new();
    let mut listed = 0;
    assert!(first.contains("open      "), "{first}");
    let joined_file = tmp.path().join("joined.json");
    let total = loop {
        let report = join_json(&dir, &joined_file);
        if let Some(total) = report["total"].as_u64() {
            break total;
        }
        // The round's report proves what status does, before any of the round runs.
        let proven = report["lower"]
            .as_u64()
            .unwrap_or_else(|| panic!("{report}"));
        let text = bounds();
        assert_eq!(Some(proven), lower(&text), "{report}");
        let open = report["open"].as_array().unwrap();
        assert!(
            open.iter().all(|o| o["lower"].as_u64().is_some()),
            "{report}"
        );
        // Each open part's second guesses left, the least bound first (the part's), counted
        // under it in status's report as in the join's.
        let mut left = Vec::new();
        for o in open {
            let guesses = o["guesses"].as_array().unwrap();
            if let Some(least) = guesses.first() {
                assert_eq!(least["lower"], o["lower"], "{report}");
                left.push(guesses.len());
            }
        }
        let counted: Vec<usize> = text
            .lines()
            .filter_map(|l| l.trim_start().split_once(" second guess"))
            .map(|(n, _)| n.parse().unwrap())
            .collect();
        assert_eq!(counted, left, "{text}");
        listed += left.len();
        seen.push(proven);
        // Half of the round in: status proves at least as much as the round began with, and
        // the best strategy found so far is a tree of the total it says.
        let round = indexes(&status(&dir));
        for &i in &round[..round.len() / 2] {
            run_job(&dir, i);
        }
        let half = bounds();
        seen.push(lower(&half).unwrap());
        let upper = half.lines().find(|l| l.starts_with("upper "));
        if let Some(upper) =
            upper.and_then(|l| l.split_whitespace().find_map(|w| w.parse::<u64>().ok()))
        {
            let args = ["--bounds", "--strategy", strategy.to_str().unwrap()];
            assert!(status_with(&dir, &args).contains("written to"));
            says(
                &stdout_of(moo().args(["tree", "verify"]).arg(&strategy)),
                &[&format!("total     {upper}\n")],
            );
            uppers.push(upper);
        }
        for &i in &round[round.len() / 2..] {
            run_job(&dir, i);
        }
    };
    let last = bounds();
    assert!(!last.contains("open "), "{last}");
    assert_eq!(lower(&last), Some(total), "{last}");
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    assert!(seen[0] < total && seen.len() > 4, "{seen:?} {total}");
    assert!(uppers.iter().all(|&u| u >= total), "{uppers:?} {total}");
    assert!(uppers.iter().any(|&u| u > total), "{uppers:?} {total}");
    assert!(
        listed > 0,
        "some round lists an open part's second guesses left"
    );

    // A damaged result, or one that answers another job than the one derived, is an error.
    let written = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| {
            let name = e.as_ref().unwrap().file_name();
            name.to_string_lossy().ends_with(".job.json")
        })
        .count();
    let result = dir.join(format!("{:04}.result.json", written - 1));
    let text = std::fs::read_to_string(&result).unwrap();
    let mut edited: serde_json::Value = serde_json::from_str(&text).unwrap();
    edited["size"] = (edited["size"].as_u64().unwrap() + 1).into();
    for (content, error) in [
        (text[..text.len() / 2].to_string(), "not a job result file"),
        (edited.to_string(), "the result answers"),
    ] {
        std::fs::write(&result, content).unwrap();
        fails(
            moo().args(["tree", "status", "--bounds"]).arg(&dir),
            1,
            &[error],
        );
    }
}

/// Bulls and Cows 4 of 0-7, its parts above a tenth of the run deeper: 110 jobs in all, some
/// positions with several runs of later guesses.
const SEVERAL_RUNS: [&str; 6] = ["--length", "4", "--symbols", "01234567", "--share", "10"];

/// A run of later guesses reads the results of its position's other runs in the directory and
/// needs only to beat their trees: jobs run one at a time in order lower some runs' bounds,
/// and the join still gives the single run's tree, byte for byte. `--alone` keeps the job's own
/// bound.
#[test]
fn runs_below_their_positions_other_trees_join_to_the_single_runs_tree() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = split_deeper(tmp.path(), &SEVERAL_RUNS);
    let joined = tmp.path().join("joined.json");
    split_local(&dir, &joined, 1);
    assert_is_the_single_runs_tree(tmp.path(), &joined, &SEVERAL_RUNS[..4]);
    // A run that ended below its job's bound, and the same job run again alone and beside.
    let lowered = (jobs(&dir)..)
        .map(|i| dir.join(format!("{i:04}.result.json")))
        .take_while(|p| p.exists())
        .map(|p| serde_json::from_str::<serde_json::Value>(&std::fs::read_to_string(p).unwrap()))
        .map(Result::unwrap)
        .find(|r| r["tightened"].is_u64() && r["outcome"]["kind"] == "at_least")
        .expect("a run ended below its job's bound");
    let index = lowered["index"].as_u64().unwrap().to_string();
    let below = lowered["task"]["below"].as_u64().unwrap();
    let tightened = lowered["tightened"].as_u64().unwrap();
    assert!(tightened < below, "{lowered}");
    assert_eq!(lowered["outcome"]["bound"], tightened, "{lowered}");
    let again = |flags: &[&str]| {
        json_of(
            moo()
                .args(["tree", "job", "--force", "--json", "--threads", "1"])
                .args(["--index", &index])
                .args(flags)
                .arg(&dir)
                .arg("-o")
                .arg(tmp.path().join("again.json")),
        )
    };
    let beside = again(&[]);
    assert_eq!(beside["tightened"], tightened, "{beside}");
    assert_eq!(beside["at_least"], tightened, "{beside}");
    // Alone, it proves its job's bound, or finds a tree no cheaper than the one beside it.
    let alone = again(&["--alone"]);
    assert!(alone["tightened"].is_null(), "{alone}");
    let proven = alone["at_least"].as_u64().map(|b| b >= below);
    let costlier = alone["total"].as_u64().map(|t| t >= tightened);
    assert!(proven.or(costlier) == Some(true), "{alone}");
}

/// A run directory is often unpacked from someone else's archive. A symbolic
/// link planted at a job's or a result's name is refused, never written through (the file it
/// leads to stays as it was), and a FIFO at a job's name is refused at once instead of blocking
/// the reader for ever; each error names the entry and what to do.
#[test]
fn links_and_fifos_in_a_run_directory_are_refused_not_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("jobs");
    split(&dir, &[]);
    let outside = tmp.path().join("outside.txt");
    std::fs::write(&outside, "not moo's").unwrap();
    let unchanged = || assert_eq!(std::fs::read_to_string(&outside).unwrap(), "not moo's");
    let refused = |args: &[&str], entry: &str, what: &str| {
        fails(
            moo().args(args).timeout(std::time::Duration::from_secs(60)),
            1,
            &[entry, what, "remove it"],
        );
    };
    let dir_arg = dir.to_str().unwrap();
    // The split written again over a job that is now a link.
    let job = dir.join("0003.job.json");
    std::fs::remove_file(&job).unwrap();
    std::os::unix::fs::symlink(&outside, &job).unwrap();
    let split_again = [
        "tree", "split", "--share", "100", "--length", "3", "--out", dir_arg,
    ];
    refused(&split_again, "0003.job.json", "symbolic link");
    unchanged();
    // A result's name that is a link, with and without --force.
    std::fs::remove_file(&job).unwrap();
    split(&dir, &[]);
    let result = dir.join("0002.result.json");
    std::os::unix::fs::symlink(&outside, &result).unwrap();
    let job_arg = dir.join("0002.job.json");
    for force in [false, true] {
        let mut args = vec!["tree", "job", job_arg.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        refused(&args, "0002.result.json", "symbolic link");
        unchanged();
    }
    // A FIFO at a job's name: refused, not waited on.
    std::fs::remove_file(&result).unwrap();
    std::fs::remove_file(&job).unwrap();
    nix::unistd::mkfifo(&job, nix::sys::stat::Mode::S_IRWXU).unwrap();
    refused(&split_again, "0003.job.json", "FIFO");
}

/// `moo tree status --verify` on `dir`: (succeeded, stdout, stderr).
fn verify(dir: &Path) -> (bool, String, String) {
    let out = moo()
        .args(["tree", "status", "--verify"])
        .arg(dir)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// A run directory checked as a whole: in progress and finished it verifies; a link, a stranger,
/// an edited job file and a result claiming what its job did not prove each fail it, named.
#[test]
fn status_verify_checks_the_whole_run_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("jobs");
    split(&dir, &[]);
    run_job(&dir, 0);
    let (ok, out, err) = verify(&dir);
    assert!(ok && out.contains("still without a result"), "{out}{err}");
    for index in 1..jobs(&dir) {
        run_job(&dir, index);
    }
    let (ok, out, err) = verify(&dir);
    assert!(ok && out.contains("3575 guesses in total"), "{out}{err}");
    assert!(out.contains("rests on"), "{out}");

    let planted = dir.join("0099.result.json");
    std::os::unix::fs::symlink("/etc/hostname", &planted).unwrap();
    let (ok, _, err) = verify(&dir);
    assert!(!ok && err.contains("symbolic link"), "{err}");
    std::fs::remove_file(&planted).unwrap();

    let stranger = dir.join("notes.txt");
    std::fs::write(&stranger, "hello").unwrap();
    let (ok, _, err) = verify(&dir);
    assert!(
        !ok && err.contains("no part of the run") && err.contains("notes.txt"),
        "{err}"
    );
    std::fs::remove_file(&stranger).unwrap();

    let job = dir.join("0002.job.json");
    let original = std::fs::read_to_string(&job).unwrap();
    std::fs::write(
        &job,
        original.replace("\"guesses\": \"all\"", "\"guesses\": \"consistent\""),
    )
    .unwrap();
    let (ok, _, err) = verify(&dir);
    assert!(
        !ok && err.contains("not the job the manifest holds"),
        "{err}"
    );
    std::fs::write(&job, &original).unwrap();

    // A result whose subtree claims one guess fewer than it takes.
    let result = dir.join("0003.result.json");
    let text = std::fs::read_to_string(&result).unwrap();
    let mut value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let total = value["outcome"]["total"].as_u64().unwrap();
    value["outcome"]["total"] = (total - 1).into();
    std::fs::write(&result, value.to_string()).unwrap();
    let (ok, _, err) = verify(&dir);
    assert!(!ok && err.contains("a result file is damaged"), "{err}");
    std::fs::write(&result, text).unwrap();
    assert!(verify(&dir).0);
}
