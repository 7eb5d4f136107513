"""A lease claim against a dead owner's session still holding the table's row (PostgreSQL).

A host cut off mid-write leaves its transaction open on the database until PostgreSQL's
``idle_in_transaction_session_timeout``. The claim gives up after ``lease.CLAIM_WAIT`` and refuses as
if the table were elsewhere, changing nothing, so an adoption goes on to the next orphan.
"""

import threading
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from lobby.errors import TableElsewhere
from lobby.models import TableLease, TableRuntime
from lobby.runtime import lease
from tests.lobby.factories import poker_table

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks of another session: PostgreSQL"),
]


def test_a_claim_on_rows_another_session_holds_gives_up_and_changes_nothing(monkeypatch):
    monkeypatch.setattr(lease, "CLAIM_WAIT", 0.3)
    table = poker_table()
    expired = timezone.now() - timedelta(seconds=30)
    TableLease.objects.create(table_id=table.pk, process="dead-host", channel="", expires_at=expired)
    epoch = TableRuntime.objects.get(pk=table.pk).epoch
    held, release = threading.Event(), threading.Event()

    def dead_owners_session():
        try:
            with transaction.atomic():
                TableRuntime.objects.select_for_update().get(pk=table.pk)
                held.set()
                release.wait(10)
        finally:
            connection.close()

    session = threading.Thread(target=dead_owners_session)
    session.start()
    try:
        assert held.wait(10)
        with pytest.raises(TableElsewhere):
            lease.lease_claim(table.pk, process="live-host")
        row = TableLease.objects.get(table_id=table.pk)
        assert (row.process, row.expires_at) == ("dead-host", expired)  # the lease update rolled back
    finally:
        release.set()
        session.join(10)
    assert TableRuntime.objects.get(pk=table.pk).epoch == epoch
    lease.lease_claim(table.pk, process="live-host")  # the rows free: the claim goes through
    assert TableLease.objects.get(table_id=table.pk).process == "live-host"
    assert TableRuntime.objects.get(pk=table.pk).epoch == epoch + 1
