"""Opzioni di gioco: validated per game, stored per user and game, editable on the profile."""

import pytest
from django.urls import reverse

from games import options
from piattaforma import actions
from piattaforma.models import GamePreference
from tests.factories import UserFactory


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
