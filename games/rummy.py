"""What Burraco and Scala 40 share above games.melds: the turn's draw and the structured moves.

A rummy deal (``st["deal"]``) has ``hands``, ``tallone`` (``pop()`` draws the top card),
``phase`` (``pesca`` until the player draws, then ``gioca``) and ``last_mover``; its rules
object plans a move before applying it (``plan``), offers random moves to bots (``sample``) and
lists the layouts chosen cards may take (``options``, ``layouts``). ``RummyMoves`` exposes those
to the table through the engine, for the seat to act.
"""

from __future__ import annotations

import copy
from abc import abstractmethod
from collections.abc import Callable
from typing import Any, Protocol

from games.engine import Action, Event, IllegalAction, State
from games.melds import SEQ, Meld
from games.partite import ABBANDONA, TEMPO_SCADUTO, LineMatch
from games.rng import Rng

PESCA = "pesca"
GIOCA = "gioca"  # the phase after pesca/raccogli


def draw(d: dict[str, Any], pos: int) -> list[Event]:
    """Draw the top card of the tallone into the hand of ``pos`` (seen only by its owner)."""
    card = d["tallone"].pop()
    d["hands"][pos].append(card)
    d["phase"] = GIOCA
    return [
        {"type": PESCA, "pos": pos},
        {"type": "carta_pescata", "pos": pos, "card": card, "to_pos": [pos]},
    ]


def discard_specs(hand: list[str], refused: Callable[[str], str | None]) -> list[dict[str, Any]]:
    """Offer one ``scarta`` per distinct card of the hand the rules let the player discard now."""
    return [{"type": "scarta", "label": "Scarta", "card": c} for c in sorted(set(hand)) if refused(c) is None]


def with_layout(act: Action, opts: list[Meld], rng: Rng, *, only_if_several: bool = False) -> Action:
    """Give a bot's meld request one of its layouts at random (a sequence's start or a jolly's suit)."""
    o = opts[rng.randbelow(len(opts))]
    if o["kind"] == SEQ:
        if len(opts) > 1 or not only_if_several:
            act["start"] = o["start"]
    elif o.get("jolly_suit") is not None:
        act["jolly_suit"] = o["jolly_suit"]
    return act


class RummyRules(Protocol):
    """The moves a rummy deal offers beyond the contract (see the module docstring)."""

    def plan(self, st: State, pos: int, action: Action) -> dict[str, Any]: ...
    def sample(self, st: State, pos: int, rng: Rng) -> Action: ...
    def options(self, st: State, pos: int, action: Action) -> list[Meld]: ...
    def layouts(self, st: State, pos: int, request: Action) -> list[dict[str, Any]]: ...


class RummyMoves(LineMatch):
    """A rummy match engine's structured moves, checked by trial, for the seat to act."""

    @abstractmethod
    def moves(self) -> RummyRules:
        """Return the deal rules that plan the moves."""

    def can_apply(self, state: State, seat: int, action: Action) -> bool:
        """Tell whether ``apply`` would accept the action (structured specs: validated, not matched)."""
        if isinstance(action, dict) and action.get("type") in (ABBANDONA, TEMPO_SCADUTO):
            try:
                self.check_player(state, seat)
            except IllegalAction:
                return False
            return set(action) == {"type"} and not state["over"]
        try:
            self.moves().plan(state, self.turn_of(state, seat), action)
        except IllegalAction:
            return False
        return True

    def sample_action(self, state: State, seat: int, rng: Rng) -> Action:
        """Pick a random legal move that favours melding (never "Abbandona": bots, property tests)."""
        return self.moves().sample(state, self.turn_of(state, seat), rng)

    def options(self, state: State, seat: int, action: Action) -> list[Meld]:
        """Return the layouts the chosen cards may take (ace low/high, the jolly's place or suit)."""
        return copy.deepcopy(self.moves().options(state, self.turn_of(state, seat), action))

    def layouts(self, state: State, seat: int, request: Action) -> list[dict[str, Any]]:
        """Return the layouts ``apply`` accepts for a meld request sent without one (the chooser).

        Each carries the fields that select it (games.melds.accepted_layouts); the state is left
        untouched.
        """
        return copy.deepcopy(self.moves().layouts(state, self.turn_of(state, seat), request))
