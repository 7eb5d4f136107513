"""Celery tasks of moderation (the beat's)."""

from celery import shared_task

from moderation import actions, dumping


@shared_task(name="moderation.sanctions_ended", ignore_result=True)
def sanctions_ended() -> int:
    """Tell players whose mute or chat suspension ended; return how many were told."""
    return actions.sanctions_notify_ended()


@shared_task(name="moderation.signals_fold", ignore_result=True)
def signals_fold() -> int:
    """Fold the settled hands queued by the tables into the collusion and dumping signals."""
    return dumping.signals_fold()
