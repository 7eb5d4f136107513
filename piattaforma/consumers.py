"""The authenticated WebSocket skeleton the live tables build on.

Origin validation happens in ``asgi.py`` (AllowedHostsOriginValidator); this consumer refuses
anonymous connections and answers a ping, so the plumbing (session auth over WebSocket, the
channel layer, JSON messages with stable error codes) is exercised end to end.
"""

from __future__ import annotations

import logging
from typing import Any

from autobahn.exception import Disconnected
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer, AsyncWebsocketConsumer

from piattaforma import jsoninput, metrics, wsframes
from piattaforma.ratelimit import CLOSE_RATE_LIMITED, UserLimiter

logger = logging.getLogger(__name__)

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
CLOSE_NOT_FOUND = 4404
MAX_MESSAGE_BYTES = 4096
MAX_MESSAGE_DEPTH = 8


class AuthenticatedJsonConsumer(AsyncJsonWebsocketConsumer):
    """Accept only logged-in, active players; rate-limit them; refuse oversized or malformed messages.

    Every frame is counted (``piattaforma.ratelimit``: the user's frames on all his sockets), then
    decoded by ``piattaforma.jsoninput``: too large, too deep, NaN, huge numbers, lone
    surrogates, a top level other than an object with a string ``type``: one ``error`` reply,
    the connection stays.
    """

    metrics_kind = "other"  # the sockets gauge's label (``piattaforma.metrics``)
    counted = False  # in the sockets gauge

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        async def send_unless_gone(message: dict[str, Any]) -> None:
            # A client may leave while its connection writes (between the handshake and the first
            # view, under load): Daphne raises on a send to a closed protocol. Nothing is left to
            # write to; the disconnect Daphne queued for it comes next and cleans up, as after any
            # close, instead of the connection failing with its groups never left.
            try:
                await send(message)
            except Disconnected:
                logger.debug("a frame to a closed socket dropped (%s)", message.get("type"))

        try:
            await super().__call__(scope, receive, send_unless_gone)
        finally:  # closed, or the application failed
            if self.counted:
                self.counted = False
                metrics.socket_closed(self.metrics_kind)

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not user.is_active:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.limiter = UserLimiter(user.pk)  # per user; per connection: ratelimit.FrameGuard
        await self.accept()
        self.counted = True
        metrics.socket_opened(self.metrics_kind)
        await self.on_authenticated()

    async def on_authenticated(self) -> None:
        """Hook for subclasses, after the handshake."""

    @classmethod
    async def encode_json(cls, content: Any) -> str:
        return wsframes.encode(content)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        verdict = await self.limiter.check()  # before anything is read: a dropped frame costs little
        if verdict != "ok":
            if verdict == "close" and not self.limiter.closed:
                self.limiter.closed = True
                await self.close(code=CLOSE_RATE_LIMITED)
            elif verdict == "refused" and self.limiter.run == 1:  # one reply a run, not one each
                await self.send_error("rate_limited", "Troppi messaggi: rallenta")
            return
        try:
            content = jsoninput.loads_object(
                text_data if text_data is not None else b"",
                max_bytes=MAX_MESSAGE_BYTES,
                max_depth=MAX_MESSAGE_DEPTH,
            )
        except jsoninput.BadJson as exc:
            await self.send_error(exc.code, exc.message)
            return
        if not isinstance(content.get("type"), str):
            await self.send_error("bad_message", "Messaggio non valido")
            return
        await self.handle(content)

    async def handle(self, message: dict[str, Any]) -> None:
        """Handle one well-formed message ``{"type": ..., ...}``."""
        await self.send_error("unknown_type", "Tipo di messaggio sconosciuto")

    async def send_error(self, code: str, message: str) -> None:
        """Send an error with a stable code and an Italian message."""
        await self.send_json({"type": "error", "code": code, "message": message})


class PingConsumer(AuthenticatedJsonConsumer):
    """Greets the player by nickname and answers ``ping`` with ``pong``."""

    metrics_kind = "ping"

    async def on_authenticated(self) -> None:
        await self.send_json({"type": "hello", "nickname": self.scope["user"].nickname})

    async def handle(self, message: dict[str, Any]) -> None:
        if message["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            await super().handle(message)


class NotFoundConsumer(AsyncWebsocketConsumer):
    """Refuse a WebSocket to a path no route matches (the router would raise: a crashed handshake)."""

    async def connect(self) -> None:
        await self.close(code=CLOSE_NOT_FOUND)


class NoticeConsumer(AuthenticatedJsonConsumer):
    """Pushes game notices, the site's closing warnings and the player's own calls to every page he
    has open.

    Every page of a logged-in player opens it (``static/js/notices.js``, from ``base.html``); it
    joins the site's group (``siteops.NOTICES_GROUP``) and the player's own
    (``playercalls.player_group``), so the table runtime is not involved. Once in the groups it
    sends the notices in force and the calls waiting for him (``hooks.player_calls``: his
    tournament match's table): a page that was reloading or reconnecting when one was pushed (its
    HTML rendered before the publication, its socket open after the push) gets it here; the page
    shows each notice and each call once, by id.
    """

    metrics_kind = "notice"

    async def on_authenticated(self) -> None:
        from piattaforma import hooks, playercalls, siteops

        self.user_group = playercalls.player_group(self.scope["user"].pk)
        await self.channel_layer.group_add(siteops.NOTICES_GROUP, self.channel_name)
        await self.channel_layer.group_add(self.user_group, self.channel_name)
        in_force = await database_sync_to_async(siteops.notices_in_force)()
        for payload in reversed(in_force):  # oldest first: the page prepends, the newest ends on top
            await self.site_notice({"payload": payload})
        calls = await database_sync_to_async(hooks.player_calls)(user_id=self.scope["user"].pk)
        for call in calls:
            await self.player_call({"payload": call})

    async def disconnect(self, code: int) -> None:
        from piattaforma.siteops import NOTICES_GROUP

        await self.channel_layer.group_discard(NOTICES_GROUP, self.channel_name)
        if hasattr(self, "user_group"):
            await self.channel_layer.group_discard(self.user_group, self.channel_name)

    async def site_notice(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "notice", **event["payload"]})

    async def player_call(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "call", **event["payload"]})
