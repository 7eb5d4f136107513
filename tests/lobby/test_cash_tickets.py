"""The regulator's ticket of a cash table's buy-in and rebuy (rules 004, "Rebuy": "Effettuato il
versamento al giocatore comparirà il biglietto AAMS relativo alla transazione effettuata").

The player's own routes (the table page's forms and the felt's top-up) ask the regulator through
``lobby.door.table_sit_paid`` / ``table_rebuy_paid``: an authorised payment keeps the ticket on its
ledger transaction and shows it at the table and in the conto's movements; a refusal or no answer
moves nothing and says so in Italian.
"""

from __future__ import annotations

import pytest

from lobby import door, tickets
from lobby.errors import AlreadySeated, SeatTaken
from lobby.models import Seat
from piattaforma import regulator
from tests.lobby.factories import poker_table
from tests.lobby.helpers import credit, everyone_puts_the_invito, key, seat_players
from tests.wallet.factories import funded_player
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors
from wallet.models import Hold, Transaction, TransactionKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def accept(settings):
    settings.REGULATOR = {"delay": 0}


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def test_a_buy_in_carries_the_regulators_ticket_to_the_table_and_the_statement(client, accept):
    player = funded_player(50_000)
    table = poker_table()
    client.force_login(player)
    page = client.post(
        f"/lobby/tavolo/{table.pk}/siediti/",
        {"seat": "1", "buy_in": "100,00", "idempotency_key": "sit-1"},
        follow=True,
    )
    tx = Transaction.objects.get(kind=TransactionKind.BUY_IN)
    ticket = tx.data["ticket"]
    assert ticket.startswith("ADM") and len(ticket) == 19
    assert any(f"Biglietto AAMS n. {ticket}" in m for m in messages_of(page))
    assert Seat.objects.get(table=table, user=player).number == 1
    statement = client.get("/conto/movimenti/")
    assert f"Biglietto AAMS n. {ticket}" in statement.content.decode()
    api = client.get("/conto/api/movimenti/").json()
    assert [row["ticket"] for row in api["results"] if row["kind"] == "buy_in"] == [ticket]


def test_a_rebuy_between_hands_and_one_during_a_hand_keep_their_tickets(client, accept):
    users = [funded_player() for _ in range(2)]
    table = poker_table()
    seats = seat_players(table, users, buy_in=5_000)
    client.force_login(users[0])
    answer = client.post(
        f"/lobby/tavolo/{table.pk}/ricarica/",
        {"amount": "10,00", "idempotency_key": "rebuy-1"},
        HTTP_ACCEPT="application/json",
    ).json()
    (posted,) = Transaction.objects.filter(kind=TransactionKind.REBUY)
    assert answer["status"] == "posted" and f"Biglietto AAMS n. {posted.data['ticket']}" in answer["message"]
    assert credit(seats[0]) == 6_000
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    answer = client.post(
        f"/lobby/tavolo/{table.pk}/ricarica/",
        {"amount": "20,00", "idempotency_key": "rebuy-2"},
        HTTP_ACCEPT="application/json",
    ).json()
    hold = Hold.objects.get(purpose=Hold.Purpose.REBUY)
    assert answer["status"] == "pending" and hold.ticket and hold.ticket in answer["message"]
    assert hold.ticket != posted.data["ticket"]
    wallet_actions.table_rebuys_credit(table_session_refs=[seats[0].session_ref])
    hold.refresh_from_db()
    assert hold.transaction.data["ticket"] == hold.ticket  # the hand's end posts it with its ticket


@pytest.mark.parametrize(
    "mode,code,words",
    [
        ("refuse", "payment_refused", "non ha autorizzato"),
        ("timeout", "payment_unanswered", "non ha risposto"),
    ],
)
def test_a_refused_or_unanswered_payment_moves_no_money(client, settings, mode, code, words):
    player = funded_player(50_000)
    other = funded_player(50_000)
    table = poker_table()
    (seat,) = seat_players(table, [other])
    settings.REGULATOR = {"delay": 0, "mode": mode}
    client.force_login(player)
    page = client.post(f"/lobby/tavolo/{table.pk}/siediti/", {"seat": "2", "buy_in": "100,00"}, follow=True)
    assert any(words in m and "nessun importo è stato addebitato" in m for m in messages_of(page))
    assert not Seat.objects.filter(user=player).exists()
    assert wallet_selectors.balance_get(user=player)["cash"] == 50_000
    client.force_login(other)
    answer = client.post(
        f"/lobby/tavolo/{table.pk}/ricarica/", {"amount": "10,00"}, HTTP_ACCEPT="application/json"
    )
    assert answer.status_code == 400 and answer.json()["code"] == code
    assert credit(seat) == 10_000 and wallet_selectors.balance_get(user=other)["cash"] == 40_000


def test_a_buy_in_out_of_range_is_refused_before_the_regulator_is_asked(client, settings):
    settings.REGULATOR = {"delay": 0, "mode": "timeout"}  # asking it would answer "no answer"
    player = funded_player(50_000)
    table = poker_table()
    client.force_login(player)
    page = client.post(f"/lobby/tavolo/{table.pk}/siediti/", {"seat": "1", "buy_in": "900,00"}, follow=True)
    assert any("limiti di versamento" in m for m in messages_of(page))
    assert wallet_selectors.balance_get(user=player)["cash"] == 50_000


class Recorder(regulator.SimulatedRegulator):
    voided: list[str] = []

    def void_table_payment(self, *, request_id: str, ticket: str) -> regulator.Decision:
        Recorder.voided.append(ticket)
        return super().void_table_payment(request_id=request_id, ticket=ticket)


def test_a_sit_the_table_refuses_withdraws_its_ticket_but_a_repeated_one_keeps_it(settings):
    settings.REGULATOR = {"backend": "tests.lobby.test_cash_tickets.Recorder", "delay": 0}
    Recorder.voided = []
    first, second = funded_player(50_000), funded_player(50_000)
    table = poker_table()
    _seat, ticket = door.table_sit_paid(
        table_id=table.pk, user=first, seat_no=1, buy_in=10_000, idempotency_key="same"
    )
    with pytest.raises(AlreadySeated):  # the same request again: already seated, its ticket stays
        door.table_sit_paid(table_id=table.pk, user=first, seat_no=1, buy_in=10_000, idempotency_key="same")
    with pytest.raises(SeatTaken):  # the seat is taken: the regulator's ticket is withdrawn
        door.table_sit_paid(table_id=table.pk, user=second, seat_no=1, buy_in=10_000, idempotency_key=key())
    assert len(Recorder.voided) == 1 and Recorder.voided[0] != ticket
    assert wallet_selectors.ticket_used(ticket=ticket) and not wallet_selectors.ticket_used(
        ticket=Recorder.voided[0]
    )
    assert wallet_selectors.balance_get(user=second)["cash"] == 50_000


def test_training_tables_ask_the_regulator_nothing(settings):
    settings.REGULATOR = {"delay": 0, "mode": "refuse"}
    player = funded_player(0)
    wallet_actions.play_money_top_up(user=player, amount=10_000, idempotency_key=key("gettoni"))
    table = poker_table(realm="play")
    seat, ticket = door.table_sit_paid(
        table_id=table.pk, user=player, seat_no=1, buy_in=5_000, idempotency_key=key()
    )
    assert ticket == "" and credit(seat, realm="play") == 5_000
    assert (
        tickets.payment_authorise(table=table, user=player, amount=1, kind=tickets.REBUY, request_id="x")
        == ""
    )
