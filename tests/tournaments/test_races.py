"""Races, one connection per thread: two players for the last place; a cancellation against the close.

PostgreSQL only (the SQLite test database is in memory with a shared cache, where a second
connection's write fails with "database table is locked" instead of waiting; the file database of
``make run`` serialises writers with BEGIN IMMEDIATE):
DATABASE_URL=postgres://… pytest tests/tournaments/test_races.py
"""

from __future__ import annotations

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from tests.tournaments.conftest import ACCEPT, FUNDS, assert_ledger, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.conftest import run_in_threads
from tests.wallet.factories import funded_player
from tournaments import actions, errors
from tournaments.models import Registration, Tournament
from wallet import actions as wallet_actions

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


# --- lock order: the player's row, then the tournament's, then the accounts ---------------------------


def _pid() -> int:
    connection.ensure_connection()
    return connection.connection.info.backend_pid


def _wait_until_waiting_or_done(pids: dict[str, int], name: str, done: threading.Event) -> None:
    """Hold the caller's transaction open until the session ``name`` waits on a lock (or ended)."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not done.is_set():
        if name in pids:
            with connection.cursor() as cursor:
                cursor.execute("SELECT wait_event_type FROM pg_stat_activity WHERE pid = %s", [pids[name]])
                row = cursor.fetchone()
            if row is not None and row[0] == "Lock":
                return
        time.sleep(0.02)  # polling the other session's state, not waiting for time to pass


def _hold_open_race(first, second) -> list[str]:
    """Run ``first`` in a transaction kept open until ``second`` (started once ``first`` holds its
    locks) waits on one of them, then commit; return what each raised ("" for nothing)."""
    pids: dict[str, int] = {}
    holding, second_done = threading.Event(), threading.Event()
    raised = {"first": "", "second": ""}

    def step(which):
        pids[which] = _pid()
        try:
            if which == "first":
                with transaction.atomic():
                    first()
                    holding.set()
                    _wait_until_waiting_or_done(pids, "second", second_done)
            else:
                assert holding.wait(30)
                try:
                    second()
                finally:
                    second_done.set()
        except Exception as exc:
            raised[which] = f"{type(exc).__name__}: {exc}"
            holding.set()

    run_in_threads([["first"], ["second"]], step)
    return [raised["first"], raised["second"]]


def test_a_self_exclusion_races_a_money_registration_without_deadlock(staff):
    """The registration holds the player's row before the tournament's and the conto's, as the
    self-exclusion does (row, then his tournaments and accounts): one waits for the other, neither
    is chosen as a deadlock victim. Then the exclusion cancels and refunds the new entry too."""
    for _ in range(ROUNDS):
        player = funded_player(FUNDS)
        earlier, paid = make_tournament(staff, name="Già iscritto"), make_tournament(staff)
        enter(earlier, player)
        raised = _hold_open_race(
            lambda t=paid, p=player: enter(t, p),
            lambda p=player: wallet_actions.user_self_exclude(
                user=p, until=timezone.now() + timedelta(days=30), reason="pausa"
            ),
        )
        assert raised == ["", ""]
        states = set(Registration.objects.filter(user=player).values_list("state", flat=True))
        assert states == {S.CANCELLED}
        assert_ledger(paid, [player])


def test_a_money_and_a_training_registration_of_one_player_at_once(staff):
    """A money tournament's and a training tournament's registrations of one player, each held
    open while the other runs: one order of locks, both taken."""
    for first_kind in ("money", "training"):
        player = funded_player(FUNDS)
        paid = make_tournament(staff)
        training = make_tournament(staff, name="Allenamento", training=True)
        entries = {
            "money": lambda t=paid, p=player: enter(t, p),
            "training": lambda t=training, p=player: enter(t, p),
        }
        second_kind = "training" if first_kind == "money" else "money"
        assert _hold_open_race(entries[first_kind], entries[second_kind]) == ["", ""]
        assert Registration.objects.filter(user=player, state__in=Registration.ACTIVE).count() == 2
        assert_ledger(paid, [player])


def test_a_self_exclusion_races_a_deposit_without_deadlock(staff):
    """A deposit holds the conto, and its payment row points at the player (a foreign-key check at
    commit): the exclusion's lock of the player's row leaves that check alone, so it waits for the
    conto and the deposit commits first; the money stays his, withdrawable."""
    for _ in range(ROUNDS):
        player = funded_player(FUNDS)
        enter(make_tournament(staff, name="Già iscritto"), player)  # the exclusion refunds it
        raised = _hold_open_race(
            lambda p=player: wallet_actions.deposit_create(user=p, amount=2_000, idempotency_key=f"d{p.pk}"),
            lambda p=player: wallet_actions.user_self_exclude(
                user=p, until=timezone.now() + timedelta(days=30), reason="pausa"
            ),
        )
        assert raised == ["", ""]
        assert money(player) == FUNDS + 2_000
