"""Python against Rust, side by side in one run: the issue's two speed figures.

    python crates/moo-py/bench/compare.py [--rounds 7]

1. Evaluating `entropy` over all 5040 Bulls and Cows secrets: `moo.evaluate` against
   `moo bench --strategy entropy` (target/release/moo, or $MOO_BIN), alternating, the
   evaluation's time as each reports it (goal: ratio <= 1.1), then each as a whole process.
2. The full 5040 x 5040 score table: `CodeSpace.scores()` from Python against the criterion
   benchmark `score/bulls/every pair` of the same Rust function, run just before it
   (goal: ratio <= 2).
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time
import timeit

REPO = pathlib.Path(__file__).resolve().parents[3]


def whole_process(command):
    start = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def entropy(rounds, moo_bin):
    """The evaluation's own time, each side's report of it, alternating in one run; then the
    same as whole processes, Python's start-up included."""
    import moo

    cli = [moo_bin, "bench", "--strategy", "entropy", "--json"]
    moo.CodeSpace("bulls")
    py_eval, cli_eval = [], []
    for _ in range(rounds):
        py_eval.append(moo.evaluate("bulls", "entropy").seconds)
        out = subprocess.run(cli, check=True, capture_output=True, text=True).stdout
        cli_eval.append(json.loads(out)["results"][0]["seconds"])
    py, rust = statistics.median(py_eval), statistics.median(cli_eval)
    print(f"entropy over 5040 secrets, the evaluation: python {py * 1000:.1f} ms, moo bench "
          f"{rust * 1000:.1f} ms (medians of {rounds}), ratio {py / rust:.3f} (goal <= 1.1)")
    python = [sys.executable, "-c", "import moo; moo.evaluate('bulls', 'entropy')"]
    py_times, cli_times = [], []
    for _ in range(rounds):
        py_times.append(whole_process(python))
        cli_times.append(whole_process(cli))
    py, rust = statistics.median(py_times), statistics.median(cli_times)
    print(f"the same as whole processes: python {py * 1000:.1f} ms, moo bench {rust * 1000:.1f} ms, "
          f"ratio {py / rust:.3f} (Python's own start-up included)")


def scoring(rounds):
    subprocess.run(
        ["cargo", "bench", "-q", "-p", "moo-core", "--bench", "scoring", "--", "bulls/every pair"],
        cwd=REPO, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", REPO / "target"))
    estimates = target / "criterion" / "score" / "bulls_every pair" / "new" / "estimates.json"
    rust = json.loads(estimates.read_text())["median"]["point_estimate"] / 1e9
    import moo

    space = moo.CodeSpace("bulls")
    space.scores()
    per_call = [t / 10 for t in timeit.repeat(space.scores, number=10, repeat=rounds)]
    py = statistics.median(per_call)
    print(f"5040 x 5040 score table: python {py * 1000:.2f} ms, criterion {rust * 1000:.2f} ms, "
          f"ratio {py / rust:.3f} (goal <= 2)")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7, help="runs of each side")
    args = parser.parse_args()
    moo_bin = os.environ.get("MOO_BIN", str(REPO / "target" / "release" / "moo"))
    entropy(args.rounds, moo_bin)
    scoring(args.rounds)


if __name__ == "__main__":
    main()
