"""Thirty reports from one player at once: the hourly cap still holds (the count is taken under a lock).

PostgreSQL only (see tests/tournaments/test_races.py): DATABASE_URL=postgres://… pytest this file.
"""

from __future__ import annotations

import pytest
from django.db import connection

from moderation import actions
from moderation.errors import ModerationError
from moderation.models import ReportEntry
from tests.moderation.factories import say
from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import run_in_threads

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]


def test_concurrent_reports_cannot_pass_the_hourly_cap(default_watched_list):
    reporter = UserFactory(nickname="zelante")
    lines = [say(UserFactory(), "ciao").pk for _ in range(30)]
    refused: list[str] = []

    def step(line_id: int) -> None:
        try:
            actions.report_file(reporter=reporter, line_id=line_id, reason="insult")
        except ModerationError as exc:
            refused.append(exc.code)

    run_in_threads([[line] for line in lines], step)  # 30 threads, each its own connection
    assert ReportEntry.objects.filter(reporter=reporter).count() == actions.REPORTS_PER_HOUR
    assert refused == ["report_too_many"] * (30 - actions.REPORTS_PER_HOUR)
