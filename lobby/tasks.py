"""Celery tasks of the live tables: deadlines, the next deal, the beat sweeper."""

from celery import shared_task

from lobby import actions


@shared_task(name="lobby.table_deadline", ignore_result=True)
def table_deadline(*, table_id: int, version: int) -> int:
    """At a decision's deadline: apply the timeout action unless the table moved on."""
    return actions.table_timeout(table_id=table_id, version=version)


@shared_task(name="lobby.table_start", ignore_result=True)
def table_start(*, table_id: int) -> bool:
    """Deal the next hand when enough players are ready."""
    return actions.table_start_hand(table_id=table_id)


@shared_task(name="lobby.bot_move", ignore_result=True)
def table_bot_move(*, table_id: int, version: int) -> int:
    """A bot seat must decide: play a legal move."""
    return actions.table_bot_move(table_id=table_id, version=version)


@shared_task(name="lobby.sweep_deadlines", ignore_result=True)
def sweep_deadlines() -> int:
    """Safety net: apply timeouts whose scheduled task was lost (a crashed worker, a restart)."""
    return actions.tables_sweep_deadlines() + actions.waiting_offers_sweep() + actions.tables_sweep_sitouts()
