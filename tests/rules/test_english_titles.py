"""The rules pages in English (the site's second language): every page's title, section and
summary, the list beside each page and the links to the rules come from the English catalog."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.utils import translation

from rules import pages

pytestmark = pytest.mark.django_db

GAME_NAMES = {  # terms of art: the same words in both languages (tests/piattaforma/test_english.py)
    "scopa",
    "briscola",
    "tresette",
    "asso",
    "cirulla",
    "burraco",
    "scala40",
    "settemezzo",
    "mazzetti",
    "poker5",
    "telesina",
    "bestia",
    "chemin",
}


@pytest.fixture
def english(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    yield client
    translation.activate("it")


def test_every_title_section_and_summary_has_its_english_words():
    for page in pages.PAGES:
        with translation.override("it"):
            italian = (str(page.title), str(page.summary))
        with translation.override("en"):
            english = (str(page.title), str(page.summary))
        assert english[1] != italian[1], page.slug  # every summary is translated
        if page.slug not in GAME_NAMES:
            assert english[0] != italian[0], page.slug
    with translation.override("en"):
        assert [str(title) for _key, title in pages.SECTIONS] == [
            "Games played in matches",
            "Games played for stakes",
            "Tournaments and tables",
            "The house",
        ]


def test_the_index_reads_in_english(english):
    html = unescape(english.get("/regole/").content.decode())
    assert "<title>Rules and information for players" in html
    assert "<h1>Rules and information for players</h1>" in html
    for words in ("Games played for stakes", "Tournaments in rounds", "House rules", "Minimum requirements"):
        assert words in html
    for italian in ("Giochi a puntate", "I tornei a turni", "Regole della casa", "Requisiti minimi"):
        assert italian not in html


@pytest.mark.parametrize("slug", [p.slug for p in pages.PAGES])
def test_each_page_has_an_english_title_and_list(english, slug):
    html = unescape(english.get(pages.page(slug).url).content.decode())
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert not re.search(r"\bRegole\b|\bdel\b|\bdella\b|\bdei\b", title), title
    nav = html[html.index('aria-label="All the rules"') :]
    assert "Training tables and tournaments" in nav and "Tavoli e tornei di allenamento" not in nav
    assert 'aria-label="Breadcrumbs"' in html and ">Rules and information</a>" in html
