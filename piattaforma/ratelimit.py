"""Rate limits of client messages over WebSocket: per connection and per user, across sockets.

Two layers, so that a flood costs the server little and its memory stays bounded:

* ``FrameGuard``, an ASGI middleware around every WebSocket app, pulls each frame off the
  server's queue as soon as it arrives (Daphne queues received frames for the app without
  bound, and a consumer takes about one per event-loop turn while the server reads thousands:
  under a flood that queue is where the memory goes). It keeps a token bucket per connection and at
  most ``MAX_BACKLOG`` frames waiting for the app; a frame over either is dropped there, unread.
* ``UserLimiter``, used by the consumer on each frame the guard let through, counts the user's
  frames across all his sockets: in this process (the embedded default: one process serves
  everyone) or, with ``REDIS_URL`` set (several Daphne processes), in Redis, a fixed one-second
  window per user shared by every process, the frames of an event-loop turn counted in one round
  trip. Only frames within a connection's bucket reach Redis.

Either way a dropped frame changes nothing; the first of a run gets an error reply
(``rate_limited``), and a client that keeps sending through ``MAX_STRIKES`` refusals in a row is
closed with ``CLOSE_RATE_LIMITED``.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from django.conf import settings

from piattaforma import resp

# A person at a table sends a decision every few seconds, a resync on reconnect, a chat line now
# and then (chat has its own limit per minute); a page opens a few sockets at most.
CONNECTION_RATE = 10.0  # frames per second, sustained, per socket
CONNECTION_BURST = 20
USER_RATE = 20  # frames per second across all of a user's sockets
USER_BURST = 40  # the in-process store's bucket size (Redis counts a fixed window of USER_RATE)
MAX_STRIKES = 30  # dropped frames in a row before the connection is closed
MAX_BACKLOG = 16  # frames of one connection received and not yet taken by the consumer
CLOSE_RATE_LIMITED = 4429
REDIS_TIMEOUT = 1.0  # seconds a round of the per-user count may wait for Redis before it is allowed

Verdict = Literal["ok", "refused", "close"]


@dataclass(slots=True)
class Bucket:
    """A token bucket: ``rate`` tokens a second, at most ``burst`` kept; full at the first take."""

    rate: float
    burst: float
    tokens: float | None = None
    stamp: float = 0.0

    def take(self, now: float) -> bool:
        """Take one token if there is one at time ``now`` (seconds); tell whether there was."""
        if self.tokens is None:
            self.tokens = self.burst
        else:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class UserStore(Protocol):
    async def take(self, user_id: int) -> bool: ...


class LocalUserStore:
    """Per-user buckets in this process (the embedded default: one process serves everyone)."""

    MAX_ENTRIES = 10_000

    def __init__(self, rate: float = USER_RATE, burst: float = USER_BURST) -> None:
        self.rate, self.burst = rate, burst
        self.buckets: dict[int, Bucket] = {}

    async def take(self, user_id: int) -> bool:
        now = time.monotonic()
        bucket = self.buckets.get(user_id)
        if bucket is None:
            if len(self.buckets) >= self.MAX_ENTRIES:
                self.prune(now)
            bucket = self.buckets[user_id] = Bucket(self.rate, self.burst)
        return bucket.take(now)

    def prune(self, now: float) -> None:
        """Forget the buckets that have refilled (idle long enough): memory stays bounded."""
        full_after = self.burst / self.rate
        for user_id in [u for u, b in self.buckets.items() if now - b.stamp > full_after]:
            del self.buckets[user_id]


# One command for all the frames counted during an event-loop turn, over every key they touch: each
# key's window count goes up by its frames, the key expiring 2 s after its window's first frame.
# (A pipeline of INCR + EXPIRE cost 140 us of the server's CPU a frame here, one script a frame 85.)
COUNT_SCRIPT = """
local counts = {}
for i, key in ipairs(KEYS) do
  local frames = tonumber(ARGV[i])
  local count = redis.call('INCRBY', key, frames)
  if count == frames then redis.call('EXPIRE', key, 2) end
  counts[i] = count
