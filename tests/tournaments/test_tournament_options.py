"""A tournament's game options (the engine's own, ``Engine.config_options``): checked by the engine
when staff create the tournament (action and back office), played at every table of the tournament,
shown in the information panel and in the list's description."""

from __future__ import annotations

import pytest
from django.urls import reverse

from piattaforma import roles
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.factories import make_tournament
from tests.tournaments.running_helpers import full_tournament, open_tables
from tests.tournaments.test_backoffice import add_form
from tournaments import errors
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game", "options", "said"),
    [
        ("tresette", {"a_perdere": True, "accuso": True}, "nel tresette a perdere non sono previsti"),
        ("scopa", {"spareggi": 5}, "Spareggi (spareggi): valore non ammesso"),
        ("scopa", {"carte_scoperte": True}, "le carte scoperte sono solo per le partite a coppie"),
        ("scopa", {"primiera_vale": 3}, "Opzione del tavolo sconosciuta per questo gioco (primiera_vale)"),
        ("scopa", {"deals": 5}, "deals: lo stabilisce la struttura del torneo"),
        ("tresette", {"torneo": False}, "torneo: lo stabilisce la struttura del torneo"),
        ("tresette", {"cappotto": True}, "il cappotto non si applica mai nei tornei"),
        ("scopa", ["carte_viste"], "Le opzioni del gioco sono un oggetto JSON"),
        ("scopa", {"vp_table": [{"mp": 1, "vp": [20, 0]}]}, "con una riga per lo scarto 0"),
        ("scopa", {"vp_table": [[0, 10, 10]]}, "Tabella dei VP a scaglioni"),
    ],
)
def test_invalid_options_are_refused_with_the_engines_reason(staff, game, options, said):
    with pytest.raises(errors.InvalidTournament) as caught:
        make_tournament(staff, game=game, options=options)
    assert caught.value.code == "invalid_tournament"
    assert said in caught.value.message and "options" in caught.value.details["fields"]
    assert not Tournament.objects.exists()


def test_valid_options_reach_every_table_of_the_tournament(staff):
    t, _players = full_tournament(staff, 4, game="tresette", options={"a_perdere": True})
    tables = open_tables(t)
    assert len(tables) == 2
    for table in tables:
        assert table.config["a_perdere"] is True  # the option…
        assert table.config["mode"] == "smazzate" and table.config["deals"] == 1  # …with the structure
        assert table.config["on_timeout"] == "forfeit"
        assert table.config["torneo"] is True  # Tresette's tournament table: never a cappotto


def test_graded_vp_and_visible_cards_reach_the_tables(staff):
    grades = [{"mp": 0, "vp": [10, 10]}, {"mp": 1, "vp": [15, 5]}, {"mp": 40, "vp": [20, 0]}]
    t, _players = full_tournament(
        staff, 8, lines="random_pairs", table="4", options={"carte_viste": True, "vp_table": grades}
    )
    for table in open_tables(t):
        assert table.config["carte_viste"] is True and table.config["vp_table"] == grades
        assert table.config["format"] == "coppie"


def test_the_panel_and_the_list_show_the_options(client, staff):
    t = make_tournament(staff, name="Tresette a perdere", game="tresette", options={"a_perdere": True})
    info = client.get(reverse("tournaments:list") + f"?t={t.pk}").content.decode()
    assert 'data-testid="game-options"' in info and "Tresette a perdere: sì" in info
    assert 'data-testid="row-options"' in info
    lobby = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Tresette a perdere: sì" in lobby


def test_the_back_office_refuses_invalid_options_and_stores_valid_ones(client):
    staff = UserFactory(role=roles.STAFF)
    sign_in(client, staff)
    url = reverse("backoffice:tournaments_tournament_add")
    form = add_form(game="tresette", smazzate="1")
    response = client.post(url, {**form, "options": '{"a_perdere": true, "accuso": true}'})
    assert response.status_code == 200
    assert "nel tresette a perdere non sono previsti" in response.content.decode()
    assert not Tournament.objects.exists()
    response = client.post(url, {**form, "options": '{"a_perdere": true}'})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get().options == {"a_perdere": True}
