"""Races of a slot tournament, one connection per thread (PostgreSQL only, as test_races.py): two
spins of one player sent at once, spins against the end of time, two advances at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from games.slot import engine
from tests.tournaments.test_slot import started
from tests.wallet.conftest import run_in_threads
from tournaments import errors, running, slot
from tournaments.models import SlotSession, Tournament

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]


def _spin(t: Tournament, user, version: int, now, out: list) -> None:
    try:
        slot.slot_act(
            tournament_id=t.pk, user=user, action={"type": "gira", "amount": 1}, version=version, now=now
        )
        out.append("ok")
    except errors.TournamentError as exc:
        out.append(exc.code)


def test_two_spins_on_one_version_play_one(staff):
    t, (me, *_rest) = started(staff)
    now = t.started_at + timedelta(seconds=1)
    out: list[str] = []
    run_in_threads([[1], [2]], lambda _: _spin(t, me, 0, now, out))
    assert sorted(out) == ["ok", "stale_version"]
    s = SlotSession.objects.get(tournament=t, user=me)
    assert s.version == 1 and s.state["spins"] == 1 and s.credit == s.state["credit"]


def test_spins_against_the_end_of_time_and_two_advances(staff):
    t, players = started(staff)
    ends = t.started_at + timedelta(minutes=t.slot_minutes)
    spins: list[str] = []
    advanced: list[bool] = []

    def step(item):
        if item == "advance":
            advanced.append(running.tournament_advance(tournament_id=t.pk, now=ends))
        else:
            _spin(t, item, 0, ends - timedelta(microseconds=1), spins)

    run_in_threads([["advance"], ["advance"], *[[p] for p in players]], step)
    assert sorted(advanced) == [False, True]  # the end (or the extra minute's start) once
    t.refresh_from_db()
    # every spin counted in full or was never made: every session closed, replayable, credit kept
    for s in SlotSession.objects.filter(tournament=t):
        assert s.state["over"]
        assert engine.replay(s.state["start_credit"], s.state["journal"]) == s.state
        assert s.state["journal"][-1]["action"] == {"type": engine.EXPIRE}
    assert t.progress["credits"] == {
        str(s.user_id): s.state["credit"] for s in SlotSession.objects.filter(tournament=t)
    }
    # after the end: refused, time over, or (a tied player's extra minute begun) his view is stale
    assert set(spins) <= {"ok", "time_over", "stale_version"}
    assert all(
        s.extra_state is None or s.extra_state["spins"] == 0 for s in SlotSession.objects.filter(tournament=t)
    )
