"""Prize pools and tables of the rules, exact to the cent (RULINGS G1, K1, K2, K4)."""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.games.drawn import DrawnRng, rngs
from tests.games.rules import rules_text
from tournaments.formats import FormatError
from tournaments.formats.money import (
    check_pool_quota,
    entry_fee_label,
    format_euro,
    split_by_weights,
    split_evenly,
)
from tournaments.formats.prizes import (
    DANESE_TABLE,
    PrizeScheme,
    SimulatedRow,
    award,
    danese_column,
    danese_weights,
    prize_pool,
    prize_table,
    satellite_award,
    scheduled_ko_weights,
    scheduled_ko_winners,
    scheme_weights,
    simulate,
    sitgo_ko_weights,
)

# The rules' € 10 / 80 % KO sit&go table, in cents, row by row (1°, 2°, 3°-4°, 5°-8°, 9°-16°).
RULES_KO_TABLE = {
    2: [1600],
    4: [3200],
    8: [4160, 2240],
    16: [6144, 3328, 1664, 1664],
    32: [8960, 4864, 2816, 2816, *[1536] * 4],
    64: [12800, 7680, 4096, 4096, *[2560] * 4, *[1536] * 8],
    128: [25600, 15360, 8192, 8192, *[5120] * 4, *[3072] * 8],
}
RULES_KO_POOL = {2: 1600, 4: 3200, 8: 6400, 16: 12800, 32: 25600, 64: 51200, 128: 102400}


@pytest.mark.parametrize("entrants", sorted(RULES_KO_TABLE))
def test_ko_sitgo_table_of_the_rules(entrants: int) -> None:
    pool = prize_pool(entrants, 800).total  # € 10,00 entry, 80 % to the pool
    assert pool == RULES_KO_POOL[entrants]
    assert prize_table(pool, sitgo_ko_weights(entrants)) == RULES_KO_TABLE[entrants]


def test_ko_sitgo_simulated_rows_group_ex_aequo_positions() -> None:
    assert simulate(PrizeScheme.KO_SITGO, 16, 800) == [
        SimulatedRow(1, 1, 6144),
        SimulatedRow(2, 2, 3328),
        SimulatedRow(3, 4, 1664),
    ]
    rows128 = simulate(PrizeScheme.KO_SITGO, 128, 800)
    assert [(r.first, r.last) for r in rows128] == [(1, 1), (2, 2), (3, 4), (5, 8), (9, 16)]


def test_sitgo_sizes_only_powers_of_two() -> None:
    for bad in (0, 1, 3, 6, 12, 256):
        with pytest.raises(FormatError):
            sitgo_ko_weights(bad)


@pytest.mark.parametrize(
    ("entrants", "winners"),
    [(1, 1), (6, 1), (7, 2), (12, 2), (13, 4), (24, 4), (25, 8), (48, 8), (49, 16), (500, 16)],
)
def test_scheduled_ko_prize_winner_counts(entrants: int, winners: int) -> None:
    assert scheduled_ko_winners(entrants) == winners
    assert len(scheduled_ko_weights(entrants)) == winners
    assert sum(scheduled_ko_weights(entrants)) == 100


def test_scheduled_ko_uses_sitgo_percentages() -> None:
    assert scheduled_ko_weights(10) == sitgo_ko_weights(8)  # 2 winners: 65/35
    assert scheduled_ko_weights(20) == sitgo_ko_weights(16)
    assert scheduled_ko_weights(40) == sitgo_ko_weights(32)
    assert scheduled_ko_weights(100) == sitgo_ko_weights(64)


def test_danese_column_sums_and_lengths() -> None:
    assert {c: len(v) for c, v in DANESE_TABLE.items()} == {10: 3, 25: 7, 50: 13, 100: 25, 200: 50, 300: 75}
    sums = {c: sum(v) for c, v in DANESE_TABLE.items()}
    assert sums == {10: 10000, 25: 10000, 50: 10000, 100: 9999, 200: 10000, 300: 10005}
    for column in DANESE_TABLE.values():
        assert list(column) == sorted(column, reverse=True)


def test_danese_table_matches_the_rules_text() -> None:
    """Parse the table straight from the regulation (../shared/rules)."""
    lines = rules_text("004_").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Posizione in classifica"))
    parsed: dict[int, list[int]] = {c: [] for c in DANESE_TABLE}
    for line in lines[start + 3 : start + 100]:
        m = re.match(r"^(\d+)°\t(.*)$", line)
        if not m:
            continue
        for column, cell in zip(DANESE_TABLE, m.group(2).split("\t"), strict=False):
            if cell.strip():
                units, _, cents = cell.strip().partition(",")
                parsed[column].append(int(units) * 100 + int((cents + "00")[:2]))
    assert {c: tuple(v) for c, v in parsed.items()} == DANESE_TABLE


