"""Punti Torneo (PT): money tournaments, the training section (K5), and PT leaderboards.

PT are integers in hundredths of a PT ("centi-PT"). Decision: 1 PT corresponds to € 1,00 of rake,
so "PT = 2 x rake + quota montepremi" keeps the rake's cents exactly (rake 150 cents -> 300 centi-PT).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from zoneinfo import ZoneInfo

from tournaments.formats import FormatError
from tournaments.formats.prizes import award
from tournaments.formats.standings import Placings, position_of, rows

PT = 100  # one Punto Torneo in centi-PT
TRAINING_COST = 10 * PT  # "il costo di partecipazione fittizio è sempre uguale a 10 Punti Torneo"
ROME = ZoneInfo("Europe/Rome")


def format_pt(centi: int) -> str:
    """1250 -> "12,50 PT", 1000 -> "10 PT", -815 -> "-8,15 PT", 123456 -> "1.234,56 PT"."""
    sign = "-" if centi < 0 else ""
    whole, cents = divmod(abs(centi), PT)
    return f"{sign}{whole:,}".replace(",", ".") + (f",{cents:02d}" if cents else "") + " PT"


def money_pt(
    rake: int, weights: Sequence[int], placings: Placings, registration_order: Sequence[str] = ()
) -> dict[str, int]:
    """PT of a money tournament: 2 × rake to everyone, plus a share of the fictitious PT pool.

    The fictitious pool is entrants × rake, "ripartito tra i migliori classificati con gli stessi
    criteri illustrati per i tornei money": the same weights and ex aequo sharing as the cash prizes.
    """
    entrants = sum(len(g) for g in placings)
    shares = award(entrants * rake, weights, placings, registration_order)
    return {entrant: 2 * rake + share for entrant, share in shares.items()}


def participation_bonus(entrants: int, smazzate: int, per_smazzata: int) -> int:
    """The training bonus added to the PT pool, proportional to the smazzate of the tournament.

    Decision: entrants × smazzate scheduled for each line × ``per_smazzata`` centi-PT (a setting).
    """
    if min(entrants, smazzate, per_smazzata) < 0:
        raise FormatError("bonus", "Bonus di partecipazione non valido")
    return entrants * smazzate * per_smazzata


def k5_loss(position: int, entrants: int, last_loss: int = TRAINING_COST) -> int:
    """RULINGS K5 default curve: the fictitious cost paid at ``position`` of a training Danese.

    Linear from 0 at the median position (N + 1) / 2, a half place for even N (positions at or
    above it pay nothing), to ``last_loss`` at the last place, floored: loss = last_loss ×
    (position − (N + 1) / 2) / (N − (N + 1) / 2) = last_loss × (2 × position − N − 1) / (N − 1).
    66 entrants: the median is 33.5, the 40th pays exactly 2 PT and the 60th 8,15 PT, as the
    rules' "il 40° classificato perde 2 PT e il 60° ne perde 8".
    """
    if not 1 <= position <= entrants:
        raise FormatError("position", "Posizione fuori classifica")
    above = 2 * position - entrants - 1  # twice the distance from the median
    if above <= 0:
        return 0
    return last_loss * above // (entrants - 1)


def training_pt(
    weights: Sequence[int],
    placings: Placings,
    *,
    bonus: int = 0,
    danese: bool = False,
    registration_order: Sequence[str] = (),
) -> dict[str, int]:
    """Net PT of a training tournament: the PT prize minus the fictitious cost.

    The PT pool is entrants × 10 PT plus the participation ``bonus``, split like money prizes. Each
    entrant pays 10 PT, except in Danese (not danEL, ``danese=True``) where the cost follows K5.
    Decision: ex aequo lines pay the K5 cost of their group's best position.
    """
    entrants = sum(len(g) for g in placings)
    prizes = award(entrants * TRAINING_COST + bonus, weights, placings, registration_order)
    positions = position_of(placings)
    out: dict[str, int] = {}
    for entrant, prize in prizes.items():
        cost = k5_loss(positions[entrant], entrants) if danese else TRAINING_COST
        out[entrant] = prize - cost
    return out


class Period(StrEnum):
    """The PT leaderboards: "classifiche settimanali, mensili, annuali e storiche"."""

    WEEK = "week"
    MONTH = "month"
    YEAR = "year"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class PtRecord:
    """PT one player earned in one tournament, when it ended (an aware datetime)."""

    player: str
    pt: int
    ended_at: datetime


def period_start(period: Period, at: datetime) -> datetime | None:
    """Start of the period containing ``at`` on the Italian calendar (weeks start on Monday)."""
    if at.tzinfo is None:
        raise FormatError("naive_datetime", "Serve una data con fuso orario")
    local = at.astimezone(ROME)
    day = local.replace(hour=0, minute=0, second=0, microsecond=0)
    if period is Period.WEEK:
        day -= timedelta(days=local.weekday())
    elif period is Period.MONTH:
        day = day.replace(day=1)
    elif period is Period.YEAR:
        day = day.replace(month=1, day=1)
    else:
        return None
    # Rebuild with the zone so a week starting across a DST change gets the right offset.
    return datetime(day.year, day.month, day.day, tzinfo=ROME)


def leaderboard(records: Iterable[PtRecord], period: Period, at: datetime) -> Placings:
    """PT leaderboard of the period containing ``at`` (up to ``at``): totals, best first, ties ex aequo."""
    start = period_start(period, at)
    totals: dict[str, int] = {}
    for r in records:
        if r.ended_at <= at and (start is None or r.ended_at >= start):
            totals[r.player] = totals.get(r.player, 0) + r.pt
    return rank_totals(totals)


def rank_totals(totals: Mapping[str, int]) -> Placings:
    """Players by their PT totals, best first; equal totals are ex aequo (ties broken by nothing)."""
    order = sorted(totals, key=lambda p: (-totals[p], p))
    out: Placings = []
    for p in order:
        if out and totals[out[-1][0]] == totals[p]:
            out[-1].append(p)
        else:
            out.append([p])
    return out


def leaderboard_rows(placings: Placings, totals: Mapping[str, int]) -> list[tuple[int, str, int]]:
    """(position, player, PT) rows for display; ex aequo share a position."""
    return [(row.first, p, totals[p]) for row in rows(placings) for p in row.entrants]
