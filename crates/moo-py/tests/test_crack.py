"""The long-code oracle and crackers."""

import random

import pytest

import moo


def test_the_oracle_answers_and_counts():
    oracle = moo.Oracle("abcab", symbols="abc")
    assert oracle.ask("abcab") == (5, 0)
    assert oracle.ask("babca") == (0, 5)
    assert oracle.ask("ccccc") == (1, 0)
    assert oracle.queries == 3 and oracle.length == 5
    assert "queries=3" in repr(oracle)


@pytest.mark.parametrize("method", ["intervals", "exact"])
def test_crackers_find_long_secrets(method):
    rng = random.Random(11)
    secret = "".join(rng.choice(moo.TEXT_SYMBOLS) for _ in range(300))
    oracle = moo.Oracle(secret)
    assert moo.crack(oracle, method=method) == secret
    assert 0 < oracle.queries < 2000


def test_distinct_secrets_and_the_genetic_baseline():
    secret = "qwertyuiop"
    oracle = moo.Oracle(secret, symbols="abcdefghijklmnopqrstuvwxyz", repeats=False)
    assert moo.crack(oracle) == secret
    ga = moo.Oracle("hello", symbols="ehlo")
    found = moo.crack(ga, method="ga", seed=2)
    assert len(found) == 5 and ga.queries > 0


def test_oracle_refusals():
    with pytest.raises(moo.CrackError, match="not in the alphabet"):
        moo.Oracle("hello!", symbols="ehlo")
    with pytest.raises(moo.CrackError):
        moo.Oracle("aa", symbols="ab", repeats=False)
    oracle = moo.Oracle("abc", symbols="abc")
    with pytest.raises(moo.CrackError):
        oracle.ask("ab")
    with pytest.raises(moo.ArgumentError, match="intervals"):
        moo.crack(oracle, method="guess")