@pytest.mark.parametrize(
    ("entrants", "column"),
    [(4, 10), (9, 10), (10, 10), (24, 10), (25, 25), (49, 25), (50, 50), (99, 50), (100, 100), (199, 100),
     (200, 200), (299, 200), (300, 300), (1000, 300)],
)  # fmt: skip
def test_danese_column_rule_k1(entrants: int, column: int) -> None:
    assert danese_column(entrants) == column


def test_danese_percentages_for_10_to_300_entrants() -> None:
    """Every count from 10 to 300: the K1 column, each prize the floor of its relative share,
    the remainder to the winner, and the whole pool paid."""
    for entrants in range(10, 301):
        column = DANESE_TABLE[danese_column(entrants)]
        pool = entrants * 900  # € 10,00 (9,00 + 1,00)
        table = prize_table(pool, danese_weights(entrants))
        floors = [pool * w // sum(column) for w in column]
        assert table[1:] == floors[1:]
        assert table[0] == floors[0] + pool - sum(floors)
        assert sum(table) == pool
        assert 0 <= table[0] - floors[0] < len(column)


def test_danese_100_column_shares_are_relative_to_99_99() -> None:
    # 100 entrants × € 9,00 = € 900,00; the 1st gets 20,68 / 99,99 of it, not 20,68 %.
    table = prize_table(90000, danese_weights(100))
    assert table[1] == 90000 * 1242 // 9999 == 11179
    assert sum(table) == 90000


def test_entry_fee_labels_of_the_rules() -> None:
    assert entry_fee_label(9000, 1000) == "€ 100,00 (90,00 + 10,00)"
    assert entry_fee_label(800, 200) == "€ 10,00 (8,00 + 2,00)"
    assert format_euro(102400) == "€ 1.024,00"
    assert format_euro(4160) == "€ 41,60"
    check_pool_quota(9000, 1000)
    check_pool_quota(800, 200)
    with pytest.raises(FormatError):
        check_pool_quota(790, 210)


def test_pool_and_guarantee() -> None:
    pool = prize_pool(37, 900, guaranteed=50000)
    assert (pool.collected, pool.top_up, pool.total) == (33300, 16700, 50000)
    pool = prize_pool(70, 900, guaranteed=50000)
    assert (pool.collected, pool.top_up, pool.total) == (63000, 0, 63000)


def test_award_ex_aequo_share_their_positions() -> None:
    # Danese with 10 entrants, pool 10 × € 9: 2nd and 3rd ex aequo share 29,58 % + 21,13 %.
    placings = [["a"], ["b", "c"], *[[x] for x in "defghij"]]
    out = award(9000, danese_weights(10), placings, registration_order=list("cbadefghij"))
    table = prize_table(9000, danese_weights(10))
    assert out["a"] == table[0]
    assert out["b"] + out["c"] == table[1] + table[2]
    assert abs(out["b"] - out["c"]) <= 1
    assert out["c"] >= out["b"]  # the odd cent to the earlier registrant, never at random
    assert sum(out.values()) == 9000
    assert all(out[x] == 0 for x in "defghij")


def test_award_fewer_placed_than_paid_positions_pays_the_whole_pool() -> None:
    out = award(1000, (50, 30, 20), [["a"], ["b"]])
    assert out == {"a": 500, "b": 500}


def test_split_helpers() -> None:
    assert split_evenly(101, 4) == [26, 25, 25, 25]
    assert split_by_weights(1000, [1, 1, 1]) == [334, 333, 333]
    with pytest.raises(FormatError):
        split_by_weights(1000, [0, 0])


def test_satellite_examples_k4() -> None:
    placings = [[f"p{i}"] for i in range(1, 11)]
    # pool € 100 (10 × € 10), next phase € 30: 3 seats, € 10 left to the 4th (one share ≥ € 10).
    out = satellite_award(10000, 3000, 1000, placings)
    assert [out[f"p{i}"].tickets for i in range(1, 11)] == [1, 1, 1] + [0] * 7
    assert out["p4"].cash == 1000
    # pool € 100, next € 25: 4 seats, nothing left.
    out = satellite_award(10000, 2500, 1000, placings)
    assert sum(a.tickets for a in out.values()) == 4 and sum(a.cash for a in out.values()) == 0
    # pool € 100, next € 40: 2 seats, € 20 left shared by 4th... while each share ≥ € 10: 3rd and 4th.
    out = satellite_award(10000, 4000, 1000, placings)
    assert (out["p3"].cash, out["p4"].cash, out["p5"].cash) == (1000, 1000, 0)
    # € 15 left and cost € 10: one share only.
    out = satellite_award(9500, 4000, 1000, placings)
    assert (out["p3"].cash, out["p4"].cash) == (1500, 0)


def test_satellite_ex_aequo_straddling_the_last_seat_shares_in_cash() -> None:
    placings = [["a"], ["b", "c"], ["d"]]
    out = satellite_award(8000, 3000, 2000, placings, registration_order=["c", "b"])
    # 2 seats + € 20 left: a qualifies; b and c share the 2nd seat's value and the € 20 in cash.
    assert out["a"].tickets == 1
    assert (out["b"].tickets, out["c"].tickets) == (0, 0)
    assert out["b"].cash + out["c"].cash == 3000 + 2000
    assert sum(a.tickets for a in out.values()) * 3000 + sum(a.cash for a in out.values()) == 8000


weights_st = st.lists(st.integers(0, 5000), min_size=1, max_size=80).filter(lambda w: sum(w) > 0)


@given(pool=st.integers(0, 10**9), weights=weights_st)
def test_prize_table_always_sums_to_the_pool(pool: int, weights: list[int]) -> None:
    table = prize_table(pool, weights)
    assert sum(table) == pool
    assert all(x >= 0 for x in table)


@st.composite
def placings_st(draw: st.DrawFn) -> list[list[str]]:
    n = draw(st.integers(1, 60))
    names = [f"e{i}" for i in range(n)]
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n)) if n > 1 else set())
    bounds = [0, *cuts, n]
    return [names[a:b] for a, b in itertools.pairwise(bounds)]


