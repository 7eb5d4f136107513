"""The beat's sweep: registrations opened and closed when due, the regulator asked again."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from piattaforma.regulator import Decision
from tournaments.actions.closing import tournament_close, tournament_open
from tournaments.actions.common import RegState, schedule_authorisation
from tournaments.actions.creation import schedules_run
from tournaments.actions.regulator import (
    AUTHORISATION_MAX_ATTEMPTS,
    AUTHORISATION_RETRY_AFTER,
    registration_decide,
    tournament_adm_code_obtain,
)
from tournaments.models import Registration, Tournament


def tournaments_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """Beat: open and close registrations that are due; ask the regulator again where no answer came."""
    now = now or timezone.now()
    scheduled = schedules_run(now=now)
    opened = sum(
        tournament_open(tournament_id=pk, now=now)
        for pk in Tournament.objects.filter(
            state=Tournament.State.ANNOUNCED, registration_opens_at__lte=now
        ).values_list("pk", flat=True)
    )
    due = Tournament.objects.filter(
        state__in=Tournament.OPEN_STATES,
        kind=Tournament.Kind.SCHEDULED,
        starts_at__lte=now + timedelta(seconds=120),
    ).values_list("pk", flat=True)
    closed = sum(tournament_close(tournament_id=pk, now=now) is not None for pk in due)
    stale = Registration.objects.filter(
        state__in=(RegState.PENDING, RegState.CANCEL_PENDING), updated_at__lte=now - AUTHORISATION_RETRY_AFTER
    ).values_list("pk", "state", "attempts")
    retried = 0
    for pk, state, attempts in stale:
        if attempts >= AUTHORISATION_MAX_ATTEMPTS:
            registration_decide(
                registration_id=pk, asked=state, decision=Decision(False, reason="Nessuna risposta")
            )
        else:
            Registration.objects.filter(pk=pk, state=state).update(updated_at=now)
            with transaction.atomic():
                schedule_authorisation(pk)
            retried += 1
    coded = 0
    for pk in (
        Tournament.objects.filter(adm_code="", state__in=_CODED_STATES)
        .exclude(pool_quota=0, fee=0)
        .values_list("pk", flat=True)
    ):
        coded += bool(tournament_adm_code_obtain(tournament_id=pk))
    return {"scheduled": scheduled, "opened": opened, "closed": closed, "retried": retried, "coded": coded}


# The money tournaments still ahead, whose info panel shows the regulator's code.
_CODED_STATES = (
    Tournament.State.ANNOUNCED,
    Tournament.State.REGISTRATION,
    Tournament.State.RESERVED,
    Tournament.State.CLOSED,
    Tournament.State.RUNNING,
)
