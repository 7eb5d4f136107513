"""Staff cancel a tournament: every entry refunded in full, audited."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from piattaforma.actions import audit_record
from piattaforma.models import User
from tournaments import errors
from tournaments.actions.common import RegState, check_perm, registration_refund, tournament_lock
from tournaments.models import Registration, Tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: int, actor: User, reason: str) -> dict[str, Any]:
    """Staff cancel a tournament for a technical fault: every entry is refunded in full; audited.

    Decision (the rules give refunds for cancellations before the close and for a tournament
    under its minimum; G7 refunds the stakes of an interrupted session): an entry taken and not
    yet played is returned whole, fee included, whatever its authorisation state.
    """
    check_perm(actor, "tournaments.cancel_tournament")
    if len(reason.strip()) < 5:
        raise errors.InvalidTournament("Indica la motivazione dell'annullamento.")
    tournament = tournament_lock(tournament_id)
    if tournament.state in (Tournament.State.FINISHED, Tournament.State.CANCELLED):
        raise errors.TournamentOver()
    regs = tournament.registrations.select_for_update().filter(
        state__in=(*Registration.ACTIVE, RegState.ADMITTED)
    )
    refunded = 0
    for reg in regs.order_by("pk"):
        registration_refund(reg, RegState.REFUNDED)
        refunded += 1
    tournament.state = Tournament.State.CANCELLED
    tournament.cancelled_reason = reason
    tournament.save(update_fields=["state", "cancelled_reason"])
    audit_record(
        actor=actor,
        action="tournaments.cancel",
        target=tournament,
        reason=reason,
        data={"refunded": refunded},
    )
    return {"refunded": refunded}
