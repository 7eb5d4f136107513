"""Live-table tests deal from a seeded generator, so every run plays the same hands."""

import itertools

import pytest

from games.rng import RecordingRng, SeededRng


@pytest.fixture(autouse=True)
def seeded_deals(monkeypatch):
    seeds = itertools.count(1000)
    monkeypatch.setattr("lobby.actions.new_rng", lambda: RecordingRng(SeededRng(next(seeds))))


@pytest.fixture(autouse=True)
async def stop_table_owners():
    """The owner runtime: every table owner of the test's loop stops with the test.

    Then the loop's database threads close their connections (on PostgreSQL each thread has its
    own) and end, before the loop closes.
    """
    yield
    from lobby import runtime
    from lobby.runtime import ownership

    await ownership.stop_all()
    await runtime.release_threads()
