"""The tamper-evident audit log: appending to the hash chain, and verifying it.

Each ``AuditLog`` row has a place in the chain (``seq`` = 1, 2, 3… with no gap), the hash of the
row before it (``prev_hash``, 64 zeros for the first) and its own hash: SHA-256 of a canonical JSON
of its content and ``prev_hash``. The ``AuditChain`` head row holds the last ``seq`` and hash.

Appends are serialised by the head row: ``audit_append`` starts with ``UPDATE … SET last_seq =
last_seq + 1``, which on PostgreSQL takes the head's row lock and on SQLite the database write lock
(the embedded settings open every transaction IMMEDIATE anyway); both are held until the writer's
transaction ends, so two writers never link to the same row, the chain order is the commit order,
and a rolled-back append takes its number back with it.

``audit_verify`` reads the rows in ``seq`` order and names the first one that breaks the chain: a
row whose content changed (its hash differs), a row missing before it (a gap in ``seq``), a row out
of place (its ``prev_hash`` is not the previous row's hash), or rows missing at the end (the head
names a later row). Someone able to rewrite the whole table and the head could recompute every
hash: the nightly verification logs the head's hash (``audit.chain_head``), which the log shipping
keeps outside the database, so a rewritten chain no longer matches the heads logged before it.
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
from django.db.models import F
from django.utils import timezone

from piattaforma.models import AuditChain, AuditLog, User

logger = logging.getLogger("piattaforma.audit")

GENESIS = "0" * 64
HEAD_PK = 1


def canonical_data(data: dict[str, Any] | None) -> dict[str, Any]:
    """Return ``data`` as it reads back from the database (JSON types only), so its hash is stable."""
    return json.loads(json.dumps(data or {}, cls=DjangoJSONEncoder))  # type: ignore[no-any-return]


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


def _take_head() -> tuple[int, str]:
    """Bump the head's ``last_seq`` (taking its lock) and return the new number and the last hash."""
    if AuditChain.objects.filter(pk=HEAD_PK).update(last_seq=F("last_seq") + 1) == 0:
        # No head yet (a new database, or a test database flushed): start it after the last row.
        last = AuditLog.objects.order_by("-seq").values_list("seq", "row_hash").first()
        try:
            with transaction.atomic():
                AuditChain.objects.create(
                    pk=HEAD_PK, last_seq=last[0] if last else 0, last_hash=last[1] if last else GENESIS
                )
        except IntegrityError:
            pass  # another writer created it first: its lock now decides the order
        AuditChain.objects.filter(pk=HEAD_PK).update(last_seq=F("last_seq") + 1)
    seq, last_hash = AuditChain.objects.values_list("last_seq", "last_hash").get(pk=HEAD_PK)
    return seq, last_hash


def audit_append(
    *,
    actor: User | None,
    action: str,
    target_type: str = "",
    target_id: str = "",
    reason: str = "",
    data: dict[str, Any] | None = None,
    created_at: datetime | None = None,
) -> AuditLog:
    """Append one row to the audit chain; holds the head's lock until the caller's transaction ends."""
    with transaction.atomic():
        seq, prev_hash = _take_head()
        row = AuditLog(
            seq=seq,
            created_at=created_at or timezone.now(),
            actor=actor,
            action=action,
            target_type=target_type,
            target_id=target_id,
            reason=reason,
            data=canonical_data(data),
            prev_hash=prev_hash,
        )
        row.row_hash = row_hash_of(row)
        row.save(force_insert=True)
        AuditChain.objects.filter(pk=HEAD_PK).update(last_hash=row.row_hash)
    return row


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

    rows = AuditLog.objects.order_by("seq").values(*_FIELDS, "prev_hash", "row_hash")
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
    return ChainReport(ok=True, rows_checked=checked, head_seq=head_seq, head_hash=head_hash)


def audit_chain_check() -> ChainReport:
    """Verify the chain (beat, nightly); log the head; on a break, record it and alert staff."""
    from piattaforma.alerts import alert_staff

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
