"""The journal: every applied step durable before any view of it is sent (group commit).

A step is a ``HandStep`` row (version, seat, action, RNG draws, events): the hand history and the
replay read the same rows the owners wrote. Owners append and wait; one writer task per event loop
commits everything queued meanwhile in one transaction, so a busy process pays one commit for many
tables' steps. A step whose commit failed raises in its owner, which sends nothing of it.

On PostgreSQL the writer has a connection of its own, psycopg's asynchronous one, on the event
loop: a batch is one statement (``bulkinsert.postgresql_statement``) awaited where the owners
are, with no database thread to hand it to and wake (that hand-over, with asgiref's wrapping, cost
the loop more than the statement). Elsewhere (SQLite, one connection for the process) a batch goes
through ``blocking`` as every other database call.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from django.db import IntegrityError, connection, connections
from django.db import utils as db_utils

from lobby import bulkinsert
from lobby.models import HandStep
from lobby.runtime.threads import blocking
from piattaforma import metrics

logger = logging.getLogger(__name__)

BATCH_MAX = 500  # steps per transaction at most


class Journal:
    """The group-committing writer of one event loop."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[tuple[HandStep, asyncio.Future[None]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for the benchmarks)
        self.steps = 0
        self.writer = AsyncWriter() if connections["default"].vendor == "postgresql" else None

    async def append(self, step: HandStep) -> None:
        """Queue a step and wait until it is committed."""
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._write_forever(), name="lobby-journal")
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        await self.queue.put((step, done))
        await done

    async def _write_forever(self) -> None:
        while True:
            batch = [await self.queue.get()]
            while not self.queue.empty() and len(batch) < BATCH_MAX:
                batch.append(self.queue.get_nowait())
            started = time.perf_counter()
            try:
                await self._commit([step for step, _ in batch])
            except IntegrityError:  # a step another writer stored first: only its owner refuses it
                await self._write_alone(batch)
                continue
            except Exception as exc:  # the database is away: each owner refuses its step
                metrics.journal_failed()
                logger.exception("journal: a batch of %d steps failed", len(batch))
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            self.commits += 1
            self.steps += len(batch)
            metrics.journal_committed(len(batch), time.perf_counter() - started)
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    async def _write_alone(self, batch: list[tuple[HandStep, asyncio.Future[None]]]) -> None:
        """Commit each step of a refused batch on its own: one table's conflict refuses no other's step."""
        for step, done in batch:
            started = time.perf_counter()
            try:
                await self._commit([step])
            except Exception as exc:
                logger.exception("journal: step %s of hand %s refused", step.seq, step.hand_id)
                if not done.done():
                    done.set_exception(exc)
                continue
            self.commits += 1
            self.steps += 1
            metrics.journal_committed(1, time.perf_counter() - started)
            if not done.done():
                done.set_result(None)

    async def _commit(self, steps: list[HandStep]) -> None:
        if self.writer is not None:
            await self.writer.insert(steps)
        else:
            await blocking(_commit)(steps)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None

    async def close(self) -> None:
        """Stop writing and close the writer's connection (its loop is about to close)."""
        self.stop()
        if self.writer is not None:
            await self.writer.close()

    def finish(self) -> None:
        """Close the writer's connection from any thread, its loop closed or not running it."""
        if self.writer is not None:
            self.writer.finish()


class AsyncWriter:
    """The journal's own PostgreSQL connection (psycopg, asynchronous, autocommit), made at first use.

    Each batch is one statement, committed by itself. No health check first (a round trip before
    each batch, many a second): a connection gone since its last use fails the batch, which is
    tried once more on a new one (a batch whose commit did reach the database then meets its own
    rows: ``IntegrityError``). The database's refusals come out as Django's exceptions, as from
    any other write.
    """

    def __init__(self) -> None:
        self.conn: Any = None  # psycopg.AsyncConnection

    async def insert(self, steps: list[HandStep]) -> None:
        import psycopg

        sql, params = bulkinsert.postgresql_statement(HandStep, steps)
        for retry in (False, True):
            fresh = self.conn is None or self.conn.closed
            try:
                if fresh:
                    self.conn = await self._connect()
                cursor = await self.conn.execute(sql, params)
                pks = [pk for (pk,) in await cursor.fetchall()]
                break
            except psycopg.Error as exc:
                if retry or fresh or not self.conn.broken:
                    raise as_django(exc) from exc
                await self.close()  # the connection went away: once more, on a new one
        bulkinsert.adopt(steps, pks, connection.alias)

    async def _connect(self) -> Any:
        import psycopg

        params = connections["default"].get_connection_params()
        for synchronous in ("cursor_factory", "context"):  # the sync connection's own classes
            params.pop(synchronous, None)
        return await psycopg.AsyncConnection.connect(**params, autocommit=True)

    async def close(self) -> None:
        conn, self.conn = self.conn, None
        if conn is not None and not conn.closed:
            await conn.close()

    def finish(self) -> None:
        """Close the connection without its loop (libpq's own close: no await, any thread)."""
        conn, self.conn = self.conn, None
        if conn is not None:
            conn.pgconn.finish()


# psycopg's errors as Django's (``django.db.utils``), the most precise first: as Django's own wrapper
_DJANGO_ERRORS = (
    "DataError", "OperationalError", "IntegrityError", "InternalError", "ProgrammingError",
    "NotSupportedError", "InterfaceError", "DatabaseError", "Error",
)  # fmt: skip


def as_django(exc: Exception) -> Exception:
    import psycopg

    name = next(n for n in _DJANGO_ERRORS if isinstance(exc, getattr(psycopg, n)))
    return getattr(db_utils, name)(*exc.args)


def _commit(steps: list[HandStep]) -> None:
    """Insert the steps on this thread's connection (SQLite's one): one statement where the database
    takes them all (its own commit in autocommit mode), else in one transaction (``lobby.bulkinsert``)."""
    bulkinsert.insert(HandStep, steps)


_journals: dict[asyncio.AbstractEventLoop, Journal] = {}


def journal() -> Journal:
    """The journal of the running event loop."""
    loop = asyncio.get_running_loop()
    for old in [k for k in _journals if k.is_closed()]:
        _journals.pop(old).finish()  # (a loop closed without ``close_journal``: its connection too)
    if loop not in _journals:
        _journals[loop] = Journal()
    return _journals[loop]


def finish_all() -> None:
    """Close every journal's connection at once, whatever its loop (a test session's end: the
    database is dropped next, and PostgreSQL refuses while a connection is open)."""
    while _journals:
        _journals.popitem()[1].finish()


async def close_journal() -> None:
    """The running loop's journal stops and closes its connection (the loop is about to close)."""
    ending = _journals.pop(asyncio.get_running_loop(), None)
    if ending is not None:
        await ending.close()
