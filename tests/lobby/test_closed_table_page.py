"""A closed table's page, reloaded: no 404 but a page that says the table is closed and where to
go, the tournament's results for a tournament's table, the tables for a cash one."""

from __future__ import annotations

import pytest

from games.rng import SeededRng
from lobby import door
from piattaforma import roles
from tests.lobby.factories import scopa_table
from tests.piattaforma.factories import UserFactory
from tests.tournaments.running_helpers import full_tournament, open_tables, play_turn

pytestmark = pytest.mark.django_db


def test_a_finished_tournament_tables_page_links_to_the_tournament(client):
    t, players = full_tournament(UserFactory(role=roles.STAFF), 2, turns=1)
    (table,) = open_tables(t)
    client.force_login(players[0])
    assert client.get(f"/lobby/tavolo/{table.pk}/").status_code == 200  # live: the table itself
    play_turn(t, SeededRng(5))
    table.refresh_from_db()
    assert not table.is_open
    page = client.get(f"/lobby/tavolo/{table.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "Questo tavolo del torneo è chiuso" in html and f'href="/tornei/{t.pk}/"' in html
    assert 'id="table"' not in html  # no live table to connect to


def test_a_closed_cash_tables_page_leads_back_to_its_tables(client):
    staff = UserFactory(role=roles.STAFF)
    money, training = scopa_table(), scopa_table(realm="play", name="Scopa Gettoni")
    for table in (money, training):
        door.table_close(table_id=table.pk, actor=staff, reason="Manutenzione")
    client.force_login(UserFactory())
    html = client.get(f"/lobby/tavolo/{money.pk}/").content.decode()
    assert "Questo tavolo è chiuso." in html and 'href="/lobby/"' in html
    html = client.get(f"/lobby/tavolo/{training.pk}/").content.decode()
    assert 'href="/lobby/allenamento/"' in html
    assert client.get("/lobby/tavolo/999999/").status_code == 404  # a table that never was
