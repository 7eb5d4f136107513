"""The slot's tables against the rules' text and RULINGS S1, S2, S4, S5, S6."""

from __future__ import annotations

from games.slot import lines, table


def test_thirty_distinct_paylines_one_cell_per_reel_left_to_right():
    assert table.LINES == len(table.PAYLINES) == 30
    assert len(set(table.PAYLINES)) == 30
    for line in table.PAYLINES:
        assert len(line) == table.REELS
        assert all(0 <= row < table.ROWS for row in line)


def test_twelve_symbols_eight_normal_one_wild_three_specials():
    assert len(table.SYMBOLS) == 12
    assert len(table.NORMAL) == 8
    assert set(table.SYMBOLS) == {*table.NORMAL, table.WILD, *table.SPECIALS}
    assert table.SYMBOLS[table.WILD] == "Bomba"
    assert table.SYMBOLS[table.BONUS] == "Serratura"
    assert table.SYMBOLS[table.FREE_SPIN] == "Fionda"


def test_pays_of_the_text_the_others_below_the_wild_at_or_above_the_top():
    text = [(45, 180, 750), (30, 120, 500), (20, 90, 300), (15, 60, 150)]
    assert [table.PAYS[s] for s in table.NORMAL[:4]] == text
    for symbol in table.NORMAL[4:]:
        assert all(p < low for p, low in zip(table.PAYS[symbol], text[-1], strict=True))
    assert all(w >= top for w, top in zip(table.PAYS[table.WILD], text[0], strict=True))
    assert set(table.PAYS) == {*table.NORMAL, table.WILD}  # specials pay no line


def test_strips_use_the_symbols_and_show_a_special_at_most_once_per_reel():
    for strips in (table.STRIPS, table.FREE_SPIN_STRIPS):
        assert len(strips) == table.REELS
        for strip in strips:
            assert set(strip) <= set(table.SYMBOLS)
            for stop in range(len(strip)):
                column = lines.window([strip], [stop])[0]
                assert all(column.count(s) <= 1 for s in table.SPECIALS)
    assert all(table.BONUS not in strip for strip in table.STRIPS[table.BONUS_REELS :])


def test_free_spin_strips_replace_bonus_and_pierino_by_wilds():
    for base, free in zip(table.STRIPS, table.FREE_SPIN_STRIPS, strict=True):
        assert table.BONUS not in free and table.PIERINO not in free
        assert free.count(table.FREE_SPIN) == base.count(table.FREE_SPIN)
        for a, b in zip(base, free, strict=True):
            assert b == (table.WILD if a in (table.BONUS, table.PIERINO) else a)


def test_bonus_six_doors_six_levels_growing_multipliers():
    assert table.BONUS_DOORS == 6 and table.BONUS_TOP_LEVEL == 6
    mults = [table.BONUS_MULTIPLIERS[level] for level in range(1, 7)]
    assert mults == sorted(mults) and len(set(mults)) == 6
    assert all(1 <= table.BONUS_PRESIDE[level] < 6 for level in range(1, 6))


def test_twelve_slates_with_a_preside_and_a_cap_of_one_hundred():
    assert len(table.SLATES) == 12
    assert table.PRESIDE_SLATE in table.SLATES
    assert table.FREE_SPIN_CAP == 100
    assert sorted(table.FREE_SPINS_AWARDED) == [3, 4, 5]


def test_pierino_mode_points_and_bands_as_the_text():
    assert sorted(table.POINTS.values(), reverse=True) == [(20, 80, 500), (10, 40, 160), (5, 20, 60)]
    assert table.PIERINO_SPINS == 10 and table.PIERINO_PAY == 50
    assert all(table.BLANK in strip for strip in table.POINT_STRIPS)
    assert table.PIERINO_BANDS == ((0, 50_000), (200, 100_000), (400, 300_000), (600, 1_000_000))
