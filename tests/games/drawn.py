"""Randomness that Hypothesis draws itself, so that a failing case shrinks.

A property test that draws only a seed cannot shrink: the seed's neighbours are unrelated games.
``rngs()`` gives an ``Rng`` whose every ``randbelow`` is a Hypothesis choice
(``st.randoms(use_true_random=False)``): a failure is replayed and shrunk draw by draw, towards
the smallest choices (the first card, the first legal action).
"""

from __future__ import annotations

import random

from hypothesis import strategies as st


class DrawnRng:
    """The engines' ``Rng`` (``randbelow``) over a Hypothesis-controlled ``random.Random``."""

    def __init__(self, source: random.Random) -> None:
        self._source = source

    def randbelow(self, n: int) -> int:
        return self._source.randrange(n)  # ValueError for n <= 0, as SeededRng

    def __repr__(self) -> str:
        return f"DrawnRng({self._source!r})"


def rngs() -> st.SearchStrategy[DrawnRng]:
    return st.randoms(use_true_random=False).map(DrawnRng)
