"""Races of a running tournament, one connection per thread (PostgreSQL only, as test_races.py):
the last two matches of a turn ending at once, two advances at once, two payouts at once."""

from __future__ import annotations

import pytest
from django.db import connection

from games.rng import SeededRng
from lobby import actions as lobby
from lobby.models import Seat
from tests.tournaments.running_helpers import full_tournament, ledger_zero, open_tables, play_out, pool
from tests.wallet.conftest import run_in_threads
from tournaments import running
from tournaments.models import Registration, Tournament, TournamentMatch

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]


def test_matches_ending_together_and_two_advances_start_one_next_turn(staff):
    t, _players = full_tournament(staff, 4, format=Tournament.Format.DANESE, turns=2)
    leavers = [Seat.objects.select_related("user").get(table=table, number=1) for table in open_tables(t)]
    run_in_threads([[s] for s in leavers], lambda s: lobby.table_leave(table_id=s.table_id, user=s.user))
    assert TournamentMatch.objects.filter(tournament=t, turn=1, ended_at__isnull=False).count() == 2
    done: list[bool] = []
    run_in_threads([[1], [2]], lambda _: done.append(running.tournament_advance(tournament_id=t.pk)))
    assert sorted(done) == [False, True]
    t.refresh_from_db()
    assert t.turn == 2 and TournamentMatch.objects.filter(tournament=t, turn=2).count() == 2


def test_two_payouts_at_once_pay_once(staff):
    t, _players = full_tournament(staff, 4, format=Tournament.Format.KO)
    play_out(t, SeededRng(9))
    results: list[object] = []
    run_in_threads([[1], [2]], lambda _: results.append(running.tournament_pay(tournament_id=t.pk)))
    assert sum(r is not None for r in results) == 1
    assert pool(t) == 0 and ledger_zero() == 0
    paid = sum(Registration.objects.filter(tournament=t).values_list("prize", flat=True))
    assert paid == 4 * t.pool_quota
