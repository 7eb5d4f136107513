"""The live tables' runtime: one owner per table, state in memory, every action journaled.

A table whose owner is gone (its process died, or no connection opened it yet) has its row
brought up to date from the journal by whoever writes it next, its clocks kept by Celery tasks
and the beat sweeper, until a process takes it over (``lobby.presence.adopt_orphans``; the beat's
``lease.sweep_orphans`` first brings the row up to date and frees the lease).

Above the runtime stand ``lobby.door`` (the one entry into a table) and ``lobby.presence`` (this
process's owners and heartbeat); below it, the table actions (``lobby.actions``) it calls, which
reach it only through ``lobby.owners``.

- ``owner``: ``TableOwner``, an asyncio task in the server process that holds a table's runtime
  (engine state, seats, clocks) in memory and applies its jobs one at a time. A player's decision
  (and a bot's) is applied in memory, the stale version refused there; everything else a table
  does (seats, waiting list, cash, clocks that time out, hand start and end) runs the row actions
  of ``lobby.actions`` under the owner, which first writes its state to the row (a snapshot).
- ``journal``: the group-committed journal; each applied step is a ``HandStep`` row (version,
  seat, action, RNG draws, events), committed before any view of it leaves the process.
- ``fanout``: each seated player's view encoded once per version and sent only to his sockets;
  one public view for everyone else.
- ``clocks``: the owner's timers (deadline and time bank, bot moves, next deal and countdowns).
- ``lease``: the lease row per table saying which process owns it, and the epoch that fences.
- ``ownership``: how a table write from sync code (an HTTP view, a task) reaches the table's
  owner (``through_owner``), and why the fencing makes that safe.
- ``remote``: owners in other processes, reached over the Channels layer (each process's inbox).
- ``threads``: the database threads of the owners' event loop.
"""

from __future__ import annotations

import asyncio

from lobby.runtime import journal
from lobby.runtime.threads import DatabaseThreads, blocking, release_all_pools, release_pools, urgent

__all__ = ["DatabaseThreads", "blocking", "close_threads", "release_threads", "urgent"]


async def release_threads() -> None:
    """The running loop's database threads close their connections and end, and so does its
    journal's (a loop about to close).

    Work submitted afterwards starts a new pool.
    """
    await journal.close_journal()
    for pool in release_pools(asyncio.get_running_loop()):
        await asyncio.to_thread(pool.shutdown)


def close_threads() -> None:
    """Every loop's database threads close their connections and end, and every journal's own
    connection is closed (a test session's end)."""
    for pool in release_all_pools():
        pool.shutdown()
    journal.finish_all()
