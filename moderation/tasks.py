"""Celery tasks of moderation (the beat's)."""

from celery import shared_task

from moderation import actions


@shared_task(name="moderation.sanctions_ended", ignore_result=True)
def sanctions_ended() -> int:
    """Tell players whose mute or chat suspension ended; return how many were told."""
    return actions.sanctions_notify_ended()
