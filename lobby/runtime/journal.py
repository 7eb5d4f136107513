"""The journal: every applied step durable before any view of it is sent (group commit).

A step is a ``HandStep`` row (version, seat, action, RNG draws, events): the hand history and the
replay read the same rows the owners wrote. Owners append and wait; one writer task per event loop
commits everything queued meanwhile in one transaction, so a busy process pays one commit for many
tables' steps. A step whose commit failed raises in its owner, which sends nothing of it.
"""

from __future__ import annotations

import asyncio
import logging

from django.db import IntegrityError, InterfaceError, OperationalError, connection

from games import registry
from games.rng import ReplayRng
from lobby import bulkinsert
from lobby.models import HandStep, TableRuntime
from lobby.runtime import blocking

logger = logging.getLogger(__name__)

BATCH_MAX = 500  # steps per transaction at most


class Journal:
    """The group-committing writer of one event loop."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[tuple[HandStep, asyncio.Future[None]]] = asyncio.Queue()
        self.task: asyncio.Task[None] | None = None
        self.commits = 0  # transactions committed (for the benchmarks)
        self.steps = 0

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
            try:
                await blocking(_commit)([step for step, _ in batch])
            except IntegrityError:  # a step another writer stored first: only its owner refuses it
                await self._write_alone(batch)
                continue
            except Exception as exc:  # the database is away: each owner refuses its step
                logger.exception("journal: a batch of %d steps failed", len(batch))
                for _, done in batch:
                    if not done.done():
                        done.set_exception(exc)
                continue
            self.commits += 1
            self.steps += len(batch)
            for _, done in batch:
                if not done.done():
                    done.set_result(None)

    async def _write_alone(self, batch: list[tuple[HandStep, asyncio.Future[None]]]) -> None:
        """Commit each step of a refused batch on its own: one table's conflict refuses no other's step."""
        for step, done in batch:
            try:
                await blocking(_commit)([step])
            except Exception as exc:
                logger.exception("journal: step %s of hand %s refused", step.seq, step.hand_id)
                if not done.done():
                    done.set_exception(exc)
                continue
            self.commits += 1
            self.steps += 1
            if not done.done():
                done.set_result(None)

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            self.task = None


def _commit(steps: list[HandStep]) -> None:
    """Insert the steps with one statement where the database takes them all (one round trip, its
    own commit in autocommit mode), else in one transaction (``lobby.bulkinsert``).

    Without the connection's health check first (``CONN_HEALTH_CHECKS``: a ``SELECT 1`` round trip
    before each batch, many a second): a connection that went away since its last use fails the
    insert instead, and the batch is tried once more on a new one. (A batch whose commit did reach
    the database then meets its own rows: ``IntegrityError``, as any conflict.)
    """
    connection.health_check_done = True
    try:
        bulkinsert.insert(HandStep, steps)
    except (OperationalError, InterfaceError):
        if connection.in_atomic_block or connection.is_usable():
            raise  # not a connection gone: the batch is refused, as before
        connection.close()
        bulkinsert.insert(HandStep, steps)


_journals: dict[asyncio.AbstractEventLoop, Journal] = {}


def journal() -> Journal:
    """The journal of the running event loop."""
    loop = asyncio.get_running_loop()
    for old in [k for k in _journals if k.is_closed()]:
        del _journals[old]
    if loop not in _journals:
        _journals[loop] = Journal()
    return _journals[loop]


def recover(rt: TableRuntime) -> int:
    """Apply the journal's steps the runtime row does not have yet (a takeover); return how many.

    Each step is applied with the RNG draws it recorded, so the state is the one its players saw;
    the deadline and the lines' clocks are the step's, so the clocks resume with the time left.
    """
    if rt.state is None:
        return 0
    steps = list(
        HandStep.objects.filter(
            hand__table_id=rt.pk, hand__number=rt.hand_no, version__gt=rt.version
        ).order_by("seq")
    )
    engine = registry.get(rt.game or rt.table.game)
    for step in steps:
        engine.apply(rt.state, step.seat, step.action, ReplayRng(step.draws))
        rt.version, rt.steps = step.version, step.seq
        rt.deadline, rt.clocks, rt.turn_started = step.deadline, step.clocks, step.created_at
    return len(steps)
