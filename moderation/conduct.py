"""Writes of tournament conduct: the automatic warnings (ammonizioni), freeroll bans and the ladder.

The tournaments report each offence through ``piattaforma.hooks.tournament_conduct`` and each
completed turn through ``tournament_turn_completed``; these are their handlers.

Warnings (rules 004, "Ammonizioni automatiche", training tournaments only, via
``tournaments.formats.ammonizioni``): a timeout or an abandonment ("Abbandona" loses the match as
on a timeout) gives 1; a no-show ("absent": registered and never played, so timed out every turn)
gives 2 at once; in a tournament of pairs a timeout or abandonment gives 2 ("2 ammonizioni in caso
di timeout nei tornei a coppie"), and a match lost by tempo scaduto (the line's tempo partita ran
out) gives 1 to each partner who used more than 3/4 of it ("slow"); at most 2 a tournament. Each
30 completed turns earn a bonus; effective = received − bonuses. Reaching the 10th, 20th, 30th,
40th effective warning bans the player from freerolls for 3, 5 more, 10 more, 20 more days, then
10 more days every 10 warnings; a new ban starts when the running one ends ("per ulteriori …
giorni"). The tournaments ask ``selectors.tournament_entry_refusal`` (through
``hooks.tournament_entry_refusal``) at registration.

A match staff replay for a fault of the platform (``hooks.tournament_match_voided``) takes back
what its end recorded: each offence of its players in that turn is withdrawn (its warnings off the
count, the measures it gave ended now, the player told, audited) and a completed turn counted no
more, since the match played again records its own end.

The ladder (every tournament, training or money, as the rules' "reiterazione"): each tournament
in which a player had an offence counts once; the offences of the last 30 days set the rung of
``LADDER``, and the block of tournament registrations it gives (a notice at the first). Old
offences fall out of the window, so the ladder comes down by itself.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from moderation.actions import notice_send
from moderation.errors import ModerationError
from moderation.models import ConductEvent, ConductMeasure, ConductRecord
from piattaforma.actions import audit_record
from piattaforma.models import User
from tournaments.formats import ammonizioni

LADDER_WINDOW = timedelta(days=30)
# Offences (tournaments) in the window -> tournament registration block. The first is a notice.
LADDER: tuple[timedelta, ...] = (
    timedelta(0),
    timedelta(hours=1),
    timedelta(hours=6),
    timedelta(hours=24),
    timedelta(days=3),
    timedelta(days=7),
)
# Timeouts each kind counts as: a no-show timed out every turn, so the cap gives him 2 at once.
KIND_TIMEOUTS = {ConductEvent.Kind.TIMEOUT: 1, ConductEvent.Kind.ABANDON: 1, ConductEvent.Kind.ABSENT: 2}


def kind_warnings(kind: str, *, pairs: bool) -> int:
    """Warnings one offence gives in a training tournament (``ammonizioni.tournament_warnings``)."""
    if kind == ConductEvent.Kind.SLOW:  # "1 ammonizione per ogni partita terminata per tempo scaduto"
        return ammonizioni.tournament_warnings(
            ammonizioni.TournamentConduct(pairs=pairs, slow_expired_matches=1)
        )
    return ammonizioni.tournament_warnings(
        ammonizioni.TournamentConduct(pairs=pairs, timeouts=KIND_TIMEOUTS[kind])
    )


def _bad(message: str) -> ModerationError:
    return ModerationError("bad_conduct", message)


def _when(at: datetime) -> str:
    return timezone.localtime(at).strftime("%d/%m/%Y %H:%M")


def ladder_block(rung: int) -> timedelta:
    """The tournament block of the ladder's ``rung`` (1 = first offence in the window)."""
    if rung < 1:
        return timedelta(0)
    return LADDER[min(rung, len(LADDER)) - 1]


def _record(user_id: int) -> ConductRecord:
    """The player's running count, locked (created at zero on his first event)."""
    ConductRecord.objects.bulk_create([ConductRecord(user_id=user_id)], ignore_conflicts=True)
    return ConductRecord.objects.select_for_update().get(user_id=user_id)


