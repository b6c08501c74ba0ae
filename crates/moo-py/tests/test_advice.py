"""The advisor (hints with their proof status) and the review of a game."""

import pytest

import moo
from conftest import play_out


def test_the_first_hint_is_proven_with_the_published_optimum():
    hint = moo.hint("bulls")
    assert hint.remaining == 5040 and not hint.won and hint.contradiction is None
    advice = hint.advice
    assert advice.proven_optimal and advice.total_guesses == 26274
    assert moo.Rules.preset("bulls").is_code(advice.guess)
    assert moo.hint("mastermind").advice.total_guesses == 5625
    assert "Advice(guess=" in repr(advice) and advice.explanation == str(advice)


def test_hints_after_a_history():
    hint = moo.hint("bulls", [("0123", "1B1C")], list=5)
    assert hint.remaining == len(moo.candidates("bulls", [("0123", "1B1C")]))
    assert len(hint.candidates) == 5
    assert hint.advice.proven_optimal and hint.advice.remaining == hint.remaining
    won = moo.hint("bulls", [("0123", "4B0C")])
    assert won.won and won.advice is None
    broken = moo.hint("bulls", [("0123", "0B0C"), ("4567", "0B0C"), ("8901", "0B0C")])
    assert broken.advice is None and "wrong" in broken.contradiction
    named = moo.hint("mastermind", [("1122", "1B0C")], strategy="knuth")
    assert named.advice.strategy == "knuth" and not named.advice.proven_optimal
    hard = moo.hint("mastermind", [("1122", "1B0C")], guesses="consistent")
    assert hard.advice.is_candidate


def test_a_separate_advisor_and_a_time_limit():
    advisor = moo.Advisor()
    rules = moo.Rules(5, "0123456789")
    hint = advisor.hint(rules, time_limit=0.5)
    assert not hint.advice.proven_optimal and hint.advice.note
    assert hint.advice.seconds < 5
    with pytest.raises(moo.ArgumentError, match="time_limit"):
        advisor.hint("bulls", time_limit=-2)


def test_an_optimal_game_reviews_as_costing_nothing():
    history = play_out(moo.Strategy("optimal", "bulls"), "bulls", "9876")
    review = moo.review("bulls", history)
    assert review.won and review.guesses_played == len(history)
    assert review.proven and review.total_cost == pytest.approx(0, abs=1e-9)
    assert review.optimal_expected == pytest.approx(26274 / 5040)
    assert all(m.is_best and m.proven for m in review.moves)
    assert all(m.verdict == "best" and not m.verdict_estimated for m in review.moves)
    assert [m.guess for m in review.moves] == [g for g, _ in history]
    assert review.summary == str(review) and "<table>" in review._repr_html_()


def test_a_poor_first_move_costs_guesses():
    history = play_out(moo.Strategy("simple", "mastermind"), "mastermind", "6543")
    review = moo.review("mastermind", history)
    first = review.moves[0]
    assert first.guess == "1111" and not first.is_best and first.proven
    assert first.cost > 0.3 and first.cost == pytest.approx(
        first.expected_after_guess - first.expected_after_best
    )
    assert review.total_cost == pytest.approx(sum(m.cost for m in review.moves))
    assert first.left >= 0 and first.expected_left > 0
    assert "MoveReview(turn=1" in repr(first)


def test_review_refusals():
    with pytest.raises(moo.ReviewError):
        moo.review("bulls", [("0123", "4B0C"), ("4567", "0B0C")])
    broken = moo.review("bulls", [("0123", "0B0C"), ("4567", "0B0C"), ("8901", "0B0C")])
    assert broken.moves == [] and "wrong" in broken.contradiction
