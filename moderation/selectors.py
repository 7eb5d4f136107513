"""Reads of moderation: restrictions, recent lines, the queue and a case's context (plain data)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db.models import Exists, F, OuterRef, Q
from django.utils import timezone

from moderation import collusion, filters, rooms
from moderation.models import (
    Category,
    ChatLine,
    ConductEvent,
    ConductMeasure,
    ConductRecord,
    HelpThread,
    Notice,
    PairSignal,
    PlayerSignal,
    Report,
    ReportEntry,
    Sanction,
    SignalHand,
    SignalSeat,
)
from piattaforma import roles
from tournaments.formats import ammonizioni

UPHELD = ("warn", "mute", "suspend_chat", "suspend_account")
SHOWN = (ChatLine.Outcome.SHOWN, ChatLine.Outcome.CENSORED)
CONTEXT_BEFORE, CONTEXT_AFTER = 10, 5  # lines captured before and after a reported one


def chat_restriction(*, user_id: int, now: datetime) -> Sanction | None:
    """The mute or chat suspension in force now, the longest first (None: the player may write)."""
    return (
        Sanction.objects.filter(
            user_id=user_id, kind__in=(Sanction.Kind.MUTE, Sanction.Kind.CHAT_SUSPENSION), starts_at__lte=now
        )
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))
        .order_by(F("ends_at").desc(nulls_first=True))
        .first()
    )


def chat_sanctions(*, user_id: int, now: datetime, limit: int = 10) -> list[dict[str, Any]]:
    """A player's last warnings, mutes and chat suspensions, newest first, each marked if in force now
    (for the moderators' view of his card)."""
    return [
        {
            "kind": s.get_kind_display(),
            "starts_at": s.starts_at,
            "ends_at": s.ends_at,
            "reason": s.reason,
            "in_force": s.kind != Sanction.Kind.WARNING
            and s.starts_at <= now
            and (s.ends_at is None or s.ends_at > now),
        }
        for s in Sanction.objects.filter(user_id=user_id).order_by("-starts_at", "-id")[:limit]
    ]


def recent_lines(*, user_id: int, since: datetime) -> list[filters.Recent]:
    """The author's lines since a moment, for the repeat and flood rules."""
    rows = ChatLine.objects.filter(author_id=user_id, created_at__gte=since).values_list(
        "created_at", "norm", "outcome"
    )
    return [filters.Recent(at, norm, outcome != ChatLine.Outcome.BLOCKED) for at, norm, outcome in rows]


HELP_PREFIX = "help:"


def lines_visible(*, user: Any, lines: Any) -> Any:
    """The chat lines of ``lines`` (a queryset) that ``user`` may read: HELP conversations are the
    player's and the staff's, so anyone without the staff role (a moderator) never gets one. The
    one filter every list, search and case page of chat lines goes through."""
    return lines if roles.has_staff_role(user) else lines.exclude(channel__startswith=HELP_PREFIX)


def _line_dict(line: ChatLine, marked: int | None = None) -> dict[str, Any]:
    return {
        "id": line.pk,
        "nickname": line.author.nickname,
        "text": line.shown_text or line.text,
        "written": line.text if line.shown_text and line.shown_text != line.text else "",  # before censoring
        "outcome": line.outcome,
        "at": line.created_at.isoformat(),
        "reported": line.pk == marked,
    }


def conversation(*, line: ChatLine | None, channel: str, target_id: int) -> list[dict[str, Any]]:
    """The conversation around a line as it stands now (or the channel's, or the player's last lines)."""
    base = ChatLine.objects.select_related("author")
    if line is not None:
        others = base.filter(channel=line.channel, outcome__in=SHOWN)
        before = list(
            others.filter(
                Q(created_at__lt=line.created_at) | Q(created_at=line.created_at, pk__lt=line.pk)
            ).order_by("-created_at", "-pk")[:CONTEXT_BEFORE]
        )
        after = list(
            others.filter(
                Q(created_at__gt=line.created_at) | Q(created_at=line.created_at, pk__gt=line.pk)
            ).order_by("created_at", "pk")[:CONTEXT_AFTER]
        )
        return [_line_dict(x, line.pk) for x in [*reversed(before), line, *after]]
    # a player reported with no chat named: his last lines anywhere but in HELP (never captured
    # into a case a moderator reads; a HELP report names its HELP channel)
    rows = (
        base.filter(channel=channel)
        if channel
        else base.filter(author_id=target_id).exclude(channel__startswith=HELP_PREFIX)
    )
    last = list(
        rows.filter(outcome__in=SHOWN).order_by("-created_at", "-pk")[: CONTEXT_BEFORE + CONTEXT_AFTER]
    )
    return [_line_dict(x) for x in reversed(last)]


def reports_since(*, reporter_id: int, since: datetime) -> int:
    return ReportEntry.objects.filter(reporter_id=reporter_id, created_at__gte=since).count()


def reliability(*, user_id: int) -> float:
    """How often the reporter's past reports were upheld (Laplace: 0.5 for a newcomer)."""
    decisions = list(
        ReportEntry.objects.filter(reporter_id=user_id, report__status=Report.Status.CLOSED)
        .values_list("report_id", "report__decision")
        .distinct()
    )
    upheld = sum(1 for _, d in decisions if d in UPHELD)
    return (upheld + 1) / (len(decisions) + 2)


def sanctions_count(*, user_id: int, since: datetime) -> int:
    return Sanction.objects.filter(user_id=user_id, starts_at__gte=since).count()


REPEAT_OFFENDER_DAYS = 90
# The chat's escalation ladder (rules 004: sanctions by the gravity of the offence, "tenendo anche
# conto della reiterazione"): the decision the case page proposes for a player with n chat
# sanctions in the last 90 days, (decision, minutes of mute, days of chat suspension). The
# moderator weighs the case and may choose otherwise; old sanctions fall out of the window.
CHAT_LADDER: tuple[tuple[str, int | None, int | None], ...] = (
    (Report.Decision.WARN, None, None),
    (Report.Decision.MUTE, 10, None),
    (Report.Decision.MUTE, 60, None),
    (Report.Decision.MUTE, 1440, None),
    (Report.Decision.SUSPEND_CHAT, None, 7),
    (Report.Decision.SUSPEND_CHAT, None, 30),
)


def suggested_decision(*, user_id: int, now: datetime | None = None) -> dict[str, Any]:
    """The ladder's proposal for a case on ``user_id``: his chat sanctions of the last 90 days set it."""
    now = now or timezone.now()
    prior = sanctions_count(user_id=user_id, since=now - timedelta(days=REPEAT_OFFENDER_DAYS))
    decision, minutes, days = CHAT_LADDER[min(prior, len(CHAT_LADDER) - 1)]
    return {
        "prior": prior,
        "decision": str(decision),
        "label": Report.Decision(decision).label,
        "minutes": minutes,
        "days": days,
    }


def human_reporters(*, report_id: int) -> list[int]:
    return list(
        ReportEntry.objects.filter(report_id=report_id, reporter__isnull=False)
        .values_list("reporter_id", flat=True)
        .distinct()
    )


def outside_help(reports: Any) -> Any:
    """The cases with at least one report from outside HELP (a moderator's; HELP is the staff's)."""
    public = ReportEntry.objects.filter(report=OuterRef("pk")).exclude(channel__startswith="help:")
    return reports.filter(Exists(public))


def queue(*, user: Any) -> list[dict[str, Any]]:
    """The open cases a moderator may take, highest score first (staff also see the escalated ones)."""
    statuses = [Report.Status.OPEN, Report.Status.CLAIMED]
    staff = roles.has_staff_role(user)
    if staff:
        statuses.append(Report.Status.ESCALATED)
    cases = list(
        (Report.objects if staff else outside_help(Report.objects.all()))
        .filter(status__in=statuses)
        .select_related("target", "claimed_by")
        .order_by("-score", "opened_at")[:200]
    )
    categories: dict[int, set[str]] = {}
    for report_id, category in ReportEntry.objects.filter(report__in=cases).values_list(
        "report_id", "category"
    ):
        categories.setdefault(report_id, set()).add(category)
    return [
        {
            "id": c.pk,
            "nickname": c.target.nickname,
            "status": c.status,
            "status_label": c.get_status_display(),
            "score": c.score,
            "severity": c.severity,
            "entries": c.entries_count,
            "categories": sorted(str(Category(x).label) for x in categories.get(c.pk, ())),
            "opened_at": c.opened_at,
            "claimed_by": c.claimed_by.nickname if c.claimed_by else "",
        }
        for c in cases
    ]


def _readable(line: dict[str, Any]) -> dict[str, Any]:
    """A captured line for a page: its time as a datetime, its outcome in words."""
    return {
        **line,
        "at": datetime.fromisoformat(line["at"]),
        "outcome_label": ChatLine.Outcome(line["outcome"]).label,
    }


def case_detail(*, report: Report, staff: bool = True) -> dict[str, Any]:
    """What a moderator sees of a case: the reports and their context, the player's record (nickname only).

    HELP conversations are the staff's: a moderator (``staff=False``) sees neither their lines
    nor reports captured there, only how many there are.
    """
    reports = report.entries.select_related("reporter", "line__author")
    lines_seen = ChatLine.objects.select_related("author").filter(author_id=report.target_id)
    hidden = 0
    help_ids: set[int] = set()
    if not staff:
        in_help = Q(channel__startswith=HELP_PREFIX) | Q(line__channel__startswith=HELP_PREFIX)
        hidden = reports.filter(in_help).count()
        reports = reports.exclude(in_help)
        lines_seen = lines_seen.exclude(channel__startswith=HELP_PREFIX)
        # a context captured around a report may hold HELP lines (a report naming no chat): left out
        captured = {x["id"] for e in reports for x in e.context if isinstance(x, dict) and "id" in x}
        help_ids = set(
            ChatLine.objects.filter(pk__in=captured, channel__startswith=HELP_PREFIX).values_list(
                "pk", flat=True
            )
        )
    entries = [
        {
            "reporter": e.reporter.nickname if e.reporter else None,
            "category": Category(e.category).label if e.category in Category.values else e.category,
            "note": e.note,
            "where": rooms.channel_label(e.channel) if e.channel else "",
            "line": _readable(_line_dict(e.line)) if e.line else None,
            "context": [_readable(x) for x in e.context if x.get("id") not in help_ids],
            "created_at": e.created_at,
            "reliability": round(e.reliability, 2),
        }
        for e in reports
    ]
    past = [
        {
            "id": r.pk,
            "decision": r.get_decision_display(),
            "decided_at": r.decided_at,
            "reason": r.decision_reason,
        }
        for r in Report.objects.filter(target_id=report.target_id, status=Report.Status.CLOSED)
        .exclude(pk=report.pk)
        .order_by("-decided_at")[:20]
    ]
    sanctions = [
        {"kind": s.get_kind_display(), "starts_at": s.starts_at, "ends_at": s.ends_at, "reason": s.reason}
        for s in Sanction.objects.filter(user_id=report.target_id)[:20]
    ]
    lines = [
        {**_readable(_line_dict(x)), "where": rooms.channel_label(x.channel)}
        for x in lines_seen.order_by("-created_at")[:20]
    ]
    return {
        "entries": entries,
        "past": past,
        "sanctions": sanctions,
        "lines": lines,
        "help_hidden": hidden,
        # the tournaments' automatic warnings count for the "reiterazione" of a chat offence too
        "conduct": conduct_summary(report.target),
    }


def notice_dict(n: Notice) -> dict[str, Any]:
    return {"id": n.pk, "code": n.code, "text": n.text, "data": n.data, "at": n.created_at.isoformat()}


def notices_unread(*, user_id: int) -> list[dict[str, Any]]:
    return [
        notice_dict(n)
        for n in Notice.objects.filter(user_id=user_id, read_at__isnull=True).order_by("created_at", "pk")[
            :20
        ]
    ]


# --- tournament conduct (public card, end-of-match summary) ----------------------------------------


def conduct_summary(
    user: Any, *, tournament_id: int | None = None, now: datetime | None = None
) -> dict[str, Any]:
    """A player's warnings and automatic measures as plain data (the card and the end-of-match summary).

    ``received``, ``bonus`` (1 per 30 completed turns), ``effective`` (never below 0, as shown),
    the freeroll ban and tournament block in force (their end, or None), and the automatic measures
    taken (of one tournament when ``tournament_id`` is given, else the last 20), newest first.
    """
    now = now or timezone.now()
    user_id = user if isinstance(user, int) else user.pk
    record = ConductRecord.objects.filter(user_id=user_id).values("received", "completed_turns").first()
    received, turns = (record["received"], record["completed_turns"]) if record else (0, 0)
    future_ends = dict(  # the latest end of each kind wins (a ban may follow the running one)
        ConductMeasure.objects.filter(user_id=user_id, ends_at__gt=now)
        .values_list("kind", "ends_at")
        .order_by("ends_at")
    )
    events = ConductEvent.objects.filter(user_id=user_id)
    measures = ConductMeasure.objects.filter(user_id=user_id).select_related("event")
    if tournament_id is not None:
        events, measures = (
            events.filter(tournament_id=tournament_id),
            measures.filter(tournament_id=tournament_id),
        )
    items = [
        {
            "kind": "warning",
            "label": f"{e.get_kind_display()}: {e.warnings} ammonizion{'e' if e.warnings == 1 else 'i'}",
            "warnings": e.warnings,
            "tournament_id": e.tournament_id,
            "turn": e.turn,
            "at": e.created_at,
            "ends_at": None,
        }
        for e in events[:20]
        if e.warnings
    ] + [
        {
            "kind": m.kind,
            "label": str(m.get_kind_display()),
            "step": m.step,
            "tournament_id": m.tournament_id,
            "turn": m.event.turn if m.event else None,
            "at": m.created_at,
            "ends_at": m.ends_at,
        }
        for m in measures[:20]
    ]
    items.sort(key=lambda x: x["at"], reverse=True)
    ban_end = future_ends.get(ConductMeasure.Kind.FREEROLL_BAN)
    block_end = future_ends.get(ConductMeasure.Kind.TOURNAMENT_BLOCK)
    return {
        "received": received,
        "completed_turns": turns,
        "bonus": turns // ammonizioni.TURNS_PER_BONUS,
        "effective": ammonizioni.displayed_warnings(received, turns),
        "freeroll_ban_until": ban_end,
        "tournament_block_until": block_end,
        "measures": items[:20],
    }


def tournament_warnings(*, user_id: int, tournament_id: int) -> int:
    """The automatic warnings a player received in one tournament (``hooks.tournament_warnings``)."""
    return sum(
        ConductEvent.objects.filter(user_id=user_id, tournament_id=tournament_id).values_list(
            "warnings", flat=True
        )
    )


def freeroll_banned(*, user_id: int, now: datetime) -> bool:
    """Whether the player may not enter a freeroll now (an automatic ban in force)."""
    return ConductMeasure.objects.filter(
        user_id=user_id, kind=ConductMeasure.Kind.FREEROLL_BAN, starts_at__lte=now, ends_at__gt=now
    ).exists()


def tournament_blocked(*, user_id: int, now: datetime) -> bool:
    """Whether the ladder blocks the player's tournament registrations now."""
    return ConductMeasure.objects.filter(
        user_id=user_id, kind=ConductMeasure.Kind.TOURNAMENT_BLOCK, starts_at__lte=now, ends_at__gt=now
    ).exists()


def _measure_chain_end(*, user_id: int, kind: str, now: datetime) -> datetime | None:
    """The end of the measure in force now and of those chained after it (each starts as one ends)."""
    rows = ConductMeasure.objects.filter(user_id=user_id, kind=kind, ends_at__gt=now)
    if not rows.filter(starts_at__lte=now).exists():
        return None
    return rows.order_by("-ends_at").values_list("ends_at", flat=True).first()


ENTRY_REFUSALS = (  # (measure, refusal code, message): the ladder's block first, it stops everything
    (
        ConductMeasure.Kind.TOURNAMENT_BLOCK,
        "tournament_blocked",
        "Le tue iscrizioni ai tornei sono bloccate fino al {when} (infrazioni ripetute).",
    ),
    (
        ConductMeasure.Kind.FREEROLL_BAN,
        "freeroll_banned",
        "Non puoi partecipare ai tornei Freeroll fino al {when} (ammonizioni effettive).",
    ),
)


def tournament_entry_refusal(
    *, user_id: int, freeroll: bool, now: datetime | None = None
) -> tuple[str, str] | None:
    """Why the player may not register for a tournament now (code, Italian message), or None.

    The ladder's block stops every registration; a freeroll ban of the warnings stops freerolls.
    """
    now = now or timezone.now()
    for kind, code, message in ENTRY_REFUSALS:
        if kind == ConductMeasure.Kind.FREEROLL_BAN and not freeroll:
            continue
        until = _measure_chain_end(user_id=user_id, kind=kind, now=now)
        if until is not None:
            return code, message.format(when=timezone.localtime(until).strftime("%d/%m/%Y %H:%M"))
    return None


# --- collusion and dumping signals (staff) -----------------------------------------------------------

DASHBOARD_ROWS = 50


def signals_dashboard(*, limit: int = DASHBOARD_ROWS) -> dict[str, Any]:
    """The highest-ranked pairs and players: two indexed reads of the stored scores, never the history."""
    pairs = []
    for p in PairSignal.objects.select_related("a", "b").order_by("-score", "-hands")[:limit]:
        loser_a = p.a_to_b >= p.b_to_a
        pairs.append(
            {
                "a": p.a_id,
                "b": p.b_id,
                "a_nick": p.a.nickname,
                "b_nick": p.b.nickname,
                "from_nick": p.a.nickname if loser_a else p.b.nickname,
                "to_nick": p.b.nickname if loser_a else p.a.nickname,
                "net": abs(p.a_to_b - p.b_to_a),
                "gross": p.a_to_b + p.b_to_a,
                "one_way": round(100 * collusion.Pair(p.hands, p.a_to_b, p.b_to_a).one_way),
                "hands": p.hands,
                "forfeits": p.forfeits_a if loser_a else p.forfeits_b,
                "outliers": p.outliers_a if loser_a else p.outliers_b,
                "score": p.score,
                "flagged": p.score >= collusion.FLAG_SCORE,
                "last_at": p.last_at,
            }
        )
    players = [
        {
            "id": p.user_id,
            "nickname": p.user.nickname,
            "status": p.user.status,
            "hands": p.hands,
            "abandons": p.abandons,
            "timeouts": p.timeouts,
            "sitouts": p.sitouts,
            "outliers": p.outliers,
            "net": p.net,
            "score": p.score,
            "flagged": p.score >= collusion.FLAG_SCORE,
        }
        for p in PlayerSignal.objects.select_related("user").order_by("-score", "-hands")[:limit]
    ]
    return {"pairs": pairs, "players": players}


def signal_hands(*, user_id: int, other_id: int | None = None, limit: int = 100) -> list[dict[str, Any]]:
    """The player's last observed hands (with ``other_id``: only those both played), each seat's part."""
    mine = SignalSeat.objects.filter(user_id=user_id)
    if other_id is not None:
        mine = mine.filter(hand_id__in=SignalSeat.objects.filter(user_id=other_id).values("hand_id"))
    hand_pks = list(mine.order_by("-hand_id").values_list("hand_id", flat=True)[:limit])
    hands = {h.pk: h for h in SignalHand.objects.filter(pk__in=hand_pks)}
    seats: dict[int, list[dict[str, Any]]] = {}
    for s in SignalSeat.objects.filter(hand_id__in=hand_pks).select_related("user").order_by("user_id"):
        seats.setdefault(s.hand_id, []).append(
            {
                "nickname": s.user.nickname,
                "user_id": s.user_id,
                "delta": s.delta,
                "end": s.end,
                "end_label": s.get_end_display(),
                "outlier": s.outlier,
            }
        )
    return [
        {
            "hand_id": hands[pk].hand_id,
            "table_id": hands[pk].table_id,
            "game": hands[pk].game,
            "ended_at": hands[pk].ended_at,
            "seats": seats.get(pk, []),
        }
        for pk in hand_pks
        if pk in hands
    ]


def player_pairs(*, user_id: int, limit: int = 20) -> list[dict[str, Any]]:
    """The pairs a player is part of, highest score first (money signed from his side)."""
    rows = PairSignal.objects.filter(Q(a_id=user_id) | Q(b_id=user_id)).select_related("a", "b")
    out = []
    for p in rows.order_by("-score", "-hands")[:limit]:
        mine_a = p.a_id == user_id
        other = p.b if mine_a else p.a
        lost, won = (p.a_to_b, p.b_to_a) if mine_a else (p.b_to_a, p.a_to_b)
        out.append(
            {
                "a": p.a_id,
                "b": p.b_id,
                "other_nick": other.nickname,
                "hands": p.hands,
                "lost": lost,
                "won": won,
                "net": won - lost,
                "score": p.score,
                "flagged": p.score >= collusion.FLAG_SCORE,
            }
        )
    return out


HISTORY = 50  # lines sent to a chat on (re)connect


def chat_payload(line: ChatLine) -> dict[str, Any]:
    """A shown line as the chat clients receive it (``line``: its id, for "Segnala")."""
    return {
        "type": "chat",
        "room": line.channel,
        "nickname": line.author.nickname,
        "text": line.shown_text or line.text,
        "at": line.created_at.isoformat(),
        "line": line.pk,
    }


def chat_history(
    *, channels: list[str], limit: int = HISTORY, help_player: int | None = None
) -> list[dict[str, Any]]:
    """The last lines shown on these channels, oldest first (a chat's history on (re)connect).

    ``help_player``: a HELP conversation's player; the other lines are the staff's (``staff``).
    """
    rows = list(
        ChatLine.objects.select_related("author")
        .filter(channel__in=channels, outcome__in=SHOWN)
        .order_by("-created_at", "-pk")[:limit]
    )
    out = [chat_payload(x) for x in reversed(rows)]
    if help_player is not None:
        for line, payload in zip(reversed(rows), out, strict=True):
            payload["staff"] = line.author_id != help_player
    return out


def help_threads(*, limit: int = 100) -> list[dict[str, Any]]:
    """The open HELP conversations for the staff, those awaiting an answer first (nickname only).

    Closed ones leave the list (they are kept, with their lines, for the record)."""
    return [
        {
            "player": t.player_id,
            "nickname": t.player.nickname,
            "waiting": t.waiting,
            "last_text": t.last_text,
            "last_at": t.last_at.isoformat(),
        }
        for t in HelpThread.objects.select_related("player")
        .filter(closed_at__isnull=True)
        .order_by("-waiting", "-last_at")[:limit]
    ]


def held_lines(*, user: Any, limit: int = 100) -> list[dict[str, Any]]:
    """Lines the filter held, awaiting a moderator's release or rejection (HELP ones for staff only)."""
    rows = lines_visible(
        user=user, lines=ChatLine.objects.select_related("author").filter(outcome=ChatLine.Outcome.HELD)
    )
    return [
        {
            **_readable(_line_dict(x)),
            "channel": x.channel,
            "where": rooms.channel_label(x.channel),
            "category": Category(x.category).label if x.category in Category.values else x.category,
        }
        for x in rows.order_by("created_at", "pk")[:limit]
    ]


HELP_CLOSED_BY_STAFF = "Lo staff ha chiuso la conversazione HELP. Se ti serve ancora aiuto, scrivi qui."
HELP_CLOSED_BY_PLAYER = "Hai chiuso la conversazione HELP. Se ti serve ancora aiuto, scrivi qui."


def help_closed_text(*, player_id: int) -> str | None:
    """Why the player's HELP conversation shows as closed (who closed it), or None while it is open."""
    row = (
        HelpThread.objects.filter(player_id=player_id, closed_at__isnull=False).values("closed_by_id").first()
    )
    if row is None:
        return None
    return HELP_CLOSED_BY_PLAYER if row["closed_by_id"] == player_id else HELP_CLOSED_BY_STAFF


def moderation_waiting(user: Any) -> list[dict[str, Any]]:
    """Reports to decide and held lines, for moderators and staff (``hooks.staff_waiting``)."""
    from django.urls import reverse
    from django.utils.translation import gettext as _

    if not roles.can_moderate(user):
        return []
    staff = roles.has_staff_role(user)
    statuses = [Report.Status.OPEN, Report.Status.CLAIMED, *([Report.Status.ESCALATED] if staff else [])]
    reports = (Report.objects if staff else outside_help(Report.objects.all())).filter(status__in=statuses)
    held = ChatLine.objects.filter(outcome=ChatLine.Outcome.HELD)
    if not staff:
        held = held.exclude(channel__startswith="help:")
    url = reverse("moderation:queue")
    return [
        {"label": _("Segnalazioni aperte"), "count": reports.count(), "url": url},
        {"label": _("Messaggi trattenuti"), "count": held.count(), "url": url + "#trattenuti"},
    ]
