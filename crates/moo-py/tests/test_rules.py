"""Rules, answers, code spaces, vectorised scoring and candidate filtering."""

import itertools
import random

import numpy as np
import pytest

import moo


def test_presets_and_rules():
    assert moo.presets() == ["bulls", "mastermind"]
    bulls = moo.Rules.preset("bulls")
    assert bulls == moo.Rules(4, "0123456789")
    assert hash(bulls) == hash(moo.Rules(4, "0123456789"))
    assert bulls.size == 5040 and bulls.length == 4 and not bulls.repeats
    mastermind = moo.Rules.preset("mastermind")
    assert mastermind.size == 1296 and mastermind.repeats and mastermind.symbols == "123456"
    assert moo.Rules(4, "0123456789", no_leading=True).size == 4536
    assert repr(bulls) == "Rules(length=4, symbols='0123456789', repeats=False, no_leading=False)"
    assert eval(repr(mastermind), {"Rules": moo.Rules}) == mastermind
    assert "4 distinct symbols" in str(bulls)
    assert bulls.feedback_slots == 25


def test_scoring_known_answers():
    assert moo.score("1234", "1243") == moo.Feedback(2, 2)
    assert moo.score("1234", "5678") == moo.Feedback(0, 0)
    assert moo.score("1122", "1212", "mastermind") == moo.Feedback(2, 2)
    assert moo.score("1111", "1123", "mastermind") == moo.Feedback(2, 0)
    assert moo.score("6543", "3456", moo.Rules.preset("mastermind")) == moo.Feedback(0, 4)


def test_feedback_forms():
    f = moo.Feedback.parse("1B2C", 4)
    assert (f.bulls, f.cows) == (1, 2) and tuple(f) == (1, 2)
    assert moo.Feedback.parse("12", 4) == f and moo.Feedback.parse("1b2c", 4) == f
    assert str(f) == "1B2C" and repr(f) == "Feedback(bulls=1, cows=2)"
    assert moo.Feedback.from_index(f.index(4), 4) == f
    assert moo.Feedback(4, 0).is_win(4) and not f.is_win(4)
    assert sorted([moo.Feedback(1, 0), moo.Feedback(0, 3)]) == [moo.Feedback(0, 3), moo.Feedback(1, 0)]
    assert len({moo.Feedback(1, 2), moo.Feedback.parse("1B2C", 4)}) == 1
    with pytest.raises(moo.FeedbackError, match="at most 4"):
        moo.Feedback.parse("3B2C", 4)


def test_codes_checked():
    bulls = moo.Rules.preset("bulls")
    assert bulls.is_code("0123") and not bulls.is_code("0012")
    with pytest.raises(moo.CodeError, match="5 symbols"):
        bulls.check("01234")
    with pytest.raises(moo.CodeError):
        moo.score("0012", "1234")
    assert bulls.random_code(seed=7) == bulls.random_code(seed=7)
    assert bulls.is_code(bulls.random_code())


def test_code_space():
    space = moo.CodeSpace("bulls")
    assert len(space) == 5040
    codes = space.codes()
    assert codes[0] == "0123" and codes[-1] == "9876"
    assert space.code(space.index("4721")) == "4721"
    assert space.index("0124") == 1
    assert space.rules == moo.Rules.preset("bulls")
    with pytest.raises(moo.CodeError, match="out of range"):
        space.code(5040)
    assert "5040 codes" in repr(space)


@pytest.mark.parametrize("preset", ["bulls", "mastermind"])
def test_vectorised_scores_agree_with_scoring_one_pair(preset):
    space = moo.CodeSpace(preset)
    rules = space.rules
    codes = space.codes()
    rng = random.Random(5)
    guesses = rng.sample(range(len(codes)), 60)
    secrets = rng.sample(range(len(codes)), 70)
    table = space.scores(guesses, secrets)
    assert table.shape == (60, 70) and table.dtype == np.uint8
    for i, g in enumerate(guesses):
        for j, s in enumerate(secrets):
            expected = rules.score(codes[g], codes[s])
            assert moo.Feedback.from_index(int(table[i, j]), rules.length) == expected
    # Codes as text and as a NumPy array of indexes give the same table.
    by_text = space.scores([codes[g] for g in guesses], [codes[s] for s in secrets])
    by_array = space.scores(np.array(guesses), np.array(secrets, dtype=np.int32))
    assert np.array_equal(table, by_text) and np.array_equal(table, by_array)


def test_full_table_is_symmetric_with_wins_on_the_diagonal():
    space = moo.CodeSpace("bulls")
    table = space.scores()
    assert table.shape == (5040, 5040)
    assert np.array_equal(table, table.T)
    win = moo.Feedback(4, 0).index(4)
    assert np.all(np.diag(table) == win)
    assert np.count_nonzero(table == win) == 5040
    # 14 answers are possible in Bulls and Cows (3B1C never is).
    assert len(np.unique(table)) == 14


def test_empty_and_bad_code_lists():
    space = moo.CodeSpace("mastermind")
    assert space.scores([], None).shape == (0, 1296)
    with pytest.raises(moo.CodeError, match="out of range"):
        space.scores([1296])
    with pytest.raises(moo.CodeError, match="out of range"):
        space.scores([-1])
    with pytest.raises(moo.ArgumentError, match="list of codes"):
        space.scores("1234")
    with pytest.raises(moo.ArgumentError, match="text or indexes"):
        space.scores([1.5])


def test_candidates_match_a_filter_of_the_table():
    space = moo.CodeSpace("bulls")
    codes = np.array(space.codes())
    table = space.scores()
    history = [("0123", "1B1C"), ("4567", (0, 1)), ("8901", moo.Feedback(0, 2))]
    keep = np.ones(len(codes), dtype=bool)
    for guess, answer in history:
        f = answer if isinstance(answer, moo.Feedback) else None
        f = f or (moo.Feedback(*answer) if isinstance(answer, tuple) else moo.Feedback.parse(answer, 4))
        keep &= table[space.index(guess)] == f.index(4)
    assert moo.candidates("bulls", history) == list(codes[keep])
    assert space.candidates(history) == list(codes[keep])
    assert moo.candidates("bulls", []) == list(codes)


def test_histories_refused_with_the_turn_named():
    with pytest.raises(moo.CodeError, match="turn 2"):
        moo.candidates("bulls", [("0123", "0B0C"), ("12345", "1B0C")])
    with pytest.raises(moo.FeedbackError, match="turn 1"):
        moo.candidates("bulls", [("0123", "5B0C")])
    with pytest.raises(moo.ArgumentError, match="pair"):
        moo.candidates("bulls", [("0123",)])
    with pytest.raises(moo.ArgumentError, match="list of"):
        moo.candidates("bulls", "0123 1B1C")
    with pytest.raises(moo.ArgumentError, match="preset"):
        moo.candidates(4, [])
    with pytest.raises(moo.RulesError, match="bulls, mastermind"):
        moo.Rules.preset("chess")


def test_every_pair_of_a_small_game_scores_like_the_rules_say():
    # An independent scorer written from the rules: bulls in place, then common symbols.
    rules = moo.Rules(3, "abcd", repeats=True)
    space = rules.space()
    codes = space.codes()
    table = space.scores()
    for (i, g), (j, s) in itertools.product(enumerate(codes), enumerate(codes)):
        bulls = sum(a == b for a, b in zip(g, s))
        common = sum(min(g.count(c), s.count(c)) for c in set(g))
        assert moo.Feedback.from_index(int(table[i, j]), 3) == moo.Feedback(bulls, common - bulls)