@given(
    pool=st.integers(0, 10**8),
    placings=placings_st(),
    scheme=st.sampled_from([PrizeScheme.DANESE, PrizeScheme.KO_SCHEDULED, PrizeScheme.WINNER_TAKES_ALL]),
)
def test_award_sums_to_pool_and_ex_aequo_differ_by_a_cent_at_most(
    pool: int, placings: list[list[str]], scheme: PrizeScheme
) -> None:
    entrants = sum(len(g) for g in placings)
    out = award(pool, scheme_weights(scheme, entrants), placings)
    assert sum(out.values()) == pool
    for group in placings:
        shares = [out[e] for e in group]
        assert max(shares) - min(shares) <= 1
    # Nothing random: the same inputs always pay the same.
    assert award(pool, scheme_weights(scheme, entrants), placings) == out


@given(
    pool=st.integers(0, 10**7),
    next_cost=st.integers(1, 10**5),
    this_cost=st.integers(0, 10**4),
    placings=placings_st(),
)
def test_satellite_pays_exactly_the_pool(
    pool: int, next_cost: int, this_cost: int, placings: list[list[str]]
) -> None:
    out = satellite_award(pool, next_cost, this_cost, placings)
    assert sum(a.tickets for a in out.values()) * next_cost + sum(a.cash for a in out.values()) == pool
    assert set(out) == {e for g in placings for e in g}


def test_default_schemes_and_freeroll_in_bonus() -> None:
    from tournaments.formats.prizes import Currency, Format, default_scheme, freeroll_award

    assert default_scheme(Format.KO, sitgo=True) is PrizeScheme.KO_SITGO
    assert default_scheme(Format.KO, sitgo=False) is PrizeScheme.KO_SCHEDULED
    assert default_scheme(Format.DANELKO, sitgo=False) is PrizeScheme.DANESE
    out = freeroll_award(5000, (50, 30, 20), [["a"], ["b"], ["c"], ["d"]])
    assert {k: (v.amount, v.currency) for k, v in out.items()} == {
        "a": (2500, Currency.BONUS),
        "b": (1500, Currency.BONUS),
        "c": (1000, Currency.BONUS),
        "d": (0, Currency.BONUS),
    }


@given(placings=placings_st(), pool=st.integers(0, 10**6), rng=rngs())
def test_no_prize_depends_on_order_within_ex_aequo_or_on_chance(
    placings: list[list[str]], pool: int, rng: DrawnRng
) -> None:
    """Prizes are a function of the placings alone: reordering ex aequo members changes nothing."""
    from games.rng import shuffled

    weights = scheme_weights(PrizeScheme.DANESE, sum(len(g) for g in placings))
    reordered = [shuffled(g, rng) for g in placings]
    assert award(pool, weights, reordered) == award(pool, weights, placings)
