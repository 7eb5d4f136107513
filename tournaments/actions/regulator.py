"""The regulator's authorisation of each entry and cancellation, and a money tournament's code."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import F

from piattaforma.regulator import AuthorisationTimeout, Authorizer, Decision, get_authorizer
from tournaments.actions.closing import sitgo_close_if_full
from tournaments.actions.common import RegState, registration_refund, tournament_lock
from tournaments.models import Registration, Tournament

# The regulator is asked again for a registration left waiting this long (a lost task, a timeout) ...
AUTHORISATION_RETRY_AFTER = timedelta(seconds=30)


# ... and after this many unanswered requests the request counts as refused.
AUTHORISATION_MAX_ATTEMPTS = 5


def tournament_adm_code_obtain(*, tournament_id: int, authorizer: Authorizer | None = None) -> str:
    """The regulator's code of a money tournament ("codice AAMS del torneo", shown in the info panel
    from the start), asked once; runs outside any transaction. "" while the regulator does not answer
    (the sweep asks again) and for tournaments that are not money (freerolls, training)."""
    tournament = Tournament.objects.get(pk=tournament_id)
    if tournament.adm_code or tournament.is_free:
        return tournament.adm_code
    try:
        code = (authorizer or get_authorizer()).open_tournament(
            tournament_ref=tournament.ledger_ref, name=tournament.name, cost=tournament.cost
        )
    except AuthorisationTimeout:
        return ""
    Tournament.objects.filter(pk=tournament.pk, adm_code="").update(adm_code=code)
    return str(Tournament.objects.values_list("adm_code", flat=True).get(pk=tournament.pk))


def registration_authorise(*, registration_id: int, authorizer: Authorizer | None = None) -> str:
    """Ask the regulator about a waiting registration or cancellation, then apply its answer.

    Runs outside any transaction (the regulator may take a while); the answer is applied by
    ``registration_decide`` under the locks, only if nothing overtook it meanwhile (the close).
    Returns the registration's state afterwards ("timeout" when the regulator did not answer).
    """
    registration = Registration.objects.select_related("tournament").get(pk=registration_id)
    asked = registration.state
    if asked not in (RegState.PENDING, RegState.CANCEL_PENDING):
        return asked
    authorizer = authorizer or get_authorizer()
    tournament = registration.tournament
    if not tournament.adm_code:
        tournament.adm_code = tournament_adm_code_obtain(tournament_id=tournament.pk, authorizer=authorizer)
        if not tournament.adm_code:  # no answer: as a timeout of the request itself
            Registration.objects.filter(pk=registration.pk, state=asked).update(attempts=F("attempts") + 1)
            return "timeout"
    try:
        if asked == RegState.PENDING:
            decision = authorizer.authorise_entry(
                request_id=f"entry:{registration.pk}",
                tournament_code=tournament.adm_code,
                player_ref=str(registration.user_id),
                amount=tournament.cost,
            )
        else:
            decision = authorizer.authorise_cancellation(
                request_id=f"cancel:{registration.pk}",
                tournament_code=tournament.adm_code,
                ticket=registration.ticket,
            )
    except AuthorisationTimeout:
        Registration.objects.filter(pk=registration.pk, state=asked).update(attempts=F("attempts") + 1)
        return "timeout"
    return registration_decide(registration_id=registration.pk, asked=asked, decision=decision).state


@transaction.atomic
def registration_decide(*, registration_id: int, asked: str, decision: Decision) -> Registration:
    """Apply the regulator's answer to the request made in state ``asked`` (idempotent).

    Entry authorised: the player is in (blue). Entry refused: "non sono valide", so the entry does
    not play and is refunded. Cancellation authorised: refunded. Cancellation refused: the
    registration stands. An answer arriving after the state moved on (the close) is ignored.
    """
    tournament_id = Registration.objects.values_list("tournament_id", flat=True).get(pk=registration_id)
    tournament = tournament_lock(tournament_id)
    registration = Registration.objects.select_for_update().get(pk=registration_id)
    if registration.state != asked:
        return registration
    if asked == RegState.PENDING:
        if decision.authorised:
            registration.state = RegState.AUTHORISED
            registration.ticket = decision.ticket
            registration.save(update_fields=["state", "ticket", "updated_at"])
            sitgo_close_if_full(tournament)
        else:
            registration_refund(registration, RegState.REFUSED)
    elif decision.authorised:
        registration.cancel_ticket = decision.ticket
        registration_refund(registration, RegState.CANCELLED)
        registration.save(update_fields=["cancel_ticket"])
    else:
        registration.state = RegState.AUTHORISED
        registration.save(update_fields=["state", "updated_at"])
    return registration