end
return counts
"""


COUNT_SHA = hashlib.sha1(COUNT_SCRIPT.encode(), usedforsecurity=False).hexdigest()  # its name in Redis


class _Batch:
    """One event loop's Redis connection and the takes waiting for its next round trip."""

    def __init__(self, url: str) -> None:
        self.redis = resp.Client(url)
        self.waiting: dict[str, list[asyncio.Future[bool]]] = {}  # window key -> its takes, in order
        self.busy = False  # a round trip is under way: new takes wait for the next one
        self.draining: asyncio.Task[None] | None = None  # the task sending the next rounds

    async def count(self, keys: list[str], frames: list[int]) -> list[int]:
        """Run the counting script (by its digest; its text once, when Redis does not know it).

        A Redis that does not answer within ``REDIS_TIMEOUT`` is taken as down: the connection is
        dropped (the next round opens another) and the round's frames are allowed."""
        try:
            async with asyncio.timeout(REDIS_TIMEOUT):
                try:
                    counts = await self.redis.call("EVALSHA", COUNT_SHA, len(keys), *keys, *frames)
                except resp.ResponseError as exc:
                    if not str(exc).startswith("NOSCRIPT"):
                        raise
                    counts = await self.redis.call("EVAL", COUNT_SCRIPT, len(keys), *keys, *frames)
        except TimeoutError:
            self.redis.close()
            raise
        return [int(count) for count in counts]


class RedisUserStore:
    """Per-user counts in Redis, one fixed one-second window per user, shared by every process.

    Group commit: the takes of one event-loop turn go to Redis together in ONE script call (one key
    per user and window, incremented by his frames), and so do the takes that arrive while that
    round trip is under way, in the next call: a busy process pays one round trip for many frames.
    The limit stays exact across processes: every frame is counted in Redis, atomically, before its
    verdict, and the n-th frame of a user's window (in Redis's order, whatever process sent it) is
    allowed iff n <= ``rate``; so a user gets at most ``rate`` frames per window in all, on any
    number of sockets and processes, as with one INCR a frame (a round cut short by its sender
    going away is sent again: its frames counted twice at worst, never missed). A frame waits one
    loop turn, then at most for the round trip in flight and its own. Redis down or silent past
    ``REDIS_TIMEOUT``: the frames of the failed call are allowed (the per-connection bucket still
    holds), the next call connects again.
    The round trips go through ``piattaforma.resp``, a pipelined connection of its own.
    """

    def __init__(self, url: str, rate: int = USER_RATE) -> None:
        self.url, self.rate = url, rate
        # a redis.asyncio client (and its script) belongs to the event loop that made it
        self.batches: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Batch]
        self.batches = weakref.WeakKeyDictionary()

    async def take(self, user_id: int) -> bool:
        loop = asyncio.get_running_loop()
        batch = self.batches.get(loop)
        if batch is None:
            batch = self.batches[loop] = _Batch(self.url)
        verdict: asyncio.Future[bool] = loop.create_future()
        batch.waiting.setdefault(f"ratelimit:ws:{user_id}:{int(time.time())}", []).append(verdict)
        if not batch.busy:
            batch.busy = True
            try:
                await asyncio.sleep(0)  # one turn of the loop: the takes of this turn join this one
                await self.send(batch)
            finally:
                self.hand_over(loop, batch)
        return await verdict

    async def send(self, batch: _Batch) -> None:
        """One round trip: count the waiting takes in Redis and give each its verdict."""
        waiting, batch.waiting = batch.waiting, {}
        try:
            counts: list[int] | None = await batch.count(list(waiting), [len(v) for v in waiting.values()])
        except Exception:  # Redis down: all allowed, the per-connection bucket still holds
            counts = None
        except BaseException:  # the sender was cancelled: its companions go in the next round
            for key, verdicts in waiting.items():
                batch.waiting.setdefault(key, [])[:0] = verdicts
            raise
        for i, verdicts in enumerate(waiting.values()):
            before = int(counts[i]) - len(verdicts) if counts is not None else -len(verdicts)
            for n, verdict in enumerate(verdicts, start=before + 1):
                if not verdict.done():  # its consumer may have gone meanwhile
                    verdict.set_result(n <= self.rate)

    def hand_over(self, loop: asyncio.AbstractEventLoop, batch: _Batch) -> None:
        """After a round: the takes that came meanwhile go in the next, sent by a task of their own."""
        if batch.waiting:
            batch.draining = loop.create_task(self.drain(batch))
        else:
            batch.busy = False

    async def drain(self, batch: _Batch) -> None:
        """Send round after round while takes keep coming during the round trips."""
        try:
            while batch.waiting:
                await self.send(batch)
        finally:
            batch.busy, batch.draining = False, None
            for verdicts in batch.waiting.values():  # cancelled: the loop is closing
                for verdict in verdicts:
                    if not verdict.done():
                        verdict.cancel()
            batch.waiting = {}


