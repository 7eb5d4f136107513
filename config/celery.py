"""The Celery app: clocks, timeouts, schedules and payouts.

Broker: Redis in production (``REDIS_URL``), the in-process ``memory://`` transport in the
embedded default, where ``manage.py serve`` runs the worker and beat as threads.

Faults (README, Production): tasks are acknowledged late and idempotent; run several workers
under a supervisor and one beat. A table's clocks and next deal never depend on one task: the
beat's sweep (``lobby.sweep_deadlines``, every 5 s) redoes any pending table work that is overdue.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.embedded")

app = Celery("piattaforma")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
