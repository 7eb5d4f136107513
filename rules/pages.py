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


def _tournaments() -> dict[str, Any]:
    """The prize tables printed from the tournaments' own functions, for the rules' examples."""
    from tournaments.formats import danel, prizes, registration
    from tournaments.formats.money import format_euro

    sizes = registration.SITGO_SIZES
    quota = 800  # the rules' example: € 10 entry, 80 % to the pool
    ko = {n: prizes.prize_table(quota * n, prizes.sitgo_ko_weights(n)) for n in sizes}
    groups, first = [], 1
    for winners in (1, 1, 2, 4, 8):
        last = first + winners - 1
        label = f"{first}°" if first == last else f"{first}°–{last}°"
        groups.append((label, [format_euro(ko[n][first - 1]) if len(ko[n]) >= first else "" for n in sizes]))
        first = last + 1
    columns = sorted(prizes.DANESE_TABLE)
    depth = max(len(prizes.DANESE_TABLE[c]) for c in columns)
    danese = [
        (
            f"{i + 1}°",
            [_percent(prizes.DANESE_TABLE[c][i]) if i < len(prizes.DANESE_TABLE[c]) else "" for c in columns],
        )
        for i in range(depth)
    ]
    scheduled = [(1, 6), (7, 12), (13, 24), (25, 48)]
    return {
        "sitgo_sizes": sizes,
        "ko_rows": groups,
        "ko_pools": [format_euro(quota * n) for n in sizes],
        "danese_columns": columns,
        "danese_rows": danese,
        "scheduled_ko": [(lo, hi, prizes.scheduled_ko_winners(lo)) for lo, hi in scheduled],
        "scheduled_ko_more": prizes.scheduled_ko_winners(49),
        "danel_3": [danel.danel_threshold(r, 3) for r in (1, 2)],
        "danel_4": [danel.danel_threshold(r, 4) for r in (1, 2, 3)],
        "min_players": registration.DEFAULT_MIN_PLAYERS,
        "closes_minutes": registration.REGISTRATION_CLOSES_BEFORE_START_S // 60,
    }


def _percent(hundredths: int) -> str:
    """4929 → "49,29"; 2560 → "25,6"; 200 → "2" (the rules' own way of printing them)."""
    whole, cents = divmod(hundredths, 100)
    return f"{whole},{cents:02d}".rstrip("0").rstrip(",")


def _training() -> dict[str, Any]:
    from tournaments.actions.registration import TRAINING_LIMITS
    from tournaments.formats import points, registration
    from tournaments.models import Tournament
    from wallet.actions.training import PLAY_GRANT

    return {
        "grant": PLAY_GRANT,
        "training_cost": points.TRAINING_COST // points.PT,
        "scheduled_limit": TRAINING_LIMITS[Tournament.Kind.SCHEDULED][0],
        "sitgo_limit": TRAINING_LIMITS[Tournament.Kind.SITGO][0],
        "confirm_opens": registration.CONFIRMATION_OPENS_BEFORE_START_S // 60,
        "confirm_closes": registration.REGISTRATION_CLOSES_BEFORE_START_S // 60,
    }


def _hours() -> dict[str, Any]:
    from piattaforma import siteops

    return {"hours": siteops.site_hours()}


PAGES: tuple[Page, ...] = (
    Page("scopa", _("Scopa"), PARTITE, _("Prese, scope e primiera: il gioco a partite più giocato.")),
    # not translated: the catalog's "Briscola" is the trump card of the table's felt
    Page("briscola", "Briscola", PARTITE, _("Carichi e briscole: 61 punti su 120 vincono la smazzata.")),
    Page("tresette", _("Tresette"), PARTITE, _("Obbligo di seme, terzi di punto e accusi.")),
    Page("asso", _("Asso piglia tutto"), PARTITE, _("La Scopa d'assi: l'asso prende tutto.")),
    Page("cirulla", _("Cirulla"), PARTITE, _("Prese a 15, accusi, grande e piccola, cappotto.")),
    Page("burraco", _("Burraco"), PARTITE, _("Scale, combinazioni, burrachi e pozzetto, in due o a coppie.")),
    Page("scala40", _("Scala 40"), PARTITE, _("Apri con 40 punti, cala e attacca, chiudi senza pagare.")),
    Page("settemezzo", _("Sette e mezzo"), PUNTATE, _("Contro il banco: avvicinati a 7½ senza sballare.")),
    Page("mazzetti", _("Mazzetti"), PUNTATE, _("Scegli un mazzetto: la carta più alta batte il mattaro.")),
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
    Page(
        "tornei",
        _("I tornei a turni"),
        TORNEI,
        _("Programmati e sit&go, KO, Danese e danEL, iscrizioni, montepremi e premi."),
        _tournaments,
    ),
    Page(
        "tavoli-cash",
        _("I tavoli cash"),
        TORNEI,
        _("Sedersi, la lista d'attesa, il credito al tavolo, poste e rake."),
    ),
    Page(
        "allenamento",
        _("Tavoli e tornei di allenamento"),
        TORNEI,
        _("I gettoni, i tavoli e i tornei gratuiti per imparare e allenarsi."),
        _training,
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
