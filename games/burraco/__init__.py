"""Burraco (rules 004, RULINGS R1, I5, C1): the match engine of games.partite around one smazzata.

Registered as ``"burraco"``. Formats: testa a testa, a coppie (fisse or casuali, optional carte
scoperte between partners), 4 in 2. Partite a punti (default to 2005) or a smazzate; KO spareggi:
the line that made the last move of the last smazzata loses. Timeout or abandon: 350 points to
the other line before the difference (C1, never below 0). Cash: difference / 100, half down.

Besides the contract, ``options(state, seat, action)`` lists the layouts a chosen subset of cards
may take, ``layouts(state, seat, request)`` those of them ``apply`` accepts for that request, with
the ``start`` that selects each and what the table shows of it (the table's choice of ace low/high
and of the end a matta goes to), and ``sample_action`` plays random legal moves that favour melding.
"""

from __future__ import annotations

from typing import Any, ClassVar

from games.burraco.deal import BurracoDeal
from games.partite import PartiteEngine
from games.registry import register
from games.rummy import RummyMoves, RummyRules


@register
class BurracoEngine(RummyMoves, PartiteEngine):
    """Burraco in 2 or 4 (rules 004)."""

    name = "burraco"
    # a turn (draw, melds, discard) of an 11–15 card hand, and the time to come back after a drop:
    # the rules want the tempo giocata "sempre relativamente lungo" (docs/live-tables.md, Clocks)
    default_tempo_giocata = 90
    title = "Burraco"
    min_seats = 2
    max_seats = 4
    rules = BurracoDeal()
    defaults: ClassVar[dict[str, Any]] = {
        "mode": "punti",
        "target": 2005,
        "cash_divisor": 100,
        "decider": "loses",
    }

    def moves(self) -> RummyRules:
        """Return the smazzata's rules (they plan every move)."""
        return self.rules
