"""The table's "Opzioni" (rules 004: "cliccando sul tasto opzioni sul tavolo"): the player's own
options for the table's game in a dialog that saves through the profile's endpoint, saying when a
change takes effect; Sette e mezzo's options change only at the next sit-down."""

from __future__ import annotations

import pytest
from django.core import checks
from django.urls import reverse

from games import options
from lobby import door
from lobby.models import Seat
from piattaforma import actions
from piattaforma.checks import check_game_options_timing
from piattaforma.models import GamePreference
from tests.lobby.factories import scopa_table
from tests.lobby.helpers import back_from_sitout, runtime, seat_players
from tests.lobby.test_every_engine import table_for
from tests.piattaforma.factories import UserFactory
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}


@pytest.fixture(autouse=True)
def italian():
    from django.utils import translation

    with translation.override("it"):
        yield


def test_the_table_page_offers_the_players_own_options_for_its_game(client):
    table = scopa_table()
    player = funded_player()
    actions.preferences_save(user=player, game="scopa", values={"stile_mazzo": "piacentine"})
    other = funded_player()
    actions.preferences_save(user=other, game="scopa", values={"stile_mazzo": "francesi"})
    client.force_login(player)
    html = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert 'data-testid="table-options"' in html and 'id="table-options-dialog"' in html
    assert f'action="{reverse("game_options", args=["scopa"])}"' in html
    assert '<option value="piacentine" selected>' in html  # his, not the other player's
    assert "dalla partita successiva" in html  # a gioco a partite reads them once a match


def test_saving_from_the_table_changes_only_the_players_own_options(client):
    player, other = UserFactory(), UserFactory()
    actions.preferences_save(user=other, game="tresette", values={"accuso_automatico": True})
    before = actions.preferences_get(user=other, game="tresette")
    client.force_login(player)
    response = client.post(
        reverse("game_options", args=["tresette"]),
        {"stile_mazzo": "francesi", "chiamata_fuori_automatica": "on", "user": other.pk},
        **JSON,
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["values"]["stile_mazzo"] == "francesi" and body["values"]["accuso_automatico"] is False
    assert "dalla partita successiva" in body["applies_from"]
    assert actions.preferences_get(user=player, game="tresette") == body["values"]
    assert actions.preferences_get(user=other, game="tresette") == before  # an extra field moves nothing


def test_a_signed_out_visitor_changes_no_options(client):
    response = client.post(reverse("game_options", args=["scopa"]), {"stile_mazzo": "francesi"}, **JSON)
    assert response.status_code == 302 and "/account/accedi/" in response["Location"]
    assert not GamePreference.objects.exists()


def test_a_refused_value_stores_nothing_and_says_which_field(client):
    player = UserFactory()
    actions.preferences_save(user=player, game="settemezzo", values={"sette_mezzo_soglia_punta": 12})
    client.force_login(player)
    response = client.post(
        reverse("game_options", args=["settemezzo"]),
        {"stile_mazzo": "napoletane", "sette_mezzo_soglia_punta": "11", "sette_mezzo_soglia_banco": "9"},
        **JSON,
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_options" and "controlla i campi" in body["message"]
    assert set(body["errors"]) == {"sette_mezzo_soglia_punta"}
    assert actions.preferences_get(user=player, game="settemezzo")["sette_mezzo_soglia_punta"] == 12
    missing = client.post(reverse("game_options", args=["nessungioco"]), {"x": "1"}, **JSON)
    assert missing.status_code == 404 and missing.json()["code"] == "unknown_game"


def test_without_javascript_the_form_comes_back_to_the_table_only(client):
    player = UserFactory()
    client.force_login(player)
    url = reverse("game_options", args=["scopa"])
    back = client.post(url, {"stile_mazzo": "francesi", "next": "/lobby/tavolo/7/"})
    assert back.status_code == 302 and back["Location"] == "/lobby/tavolo/7/"
    away = client.post(url, {"stile_mazzo": "francesi", "next": "https://example.invalid/"})
    assert away.status_code == 302 and away["Location"] == url


def test_the_profile_page_says_when_a_change_takes_effect(client):
    client.force_login(UserFactory())
    assert "dalla mano successiva" in client.get(reverse("game_options", args=["poker5"])).content.decode()
    page = client.get(reverse("game_options", args=["settemezzo"])).content.decode()
    assert "dalla prossima volta che ti siedi a un tavolo" in page


def test_sette_e_mezzo_keeps_the_options_of_the_sit_down_until_the_next_one():
    """Rules 004, Sette e mezzo: "Le modifiche saranno operative dalla prossima entrata in un tavolo"."""
    table = table_for("settemezzo")
    users = [funded_player() for _ in range(table.seats)]
    player = users[0]
    actions.preferences_save(user=player, game="settemezzo", values={"sette_mezzo_soglia_punta": 6})
    seat_players(table, users, buy_in=20_000)
    actions.preferences_save(user=player, game="settemezzo", values={"sette_mezzo_soglia_punta": 13})
    seat = Seat.objects.get(table=table, user=player)
    assert seat.prefs["sette_mezzo_soglia_punta"] == 6
    back_from_sitout(table)
    door.table_start_hand(table_id=table.pk)
    state = runtime(table).state
    assert state is not None and state["prefs"][str(seat.number)]["punta"] == 6  # not 13
    others = Seat.objects.filter(table=table).exclude(user=player)
    assert all(s.prefs == options.defaults("settemezzo") for s in others)


def test_other_games_read_the_options_at_every_deal_and_keep_none_on_the_seat():
    table = table_for("poker5")
    seats = seat_players(table, [funded_player() for _ in range(table.seats)], buy_in=20_000)
    assert [s.prefs for s in seats] == [None] * len(seats)


def test_a_game_must_say_truly_when_its_options_apply(monkeypatch):
    assert check_game_options_timing() == []
    wrong = options.GameOptions("scopa", "Scopa", options.GAMES["scopa"].options, "hand")
    monkeypatch.setitem(options.GAMES, "scopa", wrong)
    errors = check_game_options_timing()
    assert [e.id for e in errors] == ["piattaforma.E003"] and isinstance(errors[0], checks.Error)
