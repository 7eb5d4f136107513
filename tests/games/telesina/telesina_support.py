"""Helpers for the Telesina tests: rig the deck, build a table, act by button name."""

from __future__ import annotations

import copy
from typing import Any

from games.cards import poker_deck
from games.rng import SeededRng
from games.telesina import Telesina
from games.telesina.vele import LAYOUTS

E = Telesina()


class RiggedRng:
    """An Rng whose first shuffle of ``source`` gives exactly ``target``; then a seeded generator."""

    def __init__(self, source: list[str], target: list[str], seed: int = 1) -> None:
        assert sorted(source) == sorted(target)
        out = list(source)
        self._draws: list[int] = []
        for i in range(len(out) - 1, 0, -1):
            j = out.index(target[i], 0, i + 1)
            self._draws.append(j)
            out[i], out[j] = out[j], out[i]
        assert out == target
        self._rest = SeededRng(seed)

    def randbelow(self, n: int) -> int:
        if self._draws:
            return self._draws.pop(0)
        return self._rest.randbelow(n)


def deck_for(players: list[int], hands: dict[int, str], vele: dict[str, str], layout: str) -> list[str]:
    """The deck order that deals these five cards to these seats (in order) and these vele.

    The deal: first card to each seat, second card to each, the vele (A, B, …), then one card per
    round to each seat; seats are given clockwise from the dealer's left. Unnamed cards are filled
    from the rest of the deck.
    """
    deck = poker_deck(len(players))
    named = {c for text in hands.values() for c in text.split()} | set(vele.values())
    assert not named - set(deck), named - set(deck)
    spare = [c for c in deck if c not in named]
    cards = {s: hands[s].split() if s in hands else [] for s in players}
    for s in players:
        while len(cards[s]) < 5:
            cards[s].append(spare.pop())
    letters = LAYOUTS[layout].letters
    vv = [vele[x] if x in vele else spare.pop() for x in letters]
    order = [cards[s][0] for s in players] + [cards[s][1] for s in players] + vv
    for r in range(2, 5):
        order += [cards[s][r] for s in players]
    order += spare
    assert sorted(order) == sorted(deck)
    return order


class Table:
    """A hand under test: ``t.do(seat, "punto", 40)``; seats 1..n, dealer ``n`` unless told."""

    def __init__(
        self,
        n: int = 3,
        *,
        hands: dict[int, str] | None = None,
        vele: dict[str, str] | None = None,
        layout: str = "croce",
        dist: str = "mai",
        chips: Any = 1000,
        dealer: int | None = None,
        prefs: dict[int, dict] | None = None,
        sitout: tuple[int, ...] = (),
        carry: dict | None = None,
        seed: int = 1,
        **cfg: Any,
    ) -> None:
        self.e = E
        seats = list(range(1, n + 1))
        dealer = n if dealer is None else dealer
        order = [s for s in seats if s > dealer] + [s for s in seats if s <= dealer]
        players = [s for s in order if s not in sitout]
        target = deck_for(players, hands or {}, vele or {}, layout if layout != "libera" else "nessuna")
        self.rng = RiggedRng(poker_deck(len(players)), target, seed)
        self.cfg = {"invito": 10, "vele": layout, "distribuzione": dist, **cfg}
        chips = chips if isinstance(chips, dict) else dict.fromkeys(seats, chips)
        base = {"invito_automatico": True, "mostra_nascondi": "chiedi"}
        self.seats_in = [
            {
                "seat": s,
                "chips": chips[s],
                "sitout": s in sitout,
                "prefs": {**base, **(prefs or {}).get(s, {})},
            }
            for s in seats
        ]
        previous = seats[seats.index(dealer) - 1]  # the next hand's dealer is the one after it
        self.st = E.new(self.cfg, self.seats_in, self.rng, {**(carry or {}), "dealer": previous})
        self.events: list[dict] = []
        self.initial_leader = self.st["leader"]

    def do(self, seat: int, typ: str, amount: int | None = None, **extra: Any) -> list[dict]:
        action = {"type": typ, **extra}
        if amount is not None:
            action["amount"] = amount
        ev = E.apply(self.st, seat, action, self.rng)
        self.events += ev
        return ev

    def timeout(self, seat: int) -> list[dict]:
        action = {**E.timeout_action(self.st, seat), "timeout": True}
        ev = E.apply(self.st, seat, action, self.rng)
        self.events += ev
        return ev

    def specs(self, seat: int) -> list[dict]:
        return E.legal_actions(self.st, seat)

    def types(self, seat: int) -> dict[str, dict]:
        return {s["type"]: s for s in self.specs(seat)}

    def labels(self, seat: int) -> list[str]:
        return [s["label"] for s in self.specs(seat)]

    @property
    def turn(self) -> int | None:
        return self.st["turn"]

    @property
    def phase(self) -> str:
        return self.st["phase"]

    def check_round(self) -> list[int]:
        """Everyone checks (BUSSO) round after round until something else than a check is needed."""
        spoke = []
        while self.phase == "puntata" and "busso" in self.types(self.turn):
            spoke.append(self.turn)
            self.do(self.turn, "busso")
        return spoke

    def choose_newest(self) -> None:
        while self.phase == "scopri":
            s = E.to_act(self.st)[0]
            self.do(s, "scopro", card=self.st["covered"][str(s)][-1])

    def play_checks(self) -> None:
        """Check every round and turn up the newest card, to the showdown choices."""
        for _ in range(100):
            if self.phase == "scopri":
                self.choose_newest()
            elif self.phase == "puntata":
                self.do(self.turn, "busso")
            else:
                return

    def firsts(self) -> list[int]:
        """The best-showing seat of every betting round so far (T4), the first one from ``new``."""
        first = [self.initial_leader] if self.initial_leader is not None else []
        return first + [ev["seat"] for ev in self.events if ev["type"] == "parola"]

    def snapshot(self) -> dict:
        return copy.deepcopy(self.st)
