"""This process's table owners as a table write sees them: who keeps a table, and under which fence.

The runtime (``lobby.runtime``) registers each owner it starts here; the table actions, below it,
ask this module what they need of it without importing it:

- ``local_owner``: this process's running owner of a table; ``owned``: whether a live owner (this
  process's, or another's by its lease) keeps it, in which case its clocks and views are the
  owner's, not Celery's and the channel layer's.
- ``inside``: the thread runs code for the table's owner (the owner's own row actions, or a caller
  it parked): a nested table write runs directly, ``check_fence`` refuses a write whose park ran out
  (``lobby.runtime.ownership``, "Fencing"), ``dealt`` hands a deal's rows to the owner.
- ``committed``: a table write committed a new version; the owner sends it (or reloads the row).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import threading
import uuid
from collections.abc import Callable
from typing import Any, Protocol

from django.db import transaction
from django.utils import timezone

from lobby.errors import TableClaimed, TableElsewhere
from lobby.models import Hand, TableLease, TableRuntime
from piattaforma import metrics

# This server process's name (host, pid and a random tag, new at each start): in its leases and
# in its sockets' presence rows.
PROCESS = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Owner(Protocol):
    """What of a table's owner (``lobby.runtime.owner.TableOwner``) this module reads."""

    table_id: int
    loop: asyncio.AbstractEventLoop
    stopped: bool
    ready: asyncio.Future[None]
    rt: TableRuntime | None
    captured: list[dict[str, Any]]

    def reload_soon(self) -> None: ...


_owners: dict[int, Any] = {}  # table id -> its owner here (a ``TableOwner``)
_local = threading.local()  # .tables: (table, fence) whose owner this thread runs code for now


# --- this process's owners -----------------------------------------------------------------------


def register(owner: Owner) -> None:
    """The owner of ``owner.table_id`` here from now on (it starts; ``forget`` when it stops)."""
    replaced = _owners.get(owner.table_id)
    _owners[owner.table_id] = owner
    if replaced is None:
        metrics.owner_started()


def registered(table_id: int) -> Any:
    """The owner registered for the table, running or not (None: none)."""
    return _owners.get(table_id)


def every_registered() -> list[Any]:
    """Every owner registered, running or not."""
    return list(_owners.values())


def local_owner(table_id: int) -> Any:
    """This process's running owner of the table, if any."""
    owner = _owners.get(table_id)
    if owner is None or owner.stopped or not owner.loop.is_running() or not owner.ready.done():
        return None  # (a loop no longer running, the tests': nothing would ever take its jobs)
    return owner


def local_owners() -> list[Any]:
    return [o for o in list(_owners.values()) if not o.stopped and not o.loop.is_closed()]


def forget(owner: Owner) -> None:
    if _owners.get(owner.table_id) is owner:
        del _owners[owner.table_id]
        metrics.owner_stopped()


def lease_holder(table_id: int) -> TableLease | None:
    """The live lease of a table (None: no process owns it now)."""
    return TableLease.objects.filter(table_id=table_id, expires_at__gte=timezone.now()).first()


def lease_holders(table_ids: list[int]) -> list[TableLease]:
    """The live leases of these tables, in table order, in one query (none: no query)."""
    if not table_ids:
        return []
    live = TableLease.objects.filter(table_id__in=table_ids, expires_at__gte=timezone.now())
    return list(live.order_by("table_id"))


def check_unowned(table_id: int) -> None:
    """A write outside any owner, its runtime row locked: refuse it (``TableClaimed``) if an owner
    in another process keeps the table.

    The writer saw no such owner before it locked the row, but one may have claimed the table since:
    its claim raises the row's epoch (``lease.lease_claim``) under the same row lock, so a claim
    that came first is seen here, and one that comes later waits for this write and reads it.
    Unfenced, the write would change the row behind the new owner's back: it would go on from the
    row it had read (a hand dealt under it never shown, its start clock firing for ever).
    """
    if held_elsewhere(lease_holder(table_id)):
        raise TableClaimed()


def held_elsewhere(lease: TableLease | None) -> bool:
    """Whether a live lease is an owner's in another process, reachable over the channel layer."""
    return lease is not None and lease.process != PROCESS and bool(lease.channel)


def owned(table_id: int) -> bool:
    """Tell whether a live owner (this process's, or another's by its lease) keeps the table.

    A table nobody owns (no connection opened it, or its owner stopped) runs its row actions
    directly: they broadcast through the channel layer and its clocks are Celery tasks.
    """
    if is_inside(table_id) or local_owner(table_id) is not None:
        return True
    return lease_holder(table_id) is not None


def committed(table_id: int, version: int, events: list[dict[str, Any]]) -> bool:
    """A row action committed a new version (``lobby.actions.tablerow.committed``).

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


def committed_many(versions: list[tuple[int, int]]) -> list[int]:
    """``committed`` of several tables' new versions (table id, version); returns the tables no
    live owner keeps (the caller broadcasts them), the leases of those read in one query."""
    loose = [
        table_id
        for table_id, version in versions
        if not _owners.get(table_id) or not committed(table_id, version, [])
    ]
    leased = {lease.table_id for lease in lease_holders(loose)}
    return [table_id for table_id in loose if table_id not in leased and not is_inside(table_id)]


# --- running code under an owner -----------------------------------------------------------------


class inside:
    """Mark this thread as running the table's owner code (nested table writes run directly).

    ``fence``: a parked caller's epoch; the table's rows it locks must still have it (``check_fence``).
    ``dealt``, ``hand``: the runtime row and the hand as a deal under it saved them (``dealt``),
    for the owner to keep. ``seen``: the version of the runtime row as first locked under it
    (``check_fence``): the owner keeps its own row only if it is that one.
    """

    def __init__(self, table_id: int, fence: int | None = None) -> None:
        self.table_id = table_id
        self.fence = fence
        self.dealt: TableRuntime | None = None
        self.hand: Hand | None = None
        self.seen: int | None = None

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

    Called with the runtime row locked (``tablerow.lock``), before anything is written; notes the
    row's version as first locked there (``inside.seen``).
    """
    for place in reversed(_places()):
        if place.table_id == rt.pk:
            if place.seen is None:
                place.seen = rt.version
            fence = place.fence
            if fence is None:  # the owner's own code: the epoch it last read (its claim's, or a fence's)
                owner = _owners.get(rt.pk)
                fence = owner.rt.epoch if owner is not None and owner.rt is not None else None
            if fence is not None and rt.epoch != fence:
                raise TableElsewhere()
            return


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


def run_parked_many(
    parks: list[tuple[int, Callable[[], None], int | None, Callable[[], None] | None]],
    func: Callable[..., Any],
    kwargs: dict[str, Any],
) -> Any:
    """``run_parked`` for a write of several tables in one transaction: ``parks`` holds each parked
    table's (table id, release, fence, first); every one is released after the commit (or at once
    outside a transaction), whatever happens."""
    try:
        with contextlib.ExitStack() as stack:
            for table_id, _release, fence, _first in parks:
                stack.enter_context(inside(table_id, fence))
            for _table_id, _release, _fence, first in parks:
                if first is not None:
                    first()
            return func(**kwargs)
    finally:
        releases = [release for _table_id, release, _fence, _first in parks]
        if transaction.get_connection().in_atomic_block:
            transaction.on_commit(lambda: [release() for release in releases])
        else:
            for release in releases:
                release()
