"""The game as a Gymnasium environment, for reinforcement-learning experiments.

One line starts one (the module registers the environments when Gymnasium imports it)::

    env = gymnasium.make("moo.env:moo/BullsAndCows-v0")

The agent is the code breaker. An action is a code's index in the game's code space (every
code may be guessed, as in the real game); the observation is the history so far as a
``(max_turns, length + 2)`` integer array, one row per turn (the guess's symbol indexes, then
bulls and cows), unplayed rows all ``-1``. Every guess costs a reward of ``-1``, so an
episode's return is minus the guesses used; it ends when the secret is found, and is truncated
after ``max_turns`` guesses. ``info`` carries the answer as text and how many codes are still
possible. ``env.unwrapped.optimal_average()`` is moo's exact optimum for the game (the fewest
guesses on average), the number an agent's mean episode length can be held against.

Needs the ``gym`` extra: ``pip install 'moo-py[gym]'``.
"""

from __future__ import annotations

from typing import Any, Optional, Union

import gymnasium
import numpy as np
from gymnasium import spaces

import moo

__all__ = ["MooEnv"]


class MooEnv(gymnasium.Env):
    """Bulls and Cows, Mastermind or any game of the family, with the agent guessing.

    ``rules`` is a :class:`moo.Rules` or a preset's name; ``max_turns`` is the guess cap (by
    default 12, more than any optimal strategy needs on the presets); ``render_mode="ansi"``
    renders the history as text.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        rules: Union[moo.Rules, str] = "bulls",
        max_turns: int = 12,
        render_mode: Optional[str] = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise moo.ArgumentError(
                f"render_mode must be None or 'ansi', not {render_mode!r}"
            )
        if max_turns < 1:
            raise moo.ArgumentError(f"max_turns must be at least 1, not {max_turns}")
        self.rules = rules if isinstance(rules, moo.Rules) else moo.Rules.preset(rules)
        self.space = moo.CodeSpace(self.rules)
        self.codes = self.space.codes()
        self.max_turns = max_turns
        self.render_mode = render_mode
        self._symbol = {s: i for i, s in enumerate(self.rules.symbols)}
        length = self.rules.length
        high = max(len(self.rules.symbols) - 1, length)
        self.action_space = spaces.Discrete(len(self.codes))
        self.observation_space = spaces.Box(
            low=-1, high=high, shape=(max_turns, length + 2), dtype=np.int64
        )
        self._secret = 0
        self._history: list[tuple[str, moo.Feedback]] = []

    def code(self, action: int) -> str:
        """The code an action guesses."""
        return self.codes[int(action)]

    def action(self, code: str) -> int:
        """The action that guesses ``code``."""
        return self.space.index(code)

    def optimal_average(self) -> float:
        """The fewest guesses any strategy needs on average over every secret, as moo proves it
        (from a shipped optimal tree, or a search on the spot for small games)."""
        return moo.evaluate(self.rules, "optimal").average

    def _observation(self) -> np.ndarray:
        obs = np.full(self.observation_space.shape, -1, dtype=np.int64)
        for row, (guess, answer) in enumerate(self._history):
            obs[row, :-2] = [self._symbol[s] for s in guess]
            obs[row, -2:] = (answer.bulls, answer.cows)
        return obs

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[dict[str, Any]] = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Starts a game with a secret drawn uniformly (``options={"secret": "1234"}`` fixes
        it)."""
        super().reset(seed=seed)
        if options and "secret" in options:
            self._secret = self.space.index(options["secret"])
        else:
            self._secret = int(self.np_random.integers(len(self.codes)))
        self._history = []
        return self._observation(), {"candidates": len(self.codes)}

    def step(
        self, action: int
    ) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """Guesses the code ``action`` indexes."""
        if not self.action_space.contains(action):
            raise moo.ArgumentError(
                f"an action is a code index from 0 to {len(self.codes) - 1}, not {action!r}"
            )
        if len(self._history) >= self.max_turns:
            raise moo.ArgumentError("the episode is over: call reset() to start another")
        guess = self.codes[int(action)]
        answer = moo.score(guess, self.codes[self._secret], self.rules)
        self._history.append((guess, answer))
        won = answer.is_win(self.rules.length)
        truncated = not won and len(self._history) >= self.max_turns
        info = {
            "feedback": str(answer),
            "candidates": len(self.space.candidates(self._history)),
        }
        if won or truncated:
            info["secret"] = self.codes[self._secret]
        return self._observation(), -1.0, won, truncated, info

    def render(self) -> Optional[str]:
        """The history as text, one turn a line (``render_mode="ansi"``)."""
        if self.render_mode != "ansi":
            return None
        return "".join(f"{i + 1:>2}. {g} {a}\n" for i, (g, a) in enumerate(self._history))


gymnasium.register(
    id="moo/BullsAndCows-v0",
    entry_point="moo.env:MooEnv",
    kwargs={"rules": "bulls"},
)
gymnasium.register(
    id="moo/Mastermind-v0",
    entry_point="moo.env:MooEnv",
    kwargs={"rules": "mastermind"},
)
