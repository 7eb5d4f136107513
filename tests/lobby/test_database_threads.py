"""The database threads of the live tables' runtime (``lobby.runtime.blocking`` on PostgreSQL).

Each event loop has a bounded pool of its own, and its threads close their connections when the
pool shuts down: when the loop is released, or on the next use after the loop closed. With the
loop's default executor, each ended loop (every async test's) would leave one open connection per
thread until the garbage collector found it.
"""

import asyncio
import gc
import threading
import time

import pytest
from django.db import connection

from lobby import runtime
from lobby.runtime import DatabaseThreads


def test_the_pool_never_runs_more_threads_than_its_size():
    pool = DatabaseThreads(3)
    running, peak = 0, 0
    lock = threading.Lock()

    def work(n):
        nonlocal running, peak
        with lock:
            running += 1
            peak = max(peak, running)
        time.sleep(0.02)
        with lock:
            running -= 1
        return n * n

    try:
        futures = [pool.submit(work, n) for n in range(12)]
        assert [f.result(timeout=5) for f in futures] == [n * n for n in range(12)]
    finally:
        pool.shutdown()
    assert pool.threads == 3
    assert peak == 3


def test_an_error_reaches_the_caller_and_the_thread_goes_on():
    pool = DatabaseThreads(1)
    try:
        with pytest.raises(ZeroDivisionError):
            pool.submit(lambda: 1 / 0).result(timeout=5)
        assert pool.submit(lambda: "ancora").result(timeout=5) == "ancora"
    finally:
        pool.shutdown()
    with pytest.raises(RuntimeError):
        pool.submit(lambda: None)


# --- PostgreSQL: the connections of the threads ---------------------------------------------------


def _backend_pid() -> int:
    time.sleep(0.05)  # held a moment, so that concurrent calls need several threads
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


async def _pids(calls: int) -> set[int]:
    return set(await asyncio.gather(*[runtime.blocking(_backend_pid)() for _ in range(calls)]))


def _alive(pids: set[int]) -> set[int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # (a transaction reads one snapshot of it)
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE pid = ANY(%s)", [list(pids)])
        return {row[0] for row in cursor.fetchall()}


def _wait_closed(pids: set[int]) -> set[int]:
    deadline = time.monotonic() + 5
    while (alive := _alive(pids)) and time.monotonic() < deadline:
        time.sleep(0.05)
    return alive


@pytest.fixture
def postgres(db, settings):
    if connection.vendor != "postgresql":
        pytest.skip("the runtime's own threads are PostgreSQL's (SQLite's work stays on one thread)")
    settings.LOBBY_DATABASE_THREADS = 3
    gc.disable()  # a leaked connection would be freed by the collector: keep it from hiding one
    yield
    gc.enable()


@pytest.mark.postgres
def test_the_connections_of_a_loop_that_ended_are_closed_on_the_next_use(postgres):
    ended = asyncio.run(_pids(6))  # asyncio.run closes its loop, as pytest-asyncio does each test's
    assert 1 <= len(ended) <= 3  # the loop's pool, bounded
    assert _alive(ended) == ended  # (kept while the pool lives: CONN_MAX_AGE)

    later = asyncio.run(_pids(1))  # another loop's first use shuts the ended loop's pool down

    assert _wait_closed(ended) == set()
    assert not later & ended


@pytest.mark.postgres
def test_a_loop_releasing_its_threads_closes_their_connections(postgres):
    async def work_then_release():
        pids = await _pids(6)
        await runtime.release_threads()  # (the lobby tests' teardown does it)
        return pids

    pids = asyncio.run(work_then_release())

    assert pids
    assert _wait_closed(pids) == set()


@pytest.mark.postgres
def test_the_lease_renewal_does_not_wait_behind_the_tables_work(postgres, settings):
    """Every table thread busy (a saturated pool under load): the heartbeat's renewal still runs at
    once, on its own thread. Queued behind that work, it would let leases expire, and their owners
    would be dropped with their sockets."""
    settings.LOBBY_DATABASE_THREADS = 1
    gate = threading.Event()

    async def renew_while_busy():
        busy = asyncio.ensure_future(runtime.blocking(gate.wait)(10))  # the one table thread, held
        await asyncio.sleep(0.1)
        try:
            queued = asyncio.ensure_future(runtime.blocking(_backend_pid)())  # waits for the held one
            renewal = await asyncio.wait_for(runtime.urgent(_backend_pid)(), 5)  # does not
            assert not queued.done()
        finally:
            gate.set()
        await busy
        await queued
        await runtime.release_threads()
        return renewal

    assert asyncio.run(renew_while_busy()) > 0


@pytest.mark.postgres
def test_a_busy_threads_connection_goes_unchecked_an_idle_or_failed_one_does_not(postgres, monkeypatch):
    """Django checks a connection (``SELECT 1``) before each request's first query; the tables'
    threads check one only when its last job is older than ``HEALTH_CHECK_IDLE_SECONDS``, or failed."""
    from lobby.runtime import threads

    monkeypatch.setattr(threads, "database_threads", lambda: 1)  # one thread: one connection
    checked: list[int] = []
    wrapper = type(threads.connections["default"])
    is_usable = wrapper.is_usable
    monkeypatch.setattr(wrapper, "is_usable", lambda self: checked.append(1) or is_usable(self))

    def fails():
        with connection.cursor() as cursor:
            cursor.execute("SELECT no_such_column FROM lobby_table")

    async def jobs(idle: float, failing: bool = False) -> int:
        monkeypatch.setattr(threads, "HEALTH_CHECK_IDLE_SECONDS", idle)
        await runtime.blocking(_backend_pid)()  # the thread's connection opens (no check: new)
        checked.clear()
        if failing:
            with pytest.raises(Exception, match="no_such_column"):
                await runtime.blocking(fails)()
        for _ in range(3):
            await runtime.blocking(_backend_pid)()
        await runtime.release_threads()
        return len(checked)

    assert asyncio.run(jobs(idle=60)) == 0  # busy: every job within a minute of the last
    assert asyncio.run(jobs(idle=0)) == 3  # idle: each job's first query checks first
    # the failed job's connection is checked as its job ends (Django's close_old_connections)
    assert asyncio.run(jobs(idle=60, failing=True)) == 1
