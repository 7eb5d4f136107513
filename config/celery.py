"""The Celery app: clocks, timeouts, schedules and payouts.

Broker: RabbitMQ in the production recipe (``CELERY_BROKER_URL=amqp://…``), or Redis
(``REDIS_URL``) when no other broker is named; the in-process ``memory://`` transport in the
embedded default, where ``manage.py serve`` runs the worker and beat as threads.

Faults (docs/operations.md): tasks are acknowledged late and idempotent; run several workers
under a supervisor and one beat. A worker outlives a restart of its broker: it reconnects for as
long as it takes (``CELERY_BROKER_CONNECTION_MAX_RETRIES = None``), and ``Consumer`` below keeps a
lost Redis connection from ending the process. A table's clocks and next deal never depend on one
task: the beat's sweep (``lobby.sweep_deadlines``, every 5 s) redoes any pending table work that
is overdue.
"""

import contextlib
import os
import time
from typing import Any

from celery import Celery, signals
from celery.worker.consumer import Consumer as CeleryConsumer

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.embedded")

app = Celery("piattaforma")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class Consumer(CeleryConsumer):  # type: ignore[misc]  # Celery ships no type hints
    """The worker's consumer (``CELERY_WORKER_CONSUMER``), which survives the loss of a Redis broker
    while it holds unacknowledged tasks.

    On a lost connection Celery's consumer first collects the connection (which drops its
    transport's client) and then closes it; closing the Redis channel puts the tasks it holds back
    on their queue through a client built from that transport, now gone: an ``AttributeError``
    that no connection error handler takes, and the worker exits ("Unrecoverable error"). Here the
    channel is closed first, while its transport is whole: the held tasks go back to the queue if
    the broker still answers, else they stay where Redis keeps them (the visibility timeout
    restores them; a Redis restarted empty lost them, and the beat's sweep redoes the table work).
    Celery then closes a channel already closed, and reconnects.
    """

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        connection = self.connection
        channel = getattr(connection, "_default_channel", None) if connection is not None else None
        if channel is not None:
            with contextlib.suppress(Exception):  # the broker is away: nothing to put back through it
                channel.close()
        super().on_connection_error_after_connected(exc)


# --- metrics and log context of the tasks (piattaforma.metrics, piattaforma.logcontext) -----------------

_started: dict[str, float] = {}


@signals.task_prerun.connect  # type: ignore[untyped-decorator]  # Celery's signals are untyped
def _task_started(task_id: str | None = None, task: Any = None, kwargs: Any = None, **_: Any) -> None:
    from piattaforma import logcontext

    if task_id is not None:
        _started[task_id] = time.perf_counter()
    logcontext.task_started(getattr(task, "name", ""), kwargs if isinstance(kwargs, dict) else {})


@signals.task_postrun.connect  # type: ignore[untyped-decorator]  # Celery's signals are untyped
def _task_ended(task_id: str | None = None, task: Any = None, state: str | None = None, **_: Any) -> None:
    from piattaforma import logcontext, metrics

    started = _started.pop(task_id, None) if task_id is not None else None
    seconds = time.perf_counter() - started if started is not None else None
    metrics.task_ran(getattr(task, "name", "?"), (state or "unknown").lower(), seconds)
    logcontext.task_ended()


@signals.worker_process_shutdown.connect  # type: ignore[untyped-decorator]  # Celery's signals are untyped
def _pool_process_ended(pid: int | None = None, **_: Any) -> None:
    from piattaforma import metrics

    metrics.process_ended(pid or os.getpid())
