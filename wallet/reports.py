"""The wallet's report for the back office: deposits and withdrawals per day (piattaforma.reports)."""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime

from django.utils.translation import gettext as _

from piattaforma.reports import Column, Report
from wallet import selectors


def payments_report(*, since: datetime) -> Report:
    """Settled deposits and withdrawals per day, and their difference."""
    days: dict[date, dict[str, int]] = defaultdict(lambda: {"deposit": 0, "withdrawal": 0})
    for day, direction, amount in selectors.payment_rows(since=since):
        days[day][direction] += amount
    rows = [
        {
            "day": d,
            "deposits": v["deposit"],
            "withdrawals": v["withdrawal"],
            "net": v["deposit"] - v["withdrawal"],
        }
        for d, v in sorted(days.items())
    ]
    return Report(
        slug="pagamenti",
        title=_("Depositi e prelievi per giorno"),
        columns=[
            Column("day", _("Giorno"), "date"),
            Column("deposits", _("Depositi"), "eur"),
            Column("withdrawals", _("Prelievi"), "eur"),
            Column("net", _("Saldo"), "eur"),
        ],
        rows=rows,
        series=["deposits", "withdrawals"],
        note=_("Pagamenti completati (i prelievi approvati dallo staff)."),
    )


def active_players_report(*, since: datetime) -> Report:
    """Players who staked real money (a seat, a rebuy, a hand, a tournament entry) per day."""
    rows = [{"day": day, "players": n} for day, n in selectors.active_player_counts(since=since)]
    return Report(
        slug="giocatori-attivi",
        title=_("Giocatori attivi per giorno"),
        columns=[Column("day", _("Giorno"), "date"), Column("players", _("Giocatori attivi"), "int")],
        rows=rows,
        series=["players"],
        note=_("Giocatori con almeno un movimento di gioco in denaro reale nel giorno."),
    )
