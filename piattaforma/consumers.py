"""The authenticated WebSocket skeleton the live tables build on.

Origin validation happens in ``asgi.py`` (AllowedHostsOriginValidator); this consumer refuses
anonymous connections and answers a ping, so the plumbing (session auth over WebSocket, the
channel layer, JSON messages with stable error codes) is exercised end to end.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

CLOSE_UNAUTHENTICATED = 4401
CLOSE_FORBIDDEN = 4403
MAX_MESSAGE_BYTES = 4096


class AuthenticatedJsonConsumer(AsyncJsonWebsocketConsumer):
    """Accept only logged-in, active players; refuse oversized or malformed messages."""

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not user.is_active:
            await self.close(code=CLOSE_FORBIDDEN)
            return
        await self.accept()
        await self.on_authenticated()

    async def on_authenticated(self) -> None:
        """Hook for subclasses, after the handshake."""

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        if text_data is None or len(text_data.encode()) > MAX_MESSAGE_BYTES:
            await self.send_error("bad_message", "Messaggio non valido")
            return
        await super().receive(text_data=text_data, **kwargs)

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        import json

        try:
            return json.loads(text_data)
        except ValueError:
            return None

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or not isinstance(content.get("type"), str):
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

    async def on_authenticated(self) -> None:
        await self.send_json({"type": "hello", "nickname": self.scope["user"].nickname})

    async def handle(self, message: dict[str, Any]) -> None:
        if message["type"] == "ping":
            await self.send_json({"type": "pong"})
        else:
            await super().handle(message)
