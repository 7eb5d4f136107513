"""A player's money result of each hand or match, read from the ledger: "Le mie mani" and the
table's history panel show it (a partita's result is money, not its points)."""

import pytest
from django.urls import reverse

from games.rng import SeededRng
from lobby import door, selectors
from lobby.models import Seat
from tests.lobby.factories import scopa_table
from tests.lobby.helpers import credit, play_hand_randomly, runtime, seat_players
from tests.wallet.factories import funded_player
from wallet.templatetags.wallet_money import euro_signed

pytestmark = pytest.mark.django_db


def test_a_matchs_money_result_is_listed_per_hand(client):
    users = [funded_player() for _ in range(2)]
    table = scopa_table(name="Tavolo Vesuvio")
    seat_players(table, users, buy_in=5_000)
    door.table_start_hand(table_id=table.pk)
    door.table_ready(table_id=table.pk, user=users[0])
    assert door.table_ready(table_id=table.pk, user=users[1])
    play_hand_randomly(table, SeededRng(1), max_steps=3000)
    results = {u.pk: credit(Seat.objects.get(table=table, user=u)) - 5_000 for u in users}
    assert any(results.values()), "this match moved no money: pick another seed"
    for user in users:
        client.force_login(user)
        (row,) = client.get(reverse("lobby:my_hands_json")).json()["hands"]
        assert row["delta"] == results[user.pk]  # money (cents), not the match's points
        html = client.get(reverse("lobby:my_hands")).content.decode()
        assert f'data-testid="hand-result">{euro_signed(results[user.pk])}' in html
    # the table, as the match ends, tells each seat what it moved (the felt shows the viewer's)
    seats = list(Seat.objects.filter(table=table).order_by("number"))
    waiting = selectors.table_waiting(runtime(table), seats, "partite")
    assert {row["number"]: row["result"] for row in waiting["seats"]} == {
        s.number: results[s.user_id] for s in seats
    }


def test_a_training_matchs_result_is_listed_in_gettoni(client):
    users = [funded_player() for _ in range(2)]
    table = scopa_table(name="Tavolo Allenamento", realm="play", rake_bp=0)
    from wallet import actions as wallet_actions

    for user in users:
        wallet_actions.play_money_top_up(user=user, amount=10_000, idempotency_key=f"p{user.pk}")
    seat_players(table, users, buy_in=5_000)
    door.table_ready(table_id=table.pk, user=users[0])
    assert door.table_ready(table_id=table.pk, user=users[1])
    play_hand_randomly(table, SeededRng(1), max_steps=3000)
    client.force_login(users[0])
    html = client.get(reverse("lobby:my_hands")).content.decode()
    cell = html.split('data-testid="hand-result">')[1].split("</td>")[0]
    assert "gettoni" in cell and "€" not in cell, cell
