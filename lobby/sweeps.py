"""The beat's safety net: every pending table work whose task was lost, done now (``tables_sweep``).

Each part is idempotent (the row lock, version checks); a table with a live owner is its owner's
business and is left out. The sweeps enter each table through ``lobby.door``, as any caller does:
a table whose owner appears meanwhile gets the write under that owner.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.utils import timezone

from lobby import bots, door
from lobby.errors import TableElsewhere
from lobby.models import SeatSocket, TableRuntime, WaitingEntry
from lobby.owners import owned
from lobby.runtime.lease import sweep_orphans, unowned

SWEEP_GRACE_SECONDS = 2  # the beat sweeper takes over pending table work this late

logger = logging.getLogger(__name__)


def tables_sweep(*, now: Any = None) -> int:
    """The beat's safety net: every kind of pending table work whose task was lost, done now.

    Deadlines, next deals, bot moves, waiting-list offers, sit-out stand-ups and the presence of
    server processes that stopped beating; each part is idempotent (row lock, version checks).
    A table whose owner lives is its owner's business: the sweeper only
    brings the row of a table whose owner died up to date from the journal and frees its lease.
    """
    return (
        sweep_orphans()
        + presence_sweep(now=now)
        + tables_sweep_bots(now=now)  # before the deadlines: a bot's timeout would sit it out
        + tables_sweep_deadlines(now=now)
        + tables_sweep_starts(now=now)
        + waiting_offers_sweep()
        + tables_sweep_sitouts()
    )


def presence_sweep(*, now: Any = None) -> int:
    """Drop the sockets of server processes that stopped beating (killed, crashed), as closed.

    Each process refreshes only its own rows (``presence_beat``): one dying, or restarting under a
    new name, leaves the sockets of the others counted. Returns how many rows were dropped.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=door.presence_ttl())
    tables = SeatSocket.objects.filter(seen_at__lt=cutoff).values_list("seat__table_id", flat=True)
    dropped = 0
    for table_id in sorted(set(tables)):
        try:
            dropped += door.table_sockets_drop(table_id=table_id, cutoff=cutoff)
        except TableElsewhere:  # its owner's process died too: a later sweep, once the table is taken over
            logger.warning("table %s: stale sockets left, its owner did not answer", table_id)
    return dropped


def tables_sweep_bots(*, now: Any = None) -> int:
    """Let the bots move whose decision has waited past the bots' delay: their task was lost.

    Without it a lost bot task ends at the deadline, whose timeout sits the bot out for good.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=bots.BOT_DELAY_SECONDS + SWEEP_GRACE_SECONDS)
    due = (
        TableRuntime.objects.filter(
            deadline__isnull=False,
            turn_started__lt=cutoff,
            table__seat_rows__user__is_bot=True,
        )
        .values_list("table_id", "version")
        .distinct()
    )
    return _sweep_each(door.table_bot_move, due)


def tables_sweep_deadlines(*, now: Any = None, grace_seconds: int = SWEEP_GRACE_SECONDS) -> int:
    """Apply every timeout whose deadline passed more than ``grace_seconds`` ago (beat safety net)."""
    now = now or timezone.now()
    due = TableRuntime.objects.filter(deadline__lt=now - timedelta(seconds=grace_seconds)).values_list(
        "table_id", "version"
    )
    return _sweep_each(door.table_timeout, due)


def tables_sweep_starts(*, now: Any = None) -> int:
    """Deal at the tables whose next-hand (or match countdown) start is overdue: its task was lost."""
    cutoff = (now or timezone.now()) - timedelta(seconds=SWEEP_GRACE_SECONDS)
    due = TableRuntime.objects.filter(start_at__lt=cutoff).values_list("table_id")
    return _sweep_each(door.table_start_hand, due)


def waiting_offers_sweep() -> int:
    """Expire waiting-list offers on every table (beat)."""
    expired = WaitingEntry.objects.filter(offer_expires_at__lt=timezone.now())
    tables = unowned(expired.values_list("table_id", flat=True).distinct())
    # checked again before each: an owner that claimed it since does its chores (``_sweep_each``)
    return sum(bool(door.table_chores(table_id=t)) for t in sorted(tables) if not owned(t))


def tables_sweep_sitouts() -> int:
    """Stand up the sitout players who stayed away too long, between hands (beat)."""
    tables = unowned(door.tables_with_sitouts_to_stand_up())
    # checked again before each: an owner that claimed it since does its chores (``_sweep_each``)
    return sum(door.table_chores(table_id=t) for t in sorted(tables) if not owned(t))


def _sweep_each(action: Any, due: Any) -> int:
    """Call ``action(table_id=, version=)`` for each due row: one table failing stops no other's clock.

    The tables live owners keep are left out in one query (a live owner keeps its own clocks); each
    other one is checked again just before its action (``owned``): a sweep over many due
    tables takes a while, and an owner that claimed one meanwhile (its first connection) resumed its
    clocks from the row: parked from here for it, it would wait on the sweep for nothing.
    """
    done = 0
    due = list(due)
    free = set(unowned({row[0] for row in due}))
    for row in due:
        if row[0] not in free or owned(row[0]):
            continue
        kwargs = dict(zip(("table_id", "version"), row, strict=False))
        try:
            done += int(action(**kwargs))
        except Exception:
            logger.exception("sweep: %s%s failed", action.__name__, kwargs)
    return done
