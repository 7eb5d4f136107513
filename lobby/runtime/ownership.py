"""Who owns a table: the lease row, this process's owners, and the door to them.

- The lease (``TableLease``): a process owns a table while its row names it and has not expired;
  the owner's process renews it on its heartbeat (``lobby.presence``). A process that dies stops
  renewing; after ``LOBBY_LEASE_SECONDS`` another one may claim the table and take it over from
  the runtime row (snapshot) and the journal (``TableOwner.start``).
- ``owner_for``: this process's owner of a table, started on first use (a connection opening).
- ``through_owner``: a table write called from sync code (an HTTP view, the back office, a hook)
  while this process owns the table runs under the owner (the owner is parked meanwhile, then
  sends the new version), so nothing writes the row behind an owner's back. Without a local owner
  the write runs directly, as on the rows runtime.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Callable
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from lobby import presence
from lobby.errors import TableElsewhere
from lobby.models import TableLease
from lobby.runtime import enabled

if TYPE_CHECKING:
    from lobby.runtime.owner import TableOwner

F = TypeVar("F", bound=Callable[..., Any])

_owners: dict[int, TableOwner] = {}
_local = threading.local()  # .tables: the tables whose owner runs code on this thread now


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
        if taken:
            return
        try:
            with transaction.atomic():
                TableLease.objects.create(
                    table_id=table_id, process=process, channel=channel, expires_at=until
                )
        except IntegrityError:
            raise TableElsewhere() from None


def lease_renew(table_ids: list[int], *, process: str | None = None) -> int:
    """Renew this process's leases of these tables (its heartbeat); returns how many it still holds."""
    until = timezone.now() + timedelta(seconds=lease_seconds())
    return TableLease.objects.filter(process=process or presence.PROCESS, table_id__in=table_ids).update(
        expires_at=until
    )


def lease_release(table_id: int, *, process: str | None = None) -> None:
    TableLease.objects.filter(process=process or presence.PROCESS, table_id=table_id).delete()


def lease_holder(table_id: int) -> TableLease | None:
    """The live lease of a table (None: no process owns it now)."""
    return TableLease.objects.filter(table_id=table_id, expires_at__gte=timezone.now()).first()


def orphaned_tables() -> list[int]:
    """Tables whose owner stopped renewing its lease (a dead process): the sweeper's business."""
    return list(TableLease.objects.filter(expires_at__lt=timezone.now()).values_list("table_id", flat=True))


def unowned(table_ids: Any) -> list[int]:
    """These tables but those a live owner holds (the row sweeps leave those to their owners)."""
    ids = list(table_ids)
    if not enabled() or not ids:
        return ids
    live = TableLease.objects.filter(table_id__in=ids, expires_at__gte=timezone.now())
    held = set(live.values_list("table_id", flat=True))
    return [t for t in ids if t not in held]


def sweep_orphans() -> int:
    """Tables whose owner died: the row brought up to date from the journal, the lease freed.

    The beat sweeper's part of the owner runtime (``lobby.actions.tables_sweep``): afterwards the
    row sweeps time the table out as on the rows runtime, and the next connection's process takes
    the table over. Returns how many tables it freed.
    """
    from lobby.models import TableRuntime
    from lobby.runtime.owner import recover

    if not enabled():
        return 0
    freed = 0
    for table_id in orphaned_tables():
        with transaction.atomic():
            lease = TableLease.objects.select_for_update().filter(table_id=table_id).first()
            if lease is None or lease.expires_at >= timezone.now():
                continue  # renewed, or taken over, meanwhile
            rt = TableRuntime.objects.select_for_update().select_related("table").get(pk=table_id)
            if recover(rt):
                rt.save()
            lease.delete()
            freed += 1
    return freed


# --- this process's owners -----------------------------------------------------------------------


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
    if owner is None or owner.stopped or owner.loop.is_closed() or not owner.ready.done():
        return None
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
    """Mark this thread as running the table's owner code (nested table writes run directly)."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id

    def __enter__(self) -> None:
        tables = getattr(_local, "tables", None)
        if tables is None:
            tables = _local.tables = []
        tables.append(self.table_id)

    def __exit__(self, *exc: object) -> None:
        _local.tables.pop()


def is_inside(table_id: int) -> bool:
    return table_id in (getattr(_local, "tables", None) or [])


def through_owner(func: F) -> F:
    """Run a table write (``table_id=`` keyword) under the table's owner when this process has one."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        table_id = kwargs.get("table_id")
        if not enabled() or table_id is None or is_inside(int(table_id)):
            return func(*args, **kwargs)
        owner = local_owner(int(table_id))
        if owner is None:
            return func(*args, **kwargs)
        return owner.call_from_thread(func, kwargs)

    return wrapper  # type: ignore[return-value]  # functools.wraps keeps the signature; mypy cannot see it


def committed(table_id: int, version: int, events: list[dict[str, Any]]) -> None:
    """A row action committed a new version (``lobby.actions._committed``, owner runtime).

    Under the owner: its events go with the view the owner sends next. A write outside any owner
    of this process (a Celery task, a script) only tells a local owner to reload the row.
    """
    owner = _owners.get(table_id)
    if owner is None or owner.stopped or owner.loop.is_closed():
        return
    if is_inside(table_id):
        owner.captured = events
        return
    owner.loop.call_soon_threadsafe(owner.reload_soon)
