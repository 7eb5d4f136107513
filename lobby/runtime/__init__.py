"""The live tables' runtime: one owner per table, state in memory, every action journaled.

``settings.LOBBY_RUNTIME`` chooses it: ``"rows"`` (the default for now) is the per-action database
transaction of ``lobby.actions`` (the ``TableRuntime`` row locked by every write, Celery clocks);
``"owner"`` is this package:

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
- ``ownership``: the lease row per table saying which process owns it, the owners of this
  process, the door through which a sync caller (an HTTP view) reaches a table's owner, and the
  adoption of the tables of a process that died.
- ``remote``: owners in other processes, reached over the Channels layer (each process's inbox).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connections


def enabled() -> bool:
    """Tell whether the tables run on owners (``LOBBY_RUNTIME = "owner"``)."""
    return getattr(settings, "LOBBY_RUNTIME", "rows") == "owner"


def blocking(func: Callable[..., Any]) -> Callable[..., Any]:
    """Run database work off the event loop (worker threads on PostgreSQL, the one thread on SQLite)."""
    return database_sync_to_async(func, thread_sensitive=connections["default"].vendor != "postgresql")
