"""The site menu marks the section a page belongs to: a table's is its kind (money, training,
tournament), not the URL's namespace (every table lives under /lobby/)."""

import re

import pytest
from django.urls import reverse

from lobby import selectors
from lobby.models import Table
from tests.lobby.factories import PokerTableFactory
from tests.piattaforma.factories import UserFactory

pytestmark = pytest.mark.django_db


def current(html: str) -> list[str]:
    """The menu entries marked as the current page."""
    nav = html.split('id="site-nav"')[1].split("</nav>")[0]
    return re.findall(r'aria-current="page"[^>]*>([^<]+)</a>', nav)


@pytest.mark.parametrize(("realm", "section"), [("real", "Lobby"), ("play", "Allenamento")])
def test_a_tables_page_marks_its_section(client, realm, section):
    table = PokerTableFactory(realm=realm, rake_bp=0 if realm == "play" else 500, rake_cap=0)
    client.force_login(UserFactory())
    html = client.get(reverse("lobby:table", args=[table.pk])).content.decode()
    assert current(html) == [section]


def test_a_tournament_table_belongs_to_tornei():
    assert selectors.table_nav_section(Table(realm="real", tournament_id=1)) == "tournaments"
    assert selectors.table_nav_section(Table(realm="play", tournament_id=1)) == "tournaments"


def test_pages_without_a_section_keep_the_urls(client):
    client.force_login(UserFactory())
    assert current(client.get(reverse("lobby:lobby")).content.decode()) == ["Lobby"]
    assert current(client.get(reverse("lobby:training")).content.decode()) == ["Allenamento"]
    assert current(client.get(reverse("tournaments:list")).content.decode()) == ["Tornei"]


def test_the_lobbys_help_chat_is_called_aiuto(client):
    client.force_login(UserFactory())
    html = client.get(reverse("lobby:lobby")).content.decode()
    assert "Aiuto · chat HELP con lo staff" in html and "HELP · assistenza" not in html
