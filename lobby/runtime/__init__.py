"""The live tables' runtime: one owner per table, state in memory, every action journaled.

A table whose owner is gone (its process died, or no connection opened it yet) has its row
brought up to date from the journal by whoever writes it next, its clocks kept by Celery tasks
and the beat sweeper, until a process takes it over (``ownership``: ``adopt_orphans``,
``sweep_orphans``).

- ``owner``: ``TableOwner``, an asyncio task in the server process that holds a table's runtime
  (engine state, seats, clocks) in memory and applies its jobs one at a time. A player's decision
  (and a bot's) is applied in memory, the stale version refused there; everything else a table
  does (seats, waiting list, cash, clocks that time out, hand start and end) runs the row actions
  of ``lobby.actions`` under the owner, which first writes its state to the row (a snapshot).
- ``journal``: the group-committed journal; each applied step is a ``HandStep`` row (version,
  seat, action, RNG draws, events), committed before any view of it leaves the process.
- ``fanout``: each seated player's view encoded once per version and sent only to his sockets;
  one public view for everyone else.
- ``clocks``: the owner's timers (deadline and time bank, bot moves, next deal and countdowns).
- ``ownership``: the lease row per table saying which process owns it, the owners of this
  process, the door through which a sync caller (an HTTP view) reaches a table's owner, and the
  adoption of the tables of a process that died.
- ``remote``: owners in other processes, reached over the Channels layer (each process's inbox).
"""

from __future__ import annotations

import asyncio
import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections


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


def blocking(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run database work off the event loop (the loop's threads on PostgreSQL, the one thread on SQLite)."""
    if connections["default"].vendor != "postgresql":
        return database_sync_to_async(func)
    return database_sync_to_async(func, thread_sensitive=False, executor=_threads)  # type: ignore[arg-type]  # any Executor does; asgiref's hint names ThreadPoolExecutor


def urgent(func: Callable[..., Any]) -> Callable[..., Any]:
    """``blocking`` on a thread of its own (the leases' renewal), never behind the tables' work."""
    if connections["default"].vendor != "postgresql":
        return database_sync_to_async(func)
    return database_sync_to_async(func, thread_sensitive=False, executor=_lease_threads)  # type: ignore[arg-type]  # as in blocking


async def release_threads() -> None:
    """The running loop's database threads close their connections and end, and so does its
    journal's (a loop about to close).

    Work submitted afterwards starts a new pool.
    """
    from lobby.runtime.journal import close_journal

    await close_journal()
    loop = asyncio.get_running_loop()
    for registry in (_threads, _lease_threads):
        pool = registry.release(loop)
        if pool is not None:
            await asyncio.to_thread(pool.shutdown)


def close_threads() -> None:
    """Every loop's database threads close their connections and end, and every journal's own
    connection is closed (a test session's end)."""
    from lobby.runtime import journal

    for pool in [*_threads.release_all(), *_lease_threads.release_all()]:
        pool.shutdown()
    journal.finish_all()
