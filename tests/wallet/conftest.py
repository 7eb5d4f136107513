"""Fixtures of the wallet tests."""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.db import connection, connections

from piattaforma import roles
from tests.piattaforma.factories import UserFactory
from wallet import actions
from wallet.models import Account, Hold, IdempotencyKey, Payment, Posting, Transaction


def ledger_snapshot() -> dict[str, Any]:
    """Everything a refused action must leave untouched."""
    return {
        "accounts": sorted(
            Account.objects.values_list("pk", "balance", "held", "transferred_in", "closed_at")
        ),
        "postings": Posting.objects.count(),
        "transactions": Transaction.objects.count(),
        "holds": sorted(Hold.objects.values_list("pk", "status")),
        "payments": sorted(Payment.objects.values_list("pk", "status")),
        "keys": IdempotencyKey.objects.count(),
    }


def run_in_threads(plans: Sequence[Any], step: Callable[[Any], None], *, timeout: float = 120) -> None:
    """Run ``step`` on every item of every plan, one thread (so one connection) per plan, all at once.

    Fails if a thread is still running after ``timeout`` (a deadlock) or if any step raised. It can
    never hang the run: the start barrier and the joins share one deadline, a thread that fails
    before the start releases the others, and the threads are daemons (a stuck one cannot keep the
    pytest worker from exiting) whose PostgreSQL sessions are ended (their locks cannot hold up the
    test's flush). A stuck worker's failure shows where each stuck thread waits and what the
    database sessions were doing.
    """
    errors: list[BaseException] = []
    sessions: dict[str, int] = {}
    deadline = time.monotonic() + timeout
    barrier = threading.Barrier(len(plans))

    def run(plan: Sequence[Any]) -> None:
        try:
            if connection.vendor == "postgresql":  # its session, to end it if the thread is stuck
                connection.ensure_connection()
                sessions[threading.current_thread().name] = connection.connection.info.backend_pid
            barrier.wait(timeout=max(0.0, deadline - time.monotonic()))
            for item in plan:
                step(item)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
            barrier.abort()  # the others stop waiting for a start that will not come
        finally:
            connections.close_all()

    threads = [
        threading.Thread(target=run, args=(plan,), name=f"plan-{i}", daemon=True)
        for i, plan in enumerate(plans)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=max(0.0, deadline - time.monotonic()))
    stuck = [t for t in threads if t.is_alive()]
    if stuck:
        where = _where(stuck)
        _end_sessions([sessions[t.name] for t in stuck if t.name in sessions])
        raise AssertionError("a worker is stuck (deadlock?)\n" + where)
    assert errors == []


def _end_sessions(pids: Sequence[int]) -> None:
    """End the stuck threads' PostgreSQL sessions: their locks go, the test's flush cannot wait on them."""
    if not pids:
        return
    with connection.cursor() as cursor:
        for pid in pids:
            cursor.execute("SELECT pg_terminate_backend(%s)", [pid])


def _where(threads: Sequence[threading.Thread]) -> str:
    """The stacks of these threads, and on PostgreSQL the test database's other sessions."""
    frames = sys._current_frames()
    out = [
        f"--- {t.name}\n" + "".join(traceback.format_stack(frames[t.ident]))
        for t in threads
        if t.ident in frames
    ]
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid, state, wait_event_type, wait_event, left(query, 120) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            out += [f"session {row}" for row in cursor.fetchall()]
    return "\n".join(out)


@pytest.fixture
def player(db):
    return UserFactory()


@pytest.fixture
def other_player(db):
    return UserFactory()


@pytest.fixture
def staff(db):
    return UserFactory(role=roles.STAFF)


@pytest.fixture
def funded(player):
    """A player with € 500,00 on the conto."""
    actions.deposit_create(user=player, amount=50_000, idempotency_key=f"fund:{player.pk}")
    return player
