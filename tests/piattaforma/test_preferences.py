"""Opzioni di gioco: validated per game, stored per user and game, editable on the profile."""

import pytest
from django.urls import reverse

from games import options
from piattaforma import actions
from piattaforma.models import GamePreference
from tests.piattaforma.factories import UserFactory


def test_schema_defaults_and_validation():
    assert options.defaults("poker5")["mostra_nascondi"] == "chiedi"
    assert options.validate("settemezzo", {"sette_mezzo_soglia_punta": 12})["sette_mezzo_soglia_punta"] == 12
    with pytest.raises(options.OptionError) as err:
        options.validate("settemezzo", {"sette_mezzo_soglia_punta": 11, "boh": 1})
    assert set(err.value.errors) == {"sette_mezzo_soglia_punta", "boh"}
    with pytest.raises(options.OptionError):
        options.validate("cirulla", {"accuso_automatico": "no"})  # a string is not a boolean
    with pytest.raises(options.OptionError):
        options.validate("nessungioco", {})


@pytest.mark.django_db
def test_profile_edits_options(client):
    user = UserFactory()
    client.force_login(user)
    url = reverse("game_options", args=["poker5"])
    page = client.get(url)
    assert page.status_code == 200 and "Invito automatico" in page.content.decode()
    response = client.post(
        url, {"mostra_nascondi": "mostra", "invito_automatico": "on", "vele_preferite": "croce"}
    )
    assert response.status_code == 302
    stored = actions.preferences_get(user=user, game="poker5")
    assert stored["mostra_nascondi"] == "mostra" and stored["invito_automatico"] is True
    assert stored["vele_preferite"] == "croce"


@pytest.mark.django_db
def test_invalid_option_is_refused_and_nothing_stored(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("game_options", args=["poker5"]), {"mostra_nascondi": "forse"})
    assert response.status_code == 200
    assert not GamePreference.objects.exists()
    with pytest.raises(options.OptionError):
        actions.preferences_save(user=user, game="cirulla", values={"accuso_automatico": 1})
    assert not GamePreference.objects.exists()


@pytest.mark.django_db
def test_unknown_game_is_404(client):
    client.force_login(UserFactory())
    assert client.get("/profilo/opzioni/nessungioco/").status_code == 404


@pytest.mark.django_db
def test_the_options_of_a_deal_read_each_players_own_for_that_game():
    """``preferences_of`` (every deal): each player his stored options for this game, else the
    defaults, whatever the number of players (its SQL is compiled once per number)."""
    mario, giulia, luca = UserFactory(), UserFactory(), UserFactory()
    actions.preferences_save(user=mario, game="poker5", values={"mostra_nascondi": "mostra"})
    actions.preferences_save(user=giulia, game="scopa", values={"stile_mazzo": "piacentine"})
    defaults = options.defaults("poker5")
    assert defaults["mostra_nascondi"] != "mostra"
    for ids in ([mario.pk, giulia.pk], [luca.pk, giulia.pk, mario.pk], [mario.pk, giulia.pk]):
        got = actions.preferences_of(user_ids=ids, game="poker5")
        assert list(got) == ids
        assert got[mario.pk] == {**defaults, "mostra_nascondi": "mostra"}
        assert got[giulia.pk] == got.get(luca.pk, defaults) == defaults  # her scopa options are not poker's
    scopa = actions.preferences_of(user_ids=[giulia.pk], game="scopa")
    assert scopa[giulia.pk]["stile_mazzo"] == "piacentine"
    assert actions.preferences_of(user_ids=[], game="poker5") == {}
