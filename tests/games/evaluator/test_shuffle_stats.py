"""The shuffle is uniform: every card equally likely in every position (chi-square at 99 %, RULINGS G4).

The statistics (p-values from the regularized incomplete gamma function, math only) live in
bench/engines/evaluator.py, whose benchmark runs the regulator-sized version (10**6 shuffles).
"""

import random
import secrets

import pytest

from bench.engines.evaluator import (
    chi2_critical,
    chi2_sf,
    position_counts,
    shuffle_chi_square,
)
from games.cards import italian_deck, poker_deck
from games.rng import SeededRng, SystemRng, shuffled


def rng_shuffle(rng):
    return lambda cards: shuffled(cards, rng)


@pytest.mark.parametrize(
    ("df", "critical"),
    # Published 99 % points of the chi-square distribution.
    [(1, 6.6349), (2, 9.2103), (10, 23.2093), (39, 62.4281), (100, 135.8067)],
)
def test_chi_square_critical_values(df, critical):
    assert chi2_critical(df, 0.01) == pytest.approx(critical, abs=5e-4)
    assert chi2_sf(critical, df) == pytest.approx(0.01, abs=1e-5)


def test_chi_square_sf_edges():
    assert chi2_sf(0, 5) == 1.0
    assert chi2_sf(1e6, 5) < 1e-100
    assert chi2_sf(4, 2) == pytest.approx(0.1353352832, rel=1e-9)  # e**-2 for df 2


def test_seeded_shuffles_are_uniform():
    # Deterministic: SeededRng gives the same sample on every run, so this cannot flake.
    size = len(poker_deck(6))
    assert size == len(italian_deck()) == 40
    counts = position_counts(size, 12_000, rng_shuffle(SeededRng("shuffle-chi-square")))
    report = shuffle_chi_square(counts)
    assert all(sum(row) == 12_000 for row in counts)
    assert all(sum(col) == 12_000 for col in zip(*counts, strict=True))  # each card once a shuffle
    assert report.passes(0.01), (min(report.per_position_p), report.overall_p)


def test_system_rng_shuffles_are_uniform(monkeypatch):
    """SystemRng's path (``secrets.randbelow``, then the plain Fisher-Yates loop) is uniform.

    The OS generator itself is not reproducible, so a chi-square on its draws would fail by chance
    now and then; here the same code runs on a seeded bit source in its place: the same sample on
    every run, and a bias in SystemRng or in the loop would still show (the seeded fast path of
    ``shuffled`` is not taken: ``SystemRng`` is not a ``SeededRng``).
    """
    monkeypatch.setattr(secrets, "_sysrand", random.Random("system-rng-chi-square"))
    rng = SystemRng()
    assert type(rng) is not SeededRng
    report = shuffle_chi_square(position_counts(24, 6_000, rng_shuffle(rng)))
    assert report.passes(0.01), (min(report.per_position_p), report.overall_p)


class _BiasedRng:
    """A broken generator: every other draw is forced to 0 (a card sticks to its place)."""

    def __init__(self) -> None:
        self._inner = SeededRng("biased")
        self._flip = False

    def randbelow(self, n: int) -> int:
        self._flip = not self._flip
        return 0 if self._flip and self._inner.randbelow(8) == 0 else self._inner.randbelow(n)


def test_the_test_catches_a_biased_shuffle():
    counts = position_counts(40, 12_000, rng_shuffle(_BiasedRng()))
    assert not shuffle_chi_square(counts).passes(0.01)


def naive_shuffle(rng):
    """The classic wrong shuffle (swap each card with any position): not uniform."""

    def shuffle(cards):
        out = list(cards)
        for i in range(len(out)):
            j = rng.randbelow(len(out))
            out[i], out[j] = out[j], out[i]
        return out

    return shuffle


def test_the_test_catches_the_naive_shuffle():
    counts = position_counts(24, 12_000, naive_shuffle(SeededRng("naive")))
    assert not shuffle_chi_square(counts).passes(0.01)
