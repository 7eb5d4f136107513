"""Who owns a table: the lease row, this process's owners, and the door to them.

- The lease (``TableLease``): a process owns a table while its row names it and has not expired;
  the owner's process renews it every third of a lease (``lobby.presence.renew``). A process that
  dies stops renewing; after ``LOBBY_LEASE_SECONDS`` another one may claim the table and take it
  over from the runtime row (snapshot) and the journal (``TableOwner.start``).
- ``owner_for``: this process's owner of a table, started on first use (a connection opening).
- ``through_owner``: a table write called from sync code (an HTTP view, the back office, a hook)
  while this process owns the table runs under the owner (the owner is parked meanwhile, then
  sends the new version), so nothing writes the row behind an owner's back. Without a local owner
  the write runs directly (a table whose owner is gone: its clocks are Celery tasks meanwhile).

Fencing (the runtime row's ``epoch``). A park is a lease on the table's writes with a timeout
(``owner.PARK_SECONDS``): a caller whose transaction has not committed by then (a saturated thread
pool) must not write once the owner went on, or the row and the journal would each hold a different
version N (the decision lost on the next takeover, the caller's change missing from every view).
So every park hands its caller the row's epoch (the owner's, as it last read the row), and

1. the caller's writes are fenced: its snapshot of the owner's state is ``UPDATE ... WHERE epoch =
   E``, and each table write locks the runtime row first (``tablerow.lock``; every write of a table
   does) and is refused with ``TableElsewhere`` unless the row still has ``E`` (``check_fence``):
   refused there, its transaction writes nothing;
2. an owner that goes on after a park ran out first raises the epoch (``fence``: an ``UPDATE`` of
   the row, in its own commit), then reads the row back, and only then takes its next job;
3. a new owner raises it when it claims the lease (``lease_claim``), before it reads the row: a
   caller of the previous owner (one that died, or lost its lease) is fenced the same way.

Why that is enough: the raise and the caller's lock take the same row lock (PostgreSQL's row lock;
SQLite's database lock, the embedded default's transactions being ``IMMEDIATE``), so one of them
comes first. If the caller's comes first, the raise waits for its commit (tried again and again,
each try waiting a moment: ``fence``) and the owner then reads the row with the caller's write in
it; if the raise comes first, the caller reads ``E + 1`` under its lock and writes nothing. Either
way the owner's decisions after the park and the caller's write are ordered, never interleaved. A
park released in time raises nothing: its caller has committed or rolled back before its release is
sent. The owner's own writes (its snapshot, its row actions) are fenced by the epoch it last read:
an owner that lost its lease to another process and has not noticed yet (its next renewal abandons
it) writes nothing over its successor's row. Its journal steps are refused by the journal's unique
``(hand, seq)`` instead.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, OperationalError, connection, models, transaction
from django.db.models import Q
from django.utils import timezone

from lobby import presence
from lobby.errors import TableElsewhere
from lobby.models import Hand, TableLease, TableRuntime

if TYPE_CHECKING:
    from lobby.runtime.owner import TableOwner

F = TypeVar("F", bound=Callable[..., Any])
logger = logging.getLogger(__name__)

# How long one try of ``fence`` waits for a caller holding the table's row, and the pause between tries.
FENCE_WAIT = 0.2
FENCE_PAUSE = 0.2

_owners: dict[int, TableOwner] = {}
_local = threading.local()  # .tables: (table, fence) whose owner this thread runs code for now


# --- the lease ------------------------------------------------------------------------------------


def lease_seconds() -> float:
    return float(getattr(settings, "LOBBY_LEASE_SECONDS", 15))


def lease_claim(table_id: int, *, process: str | None = None, channel: str = "") -> None:
    """Take the table's lease for this process (free, expired or already ours), else refuse."""
    process = process or presence.PROCESS
    now = timezone.now()
    until = now + timedelta(seconds=lease_seconds())
    with transaction.atomic():
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


def lease_renew(table_ids: list[int], *, process: str | None = None) -> set[int]:
    """Renew this process's leases of these tables (``presence.renew``); return the ones it still holds.

    A lease that expired is renewed while no other process has claimed it.
    """
    until = timezone.now() + timedelta(seconds=lease_seconds())
    ours = TableLease.objects.filter(process=process or presence.PROCESS, table_id__in=table_ids)
    ours.update(expires_at=until)
    return set(ours.values_list("table_id", flat=True))


def lease_release(table_id: int, *, process: str | None = None) -> None:
    TableLease.objects.filter(process=process or presence.PROCESS, table_id=table_id).delete()


