"""Shared helpers of the capture-games tests: staged deals and random play."""

from __future__ import annotations

from typing import Any

from games.capture import DECK
from games.engine import Engine
from games.registry import get
from games.rng import Rng, SeededRng

TWO = [{"seat": 1}, {"seat": 2}]
FOUR = [{"seat": 1}, {"seat": 2}, {"seat": 3}, {"seat": 4}]


def seats_for(fmt: str) -> list[dict[str, Any]]:
    """Return seat specs for a format."""
    return FOUR if fmt == "coppie" else TWO


def staged(
    game: str,
    hands: list[list[str]],
    table: list[str],
    stock: list[str] | None = None,
    turn: int = 0,
    config: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
) -> tuple[Engine, dict[str, Any]]:
    """Return an engine and a match whose current deal has exactly these hands, table and stock.

    The other cards of the deck go to line 0's pile (they are out of play), so all 40 cards are
    still accounted for.
    """
    eng = get(game)
    fmt = "coppie" if len(hands) == 4 else "testa_a_testa"
    st = eng.new({"format": fmt, **(config or {})}, seats or seats_for(fmt), SeededRng(0))
    deal = st["deal"]
    stock = list(stock or [])
    used = {c for h in hands for c in h} | set(table) | set(stock)
    assert len(used) == sum(map(len, hands)) + len(table) + len(stock)
    deal.update(
        hands=[list(h) for h in hands],
        table=list(table),
        stock=stock,
        piles=[[c for c in DECK if c not in used], []],
        scope=[0, 0],
        scope_cards=[],
        turn=turn,
        last_taker=None,
        moves=[],
        over=False,
        cappotto=None,
    )
    if game == "cirulla":
        n = len(hands)
        deal.update(accusi=[0, 0], accused_round=[0] * n, shown=[[] for _ in range(n)], matta=[None] * n)
    return eng, st


def play_random(
    eng: Engine, st: dict[str, Any], rng: Rng, chooser: Rng | None = None
) -> list[dict[str, Any]]:
    """Play the match out with random legal moves (picked with ``chooser``, default ``rng``).

    Returns the (seat, action) list.
    """
    log = []
    pick = chooser or rng
    while not eng.is_over(st):
        (seat,) = eng.to_act(st)
        action = eng.sample_action(st, seat, pick)
        eng.apply(st, seat, action, rng)
        log.append({"seat": seat, "action": action})
    return log


def all_cards(st: dict[str, Any]) -> list[str]:
    """Return every card of the current deal: stock, hands, table, piles."""
    deal = st["deal"]
    return [
        *deal["stock"],
        *(c for h in deal["hands"] for c in h),
        *deal["table"],
        *deal["piles"][0],
        *deal["piles"][1],
    ]
