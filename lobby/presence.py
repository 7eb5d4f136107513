"""A server process's live tables: its table owners, the presence of its sockets, its heartbeat.

This process's owner of a table is started on first use (``owner_for``: a connection opening) or
when the table's owner elsewhere died (``adopt_orphans``, on each beat); it is registered in
``lobby.owners`` and its lease is renewed by the heartbeat from then on.

Every Daphne process has a name of its own (``lobby.owners.PROCESS``: host, pid and a random tag,
new at each start). While it has table connections open, it says it is alive (``renew``, below):
one statement refreshes the ``SeatSocket`` rows of its open connections (``presence_beat``). When a
process is killed, its rows stop being refreshed and the beat sweeper drops them after three
beats (``lobby.sweeps.presence_sweep``), sitting out who has no socket left, as a closed
connection does.
Other processes' rows are not touched, and a restarted process beats under a new name.
And it beats every ``LOBBY_HEARTBEAT_SECONDS``:

- one query reads the versions of the tables it serves and each socket gets ``{"type":
  "table.version", "version": n}``: a client that missed broadcasts (a channel-layer outage)
  sees that it is behind and asks ``sync``. The frame also keeps idle sockets alive through proxies.
  The row lags the journal between snapshots: a table with an owner here
  beats with the version its owner last sent, and a connection relayed to an owner in another
  process gets its frame from that owner (``remote``, on hearing this beat), not from the row.
- the tables of a dead process adopted, each owner
  in another process told which of this process's connections to its table are still open
  (``remote.still_joined``), and this process's owners forget the connections of a process that
  stopped telling them for three beats (``remote.drop_silent``: it was killed). A connection
  whose owner elsewhere died goes on with its table's new owner when this process adopted it,
  else it closes with 4409 and its client reconnects (``TableConsumer.owner_gone``).

The presence rows and the leases of this process's owners are renewed by a task of their own
(``_renew_forever``), every third of a lease (``renew_every``) counted from the previous renewal's
start, on a database thread of their own (``lobby.runtime.threads.urgent``): never after the
beat's other work. Under load a beat waits behind the tables' database work (longer while it adopts
tables); renewals queued behind it would come further apart than a lease lasts, another process
would adopt the tables of an owner still alive and close its sockets with 4409, and the presence
rows, three beats from the sweeper, would sit out players still connected. Only an owner that has
claimed its lease is renewed (one still loading would be taken for a lost lease and abandoned).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol

from django.conf import settings

from lobby import owners, selectors
from lobby.actions.connections import presence_beat, presence_ttl
from lobby.errors import TableElsewhere
from lobby.owners import PROCESS
from lobby.runtime import lease
from lobby.runtime import remote as elsewhere
from lobby.runtime.owner import TableOwner
from lobby.runtime.threads import blocking, urgent

logger = logging.getLogger(__name__)


class Connection(Protocol):
    table_id: int
    socket_id: int | None

    async def heartbeat(self, version: int) -> None: ...


_open: dict[Connection, None] = {}  # this process's table connections, in opening order
_task: asyncio.Task[None] | None = None
_renewer: asyncio.Task[None] | None = None  # the presence rows' and the leases' renewal


def opened(connection: Connection) -> None:
    """A table connection of this process opened: beat while any is open."""
    _open[connection] = None
    beating()


def beating() -> None:
    """Beat and renew from now on, while this process has a table connection or a table owner."""
    global _task, _renewer
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat_forever(), name="lobby-heartbeat")
    if _renewer is None or _renewer.done() or _renewer.get_loop() is not loop:
        _renewer = loop.create_task(_renew_forever(), name="lobby-renewal")


def closed(connection: Connection) -> None:
    """A table connection closed: the last one stops the heartbeat (unless owners are left)."""
    global _task
    _open.pop(connection, None)
    if not _open and not _owners() and _task is not None:
        _task.cancel()
        _task = None


def _owners() -> list[int]:
    return [o.table_id for o in owners.local_owners()]


# --- this process's owners -----------------------------------------------------------------------


async def adopt_orphans(limit: int = 50) -> list[int]:
    """Take over tables whose owner died (their lease expired): this process becomes their owner.

    Each is started as on a first connection: snapshot + journal, clocks resumed with the time
    that was left (``TableOwner``). Another process adopting one first wins its lease.
    """
    adopted = []
    orphans = (await blocking(lease.orphaned_tables)())[:limit]
    if orphans:  # a process died, or one alive failed to renew in time (its sockets will see 4409)
        logger.warning("%s takes over %d tables whose lease expired: %s", PROCESS, len(orphans), orphans)
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
    loop = asyncio.get_running_loop()
    owner = owners.registered(table_id)
    if owner is not None and (owner.loop is not loop or owner.stopped):
        owners.forget(owner)  # an owner of a loop that ended (tests) or one stopped
        owner = None
    if owner is None:
        owner = TableOwner(table_id)
        owners.register(owner)
        owner.begin()
    try:
        await asyncio.shield(owner.ready)
    except BaseException:
        owners.forget(owner)
        raise
    beating()  # its lease is renewed from now on (``renew``)
    return owner


async def stop_all() -> None:
    """Stop every owner of the running loop (the tests' teardown, a process shutting down)."""
    loop = asyncio.get_running_loop()
    for owner in [o for o in owners.every_registered() if o.loop is loop]:
        await owner.stop()
    for owner in [o for o in owners.every_registered() if o.loop.is_closed()]:
        owners.forget(owner)


# --- the heartbeat -------------------------------------------------------------------------------


def beat_seconds() -> float:
    """Seconds from the end of one beat to the next (``LOBBY_HEARTBEAT_SECONDS``)."""
    return float(settings.LOBBY_HEARTBEAT_SECONDS)


async def _beat_forever() -> None:
    while _open or _owners():
        await asyncio.sleep(beat_seconds())
        try:
            await beat()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database is away: beat again next time
            logger.exception("lobby heartbeat of %s failed", PROCESS)


def renew_every() -> float:
    """Seconds from one renewal of the leases to the next: a third of a lease (and no more than a beat).

    A renewal may then come two periods late (a loop lagging, the database slow to answer) before
    a lease expires and another process takes a live owner's table over.
    """
    return min(beat_seconds(), lease.lease_seconds() / 3)


async def _renew_forever() -> None:
    loop = asyncio.get_running_loop()
    while _open or _owners():
        started = loop.time()
        try:
            await renew()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database is away: renew again next time
            logger.exception("lease renewal of %s failed", PROCESS)
        await asyncio.sleep(max(0.0, started + renew_every() - loop.time()))


async def renew() -> None:
    """This process is alive: refresh its sockets' presence rows and renew its owners' leases; an
    owner whose lease another process took stops.

    Only owners that claimed their lease (``TableOwner.claimed``): one still loading has none yet.
    """
    counted = [c.socket_id for c in list(_open) if c.socket_id is not None]
    if counted:
        await urgent(presence_beat)(process=PROCESS, socket_ids=counted)
    claimed = [o for o in owners.local_owners() if o.claimed]
    if not claimed:
        return
    held = await urgent(lease.lease_renew)([o.table_id for o in claimed], process=PROCESS)
    for owner in claimed:
        if owner.table_id not in held and not owner.stopped:  # too late: another process took it over
            logger.warning(
                "table %s: its lease was taken by another process, its owner here stops", owner.table_id
            )
            await owner.abandon()


async def beat() -> None:
    """One heartbeat: send each socket its table's version (the presence rows: ``renew``)."""
    running = owners.local_owners()
    connections = list(_open)
    versions: dict[int, int] = await blocking(selectors.table_versions)(
        sorted({c.table_id for c in connections})
    )
    if running:  # connections of a process killed meanwhile (no heartbeat names them any more)
        silent = asyncio.get_running_loop().time() - presence_ttl()
        for owner in running:
            elsewhere.drop_silent(owner, before=silent)
    await adopt_orphans()  # tables whose owner died (lease expired) are taken over here
    running = owners.local_owners()
    # the version each owner sent last (committed; one it is journaling is not sent yet)
    versions.update({o.table_id: o.published for o in running if o.published >= 0})
    remote = [c for c in connections if getattr(c, "remote", None) is not None]
    live = await blocking(lease.live_channels)(sorted({c.table_id for c in remote})) if remote else {}
    for connection in connections:
        if connection in remote:
            continue  # its owner elsewhere beats it (``still_joined``): this row lags that owner
        if connection in _open and connection.table_id in versions:
            with contextlib.suppress(Exception):  # a socket closing meanwhile
                await connection.heartbeat(versions[connection.table_id])
    joined = []
    for connection in remote:  # an owner elsewhere that lost its lease died: go on with its heir
        if connection not in _open or connection.remote is None:  # type: ignore[attr-defined]  # a table consumer joined to a remote owner (lobby.consumers)
            continue
        if live.get(connection.table_id) == connection.remote.channel:  # type: ignore[attr-defined]  # likewise
            joined.append(connection)
            continue
        with contextlib.suppress(Exception):
            await connection.owner_gone()  # type: ignore[attr-defined]  # likewise: only table consumers reach here
    if joined:
        try:
            await elsewhere.still_joined(joined)
        except Exception:  # the layer is away: the owners hear again on the next beat
            logger.warning("heartbeat of %s: owners elsewhere not told of their connections", PROCESS)
