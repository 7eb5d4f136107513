"""Reads of moderation: restrictions, recent lines, the queue and a case's context (plain data)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import Exists, F, OuterRef, Q

from moderation import filters
from moderation.models import Category, ChatLine, HelpThread, Notice, Report, ReportEntry, Sanction
from piattaforma import roles

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


def recent_lines(*, user_id: int, since: datetime) -> list[filters.Recent]:
    """The author's lines since a moment, for the repeat and flood rules."""
    rows = ChatLine.objects.filter(author_id=user_id, created_at__gte=since).values_list(
        "created_at", "norm", "outcome"
    )
    return [filters.Recent(at, norm, outcome != ChatLine.Outcome.BLOCKED) for at, norm, outcome in rows]


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
    rows = base.filter(channel=channel) if channel else base.filter(author_id=target_id)
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
    if not staff:
        hidden = reports.filter(channel__startswith="help:").count()
        reports = reports.exclude(channel__startswith="help:")
        lines_seen = lines_seen.exclude(channel__startswith="help:")
    entries = [
        {
            "reporter": e.reporter.nickname if e.reporter else None,
            "category": Category(e.category).label if e.category in Category.values else e.category,
            "note": e.note,
            "line": _readable(_line_dict(e.line)) if e.line else None,
            "context": [_readable(x) for x in e.context],
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
    lines = [_readable(_line_dict(x)) for x in lines_seen.order_by("-created_at")[:20]]
    return {"entries": entries, "past": past, "sanctions": sanctions, "lines": lines, "help_hidden": hidden}


def notice_dict(n: Notice) -> dict[str, Any]:
    return {"id": n.pk, "code": n.code, "text": n.text, "data": n.data, "at": n.created_at.isoformat()}


def notices_unread(*, user_id: int) -> list[dict[str, Any]]:
    return [
        notice_dict(n)
        for n in Notice.objects.filter(user_id=user_id, read_at__isnull=True).order_by("created_at", "pk")[
            :20
        ]
    ]


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
    """The HELP conversations for the staff, those awaiting an answer first (nickname only)."""
    return [
        {
            "player": t.player_id,
            "nickname": t.player.nickname,
            "waiting": t.waiting,
            "last_text": t.last_text,
            "last_at": t.last_at.isoformat(),
        }
        for t in HelpThread.objects.select_related("player").order_by("-waiting", "-last_at")[:limit]
    ]


def held_lines(*, user: Any, limit: int = 100) -> list[dict[str, Any]]:
    """Lines the filter held, awaiting a moderator's release or rejection (HELP ones for staff only)."""
    rows = ChatLine.objects.select_related("author").filter(outcome=ChatLine.Outcome.HELD)
    if not roles.has_staff_role(user):
        rows = rows.exclude(channel__startswith="help:")
    return [
        {
            **_readable(_line_dict(x)),
            "channel": x.channel,
            "category": Category(x.category).label if x.category in Category.values else x.category,
        }
        for x in rows.order_by("created_at", "pk")[:limit]
    ]
