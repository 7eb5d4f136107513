"""The tournaments' report for the back office: fees and prizes per game and day (piattaforma.reports)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime

from django.utils.translation import gettext as _

from piattaforma.reports import Column, Report
from tournaments.models import Tournament
from wallet import selectors as wallet_selectors


def tournaments_report(*, since: datetime) -> Report:
    """The operator's fees (less the refunded ones) and the prizes paid, per day and game."""
    games = {str(pk): game for pk, game in Tournament.objects.values_list("pk", "game")}
    totals: dict[tuple[date, str], dict[str, int]] = defaultdict(lambda: {"fees": 0, "prizes": 0})
    for day, ref, fee in wallet_selectors.tournament_fee_rows(since=since):
        totals[(day, games.get(ref, "?"))]["fees"] += fee
    for day, ref, amount in wallet_selectors.prize_rows(since=since):
        totals[(day, games.get(ref, "?"))]["prizes"] += amount
    rows = [{"day": d, "game": g, **v, "ggr": v["fees"]} for (d, g), v in sorted(totals.items())]
    return Report(
        slug="tornei",
        title=_("Tornei: commissioni e premi per gioco e giorno"),
        columns=[
            Column("day", _("Giorno"), "date"),
            Column("game", _("Gioco"), "game"),
            Column("fees", _("Commissioni"), "eur"),
            Column("prizes", _("Premi pagati"), "eur"),
        ],
        rows=rows,
        series=["fees", "prizes"],
        note=_("Commissioni al netto dei rimborsi (cancellazioni, tornei annullati)."),
    )
