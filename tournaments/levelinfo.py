"""Reads of a running level tournament for its pages: the level clock as a player reads it, the chip
counts and the eliminations (rules 004, "Informazioni sul torneo", "La Lobby del torneo").

Plain data from ``Tournament.progress`` (written by ``freezeout.advance`` between hands): the chips
are those of the last hand ended at each table. Nothing here writes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import number_format

from tournaments import freezeout
from tournaments.formats import levels
from tournaments.models import Registration, Tournament


def chips_label(n: int) -> str:
    """Chips as the pages write them: "1.600" (the thousands grouped as the language does)."""
    return number_format(n, force_grouping=True)


def _running_levels(t: Tournament) -> bool:
    p = t.progress or {}
    return t.is_levels and t.state == Tournament.State.RUNNING and "chips" in p and bool(p["chips"])


def clock(t: Tournament, now: datetime) -> dict[str, Any]:
    """The level of the hands being played, the next level and the seconds until it starts.

    A new level applies from the next hand dealt (``freezeout.advance``): once the clock has passed
    into it, the next invito is "from the next hand" (``seconds`` 0) until a hand is dealt with it.
    """
    p = t.progress
    speed = levels.Speed(t.speed)
    current = levels.level_schedule(speed, t.first_invito, int(p["level"]))[-1]
    by_clock = freezeout.level_now(t, now)
    if by_clock.number > current.number:
        following, seconds = by_clock, 0
    else:
        following = levels.level_schedule(speed, t.first_invito, current.number + 1)[-1]
        elapsed = (now - (t.started_at or now)).total_seconds()
        seconds = max(0, int(current.end_s - elapsed + 0.999))
    return {
        "level": current.number,
        "invito": current.invito,
        "next_level": following.number,
        "next_invito": following.invito,
        "seconds_to_next": seconds,
        "level_minutes": levels.LEVEL_SECONDS[speed] // 60,
    }


def summary(t: Tournament, now: datetime | None = None) -> dict[str, Any] | None:
    """A running level tournament at a glance (the info panel, the lobby): the level clock, the
    players left, the chips in play and the average stack. None for any other tournament."""
    if not _running_levels(t):
        return None
    now = now or timezone.now()
    left = len(t.progress["chips"])
    in_play = freezeout.chips_in_play(t)
    average = in_play // left
    return {
        **clock(t, now),
        "players_left": left,
        "entrants": len(t.progress["lines"]),
        "chips_in_play": in_play,
        "chips_in_play_label": chips_label(in_play),
        "average": average,
        "average_label": chips_label(average),
        "tables": len({table_id for table_id, _seat in t.progress["seating"].values()}),
        "hand_for_hand": bool(t.progress.get("hand_for_hand")),
    }


def position(chips: dict[str, int], user_id: int) -> int | None:
    """The player's position by chips among the players left (equal chips share a position)."""
    mine = chips.get(str(user_id))
    if mine is None:
        return None
    return 1 + sum(1 for c in chips.values() if c > mine)


def table_info(t: Tournament, user_id: int | None, now: datetime | None = None) -> dict[str, Any]:
    """What a level tournament's table shows beside the felt: the summary, and for a player still in
    his chips and position by chips; for one eliminated, his placing. ``{"levels": False}`` for a
    tournament not running by levels (a turn tournament's table shows none of it), with
    ``finished`` and the reader's final placing once a level tournament has ended."""
    info = summary(t, now)
    if info is None:
        finished = t.is_levels and t.state == Tournament.State.FINISHED
        placing = None
        if finished and user_id is not None:
            placing = (
                t.registrations.filter(user_id=user_id, position__isnull=False)
                .values_list("position", flat=True)
                .first()
            )
        return {
            "levels": False,
            "finished": finished,
            "placing": placing,
            "lobby_url": reverse("tournaments:lobby", args=[t.pk]),
        }
    chips: dict[str, int] = t.progress["chips"]
    mine = chips.get(str(user_id)) if user_id is not None else None
    out: dict[str, Any] = {
        "levels": True,
        "lobby_url": reverse("tournaments:lobby", args=[t.pk]),
        **info,
        "chips": mine,
        "chips_label": chips_label(mine) if mine is not None else "",
        "position": position(chips, user_id) if user_id is not None else None,
        "placing": None,
        "table_number": None,
    }
    seat = t.progress["seating"].get(str(user_id)) if user_id is not None else None
    if seat is not None:
        from tournaments.models import TournamentMatch

        out["table_number"] = (
            TournamentMatch.objects.filter(tournament=t, table_id=seat[0], ended_at__isnull=True)
            .values_list("number", flat=True)
            .first()
        )
    if mine is None and user_id is not None:
        out["placing"] = eliminated_placing(t, user_id)
    return out


