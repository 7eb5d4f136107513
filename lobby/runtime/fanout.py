"""Fan-out from the owner: one encoding per seat per version, sent only to that player's sockets.

A seated player's connections get his own projection (``view(state, seat)``, a seat not dealt in
sees the hand as a spectator does); every other connection gets the public view, encoded once per
version. Nobody receives a copy meant for someone else, so nothing is decoded to be thrown away,
and a hidden card never goes to a connection that may not see it.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from lobby.models import Seat, TableRuntime
from lobby.selectors import dealt_seats, projection_seat, table_payload, table_shared
from piattaforma.wsframes import encode

logger = logging.getLogger(__name__)


class Viewer(Protocol):
    """A table connection as the owner sees it (``lobby.consumers.TableConsumer``)."""

    last_version: int

    async def send(
        self, text_data: str | None = None, bytes_data: bytes | None = None, close: bool = False
    ) -> None: ...


class Audience:
    """The connections of one table in this process, by user."""

    def __init__(self) -> None:
        self.by_user: dict[int, dict[Viewer, None]] = {}
        self.encoded = 0  # payloads encoded (for the tests and the benchmarks)

    def add(self, user_id: int, viewer: Viewer) -> None:
        self.by_user.setdefault(user_id, {})[viewer] = None

    def remove(self, user_id: int, viewer: Viewer) -> None:
        viewers = self.by_user.get(user_id)
        if viewers is not None:
            viewers.pop(viewer, None)
            if not viewers:
                del self.by_user[user_id]

    def __len__(self) -> int:
        return sum(len(v) for v in self.by_user.values())

    async def send(
        self,
        rt: TableRuntime,
        seats: list[Seat],
        events: list[dict[str, Any]],
        waiting: dict[str, Any] | None = None,
        acted: dict[int, int] | None = None,
    ) -> None:
        """Send version ``rt.version`` to every connection, each with what it may see.

        ``waiting``: the between-hands block (table credits), read off the event loop beforehand.
        ``acted``: seat -> the version its last decision made; a seat's own view carries its own
        (``acted``), so its page knows its action was applied (``static/js/table/client.js``).
        """
        seated = {s.user_id: s.number for s in seats}
        dealt = dealt_seats(rt)
        shared = table_shared(rt, seats, waiting)  # built once, each seat's view added to a copy
        public: str | None = None
        for user_id, viewers in list(self.by_user.items()):
            if user_id in seated:
                seat_no = projection_seat(seated[user_id], dealt)
                payload = table_payload(rt, seats, seat_no, events, shared=shared)
                text = encode(_with_acted(payload, acted, seated[user_id]))
                self.encoded += 1
            else:
                if public is None:
                    payload = table_payload(rt, seats, None, events, shared=shared)
                    payload["audience"] = "public"
                    public = encode(payload)
                    self.encoded += 1
                text = public
            for viewer in list(viewers):
                if rt.version < viewer.last_version:
                    continue  # never an older view after a newer one
                viewer.last_version = rt.version
                try:
                    await viewer.send(text_data=text)
                except Exception:  # a socket closing meanwhile: its disconnect removes it
                    logger.debug("table %s: a view was not delivered", rt.pk, exc_info=True)


def snapshot(
    rt: TableRuntime,
    seats: list[Seat],
    user_id: int | None,
    waiting: dict[str, Any] | None = None,
    acted: dict[int, int] | None = None,
) -> dict[str, Any]:
    """The current payload for one user: his seat's projection if seated, else the public one."""
    seat_no = next((s.number for s in seats if s.user_id == user_id), None)
    payload = table_payload(rt, seats, projection_seat(seat_no, dealt_seats(rt)), None, waiting)
    return payload if seat_no is None else _with_acted(payload, acted, seat_no)


def _with_acted(payload: dict[str, Any], acted: dict[int, int] | None, seat_no: int) -> dict[str, Any]:
    """A seated player's own view with ``acted``: the version his last decision made (0: none yet).
    The owner runtime keeps it (``TableOwner.acted``); without it (None) the view has none."""
    if acted is not None:
        payload["acted"] = acted.get(seat_no, 0)
    return payload
