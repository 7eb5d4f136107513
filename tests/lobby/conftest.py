"""Live-table tests deal from a seeded generator, so every run plays the same hands."""

import asyncio
import itertools

import pytest
from asgiref.sync import sync_to_async

from games.rng import RecordingRng, SeededRng


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch):
    seeds = itertools.count(1000)
    monkeypatch.setattr("lobby.actions.tablerow.new_rng", lambda: RecordingRng(SeededRng(next(seeds))))


@pytest.fixture(autouse=True)
async def stop_table_owners():
    """The owner runtime: every table owner of the test's loop stops with the test.

    Then the database work the test's tasks started is finished and the loop's database threads
    close their connections (on PostgreSQL each thread has its own) and end, before the loop
    closes and the test database is flushed.
    """
    yield
    from lobby import presence, runtime

    await presence.stop_all()
    await cleanups_finished()
    await runtime.release_threads()


async def cleanups_finished(timeout: float = 10) -> None:
    """Wait for the tasks already cancelled to finish their cleanup, and for the work they queued.

    A communicator the test dropped without disconnecting cancels its consumer, whose ``finally``
    then drops the socket's row (``seat_disconnected``) on a database thread. The loop's end would
    cancel that task a second time, and asgiref stops waiting for a thread when cancelled: the
    thread would go on writing while the test database is flushed (on SQLite's shared in-memory
    database: "database table is locked").
    """
    current = asyncio.current_task()
    cancelled = [t for t in asyncio.all_tasks() if t is not current and t.cancelling()]
    if cancelled:
        await asyncio.wait(cancelled, timeout=timeout)
    await sync_to_async(lambda: None)()  # the thread-sensitive thread's queue, drained
