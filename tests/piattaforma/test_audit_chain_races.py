"""Many writers appending to the audit chain at once on PostgreSQL: every row lands, the chain holds.

PostgreSQL only (SQLite has one writer at a time by construction):
DATABASE_URL=postgres://… pytest this file.
"""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from piattaforma.actions import audit_record
from piattaforma.audit import audit_verify
from piattaforma.models import AuditLog
from tests.wallet.conftest import run_in_threads

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]
WRITERS, APPENDS = 8, 40


def test_concurrent_appends_keep_the_chain_valid():
    before = AuditLog.objects.count()
    plans = [[(w, i) for i in range(APPENDS)] for w in range(WRITERS)]

    def step(item: tuple[int, int]) -> None:
        writer, i = item
        with transaction.atomic():  # as an action: other work, then the audit line, then commit
            audit_record(actor=None, action="prova.concorrente", data={"writer": writer, "i": i})
            if i % 7 == 3:
                audit_record(actor=None, action="prova.concorrente", data={"writer": writer, "i": -i})

    run_in_threads(plans, step)
    extra = WRITERS * len([i for i in range(APPENDS) if i % 7 == 3])
    assert AuditLog.objects.count() == before + WRITERS * APPENDS + extra
    report = audit_verify()
    assert report.ok, report.message
    assert report.rows_checked == AuditLog.objects.count()


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
    assert audit_verify().ok
