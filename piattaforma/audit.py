"""The tamper-evident audit log: appending, sealing rows into the hash chain, verifying it.

Each sealed ``AuditLog`` row has a place in the chain (``seq`` = 1, 2, 3… with no gap), the hash of
the row before it (``prev_hash``, 64 zeros for the first) and its own hash: SHA-256 of a canonical
JSON of its content and ``prev_hash``. The ``AuditChain`` head row holds the last ``seq`` and hash.

Writing happens in two steps so that the chain never makes two business transactions wait for
each other. ``audit_append`` inserts the row in the action's own transaction, with no chain fields
and no lock beyond the insert: the line exists exactly when the action committed. Right after that
commit (``on_commit``) ``audit_seal`` chains every unsealed row in one short transaction of its
own, holding the head row's lock (``SELECT … FOR UPDATE`` on PostgreSQL; SQLite transactions open
IMMEDIATE, so the database write lock): concurrent sealers take turns, each extends the chain from
the head the previous one committed, so two rows never link to the same predecessor; a sealer
that finds the head locked gives way (``SKIP LOCKED``) to the one at work, and a row committed
while that one was already sealing waits for the next seal (the next audited commit, or the beat
task within the minute). Holding the
head lock across the actions themselves (the simpler design) would deadlock an action that writes
its audit line and then locks a ledger account against one that does the reverse. A row is
unsealed for the milliseconds between the commit and the seal; the beat task
``piattaforma.audit_seal`` (every minute) seals rows whose process died in between.

``audit_verify`` reads the sealed rows in ``seq`` order and names the first one that breaks the
chain: a row whose content changed (its hash differs), a row missing before it (a gap in ``seq``),
a row out of place (its ``prev_hash`` is not the previous row's hash), or rows missing at the end
(the head names a later row). Someone able to rewrite the whole table and the head could recompute
every hash: the nightly verification logs the head's hash (``audit.chain_head``), which the log
shipping keeps outside the database, so a rewritten chain no longer matches the heads logged before.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, transaction
from django.utils import timezone

from piattaforma.models import AuditChain, AuditLog, User

logger = logging.getLogger("piattaforma.audit")

GENESIS = "0" * 64
HEAD_PK = 1


def canonical_data(data: dict[str, Any] | None) -> dict[str, Any]:
    """Return ``data`` as it reads back from the database (JSON types only), so its hash is stable."""
    normalised: dict[str, Any] = json.loads(json.dumps(data or {}, cls=DjangoJSONEncoder))
    return normalised


def row_digest(
    *,
    seq: int,
    created_at: datetime,
    actor_id: int | None,
    action: str,
    target_type: str,
    target_id: str,
    reason: str,
    data: dict[str, Any],
    prev_hash: str,
) -> str:
    """Return the SHA-256 (hex) of one row's content and the previous row's hash."""
    payload = {
        "seq": seq,
        "created_at": created_at.astimezone(UTC).isoformat(timespec="microseconds"),
        "actor_id": actor_id,
        "action": action,
        "target_type": target_type,
        "target_id": target_id,
        "reason": reason,
        "data": data,
        "prev_hash": prev_hash,
    }
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def _locked_head(*, wait: bool = True) -> AuditChain | None:
    """Return the chain's head row, locked until the transaction ends (created on first use).

    With ``wait=False``, return None at once when another sealer holds the lock: that sealer
    seals every row committed before it looks, and the beat task any row committed after.
    """
    head = AuditChain.objects.select_for_update(skip_locked=not wait).filter(pk=HEAD_PK).first()
    if head is not None:
        return head
    if AuditChain.objects.filter(pk=HEAD_PK).exists():
        return None  # locked by another sealer (only when not waiting)
    # No head yet (a new database, or a test database flushed): start it after the last sealed row.
    last = AuditLog.objects.filter(seq__isnull=False).order_by("-seq").values_list("seq", "row_hash").first()
    try:
        with transaction.atomic():
            AuditChain.objects.create(
                pk=HEAD_PK, last_seq=(last[0] or 0) if last else 0, last_hash=last[1] if last else GENESIS
            )
    except IntegrityError:
        pass  # another sealer created it first
    return AuditChain.objects.select_for_update().get(pk=HEAD_PK)


def audit_append(
    *,
    actor: User | None,
    action: str,
    target_type: str = "",
    target_id: str = "",
    reason: str = "",
    data: dict[str, Any] | None = None,
) -> AuditLog:
    """Insert one audit row in the caller's transaction; it joins the chain right after the commit."""
    row = AuditLog.objects.create(
        created_at=timezone.now(),
        actor=actor,
        action=action,
        target_type=target_type,
        target_id=target_id,
        reason=reason,
        data=canonical_data(data),
    )
    transaction.on_commit(_seal_after_commit)
    return row


def _seal_after_commit() -> None:
    try:
        audit_seal(wait=False)
    except Exception:  # the row is committed; the beat task seals it if this seal failed
        logger.exception("audit.seal_failed")


