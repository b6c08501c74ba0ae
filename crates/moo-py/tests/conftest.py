"""Shared helpers of the Python suite: where the repository's files are, and the CLI to compare
with."""

import os
import pathlib
import shutil

import pytest

REPO = pathlib.Path(__file__).resolve().parents[3]
TREES = REPO / "crates" / "moo-core" / "trees"


@pytest.fixture(scope="session")
def moo_cli():
    """The `moo` binary, to compare answers with: $MOO_BIN, else target/release/moo. Required
    under CI, where the suite runs after the release build."""
    candidates = [os.environ.get("MOO_BIN"), str(REPO / "target" / "release" / "moo"), shutil.which("moo")]
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    if os.environ.get("CI"):
        pytest.fail("the moo binary is missing: build it (cargo build --release) or set MOO_BIN")
    pytest.skip("the moo binary is not built (cargo build --release)")


def play_out(strategy, rules, secret):
    """The history of `strategy` (a moo.Strategy) playing against `secret` until it wins."""
    import moo

    rules = rules if isinstance(rules, moo.Rules) else moo.Rules.preset(rules)
    history = []
    while not history or not history[-1][1].is_win(rules.length):
        guess = strategy.next_guess(history)
        history.append((guess, rules.score(guess, secret)))
    return history
