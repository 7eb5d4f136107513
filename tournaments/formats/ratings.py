"""Ratings and skill levels ("Rating e livelli di abilità"), exact with fractions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from tournaments.formats import FormatError

WINDOW_DAYS = 120  # "negli ultimi 4 mesi"; the Pg bands end at 120 days
MIN_TOURNAMENTS = 7
ESORDIENTE = 0  # level value of a player with fewer than 7 tournaments
LEVELS = 5


@dataclass(frozen=True, slots=True)
class TournamentPlayed:
    """One money tournament or sit&go a player finished."""

    ended_on: date
    cost: int  # entry cost in cents
    smazzate_per_turn: int
    turns_played: int
    vp: int  # total VP the player scored in it


def weight_days(days: int) -> int:
    """Pg: 4 up to 30 days, 3 for 31-60, 2 for 61-90, 1 for 91-120, 0 (not counted) beyond."""
    if days < 0:
        raise FormatError("days", "Torneo nel futuro")
    for limit, weight in ((30, 4), (60, 3), (90, 2), (120, 1)):
        if days <= limit:
            return weight
    return 0


def weight_cost(cost: int) -> int:
    """Pc from the entry cost in cents: ≥ 100,00 → 5; 30,01-99,99 → 4; 10,01-30,00 → 3;
    2,01-10,00 → 2; 0,50-2,00 → 1. Decision: money tournaments under € 0,50 also weigh 1."""
    if cost >= 10000:
        return 5
    if cost > 3000:
        return 4
    if cost > 1000:
        return 3
    if cost > 200:
        return 2
    return 1


def tournament_weight(t: TournamentPlayed, as_of: date) -> int:
    """Pt = Pg × Pc × Ps × Pn."""
    return weight_days((as_of - t.ended_on).days) * weight_cost(t.cost) * t.smazzate_per_turn * t.turns_played


def mvp(t: TournamentPlayed) -> Fraction:
    """MVP: the average VP per turn the player scored in the tournament."""
    if t.turns_played <= 0:
        raise FormatError("turns_played", "Nessun turno giocato")
    return Fraction(t.vp, t.turns_played)


def counted(history: Iterable[TournamentPlayed], as_of: date) -> list[TournamentPlayed]:
    """The tournaments inside the 4-month window."""
    return [t for t in history if 0 <= (as_of - t.ended_on).days <= WINDOW_DAYS]


def rating(history: Iterable[TournamentPlayed], as_of: date) -> Fraction | None:
    """R = Σ(MVP·Pt) / Σ(Pt) over the window; None without any counted tournament."""
    items = counted(history, as_of)
    total = sum(tournament_weight(t, as_of) for t in items)
    if not items or total == 0:
        return None
    return sum((mvp(t) * tournament_weight(t, as_of) for t in items), Fraction(0)) / total


def skill_levels(histories: Mapping[str, Iterable[TournamentPlayed]], as_of: date) -> dict[str, int]:
    """Level 1 (best 20 %) to 5 of every player, or ESORDIENTE (0) under 7 tournaments.

    Decisions: the 7 tournaments are counted inside the same 4-month window as the rating; levels
    are quintiles of the rated players by rank, rank = 1 + players with a strictly better rating
    (equal ratings always share a level): level = 1 + 5 × (rank − 1) // rated players.
    """
    ratings: dict[str, Fraction] = {}
    out: dict[str, int] = {}
    for player, history in histories.items():
        items = counted(history, as_of)
        r = rating(items, as_of)
        if len(items) < MIN_TOURNAMENTS or r is None:
            out[player] = ESORDIENTE
        else:
            ratings[player] = r
    order = sorted(ratings.values(), reverse=True)
    first_index: dict[Fraction, int] = {}
    for i, value in enumerate(order):
        first_index.setdefault(value, i)
    for player, value in ratings.items():
        out[player] = 1 + LEVELS * first_index[value] // len(order)
    return out
