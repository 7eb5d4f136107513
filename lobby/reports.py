"""The lobby's report for the back office: the cash tables' rake per game and day (piattaforma.reports)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime

from django.utils.translation import gettext as _

from lobby.models import Table
from piattaforma.reports import Column, Report
from wallet import selectors as wallet_selectors


def rake_report(*, since: datetime) -> Report:
    """Rake of the money cash tables per day and game: the operator's gross gaming revenue there."""
    games = {str(pk): game for pk, game in Table.objects.values_list("pk", "game")}
    totals: dict[tuple[date, str], list[int]] = defaultdict(lambda: [0, 0])
    for day, table_ref, rake in wallet_selectors.hand_rake_rows(since=since):
        cell = totals[(day, games.get(table_ref, "?"))]
        cell[0] += 1
        cell[1] += rake
    rows = [
        {"day": d, "game": g, "hands": n, "rake": r, "ggr": r} for (d, g), (n, r) in sorted(totals.items())
    ]
    return Report(
        slug="rake",
        title=_("Rake dei tavoli cash per gioco e giorno"),
        columns=[
            Column("day", _("Giorno"), "date"),
            Column("game", _("Gioco"), "game"),
            Column("hands", _("Mani con rake"), "int"),
            Column("rake", _("Rake"), "eur"),
        ],
        rows=rows,
        series=["rake"],
    )
