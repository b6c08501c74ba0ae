"""Strategies and evaluation over every secret, with the published figures computed through
Python."""

import json
import subprocess
import threading
import time
import _thread

import pytest

import moo
from conftest import play_out


def test_every_strategy_is_listed_and_plays_a_game():
    infos = moo.strategies()
    names = [i.name for i in infos]
    assert {"knuth", "entropy", "optimal", "random", "simple"} <= set(names)
    for info in infos:
        assert info.about and info.cost in {"instant", "lookahead", "exact", "blind"}
        strategy = moo.Strategy(info.name, "mastermind", seed=1)
        assert strategy.name == info.name and strategy.deterministic == info.deterministic
        history = play_out(strategy, "mastermind", "6543")
        assert history[-1] == ("6543", moo.Feedback(4, 0))


def test_strategy_refusals():
    with pytest.raises(moo.StrategyError, match="choose one of"):
        moo.Strategy("nope", "bulls")
    with pytest.raises(moo.StrategyError, match="choose one of"):
        moo.evaluate("bulls", "nope")
    knuth = moo.Strategy("knuth", "mastermind")
    with pytest.raises(moo.StrategyError, match="already won"):
        knuth.next_guess([("1122", "4B0C")])
    with pytest.raises(moo.StrategyError, match="must be wrong"):
        knuth.next_guess([("1122", "0B0C"), ("3344", "0B0C"), ("5566", "0B0C")])
    with pytest.raises(moo.ArgumentError, match="consistent"):
        moo.Strategy("knuth", "mastermind", guesses="some")


def test_knuth_5801_never_more_than_5():
    e = moo.evaluate("mastermind", "knuth")
    assert (e.total, e.max, e.secrets, e.gave_up) == (5801, 5, 1296, 0)
    assert sum(e.histogram) == 1296 and e.deterministic
    assert abs(e.average - 5801 / 1296) < 1e-12
    assert "5801" in repr(e) and "<table>" in e._repr_html_()


def test_bulls_optimal_26274_and_mastermind_optimal_5625():
    assert moo.evaluate("bulls", "optimal").total == 26274
    assert moo.evaluate("mastermind", "optimal").total == 5625


def test_evaluation_matches_moo_bench(moo_cli):
    for strategy in ["entropy", "expected-size", "most-parts"]:
        out = subprocess.run(
            [moo_cli, "bench", "--strategy", strategy, "--json"],
            check=True, capture_output=True, text=True,
        ).stdout
        cli = json.loads(out)["results"][0]
        e = moo.evaluate("bulls", strategy)
        assert (e.total, e.max, e.histogram, e.gave_up) == (
            cli["total"], cli["max"], cli["histogram"], cli["gave_up"]
        ), strategy


def test_sample_seed_guess_cap_and_progress():
    seen = []
    e = moo.evaluate("bulls", "random", seed=3, progress=seen.append)
    assert e.games == 5040 and not e.deterministic
    again = moo.evaluate("bulls", "random", seed=3)
    assert again.histogram == e.histogram
    sampled = moo.evaluate("bulls", "entropy", sample=100, seed=9)
    assert sampled.secrets == 100 and sum(sampled.histogram) == 100
    capped = moo.evaluate("mastermind", "simple", max_guesses=3)
    assert capped.gave_up > 0 and len(capped.histogram) <= 3
    slow = []
    moo.evaluate("bulls", "cows", progress=slow.append)
    for report in seen + slow:
        assert set(report) == {"done", "total", "seconds"}
        assert 0 <= report["done"] <= report["total"] == 5040


def test_a_time_limit_stops_an_evaluation():
    with pytest.raises(moo.EvalError):
        moo.evaluate(moo.Rules(5, "0123456789"), "entropy", time_limit=0.2)
    with pytest.raises(moo.ArgumentError, match="time_limit"):
        moo.evaluate("bulls", "entropy", time_limit=-1)
    with pytest.raises(moo.ArgumentError, match="time_limit"):
        moo.evaluate("bulls", "entropy", time_limit=float("nan"))


def test_an_error_in_the_progress_callback_stops_the_work_and_is_raised():
    def fail(report):
        raise RuntimeError("stop here")

    start = time.monotonic()
    with pytest.raises(RuntimeError, match="stop here"):
        moo.evaluate(moo.Rules(5, "0123456789"), "entropy", progress=fail)
    assert time.monotonic() - start < 10


def test_ctrl_c_stops_long_work_cleanly():
    # interrupt_main is what a Ctrl-C does: it sets the signal the waiting thread checks.
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    start = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        moo.evaluate(moo.Rules(5, "0123456789"), "entropy")
    assert time.monotonic() - start < 10
    # Nothing is left half-done: the next call answers as before.
    assert moo.evaluate("mastermind", "knuth").total == 5801


def test_the_lock_is_released_during_long_work():
    ticks = 0
    done = threading.Event()

    def count():
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    try:
        start = time.monotonic()
        moo.evaluate("bulls", "random", seed=1)
        moo.evaluate("bulls", "cows")
        seconds = time.monotonic() - start
    finally:
        done.set()
        counter.join()
    # Python's other thread ran throughout: at least a tick every 20 ms of the work.
    assert ticks >= seconds / 0.02, (ticks, seconds)
