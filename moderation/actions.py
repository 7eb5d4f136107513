"""Writes of moderation: screening a chat line, reports, the queue's decisions, notices, the watched list."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from moderation import filters, selectors
from moderation.errors import CHAT_MESSAGES, ModerationError
from moderation.models import (
    SEVERITY,
    Category,
    ChatLine,
    HelpThread,
    Notice,
    Report,
    ReportEntry,
    Sanction,
    WatchedEntry,
)
from piattaforma import hooks, roles
from piattaforma.actions import audit_record, user_set_status
from piattaforma.models import User

WATCHED_TTL_SECONDS = 30.0  # another process sees a change of the watched list within this time
NOTE_MAX = 500
REPORTS_PER_HOUR = 20
CLAIM_STALE = timedelta(minutes=15)  # a claim left this long may be taken over
MUTE_MINUTES = (1, 24 * 60)
SUSPEND_DAYS = (1, 365)
REASON_MIN = 5
SYSTEM_RELIABILITY = 0.7  # the filter's own flags weigh like a fairly reliable reporter
REPEAT_OFFENDER_DAYS = selectors.REPEAT_OFFENDER_DAYS
CHANNEL = re.compile(r"(?:[a-z]{1,16}(?::\d{1,12})?)?")  # "table:12", "lobby", "torneo:3", "help:7"; "" none

_watched: dict[str, Any] = {"at": 0.0, "list": None}


def watched_list() -> filters.WatchedList:
    """The compiled watched list of this process (reloaded every ``WATCHED_TTL_SECONDS``)."""
    if _watched["list"] is None or time.monotonic() - _watched["at"] > WATCHED_TTL_SECONDS:
        entries = [e.as_entry() for e in WatchedEntry.objects.filter(active=True)]
        _watched["list"], _watched["at"] = filters.WatchedList(entries), time.monotonic()
    return _watched["list"]


def watched_list_reset() -> None:
    """Forget the compiled list: the next line reloads it."""
    _watched["list"] = None


@transaction.atomic
def watched_entry_save(*, entry: WatchedEntry, actor: User | None) -> WatchedEntry:
    """Validate and store a watched entry (raises ValidationError and stores nothing if invalid)."""
    entry.full_clean()
    created = entry.pk is None
    entry.save()
    audit_record(
        actor=actor,
        action="moderation.watched_add" if created else "moderation.watched_change",
        target=entry,
        data={"pattern": entry.pattern, "action": entry.action, "active": entry.active},
    )
    transaction.on_commit(watched_list_reset)
    return entry


# --- chat -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Screened:
    """A line cleared to be shown: the text the others see and moderation's id for it (for "Segnala")."""

    text: str
    line_id: int


def _until(at: datetime) -> str:
    return timezone.localtime(at).strftime("%H:%M del %d/%m/%Y")


def check_chat_allowed(*, user: User, now: datetime) -> None:
    """Refuse a muted or chat-suspended player (the end is compared with now: no job needed)."""
    restriction = selectors.chat_restriction(user_id=user.pk, now=now)
    if restriction is None:
        return
    if restriction.ends_at is None:
        raise ModerationError("chat_suspended", CHAT_MESSAGES["chat_suspended_forever"])
    until = restriction.ends_at
    key = "chat_muted" if restriction.kind == Sanction.Kind.MUTE else "chat_suspended"
    raise ModerationError(key, CHAT_MESSAGES[key] % {"until": _until(until)}, until=until.isoformat())


