"""Meld layouts for the table page: the engine lists them for the player's seat (read only).

When picked cards can take several layouts (which end a matta goes to, ace low or high, the suit
a Scala 40 jolly declares) the table asks here before sending the action, and shows a chooser.
The rules stay in the engine (``engine.layouts``, games.burraco and games.scala40); this module
only loads the table's current state, without a lock and without touching the version.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import registry
from games.engine import State
from lobby import selectors
from lobby.errors import NoHandInProgress, NotSeated, TableError
from lobby.models import Seat
from piattaforma.models import User


class NoLayouts(TableError):
    code = "no_layouts"
    default_message = "Questo gioco non ha disposizioni da scegliere"


class TableNotFound(TableError):
    code = "table_not_found"
    default_message = "Tavolo inesistente"


def engine_layouts(game: str, state: State, seat_no: int, request: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the engine's layouts of a meld request for a seat (raises the engine's refusal)."""
    lister = getattr(registry.get(game), "layouts", None)
    if lister is None:
        raise NoLayouts(_("Questo gioco non ha disposizioni da scegliere"))
    found: list[dict[str, Any]] = lister(state, seat_no, request)
    return found


def seat_layouts(*, table_id: int, user: User, request: dict[str, Any]) -> dict[str, Any]:
    """Return the layouts the engine accepts for a seated player's meld request, and the version.

    Reads the table's current state: no lock, nothing written. Raises ``TableError`` (not seated,
    no hand in progress) or the engine's refusal (``IllegalAction``).
    """
    rt = selectors.runtime_now(table_id)
    if rt is None:
        raise TableNotFound(_("Tavolo inesistente"))
    seat = Seat.objects.filter(table_id=table_id, user=user).only("number").first()
    if seat is None:
        raise NotSeated(_("Non sei seduto a questo tavolo"))
    if rt.state is None:
        raise NoHandInProgress(_("Nessuna mano in corso"))
    layouts = engine_layouts(rt.game or rt.table.game, rt.state, seat.number, request)
    return {"version": rt.version, "layouts": layouts}
