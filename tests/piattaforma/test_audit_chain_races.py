"""Many writers appending to the audit chain at once on PostgreSQL: every row lands, the chain holds.

PostgreSQL only (SQLite has one writer at a time by construction):
DATABASE_URL=postgres://… pytest this file.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from piattaforma.actions import audit_record
from piattaforma.audit import audit_seal, audit_verify
from piattaforma.models import AuditLog, User
from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import run_in_threads

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]
WRITERS, APPENDS = 8, 40


def beat_seal() -> None:
    """What the beat task does within the minute. A sealer that finds another at work gives way
    (SKIP LOCKED), so a row committed while the last seal was already running waits for the next
    one (``piattaforma/audit.py``): the last commits of a race may be left unsealed (CI saw one)."""
    audit_seal()


def test_concurrent_appends_keep_the_chain_valid():
    plans = [[(w, i) for i in range(APPENDS)] for w in range(WRITERS)]

    def step(item: tuple[int, int]) -> None:
        writer, i = item
        with transaction.atomic():  # as an action: its audit lines commit with it, then are sealed
            audit_record(actor=None, action="prova.concorrente", data={"writer": writer, "i": i})
            if i % 7 == 3:
                audit_record(actor=None, action="prova.concorrente", data={"writer": writer, "i": -i})

    run_in_threads(plans, step)
    extra = WRITERS * len([i for i in range(APPENDS) if i % 7 == 3])
    assert AuditLog.objects.filter(action="prova.concorrente").count() == WRITERS * APPENDS + extra
    beat_seal()
    report = audit_verify()
    assert report.ok, report.message
    assert report.unsealed == 0
    assert report.rows_checked == AuditLog.objects.count() == report.head_seq


def test_concurrent_appends_with_rollbacks_leave_no_gap():
    plans = [[(w, i) for i in range(APPENDS)] for w in range(WRITERS)]

    def step(item: tuple[int, int]) -> None:
        writer, i = item
        try:
            with transaction.atomic():
                audit_record(actor=None, action="prova.forse", data={"writer": writer, "i": i})
                if (writer + i) % 3 == 0:
                    raise LookupError  # the action fails after its audit line: the line goes too
        except LookupError:
            pass

    run_in_threads(plans, step)
    kept = sum(1 for w in range(WRITERS) for i in range(APPENDS) if (w + i) % 3)
    assert AuditLog.objects.filter(action="prova.forse").count() == kept
    beat_seal()
    report = audit_verify()
    assert report.ok and report.unsealed == 0 and report.rows_checked == kept


def test_audit_lines_and_row_locks_in_either_order_never_deadlock():
    """One action writes its audit line then locks a row, another locks the row then writes its line."""
    player = UserFactory()
    plans = [[("audit_first", i) for i in range(APPENDS)], [("lock_first", i) for i in range(APPENDS)]]

    def step(item: tuple[str, int]) -> None:
        order, i = item
        with transaction.atomic():
            if order == "audit_first":
                audit_record(actor=None, action="prova.ordine", data={"i": i})
                User.objects.select_for_update().get(pk=player.pk)
            else:
                User.objects.select_for_update().get(pk=player.pk)
                audit_record(actor=None, action="prova.ordine", data={"i": i})

    run_in_threads(plans, step, timeout=120)
    assert AuditLog.objects.filter(action="prova.ordine").count() == 2 * APPENDS
    assert audit_verify().ok
