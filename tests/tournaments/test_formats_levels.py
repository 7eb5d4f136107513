"""Level-based tournaments: structures, hand-for-hand, placings, shootout, table balancing."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rng import choice
from tests.games.drawn import DrawnRng, rngs
from tournaments.formats import FormatError
from tournaments.formats.balancing import apply_moves, balance, tables_needed
from tournaments.formats.draw import RandomList
from tournaments.formats.levels import (
    Speed,
    elimination_placings,
    freezeout_placings,
    hand_for_hand,
    invito_multiplier,
    level_at,
    level_schedule,
    seat_tables,
    shootout_first_stage,
    shootout_next_stage,
)
from tournaments.formats.slot import slot_placings, tied_for_first
from tournaments.formats.standings import rows


def test_level_structures() -> None:
    assert [invito_multiplier(n) for n in range(1, 16)] == [
        1, 2, 3, 4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 100, 150,
    ]  # fmt: skip
    schedule = level_schedule(Speed.TURBO, 20, 3)
    assert [(lv.number, lv.invito, lv.start_s, lv.end_s) for lv in schedule] == [
        (1, 20, 0, 300),
        (2, 40, 300, 600),
        (3, 60, 600, 900),
    ]
    assert level_at(Speed.NORMALE, 10, 0).number == 1
    assert level_at(Speed.NORMALE, 10, 599).number == 1
    assert level_at(Speed.NORMALE, 10, 600).invito == 20
    assert level_at(Speed.SUPERTURBO, 10, 3600).number == 21
    assert level_at(Speed.LENTO, 10, 3600).number == 5
    with pytest.raises(FormatError):
        level_at(Speed.LENTO, 10, -1)


def test_hand_for_hand_trigger_and_release() -> None:
    assert not hand_for_hand(20, paid=16, tables=3)
    assert hand_for_hand(17, paid=16, tables=2)  # the bubble
    assert not hand_for_hand(16, paid=16, tables=2)  # released as soon as everyone left is paid
    assert hand_for_hand(19, paid=16, tables=3, margin=3)
    assert not hand_for_hand(9, paid=8, tables=1)


def test_elimination_placings_by_chips_at_start_of_hand() -> None:
    # 12 players left; three bust in the same hand with 300, 800 and 300 chips at its start.
    groups = elimination_placings(12, [("a", 300), ("b", 800), ("c", 300)])
    assert groups == [["b"], ["a", "c"]]  # b is 10th, a and c share 11th-12th
    placings = freezeout_placings("w", [[["z"]], groups, [["y"]]])
    assert placings == [["w"], ["y"], ["b"], ["a", "c"], ["z"]]
    assert [(r.first, r.last) for r in rows(placings)][-2:] == [(4, 5), (6, 6)]


def test_sette_e_mezzo_two_eliminated_by_the_same_banker() -> None:
    # "si classifica prima colui il quale, prima di essere eliminato, aveva il numero maggiore di chips"
    assert elimination_placings(5, [("p1", 150), ("p2", 400)]) == [["p2"], ["p1"]]


def test_seating_and_shootout() -> None:
    rl = RandomList(tuple(f"p{i}" for i in range(20)))
    tables = shootout_first_stage(rl, 9)
    assert [len(t) for t in tables] == [7, 7, 6]
    assert tables[0][:2] == ["p0", "p3"]
    final = shootout_next_stage(["p5", "p1", "p2"], rl, 9)
    assert final == [["p1", "p2", "p5"]]
    # 90 winners of 10-handed tables need another stage of 9 tables.
    big = RandomList(tuple(f"q{i}" for i in range(900)))
    assert len(shootout_next_stage(list(big.order[:90]), big, 10)) == 9
    assert seat_tables([], 9) == []


def test_slot_ranking() -> None:
    credits = {"a": 500, "b": 500, "c": 300, "d": 300, "e": 100}
    assert tied_for_first(credits) == ["a", "b"]
    assert slot_placings(credits, {"a": 450, "b": 700}) == [["b"], ["a"], ["c", "d"], ["e"]]
    assert slot_placings(credits, {"a": 450, "b": 450}) == [["a", "b"], ["c", "d"], ["e"]]
    assert slot_placings({"a": 5, "b": 4}) == [["a"], ["b"]]


# --- balancing -------------------------------------------------------------------------------------


def test_balance_after_an_elimination_moves_one_player() -> None:
    tables = {
        1: ["a1", "a2", "a3", "a4", "a5", "a6"],
        2: ["b1", "b2", "b3", "b4"],
        3: ["c1", "c2", "c3", "c4", "c5"],
    }
    plan = balance(tables, 6)
    assert [(m.player, m.source, m.target) for m in plan.moves] == [("a1", 1, 2)]
    assert plan.broken == () and plan.sizes == {1: 5, 3: 5, 2: 5}


def test_balance_breaks_the_smallest_table_highest_number_first() -> None:
    tables = {1: ["a1", "a2", "a3"], 2: ["b1", "b2", "b3"], 3: ["c1", "c2", "c3"]}
    plan = balance(tables, 5)  # 9 players fit 2 tables of 5
    assert plan.broken == (3,)
    assert [(m.player, m.target) for m in plan.moves] == [("c1", 1), ("c2", 1), ("c3", 2)]
    after = apply_moves(tables, plan.moves)
    assert sorted(len(p) for p in after.values()) == [4, 5]


def test_balance_between_hands_only() -> None:
    tables = {1: ["a1", "a2", "a3"], 2: ["b1", "b2", "b3"], 3: ["c1", "c2", "c3"]}
    plan = balance(tables, 5, between_hands={1, 2})  # table 3 is still playing its hand
    assert plan.moves == () and len(plan.pending) == 3
    plan = balance(tables, 5, between_hands={3})
    assert len(plan.moves) == 3 and plan.pending == ()


def brute_force_moves(sizes: list[int], max_seats: int) -> int:
    players = sum(sizes)
    k = tables_needed(players, max_seats)
    q, r = divmod(players, k)
    best = players
    for kept in itertools.combinations(range(len(sizes)), k):
        for bigger in itertools.combinations(kept, r):
            stay = sum(min(sizes[t], q + (1 if t in bigger else 0)) for t in kept)
            best = min(best, players - stay)
    return best


@given(
    sizes=st.lists(st.integers(0, 9), min_size=1, max_size=7).filter(lambda s: sum(s) > 0),
    max_seats=st.integers(2, 10),
)
def test_balance_sizes_within_one_and_fewest_moves(sizes: list[int], max_seats: int) -> None:
    sizes = [min(s, max_seats) for s in sizes]
    if not sum(sizes):
        return
    tables = {t + 1: [f"t{t + 1}p{i}" for i in range(s)] for t, s in enumerate(sizes)}
    plan = balance(tables, max_seats)
    after = apply_moves(tables, plan.moves)
    counts = [len(p) for p in after.values()]
    assert len(after) == tables_needed(sum(sizes), max_seats)
    assert max(counts) - min(counts) <= 1 and max(counts) <= max_seats
    assert sorted(x for p in after.values() for x in p) == sorted(x for p in tables.values() for x in p)
    assert len(plan.moves) == brute_force_moves(sizes, max_seats)
    assert {m.player for m in plan.moves}.isdisjoint({m.player for m in plan.pending})
    assert balance(dict(reversed(list(tables.items()))), max_seats) == plan  # pure in the input order


@given(rng=rngs(), players=st.integers(2, 200), max_seats=st.sampled_from([2, 4, 6, 8, 9, 10]))
def test_freezeout_busting_one_at_a_time_stays_balanced(rng: DrawnRng, players: int, max_seats: int) -> None:
    tables = dict(enumerate(seat_tables([f"p{i}" for i in range(players)], max_seats), start=1))
    while sum(len(p) for p in tables.values()) > 1:
        t = choice(sorted(tables), rng)
        tables[t].pop(rng.randbelow(len(tables[t])))
        tables = {k: v for k, v in tables.items() if v} or tables
        plan = balance(tables, max_seats)
        tables = apply_moves(tables, plan.moves)
        counts = [len(p) for p in tables.values()]
        assert max(counts) - min(counts) <= 1
        assert len(tables) == tables_needed(sum(counts), max_seats)