def _extend(*, user_id: int, kind: str, days: timedelta, now: datetime) -> tuple[datetime, datetime]:
    """Start a measure when the running one of its kind ends (or now), for ``days``."""
    running = (
        ConductMeasure.objects.filter(user_id=user_id, kind=kind, ends_at__gt=now)
        .order_by("-ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )
    start = max(running, now) if running else now
    return start, start + days


def conduct_record(
    *,
    user_id: int,
    tournament_id: int,
    kind: str,
    training: bool,
    turn: int,
    pairs: bool = False,
    now: datetime | None = None,
) -> ConductEvent | None:
    """Record an offence in a tournament, give its warnings and the measures they trigger.

    Return the event, or None when the same offence was reported already (the hook is retried).
    """
    now = now or timezone.now()
    if kind not in ConductEvent.Kind.values:
        raise _bad("Tipo di infrazione non valido")
    for value in (user_id, tournament_id):
        if type(value) is not int or value <= 0:
            raise _bad("Giocatore o torneo non validi")
    if type(turn) is not int or turn < 0 or type(training) is not bool or type(pairs) is not bool:
        raise _bad("Turno non valido")
    if not User.objects.filter(pk=user_id).exists():
        raise _bad("Giocatore non trovato")
    try:
        with transaction.atomic():
            return _conduct(
                user_id=user_id,
                tournament_id=tournament_id,
                kind=kind,
                training=training,
                turn=turn,
                pairs=pairs,
                now=now,
            )
    except IntegrityError:
        if ConductEvent.objects.filter(
            user_id=user_id, tournament_id=tournament_id, turn=turn, kind=kind
        ).exists():
            return None
        raise


def _conduct(
    *, user_id: int, tournament_id: int, kind: str, training: bool, turn: int, pairs: bool, now: datetime
) -> ConductEvent:
    record = _record(user_id)  # the lock that orders this player's events
    earlier = ConductEvent.objects.filter(user_id=user_id, tournament_id=tournament_id)
    given = sum(earlier.values_list("warnings", flat=True))
    warnings = (
        min(kind_warnings(kind, pairs=pairs), ammonizioni.MAX_PER_TOURNAMENT - given) if training else 0
    )
    # Decision: slowness is no offence for the ladder (its blocks are for who enrols and then does
    # not play or leaves); only its training warning counts.
    offences = ConductEvent.objects.exclude(kind=ConductEvent.Kind.SLOW)
    new_offence = kind != ConductEvent.Kind.SLOW and not earlier.exclude(kind=ConductEvent.Kind.SLOW).exists()
    event = ConductEvent.objects.create(
        user_id=user_id,
        tournament_id=tournament_id,
        kind=kind,
        training=training,
        turn=turn,
        warnings=max(warnings, 0),
        created_at=now,
    )
    label = ConductEvent.Kind(kind).label
    if event.warnings:
        before = ammonizioni.effective_warnings(record.received, record.completed_turns)
        record.received += event.warnings
        record.save(update_fields=["received"])
        after = ammonizioni.effective_warnings(record.received, record.completed_turns)
        notice_send(
            user_id=user_id,
            code="conduct_warning",
            text=f"{label} (torneo {tournament_id}, turno {turn}): {event.warnings} ammonizion"
            f"{'e' if event.warnings == 1 else 'i'} automatic{'a' if event.warnings == 1 else 'he'}. "
            f"Ammonizioni effettive: {max(after, 0)}.",
            data={"tournament": tournament_id, "warnings": event.warnings, "effective": max(after, 0)},
            now=now,
        )
        for threshold, days in ammonizioni.bans_triggered(before, after):
            start, end = _extend(
                user_id=user_id, kind=ConductMeasure.Kind.FREEROLL_BAN, days=timedelta(days=days), now=now
            )
            _measure(event, ConductMeasure.Kind.FREEROLL_BAN, threshold, start, end, now)
            notice_send(
                user_id=user_id,
                code="conduct_freeroll_ban",
                text=f"Hai raggiunto {threshold} ammonizioni effettive: non puoi partecipare ai tornei "
                f"Freeroll fino al {_when(end)}.",
                data={"threshold": threshold, "until": end.isoformat()},
                now=now,
            )
    if new_offence:
        rung = (
            offences.filter(user_id=user_id, created_at__gt=now - LADDER_WINDOW)
            .values("tournament_id")
            .distinct()
            .count()
        )
        block = ladder_block(rung)
        if block:
            start, end = _extend(
                user_id=user_id, kind=ConductMeasure.Kind.TOURNAMENT_BLOCK, days=block, now=now
            )
            _measure(event, ConductMeasure.Kind.TOURNAMENT_BLOCK, rung, start, end, now)
            text = (
                f"{label} ripetuto ({rung} tornei in 30 giorni): iscrizioni ai tornei bloccate fino al "
                f"{_when(end)}."
            )
        else:
            _measure(event, ConductMeasure.Kind.NOTICE, rung, now, None, now)
            text = (
                f"{label}: richiamo. Se si ripete nei prossimi 30 giorni, le iscrizioni ai tornei "
                "saranno bloccate."
            )
        notice_send(user_id=user_id, code="conduct_ladder", text=text, data={"rung": rung}, now=now)
    return event


def _measure(
    event: ConductEvent, kind: str, step: int, start: datetime, end: datetime | None, now: datetime
) -> ConductMeasure:
    measure = ConductMeasure.objects.create(
        user_id=event.user_id,
        kind=kind,
        event=event,
        tournament_id=event.tournament_id,
        step=step,
        starts_at=start,
        ends_at=end,
        created_at=now,
    )
    audit_record(
        actor=None,
        action=f"moderation.conduct_{kind}",
        target=measure,
        reason=event.get_kind_display(),
        data={
            "user": event.user_id,
            "tournament": event.tournament_id,
            "step": step,
            "from": start.isoformat(),
            "until": end.isoformat() if end else None,
        },
    )
    return measure


@transaction.atomic
def turn_completed_record(*, user_id: int, tournament_id: int) -> int:
    """Count a completed tournament turn; return the player's completed turns."""
    for value in (user_id, tournament_id):
        if type(value) is not int or value <= 0:
            raise _bad("Giocatore o torneo non validi")
    if not User.objects.filter(pk=user_id).exists():
        raise _bad("Giocatore non trovato")
    record = _record(user_id)
    record.completed_turns += 1
    record.save(update_fields=["completed_turns"])
    return record.completed_turns


def on_tournament_conduct(
    *, user_id: int, tournament_id: int, kind: str, training: bool, turn: int, pairs: bool = False
) -> None:
    """Handler of ``hooks.tournament_conduct``."""
    conduct_record(
        user_id=user_id, tournament_id=tournament_id, kind=kind, training=training, turn=turn, pairs=pairs
    )


def on_tournament_turn_completed(*, user_id: int, tournament_id: int) -> None:
    """Handler of ``hooks.tournament_turn_completed``."""
    turn_completed_record(user_id=user_id, tournament_id=tournament_id)


@transaction.atomic
def on_tournament_participation_void(*, user_id: int, tournament_id: int, turns: list[int]) -> None:
    """Handler of ``hooks.tournament_participation_void``: the turns he completed there count no more
    (rules 004, "Recupero punti automatico": "la sua partecipazione al torneo sarà considerata nulla").

    A turn with a conduct event of his was not completed (never counted); the others were.
    """
    offended = set(
        ConductEvent.objects.filter(user_id=user_id, tournament_id=tournament_id).values_list(
            "turn", flat=True
        )
    )
    completed = len(set(turns) - offended)
    if completed:
        record = _record(user_id)
        record.completed_turns = max(0, record.completed_turns - completed)
        record.save(update_fields=["completed_turns"])


def on_tournament_match_voided(*, user_ids: list[int], tournament_id: int, turn: int) -> None:
    """Handler of ``hooks.tournament_match_voided``."""
    for user_id in user_ids:
        match_conduct_withdraw(user_id=user_id, tournament_id=tournament_id, turn=turn)


@transaction.atomic
def match_conduct_withdraw(
    *, user_id: int, tournament_id: int, turn: int, now: datetime | None = None
) -> list[str]:
    """Take back what a voided match's end recorded of this player in this tournament's turn.

    Each offence of that turn is withdrawn: its warnings come off his count, the measures it gave
    end now (a measure chained after one of them keeps its own dates), the event is removed so the
    match played again may record its own, he is told and it is audited. A turn he ended without
    an offence was counted completed: it is uncounted (the match played again counts it). Returns
    the kinds withdrawn."""
    now = now or timezone.now()
    record = _record(user_id)
    events = list(ConductEvent.objects.filter(user_id=user_id, tournament_id=tournament_id, turn=turn))
    if not events:
        record.completed_turns = max(0, record.completed_turns - 1)
        record.save(update_fields=["completed_turns"])
        return []
    for event in events:
        record.received = max(0, record.received - event.warnings)
        measures = list(event.measures.all())
        for measure in measures:
            if measure.starts_at > now:
                measure.starts_at = now
            if measure.ends_at is not None and measure.ends_at > now:
                measure.ends_at = now
            measure.event = None
            measure.save(update_fields=["starts_at", "ends_at", "event"])
        label = event.get_kind_display()
        audit_record(
            actor=None,
            action="moderation.conduct_withdrawn",
            target=event,
            reason="Partita rigiocata per un guasto della piattaforma",
            data={
                "user": user_id,
                "tournament": tournament_id,
                "turn": turn,
                "kind": event.kind,
                "warnings": event.warnings,
                "measures": [m.pk for m in measures],
            },
        )
        notice_send(
            user_id=user_id,
            code="conduct_withdrawn",
            text=f"La partita si rigioca per un guasto della piattaforma: l'infrazione «{label}» "
            f"(torneo {tournament_id}, turno {turn}) è annullata.",
            data={"tournament": tournament_id, "turn": turn, "warnings": event.warnings},
            now=now,
        )
        event.delete()
    record.save(update_fields=["received"])
    return [e.kind for e in events]
