"""Chemin de fer: the engine registered as "chemin" (see ``games.chemin.engine``)."""

from games.chemin.engine import ChemindeferEngine, resolve_bets, right_of
from games.chemin.regola import banker_cell, banker_draws, points, punta_decision

__all__ = [
    "ChemindeferEngine",
    "banker_cell",
    "banker_draws",
    "points",
    "punta_decision",
    "resolve_bets",
    "right_of",
]
