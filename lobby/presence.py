"""The heartbeat of a server process: presence of its table sockets, and each socket's version.

Every Daphne process has a name of its own (``PROCESS``: host, pid and a random tag, new at each
start). While it has table connections open, it beats every ``LOBBY_HEARTBEAT_SECONDS``:

- one statement refreshes the ``SeatSocket`` rows of its open connections (``actions.presence_beat``).
  When a process is killed, its rows stop being refreshed and the beat sweeper drops them after three
  beats (``actions.presence_sweep``), sitting out who has no socket left, as a closed connection
  does. Other processes' rows are not touched, and a restarted process beats under a new name.
- one query reads the versions of the tables it serves and each socket gets ``{"type":
  "table.version", "version": n}``: a client that missed broadcasts (a channel-layer outage)
  sees that it is behind and asks ``sync``. The frame also keeps idle sockets alive through proxies.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import uuid
from typing import Protocol

from django.conf import settings

logger = logging.getLogger(__name__)

PROCESS = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


class Connection(Protocol):
    table_id: int
    socket_id: int | None

    async def heartbeat(self, version: int) -> None: ...


_open: dict[Connection, None] = {}  # this process's table connections, in opening order
_task: asyncio.Task[None] | None = None


def opened(connection: Connection) -> None:
    """A table connection of this process opened: beat while any is open."""
    _open[connection] = None
    beating()


def beating() -> None:
    """Beat from now on, while this process has a table connection or a table owner."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat_forever(), name="lobby-heartbeat")


def closed(connection: Connection) -> None:
    """A table connection closed: the last one stops the heartbeat (unless owners are left)."""
    global _task
    _open.pop(connection, None)
    if not _open and not _owners() and _task is not None:
        _task.cancel()
        _task = None


def _owners() -> list[int]:
    from lobby.runtime import ownership

    return [o.table_id for o in ownership.local_owners()]


async def _beat_forever() -> None:
    while _open or _owners():
        await asyncio.sleep(float(settings.LOBBY_HEARTBEAT_SECONDS))
        try:
            await beat()
        except asyncio.CancelledError:
            raise
        except Exception:  # the database is away: beat again next time
            logger.exception("lobby heartbeat of %s failed", PROCESS)


async def beat() -> None:
    """One heartbeat: refresh this process's presence rows, send each socket its table's version."""
    from lobby import actions, selectors
    from lobby.consumers import db

    connections = list(_open)
    counted = [c.socket_id for c in connections if c.socket_id is not None]
    await db(actions.presence_beat)(process=PROCESS, socket_ids=counted)
    versions: dict[int, int] = await db(selectors.table_versions)(sorted({c.table_id for c in connections}))
    from lobby.runtime import ownership

    owners = ownership.local_owners()
    if owners:  # the owner runtime: its leases renewed, each owner's version is the table's
        held = await db(ownership.lease_renew)([o.table_id for o in owners], process=PROCESS)
        for owner in owners:
            if owner.table_id not in held:  # this process was too slow to renew: another took it over
                await owner.abandon()
    if ownership.enabled():
        await ownership.adopt_orphans()  # tables whose owner died (lease expired) are taken over here
        owners = ownership.local_owners()
        versions.update({o.table_id: o.version() for o in owners})
    remote = [c for c in connections if getattr(c, "remote", None) is not None]
    live = await db(ownership.live_channels)(sorted({c.table_id for c in remote})) if remote else {}
    for connection in connections:
        if connection in _open and connection.table_id in versions:
            with contextlib.suppress(Exception):  # a socket closing meanwhile
                await connection.heartbeat(versions[connection.table_id])
    for connection in remote:  # an owner elsewhere that lost its lease died: reconnect to its heir
        if connection in _open and live.get(connection.table_id) != connection.remote.channel:  # type: ignore[attr-defined]  # a table consumer joined to a remote owner (lobby.consumers)
            with contextlib.suppress(Exception):
                await connection.owner_gone()  # type: ignore[attr-defined]  # likewise: only table consumers reach here
