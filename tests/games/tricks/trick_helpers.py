"""Helpers shared by the trick-game tests: random play, card extraction, rigged deals."""

from __future__ import annotations

from typing import Any

from games.cards import italian_deck
from games.engine import Engine, State
from games.rng import Rng, SeededRng

DECK = frozenset(italian_deck())
FORMATS = {"testa_a_testa": 2, "coppie": 4, "4in2": 2}


def seats_for(fmt: str, prefs: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """Seat specs for a format (table seats 1..n)."""
    return [{"seat": s, "prefs": dict(prefs or {})} for s in range(1, FORMATS[fmt] + 1)]


def cards_in(value: Any) -> set[str]:
    """Every card string anywhere inside a JSON value."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            if v in DECK:
                out.add(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return out


def play_out(engine: Engine, st: State, rng: Rng) -> int:
    """Play random legal moves until the match ends; return the number of moves."""
    n = 0
    while not engine.is_over(st):
        seat = engine.to_act(st)[0]
        engine.apply(st, seat, engine.sample_action(st, seat, rng), rng)
        n += 1
    return n


def rigged(
    engine: Engine, config: dict[str, Any], deck: list[str], fmt_prefs: dict[str, Any] | None = None
) -> State:
    """A match whose first smazzata is dealt from ``deck`` with the dealer at position 0.

    Dealing goes from the dealer's right: position 1 gets deck[0], then position 0 (2 players)
    or positions 1, 2, 3, 0 (4 players).
    """
    st = engine.new(config, seats_for(config.get("format", "testa_a_testa"), fmt_prefs), SeededRng(0))
    st["dealer"] = 0
    st["deck_log"] = []
    deal, decks, _ = engine.rules.start_with(st, deck)  # type: ignore[attr-defined]  # the base Engine type; a trick engine has rules
    st["deal"] = deal
    st["deck_log"].extend(decks)
    return st


def deck_for(hands: dict[int, list[str]], stock: list[str] | None = None, size: int = 10) -> list[str]:
    """A deck that deals ``hands`` (by position, dealer 0) one at a time, then ``stock``.

    Hands given short are filled up to ``size`` with unused cards in the standard order; the
    cards left over follow the given stock in the standard order.
    """
    used = {c for h in hands.values() for c in h} | set(stock or [])
    spare = [c for c in italian_deck() if c not in used]
    full = {p: list(h) + [spare.pop(0) for _ in range(size - len(h))] for p, h in hands.items()}
    n = len(full)
    order = [(1 + i) % n for i in range(n)]
    deck = [full[p][i] for i in range(size) for p in order]
    deck += list(stock or [])
    deck += [c for c in italian_deck() if c not in deck]
    assert len(deck) == 40 and len(set(deck)) == 40
    return deck
