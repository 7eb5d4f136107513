"""Celery tasks of the live tables: deadlines, the next deal, bot moves, the beat sweeper.

Every task here is idempotent (the row lock and the version or due time decide), so a task
delivered twice (``acks_late``: a worker killed mid-task, a visibility timeout passed) or late
does no harm, and one that is lost is replaced by the sweeper (README, Production).

A live owner keeps its table's clocks (README, The owner runtime): no clock
task is sent for an owned table, but one sent while the table had no owner yet (before its first
connection, or after its owner died) may arrive once an owner runs it. The owner resumed that
clock from the row when it started (``TableOwner._arm``), so the task is stale: it notices with one
query (the lease) and does nothing, instead of parking the owner from this worker for a no-op.

A task may also outlive its table: the table closed (its players left, the staff closed it, its
tournament match ended) while its next deal or deadline was queued. That task has nothing to do;
it says so in one line of the log, not as a failure with a traceback.
"""

import functools
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from celery import shared_task

from lobby import door, sweeps
from lobby.errors import TableClosed
from lobby.owners import owned

log = logging.getLogger(__name__)


def _closed_is_done(func: Callable[..., Any]) -> Callable[..., Any]:
    """A table task that finds its table closed has nothing left to do."""

    @functools.wraps(func)
    def wrapper(*, table_id: int, **kwargs: Any) -> Any:
        try:
            return func(table_id=table_id, **kwargs)
        except TableClosed:
            log.info("%s: table %s is closed, nothing to do", func.__name__, table_id)
            return 0

    return wrapper


@shared_task(name="lobby.table_deadline", ignore_result=True)
@_closed_is_done
def table_deadline(*, table_id: int, eta: str | None = None, version: int | None = None) -> int:
    """At a table's deadline: apply the timeout action, or re-arm if the deadline moved on.

    ``version``: a task queued before one task per table replaced one per action.
    """
    if owned(table_id):
        return 0  # its owner keeps the deadline
    if version is not None:
        return door.table_timeout(table_id=table_id, version=version)
    when = datetime.fromisoformat(eta) if eta else None
    return door.table_deadline_fired(table_id=table_id, eta=when)


@shared_task(name="lobby.table_start", ignore_result=True)
@_closed_is_done
def table_start(*, table_id: int) -> bool:
    """Deal the next hand when enough players are ready."""
    if owned(table_id):
        return False  # its owner keeps the start clock
    return door.table_start_hand(table_id=table_id)


@shared_task(name="lobby.bot_move", ignore_result=True)
@_closed_is_done
def table_bot_move(*, table_id: int, version: int) -> int:
    """A bot seat must decide: play a legal move."""
    if owned(table_id):
        return 0  # its owner moves its bots
    return door.table_bot_move(table_id=table_id, version=version)


@shared_task(name="lobby.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Safety net: every pending table work whose task was lost (a dead worker, a Redis restart)."""
    return sweeps.tables_sweep()
