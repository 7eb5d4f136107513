"""The list of the players' information pages: one entry per page, in the order the index shows.

A page's text is its template, ``templates/rules/pages/<slug>.html``; a game's page has the engine's
name as its slug (``games.registry``), so a table or a tournament links to it by the game alone.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

PARTITE = "partite"
PUNTATE = "puntate"
TORNEI = "tornei"
CASA = "casa"

SECTIONS: tuple[tuple[str, Promise], ...] = (
    (PARTITE, _("Giochi a partite")),
    (PUNTATE, _("Giochi a puntate")),
    (TORNEI, _("Tornei e tavoli")),
    (CASA, _("La casa")),
)


@dataclass(frozen=True, slots=True)
class Page:
    slug: str
    title: str | Promise
    section: str
    summary: str | Promise

    @property
    def template(self) -> str:
        return f"rules/pages/{self.slug}.html"

    @property
    def url(self) -> str:
        return reverse("rules:page", args=[self.slug])


PAGES: tuple[Page, ...] = (
    Page("scopa", _("Scopa"), PARTITE, _("Prese, scope e primiera: il gioco a partite più giocato.")),
    Page(
        "poker5",
        _("Poker 5 carte all'italiana"),
        PUNTATE,
        _("Cinque carte, un cambio, apertura ai J, buio e parol: il poker tradizionale."),
    ),
    Page(
        "telesina",
        _("Telesina"),
        PUNTATE,
        _("Il poker a carte scoperte: una coperta, quattro in vista e le vele in comune."),
    ),
    Page(
        "bestia",
        _("Bestia"),
        PUNTATE,
        _("Tre carte, la briscola e il piatto diviso per prese: chi non prende va in bestia."),
    ),
    Page(
        "chemin",
        _("Chemin de fer"),
        PUNTATE,
        _("Un banco contro le punte: due carte, chi si avvicina a 9 vince; il gioco alla regola."),
    ),
)
BY_SLUG: dict[str, Page] = {p.slug: p for p in PAGES}


def page(slug: str) -> Page | None:
    return BY_SLUG.get(slug)


def game_url(game: str) -> str | None:
    """The address of a game's rules page (``None`` for a game without one)."""
    found = BY_SLUG.get(game)
    return found.url if found else None


def sections() -> list[tuple[str, Promise, list[Page]]]:
    """The index: each section with its pages, in order; empty sections left out."""
    return [
        (key, title, [p for p in PAGES if p.section == key])
        for key, title in SECTIONS
        if any(p.section == key for p in PAGES)
    ]
