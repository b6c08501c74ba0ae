"""moo for Python: Bulls and Cows and Mastermind, from scoring to proven optimal strategies.

Everything here runs moo's Rust engine (the same code as the ``moo`` command line), so the
figures are the ones the CLI prints: Knuth's 5801 guesses over Mastermind's 1296 secrets,
the optimal 26274 over Bulls and Cows' 5040, and so on.

    >>> import moo
    >>> moo.score("1234", "1243")
    Feedback(bulls=2, cows=2)
    >>> moo.evaluate("mastermind", "knuth").total
    5801

Rules are a :class:`Rules` or a preset's name (``"bulls"``, ``"mastermind"``); a history is a
list of ``(guess, answer)`` pairs whose answers are :class:`Feedback` objects, text such as
``"1B2C"``, or ``(bulls, cows)`` tuples. Every error is a :class:`MooError`. The Gymnasium
environment is in :mod:`moo.env` (``pip install moo-py[gym]``).
"""

from moo._moo import (
    TEXT_SYMBOLS,
    Advice,
    AdviceError,
    Advisor,
    ArgumentError,
    CodeError,
    CodeSpace,
    CrackError,
    EvalError,
    Evaluation,
    Feedback,
    FeedbackError,
    Hint,
    MooError,
    MoveReview,
    Node,
    Oracle,
    Review,
    ReviewError,
    Rules,
    RulesError,
    SearchError,
    SpaceError,
    Strategy,
    StrategyError,
    StrategyInfo,
    Tree,
    TreeError,
    TreeStats,
    __version__,
    build_tree,
    candidates,
    crack,
    evaluate,
    hint,
    presets,
    review,
    score,
    strategies,
    strategy_tree,
)

__all__ = [
    "TEXT_SYMBOLS",
    "Advice",
    "AdviceError",
    "Advisor",
    "ArgumentError",
    "CodeError",
    "CodeSpace",
    "CrackError",
    "EvalError",
    "Evaluation",
    "Feedback",
    "FeedbackError",
    "Hint",
    "MooError",
    "MoveReview",
    "Node",
    "Oracle",
    "Review",
    "ReviewError",
    "Rules",
    "RulesError",
    "SearchError",
    "SpaceError",
    "Strategy",
    "StrategyError",
    "StrategyInfo",
    "Tree",
    "TreeError",
    "TreeStats",
    "__version__",
    "build_tree",
    "candidates",
    "crack",
    "evaluate",
    "hint",
    "presets",
    "review",
    "score",
    "strategies",
    "strategy_tree",
]
