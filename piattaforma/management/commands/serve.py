"""Start the whole platform in one process: Daphne, plus a Celery worker and beat as threads.

This is the embedded default of ``make run`` (in-process broker ``memory://``, in-process channel
layer, SQLite). In production run Daphne, ``celery worker`` and ``celery beat`` as separate
processes instead (see the README).
"""

from __future__ import annotations

import threading
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand


def start_embedded_celery() -> list[threading.Thread]:
    """Start a solo-pool Celery worker and the beat scheduler on daemon threads of this process."""
    from celery.worker import WorkController

    from config.celery import app

    app.set_current()
    app.set_default()
    worker = WorkController(
        app=app,
        concurrency=1,
        pool="solo",
        hostname="embedded@localhost",
        loglevel="WARNING",
        without_heartbeat=True,
        without_mingle=True,
        without_gossip=True,
    )
    worker_thread = threading.Thread(target=worker.start, name="celery-worker", daemon=True)
    worker_thread.start()
    beat = embedded_beat(app)
    beat.start()
    return [worker_thread, beat]


def embedded_beat(app: Any) -> Any:
    """The beat scheduler's thread (not started), its schedule file in ``VAR_DIR``.

    The directory is created here: with ``DATABASE_URL`` nothing else writes into it before beat
    opens its schedule, and a missing directory killed the scheduler's thread at its first tick.
    """
    from celery.beat import EmbeddedService

    settings.VAR_DIR.mkdir(parents=True, exist_ok=True)
    return EmbeddedService(app, thread=True, schedule_filename=str(settings.VAR_DIR / "celerybeat-schedule"))


class Command(BaseCommand):
    help = "Avvia la piattaforma in un solo processo (Daphne + worker e beat Celery in-process)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", type=int, default=8000)
        parser.add_argument("--no-celery", action="store_true", help="non avviare worker e beat in-process")

    def handle(self, *args: Any, host: str, port: int, no_celery: bool, **options: Any) -> None:
        from daphne.cli import CommandLineInterface

        if not no_celery:
            if settings.CELERY_BROKER_URL != "memory://":
                self.stderr.write("Broker esterno configurato: avvia worker e beat a parte (vedi README).")
            else:
                start_embedded_celery()
        url = f"http://{host}:{port}/"
        self.stdout.write(self.style.SUCCESS(f"La piattaforma è pronta: {url}  (stato: {url}healthz)"))
        self.stdout.flush()
        CommandLineInterface().run(["-b", host, "-p", str(port), "config.asgi:application"])
