"""A tournament's tempo giocata is its game's own unless staff chose one (Burraco and Scala 40: 90 s,
the rules' "tempi giocata sempre relativamente lunghi"), and its match tables run on it."""

import importlib

import pytest
from django.apps import apps
from django.urls import reverse

from piattaforma import roles
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.factories import make_tournament
from tests.tournaments.running_helpers import full_tournament, open_tables
from tests.tournaments.test_backoffice import add_form
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game", "seconds"), [("burraco", 90), ("scala40", 90), ("scopa", 30), ("briscola", 30)]
)
def test_a_match_table_runs_on_its_games_tempo_giocata(staff, game, seconds):
    t, _players = full_tournament(staff, 2, game=game)
    assert t.tempo_giocata == seconds
    tables = open_tables(t)
    assert tables and {table.tempo_giocata for table in tables} == {seconds}


def test_a_tempo_giocata_staff_chose_stays_and_reaches_the_tables(staff):
    t, _players = full_tournament(staff, 2, game="scala40", tempo_giocata=45)
    assert {table.tempo_giocata for table in open_tables(t)} == {45}


def test_the_back_office_form_left_empty_gives_the_games_time(client):
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get(reverse("backoffice:tournaments_tournament_add")).content.decode()
    assert "Burraco 90 s" in page  # the help says what an empty field gives
    response = client.post(reverse("backoffice:tournaments_tournament_add"), add_form(tempo_giocata=""))
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Tournament.objects.get().tempo_giocata == 90  # the form's game is Scala 40
    chosen = add_form(name="Scala 40 veloce", tempo_giocata="40")
    assert client.post(reverse("backoffice:tournaments_tournament_add"), chosen).status_code == 302
    assert Tournament.objects.get(name="Scala 40 veloce").tempo_giocata == 40


def test_the_migration_lengthens_only_the_old_default_of_live_rummy_tournaments(staff):
    old = make_tournament(staff, name="Burraco", game="burraco", tempo_giocata=30)
    chosen = make_tournament(staff, name="Scala 40", game="scala40", tempo_giocata=45)
    scopa = make_tournament(staff, name="Scopa", game="scopa", tempo_giocata=30)
    ended = make_tournament(staff, name="Scala 40 chiuso", game="scala40", tempo_giocata=30)
    Tournament.objects.filter(pk=ended.pk).update(state=Tournament.State.FINISHED)
    migration = importlib.import_module("tournaments.migrations.0011_rummy_tempo_giocata")
    migration.rummy_take_their_time(apps, None)
    for row, seconds in ((old, 90), (chosen, 45), (scopa, 30), (ended, 30)):
        row.refresh_from_db()
        assert row.tempo_giocata == seconds, row
