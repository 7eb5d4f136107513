"""Platform-level Celery tasks."""

from celery import shared_task


@shared_task(name="piattaforma.ping")
def ping(value: str = "pong") -> str:
    """Answer with the value sent: a broker and worker round trip."""
    return value
