"""Moderation tests: each starts from a fresh compiled watched list, the default one.

A transactional test (WebSocket, browser) flushes every table, the data migration's default list
too: tests that use the database put it back first.
"""

import pytest


@pytest.fixture(autouse=True)
def fresh_watched_list(request):
    from moderation import actions

    if request.node.get_closest_marker("django_db"):
        default_watched_list = request.getfixturevalue("default_watched_list")
        assert default_watched_list
    actions.watched_list_reset()
    yield
    actions.watched_list_reset()


@pytest.fixture
def default_watched_list(db):
    from moderation.defaults import seed
    from moderation.models import WatchedEntry

    seed(WatchedEntry)
    return WatchedEntry.objects.count()