def lease_holder(table_id: int) -> TableLease | None:
    """The live lease of a table (None: no process owns it now)."""
    return TableLease.objects.filter(table_id=table_id, expires_at__gte=timezone.now()).first()


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

    The beat sweeper's part of a takeover (``lobby.actions.tables_sweep``): afterwards the row
    sweeps time the table out while it has no owner, and the next connection's process (or the
    next heartbeat's ``adopt_orphans``) takes the table over. Returns how many tables it freed.
    """
    from lobby.models import TableRuntime
    from lobby.runtime.journal import recover

    freed = 0
    for table_id in orphaned_tables():
        with transaction.atomic():
            lease = TableLease.objects.select_for_update().filter(table_id=table_id).first()
            if lease is None or lease.expires_at >= timezone.now():
                continue  # renewed, or taken over, meanwhile
            rt = TableRuntime.objects.select_for_update().select_related("table").get(pk=table_id)
            if recover(rt):
                rt.save()
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


# --- this process's owners -----------------------------------------------------------------------


async def adopt_orphans(limit: int = 50) -> list[int]:
    """Take over tables whose owner died (their lease expired): this process becomes their owner.

    Each is started as on a first connection: snapshot + journal, clocks resumed with the time
    that was left (``TableOwner``). Another process adopting one first wins its lease.
    """
    from lobby.runtime import blocking

    adopted = []
    orphans = (await blocking(orphaned_tables)())[:limit]
    if orphans:  # a process died, or one alive failed to renew in time (its sockets will see 4409)
        logger.warning(
            "%s takes over %d tables whose lease expired: %s", presence.PROCESS, len(orphans), orphans
        )
    for table_id in orphans:
        try:
            await owner_for(table_id)
        except TableElsewhere:
            continue
        except Exception:
            logger.exception("table %s: adoption failed", table_id)
            continue
        adopted.append(table_id)
    return adopted


async def owner_for(table_id: int) -> TableOwner:
    """This process's owner of the table, started (lease, snapshot + journal) on first use."""
    from lobby.runtime.owner import TableOwner

    loop = asyncio.get_running_loop()
    owner = _owners.get(table_id)
    if owner is not None and (owner.loop is not loop or owner.stopped):
        _owners.pop(table_id, None)  # an owner of a loop that ended (tests) or one stopped
        owner = None
    if owner is None:
        owner = _owners[table_id] = TableOwner(table_id)
        owner.begin()
    try:
        await asyncio.shield(owner.ready)
    except BaseException:
        if _owners.get(table_id) is owner:
            _owners.pop(table_id, None)
        raise
    return owner


def local_owner(table_id: int) -> TableOwner | None:
    """This process's running owner of the table, if any."""
    owner = _owners.get(table_id)
    if owner is None or owner.stopped or not owner.loop.is_running() or not owner.ready.done():
        return None  # (a loop no longer running, the tests': nothing would ever take its jobs)
    return owner


def local_owners() -> list[TableOwner]:
    return [o for o in list(_owners.values()) if not o.stopped and not o.loop.is_closed()]


def forget(owner: TableOwner) -> None:
    if _owners.get(owner.table_id) is owner:
        del _owners[owner.table_id]


async def stop_all() -> None:
    """Stop every owner of the running loop (the tests' teardown, a process shutting down)."""
    loop = asyncio.get_running_loop()
    for owner in [o for o in list(_owners.values()) if o.loop is loop]:
        await owner.stop()
    for table_id in [t for t, o in _owners.items() if o.loop.is_closed()]:
        _owners.pop(table_id, None)


# --- running code under an owner -----------------------------------------------------------------


class inside:
    """Mark this thread as running the table's owner code (nested table writes run directly).

    ``fence``: a parked caller's epoch; the table's rows it locks must still have it (``check_fence``).
    ``dealt``, ``hand``: the runtime row and the hand as a deal under it saved them (``dealt``),
    for the owner to keep.
    """

    def __init__(self, table_id: int, fence: int | None = None) -> None:
        self.table_id = table_id
        self.fence = fence
        self.dealt: TableRuntime | None = None
        self.hand: Hand | None = None

    def __enter__(self) -> inside:
        places = getattr(_local, "tables", None)
        if places is None:
            places = _local.tables = []
        places.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _local.tables.pop()


def _places() -> list[inside]:
    return getattr(_local, "tables", None) or []


def is_inside(table_id: int) -> bool:
    return any(place.table_id == table_id for place in _places())


