"""A small asyncio Redis client for the per-user frame limit: one connection, commands pipelined.

The frame limit counts every frame a player sends in Redis (``piattaforma.ratelimit``), so its
round trip is on the path of every decision. redis-py's client goes through its pool, retry and
script wrappers and its pure-Python reply parser for each call; this one writes a command as
RESP2 bytes on one connection and matches replies to callers in order, which is all the limit
needs (integers, arrays, errors and the ``+OK`` of its own handshake). Anything else in the
platform speaks to Redis through redis-py, Channels and Celery.

``REDIS_URL`` is read as redis-py reads it (``redis://``, ``rediss://``, ``unix://``; user,
password and database). A connection that fails or closes fails the calls waiting on it
(``ConnectionError``); the next call opens a new one.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from typing import Any


class ResponseError(Exception):
    """Redis answered a command with an error (``-ERR …``, ``-NOSCRIPT …``)."""


class _Incomplete(Exception):
    """The buffer ends inside a reply: wait for more bytes."""


def encode(args: tuple[Any, ...]) -> bytes:
    """One command as RESP2: an array of bulk strings."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        data = arg if isinstance(arg, bytes) else str(arg).encode()
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


def parse(buf: bytes | bytearray, pos: int) -> tuple[Any, int]:
    """The reply starting at ``pos`` and the position after it; ``_Incomplete`` if it is not all
    there yet. An error reply is returned as a ``ResponseError`` (raised by the caller)."""
    end = buf.find(b"\r\n", pos)
    if end < 0:
        raise _Incomplete
    kind, line, pos = buf[pos : pos + 1], bytes(buf[pos + 1 : end]), end + 2
    if kind == b":":
        return int(line), pos
    if kind == b"*":
        count = int(line)
        if count < 0:
            return None, pos
        items = []
        for _ in range(count):
            item, pos = parse(buf, pos)
            items.append(item)
        return items, pos
    if kind == b"$":
        size = int(line)
        if size < 0:
            return None, pos
        if len(buf) < pos + size + 2:
            raise _Incomplete
        return bytes(buf[pos : pos + size]), pos + size + 2
    if kind == b"+":
        return line.decode(), pos
    if kind == b"-":
        return ResponseError(line.decode(errors="replace")), pos
    raise ConnectionError(f"Redis sent an unknown reply type {kind!r}")


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.waiting: deque[asyncio.Future[Any]] = deque()
        self.lost: Exception | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.buf += data
        pos = 0
        while self.waiting:
            try:
                reply, pos = parse(self.buf, pos)
            except _Incomplete:
                break
            except (ValueError, ConnectionError) as exc:  # not Redis speaking: give up the connection
                self.connection_lost(ConnectionError(f"Redis reply unreadable: {exc}"))
                assert self.transport is not None
                self.transport.close()
                return
            done = self.waiting.popleft()
            if not done.done():  # (its caller may have gone)
                if isinstance(reply, ResponseError):
                    done.set_exception(reply)
                else:
                    done.set_result(reply)
        del self.buf[:pos]

    def connection_lost(self, exc: Exception | None) -> None:
        self.lost = exc if isinstance(exc, ConnectionError) else ConnectionError(str(exc or "closed"))
        while self.waiting:
            done = self.waiting.popleft()
            if not done.done():
                done.set_exception(self.lost)

    def call(self, args: tuple[Any, ...]) -> asyncio.Future[Any]:
        done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        if self.lost is not None or self.transport is None or self.transport.is_closing():
            done.set_exception(self.lost or ConnectionError("closed"))
            return done
        self.waiting.append(done)
        self.transport.write(encode(args))
        return done


class Client:
    """One pipelined connection to ``url``, opened at the first call (and again after a loss).
    Belongs to the event loop that makes its first call."""

    def __init__(self, url: str) -> None:
        from redis.connection import SSLConnection, UnixDomainSocketConnection, parse_url

        params = parse_url(url)  # type: ignore[no-untyped-call]  # (redis-py leaves it untyped)
        kind = params.get("connection_class")
        self.path: str | None = params.get("path") if kind is UnixDomainSocketConnection else None
        self.host = params.get("host", "localhost")
        self.port = int(params.get("port", 6379))
        self.ssl = kind is SSLConnection
        self.db = int(params.get("db", 0) or 0)
        self.username: str | None = params.get("username")
        self.password: str | None = params.get("password")
        self.protocol: _Protocol | None = None
        self.opening: asyncio.Future[_Protocol] | None = None

    async def call(self, *args: Any) -> Any:
        """Send one command and return its reply (``ResponseError`` for an error reply)."""
        protocol = self.protocol
        if protocol is None or protocol.lost is not None:
            protocol = await self._open()
        return await protocol.call(args)

    async def _open(self) -> _Protocol:
        if self.opening is None:  # (the calls of one turn share one connection attempt)
            self.opening = asyncio.ensure_future(self._connect())
            self.opening.add_done_callback(lambda f: f.cancelled() or f.exception())
        opening = self.opening
        try:
            protocol = await asyncio.shield(opening)
        finally:
            if self.opening is opening and opening.done():
                self.opening = None
        self.protocol = protocol
        return protocol

    async def _connect(self) -> _Protocol:
        loop = asyncio.get_running_loop()
        context = ssl.create_default_context() if self.ssl else None
        if self.path is not None:
            _, protocol = await loop.create_unix_connection(_Protocol, self.path)
        else:
            _, protocol = await loop.create_connection(_Protocol, self.host, self.port, ssl=context)
        handshake = []
        if self.password is not None:
            auth = (self.username, self.password) if self.username else (self.password,)
            handshake.append(protocol.call(("AUTH", *auth)))
        if self.db:
            handshake.append(protocol.call(("SELECT", self.db)))
        try:
            await asyncio.gather(*handshake)
        except BaseException:
            if protocol.transport is not None:
                protocol.transport.close()
            raise
        return protocol

    def close(self) -> None:
        protocol, self.protocol = self.protocol, None
        if protocol is not None and protocol.transport is not None:
            protocol.transport.close()
