"""Moderation tests: each starts from a fresh compiled watched list (the seeded default one)."""

import pytest


@pytest.fixture(autouse=True)
def fresh_watched_list():
    from moderation import actions

    actions.watched_list_reset()
    yield
    actions.watched_list_reset()