def dealt(rt: TableRuntime, hand: Hand) -> None:
    """A deal under the table's owner saved its runtime row and its hand (``hands._deal``, its
    last write): the owner keeps them once it commits instead of reading them back."""
    for place in reversed(_places()):
        if place.table_id == rt.pk:
            place.dealt, place.hand = rt, hand
            return


def check_fence(rt: TableRuntime) -> None:
    """Refuse a parked caller's write once its park ran out (the row's epoch raised since), and
    an owner's own once another owner claimed its table (a lease lost, not noticed yet).

    Called with the runtime row locked (``tablerow.lock``), before anything is written.
    """
    for place in reversed(_places()):
        if place.table_id == rt.pk:
            fence = place.fence
            if fence is None:  # the owner's own code: the epoch it last read (its claim's, or a fence's)
                owner = _owners.get(rt.pk)
                fence = owner.rt.epoch if owner is not None and owner.rt is not None else None
            if fence is not None and rt.epoch != fence:
                raise TableElsewhere()
            return


def fence(table_id: int) -> bool:
    """Raise the table's epoch (an owner going on after a park ran out), in its own commit.

    Once raised, a caller parked under the old epoch writes nothing. A caller still holding the
    row (its transaction not ended) keeps it from being raised: the try gives up after
    ``FENCE_WAIT`` (PostgreSQL's ``lock_timeout``; SQLite after its busy timeout, the embedded
    default's one database thread waiting meanwhile) and returns False, for the owner to try again
    after a pause. So a caller that does not end its
    transaction holds its own table, never one of the threads every table's owner shares (a few
    such callers used to take them all). In production PostgreSQL ends a transaction left idle
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


def through_owner(func: F) -> F:
    """Run a table write (``table_id=`` keyword) under the table's owner when this process has one."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        table_id = kwargs.get("table_id")
        if table_id is None or is_inside(int(table_id)):
            return func(*args, **kwargs)
        owner = local_owner(int(table_id))
        if owner is not None:
            return owner.call_from_thread(func, kwargs)
        lease = lease_holder(int(table_id))
        if lease is None or lease.process == presence.PROCESS or not lease.channel:
            return func(*args, **kwargs)
        return _through_remote_owner(lease.channel, int(table_id), func, kwargs)

    return wrapper  # type: ignore[return-value]  # functools.wraps keeps the signature; mypy cannot see it


def _through_remote_owner(
    channel: str, table_id: int, func: Callable[..., Any], kwargs: dict[str, Any]
) -> Any:
    """Run a table write while the table's owner in another process is parked (its state in the row).

    The owner reads the row back once this write commits (an outer transaction's commit, if any).
    """
    from lobby.runtime import remote

    release, epoch = remote.park_elsewhere(channel, table_id)
    return run_parked(table_id, func, kwargs, release=release, fence=epoch)


def run_parked(
    table_id: int,
    func: Callable[..., Any],
    kwargs: dict[str, Any],
    *,
    release: Callable[[], None],
    fence: int | None,
    first: Callable[[], None] | None = None,
) -> Any:
    """Run a table write on this thread while the table's owner is parked; release it after commit.

    ``fence``: the epoch of the park; a write after it ran out is refused (``check_fence``). None:
    an owner elsewhere on code older than the epoch (``remote.park_elsewhere``), not fenced.
    ``first``: what runs before the write (the owner's state written to the row). The release
    waits for an outer transaction's commit: the owner never reads back a row not committed.
    """
    try:
        with inside(table_id, fence):
            if first is not None:
                first()
            return func(**kwargs)
    finally:
        if transaction.get_connection().in_atomic_block:
            transaction.on_commit(release)
        else:
            release()


def owned(table_id: int) -> bool:
    """Tell whether a live owner (this process's, or another's by its lease) keeps the table.

    A table nobody owns (no connection opened it, or its owner stopped) runs its row actions
    directly: they broadcast through the channel layer and its clocks are Celery tasks.
    """
    if is_inside(table_id) or local_owner(table_id) is not None:
        return True
    return lease_holder(table_id) is not None


def committed(table_id: int, version: int, events: list[dict[str, Any]]) -> bool:
    """A row action committed a new version (``lobby.actions.tablerow.committed``, owner runtime).

    Under the owner: its events go with the view the owner sends next. A write outside any owner
    of this process (a Celery task, a script) tells a local owner to reload the row. Returns
    False when no owner keeps the table: the caller broadcasts through the channel layer.
    """
    owner = _owners.get(table_id)
    if owner is None or owner.stopped or owner.loop.is_closed():
        return owned(table_id)
    if is_inside(table_id):
        owner.captured = events
        return True
    owner.loop.call_soon_threadsafe(owner.reload_soon)
    return True