def chat_screen(
    *,
    author: User,
    channel: str,
    text: str,
    in_hand: bool = False,
    skip: frozenset[str] = frozenset(),
    restricted: bool = True,
    now: datetime | None = None,
) -> Screened:
    """Apply the chat rules to a line before it is shown; raise ModerationError if it must not be.

    ``in_hand``: the author has cards in a hand or match in progress ("Durante il gioco"); the
    caller knows, moderation does not read its rows. ``skip``: watched categories that do not
    apply on the channel (``rooms.HELP_SKIP``); ``restricted=False``: mutes and chat suspensions
    do not apply (HELP: a silenced player can still reach the staff). Call it outside a
    transaction: a held or blocked line is committed here (the moderators review it) before the
    refusal is raised.
    """
    now = now or timezone.now()
    if restricted:
        check_chat_allowed(user=author, now=now)
    recent = selectors.recent_lines(user_id=author.pk, since=now - filters.REPEAT_WINDOW)
    verdict = filters.screen(text, watched=watched_list(), recent=recent, now=now, in_hand=in_hand, skip=skip)
    if verdict.outcome == "refused":
        raise ModerationError(verdict.code, CHAT_MESSAGES[verdict.code])
    with transaction.atomic():
        line = ChatLine.objects.create(
            channel=channel,
            author=author,
            text=text,
            shown_text=verdict.text if verdict.shown else "",
            norm=verdict.norm[:400],
            outcome=verdict.outcome,
            category=verdict.category,
            matches=verdict.matches,
            in_hand=in_hand,
            created_at=now,
        )
        if verdict.outcome == "held" or verdict.flagged:
            _file(reporter=None, target=author, line=line, category=verdict.category, note="", now=now)
    if verdict.shown:
        return Screened(verdict.text, line.pk)
    label = Category(verdict.category).label if verdict.category in Category.values else verdict.category
    if verdict.outcome == "held" and verdict.category == Category.GAME_TALK:
        raise ModerationError("chat_held", CHAT_MESSAGES["chat_held_game"])
    raise ModerationError(verdict.code, CHAT_MESSAGES[verdict.code] % {"category": str(label).lower()})


# --- reports --------------------------------------------------------------------------------------


def _refuse(code: str, message: str) -> ModerationError:
    return ModerationError(code, message)


def report_file(
    *,
    reporter: User,
    reason: str,
    line_id: int | None = None,
    nickname: str = "",
    channel: str = "",
    note: str = "",
    now: datetime | None = None,
) -> tuple[ReportEntry, bool]:
    """Report a chat line or a player ("Segnala"); return the entry and whether it merged into an open case.

    The same reporter reporting the same line (or the same player) again adds nothing: his first
    entry is returned. The conversation around the line is captured now, as it stands.
    """
    now = now or timezone.now()
    if reason not in Category.values:
        raise _refuse("report_bad_reason", "Scegli il motivo della segnalazione.")
    if not CHANNEL.fullmatch(channel or ""):
        raise _refuse("report_bad_channel", "Chat non valida.")
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        raise _refuse("report_note_too_long", f"La nota può avere al massimo {NOTE_MAX} caratteri.")
    line = None
    if line_id is not None:
        line = ChatLine.objects.select_related("author").filter(pk=line_id).first()
        if line is None or line.outcome not in (ChatLine.Outcome.SHOWN, ChatLine.Outcome.CENSORED):
            raise _refuse("report_no_line", "Messaggio non trovato.")
        target, channel = line.author, line.channel
    else:
        target = User.objects.filter(nickname__iexact=(nickname or "").strip()).first() if nickname else None
        if target is None:
            raise _refuse("report_no_player", "Giocatore non trovato.")
    if target.pk == reporter.pk:
        raise _refuse("report_self", "Non puoi segnalare te stesso.")
    with transaction.atomic():
        # the hour's count and the new entry under the reporter's row lock: concurrent reports of
        # one player are counted one after the other (counted unlocked, 30 at once all passed 20)
        User.objects.select_for_update(no_key=True).filter(pk=reporter.pk).first()
        recent = selectors.reports_since(reporter_id=reporter.pk, since=now - timedelta(hours=1))
        if recent >= REPORTS_PER_HOUR:
            raise _refuse("report_too_many", "Hai inviato troppe segnalazioni: riprova più tardi.")
        return _file(
            reporter=reporter, target=target, line=line, category=reason, note=note, now=now, channel=channel
        )


