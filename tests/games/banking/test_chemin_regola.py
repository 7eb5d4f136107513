"""The "gioco alla regola" table (RULINGS B3: normative), checked cell by cell."""

from __future__ import annotations

import pytest

from games.chemin.engine import ChemindeferEngine
from games.chemin.regola import PRINTED_TABLE, banker_cell, banker_draws, printed_column, punta_decision
from games.chemin.sim import banco_carry
from games.rng import SeededRng

E = ChemindeferEngine()
RNG = SeededRng(0)

# The table as the regulation prints it (rules 004, "Il gioco alla regola"), copied separately from
# the engine's transcription: header, then the banker's points and eleven values per row.
RULES_TEXT = """\
Il banco ha\tLa punta tira\t\t\t\t\t\t\t\t\t\t
\t0\t1\t2\t3\t4\t5\t6\t7\t8\t9\t
0\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira
1\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira
2\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira
3\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\ttira\tsta\tvolontà
4\tsta\tsta\ttira\ttira\ttira\ttira\ttira\ttira\ttira\tsta\tsta
5\tsta\tsta\tsta\tsta\tvolontà\ttira\ttira\ttira\ttira\tsta\tsta
6\tsta\tsta\tsta\tsta\tsta\tsta\tsta\ttira\ttira\tsta\tsta
7\tsta\tsta\tsta\tsta\tsta\tsta\tsta\tsta\tsta\tsta\tsta
8\tbatte\t\t\t\t\t\t\t\t\t\t
9\tbatte\t\t\t\t\t\t\t\t\t\t
"""

# The classic chemin de fer tableau, written independently: for each banker total, the punta's
# third-card values on which the banker draws, stands, or may choose.
CLASSIC = {
    0: ("0123456789", "", ""),
    1: ("0123456789", "", ""),
    2: ("0123456789", "", ""),
    3: ("01234567", "8", "9"),
    4: ("234567", "0189", ""),
    5: ("567", "012389", "4"),
    6: ("67", "01234589", ""),
    7: ("", "0123456789", ""),
}


def parsed_rows():
    lines = RULES_TEXT.splitlines()[2:]
    return {int(line.split("\t")[0]): line.split("\t")[1:] for line in lines}


def test_engine_table_is_the_printed_table():
    rows = parsed_rows()
    for banker in range(8):
        assert PRINTED_TABLE[banker] == rows[banker], banker
    assert rows[8][0] == rows[9][0] == "batte"


@pytest.mark.parametrize("banker", range(10))
@pytest.mark.parametrize("third", range(10))
def test_every_cell(banker, third):
    rows = parsed_rows()
    cell = banker_cell(banker, third)
    assert cell == rows[banker][printed_column(third)] or (banker >= 8 and cell == "batte")
    if banker < 8:
        draws, stands, choice = CLASSIC[banker]
        expected = "tira" if str(third) in draws else "sta" if str(third) in stands else "volontà"
        assert str(third) in draws + stands + choice
        assert cell == expected


def test_the_unlabelled_printed_column_adds_no_decision():
    # The printed rows carry eleven values under ten numbers; the extra one (between 5 and 6)
    # repeats the column 5 and the "la punta non chiede carta" rule in every row (regola.py).
    for banker in range(8):
        row = PRINTED_TABLE[banker]
        assert row[6] == row[5] == banker_cell(banker, None)


@pytest.mark.parametrize("banker", range(10))
def test_punta_stood(banker):
    # "Se la punta non chiede carta: tira con 0–5, sta con 6 o 7, batte con 8 o 9"
    expected = "batte" if banker >= 8 else "tira" if banker <= 5 else "sta"
    assert banker_cell(banker, None) == expected


@pytest.mark.parametrize(
    ("points", "play"),
    [
        (0, "chiamo"),
        (1, "chiamo"),
        (2, "chiamo"),
        (3, "chiamo"),
        (4, "chiamo"),
        (5, "sto"),
        (6, "sto"),
        (7, "sto"),
        (8, "batto"),
        (9, "batto"),
    ],
)
def test_punta_regola(points, play):
    assert punta_decision(points, {}) == play
    assert punta_decision(5, {"chemin_punta_5": "tiro"}) == "chiamo"


def test_volonta_default_is_stare():
    assert not banker_draws(3, 9, {}) and banker_draws(3, 9, {"chemin_banco_3_dando_9": "tiro"})
    assert not banker_draws(5, 4, {}) and banker_draws(5, 4, {"chemin_banco_5_dando_4": "tiro"})
    assert not banker_draws(3, 9, {"chemin_banco_5_dando_4": "tiro"})


RANK_OF = {0: "T", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}


@pytest.mark.parametrize("banker", range(8))
@pytest.mark.parametrize("third", range(10))
def test_engine_plays_each_cell_alla_regola(banker, third):
    """Deal punta 2 (she calls), the banker ``banker``, the punta's third card ``third``; the banker plays."""
    banker_cards = ["Kd", "Qs"] if banker == 0 else [RANK_OF[banker] + "d", "Ks"]
    prefix = ["2h", banker_cards[0], "Kc", banker_cards[1], RANK_OF[third] + "h", "Jh"]
    table = [
        {"seat": 1, "chips": 10_000, "sitout": False, "prefs": {"chemin_alla_regola": True}},
        {"seat": 2, "chips": 10_000, "sitout": False, "prefs": {}},
    ]
    state = E.new({"min_posta": 1000, "min_bet": 100}, table, RNG, banco_carry(1, 1000, [1, 2], prefix))
    E.apply(state, 2, {"type": "banco"}, RNG)
    E.apply(state, 2, {"type": "chiamo"}, RNG)
    expected = CLASSIC[banker][0]
    assert state["banco_play"] == ("chiamo" if str(third) in expected else "sto")
    assert state["phase"] in ("over", "decisione")
