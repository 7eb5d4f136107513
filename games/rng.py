"""Randomness for every deal (RULINGS G4).

Engines never touch the module-level ``random``: an ``Rng`` is passed in. Production uses
``SystemRng`` (the OS CSPRNG through ``secrets``); tests and replays use ``SeededRng``.
Shuffling is Fisher-Yates with unbiased integers (``randbelow`` is rejection-sampled by both
implementations), so every permutation is equally likely.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")


class Rng(Protocol):
    """Source of uniform integers; the only randomness an engine may use."""

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in [0, n)."""
        ...


class SystemRng:
    """The OS CSPRNG: production deals."""

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in [0, n) from ``secrets``."""
        return secrets.randbelow(n)


class SeededRng:
    """A reproducible generator for tests, bots and replays (never for real deals)."""

    def __init__(self, seed: int | str) -> None:
        self._random = random.Random(seed)

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in [0, n) from the seeded Mersenne Twister."""
        return self._random.randrange(n)


def shuffled(items: Sequence[T], rng: Rng) -> list[T]:
    """Return a new list with the items in a uniformly random order (Fisher-Yates)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.randbelow(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def choice(items: Sequence[T], rng: Rng) -> T:
    """Return one item chosen uniformly."""
    if not items:
        raise ValueError("choice from an empty sequence")
    return items[rng.randbelow(len(items))]