def _file(
    *,
    reporter: User | None,
    target: User,
    line: ChatLine | None,
    category: str,
    note: str,
    now: datetime,
    channel: str = "",
) -> tuple[ReportEntry, bool]:
    """Add a report to the player's open case (opening it if needed) and rank the case again."""
    with transaction.atomic():
        report, merged = _open_case(target=target, now=now)
        same = report.entries.filter(reporter=reporter, line=line).first()
        if same is not None:
            return same, True
        entry = ReportEntry.objects.create(
            report=report,
            reporter=reporter,
            line=line,
            channel=line.channel if line is not None else channel,
            category=category,
            note=note,
            reliability=SYSTEM_RELIABILITY
            if reporter is None
            else selectors.reliability(user_id=reporter.pk),
            context=selectors.conversation(line=line, channel=channel, target_id=target.pk),
            created_at=now,
        )
        _rescore(report, now=now)
    return entry, merged


def _open_case(*, target: User, now: datetime) -> tuple[Report, bool]:
    """The player's open case, locked; created when he has none (one per player, by constraint)."""
    open_cases = Report.objects.select_for_update().filter(target=target).exclude(status=Report.Status.CLOSED)
    report = open_cases.first()
    if report is not None:
        return report, True
    try:
        with transaction.atomic():
            return Report.objects.create(target=target, opened_at=now), False
    except IntegrityError:  # another report opened it meanwhile
        return open_cases.get(), True


def _rescore(report: Report, *, now: datetime) -> None:
    """Rank a case: how serious, how many and how reliable the reporters, and past sanctions."""
    entries = list(report.entries.values("reporter_id", "category", "reliability"))
    severity = max(SEVERITY.get(e["category"], 1) for e in entries)
    weight: dict[int | None, float] = {}
    for e in entries:  # each reporter counts once, with his best-known reliability
        weight[e["reporter_id"]] = max(weight.get(e["reporter_id"], 0.0), e["reliability"])
    prior = selectors.sanctions_count(
        user_id=report.target_id, since=now - timedelta(days=REPEAT_OFFENDER_DAYS)
    )
    report.severity = severity
    report.entries_count = len(entries)
    report.score = severity * 10 + round(sum(weight.values()) * 10) + min(prior, 5) * 8
    report.save(update_fields=["severity", "entries_count", "score"])


# --- the queue ------------------------------------------------------------------------------------


def _locked_case(*, report_id: int, moderator: User) -> Report:
    if not roles.can_moderate(moderator):
        raise _refuse("not_moderator", "Solo i moderatori e lo staff possono farlo.")
    cases = Report.objects.select_for_update().select_related("target").filter(pk=report_id)
    if not roles.has_staff_role(moderator):  # a case made only of HELP reports is the staff's
        cases = selectors.outside_help(cases)
    report = cases.first()
    if report is None or report.status == Report.Status.CLOSED:
        raise _refuse("report_not_open", "La segnalazione non è più aperta.")
    if report.status == Report.Status.ESCALATED and not roles.has_staff_role(moderator):
        raise _refuse("report_escalated", "La segnalazione è stata inoltrata allo staff.")
    if report.target_id == moderator.pk:
        raise _refuse("report_own", "Non puoi esaminare una segnalazione che ti riguarda.")
    return report


@transaction.atomic
def report_claim(*, report_id: int, moderator: User, now: datetime | None = None) -> Report:
    """Take a case to review it (a claim left for 15 minutes may be taken over)."""
    now = now or timezone.now()
    report = _locked_case(report_id=report_id, moderator=moderator)
    other = report.claimed_by_id not in (None, moderator.pk)
    if other and report.claimed_at is not None and now - report.claimed_at < CLAIM_STALE:
        raise _refuse("report_claimed", "Un altro moderatore sta già esaminando la segnalazione.")
    if report.status == Report.Status.OPEN:
        report.status = Report.Status.CLAIMED
    report.claimed_by, report.claimed_at = moderator, now
    report.save(update_fields=["status", "claimed_by", "claimed_at"])
    audit_record(
        actor=moderator, action="moderation.claim", target=report, data={"player": report.target.nickname}
    )
    return report


