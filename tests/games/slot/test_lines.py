"""Line evaluation: consecutive from reel 1, the wild, only the highest win (RULINGS S2, S3, S6)."""

from __future__ import annotations

import pytest

from games.slot import lines, table


@pytest.mark.parametrize(
    ("symbols", "expected"),
    [
        ("CCCRG", (45, "C", 3)),
        ("CCCCG", (180, "C", 4)),
        ("CCCCC", (750, "C", 5)),
        ("RCCCC", (0, "", 0)),  # not from reel 1
        ("CCRCC", (0, "", 0)),  # not consecutive
        ("CWCRG", (45, "C", 3)),  # the wild stands for the symbol
        ("WCCCC", (750, "C", 5)),
        ("WWCGG", (45, "C", 3)),
        ("WWWGG", (50, "W", 3)),  # wild × 3 = Gomma × 5 = 50: one win of 50
        ("WWWRR", (50, "W", 3)),  # Righello × 5 = 40 < wild × 3 = 50: only the highest
        ("WWWCC", (750, "C", 5)),  # Campanella × 5 = 750 > wild × 3
        ("WWWWR", (200, "W", 4)),  # wild × 4 = 200 > Righello × 5 = 40
        ("WWWWW", (1000, "W", 5)),
        ("SSSSS", (0, "", 0)),  # specials never pay a line
        ("WWSSS", (0, "", 0)),  # the wild never stands for a special
        ("WWPCC", (0, "", 0)),
        ("CCFCC", (0, "", 0)),
        ("WWWSS", (50, "W", 3)),
    ],
)
def test_line_win(symbols, expected):
    assert lines.line_win(symbols) == expected


def test_gomma_five_and_wild_three_pay_the_same_once():
    assert table.PAYS["G"][2] == table.PAYS[table.WILD][0] == 50
    assert lines.line_win("WWWGG")[0] == 50


def test_wins_on_different_lines_add():
    win = ["CCC", "CCC", "CCC", "RRR", "RRR"]  # every line: Campanella × 3
    wins = lines.line_wins(win)
    assert len(wins) == 30 and sum(w["pay"] for w in wins) == 30 * 45
    assert [w["line"] for w in wins] == list(range(1, 31))


def test_a_line_sees_one_cell_per_reel_by_its_pattern():
    win = ["ABC", "DEF", "GHI", "JKL", "MNO"]
    assert lines.line_symbols(win, (0, 1, 2, 1, 0)) == "AEIKM"
    assert lines.line_symbols(win, table.PAYLINES[0]) == "BEHKN"


def test_specials_are_counted_anywhere_bonus_on_reels_one_to_three():
    win = ["SRG", "GSR", "RGS", "SFP", "PFS"]
    assert lines.count_symbol(win, table.BONUS, table.BONUS_REELS) == 3
    assert lines.count_symbol(win, table.FREE_SPIN) == 2
    assert lines.count_symbol(win, table.PIERINO) == 2


@pytest.mark.parametrize(
    ("symbols", "points"),
    [("AAA__", 20), ("AAAA_", 80), ("AAAAA", 500), ("BBBDD", 10), ("DDDDD", 60), ("_AAAA", 0), ("AABAA", 0)],
)
def test_point_line(symbols, points):
    assert lines.point_line(symbols) == points


def test_points_add_over_the_thirty_lines():
    assert lines.points(["AAA", "AAA", "AAA", "___", "___"]) == 30 * 20


@pytest.mark.parametrize(
    ("points", "prize"),
    [
        (0, 50_000),
        (199, 50_000),
        (200, 100_000),
        (399, 100_000),
        (400, 300_000),
        (599, 300_000),
        (600, 1_000_000),
    ],
)
def test_band_prize_one_band_only(points, prize):
    assert lines.band_prize(points) == prize
