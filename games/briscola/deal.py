"""One smazzata of Briscola (rules 004, "Regole della Briscola"; RULINGS I6).

2 or 4 players, three cards each dealt one at a time counter-clockwise from the dealer's right;
the next card is turned face up under the stock and shows the briscola (trump) suit; it is the
last card drawn. Play is free (no obligation to follow suit). The trick's winner draws first,
then the others counter-clockwise; once the stock is out the last three tricks are played
without drawing. 120 card points in all: 61 wins the smazzata, 60–60 is a tie.

"Vinco subito": the line that has just taken ends the smazzata, winning it, the moment it has 61
card points (RULINGS I6); the cards still out stay unassigned (they score for nobody). It is on
with the match option ``vinco_subito`` (partite a punti) or ``vinco_subito_smazzata`` (partite a
smazzate, where the match engine's own vinco subito does not apply).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.cards import rank, suit
from games.tricks import BRISCOLA_RULES, State, TrickDeal

CARD_POINTS = {"A": 11, "3": 10, "K": 4, "Q": 3, "J": 2}
TOTAL_POINTS = 120
WINNING_POINTS = 61


def card_points(cards: Sequence[str]) -> int:
    """Briscola points of some cards (asso 11, tre 10, re 4, cavallo 3, fante 2, lisci 0)."""
    return sum(CARD_POINTS.get(rank(c), 0) for c in cards)


class BriscolaDeal(TrickDeal):
    """The rules of one Briscola smazzata (see the module docstring)."""

    game = "briscola"
    rules = BRISCOLA_RULES
    hand_size = 3

    def setup(self, d: State) -> None:
        """Turn up the first card of the stock: it shows the briscola and is the last drawn."""
        briscola = d["stock"].pop(0)
        d["stock"].append(briscola)
        d["trump"] = suit(briscola)
        d["briscola"] = briscola

    def vinco_subito(self, d: State) -> bool:
        """Whether the smazzata ends the moment a line reaches 61."""
        return self.opt(d, "vinco_subito") or self.opt(d, "vinco_subito_smazzata")

    def after_trick(self, d: State, winner: int) -> None:
        """Vinco subito: the taking line wins the smazzata on reaching 61 (RULINGS I6)."""
        if self.vinco_subito(d) and self.running_points(d)[self.line_of(d, winner)] >= WINNING_POINTS:
            self.finish(d, "vinco_subito")

    def running_points(self, d: State) -> list[int]:
        """Card points taken by each line so far."""
        return [card_points(self.line_cards(d, i)) for i in (0, 1)]

    def unassigned_points(self, d: State) -> int:
        """Card points not yet taken by either line."""
        return TOTAL_POINTS - sum(self.running_points(d))

    def result(self, d: State) -> dict[str, Any]:
        """Card points per line, the smazzata's winner (61+; None on 60–60) and the last taker."""
        points = self.running_points(d)
        winner = 0 if points[0] >= WINNING_POINTS else 1 if points[1] >= WINNING_POINTS else None
        last = self.last_taker(d)
        return {
            "points": points,
            "winner": winner,
            "last_trick": None if last is None else self.line_of(d, last),
            "ended_by": d["ended_by"],
        }

    def view(self, d: State, visible: frozenset[int], carte_viste: bool) -> dict[str, Any]:
        """The common trick view plus the face-up briscola card (seen by everybody all game)."""
        v = super().view(d, visible, carte_viste)
        v["briscola"] = d["briscola"]
        v["briscola_in_stock"] = bool(d["stock"])
        return v


DEAL = BriscolaDeal()
