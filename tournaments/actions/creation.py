"""Tournaments created by staff, repeated (sit&go) and scheduled."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, time, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from games import registry
from piattaforma.actions import audit_record
from piattaforma.models import User
from tournaments import calls, errors
from tournaments.actions.common import check_perm, schedule_adm_code
from tournaments.models import Tournament, TournamentSchedule


def opening_state(tournament: Tournament, *, invited: bool) -> str:
    """The state a tournament opens in: "Riservato" when it has invited players or a reserved entry
    ("Ristretto"), else "Iscrizione"."""
    if invited or tournament.is_restricted:
        return Tournament.State.RESERVED
    return Tournament.State.REGISTRATION


@transaction.atomic
def tournament_create(
    *, actor: User, values: dict[str, Any], invited: Iterable[User] = (), now: datetime | None = None
) -> Tournament:
    """Create a tournament from back-office values (checked by ``Tournament.clean``); audited.

    Its registration opens at once if ``registration_opens_at`` has passed, else it is announced.
    A ``tempo_giocata`` not given (or None) is the game's own (``Engine.default_tempo_giocata``:
    Burraco and Scala 40 longer than the others).
    """
    check_perm(actor, "tournaments.add_tournament")
    invited = list(invited)
    values = {**values, "tempo_giocata": tempo_giocata_for(values.get("game"), values.get("tempo_giocata"))}
    tournament = Tournament(**values, created_by=actor)
    now = now or timezone.now()
    try:
        tournament.full_clean(exclude=["created_by"])
    except ValidationError as exc:
        raise errors.InvalidTournament(" ".join(exc.messages), fields=exc.message_dict) from None
    if tournament.registration_opens_at <= now:
        tournament.state = opening_state(tournament, invited=bool(invited))
    tournament.save()
    tournament.invited.set(invited)
    if tournament.state in Tournament.OPEN_STATES:
        calls.invitations_send_on_commit(tournament)
    schedule_adm_code(tournament)
    audit_record(actor=actor, action="tournaments.create", target=tournament, data={"name": tournament.name})
    return tournament


def tempo_giocata_for(game: Any, chosen: int | None) -> int:
    """The tempo giocata of a new tournament of ``game``: staff's choice, else the game's own."""
    if chosen is not None:
        return chosen
    names = registry.names()
    engine = registry.get(game) if game in names else None
    return engine.default_tempo_giocata if engine else Tournament._meta.get_field("tempo_giocata").default


def _copy(tournament: Tournament, **changes: Any) -> Tournament:
    """A new tournament with the settings of ``tournament`` (a repeating sit&go, a schedule's template)."""
    twin = Tournament.objects.get(pk=tournament.pk)
    twin.pk = None
    twin.adm_code = ""
    twin.closed_at = None
    twin.cancelled_reason = ""
    twin.created_at = timezone.now()
    # nothing of how the model ran, if it has: a fresh tournament (a level or slot one reads its
    # chips, tables and clocks from ``progress``)
    twin.progress, twin.turn = {}, 0
    twin.started_at = twin.finished_at = twin.paid_at = None
    twin.prize_transaction = ""
    for field, value in changes.items():
        setattr(twin, field, value)
    twin.save()
    twin.invited.set(tournament.invited.all())
    if twin.state in Tournament.OPEN_STATES:
        twin.state = opening_state(twin, invited=tournament.invited.exists())
        twin.save(update_fields=["state"])
        calls.invitations_send_on_commit(twin)
    schedule_adm_code(twin)
    return twin


def sitgo_repeat(tournament: Tournament) -> Tournament:
    """Open the next sit&go of a repeating one, with the same settings."""
    return _copy(tournament, state=Tournament.State.REGISTRATION, registration_opens_at=timezone.now())


# How far ahead a schedule's tournaments are created (and shown as "Annunciato" until they open).
SCHEDULE_HORIZON = timedelta(days=2)


@transaction.atomic
def schedule_create(
    *, actor: User, template_id: int, weekdays: str, start_time: time, opens_hours_before: int = 24
) -> TournamentSchedule:
    """Repeat a scheduled tournament's settings on ``weekdays`` (0 = Monday) at ``start_time`` (Rome)."""
    check_perm(actor, "tournaments.add_tournamentschedule")
    template = Tournament.objects.filter(pk=template_id, kind=Tournament.Kind.SCHEDULED).first()
    if template is None:
        raise errors.InvalidTournament("Il modello deve essere un torneo programmato.")
    schedule = TournamentSchedule(
        template=template,
        weekdays="".join(sorted(set(weekdays))),
        start_time=start_time,
        opens_hours_before=opens_hours_before,
        created_by=actor,
    )
    try:
        schedule.full_clean()
    except ValidationError as exc:
        raise errors.InvalidTournament(" ".join(exc.messages), fields=exc.message_dict) from None
    schedule.save()
    audit_record(actor=actor, action="tournaments.schedule_create", target=schedule)
    return schedule


def schedules_run(*, now: datetime | None = None) -> int:
    """Create the tournaments of every active schedule that start within SCHEDULE_HORIZON (idempotent)."""
    now = now or timezone.now()
    created = 0
    today = timezone.localdate(now)
    for schedule in TournamentSchedule.objects.filter(active=True).select_related("template"):
        for offset in range(SCHEDULE_HORIZON.days + 1):
            day = today + timedelta(days=offset)
            starts = timezone.make_aware(datetime.combine(day, schedule.start_time))
            if str(day.weekday()) not in schedule.weekdays or not (now + timedelta(minutes=5) < starts):
                continue
            if starts > now + SCHEDULE_HORIZON:
                continue
            with transaction.atomic():
                if Tournament.objects.filter(schedule=schedule, starts_at=starts).exists():
                    continue
                opens = starts - timedelta(hours=schedule.opens_hours_before)
                _copy(
                    schedule.template,
                    schedule=schedule,
                    starts_at=starts,
                    registration_opens_at=opens,
                    state=Tournament.State.ANNOUNCED,
                )
                created += 1
    return created
