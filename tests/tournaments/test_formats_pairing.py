"""Turn-based formats: registration, KO, Danese (K3), danEL, danKO, and the random list."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.rng import Rng, SeededRng
from tests.games.drawn import DrawnRng, rngs
from tournaments.formats import FormatError
from tournaments.formats.danel import Eliminated, danel_cut, danel_placings, danel_threshold
from tournaments.formats.danese import (
    DEFAULT_VP,
    Score,
    VpScale,
    add_results,
    danese_pairing,
    danese_placings,
    forfeit_result,
    match_points,
    match_result,
    standings_order,
)
from tournaments.formats.danko import danko_placings, playoff_first_round, qualify
from tournaments.formats.draw import (
    RandomList,
    draw_random_list,
    pair_random_list,
    random_pairs,
    seat_table,
)
from tournaments.formats.ko import (
    byes_needed,
    ko_first_round,
    ko_losers,
    ko_next_round,
    ko_placings,
    ko_rounds,
)
from tournaments.formats.prizes import danese_weights
from tournaments.formats.registration import (
    Entry,
    can_register,
    check_sitgo_size,
    close_registration,
    sitgo_starts,
)
from tournaments.formats.standings import rows

# --- registration -----------------------------------------------------------------------------


def entries(n: int, players: int = 1) -> list[Entry]:
    return [Entry(f"r{i}", players) for i in range(n)]


def test_minimum_four_else_cancelled_and_refunded() -> None:
    closing = close_registration(entries(3), turn_based=True)
    assert closing.cancelled and set(closing.refunded) == {"r0", "r1", "r2"}
    closing = close_registration(entries(4), turn_based=True)
    assert not closing.cancelled and closing.admitted == ("r0", "r1", "r2", "r3") and not closing.refunded
    assert not close_registration(entries(2), turn_based=True, min_players=2).cancelled


def test_individual_multiple_of_two_excludes_the_last_registrant() -> None:
    closing = close_registration(entries(7), turn_based=True)
    assert closing.admitted == tuple(f"r{i}" for i in range(6))
    assert closing.excluded == ("r6",) and closing.refunded == ("r6",)


def test_pairs_multiple_of_four() -> None:
    closing = close_registration(entries(11), turn_based=True, pairs=True)
    assert len(closing.admitted) == 8 and closing.excluded == ("r8", "r9", "r10")
    fixed = close_registration(entries(5, players=2), turn_based=True, pairs=True)
    assert fixed.admitted == ("r0", "r1", "r2", "r3") and fixed.excluded == ("r4",)


def test_level_tournaments_have_no_multiple_and_maximum_refuses() -> None:
    closing = close_registration(entries(7), turn_based=False, max_players=5)
    assert closing.admitted == tuple(f"r{i}" for i in range(5)) and closing.refused == ("r5", "r6")
    assert can_register(4, 1, 5) and not can_register(5, 1, 5) and not can_register(4, 2, 5)
    assert can_register(10**6, 2, None)


def test_minimum_checked_after_exclusions() -> None:
    closing = close_registration(entries(5), turn_based=True, min_players=5)
    assert closing.cancelled and set(closing.refunded) == {f"r{i}" for i in range(5)}


def test_sitgo_sizes() -> None:
    for size in (2, 4, 8, 16, 32, 64, 128):
        check_sitgo_size(size)
        assert sitgo_starts(size, size) and not sitgo_starts(size - 1, size)
    for bad in (1, 3, 10, 256):
        with pytest.raises(FormatError):
            check_sitgo_size(bad)


# --- the random list and seats -----------------------------------------------------------------


def test_random_list_is_reproducible_and_a_permutation() -> None:
    names = [f"p{i}" for i in range(20)]
    a = draw_random_list(names, SeededRng(7))
    b = draw_random_list(list(reversed(names)), SeededRng(7))
    assert a == b and sorted(a.order) == sorted(names)
    assert RandomList.from_json(a.to_json()) == a
    with pytest.raises(FormatError):
        RandomList(("x", "x"))


def test_first_round_seats_follow_the_list() -> None:
    rl = RandomList(("a", "b", "c", "d"))
    tables = danese_pairing({x: Score() for x in "dcba"}, rl, first_round=True)
    assert tables == [["a", "b"], ["c", "d"]]
    assert seat_table(tables[0]) == {"nord": "a", "est": "b"}


def test_random_pairs_and_pair_seats() -> None:
    rl = RandomList(("a", "b", "c", "d", "e", "f", "g", "h"))
    pairs = random_pairs(rl)
    assert pairs == {"a+b": ("a", "b"), "c+d": ("c", "d"), "e+f": ("e", "f"), "g+h": ("g", "h")}
    lines = pair_random_list(rl, pairs)
    assert lines.order == ("a+b", "c+d", "e+f", "g+h")
    assert seat_table(["a+b", "c+d"], pairs) == {"nord": "a", "sud": "b", "est": "c", "ovest": "d"}


# --- MP and VP -----------------------------------------------------------------------------------


def test_mp_example_21_12() -> None:
    assert match_points(21, 12) == (9, -9)
    assert match_result(21, 12) == (Score(20, 9), Score(0, -9))
    assert match_result(12, 21) == (Score(0, -9), Score(20, 9))
    assert match_result(15, 15) == (Score(10, 0), Score(10, 0))


def test_forfeit_gives_the_other_line_at_least_14_vp() -> None:
    # Default table: the other line wins, 20 VP; MP the minimum of a win (1), whatever the score
    # (RULINGS K6).
    assert forfeit_result(30, 10) == (Score(0, -1), Score(20, 1))
    assert forfeit_result(10, 30) == (Score(0, -1), Score(20, 1))
    graded = VpScale(steps=((0, 10), (1, 12), (20, 14), (50, 17), (100, 20)))
    assert forfeit_result(40, 30, graded) == (Score(0, -20), Score(14, 20))
    assert forfeit_result(0, 70, graded) == (Score(0, -50), Score(17, 50))
    assert match_result(70, 0, graded) == (Score(17, 70), Score(3, -70))
    with pytest.raises(FormatError):
        VpScale(steps=((1, 10),))


def test_later_rounds_pair_by_vp_then_mp_then_list() -> None:
    rl = RandomList(("a", "b", "c", "d", "e", "f"))
    totals = {
        "a": Score(20, 5),
        "b": Score(20, 5),
        "c": Score(0, -5),
        "d": Score(20, 30),
        "e": Score(0, -30),
        "f": Score(0, -5),
    }
    assert standings_order(totals, rl) == ["d", "a", "b", "c", "f", "e"]
    assert danese_pairing(totals, rl, first_round=False) == [["d", "a"], ["b", "c"], ["f", "e"]]
    placings = danese_placings(totals)
    assert [(r.first, r.last) for r in rows(placings)] == [(1, 1), (2, 3), (4, 5), (6, 6)]
    with pytest.raises(FormatError):
        add_results(totals, [("a", Score(20, 1)), ("a", Score(0, -1))])


def play_round(tables: list[list[str]], rng: Rng) -> list[tuple[str, Score]]:
    results: list[tuple[str, Score]] = []
    for a, b in tables:
        pa, pb = rng.randbelow(30), rng.randbelow(30)
        sa, sb = match_result(pa, pb, DEFAULT_VP)
        results += [(a, sa), (b, sb)]
    return results


@given(rng=rngs(), half=st.integers(1, 40), rounds=st.integers(1, 6))
def test_danese_every_line_plays_once_per_round_and_pairing_is_pure(
    rng: DrawnRng, half: int, rounds: int
) -> None:
    names = [f"l{i}" for i in range(2 * half)]
    rl = draw_random_list(names, rng)
    totals = {n: Score() for n in names}
    for r in range(rounds):
        tables = danese_pairing(totals, rl, first_round=r == 0)
        seated = [x for t in tables for x in t]
        assert sorted(seated) == sorted(names)  # everyone exactly once
        # Pure: same standings and list, in any dict order, give the same tables.
        shuffled_totals = dict(reversed(list(totals.items())))
        assert (
            danese_pairing(shuffled_totals, RandomList.from_json(rl.to_json()), first_round=r == 0) == tables
        )
        totals = add_results(totals, play_round(tables, rng))
    assert sum(len(g) for g in danese_placings(totals)) == len(names)


# --- KO --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("lines", "byes"), [(2, 0), (4, 0), (5, 3), (6, 2), (7, 1), (8, 0), (10, 6), (13, 3)]
)
def test_byes_to_a_power_of_two(lines: int, byes: int) -> None:
    assert byes_needed(lines) == byes


def test_ko_tables_and_next_round() -> None:
    rl = RandomList(tuple("abcdefgh"))
    r1 = ko_first_round(rl)
    assert r1 == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]]
    r2 = ko_next_round(r1, {"a", "d", "f", "g"})
    assert r2 == [["a", "d"], ["f", "g"]]  # winner of table 1 meets the winner of table 2
    assert ko_losers(r1, {"a", "d", "f", "g"}) == ["b", "c", "e", "h"]
    with pytest.raises(FormatError):
        ko_next_round(r1, {"a", "b", "d", "f", "g"})


def test_scheduled_ko_byes_and_placings() -> None:
    rl = RandomList(tuple(f"p{i}" for i in range(10)))
    r1 = ko_first_round(rl)
    assert r1 == [["p6", "p7"], ["p8", "p9"], ["p0"], ["p1"], ["p2"], ["p3"], ["p4"], ["p5"]]
    r2 = ko_next_round(r1, {"p6", "p9"})
    assert r2 == [["p6", "p9"], ["p0", "p1"], ["p2", "p3"], ["p4", "p5"]]
    assert ko_rounds(10) == 4
    placings = ko_placings([["p7", "p8"], ["p9", "p1", "p3", "p5"], ["p0", "p4"], ["p2"]], "p6")
    assert [(r.first, r.last) for r in rows(placings)] == [(1, 1), (2, 2), (3, 4), (5, 8), (9, 10)]


@given(rng=rngs(), lines=st.integers(2, 140))
def test_ko_simulation_each_line_plays_at_most_once_a_round(rng: DrawnRng, lines: int) -> None:
    names = [f"x{i}" for i in range(lines)]
    rl = draw_random_list(names, rng)
    slots = ko_first_round(rl)
    assert ko_first_round(RandomList.from_json(rl.to_json())) == slots  # pure in the list
    eliminated: list[list[str]] = []
    alive = set(names)
    while True:
        seated = [x for s in slots for x in s]
        assert len(seated) == len(set(seated)) and set(seated) == alive
        winners = {s[rng.randbelow(2)] for s in slots if len(s) == 2}
        losers = ko_losers(slots, winners)
        eliminated.append(losers)
        alive -= set(losers)
        if len(slots) == 1:
            break
        slots = ko_next_round(slots, winners)
    assert len(eliminated) == ko_rounds(lines)
    (champion,) = alive
    placings = ko_placings(eliminated, champion)
    assert sorted(x for g in placings for x in g) == sorted(names)
    bounds = [(r.first, r.last) for r in rows(placings)]
    assert bounds[:2] == [(1, 1), (2, 2)]
    for first, last in bounds[2:]:
        assert (first - 1) & (first - 2) == 0  # rounds start at 3, 5, 9, 17, ... (1 + a power of 2)
        assert last <= 2 * (first - 1)


# --- danEL ---------------------------------------------------------------------------------------


def test_danel_thresholds_of_the_rules() -> None:
    assert [danel_threshold(r, 3) for r in (1, 2, 3)] == [7, 14, None]
    assert [danel_threshold(r, 2) for r in (1, 2)] == [7, None]
    assert [danel_threshold(r, 4) for r in (1, 2, 3, 4)] == [4, 20, 36, None]
    assert [danel_threshold(r, 6) for r in (4, 5, 6)] == [52, 68, None]


def test_danel_cut_protects_prize_positions_and_readmits_the_best() -> None:
    rl = RandomList(tuple("abcdefgh"))
    active = {
        "a": Score(20, 50),
        "b": Score(20, 10),
        "c": Score(0, -1),  # 3rd by MP: a prize position with 3 paid, protected
        "d": Score(0, -5),
        "e": Score(0, -5),
        "f": Score(0, -10),
        "g": Score(20, 3),
        "h": Score(0, -40),
    }
    cut = danel_cut(active, round_no=1, total_rounds=3, prize_positions=4, random_list=rl)
    # Ranks: a 1, b 2, g 3, c 4 (paid, protected); d, e, f, h under 7 VP: out.
    assert [e.line for e in cut.eliminated] == ["d", "e", "f", "h"]  # best first, ties by the list
    # 4 left is even: nobody readmitted.
    assert cut.readmitted is None and cut.active == ("a", "b", "c", "g")
    active["c"] = Score(0, -6)  # now c ranks 4th (ex aequo? no: -5 > -6 so d and e are 4th)
    cut = danel_cut(active, round_no=1, total_rounds=3, prize_positions=4, random_list=rl)
    assert set(cut.active) == {"a", "b", "g", "d", "e"} | {cut.readmitted}
    # d and e ex aequo 4th are both protected; 5 left is odd: the best eliminated, c, comes back.
    assert cut.readmitted == "c"


def test_danel_readmission_tie_settled_by_the_list() -> None:
    rl = RandomList(("z", "y", "x", "w"))
    active = {"w": Score(20, 9), "x": Score(0, -3), "y": Score(0, -3), "z": Score(0, -3)}
    cut = danel_cut(active, round_no=1, total_rounds=3, prize_positions=1, random_list=rl)
    assert cut.readmitted == "z" and set(cut.active) == {"w", "z"}
    placings = danel_placings({"w": Score(20, 9), "z": Score(0, -3)}, cut.eliminated, rl)
    assert placings == [["w"], ["z", "y", "x"]]  # equal VP and MP: ex aequo, listed by the list


@given(rng=rngs(), half=st.integers(2, 40), total_rounds=st.integers(2, 5))
def test_danel_never_eliminates_a_prize_position(rng: DrawnRng, half: int, total_rounds: int) -> None:
    names = [f"l{i}" for i in range(2 * half)]
    rl = draw_random_list(names, rng)
    paid = len(danese_weights(len(names)))
    active = {n: Score() for n in names}
    eliminated: list[Eliminated] = []
    for r in range(1, total_rounds + 1):
        tables = danese_pairing(active, rl, first_round=r == 1)
        assert sorted(x for t in tables for x in t) == sorted(active)
        active = add_results(active, play_round(tables, rng))
        cut = danel_cut(
            active, round_no=r, total_rounds=total_rounds, prize_positions=paid, random_list=rl,
            already_eliminated=eliminated,
        )  # fmt: skip
        for e in cut.eliminated:
            better = sum(1 for s in active.values() if (s.vp, s.mp) > (e.score.vp, e.score.mp))
            assert better + 1 > paid  # its ex aequo rank was not a prize position
        scores = {**{e.line: e.score for e in eliminated}, **active}
        eliminated = [e for e in eliminated if e.line != cut.readmitted] + list(cut.eliminated)
        active = {line: scores[line] for line in cut.active}
        assert len(active) % 2 == 0
    placings = danel_placings(active, eliminated)
    assert sorted(x for g in placings for x in g) == sorted(names)


# --- danKO -----------------------------------------------------------------------------------------


def test_danko_qualification_ties_by_list_and_final_placings() -> None:
    rl = RandomList(tuple("hgfedcba"))
    totals = {
        "a": Score(40, 30),
        "b": Score(40, 20),
        "c": Score(20, 5),
        "d": Score(20, 5),
        "e": Score(20, 5),
        "f": Score(0, -10),
        "g": Score(0, -20),
        "h": Score(0, -35),
    }
    qualified, rest = qualify(totals, 4, rl)
    assert qualified == ["a", "b", "e", "d"]  # c, d, e tied: e and d are earlier in the list
    r1 = playoff_first_round(qualified, rl)
    assert r1 == [["e", "d"], ["b", "a"]]
    placings = danko_placings([["d", "b"], ["e"]], "a", totals, rest)
    assert placings == [["a"], ["e"], ["b", "d"], ["c"], ["f"], ["g"], ["h"]]


# --- per-game tournament lines -----------------------------------------------------------------------


def test_ko_spareggi_then_last_capture_of_the_third_loses() -> None:
    from tournaments.formats.per_game import KoTie, ko_match_winner, ko_tie_rule

    rule = ko_tie_rule("scopa")
    assert rule is KoTie.SPAREGGI
    assert ko_match_winner(rule, (11, 9)).winner == 0
    assert ko_match_winner(rule, (11, 11)).winner is None  # 1° spareggio
    assert ko_match_winner(rule, (11, 11), [(3, 4)]).winner == 1
    assert ko_match_winner(rule, (11, 11), [(3, 3), (2, 2)]).winner is None  # 3° spareggio
    assert ko_match_winner(rule, (11, 11), [(3, 3), (2, 2), (4, 4)], last=0).winner == 1
    assert ko_match_winner(ko_tie_rule("burraco"), (1200, 1200), last=1).winner == 0
    assert ko_match_winner(ko_tie_rule("tresette", a_smazzate=True), (21, 21), last=1).winner == 1
    assert ko_match_winner(ko_tie_rule("tresette"), (21, 21)).winner is None
    with pytest.raises(FormatError):
        ko_match_winner(rule, (11, 11), [(3, 3), (2, 2), (4, 4)])
    with pytest.raises(FormatError):
        ko_tie_rule("slot")


def test_cappotto_and_scala40_mp() -> None:
    from tournaments.formats.per_game import cappotto_result, scala40_match_points

    assert cappotto_result(DEFAULT_VP) == (Score(20, 1), Score(0, -1))
    assert scala40_match_points(0, 70) == (70, -70)
