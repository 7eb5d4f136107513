"""Who a WebSocket is: its handshake's session cookie read once, its user resolved once.

Channels' ``AuthMiddlewareStack`` does this too, and also wraps every message the socket sends,
to save a modified session on an ``http.response.start``, a message a WebSocket never sends: on
the live tables, where every view is a message, that wrapper was a check per view for nothing.
Here the session is read and never saved (no consumer writes it), and ``scope["user"]`` is the
user itself (or ``AnonymousUser``), not a lazy proxy that every attribute read goes through.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from channels.auth import get_user
from channels.sessions import CookieMiddleware
from django.conf import settings


class SocketSessionMiddleware:
    """``scope["session"]``: the session named by the handshake's cookie (read when first used)."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner({**scope, "session": self.store(key)}, receive, send)


class SocketUserMiddleware:
    """``scope["user"]``: the session's user, checked as Django checks it (the session's auth
    hash), else ``AnonymousUser``."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        return await self.inner({**scope, "user": await get_user(scope)}, receive, send)


def socket_auth(inner: Any) -> Any:
    """Cookies, session and user for a WebSocket app (in place of ``AuthMiddlewareStack``)."""
    return CookieMiddleware(SocketSessionMiddleware(SocketUserMiddleware(inner)))
