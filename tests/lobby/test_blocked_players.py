"""Suspended or self-excluded players leave every table with their credit."""

import pytest

from games.rng import SeededRng
from lobby import door
from lobby.errors import NotAllowed
from lobby.models import Hand, Seat
from piattaforma.actions import user_set_status
from piattaforma.models import User
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import everyone_puts_the_invito, play_hand_randomly, runtime, seat_players
from tests.wallet.factories import funded_player
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


def test_self_exclusion_between_hands_stands_the_player_up_at_once():
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    result = wallet_actions.user_self_exclude(user=users[0], until=None, reason="Pausa")
    assert not Seat.objects.filter(user=users[0]).exists()
    assert wallet_selectors.balance_get(user=users[0])["cash"] == 100_000
    assert result["closing_after_hand"] == []


def test_self_exclusion_during_a_hand_closes_the_seat_when_the_hand_settles():
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seats = seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    result = wallet_actions.user_self_exclude(user=users[0], until=None, reason="Pausa")
    assert result["closing_after_hand"] == [f"table:{seats[0].session_ref}"]
    seat = Seat.objects.get(user=users[0])
    assert seat.leave_after_hand and seat.status == Seat.Status.SITOUT
    with pytest.raises(NotAllowed):  # he can no longer decide anything
        door.table_act(table_id=table.pk, user=users[0], action={"type": "passo"})
    play_hand_randomly(table, SeededRng(4), skip_user=users[0])
    final = Hand.objects.get(table=table, number=1).outcome["chips"][str(seats[0].number)]
    assert not Seat.objects.filter(user=users[0]).exists()
    assert wallet_selectors.balance_get(user=users[0])["cash"] == 90_000 + final


def test_suspension_during_a_match_abandons_it_and_settles():
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    for user in users:
        door.table_ready(table_id=table.pk, user=user)
    user_set_status(user=users[1], status=User.Status.SUSPENDED, actor=None, reason="Collusione sospetta")
    outcome = Hand.objects.get(table=table, number=1).outcome
    assert outcome["reason"] == "abbandona"
    assert not Seat.objects.filter(user=users[1]).exists()
    assert wallet_selectors.balance_get(user=users[1])["cash"] < 100_000  # the abandoned match was paid
    assert runtime(table).state is not None and runtime(table).ready_deadline is not None