def audit_seal(*, batch: int = 5000, wait: bool = True) -> int:
    """Chain every unsealed row, oldest insert first, under the head's lock; return how many.

    ``wait=False`` (right after an action's commit) gives way when another sealer is at work.
    Rows are updated in batches of 100 (PostgreSQL plans a larger ``CASE`` slowly).
    """
    sealed = 0
    while True:
        with transaction.atomic():
            head = _locked_head(wait=wait)
            if head is None:
                return sealed
            rows = list(AuditLog.objects.filter(seq__isnull=True).order_by("id")[:batch])
            for row in rows:
                row.seq, row.prev_hash = head.last_seq + 1, head.last_hash
                row.row_hash = row_hash_of(row)
                head.last_seq, head.last_hash = row.seq, row.row_hash
            if rows:
                AuditLog.objects.bulk_update(rows, ["seq", "prev_hash", "row_hash"], batch_size=100)
                head.save(update_fields=["last_seq", "last_hash"])
        sealed += len(rows)
        if len(rows) < batch:
            return sealed


def row_hash_of(row: Any) -> str:
    """Return the hash a row (an ``AuditLog``, or the migrations' historical model) should carry."""
    return row_digest(
        seq=row.seq,
        created_at=row.created_at,
        actor_id=row.actor_id,
        action=row.action,
        target_type=row.target_type,
        target_id=row.target_id,
        reason=row.reason,
        data=row.data,
        prev_hash=row.prev_hash,
    )


@dataclass(frozen=True)
class ChainReport:
    """The result of a verification: ``ok``, or the first broken row and why (a stable code)."""

    ok: bool
    rows_checked: int
    head_seq: int
    head_hash: str
    problem: str = ""  # "altered", "missing", "out_of_place", "missing_at_end"
    broken_seq: int | None = None
    broken_id: int | None = None
    message: str = ""
    unsealed: int = 0  # rows committed and not chained yet (sealed within the minute)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)


_FIELDS = ("id", "seq", "created_at", "actor_id", "action", "target_type", "target_id", "reason", "data")


def audit_verify(*, chunk_size: int = 2000) -> ChainReport:
    """Check the whole chain in ``seq`` order; name the first row that breaks it."""
    head = AuditChain.objects.values_list("last_seq", "last_hash").filter(pk=HEAD_PK).first()
    head_seq, head_hash = head if head else (0, GENESIS)
    expected_seq, expected_prev, checked = 1, GENESIS, 0

    def broken(problem: str, row: dict[str, Any] | None, message: str) -> ChainReport:
        return ChainReport(
            ok=False,
            rows_checked=checked,
            head_seq=head_seq,
            head_hash=head_hash,
            problem=problem,
            broken_seq=row["seq"] if row else None,
            broken_id=row["id"] if row else None,
            message=message,
        )

    rows = (
        AuditLog.objects.filter(seq__isnull=False).order_by("seq").values(*_FIELDS, "prev_hash", "row_hash")
    )
    for row in rows.iterator(chunk_size=chunk_size):
        if row["seq"] != expected_seq:
            return broken(
                "missing",
                row,
                f"riga {row['seq']} (id {row['id']}): mancano le righe da {expected_seq} a {row['seq'] - 1}",
            )
        content = {k: row[k] for k in _FIELDS if k != "id"}
        if row_digest(**content, prev_hash=row["prev_hash"]) != row["row_hash"]:
            message = f"riga {row['seq']} (id {row['id']}): il contenuto è stato modificato"
            return broken("altered", row, message)
        if row["prev_hash"] != expected_prev:
            return broken(
                "out_of_place",
                row,
                f"riga {row['seq']} (id {row['id']}): non segue la riga {expected_seq - 1} "
                "(righe spostate o sostituite)",
            )
        expected_seq, expected_prev = expected_seq + 1, row["row_hash"]
        checked += 1
    if (expected_seq - 1, expected_prev) != (head_seq, head_hash):
        return broken(
            "missing_at_end",
            None,
            f"la catena finisce alla riga {expected_seq - 1} ma la testa indica la riga {head_seq}",
        )
    unsealed = AuditLog.objects.filter(seq__isnull=True).count()
    return ChainReport(
        ok=True, rows_checked=checked, head_seq=head_seq, head_hash=head_hash, unsealed=unsealed
    )


def audit_chain_check() -> ChainReport:
    """Seal, then verify the chain (beat, nightly); log the head; on a break, record it and alert staff."""
    from piattaforma.alerts import alert_staff

    audit_seal()
    report = audit_verify()
    if report.ok:
        logger.info(
            "audit.chain_head seq=%s hash=%s rows=%s", report.head_seq, report.head_hash, report.rows_checked
        )
        return report
    logger.error("audit.chain_broken %s", report.message)
    with transaction.atomic():
        audit_append(actor=None, action="audit.chain_broken", reason=report.message, data=report.as_dict())
        transaction.on_commit(
            lambda: alert_staff(
                subject=f"[Audit] Catena del registro di audit interrotta alla riga {report.broken_seq}",
                body=f"{report.message}\n\n{json.dumps(report.as_dict(), indent=2)}",
            )
        )
    return report
