"""Races, one connection per thread: two players for the last place; a cancellation against the close.

PostgreSQL only (the SQLite test database is in memory with a shared cache, where a second
connection's write fails with "database table is locked" instead of waiting; the file database of
``make run`` serialises writers with BEGIN IMMEDIATE):
DATABASE_URL=postgres://… pytest tests/tournaments/test_races.py
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection

from tests.tournaments.conftest import ACCEPT, FUNDS, assert_ledger, authorise_all
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.conftest import run_in_threads
from tests.wallet.factories import funded_player
from tournaments import actions, errors
from tournaments.models import Registration, Tournament

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]
S = Registration.State
ROUNDS = 4


def last_place_round(staff) -> None:
    players = [funded_player(FUNDS) for _ in range(5)]
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=4)
    for p in players[:3]:
        enter(t, p)
    outcomes: dict[int, str] = {}

    def step(user):
        try:
            enter(t, user)
            outcomes[user.pk] = "in"
        except errors.TournamentFull:
            outcomes[user.pk] = "full"

    run_in_threads([[players[3]], [players[4]]], step)
    assert sorted(outcomes.values()) == ["full", "in"]
    assert Registration.objects.filter(tournament=t, state__in=Registration.ACTIVE).count() == 4
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    assert_ledger(t, players)


def cancel_against_close_round(staff) -> str:
    players = [funded_player(FUNDS) for _ in range(5)]
    t = make_tournament(staff)
    for p in players:
        enter(t, p)
    authorise_all(t)
    leaving = players[2]
    results: list[str] = []

    def step(item):
        if item == "close":
            actions.tournament_close(tournament_id=t.pk, now=t.starts_at - timedelta(minutes=2))
            return
        try:
            reg = actions.registration_cancel(tournament_id=t.pk, user=leaving)
            actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT)
            results.append("cancelled")
        except errors.CancellationClosed:
            results.append("too late")

    run_in_threads([["close"], ["cancel"]], step)
    reg = Registration.objects.get(tournament=t, user=leaving)
    if results == ["too late"]:
        assert reg.state in (S.ADMITTED, S.EXCLUDED)  # closed first: he plays (or is cut)
    else:
        assert reg.state == S.CANCELLED  # asked first: refunded, whichever finished first
    # either way 4 play, every other entry refunded exactly once
    assert Registration.objects.filter(tournament=t, state=S.ADMITTED).count() == 4
    assert_ledger(t, players)
    return results[0]


def test_two_players_race_for_the_last_place(staff):
    for _ in range(ROUNDS):
        last_place_round(staff)


def test_a_cancellation_races_the_close(staff):
    seen = {cancel_against_close_round(staff) for _ in range(ROUNDS)}
    assert seen <= {"cancelled", "too late"}


def training_round(staff) -> None:
    player = funded_player(FUNDS)
    pair = [
        make_tournament(staff, name=f"Allenamento {i}", training=True, pool_quota=0, fee=0) for i in range(2)
    ]
    outcomes: list[str] = []

    def step(t):
        try:
            enter(t, player)
            outcomes.append("in")
        except errors.TrainingScheduledLimit:
            outcomes.append("limit")

    run_in_threads([[pair[0]], [pair[1]]], step)
    assert sorted(outcomes) == ["in", "limit"]
    assert Registration.objects.filter(user=player, tournament__in=pair).count() == 1


def test_one_player_races_into_two_scheduled_training_tournaments(staff):
    """Training: one scheduled tournament at a time, even for two registrations of his at once."""
    for _ in range(ROUNDS):
        training_round(staff)