MODERATOR_DECISIONS = ("dismiss", "warn", "mute", "suspend_chat", "escalate")
STAFF_DECISIONS = (*MODERATOR_DECISIONS, "suspend_account")


def _bounded(value: Any, bounds: tuple[int, int], label: str) -> int:
    if type(value) is not int or not bounds[0] <= value <= bounds[1]:
        raise _refuse("bad_duration", f"{label}: da {bounds[0]} a {bounds[1]}.")
    return value


@transaction.atomic
def report_decide(
    *,
    report_id: int,
    moderator: User,
    decision: str,
    reason: str,
    minutes: int | None = None,
    days: int | None = None,
    now: datetime | None = None,
) -> Report:
    """Decide a claimed case: dismiss, warn, mute, suspend the chat, escalate (staff: suspend the account).

    Audited with who, when and why; the player is told of a warning, mute or suspension and its
    end; the reporters are told their report was handled.
    """
    now = now or timezone.now()
    report = _locked_case(report_id=report_id, moderator=moderator)
    staff = roles.has_staff_role(moderator)
    if decision not in (STAFF_DECISIONS if staff else MODERATOR_DECISIONS):
        raise _refuse("bad_decision", "Decisione non valida.")
    if report.claimed_by_id != moderator.pk and not staff:
        raise _refuse("report_not_claimed", "Prendi in carico la segnalazione prima di decidere.")
    reason = (reason or "").strip()
    if len(reason) < REASON_MIN:
        raise _refuse("reason_required", f"Scrivi la motivazione (almeno {REASON_MIN} caratteri).")
    target = report.target
    ends_at = None
    if decision == "mute":
        ends_at = now + timedelta(minutes=_bounded(minutes, MUTE_MINUTES, "Minuti di silenzio"))
    elif decision == "suspend_chat":
        ends_at = now + timedelta(days=_bounded(days, SUSPEND_DAYS, "Giorni di sospensione"))
    kind = {
        "warn": Sanction.Kind.WARNING,
        "mute": Sanction.Kind.MUTE,
        "suspend_chat": Sanction.Kind.CHAT_SUSPENSION,
    }
    if decision in kind:
        Sanction.objects.create(
            user=target,
            kind=kind[decision],
            starts_at=now,
            ends_at=ends_at,
            reason=reason,
            by=moderator,
            report=report,
        )
        _notify_sanctioned(target=target, decision=decision, reason=reason, ends_at=ends_at, now=now)
    elif decision == "suspend_account":
        user_set_status(user=target, status=User.Status.SUSPENDED, actor=moderator, reason=reason)
    report.decision, report.decided_by, report.decided_at, report.decision_reason = (
        decision,
        moderator,
        now,
        reason,
    )
    if decision == "escalate":
        report.status, report.claimed_by, report.claimed_at = Report.Status.ESCALATED, None, None
    else:
        report.status = Report.Status.CLOSED
        for reporter_id in selectors.human_reporters(report_id=report.pk):
            notice_send(
                user_id=reporter_id,
                code="report_handled",
                text=f"La tua segnalazione su {target.nickname} è stata esaminata da un moderatore. Grazie.",
                now=now,
            )
    report.save()
    audit_record(
        actor=moderator,
        action=f"moderation.{decision}",
        target=report,
        reason=reason,
        data={
            "player": target.nickname,
            "minutes": minutes if decision == "mute" else None,
            "days": days if decision == "suspend_chat" else None,
            "until": ends_at.isoformat() if ends_at else None,
        },
    )
    return report


