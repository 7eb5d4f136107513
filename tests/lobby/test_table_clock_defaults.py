"""Each game's own tempo giocata: Burraco and Scala 40 (a turn of an 11–15 card hand, and a dropped
player's time to come back) get 90 s unless staff set another; the other games keep 30 s."""

import importlib

import pytest
from django.apps import apps

from games import registry
from lobby import door
from lobby.models import Table, TableTemplate
from piattaforma import roles
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db

STAKES = {"posta_partita": 100, "posta_unitaria": 10, "perdita_massima": 2_000, "rake_bp": 500}


def cash_table(game: str, **fields) -> Table:
    engine = registry.get(game)
    stakes = STAKES if engine.family == "partite" else {}
    return door.table_create(
        name=f"Tavolo {game}", game=game, seats=2, min_buy_in=2_000, max_buy_in=10_000, **stakes, **fields
    )


@pytest.mark.parametrize(
    ("game", "seconds"), [("burraco", 90), ("scala40", 90), ("scopa", 30), ("poker5", 30)]
)
def test_a_new_table_takes_its_games_tempo_giocata(game, seconds):
    assert cash_table(game).tempo_giocata == seconds
    assert cash_table(game, tempo_giocata=45).tempo_giocata == 45  # staff's choice stays


def test_the_back_office_form_left_empty_gives_the_games_time(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    form = {
        "name": "Burraco Milano",
        "game": "burraco",
        "config": "{}",
        "realm": "real",
        "seats": 2,
        "min_players": 2,
        "min_buy_in": "20,00",
        "max_buy_in": "100,00",
        "rake_bp": "5",
        "rake_cap": "0",
        "posta_partita": "1,00",
        "posta_unitaria": "0,10",
        "perdita_massima": "20,00",
        "tempo_giocata": "",
        "tempo_partita": 0,
        "time_bank": 0,
        "is_open": "on",
        "seat_rows-TOTAL_FORMS": 0,
        "seat_rows-INITIAL_FORMS": 0,
    }
    page = client.get("/backoffice/lobby/table/add/").content.decode()
    assert "Burraco 90 s" in page  # the help says what an empty field gives
    response = client.post("/backoffice/lobby/table/add/", form)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Table.objects.get().tempo_giocata == 90
    chosen = {**form, "name": "Burraco Roma", "tempo_giocata": 40}
    response = client.post("/backoffice/lobby/table/add/", chosen)
    assert response.status_code == 302
    assert Table.objects.get(name="Burraco Roma").tempo_giocata == 40


def test_the_migration_lengthens_only_the_old_default_at_rummy_tables():
    burraco = cash_table("burraco", tempo_giocata=30)
    chosen = cash_table("scala40", tempo_giocata=45)
    scopa = cash_table("scopa", tempo_giocata=30)
    template = TableTemplate.objects.create(
        name="Scala 40", table_name="Scala", game="scala40", seats=2, min_buy_in=2_000, max_buy_in=10_000
    )
    assert template.tempo_giocata == 30
    migration = importlib.import_module("lobby.migrations.0010_rummy_tempo_giocata")
    migration.rummy_take_their_time(apps, None)
    for row, seconds in ((burraco, 90), (chosen, 45), (scopa, 30), (template, 90)):
        row.refresh_from_db()
        assert row.tempo_giocata == seconds, row


def test_the_table_page_names_the_time_bank_in_italian(client):
    """The rules' "time bank" reads "riserva di tempo" at the table (its tooltip names the rules'
    term); in English it is "time bank"."""
    table = cash_table("poker5", time_bank=20)
    client.force_login(UserFactory())
    page = client.get(f"/lobby/tavolo/{table.pk}/").content.decode()
    assert "30 s + " in page and "20 s di riserva di tempo" in page
    assert "s time bank" not in page
    english = client.get(f"/lobby/tavolo/{table.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "20 s time bank" in english
