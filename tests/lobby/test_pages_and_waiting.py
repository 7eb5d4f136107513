"""Lobby and table pages, sitting and leaving through them, the waiting list."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from lobby import door, sweeps
from lobby.errors import SeatTaken
from lobby.models import Hand, Seat, WaitingEntry
from tests.lobby.factories import poker_table
from tests.lobby.helpers import key, seat_players
from tests.wallet.factories import funded_player
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


def test_lobby_lists_tables_with_live_counts(client):
    table = poker_table(name="Tavolo Firenze")
    seat_players(table, [funded_player()])
    page = client.get("/lobby/")
    assert page.status_code == 200 and "Tavolo Firenze" in page.content.decode()
    data = client.get("/lobby/tavoli.json").json()
    row = next(t for t in data["tables"] if t["id"] == table.pk)
    assert row["seated"] == 1 and row["seats"] == 4 and row["title"] == "Poker 5 carte all'italiana"
    assert row["stakes"] == "Invito € 1,00 · PL" and "Invito € 1,00 · PL" in page.content.decode()


def test_sit_and_leave_through_the_table_page(client):
    user = funded_player()
    table = poker_table()
    client.force_login(user)
    assert client.get(f"/lobby/tavolo/{table.pk}/").status_code == 200
    client.post(f"/lobby/tavolo/{table.pk}/siediti/", {"seat": 2, "buy_in": "50,00"})
    seat = Seat.objects.get(table=table, user=user)
    assert seat.number == 2
    assert wallet_selectors.balance_get(user=user)["cash"] == 100_000 - 5_000
    client.post(f"/lobby/tavolo/{table.pk}/lascia/")
    assert not Seat.objects.filter(table=table, user=user).exists()
    assert wallet_selectors.balance_get(user=user)["cash"] == 100_000


def test_the_table_page_leads_a_viewer_who_is_not_seated_down_to_its_form(client):
    """A phone shows the felt first and the seat's form below the chat: a link under the felt leads
    there (``#join``), worded for what the form offers; a seated player has no such link."""
    user = funded_player()
    table = poker_table(seats=2)
    client.force_login(user)

    def jump() -> str | None:
        html = client.get(f"/lobby/tavolo/{table.pk}/").content.decode()
        link = re.search(r'<a [^>]*href="#join" data-testid="join-jump">([^<]*)</a>', html)
        if link is not None:  # the form it leads to is on the page
            assert len(re.findall(r'<form [^>]*id="join"', html)) == 1
        return link.group(1) if link else None

    assert jump() == "Siediti a questo tavolo"
    seat_players(table, [funded_player(), funded_player()])  # full: the waiting list
    assert jump() == "Mettiti in lista d'attesa"
    door.waiting_join(table_id=table.pk, user=user)
    assert jump() == "Sei in lista d'attesa."
    door.waiting_leave(table_id=table.pk, user=user)
    door.table_leave(table_id=table.pk, user=Seat.objects.get(table=table, number=1).user)
    client.post(f"/lobby/tavolo/{table.pk}/siediti/", {"seat": 1, "buy_in": "50,00"})
    assert Seat.objects.filter(table=table, user=user).exists()
    assert jump() is None  # seated: the credit's forms, no way to sit


@pytest.mark.parametrize("buy_in", ["", "abc", "-5", "500,00", "1,00"])
def test_bad_buy_in_is_refused_in_italian_and_moves_nothing(client, buy_in):
    user = funded_player()
    table = poker_table()
    client.force_login(user)
    response = client.post(f"/lobby/tavolo/{table.pk}/siediti/", {"seat": 1, "buy_in": buy_in}, follow=True)
    assert response.status_code == 200
    assert not Seat.objects.filter(table=table).exists()
    assert wallet_selectors.balance_get(user=user)["cash"] == 100_000
    assert any(m.level_tag == "error" for m in response.context["messages"])


def test_waiting_list_offers_a_freed_seat_for_one_minute():
    table = poker_table(seats=2)
    sitters = [funded_player() for _ in range(2)]
    seat_players(table, sitters)
    first, second = funded_player(), funded_player()
    door.waiting_join(table_id=table.pk, user=first)
    door.waiting_join(table_id=table.pk, user=second)
    door.table_leave(table_id=table.pk, user=sitters[0])  # no hand running: leaves at once
    offer = WaitingEntry.objects.get(user=first)
    assert offer.offered_seat == 1
    with pytest.raises(SeatTaken):  # reserved for the first in line
        door.table_sit(table_id=table.pk, user=second, seat_no=1, buy_in=5_000, idempotency_key=key())
    # the minute passes: the seat is offered to the next in line
    WaitingEntry.objects.filter(pk=offer.pk).update(offer_expires_at=timezone.now() - timedelta(seconds=1))
    assert sweeps.waiting_offers_sweep() == 1
    assert not WaitingEntry.objects.filter(user=first).exists()
    assert WaitingEntry.objects.get(user=second).offered_seat == 1
    door.table_sit(table_id=table.pk, user=second, seat_no=1, buy_in=5_000, idempotency_key=key())
    assert not WaitingEntry.objects.filter(table=table).exists()


def test_sitout_players_are_stood_up_after_ten_minutes_with_their_credit():
    """RULINGS P15: a poker player sitout for 10 minutes is stood up; the credit goes to the conto."""
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    door.table_sitout(table_id=table.pk, user=users[2], sitout=True)
    assert sweeps.tables_sweep_sitouts() == 0  # not yet
    Seat.objects.filter(user=users[2]).update(sitout_since=timezone.now() - timedelta(minutes=10, seconds=1))
    assert sweeps.tables_sweep_sitouts() == 1
    assert not Seat.objects.filter(user=users[2]).exists()
    assert wallet_selectors.balance_get(user=users[2])["cash"] == 100_000


def test_rebuy_during_a_hand_is_credited_after_it(client):
    from games.rng import SeededRng
    from tests.lobby.helpers import credit, everyone_puts_the_invito, play_hand_randomly

    users = [funded_player() for _ in range(2)]
    table = poker_table()
    seats = seat_players(table, users, buy_in=5_000)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    client.force_login(users[0])
    client.post(f"/lobby/tavolo/{table.pk}/ricarica/", {"amount": "20,00"})
    assert credit(seats[0]) == 5_000  # not yet: the hand is running
    play_hand_randomly(table, SeededRng(21))
    outcome_chips = Hand.objects.get(table=table, number=1).outcome["chips"][str(seats[0].number)]
    assert credit(seats[0]) == outcome_chips + 2_000
    client.post(f"/lobby/tavolo/{table.pk}/ricarica/", {"amount": "500,00"})  # above the table's maximum
    assert credit(seats[0]) == outcome_chips + 2_000


def test_a_player_sees_his_own_last_hands_and_nothing_hidden_of_others(client):
    import json as _json

    from games.rng import SeededRng
    from tests.lobby.helpers import everyone_puts_the_invito, play_hand_randomly

    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    play_hand_randomly(table, SeededRng(12))
    hand = Hand.objects.get(table=table, number=1)
    client.force_login(users[0])
    listing = client.get("/lobby/le-mie-mani/")
    assert listing.status_code == 200 and f"/lobby/le-mie-mani/{hand.pk}/" in listing.content.decode()
    detail = client.get(f"/lobby/le-mie-mani/{hand.pk}/")
    assert (
        detail.status_code == 200 and f"/lobby/le-mie-mani/{hand.pk}/replay.json" in detail.content.decode()
    )
    replay = client.get(f"/lobby/le-mie-mani/{hand.pk}/replay.json").json()
    view = replay["frames"][-1]["view"]
    from games import registry
    from lobby.replay import replay_hand

    final = replay_hand(hand)[-1]
    my_seat = next(s["seat"] for s in hand.seats if s["user_id"] == users[0].pk)
    expected = registry.get("poker5").view(final, my_seat)
    expected.pop("legal", None)
    assert view == expected
    shown = set(final.get("shown", {}))
    text = _json.dumps(replay)
    for other, cards in final["hands"].items():
        if int(other) != my_seat and other not in shown:
            assert not any(f'"{c}"' in text for c in cards)
    stranger = funded_player()
    client.force_login(stranger)
    assert client.get(f"/lobby/le-mie-mani/{hand.pk}/").status_code == 404


def test_a_page_whose_table_owner_does_not_answer_says_to_try_again_and_changes_nothing(
    client, monkeypatch, settings
):
    """Owner runtime: the table's lease names another process whose inbox nobody reads (it hangs,
    or it just died). "Lascia il tavolo" is refused whole, in words fit for a form, not a socket's."""
    from lobby.models import TableLease
    from lobby.runtime import remote

    monkeypatch.setattr(remote, "REQUEST_SECONDS", 0.2)
    user = funded_player()
    table = poker_table()
    seat_players(table, [user], buy_in=5_000)
    TableLease.objects.create(
        table=table,
        process="altro-server:1:dead",
        channel="owner-inbox.nobody-reads",
        expires_at=timezone.now() + timedelta(seconds=30),
    )
    client.force_login(user)
    page = client.post(f"/lobby/tavolo/{table.pk}/lascia/", follow=True)
    assert "Il tavolo sta passando a un altro server: riprova tra qualche secondo" in page.content.decode()
    assert Seat.objects.filter(table=table, user=user).exists()
    assert wallet_selectors.balance_get(user=user)["cash"] == 100_000 - 5_000
