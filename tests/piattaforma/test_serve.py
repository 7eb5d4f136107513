"""``manage.py serve`` (``make run``): the embedded beat scheduler starts with any ``VAR_DIR``."""

from __future__ import annotations

import pytest

from piattaforma.management.commands.serve import embedded_beat


@pytest.mark.django_db
def test_beat_opens_its_schedule_in_a_var_dir_that_does_not_exist_yet(settings, tmp_path):
    # With DATABASE_URL nothing creates VAR_DIR (SQLite's file is not there): the scheduler thread
    # died on its first tick with FileNotFoundError on celerybeat-schedule.dat.
    from config.celery import app

    settings.VAR_DIR = tmp_path / "nuova" / "var"
    beat = embedded_beat(app)
    scheduler = beat.service.get_scheduler()  # what the thread does first: opens the schedule file
    try:
        assert scheduler.schedule is not None
        assert (tmp_path / "nuova" / "var").is_dir()
    finally:
        scheduler.close()
