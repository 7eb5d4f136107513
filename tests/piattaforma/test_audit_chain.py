"""The audit log's hash chain: appends link, a changed, removed or moved row is found and named.

Tampering is done the way an intruder with database access would: raw ``UPDATE``/``DELETE`` through
the ORM's ``update()``/``delete()``, which skip every application path.
"""

from __future__ import annotations

import importlib
import itertools
from datetime import timedelta
from io import StringIO

import pytest
from django.core import mail
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.utils import timezone

from piattaforma import roles
from piattaforma.actions import audit_record
from piattaforma.audit import GENESIS, audit_chain_check, audit_seal, audit_verify, row_digest
from piattaforma.models import AuditChain, AuditLog
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db


@pytest.fixture
def chain():
    staff = UserFactory(role=roles.STAFF)
    rows = [
        audit_record(
            actor=staff, action=f"prova.{i}", target=staff, reason=f"motivo {i}", data={"i": i, "€": "è"}
        )
        for i in range(5)
    ]
    audit_seal()
    for row in rows:
        row.refresh_from_db()
    return rows


def _last_seq() -> int:
    return AuditLog.objects.filter(seq__isnull=False).count()


def test_a_row_joins_the_chain_right_after_its_transaction_commits(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks, transaction.atomic():
        row = audit_record(actor=None, action="prova.dopo_il_commit")
    row.refresh_from_db()
    assert row.seq is None and row.row_hash == ""  # committed, not chained yet
    for callback in callbacks:
        callback()
    row.refresh_from_db()
    assert row.seq is not None and row.row_hash
    assert audit_verify().ok


def test_unsealed_rows_are_counted_and_sealed_by_the_beat_task(chain):
    from piattaforma import tasks

    audit_record(actor=None, action="prova.persa")  # its process died before the seal
    report = audit_verify()
    assert report.ok and report.unsealed == 1
    assert tasks.audit_seal() == 1
    report = audit_verify()
    assert report.ok and report.unsealed == 0 and report.head_seq == chain[-1].seq + 1


def test_appends_link_each_row_to_the_one_before(chain):
    rows = list(AuditLog.objects.filter(action__startswith="prova.").order_by("seq"))
    first = rows[0].seq
    assert [r.seq for r in rows] == list(range(first, first + 5))
    for before, row in itertools.pairwise(rows):
        assert row.prev_hash == before.row_hash
    head = AuditChain.objects.get()
    assert (head.last_seq, head.last_hash) == (rows[-1].seq, rows[-1].row_hash)
    report = audit_verify()
    assert report.ok and report.rows_checked == _last_seq()


def test_a_rolled_back_append_leaves_no_gap(chain):
    with pytest.raises(RuntimeError), transaction.atomic():
        audit_record(actor=None, action="prova.annullata")
        raise RuntimeError
    audit_record(actor=None, action="prova.dopo")
    audit_seal()
    assert not AuditLog.objects.filter(action="prova.annullata").exists()
    assert AuditLog.objects.get(action="prova.dopo").seq == chain[-1].seq + 1
    assert audit_verify().ok


def test_data_reads_back_as_hashed():
    row = audit_record(actor=None, action="prova.dati", data={"quando": timezone.now(), 3: (1, 2)})
    audit_seal()
    row.refresh_from_db()
    assert row.data["3"] == [1, 2]
    assert audit_verify().ok


@pytest.mark.parametrize(
    "change",
    [
        {"reason": "motivo riscritto"},
        {"data": {"i": 99}},
        {"action": "prova.altro"},
        {"actor": None},
        {"target_id": "0"},
    ],
)
def test_a_changed_row_is_named(chain, change):
    victim = chain[2]
    AuditLog.objects.filter(pk=victim.pk).update(**change)
    report = audit_verify()
    assert not report.ok
    assert (report.problem, report.broken_seq, report.broken_id) == ("altered", victim.seq, victim.pk)


def test_a_changed_time_is_named(chain):
    AuditLog.objects.filter(pk=chain[1].pk).update(created_at=chain[1].created_at - timedelta(seconds=1))
    report = audit_verify()
    assert (report.ok, report.problem, report.broken_seq) == (False, "altered", chain[1].seq)


def test_a_row_whose_hash_was_recomputed_breaks_the_next_link(chain):
    """Rewriting a row and its own hash is not enough: the next row still points at the old hash."""
    victim = chain[2]
    victim.reason = "motivo riscritto"
    new_hash = row_digest(
        seq=victim.seq,
        created_at=victim.created_at,
        actor_id=victim.actor_id,
        action=victim.action,
        target_type=victim.target_type,
        target_id=victim.target_id,
        reason=victim.reason,
        data=victim.data,
        prev_hash=victim.prev_hash,
    )
    AuditLog.objects.filter(pk=victim.pk).update(reason=victim.reason, row_hash=new_hash)
    report = audit_verify()
    assert (report.ok, report.problem, report.broken_seq) == (False, "out_of_place", chain[3].seq)


def test_a_deleted_row_is_named(chain):
    AuditLog.objects.filter(pk=chain[1].pk).delete()
    report = audit_verify()
    assert (report.ok, report.problem, report.broken_seq) == (False, "missing", chain[2].seq)
    assert f"mancano le righe da {chain[1].seq} a {chain[1].seq}" in report.message


def test_deleted_rows_at_the_end_are_found(chain):
    AuditLog.objects.filter(pk__in=[chain[3].pk, chain[4].pk]).delete()
    report = audit_verify()
    assert (report.ok, report.problem) == (False, "missing_at_end")
    assert f"finisce alla riga {chain[2].seq}" in report.message


def test_deleted_first_row_is_named(chain):
    first = AuditLog.objects.get(seq=1)
    AuditLog.objects.filter(pk=first.pk).delete()
    report = audit_verify()
    assert (report.ok, report.problem, report.broken_seq) == (False, "missing", first.seq + 1)


def test_reordered_rows_are_named(chain):
    """Two rows swap places (their numbers exchanged): the first of them no longer hashes."""
    a, b = chain[1], chain[3]
    AuditLog.objects.filter(pk=a.pk).update(seq=10_000_000)
    AuditLog.objects.filter(pk=b.pk).update(seq=a.seq)
    AuditLog.objects.filter(pk=a.pk).update(seq=b.seq)
    report = audit_verify()
    assert (report.ok, report.broken_seq, report.broken_id) == (False, a.seq, b.pk)


def test_rows_swapped_with_their_numbers_and_hashes_are_named(chain):
    """Two rows' whole contents swapped (hashes included): the links no longer follow."""
    a, b = chain[1], chain[2]
    fields = ("created_at", "action", "reason", "data", "prev_hash", "row_hash")
    values_a = {f: getattr(a, f) for f in fields}
    values_b = {f: getattr(b, f) for f in fields}
    AuditLog.objects.filter(pk=a.pk).update(**values_b)
    AuditLog.objects.filter(pk=b.pk).update(**values_a)
    report = audit_verify()
    assert (report.ok, report.broken_seq) == (False, a.seq)


def test_an_empty_chain_is_whole():
    AuditLog.objects.all().delete()
    AuditChain.objects.all().delete()
    report = audit_verify()
    assert report.ok and report.rows_checked == 0 and report.head_hash == GENESIS
    row = audit_record(actor=None, action="prova.prima")
    audit_seal()
    row.refresh_from_db()
    assert (row.seq, row.prev_hash) == (1, GENESIS)
    assert audit_verify().ok


def test_the_command_says_whole_or_names_the_first_broken_row(chain):
    out = StringIO()
    call_command("audit_verify", stdout=out)
    assert "Catena di audit integra" in out.getvalue()
    AuditLog.objects.filter(pk=chain[3].pk).update(reason="x")
    AuditLog.objects.filter(pk=chain[4].pk).update(reason="y")
    with pytest.raises(CommandError, match=f"riga {chain[3].seq} \\(id {chain[3].pk}\\)"):
        call_command("audit_verify", stdout=StringIO())


def test_the_nightly_check_alerts_staff_only_when_broken(chain, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        assert audit_chain_check().ok
    assert mail.outbox == []
    assert not AuditLog.objects.filter(action="audit.chain_broken").exists()
    AuditLog.objects.filter(pk=chain[2].pk).update(reason="riscritto")
    with django_capture_on_commit_callbacks(execute=True):
        report = audit_chain_check()
    assert not report.ok
    line = AuditLog.objects.get(action="audit.chain_broken")
    assert line.data["broken_seq"] == chain[2].seq
    staff_mail = [m for m in mail.outbox if chain[0].actor.email in m.to]
    assert len(staff_mail) == 1 and str(chain[2].seq) in staff_mail[0].subject


def test_the_nightly_check_is_scheduled():
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["piattaforma-audit-verify"]
    assert entry["task"] == "piattaforma.audit_verify"
    from piattaforma import tasks

    assert tasks.audit_verify.name == "piattaforma.audit_verify"


def test_the_migration_chains_rows_written_before_the_chain(chain):
    """The data migration re-chains rows by time: run it on rows with their chain fields emptied."""
    from django.apps import apps

    migration = importlib.import_module("piattaforma.migrations.0006_audit_chain_existing_rows")
    older = AuditLog.objects.get(seq=1)
    AuditLog.objects.update(seq=None, prev_hash="", row_hash="")  # as before the chain
    AuditChain.objects.all().delete()
    migration.chain_existing_rows(apps, None)
    assert audit_verify().ok
    ordered = list(AuditLog.objects.order_by("seq").values_list("pk", flat=True))
    assert ordered == list(AuditLog.objects.order_by("created_at", "id").values_list("pk", flat=True))
    assert ordered[0] == older.pk


def test_the_back_office_has_no_way_to_delete_audit_rows(client, chain):
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get("/backoffice/piattaforma/auditlog/")
    assert page.status_code == 200
    assert b"delete_selected" not in page.content
    response = client.post(
        "/backoffice/piattaforma/auditlog/",
        {"action": "delete_selected", "_selected_action": [chain[0].pk], "post": "yes"},
    )
    assert AuditLog.objects.filter(pk=chain[0].pk).exists()
    assert response.status_code in (200, 302, 403)
    assert audit_verify().ok
