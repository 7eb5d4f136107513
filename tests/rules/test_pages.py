"""The players' information pages (rules 004, "Informazioni ai giocatori"): open to everyone,
linked from the lobby, the tables and the tournaments, and true to the engines they describe."""

from __future__ import annotations

import re

import pytest
from django.template import Context, Template, TemplateSyntaxError

from rules import pages

pytestmark = pytest.mark.django_db


def _cells(html: str, caption: str) -> list[list[str]]:
    """The rows of the table with this caption, each a list of its cells' texts."""
    table = re.search(rf"<table[^>]*>\s*<caption>{re.escape(caption)}</caption>(.*?)</table>", html, re.S)
    assert table, f"no table captioned {caption!r}"
    rows = re.findall(r"<tr>(.*?)</tr>", table.group(1), re.S)
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", r, re.S)]
        for r in rows
    ]


def test_the_index_lists_every_page_to_anyone(client):
    response = client.get("/regole/")
    assert response.status_code == 200
    html = response.content.decode()
    for page in pages.PAGES:
        assert f'href="{page.url}"' in html, page.slug


@pytest.mark.parametrize("slug", [p.slug for p in pages.PAGES])
def test_every_page_opens_signed_out_and_in(client, slug):
    from tests.wallet.factories import funded_player

    page = pages.page(slug)
    for _ in ("signed out", "signed in"):
        response = client.get(page.url)
        assert response.status_code == 200
        html = response.content.decode()
        assert f"<h1>{page.title}" in html or str(page.title) in html
        assert 'aria-current="page"' in html  # the page is marked in the list of every page
        client.force_login(funded_player())


def test_an_unknown_page_is_not_found(client):
    assert client.get("/regole/non-esiste/").status_code == 404


def test_cards_are_named_in_words_and_drawn_by_the_tables_faces():
    html = Template('{% load rules_ui %}{% cards "7d Qh" deck="italiane" %}{% cards "Ts X1" %}').render(
        Context()
    )
    assert 'aria-label="7 di denari, cavallo di coppe"' in html
    assert 'data-style="napoletane"' in html
    assert 'aria-label="10 di picche, jolly"' in html and 'data-style="francesi"' in html
    for bad in ('{% cards "8d" deck="italiane" %}', '{% cards "Zz" %}', '{% cards "7d" deck="inglesi" %}'):
        with pytest.raises(TemplateSyntaxError):
            Template("{% load rules_ui %}" + bad).render(Context())


def test_a_game_links_to_its_rules_and_a_game_without_a_page_to_nothing():
    assert pages.game_url("scopa") == "/regole/scopa/"
    assert pages.game_url("non-un-gioco") is None
    assert Template("{% load rules_ui %}[{{ g|rules_url }}]").render(Context({"g": "non-un-gioco"})) == "[]"


def test_the_scopa_page_prints_the_engines_primiera_and_card_values(client):
    from games.capture import PRIMIERA_VALUE

    html = client.get("/regole/scopa/").content.decode()
    primiera = {row[0]: row[1] for row in _cells(html, "Valori della primiera")[1:]}
    named = {"7": "7", "6": "6", "A": "Asso", "5": "5", "4": "4", "3": "3", "2": "2"}
    for rank, label in named.items():
        assert primiera[label] == str(PRIMIERA_VALUE[rank]), rank
    assert (
        primiera["Re, cavallo, fante"]
        == str(PRIMIERA_VALUE["K"])
        == str(PRIMIERA_VALUE["Q"])
        == str(PRIMIERA_VALUE["J"])
    )


