"""The tournaments' side of a game switch (rules 004, "Disattivazione giochi").

Off (money section): running tournaments go on to their end (rule 1); scheduled tournaments that
would have started while the game is off are cancelled and every entrant refunded (rule 2);
registrations and cancellations are refused (rules 3 and 4: ``actions.check_registration`` and
``actions.registration_cancel`` ask ``piattaforma.siteops``). Back on: every registration still
held by a sit&go is cancelled and refunded (rule 5), so nobody who left the site meanwhile finds
himself playing it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q

from piattaforma.actions import audit_record
from piattaforma.models import User
from tournaments import actions
from tournaments.actions.common import registration_refund, tournament_lock
from tournaments.models import Registration, Tournament

# Not yet started: their entries are still only paid, nobody has played a turn.
NOT_STARTED = (
    Tournament.State.ANNOUNCED,
    Tournament.State.REGISTRATION,
    Tournament.State.RESERVED,
    Tournament.State.CLOSED,
)
GAME_OFF_REASON = "Gioco disattivato dal concessionario: il costo di partecipazione è rimborsato."


def _section(realms: set[str]) -> Q:
    """The tournaments of the switched sections: money ("real") and/or training ("play")."""
    return Q(training__in=[realm == "play" for realm in realms])


def tournaments_to_cancel(*, game: str, until: datetime | None, realms: set[str] | None = None) -> list[int]:
    """Scheduled tournaments of ``game`` not yet started that would start before ``until`` (all if
    None), of the sections switched off (``realms``: money "real" by default, training "play")."""
    due = Tournament.objects.filter(
        _section(realms or {"real"}), game=game, kind=Tournament.Kind.SCHEDULED, state__in=NOT_STARTED
    )
    if until is not None:
        due = due.filter(starts_at__lt=until)
    return list(due.order_by("pk").values_list("pk", flat=True))


def tournaments_game_deactivated(*, game: str, realms: set[str], until: Any, actor: User | None) -> None:
    """Hook: cancel and refund the scheduled tournaments the deactivation covers (rule 2)."""
    if not realms or actor is None:
        return
    for tournament_id in tournaments_to_cancel(game=game, until=until, realms=realms):
        actions.tournament_cancel(tournament_id=tournament_id, actor=actor, reason=GAME_OFF_REASON)


@transaction.atomic
def sitgo_registrations_refund(*, tournament_id: int, actor: User | None, reason: str) -> int:
    """Cancel and refund every live registration of a sit&go still taking entrants; audited."""
    tournament = tournament_lock(tournament_id)  # the app's own lock order: tournament first
    if tournament.kind != Tournament.Kind.SITGO or tournament.state not in Tournament.OPEN_STATES:
        return 0
    regs = tournament.registrations.select_for_update().filter(state__in=Registration.ACTIVE).order_by("pk")
    refunded = 0
    for reg in regs:
        registration_refund(reg, Registration.State.REFUNDED)
        refunded += 1
    if refunded:
        audit_record(
            actor=actor, action="tournaments.sitgo_refund", target=tournament, reason=reason,
            data={"refunded": refunded},
        )  # fmt: skip
    return refunded


def tournaments_game_reactivated(*, game: str, realms: set[str], actor: User | None) -> None:
    """Hook: on reactivation every sit&go registration of the game is cancelled and refunded (rule 5)."""
    if not realms:
        return
    sitgos = Tournament.objects.filter(
        _section(realms), game=game, kind=Tournament.Kind.SITGO, state__in=Tournament.OPEN_STATES
    ).order_by("pk")
    for tournament_id in sitgos.values_list("pk", flat=True):
        sitgo_registrations_refund(
            tournament_id=tournament_id, actor=actor, reason="Riattivazione del gioco (rules 004, regola 5)"
        )


def tournaments_switch_preview(*, game: str, realms: set[str], until: Any) -> list[str]:
    """Hook: the tournaments a game switch would cancel and refund, for the confirmation page."""
    from wallet.money import format_eur

    if not realms:
        return []
    lines = []
    for tournament in Tournament.objects.filter(
        pk__in=tournaments_to_cancel(game=game, until=until, realms=realms)
    ).order_by("pk"):
        live = tournament.registrations.filter(
            state__in=(*Registration.ACTIVE, Registration.State.ADMITTED)
        ).count()
        lines.append(
            f"Torneo {tournament.code} «{tournament.name}»: annullato, {live} iscritti rimborsati di "
            f"{format_eur(tournament.cost)} ciascuno."
        )
    return lines


def tournament_cancel_preview(*, tournament_id: int) -> dict[str, Any]:
    """What ``actions.tournament_cancel`` would refund, writing nothing: each live entry, paid back whole."""
    tournament = Tournament.objects.get(pk=tournament_id)
    regs = (
        tournament.registrations.filter(state__in=(*Registration.ACTIVE, Registration.State.ADMITTED))
        .select_related("user")
        .order_by("pk")
    )
    rows = [
        {
            "nickname": reg.user.nickname,
            "state": reg.get_state_display(),
            "amount": tournament.cost if reg.entry_transaction else 0,
        }
        for reg in regs
    ]
    return {"tournament": tournament, "rows": rows, "total": sum(r["amount"] for r in rows)}
