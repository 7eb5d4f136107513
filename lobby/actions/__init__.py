"""Writes of the live tables, one module a concern; ``lobby.door`` hands this package's names on.

- ``hands``: the hand's path, top to bottom: the deal, a decision applied and recorded, the hand's
  end settled, timeouts and the time bank, bots' moves, leaving during a hand, a hand cancelled.
- ``seating``: sitting down and standing up with the table credit, top-ups, sitout, the seats'
  chores (stand-ups of players away too long).
- ``waiting``: the waiting list of a full table.
- ``connections``: a seated player's sockets, counted per seat with their process's heartbeat.
- ``tables``: a table's creation and settings, and its chat.
- ``operations``: site operations on tables: closed by staff, a game switch or the site hours, a
  session cancelled for a technical fault, tables opened from templates.
- ``tournament_tables``: a tournament turn's tables opened and closed in bulk, a match's result.
- ``tablerow``: what every one of them starts and ends with: the runtime row locked (and brought up
  to date from the journal), a new version saved and sent after commit, the clocks of a table
  without an owner.

Each write is one transaction that locks the table's ``TableRuntime`` row first (then, through the
wallet's own helper, the ledger accounts in primary-key order). Views go out only after commit, and
clocks are set after commit too. These are plain functions: nothing here imports the runtime.
Callers reach them through ``lobby.door``, which runs every write of a table under its owner
(``lobby.runtime``); the owner applies players' decisions itself and calls these for everything
else. What a write needs to know of the owners (is the table owned, under which fence) it asks
``lobby.owners``.
"""

from lobby.actions.connections import (
    presence_beat,
    presence_ttl,
    seat_connected,
    seat_disconnected,
    table_sockets_drop,
)
from lobby.actions.hands import (
    table_act,
    table_bot_move,
    table_cancel_hand,
    table_deadline_fired,
    table_leave,
    table_ready,
    table_remove_player,
    table_start_hand,
    table_timeout,
)
from lobby.actions.seating import (
    table_chores,
    table_leave_next,
    table_rebuy,
    table_sit,
    table_sitout,
    tables_sessions_in_hand,
)
from lobby.actions.tables import table_chat_post, table_check, table_create, table_update
from lobby.actions.waiting import waiting_join, waiting_leave

__all__ = [
    "presence_beat",
    "presence_ttl",
    "seat_connected",
    "seat_disconnected",
    "table_act",
    "table_bot_move",
    "table_cancel_hand",
    "table_chat_post",
    "table_check",
    "table_chores",
    "table_create",
    "table_deadline_fired",
    "table_leave",
    "table_leave_next",
    "table_ready",
    "table_rebuy",
    "table_remove_player",
    "table_sit",
    "table_sitout",
    "table_sockets_drop",
    "table_start_hand",
    "table_timeout",
    "table_update",
    "tables_sessions_in_hand",
    "waiting_join",
    "waiting_leave",
]