def _notify_sanctioned(
    *, target: User, decision: str, reason: str, ends_at: datetime | None, now: datetime
) -> None:
    if decision == "warn":
        text = f"Hai ricevuto un'ammonizione dai moderatori. Motivo: {reason}"
    elif decision == "mute":
        text = f"Sei silenziato in chat fino alle {_until(ends_at)}. Motivo: {reason}"  # type: ignore[arg-type]  # a mute or a suspension always has its end
    else:
        text = f"La tua chat è sospesa fino al {_until(ends_at)}. Motivo: {reason}"  # type: ignore[arg-type]  # a mute or a suspension always has its end
    data = {"until": ends_at.isoformat()} if ends_at else {}
    notice_send(user_id=target.pk, code=f"moderation_{decision}", text=text[:500], data=data, now=now)


# --- notices --------------------------------------------------------------------------------------


def notice_send(
    *, user_id: int, code: str, text: str, data: dict[str, Any] | None = None, now: datetime
) -> Notice:
    """Leave a message for a player; pushed live to his open chats after commit (polled as a fallback)."""
    notice = Notice.objects.create(user_id=user_id, code=code, text=text, data=data or {}, created_at=now)
    payload = {"type": "notice", **selectors.notice_dict(notice)}
    transaction.on_commit(lambda: hooks.chat_push(f"notices:{user_id}", payload), robust=True)
    return notice


ENDED_TEXT = {
    Sanction.Kind.MUTE: "Il silenziamento è terminato: puoi di nuovo scrivere in chat.",
    Sanction.Kind.CHAT_SUSPENSION: "La sospensione della chat è terminata: puoi di nuovo scrivere in chat.",
}


def sanctions_notify_ended(*, now: datetime | None = None) -> int:
    """Tell players whose mute or chat suspension has ended (beat, every few seconds); return how many.

    The mute itself ends on time without this (``check_chat_allowed`` compares with now); this
    only tells the player, once, and only when nothing else still keeps him silent.
    """
    now = now or timezone.now()
    told = 0
    ended = Sanction.objects.filter(
        kind__in=tuple(ENDED_TEXT), ends_at__lte=now, end_notified_at__isnull=True
    ).order_by("ends_at", "pk")[:500]
    for sanction_id in list(ended.values_list("pk", flat=True)):
        with transaction.atomic():
            sanction = Sanction.objects.select_for_update().get(pk=sanction_id)
            if sanction.end_notified_at is not None:
                continue  # another worker told him
            sanction.end_notified_at = now
            sanction.save(update_fields=["end_notified_at"])
            if selectors.chat_restriction(user_id=sanction.user_id, now=now) is None:
                notice_send(
                    user_id=sanction.user_id,
                    code="moderation_mute_end",
                    text=ENDED_TEXT[sanction.kind],  # type: ignore[index]  # kind is one of ENDED_TEXT's
                    now=now,
                )
                told += 1
    return told


# --- held lines -----------------------------------------------------------------------------------


def help_visible(*, user: User, channel: str) -> bool:
    """HELP conversations are the staff's: a moderator does not see them."""
    return not channel.startswith("help:") or roles.has_staff_role(user)


@transaction.atomic
def chat_line_review(
    *, line_id: int, moderator: User, release: bool, now: datetime | None = None
) -> ChatLine:
    """Release (show) or reject a line the filter held; audited; a released line reaches its chat now."""
    now = now or timezone.now()
    if not roles.can_moderate(moderator):
        raise _refuse("not_moderator", "Solo i moderatori e lo staff possono farlo.")
    line = ChatLine.objects.select_for_update().select_related("author").filter(pk=line_id).first()
    if line is None or not help_visible(user=moderator, channel=line.channel):
        raise _refuse("line_not_found", "Messaggio non trovato.")
    if line.outcome != ChatLine.Outcome.HELD:
        raise _refuse("line_not_held", "Il messaggio non è più in attesa di revisione.")
    if line.author_id == moderator.pk:
        raise _refuse("report_own", "Non puoi esaminare un tuo messaggio.")
    line.outcome = ChatLine.Outcome.SHOWN if release else ChatLine.Outcome.REJECTED
    line.shown_text = line.text if release else ""
    line.reviewed_by, line.reviewed_at = moderator, now
    line.save(update_fields=["outcome", "shown_text", "reviewed_by", "reviewed_at"])
    audit_record(
        actor=moderator,
        action="moderation.release" if release else "moderation.reject",
        target=line,
        data={"player": line.author.nickname, "channel": line.channel, "text": line.text},
    )
    if release:
        payload = selectors.chat_payload(line)
        transaction.on_commit(lambda: hooks.chat_push(line.channel, payload), robust=True)
        text = "Il tuo messaggio trattenuto è stato approvato da un moderatore ed è ora visibile."
    else:
        text = "Il tuo messaggio trattenuto non è stato pubblicato da un moderatore."
    code = "line_released" if release else "line_rejected"
    notice_send(user_id=line.author_id, code=code, text=text, now=now)
    return line