_stores: dict[str, UserStore] = {}


def user_store() -> UserStore:
    """The store of per-user counts: Redis when the platform runs on Redis, else this process."""
    url = getattr(settings, "REDIS_URL", "")
    store = _stores.get(url)
    if store is None:
        store = _stores[url] = RedisUserStore(url) if url else LocalUserStore()
    return store


RATE_LIMITED_ERROR = json.dumps(
    {"type": "error", "code": "rate_limited", "message": "Troppi messaggi: rallenta"}, ensure_ascii=False
)


class Strikes:
    """Runs of refused frames: ``ok`` resets, the first refusal answers, too many close."""

    def __init__(self) -> None:
        self.run = self.accepted = self.refused = 0
        self.closed = False  # a close was sent: the frames still in flight are dropped quietly

    def verdict(self, allowed: bool) -> Verdict:
        if allowed:
            self.run = 0
            self.accepted += 1
            return "ok"
        self.run += 1
        self.refused += 1
        return "close" if self.run > MAX_STRIKES else "refused"


class UserLimiter(Strikes):
    """The per-user limit one connection's frames go through (the guard did the per-connection one)."""

    def __init__(self, user_id: int, store: UserStore | None = None) -> None:
        super().__init__()
        self.user_id = user_id
        self.store = store or user_store()

    async def check(self) -> Verdict:
        """Count one frame: ``ok`` to handle it, ``refused`` to drop it, ``close`` to hang up."""
        return self.verdict(await self.store.take(self.user_id))


class FrameGuard:
    """ASGI middleware: per-connection rate limit and bounded backlog of received frames."""

    def __init__(self, app: Any, clock: Callable[[], float] = time.monotonic) -> None:
        self.app, self.clock = app, clock

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        bucket = Bucket(CONNECTION_RATE, CONNECTION_BURST)
        strikes = Strikes()
        waiting = 0  # received frames in the inbox

        async def pump() -> None:
            nonlocal waiting
            while True:
                message = await receive()  # returns at once while the server's queue has frames
                if message["type"] != "websocket.receive":
                    inbox.put_nowait(message)  # connect and disconnect always go through
                    if message["type"] == "websocket.disconnect":
                        return
                    continue
                verdict = strikes.verdict(waiting < MAX_BACKLOG and bucket.take(self.clock()))
                if verdict == "ok":
                    waiting += 1
                    inbox.put_nowait(message)
                elif verdict == "close" and not strikes.closed:
                    strikes.closed = True
                    await answer({"type": "websocket.close", "code": CLOSE_RATE_LIMITED})
                elif verdict == "refused" and strikes.run == 1:
                    await answer({"type": "websocket.send", "text": RATE_LIMITED_ERROR})

        async def answer(message: dict[str, Any]) -> None:
            # The socket may be closing already (Daphne raises on a send to a closed protocol):
            # the pump must live on to hand the app its disconnect, or the seat stays "connected".
            with contextlib.suppress(Exception):
                await send(message)

        async def take() -> dict[str, Any]:
            nonlocal waiting
            message = await inbox.get()
            if message["type"] == "websocket.receive":
                waiting -= 1
            return message

        pumping = asyncio.create_task(pump())
        try:
            return await self.app(scope, take, send)
        finally:
            pumping.cancel()
