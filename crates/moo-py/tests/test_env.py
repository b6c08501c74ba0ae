"""The Gymnasium environment."""

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import moo
import moo.env


@pytest.mark.parametrize("env_id", ["moo/BullsAndCows-v0", "moo/Mastermind-v0"])
def test_passes_the_gymnasium_checker(env_id):
    env = gymnasium.make(env_id)
    check_env(env.unwrapped, skip_render_check=False)


def test_one_line_start_and_an_episode_against_the_optimum():
    env = gymnasium.make("moo.env:moo/BullsAndCows-v0", render_mode="ansi")
    inner = env.unwrapped
    assert inner.optimal_average() == pytest.approx(26274 / 5040)
    strategy = moo.Strategy("optimal", "bulls")
    returns = []
    for episode in range(20):
        obs, info = env.reset(seed=episode)
        assert info["candidates"] == 5040 and np.all(obs == -1)
        history, done, total = [], False, 0.0
        while not done:
            guess = strategy.next_guess(history)
            obs, reward, terminated, truncated, info = env.step(inner.action(guess))
            history.append((guess, info["feedback"]))
            total += reward
            done = terminated or truncated
        assert terminated and info["candidates"] == 1 and info["secret"] == guess
        row = obs[len(history) - 1]
        assert list(row[-2:]) == [4, 0]
        assert "".join(inner.rules.symbols[i] for i in row[:-2]) == guess
        assert env.render().count("\n") == len(history)
        returns.append(total)
    assert -np.mean(returns) <= 7 and min(returns) >= -7


def test_truncation_and_refusals():
    env = moo.env.MooEnv("mastermind", max_turns=2)
    env.reset(seed=1, options={"secret": "6543"})
    _, _, terminated, truncated, _ = env.step(env.action("1111"))
    assert not terminated and not truncated
    _, _, terminated, truncated, info = env.step(env.action("2222"))
    assert truncated and not terminated and info["secret"] == "6543"
    with pytest.raises(moo.ArgumentError, match="reset"):
        env.step(0)
    env.reset()
    with pytest.raises(moo.ArgumentError, match="code index"):
        env.step(1296)
    with pytest.raises(moo.ArgumentError, match="max_turns"):
        moo.env.MooEnv(max_turns=0)
