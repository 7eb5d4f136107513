"""The regulator's tickets of the player's cash-table buy-ins and rebuys on his profile page
(rules 004, "Rebuy": the AAMS ticket of each payment is shown to the player)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from lobby import door
from piattaforma import roles
from tests.lobby.factories import poker_table
from tests.lobby.helpers import everyone_puts_the_invito, seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.wallet.factories import funded_player
from wallet.models import Hold, Transaction, TransactionKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def accept(settings):
    settings.REGULATOR = {"delay": 0}


def tickets_section(client) -> str:
    html = client.get(reverse("profile")).content.decode()
    return html.split('data-testid="my-tickets"')[1].split("</section>")[0]


def test_the_profile_lists_his_buy_in_and_rebuy_tickets_newest_first(client, accept):
    player, other = funded_player(50_000), funded_player(50_000)
    table = poker_table(name="Poker Centrale")
    client.force_login(player)
    client.post(
        f"/lobby/tavolo/{table.pk}/siediti/", {"seat": "1", "buy_in": "100,00", "idempotency_key": "s1"}
    )
    client.post(f"/lobby/tavolo/{table.pk}/ricarica/", {"amount": "10,00", "idempotency_key": "r1"})
    buy_in = Transaction.objects.get(kind=TransactionKind.BUY_IN).data["ticket"]
    rebuy = Transaction.objects.get(kind=TransactionKind.REBUY).data["ticket"]
    seat_players(table, [other], seat_offset=1)
    door.table_start_hand(table_id=table.pk)
    everyone_puts_the_invito(table)
    client.post(f"/lobby/tavolo/{table.pk}/ricarica/", {"amount": "20,00", "idempotency_key": "r2"})
    held = Hold.objects.get(purpose=Hold.Purpose.REBUY).ticket
    section = tickets_section(client)
    assert section.index(held) < section.index(rebuy) < section.index(buy_in)
    assert "Ingresso al tavolo" in section and "Ricarica al tavolo" in section and "Poker Centrale" in section
    assert "alla fine della mano in corso" in section  # the held rebuy waits for the hand's end
    assert "€ 100,00" in section and "€ 10,00" in section and "€ 20,00" in section
    client.force_login(other)  # seated without the regulator (the test helper): nothing of another's
    other_section = tickets_section(client)
    assert buy_in not in other_section and "Nessun ingresso" in other_section


def test_no_payment_no_ticket_and_moderators_see_no_money(client, accept):
    player = funded_player(50_000)
    client.force_login(player)
    assert "Nessun ingresso a un tavolo cash." in tickets_section(client)
    sign_in(client, UserFactory(role=roles.MODERATORS))
    assert 'data-testid="my-tickets"' not in client.get(reverse("profile")).content.decode()
