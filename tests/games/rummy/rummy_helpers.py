"""Helpers shared by the rummy tests: seats, random play, card accounting, independent scoring."""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from games.cards import is_joker, rummy_deck
from games.engine import Engine, IllegalAction, State
from games.melds import burraco_kind
from games.rng import Rng, SeededRng

DECK = Counter("X" if is_joker(c) else c for c in rummy_deck())
CARDS = frozenset(rummy_deck())
BURRACO_FORMATS = {"testa_a_testa": 2, "coppie": 4, "4in2": 2}
MOVE_CAP = 4000  # random Scala 40 players may never close (one card each, full melds): abandon


def seats(n: int, prefs: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Seat specs for table seats 1..n."""
    return [{"seat": s, "prefs": dict(prefs or {})} for s in range(1, n + 1)]


def norm(cards: list[str]) -> Counter[str]:
    """A multiset of cards with every jolly alike."""
    return Counter("X" if is_joker(c) else c for c in cards)


def cards_in(value: Any) -> list[str]:
    """Every card string anywhere inside a JSON value (a list: duplicates count)."""
    out: list[str] = []
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if v in CARDS:
                out.append(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def deal_cards(game: str, deal: dict[str, Any]) -> list[str]:
    """Every card of a smazzata in progress: hands, tallone, discards, melds (and pozzetti)."""
    cards = [c for h in deal["hands"] for c in h] + deal["tallone"] + deal["scarti"]
    cards += [c for m in deal["melds"] for c in m["cards"]]
    if game == "burraco":
        cards += [c for p in deal["pozzetti"] for c in p]
    return cards


def play_to_end(engine: Engine, st: State, rng: Rng, at_deal_end: Callable[[dict[str, Any]], None]) -> int:
    """Play random legal moves to the end like ``play_random``, calling ``at_deal_end`` with each
    smazzata's final deal state (the engines keep that dict as it was and start a new one)."""
    moves = 0
    while not engine.is_over(st):
        seat = engine.to_act(st)[0]
        action = engine.sample_action(st, seat, rng) if moves < MOVE_CAP else {"type": "abbandona"}
        deal = st["deal"]
        engine.apply(st, seat, action, rng)
        moves += 1
        if deal["ended"]:
            at_deal_end(deal)
    return moves


def play_random(engine: Engine, st: State, rng: Rng) -> int:
    """Play random legal moves to the end (abandon after MOVE_CAP moves); return the moves."""
    moves = 0
    while not engine.is_over(st):
        seat = engine.to_act(st)[0]
        action = engine.sample_action(st, seat, rng) if moves < MOVE_CAP else {"type": "abbandona"}
        engine.apply(st, seat, action, rng)
        moves += 1
    return moves


# -- independent scoring (written from the rules, not from the engines' code) -------------------------

BURRACO_VALUES = {"A": 15, "2": 20, "X": 30, **dict.fromkeys("34567", 5), **dict.fromkeys("89TJQK", 10)}


def burraco_value(card: str) -> int:
    return BURRACO_VALUES["X" if is_joker(card) else card[0]]


def burraco_recount(detail: dict[str, Any]) -> list[int]:
    """Recompute both lines' points of a Burraco smazzata from its final table and hands."""
    out = []
    for line in (0, 1):
        melds = [m for m in detail["melds"] if m["line"] == line]
        pts = sum(burraco_value(c) for m in melds for c in m["cards"])
        pts += sum({"pulito": 200, "semipulito": 150, "sporco": 100, None: 0}[burraco_kind(m)] for m in melds)
        pts -= sum(burraco_value(c) for p, h in enumerate(detail["hands"]) if p % 2 == line for c in h)
        if detail["closed_by"] is not None and detail["closed_by"] % 2 == line:
            pts += 100
        if detail["pozzetto_line"][line] is None:
            pts -= 100
        out.append(pts)
    return out


def scala40_recount(record: dict[str, Any], closer_pos: int | None) -> list[int]:
    """Recompute what each player pays for a Scala 40 smazzata from the final hands."""
    out = []
    for p, hand in enumerate(record["hands"]):
        if p not in record["active"] or p == closer_pos:
            out.append(0)
            continue
        if not record["opened"][p]:
            out.append(100)
            continue
        aces = sum(1 for c in hand if c[0] == "A")
        pts = 0
        for c in hand:
            if is_joker(c):
                pts += 25
            elif c[0] == "A":
                pts += 1 if aces == 1 else 11
            else:
                pts += min("A23456789TJQK".index(c[0]) + 1, 10)
        out.append(pts * (2 if record["in_mano"] else 1))
    return out


def scala40_line_recount(record: dict[str, Any], closer_pos: int | None, lines: int) -> list[int]:
    """What each line pays: its players' hands (the position p plays for line p % lines); "il
    giocatore o la linea che ha chiuso ... avrà come punteggio 0"."""
    out = [0] * lines
    for p, pts in enumerate(scala40_recount(record, closer_pos)):
        out[p % lines] += pts
    if closer_pos is not None:
        out[closer_pos % lines] = 0
    return out


def visible_hands(st: State, seat: int | None) -> set[int]:
    """The positions whose hands a seat may see, from the rules: its own; a coppie "a carte
    scoperte" also its partner's (the position opposite), never an opponent's; a spectator none."""
    if seat is None:
        return set()
    own = {p for p, s in enumerate(st["seats"]) if s == seat}
    if st["config"].get("carte_scoperte"):
        own |= {(p + 2) % 4 for p in own}
    return own


def seat_of(st: State, pos: int) -> int:
    """The table seat moving a position."""
    return int(st["seats"][pos])


def refused_unchanged(engine: Engine, st: State, pos: int, action: dict[str, Any]) -> IllegalAction:
    """Assert the action is refused (apply and can_apply) and the state left exactly as it was."""
    before = copy.deepcopy(st)
    with pytest.raises(IllegalAction) as err:
        engine.apply(st, seat_of(st, pos), action, SeededRng(1))
    assert st == before
    assert not engine.can_apply(st, seat_of(st, pos), action)
    return err.value


def play_checked(engine: Engine, st: State, pos: int, action: dict[str, Any]) -> list[dict[str, Any]]:
    """Apply an action that can_apply accepts."""
    assert engine.can_apply(st, seat_of(st, pos), action)
    return engine.apply(st, seat_of(st, pos), action, SeededRng(1))
