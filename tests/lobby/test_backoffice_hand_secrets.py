"""The back office shows a hand's secrets (every seat's cards, deck orders, RNG draws, carry) only
once they are over: never of a hand in progress, nor of an ended chemin de fer coup whose sabot
is still being dealt."""

from __future__ import annotations

import pytest

from games.rng import SeededRng
from lobby import door, selectors
from lobby.models import Hand, TableRuntime
from piattaforma import roles
from tests.lobby.factories import poker_table
from tests.lobby.helpers import play_hand_randomly, runtime, seat_players
from tests.lobby.test_replay import played_hand
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db

SECRET_LABELS = ("Estrazioni della distribuzione", "Ordine dei mazzi", "Riporto dalla mano precedente")


def live_hand():
    table = poker_table()
    seat_players(table, [funded_player(), funded_player()])
    door.table_start_hand(table_id=table.pk)
    assert runtime(table).state is not None
    return table, Hand.objects.get(table=table, ended_at__isnull=True)


def test_a_hand_in_progress_has_no_staff_replay_and_its_change_page_no_deck(client):
    table, hand = live_hand()
    sign_in(client, UserFactory(role=roles.STAFF))
    res = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json")
    body = res.content.decode()
    assert res.status_code == 409 and res.json()["code"] == "hand_not_ended"
    assert "frames" not in body and "deck_log" not in body and "start_draws" not in body
    page = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/", follow=True).content.decode()
    assert "La mano è in corso" in page and 'data-viewer="staff"' not in page
    change = client.get(f"/backoffice/lobby/hand/{hand.pk}/change/").content.decode()
    assert all(label not in change for label in SECRET_LABELS)
    assert all(f"field-{name}" not in change for name in ("start_draws", "deck_log", "carry_in"))
    assert "field-table" in change  # the page itself is shown
    listing = client.get("/backoffice/lobby/hand/").content.decode()
    assert f"/backoffice/lobby/hand/{hand.pk}/replay/" not in listing

    play_hand_randomly(table, SeededRng(1))  # ended: everything may be seen
    hand.refresh_from_db()
    assert hand.ended_at is not None
    assert client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").status_code == 200
    change = client.get(f"/backoffice/lobby/hand/{hand.pk}/change/").content.decode()
    assert all(label in change for label in SECRET_LABELS) and "field-deck_log" in change


def test_an_ended_chemin_coup_stays_secret_while_its_sabot_is_dealt(client):
    hand, _ = played_hand("chemin", seed=5)
    assert Hand.objects.filter(table=hand.table, number__gt=hand.number).count() == 0
    carry = TableRuntime.objects.get(table=hand.table).carry
    assert carry["shoe"] and not carry["reshuffle"]  # the next coup deals on from this sabot
    sign_in(client, UserFactory(role=roles.STAFF))
    assert selectors.hand_secrets_open(hand) is False
    res = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json")
    assert res.status_code == 409 and "deck_log" not in res.content.decode()
    change = client.get(f"/backoffice/lobby/hand/{hand.pk}/change/").content.decode()
    assert all(label not in change for label in SECRET_LABELS)
    # the taglia ends: the next deal reshuffles the sabot, the coup's orders predict nothing more
    TableRuntime.objects.filter(table=hand.table).update(carry={**carry, "reshuffle": True})
    assert client.get(f"/backoffice/lobby/hand/{hand.pk}/replay.json").status_code == 200


def test_other_games_open_their_ended_hands_at_once():
    hand, _ = played_hand("poker5")
    assert selectors.hand_secrets_open(hand) is True
