"""The cap on a request body's size, checked before the body is read (ASGI, around Django).

Django reads the whole body (spooled to a temporary file) before any middleware runs, then parses
a multipart form into memory and temporary files: a 200 MB "document" cost seconds and hundreds of
megabytes before the identity action said it was too large. ``BodySizeLimit`` answers 413
(``body_too_large``, an Italian message) from the ``Content-Length`` header alone, without
reading a byte of the body; a body sent without one (chunked) is counted as it arrives and
refused as soon as it passes the cap. The proxy in front refuses larger bodies still earlier
(``client_max_body_size``, docs/operations.md).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.utils.html import escape
from django.utils.translation import gettext as _

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def too_large_message() -> str:
    megabytes = settings.REQUEST_BODY_MAX_BYTES // (1024 * 1024)
    return _("Dati inviati troppo grandi: al massimo %(mb)s MB per richiesta.") % {"mb": megabytes}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


def _wants_json(scope: Scope) -> bool:
    path = scope.get("path", "")
    accept = _header(scope, b"accept") or ""
    content_type = _header(scope, b"content-type") or ""
    return (
        "/api/" in path
        or path.endswith(".json")
        or "json" in content_type
        or ("application/json" in accept and "text/html" not in accept)
    )


async def refuse_too_large(scope: Scope, send: Send) -> None:
    """Answer 413 and close the connection (the unread body is not waited for)."""
    message = too_large_message()
    if _wants_json(scope):
        body = json.dumps({"code": "body_too_large", "message": message}).encode()
        content_type = b"application/json"
    else:
        text = escape(message)
        body = f'<!doctype html><html lang="it"><title>{text}</title><p>{text}</p></html>'.encode()
        content_type = b"text/html; charset=utf-8"
    headers = [
        (b"content-type", content_type),
        (b"content-length", str(len(body)).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class BodySizeLimit:
    """ASGI middleware: HTTP bodies larger than ``settings.REQUEST_BODY_MAX_BYTES`` get a 413."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = settings.REQUEST_BODY_MAX_BYTES
        declared = _header(scope, b"content-length")
        if declared is not None and declared.strip().isdigit() and int(declared) > limit:
            await refuse_too_large(scope, send)
            return
        received = 0  # what arrives is counted too: no length, or one that lies
        over = False
        started = False

        async def counted_receive() -> Message:
            nonlocal received, over
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    return {"type": "http.disconnect"}  # Django stops reading and answers nothing
            return message

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counted_receive, watched_send)
        if over and not started:
            await refuse_too_large(scope, send)
