"""Points and the "gioco alla regola" of Chemin de fer (rules 004, "Il gioco alla regola"; RULINGS B3).

The table is normative for automatic play (B3). It is kept here exactly as the rules print it,
row by row, so a reader can compare it with the regulation; ``banker_draws`` reads it.

The printed table has eleven values per row under a ten-value header ("La punta tira 0 … 9").
The extra value sits between the columns 5 and 6 and, in every row, equals both its neighbours
and the "la punta non chiede carta" rule (tira 0–5, sta 6–7); it adds no decision. We read the
columns as 0 1 2 3 4 5 [extra] 6 7 8 9; the test suite checks that reading cell by cell against
a second, independent transcription and against the classic chemin de fer tableau.
"""

from __future__ import annotations

from typing import Any

from games.cards import rank

POINTS = {r: (i + 1 if i < 9 else 0) for i, r in enumerate("A23456789TJQK")}  # figures and tens: 0

TIRA, STA, VOLONTA, BATTE = "tira", "sta", "volontà", "batte"

# Rows: the banker's points 0–7 (8 and 9: "batte", the banker's natural). Eleven printed values.
PRINTED_TABLE: dict[int, list[str]] = {
    0: [TIRA] * 11,
    1: [TIRA] * 11,
    2: [TIRA] * 11,
    3: [TIRA] * 9 + [STA, VOLONTA],
    4: [STA, STA] + [TIRA] * 7 + [STA, STA],
    5: [STA] * 4 + [VOLONTA] + [TIRA] * 4 + [STA, STA],
    6: [STA] * 7 + [TIRA, TIRA] + [STA, STA],
    7: [STA] * 11,
}
EXTRA_COLUMN = 6  # index of the printed value that is not under a header number (see module docstring)


def printed_column(third_card_value: int) -> int:
    """Return the index in a printed row of the column headed by this third-card value."""
    return third_card_value if third_card_value < EXTRA_COLUMN else third_card_value + 1


def points(cards: list[str]) -> int:
    """Return the points of a hand: card values summed, tens dropped (7+6+9 → 2)."""
    return sum(POINTS[rank(c)] for c in cards) % 10


def card_value(card: str) -> int:
    """Return one card's points (figures and tens are 0)."""
    return POINTS[rank(card)]


def prefs_bool(prefs: dict[str, Any], key: str) -> bool:
    """Read a yes/no player option (absent: no)."""
    return prefs.get(key) is True


def prefs_tiro(prefs: dict[str, Any], key: str) -> bool:
    """Read an "a volontà" option: True for "tiro"; the rules' default is "sto"."""
    return prefs.get(key) == "tiro"


def punta_decision(punta_points: int, prefs: dict[str, Any]) -> str:
    """Return the punta's play alla regola: "chiamo", "sto" or "batto" (5: the a-volontà option)."""
    if punta_points >= 8:
        return "batto"
    if punta_points <= 4:
        return "chiamo"
    if punta_points == 5:
        return "chiamo" if prefs_tiro(prefs, "chemin_punta_5") else "sto"
    return "sto"


def banker_cell(banker_points: int, third_card_value: int | None) -> str:
    """Return the rules' cell for the banker: tira/sta/volontà/batte (None: the punta stood)."""
    if banker_points >= 8:
        return BATTE
    if third_card_value is None:
        return TIRA if banker_points <= 5 else STA
    return PRINTED_TABLE[banker_points][printed_column(third_card_value)]


def banker_draws(banker_points: int, third_card_value: int | None, prefs: dict[str, Any]) -> bool:
    """Tell whether the banker draws alla regola, the a-volontà cells read from the options."""
    cell = banker_cell(banker_points, third_card_value)
    if cell == VOLONTA:
        key = "chemin_banco_3_dando_9" if banker_points == 3 else "chemin_banco_5_dando_4"
        return prefs_tiro(prefs, key)
    return cell == TIRA
