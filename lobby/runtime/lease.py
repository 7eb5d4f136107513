"""The lease row of each live table: which process owns it, until when, and the epoch that fences.

A process owns a table while its ``TableLease`` row names it and has not expired; the owner's
process renews it every third of a lease (``lobby.presence.renew``). A process that dies stops
renewing; after ``LOBBY_LEASE_SECONDS`` the beat sweeper brings the table's row up to date from the
journal (``sweep_orphans``) and a live process takes the table over (``lobby.presence.adopt_orphans``).
Claiming a lease and an owner going on after a park ran out both raise the runtime row's ``epoch``
(``fence``; why: ``lobby.runtime.ownership``, "Fencing").
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone

from lobby.actions import tablerow
from lobby.errors import TableElsewhere
from lobby.models import TableLease, TableRuntime
from lobby.owners import PROCESS, local_owner

logger = logging.getLogger(__name__)

# How long one try of ``fence`` waits for a caller holding the table's row, and the pause between tries.
FENCE_WAIT = 0.2
FENCE_PAUSE = 0.2
# How long a lease claim waits for a session still holding the table's rows before it gives up.
CLAIM_WAIT = 2.0


def lease_seconds() -> float:
    return float(getattr(settings, "LOBBY_LEASE_SECONDS", 15))


def lease_claim(table_id: int, *, process: str | None = None, channel: str = "") -> None:
    """Take the table's lease for this process (free, expired or already ours), else refuse.

    A dead owner's transaction may still hold the table's rows (a host cut off mid-write: its
    session lives until PostgreSQL's ``idle_in_transaction_session_timeout``). The claim waits for
    them at most ``CLAIM_WAIT`` (PostgreSQL's ``lock_timeout``), then refuses as if the table were
    elsewhere: an adoption goes on to the next orphan and tries this one again at its next beat.
    """
    process = process or PROCESS
    now = timezone.now()
    until = now + timedelta(seconds=lease_seconds())
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(f"SET LOCAL lock_timeout = {int(CLAIM_WAIT * 1000)}")
            taken = TableLease.objects.filter(
                Q(process=process) | Q(expires_at__lt=now), table_id=table_id
            ).update(process=process, channel=channel, expires_at=until)
            if not taken:
                try:
                    with transaction.atomic():
                        TableLease.objects.create(
                            table_id=table_id, process=process, channel=channel, expires_at=until
                        )
                except IntegrityError:
                    raise TableElsewhere() from None
            # a new owner: the callers parked by the previous one write nothing from here on
            TableRuntime.objects.filter(pk=table_id).update(epoch=models.F("epoch") + 1)
    except OperationalError as exc:
        if "lock timeout" in str(exc):
            logger.warning("table %s: its rows are still held by another session; claim later", table_id)
            raise TableElsewhere() from None
        raise


def lease_renew(table_ids: list[int], *, process: str | None = None) -> set[int]:
    """Renew this process's leases of these tables (``presence.renew``); return the ones it still holds.

    A lease that expired is renewed while no other process has claimed it.
    """
    until = timezone.now() + timedelta(seconds=lease_seconds())
    ours = TableLease.objects.filter(process=process or PROCESS, table_id__in=table_ids)
    ours.update(expires_at=until)
    return set(ours.values_list("table_id", flat=True))


def lease_release(table_id: int, *, process: str | None = None) -> None:
    TableLease.objects.filter(process=process or PROCESS, table_id=table_id).delete()


def orphaned_tables() -> list[int]:
    """Tables whose owner stopped renewing its lease (a dead process): the sweeper's business.

    Never one this process owns (a late heartbeat is not a death).
    """
    expired = TableLease.objects.filter(expires_at__lt=timezone.now()).values_list("table_id", flat=True)
    return [t for t in expired if local_owner(t) is None]


def unowned(table_ids: Any) -> list[int]:
    """These tables but those a live owner holds (the row sweeps leave those to their owners)."""
    ids = list(table_ids)
    if not ids:
        return ids
    live = TableLease.objects.filter(table_id__in=ids, expires_at__gte=timezone.now())
    held = set(live.values_list("table_id", flat=True))
    return [t for t in ids if t not in held and local_owner(t) is None]


def sweep_orphans() -> int:
    """Tables whose owner died: the row brought up to date from the journal, the lease freed.

    The beat sweeper's part of a takeover (``lobby.sweeps.tables_sweep``): afterwards the row
    sweeps time the table out while it has no owner, and the next connection's process (or the
    next heartbeat's ``adopt_orphans``) takes the table over. Returns how many tables it freed.
    """
    freed = 0
    for table_id in orphaned_tables():
        with transaction.atomic():
            lease = TableLease.objects.select_for_update().filter(table_id=table_id).first()
            if lease is None or lease.expires_at >= timezone.now():
                continue  # renewed, or taken over, meanwhile
            # the row brought up to date from the journal (``tablerow.lock``), and a hand the
            # journal ends settled, before the lease is freed
            tablerow.lock(table_id)
            logger.warning(
                "table %s: lease of %s expired at %s, freed", table_id, lease.process, lease.expires_at
            )
            lease.delete()
            freed += 1
    return freed


def live_channels(table_ids: list[int]) -> dict[int, str]:
    """The inbox of each of these tables' live owners (one query: a process's heartbeat)."""
    live = TableLease.objects.filter(table_id__in=table_ids, expires_at__gte=timezone.now())
    return dict(live.values_list("table_id", "channel"))


def fence(table_id: int) -> bool:
    """Raise the table's epoch (an owner going on after a park ran out), in its own commit.

    Once raised, a caller parked under the old epoch writes nothing. A caller still holding the
    row (its transaction not ended) keeps it from being raised: the try gives up after
    ``FENCE_WAIT`` (PostgreSQL's ``lock_timeout``; SQLite after its busy timeout, the embedded
    default's one database thread waiting meanwhile) and returns False, for the owner to try again
    after a pause. So a caller that does not end its
    transaction holds its own table, never one of the threads every table's owner shares (a few
    such callers, waiting there, would take them all). In production PostgreSQL ends a transaction left idle
    past ``idle_in_transaction_session_timeout`` (``settings.production``), and the owner goes on.
    """
    try:
        with transaction.atomic():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(f"SET LOCAL lock_timeout = {int(FENCE_WAIT * 1000)}")
            TableRuntime.objects.filter(pk=table_id).update(epoch=models.F("epoch") + 1)
        return True
    except OperationalError as exc:
        if "locked" in str(exc) or "lock timeout" in str(exc):
            return False
        raise
