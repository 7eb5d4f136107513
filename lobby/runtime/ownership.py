"""A table write from sync code reaches the table's owner: ``through_owner``, and fencing.

The lease of each table is ``lobby.runtime.lease``; this process's owners are started by
``lobby.presence`` (``owner_for``, ``adopt_orphans``) and registered in ``lobby.owners``.

- ``through_owner``: a table write called from sync code (an HTTP view, the back office, a hook)
  while this process owns the table runs under the owner (the owner is parked meanwhile, then
  sends the new version), so nothing writes the row behind an owner's back. Without a local owner
  the write runs directly (a table whose owner is gone: its clocks are Celery tasks meanwhile);
  one that finds, with the row locked, that an owner in another process claimed the table since
  it looked writes nothing (``owners.check_unowned``) and is sent to that owner instead.

Fencing (the runtime row's ``epoch``). A park is a lease on the table's writes with a timeout
(``owner.PARK_SECONDS``): a caller whose transaction has not committed by then (a saturated thread
pool) must not write once the owner went on, or the row and the journal would each hold a different
version N (the decision lost on the next takeover, the caller's change missing from every view).
So every park hands its caller the row's epoch (the owner's, as it last read the row), and

1. the caller's writes are fenced: its snapshot of the owner's state is ``UPDATE ... WHERE epoch =
   E``, and each table write locks the runtime row first (``tablerow.lock``; every write of a table
   does) and is refused with ``TableElsewhere`` unless the row still has ``E``
   (``lobby.owners.check_fence``):
   refused there, its transaction writes nothing;
2. an owner that goes on after a park ran out first raises the epoch (``lease.fence``: an ``UPDATE`` of
   the row, in its own commit), then reads the row back, and only then takes its next job;
3. a new owner raises it when it claims the lease (``lease.lease_claim``), before it reads the row: a
   caller of the previous owner (one that died, or lost its lease) is fenced the same way.

Why that is enough: the raise and the caller's lock take the same row lock (PostgreSQL's row lock;
SQLite's database lock, the embedded default's transactions being ``IMMEDIATE``), so one of them
comes first. If the caller's comes first, the raise waits for its commit (tried again and again,
each try waiting a moment: ``lease.fence``) and the owner then reads the row with the caller's write in
it; if the raise comes first, the caller reads ``E + 1`` under its lock and writes nothing. Either
way the owner's decisions after the park and the caller's write are ordered, never interleaved. A
park released in time raises nothing: its caller has committed or rolled back before its release is
sent. The owner's own writes (its snapshot, its row actions) are fenced by the epoch it last read:
an owner that lost its lease to another process and has not noticed yet (its next renewal abandons
it) writes nothing over its successor's row. Its journal steps are refused by the journal's unique
``(hand, seq)`` instead.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

from django.db import transaction

from lobby.errors import TableClaimed, TableElsewhere
from lobby.owners import (
    held_elsewhere,
    is_inside,
    lease_holder,
    lease_holders,
    local_owner,
    run_parked,
    run_parked_many,
)
from lobby.runtime import remote

F = TypeVar("F", bound=Callable[..., Any])


def through_owner(func: F) -> F:
    """Run a table write (``table_id=`` keyword) under the table's owner when this process has one."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        table_id = kwargs.get("table_id")
        if table_id is None or is_inside(int(table_id)):
            return func(*args, **kwargs)
        try:
            return _to_owner(int(table_id), func, args, kwargs)
        except TableClaimed:  # claimed between the look at its lease and the lock: ask its owner
            if transaction.get_connection().in_atomic_block:
                raise  # (the caller's own transaction is refused whole)
            return _to_owner(int(table_id), func, args, kwargs)

    return wrapper  # type: ignore[return-value]  # functools.wraps keeps the signature; mypy cannot see it


def _to_owner(table_id: int, func: Callable[..., Any], args: Any, kwargs: dict[str, Any]) -> Any:
    owner = local_owner(table_id)
    if owner is not None:
        return owner.call_from_thread(func, kwargs)
    lease = lease_holder(table_id)
    if not held_elsewhere(lease):
        return func(*args, **kwargs)
    assert lease is not None
    return _through_remote_owner(lease.channel, table_id, func, kwargs)


def through_owners(func: F) -> F:
    """Run a write of several tables in one transaction (``tables=`` keyword: a mapping by table
    id) with every one of their owners parked, as ``through_owner`` parks one: this process's owners
    are all asked at once, then waited for; an owner in another process is parked over the channel
    layer. Each table's writes are fenced by its own park's epoch, and every owner reads its row
    back after the commit. An owner that cannot be parked refuses the whole write
    (``TableElsewhere``: nothing written, the owners already parked released)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        asked: list[tuple[int, Callable[[], tuple[Callable[[], None], int, Callable[[], None]]]]] = []
        parks: list[tuple[int, Callable[[], None], int | None, Callable[[], None] | None]] = []
        failure: BaseException | None = None
        elsewhere: list[int] = []
        for table_id in sorted(int(t) for t in kwargs["tables"]):
            if is_inside(table_id):
                continue
            owner = local_owner(table_id)
            if owner is not None:
                asked.append((table_id, owner.park_from_thread()))
            else:
                elsewhere.append(table_id)
        for lease in lease_holders(elsewhere):  # one query for all, in table order
            table_id = lease.table_id
            if not held_elsewhere(lease) or failure is not None:
                continue
            try:
                release, epoch = remote.park_elsewhere(lease.channel, table_id)
            except TableElsewhere as exc:
                failure = exc
                continue
            parks.append((table_id, release, epoch, None))
        for table_id, parked in asked:
            try:
                release, epoch, first = parked()
            except TableElsewhere as exc:
                failure = exc
                continue
            parks.append((table_id, release, epoch, first))
        if failure is not None:
            for _table_id, release, _epoch, _first in parks:
                release()
            raise failure
        return run_parked_many(parks, func, kwargs)

    return wrapper  # type: ignore[return-value]  # functools.wraps keeps the signature; mypy cannot see it


def _through_remote_owner(
    channel: str, table_id: int, func: Callable[..., Any], kwargs: dict[str, Any]
) -> Any:
    """Run a table write while the table's owner in another process is parked (its state in the row).

    The owner reads the row back once this write commits (an outer transaction's commit, if any).
    """
    release, epoch = remote.park_elsewhere(channel, table_id)
    return run_parked(table_id, func, kwargs, release=release, fence=epoch)
