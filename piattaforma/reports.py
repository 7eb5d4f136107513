"""Business reports of the back office: tables of rows, a server-rendered SVG chart, a CSV of each.

The core knows no app: the apps that hold the figures register report builders in
``piattaforma.hooks`` (the wallet: deposits and withdrawals; the lobby: cash-table rake; the
tournaments: fees and prizes). The core adds what it can compute from every app's figures: the gross
gaming revenue (GGR) per game and day, the sum of the rows' ``ggr`` column of every report, and the
open tables and seated players now (``hooks.open_tables``).
"""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from decimal import Decimal
from typing import Any

from django.utils import timezone
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from piattaforma import hooks

MAX_DAYS = 366


def format_eur(cents: int) -> str:
    """Cents as the back office shows euro ("€ 1.234,50"), in the active language's format."""
    return "€ " + number_format(Decimal(int(cents)) / 100, decimal_pos=2, force_grouping=True)


@dataclass(frozen=True)
class Column:
    key: str
    label: str
    kind: str = "text"  # "text", "int", "eur" (cents), "date", "game" (a game's code, shown by its title)


@dataclass
class Report:
    """A report: its rows (plain dicts), how to show them, and what its chart draws."""

    slug: str
    title: str
    columns: list[Column]
    rows: list[dict[str, Any]] = field(default_factory=list)
    x: str = "day"  # the chart's categories
    series: list[str] = field(default_factory=list)  # the columns drawn as bars, side by side
    note: str = ""


def days_back(days: int, *, now: datetime | None = None) -> datetime:
    """The start of the local day ``days - 1`` days before today (a period of ``days`` days)."""
    days = max(1, min(int(days), MAX_DAYS))
    today = timezone.localdate(now or timezone.now())
    start = today - timedelta(days=days - 1)
    return datetime(start.year, start.month, start.day, tzinfo=timezone.get_current_timezone())


def cell(column: Column, value: Any) -> str:
    """A value as the page shows it."""
    if value is None:
        return "—"
    if column.kind == "eur":
        return format_eur(int(value))
    if column.kind == "date" and isinstance(value, date):
        return value.strftime("%d/%m/%Y")
    if column.kind == "game":
        return game_title(str(value))
    return str(value)


def game_title(code: str) -> str:
    """A game's title as players know it ("Chemin de fer"); the code itself if no engine has it."""
    from games import registry

    try:
        return str(registry.get(code).title)
    except registry.UnknownGame:
        return code


