"""Helpers for the Poker 5 carte tests: build a table, rig the cards, act by button name."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.cards import poker_deck
from games.poker5 import Poker5
from games.rng import SeededRng

ENGINE = Poker5()


class Table:
    """A hand under test: ``t.do(seat, "punto", 40)`` applies the action, ``t.specs(seat)`` lists buttons."""

    def __init__(
        self,
        n: int = 3,
        *,
        chips: Any = 1000,
        dealer: int | None = None,
        carry=None,
        prefs=None,
        sitout=(),
        seed: int = 1,
        **cfg: Any,
    ) -> None:
        self.e = ENGINE
        self.rng = SeededRng(seed)
        self.cfg = {"invito": 10, **cfg}
        seats = list(range(1, n + 1))
        chips = chips if isinstance(chips, dict) else dict.fromkeys(seats, chips)
        base = {"invito_automatico": True, "mostra_nascondi": "chiedi"}
        self.specs_in = [
            {
                "seat": s,
                "chips": chips[s],
                "sitout": s in sitout,
                "prefs": {**base, **(prefs or {}).get(s, {})},
            }
            for s in seats
        ]
        carry = dict(carry or {})
        if dealer is not None:
            carry["dealer"] = seats[seats.index(dealer) - 1]  # the previous dealer
        self.st = self.e.new(self.cfg, self.specs_in, self.rng, carry)
        self.events: list[dict] = []

    def do(self, seat: int, typ: str, amount: int | None = None, **extra: Any) -> list[dict]:
        action = {"type": typ, **extra}
        if amount is not None:
            action["amount"] = amount
        ev = self.e.apply(self.st, seat, action, self.rng)
        self.events += ev
        return ev

    def specs(self, seat: int) -> list[dict]:
        return self.e.legal_actions(self.st, seat)

    def types(self, seat: int) -> dict[str, dict]:
        return {s["type"]: s for s in self.specs(seat)}

    def labels(self, seat: int) -> list[str]:
        return [s["label"] for s in self.specs(seat)]

    def rig(self, hands: dict[int, str], stock: str | None = None) -> None:
        """Give these five cards to these seats (after the deal); the stock is the rest, or ``stock``."""
        st = self.st
        for s, text in hands.items():
            st["hands"][str(s)] = text.split()
        rigged = {c for s in hands for c in st["hands"][str(s)]}
        assert len(rigged) == 5 * len(hands), "rigged cards overlap"
        free = [c for c in poker_deck(len(st["players"])) if c not in rigged]
        for k in st["hands"]:
            if int(k) not in hands:  # the other seats get unused cards
                st["hands"][k], free = free[:5], free[5:]
        st["stock"] = stock.split() if stock is not None else free

    def dai_carte(self) -> None:
        """Decline the blind if it is offered."""
        if self.st["phase"] == "buio":
            self.do(self.st["turn"], "dai_carte")

    def servito_all(self) -> None:
        while self.st["phase"] == "cambio":
            self.do(self.st["turn"], "cambio", cards=[])

    @property
    def turn(self) -> int | None:
        return self.st["turn"]

    def stacks(self) -> dict[str, int]:
        return dict(self.st["b"]["stack"])

    def snapshot(self) -> dict:
        return copy.deepcopy(self.st)


@pytest.fixture
def table():
    return Table
