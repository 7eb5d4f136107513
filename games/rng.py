"""Randomness for every deal (RULINGS G4).

Engines never touch the module-level ``random``: an ``Rng`` is passed in. Production uses
``SystemRng`` (the OS CSPRNG through ``secrets``); tests and replays use ``SeededRng``.
Shuffling is Fisher-Yates with unbiased integers (``randbelow`` is rejection-sampled by both
implementations), so every permutation is equally likely.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from functools import lru_cache
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


# CPython's randrange(n) draws with _randbelow_with_getrandbits, which SeededRng inlines.
_INLINED_DRAWS = random.Random._randbelow is random.Random._randbelow_with_getrandbits  # type: ignore[attr-defined]  # CPython's private draw method, compared to choose the inlined draws


class SeededRng:
    """A reproducible generator for tests, bots and replays (never for real deals)."""

    def __init__(self, seed: int | str) -> None:
        self._bind(random.Random(seed))

    def _bind(self, generator: random.Random) -> None:
        self._random = generator
        # A bound builtin method: copy.deepcopy and pickle would keep it pointing at the original
        # generator, so the copy protocol below saves only ``_random`` and binds again.
        self._bits: Callable[[int], int] = generator.getrandbits
        if not _INLINED_DRAWS:  # a Python whose Random draws otherwise: its own randrange draws
            self.randbelow = generator.randrange  # type: ignore[method-assign,assignment]  # a Python whose Random draws otherwise: the generator's own randrange

    def __getstate__(self) -> dict[str, random.Random]:
        return {"random": self._random}

    def __setstate__(self, state: dict[str, random.Random]) -> None:
        self._bind(state["random"])

    def randbelow(self, n: int) -> int:
        """Return a uniform integer in [0, n) from the seeded Mersenne Twister."""
        if n <= 0:
            return self._random.randrange(n)  # raises ValueError, as before
        # The body of Random._randbelow_with_getrandbits, which randrange(n) calls (the same
        # draws; tests/games checks it): inlined, as every deal makes dozens of these calls.
        bits = self._bits
        k = n.bit_length()
        r = bits(k)
        while r >= n:
            r = bits(k)
        return r

    def shuffle(self, out: list[T]) -> None:
        """Fisher-Yates in place, as ``shuffled`` does, its draws inlined (a deal's hot loop)."""
        bits = self._bits
        for i, n, k in _fisher_yates(len(out)):
            j = bits(k)  # the body of randbelow(n), n > 0
            while j >= n:
                j = bits(k)
            out[i], out[j] = out[j], out[i]


@lru_cache(maxsize=64)
def _fisher_yates(size: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a Fisher-Yates shuffle of ``size`` items: (i, bound i + 1, its bit length)."""
    return tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))


def shuffled(items: Sequence[T], rng: Rng) -> list[T]:
    """Return a new list with the items in a uniformly random order (Fisher-Yates)."""
    out = list(items)
    if type(rng) is SeededRng and _INLINED_DRAWS:
        rng.shuffle(out)  # the same draws and swaps, without a call per draw
        return out
    below = rng.randbelow
    for i in range(len(out) - 1, 0, -1):
        j = below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def choice(items: Sequence[T], rng: Rng) -> T:
    """Return one item chosen uniformly."""
    if not items:
        raise ValueError("choice from an empty sequence")
    return items[rng.randbelow(len(items))]


class RecordingRng:
    """Wrap an Rng and record every draw, so a live hand can be replayed exactly (hand history)."""

    def __init__(self, inner: Rng) -> None:
        self.inner = inner
        self.draws: list[list[int]] = []

    def randbelow(self, n: int) -> int:
        """Draw from the wrapped generator and record ``[n, value]``."""
        value = self.inner.randbelow(n)
        self.draws.append([n, value])
        return value


class ReplayError(RuntimeError):
    """A replay asked for draws that were not recorded (the code or the history changed)."""


class ReplayRng:
    """Give back recorded draws in order: replaying a hand with it rebuilds every deal exactly."""

    def __init__(self, draws: Sequence[Sequence[int]]) -> None:
        self._draws = list(draws)
        self._next = 0

    def randbelow(self, n: int) -> int:
        """Return the next recorded value, checking it was drawn with the same bound."""
        if self._next >= len(self._draws):
            raise ReplayError("no more recorded draws")
        bound, value = self._draws[self._next]
        if bound != n:
            raise ReplayError(f"recorded draw had bound {bound}, replay asks {n}")
        self._next += 1
        return value

    @property
    def exhausted(self) -> bool:
        """Tell whether every recorded draw was used."""
        return self._next == len(self._draws)
