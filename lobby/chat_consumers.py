"""The chat rooms over WebSocket: lobby, tournament and HELP (thin: authenticate, check, call ``lobby.chat``).

Routes (``config/routing.py``): ``ws/chat/lobby/``, ``ws/chat/torneo/<id>/``,
``ws/chat/help/`` (the player's own HELP conversation) and ``ws/chat/help/<player id>/`` (staff
answering that player). On connect the socket gets ``{"type": "chat.history", "room", "lines"}``;
then ``chat`` lines of its room as they are shown, and the player's ``notice`` messages (a
warning, a mute and its end, a report handled, a held line released or rejected).
Client → server: ``{"type": "chat", "text": "..."}`` and ``{"type": "history"}``. A refused line
gets ``{"type": "error", "code", "message"}`` (the rule, in Italian) and the socket stays open.
"""

from __future__ import annotations

from typing import Any

from games.engine import CodedError
from lobby import chat
from lobby.consumers import db
from moderation import rooms
from piattaforma.consumers import CLOSE_FORBIDDEN, CLOSE_NOT_FOUND, AuthenticatedJsonConsumer


class ChatConsumer(AuthenticatedJsonConsumer):
    """One socket of one player in one chat room."""

    metrics_kind = "chat"

    async def on_authenticated(self) -> None:
        self.user = self.scope["user"]
        kwargs = self.scope["url_route"]["kwargs"]
        kind = kwargs["room"]
        key = kwargs.get("key", self.user.pk if kind == "help" else None)
        room = rooms.parse(kind if key is None else f"{kind}:{key}")
        refusal = "missing" if room is None else await db(rooms.may_enter)(self.user, room)
        if room is None or refusal is not None:
            await self.close(code=CLOSE_NOT_FOUND if refusal == "missing" else CLOSE_FORBIDDEN)
            return
        self.room = room
        self.groups_joined = [room.group, chat.notices_group(self.user.pk)]
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.send_json(await db(chat.room_history)(room=room))

    async def disconnect(self, code: int) -> None:
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def table_message(self, event: dict[str, Any]) -> None:
        """A line of the room or a notice of the player, as delivered by ``lobby.chat.push``."""
        await self.send_json(event["payload"])

    async def handle(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "history":
            await self.send_json(await db(chat.room_history)(room=self.room))
        elif kind == "chat":
            text = message.get("text")
            if not isinstance(text, str):
                await self.send_error("bad_message", "Messaggio non valido")
                return
            try:
                await db(chat.room_post)(user=self.user, room=self.room, text=text)
            except CodedError as exc:  # the rule that refused it, in Italian
                await self.send_json({"type": "error", **exc.as_dict()})
        else:
            await self.send_error("unknown_type", "Tipo di messaggio sconosciuto")
