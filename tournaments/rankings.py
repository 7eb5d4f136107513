"""PT leaderboards and skill levels (rules 004, "Classifiche", "Classifiche speciali", "Rating e
livelli di abilità"): the pure rules are in ``formats.points`` and ``formats.ratings``; this module
reads the Punti Torneo and VP every finished tournament wrote on its registrations (``running``).

Sections: the money section's PT (freerolls included) and the training section's fictitious PT are
different currencies, so each has its own leaderboards. A special leaderboard is the PT of the
tournaments that carry its name, over all time.
"""

from __future__ import annotations

from collections import defaultdict
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import transaction
from django.db.models import QuerySet, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.formats.points import Period, format_pt, leaderboard_rows, period_start, rank_totals
from tournaments.formats.ratings import (
    MIN_TOURNAMENTS,
    WINDOW_DAYS,
    TournamentPlayed,
    counted,
    rating,
    skill_levels,
)
from tournaments.models import GAME_CHOICES, Registration, SkillLevel, Tournament

MONEY, TRAINING = "money", "training"
SECTIONS = (MONEY, TRAINING)
PERIODS = (Period.WEEK, Period.MONTH, Period.YEAR, Period.ALL)
ROWS = 100  # the leaderboard's first rows; the player's own row is added when he is further down


def period_label(period: Period) -> str:
    return {
        Period.WEEK: _("Settimana"),
        Period.MONTH: _("Mese"),
        Period.YEAR: _("Anno"),
        Period.ALL: _("Storica"),
    }[period]


def level_label(level: int) -> str:
    return _("Esordiente") if level == 0 else _("%(n)d° livello") % {"n": level}


def levels_label(levels: frozenset[int]) -> str:
    """{0, 4, 5} -> "4° livello, 5° livello, esordienti" (the info panel, the refusal)."""
    names = [level_label(n) for n in sorted(levels) if n]
    if 0 in levels:
        names.append(_("esordienti"))
    return ", ".join(names)


def _scored(section: str) -> QuerySet[Registration]:
    return Registration.objects.filter(
        state=Registration.State.ADMITTED,
        pt__isnull=False,
        tournament__state=Tournament.State.FINISHED,
        tournament__training=section == TRAINING,
    )


def special_names() -> list[str]:
    """The special leaderboards of the tournaments not cancelled, by name."""
    names = (
        Tournament.objects.exclude(state=Tournament.State.CANCELLED)
        .exclude(special_leaderboard="")
        .values_list("special_leaderboard", flat=True)
        .distinct()
    )
    return sorted(set(names))


def leaderboard(
    *,
    section: str = MONEY,
    period: Period = Period.WEEK,
    special: str = "",
    user_id: int | None = None,
    at: datetime | None = None,
) -> dict[str, Any]:
    """The rows of one leaderboard (position, nickname, PT; ex aequo share a position), best first.

    ``special``: the PT of the tournaments of that special leaderboard (money section), all time.
    Bots (``User.is_bot``) play but do not rank: the leaderboards are of people.
    """
    at = at or timezone.now()
    regs = _scored(MONEY if special else section).filter(user__is_bot=False)
    if special:
        regs = regs.filter(tournament__special_leaderboard=special)
    else:
        start = period_start(period, at)
        if start is not None:
            regs = regs.filter(tournament__finished_at__gte=start)
    regs = regs.filter(tournament__finished_at__lte=at)
    totals = {
        str(row["user_id"]): row["total"]
        for row in regs.values("user_id").annotate(total=Sum("pt")).order_by()
    }
    ranked = leaderboard_rows(rank_totals(totals), totals)
    shown = ranked[:ROWS]
    mine = next((r for r in ranked if user_id is not None and r[1] == str(user_id)), None)
    if mine is not None and mine not in shown:
        shown = [*shown, mine]
    from piattaforma.models import User

    names = dict(User.objects.filter(pk__in=[int(r[1]) for r in shown]).values_list("pk", "nickname"))
    rows = [
        {
            "position": position,
            "nickname": names.get(int(uid), "?"),
            "pt": format_pt(pt),
            "mine": uid == str(user_id),
            "gap": i == ROWS,  # the player's own row, after the first ROWS
        }
        for i, (position, uid, pt) in enumerate(shown)
    ]
    return {"rows": rows, "players": len(ranked), "since": None if special else period_start(period, at)}


def my_points(*, user_id: int, at: datetime | None = None) -> dict[str, Any]:
    """A player's PT in every period of both sections and his position there (his profile)."""
    at = at or timezone.now()
    out: dict[str, Any] = {}
    for section in SECTIONS:
        cells = []
        for period in PERIODS:
            board = leaderboard(section=section, period=period, user_id=user_id, at=at)
            row = next((r for r in board["rows"] if r["mine"]), None)
            cells.append(
                {
                    "label": period_label(period),
                    "pt": row["pt"] if row else format_pt(0),
                    "position": row["position"] if row else None,
                    "players": board["players"],
                }
            )
        out[section] = cells
    return out


