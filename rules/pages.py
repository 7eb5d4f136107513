"""The list of the players' information pages: one entry per page, in the order the index shows.

A page's text is its template, ``templates/rules/pages/<slug>.html``; a game's page has the engine's
name as its slug (``games.registry``), so a table or a tournament links to it by the game alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
    # what the page shows that the platform decides (the site's hours, say): read when it is shown
    context: Callable[[], dict[str, Any]] | None = field(default=None, compare=False)

    @property
    def template(self) -> str:
        return f"rules/pages/{self.slug}.html"

    @property
    def url(self) -> str:
        return reverse("rules:page", args=[self.slug])


def _hours() -> dict[str, Any]:
    from piattaforma import siteops

    return {"hours": siteops.site_hours()}


PAGES: tuple[Page, ...] = (
    Page("scopa", _("Scopa"), PARTITE, _("Prese, scope e primiera: il gioco a partite più giocato.")),
    Page(
        "tavoli-cash",
        _("I tavoli cash"),
        TORNEI,
        _("Sedersi, la lista d'attesa, il credito al tavolo, poste e rake."),
    ),
    Page(
        "regole-della-casa",
        _("Regole della casa"),
        CASA,
        _("La chat, il comportamento al tavolo, gli accordi vietati, il caso e i tempi."),
    ),
    Page(
        "orari",
        _("Orari del sito"),
        CASA,
        _("La chiusura notturna e la sospensione delle iscrizioni."),
        _hours,
    ),
    Page(
        "requisiti-minimi",
        _("Requisiti minimi"),
        CASA,
        _("I browser e gli schermi su cui il sito è provato."),
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
