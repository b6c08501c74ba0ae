"""Optimal trees built through Python, and tree files read, verified, walked and written."""

import gzip
import json

import pytest

import moo
from conftest import TREES


def test_mastermind_optimum_5625_and_worst_case_5():
    reports = []
    tree = moo.build_tree("mastermind", progress=reports.append)
    stats = tree.stats
    assert (stats.total, stats.secrets) == (5625, 1296)
    assert sum(stats.histogram) == 1296
    worst = moo.build_tree("mastermind", objective="worst")
    assert worst.stats.max == 5
    for report in reports:
        assert set(report) == {"nodes", "cached", "parts_solved", "bound", "seconds"}


def test_bulls_and_cows_optimum_26274_worst_7():
    tree = moo.build_tree("bulls")
    assert (tree.stats.total, tree.stats.max) == (26274, 7)
    assert moo.build_tree("bulls", objective="worst").stats.max == 7
    with pytest.raises(moo.SearchError, match="within 6 guesses"):
        moo.build_tree("bulls", objective="worst", max_depth=6)


def test_walking_a_tree_finds_every_secret_as_its_figures_say():
    tree = moo.build_tree("mastermind")
    space = moo.CodeSpace("mastermind")
    lengths = [len(tree.play(secret)) for secret in space.codes()]
    assert sum(lengths) == tree.stats.total
    histogram = [lengths.count(k) for k in range(1, max(lengths) + 1)]
    assert histogram == tree.stats.histogram
    # The walk by answers agrees with the walk by secrets.
    guesses = tree.play("6543")
    history = [(g, moo.score(g, "6543", "mastermind")) for g in guesses[:-1]]
    assert tree.next_guess(history) == guesses[-1]
    assert tree.next_guess(history + [(guesses[-1], "4B0C")]) is None
    node = tree.root
    for guess, answer in history:
        assert node.guess == guess
        node = node.child(answer)
    assert node.guess == guesses[-1]
    assert all(isinstance(f, moo.Feedback) for f, _ in tree.root.children)
    assert tree.root.child((0, 0)) is not None or len(tree.root.children) > 0
    with pytest.raises(moo.TreeError, match="plays"):
        tree.next_guess([("6666", "0B0C")])


def test_strategy_trees_have_the_strategies_figures():
    knuth = moo.strategy_tree("mastermind", "knuth")
    assert (knuth.stats.total, knuth.stats.max) == (5801, 5)
    assert knuth.root.guess == "1122"
    with pytest.raises(moo.EvalError):
        moo.strategy_tree("mastermind", "random")


def test_json_round_trip_and_files(tmp_path):
    tree = moo.strategy_tree("mastermind", "knuth")
    again = moo.Tree.from_json(tree.to_json())
    assert again.to_json() == tree.to_json() and again.stats.total == 5801
    assert json.loads(tree.to_json(pretty=True))["rules"]["symbols"] == "123456"
    path = tmp_path / "knuth.json"
    tree.save(path)
    assert moo.Tree.load(path).stats.total == 5801
    packed = tmp_path / "knuth.json.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert moo.Tree.load(str(packed)).stats.total == 5801
    assert len(tree) > 0 and "5801" in repr(tree) and tree.render(1)


@pytest.mark.parametrize(
    "name, total",
    [("bulls-4x10-average.json", 26274), ("mastermind-4x7-average.json", 11228),
     ("mastermind-4x8-average.json", 20471)],
)
def test_shipped_trees_verify_with_the_published_totals(name, total):
    tree = moo.Tree.load(TREES / name)
    assert tree.verify().total == total == tree.stats.total


def test_gzipped_shipped_tree_loads():
    tree = moo.Tree.load(TREES / "bulls-5x9-average.json.gz")
    assert tree.rules.length == 5 and tree.stats.secrets == 15120


def test_bad_trees_are_refused(tmp_path):
    with pytest.raises(moo.TreeError, match="not a decision tree"):
        moo.Tree.from_json("{}")
    knuth = json.loads(moo.strategy_tree("mastermind", "knuth").to_json())
    knuth["root"]["children"].pop(next(iter(knuth["root"]["children"])))
    with pytest.raises(moo.TreeError):
        moo.Tree.from_json(json.dumps(knuth))
    with pytest.raises(moo.TreeError, match="cannot read"):
        moo.Tree.load(tmp_path / "missing.json")
    (tmp_path / "binary.json").write_bytes(b"\xff\xfe\x00")
    with pytest.raises(moo.TreeError, match="neither"):
        moo.Tree.load(tmp_path / "binary.json")
    with pytest.raises(moo.ArgumentError, match="objective"):
        moo.build_tree("mastermind", objective="best")
