"""Sette e mezzo and Mazzetti cash tables (rules 004): "Se nessun giocatore di punta decidesse di
partecipare al banco dopo 3 minuti di inattività di gioco tutti i giocatori in sitout saranno fatti
alzare dal tavolo". The seconds count only while the table plays nothing, from the later of the
sitout and the last hand's end; the three missed banco turns still apply; never in a tournament
(RULINGS L2, tests/lobby/test_tournament_no_stand_up.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from lobby import door
from lobby.actions import seating, tablerow
from lobby.models import Hand, Seat
from lobby.runtime.clocks import chores_due
from tests.lobby.helpers import runtime, seat_players
from tests.wallet.factories import funded_player
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db

GAMES = ["mazzetti", "settemezzo"]


def idle_table(game: str, *, away: timedelta):
    """A cash table of 3 playing nothing, seat 3 in sitout for ``away`` (no hand missed yet)."""
    table = door.table_create(name=f"Tavolo {game}", game=game, seats=3, min_buy_in=1_000, max_buy_in=50_000)
    users = [funded_player() for _ in range(3)]
    seat_players(table, users, buy_in=20_000)
    Seat.objects.filter(table=table, number=3).update(
        status=Seat.Status.SITOUT, sitout_since=timezone.now() - away, missed_hands=0
    )
    return table, users


def seats(table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).order_by("number"))


@pytest.mark.parametrize("game", GAMES)
def test_three_minutes_of_a_table_playing_nothing_stand_the_sitout_player_up(game):
    table, users = idle_table(game, away=timedelta(minutes=3, seconds=1))
    before = wallet_selectors.balance_get(user=users[2])["cash"]
    assert door.table_chores(table_id=table.pk) == 1
    assert [s.number for s in seats(table)] == [1, 2]
    # his credit back on the conto
    assert wallet_selectors.balance_get(user=users[2])["cash"] == before + 20_000


@pytest.mark.parametrize("game", GAMES)
def test_under_three_minutes_he_stays_and_the_owner_arms_a_timer_for_the_minute(game):
    table, _users = idle_table(game, away=timedelta(minutes=2, seconds=50))
    assert door.table_chores(table_id=table.pk) == 0 and len(seats(table)) == 3
    seat = Seat.objects.get(table=table, number=3)
    assert chores_due(runtime(table), seats(table), None) == seat.sitout_since + timedelta(seconds=180)


@pytest.mark.parametrize("game", GAMES)
def test_the_minutes_count_from_the_last_hand_not_from_the_sitout(game):
    table, _users = idle_table(game, away=timedelta(minutes=30))
    ended = timezone.now() - timedelta(seconds=100)
    Hand.objects.create(table=table, number=1, game=game, started_at=ended, ended_at=ended)
    seat = Seat.objects.get(table=table, number=3)
    assert not seating.must_stand_up(table, seat)
    assert door.table_chores(table_id=table.pk) == 0 and len(seats(table)) == 3
    assert chores_due(runtime(table), seats(table), None) == ended + timedelta(seconds=180)


@pytest.mark.parametrize("game", GAMES)
def test_while_a_hand_is_played_the_minutes_do_not_count(game):
    table, _users = idle_table(game, away=timedelta(minutes=30))
    door.table_start_hand(table_id=table.pk)
    rt = runtime(table)
    assert tablerow.hand_running(rt)
    seat = Seat.objects.get(table=table, number=3)
    assert seating.stand_up_clock(rt, seat) is None and not seating.must_stand_up(table, seat, rt)
    assert door.table_chores(table_id=table.pk) == 0 and len(seats(table)) == 3


def test_poker_counts_the_sitout_itself_even_during_a_hand():
    """The other games' time rule (P15) is the seat's own absence, whatever the table does."""
    table, _users = idle_table("poker5", away=timedelta(minutes=11))
    Hand.objects.create(table=table, number=1, game="poker5", ended_at=timezone.now())
    seat = Seat.objects.get(table=table, number=3)
    assert seating.stand_up_clock(runtime(table), seat) == seat.sitout_since
    assert seating.must_stand_up(table, seat)


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_says_the_minutes_the_tables_apply(client, game):
    minutes = seating.STAND_UP_RULES[game][1] // 60
    html = client.get(f"/regole/{game}/").content.decode()
    assert f"Se al tavolo non si gioca per {minutes} minuti perché nessuno partecipa di punta" in html