def eliminations(t: Tournament) -> list[dict[str, Any]]:
    """The players eliminated so far, the latest first, each with his placing (ex aequo share it):
    "La Lobby del torneo", the entrants with the standings while the tournament runs."""
    from piattaforma.models import User

    p = t.progress or {}
    groups: list[list[list[str]]] = p.get("eliminations", [])
    ids = {int(uid) for elimination in groups for group in elimination for uid in group}
    names = dict(User.objects.filter(pk__in=ids).values_list("pk", "nickname"))
    left = len(p.get("lines", {}))
    rows: list[dict[str, Any]] = []
    for number, elimination in enumerate(groups, start=1):
        place = left - sum(len(g) for g in elimination) + 1
        # each elimination takes the last places still free, its best group first
        for group in elimination:
            for uid in sorted(group, key=lambda u: names.get(int(u), "")):
                rows.append(
                    {
                        "position": place,
                        "nickname": names.get(int(uid), "?"),
                        "order": number,
                        "tied": len(group) > 1,
                    }
                )
            place += len(group)
        left -= sum(len(g) for g in elimination)
    rows.sort(key=lambda r: (-r["order"], r["position"], r["nickname"]))
    return rows


def eliminated_placing(t: Tournament, user_id: int) -> int | None:
    """The placing of a player already eliminated from the running tournament (None if still in)."""
    from piattaforma.models import User

    nickname = User.objects.filter(pk=user_id).values_list("nickname", flat=True).first()
    return next((r["position"] for r in eliminations(t) if r["nickname"] == nickname), None)


def chip_counts(t: Tournament, user_id: int | None) -> list[dict[str, Any]]:
    """The players left by chips, most first (equal chips share a position), each with his table
    number (from the tournament's own match rows) and whether he is the one reading."""
    from piattaforma.models import User
    from tournaments.models import TournamentMatch

    if not _running_levels(t):
        return []
    chips: dict[str, int] = t.progress["chips"]
    seating: dict[str, list[int]] = t.progress["seating"]
    names = dict(User.objects.filter(pk__in=[int(u) for u in chips]).values_list("pk", "nickname"))
    numbers = dict(
        TournamentMatch.objects.filter(tournament=t, ended_at__isnull=True).values_list("table_id", "number")
    )
    rows = [
        {
            "position": position(chips, int(uid)),
            "nickname": names.get(int(uid), "?"),
            "chips": c,
            "chips_label": chips_label(c),
            "table": numbers.get(seating.get(uid, [None])[0]),
            "mine": user_id is not None and int(uid) == user_id,
        }
        for uid, c in chips.items()
    ]
    rows.sort(key=lambda r: (r["position"], r["nickname"].lower()))
    return rows


def chips_stamp(t: Tournament) -> str:
    """What changes the lobby's chip counts: the hands folded, the players left, the level."""
    if not _running_levels(t):
        return ""
    p = t.progress
    return f"{p.get('hands', 0)}:{len(p['chips'])}:{p.get('level', 0)}"


def my_result(t: Tournament, user_id: int | None) -> dict[str, Any] | None:
    """The reader's own end of a finished tournament: his placing, prize, PT and his position in
    the week's leaderboard of the tournament's section (money or training) now."""
    from tournaments import rankings
    from tournaments.formats.money import format_euro
    from tournaments.formats.points import Period, format_pt

    if user_id is None or t.state != Tournament.State.FINISHED:
        return None
    reg = t.registrations.filter(user_id=user_id, position__isnull=False).first()
    if reg is None:
        return None
    section = rankings.TRAINING if t.training else rankings.MONEY
    at = max(timezone.now(), t.finished_at or timezone.now())  # this tournament counted, whatever the clock
    board = rankings.leaderboard(section=section, period=Period.WEEK, user_id=user_id, at=at)
    mine = next((r for r in board["rows"] if r["mine"]), None)
    return {
        "position": reg.position,
        "prize": format_euro(reg.prize) if reg.prize else "",
        "pt": format_pt(reg.pt) if reg.pt is not None else "",
        "board_position": mine["position"] if mine else None,
        "board_players": board["players"],
        "section": section,
        "entrants": t.registrations.filter(state=Registration.State.ADMITTED).count(),
    }