def my_levels(*, user_id: int, as_of: date | None = None) -> list[dict[str, Any]]:
    """A player's rating and skill level in each game he played a money tournament in the window
    (his profile). The tournaments and the rating are his own, read now; the level ranks him among
    every player, so it is the nightly one (``skill_levels_update``) once he has 7 tournaments."""
    as_of = as_of or timezone.localdate()
    nightly = {s.game: s for s in SkillLevel.objects.filter(user_id=user_id)}
    played = {game: players[str(user_id)] for game, players in _histories(as_of, user_id=user_id).items()}
    names = dict(GAME_CHOICES)
    out = []
    for game in sorted(set(played) | set(nightly)):
        history = counted(played.get(game, []), as_of)
        value = rating(history, as_of)
        row = nightly.get(game)
        if len(history) < MIN_TOURNAMENTS:
            level = ngettext(
                "Esordiente (%(n)d torneo su %(min)d)", "Esordiente (%(n)d tornei su %(min)d)", len(history)
            ) % {"n": len(history), "min": MIN_TOURNAMENTS}
        elif row is not None and row.level:
            level = level_label(row.level)
        else:
            level = _("assegnato nell'aggiornamento di stanotte")
        exact = Decimal(value.numerator) / Decimal(value.denominator) if value is not None else None
        out.append(
            {
                "game": names.get(game, game),
                "level": level,
                "rating": str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)).replace(".", ",")
                if exact is not None
                else "—",
                "tournaments": len(history),
                "updated_on": row.updated_on if row else None,
            }
        )
    return out


def _histories(as_of: date, user_id: int | None = None) -> dict[str, dict[str, list[TournamentPlayed]]]:
    """Per game, per player (or of one player), the money tournaments he finished in the 4-month window.

    Slot tournaments are left out: the slot is a game of chance, so it has no rating or skill level."""
    since = timezone.make_aware(datetime.combine(as_of - timedelta(days=WINDOW_DAYS), datetime.min.time()))
    regs = (
        _scored(MONEY)
        .filter(turns_played__gt=0, tournament__finished_at__gte=since)
        .exclude(tournament__format=Tournament.Format.SLOT)  # chance, not skill: no rating
        .filter(**({"user_id": user_id} if user_id is not None else {}))
        .select_related("tournament")
        .only(
            "user_id",
            "vp",
            "turns_played",
            "tournament__game",
            "tournament__finished_at",
            "tournament__pool_quota",
            "tournament__fee",
            "tournament__smazzate",
        )
    )
    out: dict[str, dict[str, list[TournamentPlayed]]] = defaultdict(lambda: defaultdict(list))
    for r in regs.iterator():
        t = r.tournament
        assert t.finished_at is not None  # finished (``_scored``)
        out[t.game][str(r.user_id)].append(
            TournamentPlayed(
                ended_on=timezone.localdate(t.finished_at),
                cost=t.cost,
                smazzate_per_turn=t.smazzate or 1,  # decision: a whole match weighs as one smazzata
                turns_played=r.turns_played,
                vp=r.vp,
            )
        )
    return out


@transaction.atomic
def skill_levels_update(*, as_of: date | None = None) -> int:
    """The nightly update of every player's rating and level in every game; returns the rows kept.

    A player with no money tournament in the window has no row (no rating to show).
    """
    as_of = as_of or timezone.localdate()
    kept = 0
    histories = _histories(as_of)
    for game, players in histories.items():
        levels = skill_levels(players, as_of)
        for uid, history in players.items():
            value = rating(history, as_of)
            if value is None:
                continue
            SkillLevel.objects.update_or_create(
                user_id=int(uid),
                game=game,
                defaults={
                    "rating": (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
                        Decimal("0.001")
                    ),
                    "level": levels[uid],
                    "tournaments": len(counted(history, as_of)),
                    "updated_on": as_of,
                },
            )
            kept += 1
    stale = SkillLevel.objects.exclude(updated_on=as_of)
    stale.delete()
    return kept


def entry_standing(*, user_id: int, board: str, special: str, game: str, series: str) -> dict[str, Any]:
    """A player's standing for a reserved entry (the provider of ``hooks.entry_standing``): his
    position in ``board`` ("money:week"…, or "special" with ``special`` its name), None when he is
    not in it; and the money tournaments he won (placed first, ex aequo included) of the special
    leaderboard ``series``, or else of ``game``."""
    out: dict[str, Any] = {}
    if board:
        if board == "special":
            rows = leaderboard(special=special, user_id=user_id)["rows"]
        else:
            section, _sep, period = board.partition(":")
            rows = leaderboard(section=section, period=Period(period), user_id=user_id)["rows"]
        mine = next((r for r in rows if r["mine"]), None)
        out["position"] = mine["position"] if mine else None
    won = _scored(MONEY).filter(user_id=user_id, position=1)
    won = won.filter(tournament__special_leaderboard=series) if series else won.filter(tournament__game=game)
    out["wins"] = won.values("tournament_id").distinct().count()
    return out
