"""The tournament pages: the list with the rules' columns and colours, the info panel, the lobby."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.piattaforma.factories import sign_in
from tests.tournaments.conftest import ACCEPT, FUNDS, authorise_all, money
from tests.tournaments.factories import enter, make_tournament
from tournaments import actions
from tournaments.models import Registration, Tournament

pytestmark = pytest.mark.django_db


def login(client, user):
    sign_in(client, user)


def test_list_shows_columns_abbreviations_colours_and_info_panel(client, staff, players):
    t = make_tournament(staff, name="Gran premio", guaranteed=50_000, smazzate=3, turns=2)
    make_tournament(
        staff, name="Gratis", pool_quota=0, fee=0, format=Tournament.Format.DANKO, ko_qualifiers=8
    )
    page = client.get(reverse("tournaments:list"), {"t": t.pk}).content.decode()
    assert "Gran premio" in page
    # every abbreviation carries its words (a tooltip) and the list has the legend of them all
    assert '<abbr title="Torneo a girone Danese">Danese</abbr>' in page
    assert '<abbr title="Danese con KO tra i migliori 8 classificati">DanKO8</abbr>' in page
    assert '<abbr title="Partite testa a testa, due giocatori al tavolo">2 gioc</abbr>' in page
    duration = "14 minuti per linea in ogni turno; 2 turni di 3 smazzate"
    assert f'<abbr title="{duration}">14 min (2 x 3 sm)</abbr>' in page
    assert 'data-testid="abbreviations"' in page and "<dt>DanELKO4</dt>" in page and "<dt>VP</dt>" in page
    assert "€ 10,00 (9,00 + 1,00)" in page
    assert "t-row--guaranteed" in page and "t-row--freeroll" in page
    assert "Informazioni sul torneo" in page and t.code in page
    assert "0/16" in page and "Iscrizione" in page


def test_sitgo_list_and_the_players_sphere(client, staff, players):
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=8, table=Tournament.Table.FOUR_IN_TWO)
    enter(t, players[0])
    login(client, players[0])
    page = client.get(reverse("tournaments:list"), {"tipo": "sitgo"}).content.decode()
    assert t.code in page and "4in2" in page and "1/8" in page
    assert "sphere--brown" in page
    authorise_all(t)
    assert "sphere--green" in client.get(reverse("tournaments:list"), {"tipo": "sitgo"}).content.decode()
    # another player sees no sphere
    login(client, players[1])
    assert "sphere--" not in client.get(reverse("tournaments:list"), {"tipo": "sitgo"}).content.decode()


def test_the_info_panel_shows_the_first_sitgo_open_to_registration(client, staff):
    played = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=2, name="Giocato")
    waiting = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=2, name="Aperto")
    Tournament.objects.filter(pk=played.pk).update(state=Tournament.State.FINISHED)
    response = client.get(reverse("tournaments:list"), {"tipo": "sitgo"})
    codes = [r["code"] for r in response.context["rows"]]
    assert codes.index(played.code) < codes.index(waiting.code)  # still listed, first
    assert response.context["selected"]["code"] == waiting.code
    chosen = client.get(reverse("tournaments:list"), {"tipo": "sitgo", "t": played.pk})
    assert chosen.context["selected"]["code"] == played.code  # the one clicked, whatever its state


def test_lobby_register_authorise_and_cancel_through_the_pages(client, staff, players):
    t = make_tournament(staff)
    login(client, players[0])
    lobby = reverse("tournaments:lobby", args=[t.pk])
    response = client.post(
        reverse("tournaments:register", args=[t.pk]), {"idempotency_key": "web-1"}, follow=True
    )
    page = response.content.decode()
    assert "attendi l&#x27;autorizzazione AAMS" in page
    assert 'class="nick nick--black"' in page
    # the same form posted twice (double click) registers once
    client.post(reverse("tournaments:register", args=[t.pk]), {"idempotency_key": "web-1"})
    assert money(players[0]) == FUNDS - 1_000
    assert client.get(reverse("tournaments:my_state", args=[t.pk])).json()["state"] == "pending"
    reg = Registration.objects.get(tournament=t)
    actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT)
    page = client.get(lobby).content.decode()
    assert "nick--blue" in page and "biglietto n. ADM" in page
    page = client.post(reverse("tournaments:cancel", args=[t.pk]), follow=True).content.decode()
    assert "Cancellazione richiesta" in page and "nick--red" in page
    actions.registration_authorise(registration_id=reg.pk, authorizer=ACCEPT)
    assert money(players[0]) == FUNDS


def test_lobby_prize_distribution_and_simulation(client, staff, players):
    t = make_tournament(staff, max_players=100)
    for p in players[:4]:
        enter(t, p)
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Con 4 iscritti: montepremi € 36,00" in page
    page = client.get(reverse("tournaments:lobby", args=[t.pk]), {"iscritti": "10"}).content.decode()
    # the rules' 10 column: 49,29 / 29,58 / 21,13 of € 90,00, floors, remainder to the winner
    assert "€ 44,37" in page and "€ 26,62" in page and "€ 19,01" in page
    for bad in ("abc", "-5", "100000"):
        assert client.get(reverse("tournaments:lobby", args=[t.pk]), {"iscritti": bad}).status_code == 200


def test_a_guaranteed_tournament_nobody_entered_yet_shows_its_prizes(client, staff):
    t = make_tournament(staff, guaranteed=10_000, min_players=4)
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Nessun premio da ripartire" not in page
    assert "Con 4 iscritti: montepremi € 100,00" in page and 'data-testid="prizes"' in page


def test_sitgo_prize_table_is_final(client, staff):
    t = make_tournament(
        staff, kind=Tournament.Kind.SITGO, format=Tournament.Format.KO, max_players=8, pool_quota=800, fee=200
    )
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert "Definitiva: 8 partecipanti, montepremi € 64,00" in page
    assert "€ 41,60" in page and "€ 22,40" in page  # the rules' own example


def test_anonymous_sees_but_cannot_register(client, staff):
    t = make_tournament(staff)
    assert "Accedi per iscriverti" in client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    response = client.post(reverse("tournaments:register", args=[t.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert not Registration.objects.exists()
    assert client.get(reverse("tournaments:register", args=[t.pk])).status_code in (302, 405)


def test_refused_registration_shows_the_reason_and_changes_nothing(client, staff, players):
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=2)
    enter(t, players[0])
    enter(t, players[1])
    login(client, players[2])
    page = client.post(reverse("tournaments:register", args=[t.pk]), follow=True).content.decode()
    assert "numero massimo di iscritti" in page
    assert money(players[2]) == FUNDS
    assert client.get(reverse("tournaments:lobby", args=[999_999])).status_code == 404
    assert client.post(reverse("tournaments:register", args=[999_999]), follow=True).status_code == 404


def test_english_labels(client, staff):
    make_tournament(staff)
    client.post(reverse("set_language"), {"language": "en"})
    page = client.get(reverse("tournaments:list")).content.decode()
    assert "Tournament information" in page and "Scheduled tournaments" in page


def test_one_deal_a_turn_is_singular_in_both_languages(staff):
    from django.utils import translation

    from tournaments import selectors

    one, three = make_tournament(staff, smazzate=1), make_tournament(staff, smazzate=3)
    with translation.override("it"):
        assert "1 smazzata per turno" in selectors.description(one)
        assert "3 smazzate per turno" in selectors.description(three)
    with translation.override("en"):
        assert "1 deal per turn" in selectors.description(one)
        assert "3 deals per turn" in selectors.description(three)


def test_fixed_pairs_through_the_lobby(client, staff, players):
    t = make_tournament(staff, lines=Tournament.Lines.FIXED_PAIRS, table=Tournament.Table.PAIRS)
    login(client, players[0])
    register = reverse("tournaments:register", args=[t.pk])
    assert 'name="partner"' in client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    page = client.post(register, {"partner": "nessuno-così"}, follow=True).content.decode()
    assert "Compagno non valido" in page and not Registration.objects.exists()
    client.post(register, {"partner": players[1].nickname.upper()})
    login(client, players[1])
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert f"{players[0].nickname} ti ha indicato come compagno di coppia" in page
    client.post(register)
    first, second = Registration.objects.order_by("pk")
    assert (first.partner, second.pair) == (players[1], first)
    page = client.get(reverse("tournaments:lobby", args=[t.pk])).content.decode()
    assert f"con {players[1].nickname}" in page and f"con {players[0].nickname}" in page