def test_the_table_the_tournament_the_lobby_and_the_footer_link_the_rules(client):
    from lobby import door
    from piattaforma import roles
    from tests.piattaforma.factories import UserFactory
    from tests.tournaments.factories import make_tournament
    from tests.wallet.factories import funded_player

    player = funded_player()
    client.force_login(player)
    table = door.table_create(
        name="Tavolo Scopa",
        game="scopa",
        seats=2,
        min_buy_in=1_000,
        max_buy_in=5_000,
        posta_partita=100,
        posta_unitaria=10,
        perdita_massima=2_000,
    )
    html = client.get(f"/lobby/tavolo/{table.pk}/").content.decode()
    assert 'data-testid="table-rules"' in html and 'href="/regole/scopa/"' in html
    tournament = make_tournament(UserFactory(role=roles.STAFF), name="Scopa della sera", game="scopa")
    html = client.get(f"/tornei/{tournament.pk}/").content.decode()
    assert 'data-testid="tournament-rules"' in html and 'href="/regole/scopa/"' in html
    html = client.get("/lobby/").content.decode()
    assert 'data-testid="lobby-rules"' in html and 'data-testid="footer-rules"' in html


def test_the_hours_page_shows_the_hours_staff_set(client):
    from datetime import time

    from piattaforma import siteops
    from piattaforma.models import SiteHours

    siteops.site_hours_forget()  # (this process's cache may hold another test's hours)
    html = client.get("/regole/orari/").content.decode()
    assert "<td>5:30</td><td>5:45</td>" in html and "<td>4:00</td><td>5:30</td>" in html
    # (the row may be missing: a transactional test before this one emptied the tables)
    closing = {"closed_from": time(3, 0), "closed_until": time(3, 20)}
    SiteHours.objects.update_or_create(pk=1, defaults=closing)
    siteops.site_hours_forget()
    html = client.get("/regole/orari/").content.decode()
    assert "<td>3:00</td><td>3:20</td>" in html
    SiteHours.objects.update_or_create(pk=1, defaults={"enabled": False})
    siteops.site_hours_forget()
    html = client.get("/regole/orari/").content.decode()
    assert "non ha chiusure programmate" in html


def test_the_house_rules_print_the_warnings_ladder_the_tournaments_apply(client):
    from tournaments.formats import ammonizioni

    html = client.get("/regole/regole-della-casa/").content.decode()
    bans = _cells(html, "Blocchi dai tornei freeroll")[1:]
    for threshold in (10, 20, 30, 40):
        row = next(r for r in bans if r[0] == str(threshold))
        assert row[1].split()[-2] == str(ammonizioni.ban_days(threshold)), row
    assert (
        bans[-1][1]
        == f"altri {ammonizioni.ban_days(50)} giorni"
        == f"altri {ammonizioni.ban_days(60)} giorni"
    )
    assert f"al massimo {ammonizioni.MAX_PER_TOURNAMENT}" in html
    assert f"Ogni {ammonizioni.TURNS_PER_BONUS} turni" in html
    assert f"{ammonizioni.RECUPERO_VP} VP e 0 MP" in html


def test_the_cash_tables_page_agrees_with_the_tables(client):
    from games.partite import cash_settlement
    from lobby.actions.hands import READY_SECONDS
    from lobby.actions.waiting import WAITING_OFFER_SECONDS
    from wallet.money import LEGAL_TABLE_CAP
    from wallet.templatetags.wallet_money import euro as format_euro

    html = client.get("/regole/tavoli-cash/").content.decode()
    assert f"oggi {format_euro(LEGAL_TABLE_CAP)} in tutto" in html
    assert WAITING_OFFER_SECONDS == 60 and "<strong>un minuto</strong>" in html
    assert html.count(f"{READY_SECONDS} secondi") == 2
    # the worked examples are what the settlement computes
    outcome = {"cash": {"winner": 0, "cappotto": False, "cappotti": [0, 0], "differenza_punti": 33 - 14}}
    paid = cash_settlement(outcome, posta_partita=1000, posta_unitaria=100, perdita_massima=2000, rake_bp=0)
    assert f"il perdente paga <strong>{format_euro(paid['amount'])}</strong>" in html
    outcome["cash"]["differenza_punti"] = 0
    rake = cash_settlement(outcome, posta_partita=1000, posta_unitaria=100, perdita_massima=2000, rake_bp=500)
    assert (
        f"= <strong>{format_euro(rake['rake'])}</strong>; il vincitore riceve {format_euro(rake['won'])}"
        in html
    )


