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

import copy
from typing import Any, ClassVar

from games.burraco.deal import BurracoDeal
from games.engine import Action, IllegalAction, NotYourTurn, State
from games.melds import Meld
from games.partite import ABBANDONA, TEMPO_SCADUTO, PartiteEngine
from games.registry import register
from games.rng import Rng


class RummyMatchMixin(PartiteEngine):
    """What both rummy games on the match engine add: structured specs checked by trial."""

    rules: ClassVar[BurracoDeal]

    def _pos(self, state: State, seat: int) -> int:
        pos = None if state["over"] else self.rules.to_act(state)
        if pos is None or state["seats"][pos] != seat:
            raise NotYourTurn()
        return pos

    def can_apply(self, state: State, seat: int, action: Action) -> bool:
        """Tell whether ``apply`` would accept the action (structured specs: validated, not matched)."""
        if isinstance(action, dict) and action.get("type") in (ABBANDONA, TEMPO_SCADUTO):
            return seat in state["seats"] and set(action) == {"type"} and not state["over"]
        try:
            self.rules.plan(state, self._pos(state, seat), action)
        except IllegalAction:
            return False
        return True

    def sample_action(self, state: State, seat: int, rng: Rng) -> Action:
        """Pick a random legal move (melds from hints in the hand; never "Abbandona")."""
        return self.rules.sample(state, self._pos(state, seat), rng)

    def options(self, state: State, seat: int, action: Action) -> list[Meld]:
        """Return the layouts the chosen cards may take for a cala/attacca (choice panel)."""
        return copy.deepcopy(self.rules.options(state, self._pos(state, seat), action))

    def layouts(self, state: State, seat: int, request: Action) -> list[dict[str, Any]]:
        """Return the layouts ``apply`` accepts for a cala/attacca sent without one (the chooser).

        Each carries the fields that select it (games.melds.accepted_layouts); the state is left
        untouched.
        """
        return copy.deepcopy(self.rules.layouts(state, self._pos(state, seat), request))


@register
class BurracoEngine(RummyMatchMixin):
    """Burraco in 2 or 4 (rules 004)."""

    name = "burraco"
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
