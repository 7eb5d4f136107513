"""The exact return (RULINGS S7): its parts against plain enumeration, and the figures S7 asks."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import pytest

from games.slot import lines, rtp, table

# Small strips with every kind of symbol, so that plain enumeration of all their stops is quick.
SMALL = ("CWSFR", "WCSPG", "CSWFP", "FCPWR", "PFCWG")


def brute_line(strips) -> Fraction:
    total = 0
    for stops in itertools.product(*(range(len(s)) for s in strips)):
        total += sum(w["pay"] for w in lines.line_wins(lines.window(strips, stops)))
    return Fraction(total, math.prod(len(s) for s in strips) * table.LINES)


def test_line_expectation_equals_the_enumeration_of_every_stop_combination():
    assert rtp.line_expectation(SMALL) == brute_line(SMALL) > 0


def test_hit_frequency_equals_the_enumeration_of_every_stop_combination():
    hits = 0
    for stops in itertools.product(*(range(len(s)) for s in SMALL)):
        win = lines.window(SMALL, stops)
        hits += bool(
            lines.line_wins(win)
            or lines.count_symbol(win, table.BONUS, table.BONUS_REELS) >= 3
            or lines.count_symbol(win, table.FREE_SPIN) >= 3
            or lines.count_symbol(win, table.PIERINO) >= 4
        )
    assert rtp.hit_frequency(SMALL) == Fraction(hits, 5**5)


def test_count_distribution_equals_the_enumeration():
    counts = {}
    for stops in itertools.product(*(range(len(s)) for s in SMALL)):
        k = lines.count_symbol(lines.window(SMALL, stops), table.PIERINO)
        counts[k] = counts.get(k, 0) + 1
    assert rtp.count_distribution(SMALL, table.PIERINO) == {k: Fraction(c, 5**5) for k, c in counts.items()}


def test_bonus_multiplier_by_its_paths():
    expected = Fraction(0)
    for end in range(1, 7):  # the level the game ends at
        p = Fraction(1)
        for level in range(1, end):
            p *= Fraction(6 - table.BONUS_PRESIDE[level], 6)
        if end < 6:
            p *= Fraction(table.BONUS_PRESIDE[end], 6)
        expected += p * table.BONUS_MULTIPLIERS[end]
    assert rtp.bonus_multiplier() == expected


def test_slate_outcomes_are_a_distribution_over_the_prefixes_before_a_preside():
    out = rtp.slate_outcomes()
    assert sum(out.values()) == 1
    presides = table.SLATES.count(table.PRESIDE_SLATE)
    others = len(table.SLATES) - presides
    # the expected number of slates turned before the first Preside is others / (presides + 1)
    spins_each = Fraction(sum(s for s, _ in table.SLATES), others)
    assert sum(p * spins for (spins, _), p in out.items()) == spins_each * Fraction(others, presides + 1)


def test_spins_played_with_and_without_retriggers_and_the_cap():
    assert rtp.spins_played([(0, Fraction(1))])[8] == 8
    always = rtp.spins_played([(20, Fraction(1))])
    assert always[8] == always[99] == always[100] == 100
    half = rtp.spins_played([(0, Fraction(1, 2)), (1, Fraction(1, 2))])
    # one spin awarded, each spin adds one with probability 1/2: 2 expected, less the cap's tail
    assert half[1] == 2 - Fraction(1, 2**99)
    assert half[100] == 100


def test_point_counts_equal_the_enumeration_of_every_stop_combination(monkeypatch):
    small = ("A_B", "AB_", "_AD", "DAB", "B_A")
    monkeypatch.setattr(table, "POINT_STRIPS", small)
    counts = {}
    for stops in itertools.product(*(range(3) for _ in small)):
        k = lines.points(lines.window(small, stops))
        counts[k] = counts.get(k, 0) + 1
    assert rtp.point_counts() == counts and len(counts) > 3


def test_band_distribution_is_a_distribution_over_the_four_bands():
    bands = rtp.figures().bands
    assert set(bands) == {chips for _, chips in table.PIERINO_BANDS}
    assert sum(bands.values()) == 1


def test_the_return_is_below_one_hundred_percent_at_every_unit_bet_and_85_97_at_the_four():
    for unit in range(1, 101):
        assert rtp.exact_return(unit) < 1
    for unit in (1, 10, 50, 100):
        assert Fraction(85, 100) <= rtp.exact_return(unit) <= Fraction(97, 100)


def test_the_mode_is_worth_the_same_per_chip_at_every_unit_bet():
    figures = rtp.figures()
    assert {figures.pierino_mode(u) for u in range(1, 101)} == {figures.pierino_mode(1)}
    assert rtp.exact_return(1) == rtp.exact_return(100)


def test_the_documented_figures():
    figures = rtp.figures()
    assert rtp.percent(rtp.exact_return(1), 6) == "91.165631 %"
    assert rtp.percent(figures.hit_frequency) == "59.5243 %"
    assert rtp.percent(figures.line) == "52.4768 %"


def test_exact_return_refuses_a_unit_bet_out_of_range():
    with pytest.raises(ValueError):
        rtp.exact_return(0)
    with pytest.raises(ValueError):
        rtp.exact_return(101)