# --- HELP -----------------------------------------------------------------------------------------


def help_thread_touch(*, player_id: int, from_staff: bool, text: str, now: datetime | None = None) -> None:
    """Keep the staff's list of HELP conversations current after a line (waiting: the player wrote last)."""
    now = now or timezone.now()
    updated = HelpThread.objects.filter(player_id=player_id).update(
        last_at=now, waiting=not from_staff, last_text=text[:200], closed_at=None, closed_by=None
    )
    if not updated:
        try:
            with transaction.atomic():
                HelpThread.objects.create(
                    player_id=player_id, last_at=now, waiting=not from_staff, last_text=text[:200]
                )
        except IntegrityError:  # the player's other socket created it meanwhile
            HelpThread.objects.filter(player_id=player_id).update(
                last_at=now, waiting=not from_staff, last_text=text[:200]
            )


@transaction.atomic
def help_thread_close(*, actor: User, player_id: int, now: datetime | None = None) -> HelpThread:
    """Close a HELP conversation: the staff any, a player his own (moderators do not answer HELP).

    The conversation leaves the staff's list and is kept with its lines for the record; it is
    audited, the player is told (a notice when the staff closed it) and both sides' open chats
    show it closed. A new line from either side reopens it (``help_thread_touch``).
    """
    now = now or timezone.now()
    staff = roles.has_staff_role(actor)
    if type(player_id) is not int or player_id <= 0:
        raise ModerationError("no_help_thread", "Conversazione HELP non trovata.")
    if not staff and actor.pk != player_id:
        raise ModerationError("not_allowed", "Solo lo staff o il giocatore chiudono questa conversazione.")
    thread = (
        HelpThread.objects.select_for_update().select_related("player").filter(player_id=player_id).first()
    )
    if thread is None:
        raise ModerationError("no_help_thread", "Conversazione HELP non trovata.")
    if thread.closed_at is not None:
        raise ModerationError("help_already_closed", "La conversazione HELP è già chiusa.")
    thread.closed_at, thread.closed_by, thread.waiting = now, actor, False
    thread.save(update_fields=["closed_at", "closed_by", "waiting"])
    by_staff = actor.pk != player_id
    audit_record(
        actor=actor,
        action="moderation.help_close",
        target=thread.player,
        data={"player": thread.player.nickname, "by": "staff" if by_staff else "player"},
    )
    text = selectors.HELP_CLOSED_BY_STAFF if by_staff else selectors.HELP_CLOSED_BY_PLAYER
    if by_staff:
        notice_send(user_id=player_id, code="help_closed", text=text, now=now)
    payload = {"type": "help.closed", "room": f"help:{player_id}", "by": "staff" if by_staff else "player"}
    payload["message"] = text
    transaction.on_commit(lambda: hooks.chat_push(f"help:{player_id}", payload), robust=True)
    return thread


def notices_mark_read(*, user: User, ids: list[int], now: datetime | None = None) -> int:
    """Mark the player's own notices read; return how many changed."""
    return Notice.objects.filter(user=user, pk__in=ids, read_at__isnull=True).update(
        read_at=now or timezone.now()
    )
