"""Punti Torneo, leaderboards, ratings and skill levels, automatic warnings."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.formats import FormatError
from tournaments.formats.ammonizioni import (
    TournamentConduct,
    ban_days,
    bans_triggered,
    displayed_warnings,
    effective_warnings,
    recupero_punti,
    tournament_warnings,
    used_over_three_quarters,
)
from tournaments.formats.points import (
    PT,
    TRAINING_COST,
    Period,
    PtRecord,
    k5_loss,
    leaderboard,
    leaderboard_rows,
    money_pt,
    participation_bonus,
    period_start,
    training_pt,
)
from tournaments.formats.prizes import danese_weights, sitgo_ko_weights
from tournaments.formats.ratings import (
    ESORDIENTE,
    TournamentPlayed,
    mvp,
    rating,
    skill_levels,
    tournament_weight,
    weight_cost,
    weight_days,
)

# --- PT ------------------------------------------------------------------------------------------


def test_money_pt_is_two_rake_plus_a_share_of_the_fictitious_pool() -> None:
    # KO sit&go of 8, rake € 2,00: everyone 4 PT; fictitious pool 8 × 2 PT = 16 PT split 65/35.
    placings = [["w"], ["r"], ["a", "b"], ["c", "d", "e", "f"]]
    out = money_pt(200, sitgo_ko_weights(8), placings)
    assert out["w"] == 400 + 1040 and out["r"] == 400 + 560
    assert all(out[x] == 400 for x in "abcdef")
    assert sum(out.values()) == 8 * 2 * 200 + 8 * 200


def test_k5_curve_matches_the_rules_example() -> None:
    # "il 40° classificato perde 2 PT e il 60° ne perde 8" (66 entrants, default K5 curve, median
    # 33.5: RULINGS K5).
    assert k5_loss(40, 66) == 200
    assert k5_loss(60, 66) == 815
    assert k5_loss(33, 66) == 0 and k5_loss(34, 66) == 15 and k5_loss(66, 66) == TRAINING_COST
    losses = [k5_loss(p, 66) for p in range(1, 67)]
    assert losses == sorted(losses)


def test_training_pt() -> None:
    placings = [[f"p{i}"] for i in range(1, 11)]
    bonus = participation_bonus(10, 6, 10)
    assert bonus == 600
    plain = training_pt(danese_weights(10), placings, bonus=bonus)
    assert sum(plain.values()) == bonus  # every 10 PT paid comes back as prizes, plus the bonus
    assert plain["p10"] == -10 * PT
    danese = training_pt(danese_weights(10), placings, bonus=bonus, danese=True)
    assert danese["p5"] == 0 and danese["p10"] == -10 * PT and danese["p6"] == -111  # median 5.5
    assert danese["p1"] == plain["p1"] + TRAINING_COST  # the winner pays nothing in K5


def test_leaderboards_by_italian_calendar() -> None:
    at = datetime(2026, 3, 18, 12, tzinfo=UTC)  # a Wednesday
    records = [
        PtRecord("a", 500, datetime(2026, 3, 16, 0, 30, tzinfo=UTC)),  # Monday 01:30 in Rome: this week
        PtRecord("b", 700, datetime(2026, 3, 15, 22, 30, tzinfo=UTC)),  # Sunday 23:30 Rome: last week
        PtRecord("a", 300, datetime(2026, 2, 28, 12, tzinfo=UTC)),
        PtRecord("c", 1000, datetime(2025, 12, 31, 23, 30, tzinfo=UTC)),  # already 2026 in Rome
        PtRecord("d", 5000, datetime(2024, 5, 1, tzinfo=UTC)),
        PtRecord("e", 9999, datetime(2026, 3, 19, tzinfo=UTC)),  # after ``at``
    ]
    assert leaderboard(records, Period.WEEK, at) == [["a"]]
    assert leaderboard(records, Period.MONTH, at) == [["b"], ["a"]]
    assert leaderboard(records, Period.YEAR, at) == [["c"], ["a"], ["b"]]
    assert leaderboard(records, Period.ALL, at) == [["d"], ["c"], ["a"], ["b"]]
    tie = [PtRecord("x", 10, at), PtRecord("y", 10, at), PtRecord("z", 5, at)]
    board = leaderboard(tie, Period.ALL, at)
    assert leaderboard_rows(board, {"x": 10, "y": 10, "z": 5}) == [(1, "x", 10), (1, "y", 10), (3, "z", 5)]
    with pytest.raises(FormatError):
        period_start(Period.WEEK, datetime(2026, 3, 18))  # noqa: DTZ001  # naive on purpose


# --- ratings ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("days", "weight"), [(0, 4), (30, 4), (31, 3), (60, 3), (61, 2), (90, 2), (91, 1), (120, 1), (121, 0)]
)
def test_pg_days_weight(days: int, weight: int) -> None:
    assert weight_days(days) == weight


@pytest.mark.parametrize(
    ("cost", "weight"),
    [
        (100000, 5),
        (10000, 5),
        (9999, 4),
        (3001, 4),
        (3000, 3),
        (1001, 3),
        (1000, 2),
        (201, 2),
        (200, 1),
        (50, 1),
    ],
)
def test_pc_cost_weight(cost: int, weight: int) -> None:
    assert weight_cost(cost) == weight


def test_rating_is_the_weighted_mean_of_mvp() -> None:
    today = date(2026, 6, 1)
    t1 = TournamentPlayed(today - timedelta(days=10), 1000, 3, 4, 60)  # Pg 4, Pc 2, Ps 3, Pn 4: Pt 96, MVP 15
    t2 = TournamentPlayed(
        today - timedelta(days=45), 10000, 2, 5, 50
    )  # Pg 3, Pc 5, Ps 2, Pn 5: Pt 150, MVP 10
    t3 = TournamentPlayed(today - timedelta(days=200), 10000, 2, 5, 100)  # too old: not counted
    assert tournament_weight(t1, today) == 96 and mvp(t1) == 15
    assert tournament_weight(t2, today) == 150 and mvp(t2) == 10
    assert rating([t1, t2, t3], today) == Fraction(15 * 96 + 10 * 150, 96 + 150)
    assert rating([t3], today) is None


def test_skill_levels_by_quintile_and_esordiente() -> None:
    today = date(2026, 6, 1)

    def history(vp: int, count: int = 7) -> list[TournamentPlayed]:
        return [TournamentPlayed(today - timedelta(days=i), 500, 2, 4, vp) for i in range(count)]

    histories = {f"p{i}": history(10 * i) for i in range(10)}
    histories["new"] = history(80, count=6)
    histories["twin"] = history(90)  # equal to p9
    levels = skill_levels(histories, today)
    assert levels["new"] == ESORDIENTE
    assert levels["p9"] == levels["twin"] == 1
    assert [levels[f"p{i}"] for i in range(9, -1, -1)] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]


# --- ammonizioni -------------------------------------------------------------------------------------


def test_warnings_per_tournament() -> None:
    assert tournament_warnings(TournamentConduct(pairs=False, timeouts=1)) == 1
    assert tournament_warnings(TournamentConduct(pairs=False, timeouts=5)) == 2
    assert tournament_warnings(TournamentConduct(pairs=True, timeouts=1)) == 2
    assert tournament_warnings(TournamentConduct(pairs=True, slow_expired_matches=1)) == 1
    assert tournament_warnings(TournamentConduct(pairs=True, timeouts=1, slow_expired_matches=3)) == 2
    assert tournament_warnings(TournamentConduct(pairs=False)) == 0
    assert used_over_three_quarters(750_001, 1_000_000) and not used_over_three_quarters(750_000, 1_000_000)
    assert recupero_punti() == (10, 0)


def test_effective_warnings_and_bonus() -> None:
    assert effective_warnings(12, 59) == 11
    assert effective_warnings(12, 60) == 10
    assert effective_warnings(1, 90) == -2 and displayed_warnings(1, 90) == 0


def test_freeroll_bans() -> None:
    assert [ban_days(t) for t in (10, 20, 30, 40, 50, 60, 15)] == [3, 5, 10, 20, 10, 10, 0]
    assert bans_triggered(9, 10) == [(10, 3)]
    assert bans_triggered(8, 21) == [(10, 3), (20, 5)]
    assert bans_triggered(10, 11) == []
    assert bans_triggered(-3, 9) == []


@given(rake=st.integers(0, 10**5), sizes=st.lists(st.integers(1, 4), min_size=1, max_size=40))
def test_money_pt_total(rake: int, sizes: list[int]) -> None:
    placings = [[f"g{g}m{m}" for m in range(size)] for g, size in enumerate(sizes)]
    n = sum(sizes)
    out = money_pt(rake, danese_weights(n), placings)
    assert sum(out.values()) == 3 * rake * n
    assert min(out.values()) >= 2 * rake
