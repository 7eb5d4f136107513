"""A slot tournament player's own machine over WebSocket: thin — authenticate, check the message
shape, call ``tournaments.slot``.

``/ws/torneo/<id>/slot/``, for an entrant of that slot tournament only (others are closed with
4404). Client → server (JSON): ``{"type": "act", "action": {...}, "version": n}`` (an action of
``games.slot.engine``: ``gira``, ``porta``, ``lavagnetta``, ``ruota``) and ``{"type": "sync"}``.
Server → client: ``slot.view`` on connecting and on ``sync`` (his own session's view, its
version, whether it is his extra minute, the standings), ``slot.result`` after each accepted action
(the engine's events, the new view and version), ``slot.standings`` every 5 s (the best 10, his
position and credit, his time left, and his session's version: a client behind it, after the end
of time closed his session, asks ``sync``), and ``error`` (stable ``code``, Italian ``message``;
nothing changed, the connection stays). Only the player's own session is ever read: no other
player's state reaches him but the standings' nicknames and credits. A reconnection gets the
current view, so a dropped connection loses nothing (his credit waits for him, S8).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async

from games.engine import CodedError
from piattaforma.consumers import AuthenticatedJsonConsumer
from tournaments import slot

CLOSE_NOT_ENTRANT = 4404
STANDINGS_EVERY_S = 5.0  # S8: "standings every 5 seconds"


@database_sync_to_async
def _snapshot(tournament_id: int, user_id: int) -> dict[str, Any] | None:
    return slot.snapshot(tournament_id=tournament_id, user_id=user_id)


@database_sync_to_async
def _act(tournament_id: int, user: Any, action: Any, version: Any) -> dict[str, Any]:
    return slot.slot_act(tournament_id=tournament_id, user=user, action=action, version=version)


@database_sync_to_async
def _standings(tournament_id: int, user_id: int) -> dict[str, Any] | None:
    snap = slot.snapshot(tournament_id=tournament_id, user_id=user_id, shared=True)
    if snap is None:
        return None
    return {"type": "slot.standings", "version": snap["version"], **snap["standings"]}


class SlotConsumer(AuthenticatedJsonConsumer):
    """One connection of one entrant to his own session at the machine."""

    metrics_kind = "slot"
    ticker: asyncio.Task[None] | None = None

    async def on_authenticated(self) -> None:
        self.tournament_id = int(self.scope["url_route"]["kwargs"]["tournament_id"])
        snap = await _snapshot(self.tournament_id, self.scope["user"].pk)
        if snap is None:
            await self.close(code=CLOSE_NOT_ENTRANT)
            return
        await self.send_json(snap)
        self.ticker = asyncio.ensure_future(self._tick())

    async def _tick(self) -> None:
        """The standings every 5 s while the socket is open."""
        while True:
            await asyncio.sleep(STANDINGS_EVERY_S)
            table = await _standings(self.tournament_id, self.scope["user"].pk)
            if table is not None:
                await self.send_json(table)

    async def disconnect(self, code: int) -> None:
        if self.ticker is not None:
            self.ticker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.ticker
            self.ticker = None

    async def handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "sync":
            snap = await _snapshot(self.tournament_id, self.scope["user"].pk)
            if snap is not None:
                await self.send_json(snap)
            return
        if kind != "act":
            await super().handle(message)
            return
        if set(message) != {"type", "action", "version"}:
            await self.send_error("bad_message", "Messaggio non valido")
            return
        try:
            out = await _act(self.tournament_id, self.scope["user"], message["action"], message["version"])
        except CodedError as exc:
            await self.send_error(exc.code, exc.message)
            return
        await self.send_json({"type": "slot.result", **out})
