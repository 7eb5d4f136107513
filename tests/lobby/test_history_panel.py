"""The hand history panel of the table page: lobby:my_hands_json (the player's own last hands)."""

import pytest

from games.rng import SeededRng
from lobby import door
from lobby.models import Seat
from tests.lobby.factories import poker_table
from tests.lobby.helpers import credit, play_hand_randomly, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


def test_history_lists_the_players_own_hands_with_his_result(client):
    table = poker_table()
    anna, bruno = funded_player(), funded_player()
    seat_players(table, [anna, bruno], buy_in=10_000)
    outsider = funded_player()
    assert door.table_start_hand(table_id=table.pk)
    play_hand_randomly(table, SeededRng(7))

    client.force_login(anna)
    hands = client.get("/lobby/le-mie-mani.json").json()["hands"]
    assert len(hands) == 1
    (row,) = hands
    assert row["number"] == 1 and row["table"] == table.name and row["game"] == "poker5"
    assert row["url"] == f"/lobby/le-mie-mani/{row['id']}/"
    assert client.get(row["url"]).status_code == 200
    # What the hand meant for her: her table credit now less what she brought.
    assert row["delta"] == credit(Seat.objects.get(table=table, user=anna)) - 10_000

    client.force_login(outsider)
    assert client.get("/lobby/le-mie-mani.json").json() == {"hands": []}
    client.force_login(bruno)
    assert client.get(row["url"]).status_code == 200
    assert client.get("/lobby/le-mie-mani.json").json()["hands"][0]["id"] == row["id"]


def test_history_needs_a_login(client):
    response = client.get("/lobby/le-mie-mani.json")
    assert response.status_code == 302
