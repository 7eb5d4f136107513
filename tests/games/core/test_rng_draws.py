"""SeededRng draws exactly what ``random.Random(seed).randrange`` draws (it inlines the draw)."""

from __future__ import annotations

import copy
import random

import pytest

from games.rng import SeededRng, shuffled


@pytest.mark.parametrize("seed", [1, 7, "7-choices", 2**40 + 3])
def test_seeded_draws_are_randrange_draws(seed):
    ours, plain = SeededRng(seed), random.Random(seed)
    bounds = [*range(1, 200), 2**31 - 1, 2**32, 2**32 + 1, 10**30, 1]
    for n in bounds * 5:
        assert ours.randbelow(n) == plain.randrange(n)


def test_seeded_rng_refuses_an_empty_range_as_randrange_does():
    with pytest.raises(ValueError):
        SeededRng(1).randbelow(0)


def test_shuffled_is_fisher_yates_on_randrange():
    deck = list(range(40))
    expected = list(deck)
    plain = random.Random(5)
    for i in range(len(expected) - 1, 0, -1):
        j = plain.randrange(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert shuffled(deck, SeededRng(5)) == expected


def test_shuffled_with_a_seeded_rng_draws_as_with_any_other_rng():
    class Plain:  # any Rng: shuffled's generic loop
        def __init__(self) -> None:
            self.inner = SeededRng(11)

        def randbelow(self, n: int) -> int:
            return self.inner.randbelow(n)

    deck = [f"{r}{s}" for s in "hdcs" for r in "789TJQKA"]
    seeded, plain = SeededRng(11), Plain()
    assert shuffled(deck, seeded) == shuffled(deck, plain)
    assert seeded.randbelow(10**9) == plain.inner.randbelow(10**9)  # as many draws used


def test_a_deep_copy_of_a_seeded_rng_draws_on_its_own():
    """A deep copy (the twins of the property tests) goes on with the same draws, apart from the original."""
    original = SeededRng(11)
    original.randbelow(1000)
    twin = copy.deepcopy(original)
    ahead = [twin.randbelow(52) for _ in range(30)] + shuffled(list(range(40)), twin)
    assert [original.randbelow(52) for _ in range(30)] + shuffled(list(range(40)), original) == ahead