def to_csv(report: Report) -> str:
    """The report as CSV (amounts in euro with a dot, dates ISO): one header line, one line a row."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([c.label for c in report.columns])
    for row in report.rows:
        values = []
        for c in report.columns:
            value = row.get(c.key)
            if c.kind == "eur" and value is not None:
                value = f"{int(value) / 100:.2f}"
            elif c.kind == "date" and isinstance(value, date):
                value = value.isoformat()
            values.append("" if value is None else value)
        writer.writerow(values)
    return out.getvalue()


def _n(value: float) -> str:
    return f"{value:.1f}"


SERIES_CLASSES = ("chart-bar--a", "chart-bar--b", "chart-bar--c", "chart-bar--d")
TICK_CHAR_PX = 6.5  # the mean width of a character of an 11px tick label
SLANT_DEG = 35
SLANT_SIN = 0.574  # sin(35°): how far below the axis a slanted label reaches, per unit of its width


def bar_chart(report: Report, *, width: int = 720, height: int = 260) -> SafeString:
    """Grouped bars of the report's series per category, as inline SVG (no script, no style attribute)."""
    groups: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    order: list[str] = []
    x_column = next((c for c in report.columns if c.key == report.x), Column(report.x, report.x))
    for row in report.rows:
        label = cell(x_column, row.get(report.x))
        if label not in groups:
            order.append(label)
        for key in report.series:
            groups[label][key] += int(row.get(key) or 0)
    if not order or not report.series:
        return format_html('<p class="chart-empty">{}</p>', _("Nessun dato nel periodo."))
    top = max([1, *(v for g in groups.values() for v in g.values())])
    low = min([0, *(v for g in groups.values() for v in g.values())])
    span = top - low
    left = 70
    slot = (width - left - 10) / len(order)
    # labels wider than their slot are slanted, and the chart grows below to hold them
    longest = max(len(label) for label in order) * TICK_CHAR_PX
    slanted = longest > slot * 0.9
    bottom = max(40, round(22 + longest * SLANT_SIN)) if slanted else 40
    height += bottom - 40
    plot_h = height - bottom - 20
    bar = min(48.0, max(2.0, slot * 0.8 / len(report.series)))  # one day alone is no wall of colour
    money = any(c.kind == "eur" for c in report.columns if c.key in report.series)
    fmt = format_eur if money else str
    zero_y = 10 + plot_h * top / span
    parts = [
        format_html(
            '<line class="chart-axis" x1="{}" y1="{}" x2="{}" y2="{}"/>',
            left,
            _n(zero_y),
            width - 5,
            _n(zero_y),
        ),
        format_html(
            '<text class="chart-tick" x="{}" y="{}" text-anchor="end">{}</text>', left - 6, 16, fmt(top)
        ),
    ]
    if low < 0:
        parts.append(
            format_html(
                '<text class="chart-tick" x="{}" y="{}" text-anchor="end">{}</text>',
                left - 6,
                10 + plot_h,
                fmt(low),
            )
        )
    every = max(1, len(order) // 12)  # at most a dozen labels under the axis
    for i, label in enumerate(order):
        x0 = left + i * slot + (slot - bar * len(report.series)) / 2  # the group centred in its slot
        for j, key in enumerate(report.series):
            value = groups[label][key]
            h = plot_h * abs(value) / span
            y = zero_y - h if value >= 0 else zero_y
            title = f"{label} · {next((c.label for c in report.columns if c.key == key), key)}: {fmt(value)}"
            parts.append(
                format_html(
                    '<rect class="chart-bar {}" x="{}" y="{}" width="{}" height="{}">'
                    "<title>{}</title></rect>",
                    SERIES_CLASSES[j % len(SERIES_CLASSES)],
                    _n(x0 + j * bar),
                    _n(y),
                    _n(bar),
                    _n(max(h, 0.5)),
                    title,
                )
            )
        if i % every == 0:
            x, y = _n(left + i * slot + slot / 2), height - bottom + 18
            if slanted:
                parts.append(
                    format_html(
                        '<text class="chart-tick" x="{}" y="{}" text-anchor="end" '
                        'transform="rotate(-{} {} {})">{}</text>',
                        x,
                        y - 6,
                        SLANT_DEG,
                        x,
                        y - 6,
                        label,
                    )
                )
            else:
                parts.append(
                    format_html(
                        '<text class="chart-tick" x="{}" y="{}" text-anchor="middle">{}</text>', x, y, label
                    )
                )
    legend = format_html_join(
        "",
        '<li><span class="chart-key {}"></span>{}</li>',
        (
            (
                SERIES_CLASSES[j % len(SERIES_CLASSES)],
                next((c.label for c in report.columns if c.key == key), key),
            )
            for j, key in enumerate(report.series)
        ),
    )
    svg = format_html(
        '<svg class="chart" viewBox="0 0 {} {}" role="img" aria-label="{}" '
        'preserveAspectRatio="xMinYMin meet">{}</svg>',
        width,
        height,
        report.title,
        format_html_join("", "{}", ((p,) for p in parts)),
    )
    return format_html(
        '<figure class="chart-figure">{}<ul class="chart-legend">{}</ul></figure>', svg, legend
    )


# --- the reports the core builds from every app's figures ----------------------------------------


def ggr_report(*, since: datetime, built: list[Report]) -> Report:
    """Gross gaming revenue per day and game: cash-table rake plus tournament fees (the apps' rows)."""
    totals: dict[tuple[date, str], int] = defaultdict(int)
    for report in built:
        for row in report.rows:
            if "ggr" in row and "game" in row:
                totals[(row["day"], row["game"])] += int(row["ggr"])
    rows = [{"day": d, "game": g, "ggr": v} for (d, g), v in sorted(totals.items())]
    return Report(
        slug="ggr",
        title=_("Raccolta lorda del concessionario (GGR) per gioco e giorno"),
        columns=[
            Column("day", _("Giorno"), "date"),
            Column("game", _("Gioco"), "game"),
            Column("ggr", _("GGR"), "eur"),
        ],
        rows=rows,
        series=["ggr"],
        note=_("Rake dei tavoli cash più commissioni dei tornei, al netto dei rimborsi."),
    )


def tables_report() -> Report:
    """Open tables and the players seated at them now, per game."""
    rows = [
        {"game": game, "tables": tables, "seated": seated}
        for game, (tables, seated) in sorted(hooks.open_tables().items())
    ]
    return Report(
        slug="tavoli",
        title=_("Tavoli aperti e giocatori seduti, adesso"),
        columns=[
            Column("game", _("Gioco"), "game"),
            Column("tables", _("Tavoli aperti"), "int"),
            Column("seated", _("Giocatori seduti"), "int"),
        ],
        rows=rows,
        x="game",
        series=["tables", "seated"],
    )


def concurrency_report(*, since: datetime, hourly: bool) -> Report:
    """Open tables and players seated over time, from the five-minute samples: peak and mean per period.

    Per hour for a period of two days at most, else per day.
    """
    from piattaforma.models import ActivitySample

    periods: dict[str, list[tuple[int, int]]] = defaultdict(list)
    samples = ActivitySample.objects.filter(sampled_at__gte=since).order_by("sampled_at")
    for at, tables, seated in samples.values_list("sampled_at", "tables", "seated"):
        local = timezone.localtime(at)
        periods[local.strftime("%d/%m %H:00" if hourly else "%d/%m/%Y")].append((tables, seated))
    rows = [
        {
            "period": period,
            "peak_seated": max(s for _, s in values),
            "mean_seated": round(sum(s for _, s in values) / len(values)),
            "peak_tables": max(t for t, _ in values),
            "samples": len(values),
        }
        for period, values in periods.items()
    ]
    return Report(
        slug="concorrenza",
        title=_("Giocatori seduti e tavoli aperti nel tempo"),
        columns=[
            Column("period", _("Ora") if hourly else _("Giorno")),
            Column("peak_seated", _("Giocatori seduti (picco)"), "int"),
            Column("mean_seated", _("Giocatori seduti (media)"), "int"),
            Column("peak_tables", _("Tavoli aperti (picco)"), "int"),
            Column("samples", _("Rilevazioni"), "int"),
        ],
        rows=rows,
        x="period",
        series=["peak_seated", "peak_tables"],
        note=_("Rilevati ogni cinque minuti; per ora se il periodo è di due giorni al massimo."),
    )


def all_reports(*, days: int, now: datetime | None = None) -> list[Report]:
    """Every report of the last ``days`` days: the apps' own, then GGR, the concurrency series and now."""
    since = days_back(days, now=now)
    built = hooks.reports(since=since)
    return [
        ggr_report(since=since, built=built),
        *built,
        concurrency_report(since=since, hourly=days <= 2),
        tables_report(),
    ]
