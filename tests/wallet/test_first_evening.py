"""The money trail a player follows: each movement of his statement names (and links) the table or
the tournament it came from."""

from __future__ import annotations

import pytest
from django.urls import reverse

from piattaforma import roles
from tests.lobby.factories import scopa_table
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.factories import make_tournament
from tests.wallet.factories import funded_player
from wallet import actions

pytestmark = pytest.mark.django_db


def test_the_statement_names_the_table_and_the_tournament(client):
    player = funded_player(50_00)
    table = scopa_table(name="Tavolo Golfo")
    session = f"{table.pk}-1-abcdef012345"
    actions.table_buy_in(
        user=player,
        table_session_ref=session,
        amount=10_00,
        min_amount=1_00,
        max_amount=50_00,
        idempotency_key="buy-1",
    )
    actions.table_cash_out(table_session_ref=session, idempotency_key="out-1")
    tournament = make_tournament(UserFactory(role=roles.STAFF), name="Coppa Settebello")
    actions.tournament_enter(
        user=player,
        tournament_ref=tournament.ledger_ref,
        pool_quota=9_00,
        rake=1_00,
        idempotency_key="t-1",
    )
    sign_in(client, player)
    html = client.get(reverse("wallet:statement")).content.decode()
    table_link = f'<a href="{reverse("lobby:table", args=[table.pk])}">Tavolo Golfo</a>'
    tournament_link = f'<a href="{reverse("tournaments:lobby", args=[tournament.pk])}">Coppa Settebello</a>'
    assert html.count(table_link) == 2  # the buy-in and the cash-out
    assert html.count(tournament_link) == 1


def test_the_statement_api_names_the_table(client):
    player = funded_player(50_00)
    table = scopa_table(name="Tavolo Golfo")
    actions.table_buy_in(
        user=player,
        table_session_ref=f"{table.pk}-2-abcdef012345",
        amount=10_00,
        min_amount=1_00,
        max_amount=50_00,
        idempotency_key="buy-2",
    )
    sign_in(client, player)
    results = client.get(reverse("wallet:api_statement")).json()["results"]
    assert [r["source"] for r in results] == [
        {"name": "Tavolo Golfo", "url": reverse("lobby:table", args=[table.pk])},
        None,  # the deposit
    ]