def test_the_tournaments_page_prints_the_rules_prize_tables_from_the_code(client):
    html = client.get("/regole/tornei/").content.decode()
    ko = {row[0]: row[1:] for row in _cells(html, "Premi con un'iscrizione da € 10 e l'80% al montepremi")}
    # the rules' own table (€ 10, 80 %): columns 2, 4, 8, 16, 32, 64, 128 entrants
    assert [c.replace("\xa0", " ") for c in ko["1°"]] == [
        "€ 16,00",
        "€ 32,00",
        "€ 41,60",
        "€ 61,44",
        "€ 89,60",
        "€ 128,00",
        "€ 256,00",
    ]
    assert [c.replace("\xa0", " ") for c in ko["9°–16°"]][-2:] == ["€ 15,36", "€ 30,72"]
    assert [c.replace("\xa0", " ") for c in ko["Montepremi"]][-1] == "€ 1.024,00"
    danese = {row[0]: row[1:] for row in _cells(html, "Percentuale del montepremi per posizione")}
    assert danese["1°"] == ["49,29", "32,62", "25,6", "20,68", "17,1", "15,51"]
    assert danese["75°"] == ["", "", "", "", "", "0,31"]
    assert _cells(html, "VP minimi nei danEL")[1:] == [
        ["fino a 3 turni", "7 VP", "14 VP", "—"],
        ["4 turni", "4 VP", "20 VP", "36 VP"],
    ]
    assert [r[1] for r in _cells(html, "Premiati dei KO programmati")[1:]] == ["1", "2", "4", "8", "16"]
    assert "<strong>2 minuti prima dell'inizio</strong>" in html


def test_the_training_page_states_the_sections_own_numbers(client):
    from tournaments.actions.registration import TRAINING_LIMITS
    from tournaments.formats import points
    from tournaments.models import Tournament
    from wallet.actions import PLAY_GRANT
    from wallet.money import format_money

    html = client.get("/regole/allenamento/").content.decode()
    assert f"<strong>{format_money(PLAY_GRANT, 'play')}</strong>" in html
    assert f"<strong>{points.TRAINING_COST // points.PT} Punti Torneo (PT)</strong>" in html
    assert f"<strong>{TRAINING_LIMITS[Tournament.Kind.SCHEDULED][0]} torneo programmato</strong>" in html
    assert f"<strong>{TRAINING_LIMITS[Tournament.Kind.SITGO][0]} sit&amp;go</strong>" in html
    assert "compare 4 minuti prima dell'inizio e sparisce 2 minuti prima" in html
    # the rules' example of the Danese redistribution, as the curve computes it
    assert points.k5_loss(40, 66) == 2 * points.PT and 8 * points.PT < points.k5_loss(60, 66) < 9 * points.PT


def test_every_game_has_its_rules_page_and_every_page_its_template():
    from django.template.loader import get_template

    from games import registry

    assert set(registry.names()) <= set(pages.BY_SLUG)
    for page in pages.PAGES:
        get_template(page.template)  # a listed page without its template fails here, not on a player


def test_a_table_that_scrolls_sideways_can_be_reached_by_the_keyboard():
    """A wide table scrolls inside its box on a phone (WCAG 2.1.1: a scrollable region is focusable)."""
    import pathlib

    for path in (pathlib.Path(__file__).resolve().parents[2] / "templates/rules/pages").glob("*.html"):
        for tag in re.findall(r"<table[^>]*rules-table--wide[^>]*>", path.read_text()):
            assert 'tabindex="0"' in tag, (path.name, tag)
