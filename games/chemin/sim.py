"""Random Chemin de fer sessions: coup after coup with random legal decisions (bots, tests, bench)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games import cards
from games.chemin.engine import FORFAIT, PUNTATE, ChemindeferEngine
from games.engine import Action, SeatSpec, State
from games.rng import Rng

ENGINE = ChemindeferEngine()

Hook = Callable[[State, int | None, Action | None], None]


def pick(state: State, seat: int, rng: Rng) -> Action:
    """Pick a random legal decision, now and then the runtime's timeout decision instead."""
    if rng.randbelow(12) == 0:
        return ENGINE.timeout_action(state, seat)
    return ENGINE.sample_action(state, seat, rng)


def optional_seats(state: State) -> list[int]:
    """Return the seats with buttons the coup does not wait for (raises, the banker in the window)."""
    if state["phase"] != PUNTATE:
        return []
    acting = ENGINE.to_act(state)
    return [s for s in state["order"] if s not in acting and ENGINE.legal_actions(state, s)]


def choose(state: State, rng: Rng) -> tuple[int, Action]:
    """Pick who acts and what: a seat due (``pick``), or now and then an optional button."""
    optional = optional_seats(state)
    if optional and rng.randbelow(4) == 0:
        seat = optional[rng.randbelow(len(optional))]
        return seat, ENGINE.sample_action(state, seat, rng)
    acting = ENGINE.to_act(state)
    seat = acting[rng.randbelow(len(acting))]
    return seat, pick(state, seat, rng)


def play_coup(state: State, rng: Rng, hook: Hook | None = None, max_steps: int = 500) -> State:
    """Play a coup to its end with random decisions; ``hook`` sees the state after every action."""
    steps = 0
    while not ENGINE.is_over(state):
        seat, action = choose(state, rng)
        ENGINE.apply(state, seat, action, rng)
        if hook is not None:
            hook(state, seat, action)
        steps += 1
        if steps > max_steps:
            raise RuntimeError("coup did not end")
    return state


def next_seats(state: State, seats: list[SeatSpec], rng: Rng, sitouts: bool = True) -> list[SeatSpec]:
    """Carry the credits of an ended coup into the next one's seat specs, toggling sitout now and then."""
    out = ENGINE.outcome(state)
    new = []
    for spec in seats:
        sitout = spec.get("sitout", False)
        if sitouts and rng.randbelow(15) == 0:
            sitout = not sitout
        new.append({**spec, "chips": out["chips"][str(spec["seat"])], "sitout": sitout})
    return new


def session(
    config: dict[str, Any],
    seats: list[SeatSpec],
    rng: Rng,
    coups: int,
    hook: Hook | None = None,
) -> tuple[State, list[str]]:
    """Play ``coups`` coups from scratch; return the last state and the list of coup results."""
    carry = None
    results: list[str] = []
    state: State = {}
    for _ in range(coups):
        state = ENGINE.new(config, seats, rng, carry)
        if hook is not None:
            hook(state, None, None)
        play_coup(state, rng, hook)
        results.append(state["result"])
        carry = ENGINE.carry(state)
        seats = next_seats(state, seats, rng)
        if sum(1 for s in seats if s["chips"] > 0) < 2:
            break
    return state, results


def rigged_shoe(prefix: list[str], decks: int = 6) -> list[str]:
    """Return a full sabot whose first cards are ``prefix`` (golden tests and replays)."""
    rest = cards.shoe(decks)
    for card in prefix:
        rest.remove(card)
    return [*prefix, *rest]


def banco_carry(
    banker: int,
    posta: int,
    members: list[int],
    prefix: list[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """Return a carry with a banco in play (``extra``: garage, wins, halved, coups, ferito, anchor…)."""
    banco = {
        "seat": banker,
        "start": extra.pop("start", posta),
        "wins": extra.pop("wins", 0),
        "coups": extra.pop("coups", 0),
        "halved": extra.pop("halved", False),
        "ritocco": extra.pop("ritocco", False),
        "members": members,
        "posta": posta,
        "garage": extra.pop("garage", 0),
    }
    return {
        "shoe": rigged_shoe(prefix or []),
        "discards": [],
        "reshuffle": False,
        "banco": banco,
        "anchor": extra.pop("anchor", None),
        "turn": None,
        "ferito": extra.pop("ferito", None),
        "played": extra.pop("played", list(members)),
        "skipped": {},
        **extra,
    }


__all__ = [
    "FORFAIT",
    "banco_carry",
    "choose",
    "next_seats",
    "optional_seats",
    "pick",
    "play_coup",
    "rigged_shoe",
    "session",
]
