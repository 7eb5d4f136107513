"""The database threads of the live tables: a bounded pool per event loop, each thread closing
its connections when it ends (``blocking``), and one thread of its own for the leases' renewal
(``urgent``)."""

from __future__ import annotations

import asyncio
import os
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import close_old_connections, connections

# A connection that answered a job less than this long ago is not health-checked before the next.
HEALTH_CHECK_IDLE_SECONDS = 1.0


class DatabaseThreads(Executor):
    """A bounded pool of threads for one event loop's database work; each thread closes its connections.

    Django keeps one connection per thread (``CONN_MAX_AGE``), and the loop's default executor's
    threads never close theirs: when a loop ends (each test's; ``asyncio.run``), its threads end
    with their connections still open until the garbage collector happens to find them. Here a
    thread that ends, when the pool shuts down, closes its connections first.
    """

    def __init__(self, size: int, name: str = "lobby-db") -> None:
        self.size = size
        self.name = name
        self._work: queue.SimpleQueue[tuple[Future[Any], Callable[[], Any]] | None] = queue.SimpleQueue()
        self._idle = threading.Semaphore(0)
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._shut = False

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        future: Future[Any] = Future()
        with self._lock:
            if self._shut:
                raise RuntimeError("cannot schedule new futures after shutdown")
            self._work.put((future, lambda: fn(*args, **kwargs)))
            if not self._idle.acquire(blocking=False) and len(self._threads) < self.size:
                thread = threading.Thread(
                    target=self._serve, name=f"{self.name}_{len(self._threads)}", daemon=True
                )
                thread.start()
                self._threads.append(thread)
        return future

    def _serve(self) -> None:
        try:
            while (item := self._work.get()) is not None:
                future, call = item
                if future.set_running_or_notify_cancel():
                    try:
                        result = call()
                    except BaseException as exc:
                        future.set_exception(exc)
                    else:
                        future.set_result(result)
                del item, future, call
                self._idle.release()
        finally:
            connections.close_all()  # this thread's own connections (they are per thread)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Let each thread finish the work queued, close its connections and end."""
        with self._lock:
            self._shut = True
            threads = list(self._threads)
        for _ in threads:
            self._work.put(None)
        if wait:
            for thread in threads:
                thread.join()

    @property
    def threads(self) -> int:
        return len(self._threads)


class _LoopThreads(Executor):
    """The database threads of the running event loop (one pool per loop).

    The pool of a loop that has closed (a test's, an ``asyncio.run``'s) is shut down on the next
    use from any loop, or by ``release_threads`` from its own loop before it closes.
    """

    def __init__(self, size: int | None = None, name: str = "lobby-db") -> None:
        self.pools: dict[asyncio.AbstractEventLoop, DatabaseThreads] = {}
        self._lock = threading.Lock()
        self.size, self.name = size, name  # size None: ``database_threads()``

    def pool(self) -> DatabaseThreads:
        loop = asyncio.get_running_loop()
        with self._lock:
            for old in [k for k in self.pools if k.is_closed()]:
                self.pools.pop(old).shutdown(wait=False)
            pool = self.pools.get(loop)
            if pool is None:
                pool = self.pools[loop] = DatabaseThreads(self.size or database_threads(), self.name)
        return pool

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        return self.pool().submit(fn, *args, **kwargs)

    def release(self, loop: asyncio.AbstractEventLoop) -> DatabaseThreads | None:
        with self._lock:
            return self.pools.pop(loop, None)

    def release_all(self) -> list[DatabaseThreads]:
        with self._lock:
            pools, self.pools = list(self.pools.values()), {}
        return pools


_threads = _LoopThreads()
# The leases' renewal (``presence.renew``): one thread of its own per loop, never queued behind the tables'
# work (with that pool saturated, a renewal waiting its turn let leases expire under load, and
# their owners were dropped with their sockets).
_lease_threads = _LoopThreads(size=1, name="lobby-lease")


def database_threads() -> int:
    """How many threads one loop's database work may use (``LOBBY_DATABASE_THREADS``).

    The default is the size of asyncio's default executor, which this pool replaces.
    """
    return int(getattr(settings, "LOBBY_DATABASE_THREADS", 0) or min(32, (os.cpu_count() or 1) + 4))


class TableWork(SyncToAsync):
    """``database_sync_to_async`` for the tables' own threads, without a health check per job.

    Channels' wrapper closes a connection that failed or outlived ``CONN_MAX_AGE`` before and after
    each call, as Django does around a request, and with ``CONN_HEALTH_CHECKS`` the first query of
    every call is preceded by a ``SELECT 1``: a round trip per job, two at every hand's end. Here a
    connection that answered a job of this thread less than ``HEALTH_CHECK_IDLE_SECONDS`` ago goes
    unchecked (a busy table's thread: the check would find it alive); one idle for longer, or one
    whose last job failed (``close_old_connections`` checks and replaces it), is checked as before.
    """

    def thread_handler(self, loop: Any, *args: Any, **kwargs: Any) -> Any:
        close_old_connections()
        now = time.monotonic()
        for conn in connections.all(initialized_only=True):
            answered = getattr(conn, "lobby_answered_at", None)
            if (
                conn.connection is not None
                and answered is not None
                and now - answered < HEALTH_CHECK_IDLE_SECONDS
            ):
                conn.health_check_done = True
        try:
            return super().thread_handler(loop, *args, **kwargs)
        finally:
            close_old_connections()
            now = time.monotonic()
            for conn in connections.all(initialized_only=True):
                # (a connection that failed was closed above, or checked and found alive)
                conn.lobby_answered_at = now if conn.connection is not None else None


def blocking(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run database work off the event loop (the loop's threads on PostgreSQL, the one thread on SQLite)."""
    if connections["default"].vendor != "postgresql":
        return database_sync_to_async(func)
    return TableWork(func, thread_sensitive=False, executor=_threads)  # type: ignore[arg-type]  # any Executor does; asgiref's hint names ThreadPoolExecutor


def urgent(func: Callable[..., Any]) -> Callable[..., Any]:
    """``blocking`` on a thread of its own (the leases' renewal), never behind the tables' work."""
    if connections["default"].vendor != "postgresql":
        return database_sync_to_async(func)
    return TableWork(func, thread_sensitive=False, executor=_lease_threads)  # type: ignore[arg-type]  # as in blocking


def release_pools(loop: asyncio.AbstractEventLoop) -> list[DatabaseThreads]:
    """Take the pools of this loop out of use (the caller shuts them down)."""
    pools = [registry.release(loop) for registry in (_threads, _lease_threads)]
    return [pool for pool in pools if pool is not None]


def release_all_pools() -> list[DatabaseThreads]:
    """Take every loop's pools out of use (the caller shuts them down)."""
    return [*_threads.release_all(), *_lease_threads.release_all()]
