"""The shuffle is uniform: every card equally likely in every position (chi-square at 99 %, RULINGS G4).

The statistics (p-values from the regularized incomplete gamma function, math only) live in
games/bench/evaluator.py, whose benchmark runs the regulator-sized version (10**6 shuffles).
"""

import pytest

from games.bench.evaluator import (
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


def test_system_rng_shuffles_are_uniform():
    # The CSPRNG is not reproducible, so a fair shuffle still fails one sample in about 50 (two
    # checks at 1 % each). A failure draws one fresh sample and only two failures in a row fail
    # the test: a false alarm about 4 times in 10,000 runs, while a real bias fails both samples.
    results = []
    for _attempt in range(2):
        report = shuffle_chi_square(position_counts(24, 6_000, rng_shuffle(SystemRng())))
        results.append((min(report.per_position_p), report.overall_p))
        if report.passes(0.01):
            return
    pytest.fail(f"SystemRng shuffles failed the chi-square test twice: {results}")


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
