"""The close of registration: the lines that play, the refunds of those that do not, a sit&go's start."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments import calls
from tournaments.actions.common import (
    RegState,
    may_play,
    registration_refund,
    task_send_on_commit,
    tournament_lock,
)
from tournaments.actions.creation import opening_state, sitgo_repeat
from tournaments.formats.registration import Entry, close_registration
from tournaments.models import Registration, Tournament


def sitgo_close_if_full(tournament: Tournament) -> None:
    """A sit&go starts as soon as its places are taken by authorised entries (expects the lock)."""
    if tournament.kind != Tournament.Kind.SITGO or tournament.state not in Tournament.OPEN_STATES:
        return
    live = list(
        tournament.registrations.filter(state__in=Registration.ACTIVE).values_list("state", flat=True)
    )
    if len(live) >= tournament.max_players and all(s == RegState.AUTHORISED for s in live):
        _close(tournament, timezone.now())


def _lines(tournament: Tournament, valid: list[Registration]) -> dict[str, list[Registration]]:
    """The entries that may play, in registration order: one player each, or a fixed pair of two.

    A fixed pair left incomplete at the close (the partner never registered, cancelled or was not
    authorised) cannot play: its member is excluded and refunded here.
    """
    if tournament.lines != Tournament.Lines.FIXED_PAIRS:
        return {str(r.pk): [r] for r in valid}
    lines = {str(r.pk): [r] for r in valid if r.pair_id is None}
    for r in valid:
        if r.pair_id is not None and str(r.pair_id) in lines:
            lines[str(r.pair_id)].append(r)
    paired = {r.pk for members in lines.values() if len(members) == 2 for r in members}
    for r in valid:
        if r.pk not in paired:
            registration_refund(r, RegState.EXCLUDED)
    return {line_id: members for line_id, members in lines.items() if len(members) == 2}


def _close(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """Close registration (expects the tournament row locked): who plays, who is refunded.

    Entries not authorised by the close do not play and are refunded ("non sono valide"), nor
    does a player who may no longer play (suspended, self-excluded, made staff: ``may_play``);
    cancellations asked before the close and still waiting are completed (decision: the player
    asked within the window the rules give). Then, in a turn tournament, the last registrants are
    excluded to a multiple of 2 (4 in pairs: its matches pair the lines; a level tournament seats
    any number) and, under the minimum, the tournament is cancelled, everyone refunded.
    """
    regs = list(
        tournament.registrations.select_for_update(of=("self",))
        .select_related("user")
        .filter(state__in=Registration.ACTIVE)
        .order_by("created_at", "pk")
    )
    for reg in regs:
        if reg.state == RegState.AUTHORISED and not may_play(reg.user):
            registration_refund(reg, RegState.EXCLUDED)  # blocked (or made staff) since he registered
        elif reg.state == RegState.PENDING:
            registration_refund(reg, RegState.REFUSED)
        elif reg.state == RegState.CANCEL_PENDING:
            registration_refund(reg, RegState.CANCELLED)
        elif tournament.confirmation_required and reg.confirmed_at is None:
            registration_refund(reg, RegState.UNCONFIRMED)  # training: free, nothing to give back
    lines = _lines(tournament, [r for r in regs if r.state == RegState.AUTHORISED])
    closing = close_registration(
        [Entry(line_id, len(members)) for line_id, members in lines.items()],
        turn_based=not (tournament.is_levels or tournament.is_slot),  # any count plays alone or at levels
        pairs=tournament.is_pairs,
        min_players=tournament.min_players,
        max_players=tournament.max_players,
    )
    refunded = set(closing.refunded)
    for line_id, members in lines.items():
        for reg in members:
            if line_id in refunded:
                registration_refund(reg, RegState.REFUNDED if closing.cancelled else RegState.EXCLUDED)
            else:
                reg.state = RegState.ADMITTED
                reg.save(update_fields=["state", "updated_at"])
    tournament.closed_at = now
    if closing.cancelled:
        tournament.state = Tournament.State.CANCELLED
        tournament.cancelled_reason = "Numero minimo di partecipanti non raggiunto."
    else:
        tournament.state = Tournament.State.CLOSED
    tournament.save(update_fields=["state", "closed_at", "cancelled_reason"])
    if tournament.repeat and tournament.kind == Tournament.Kind.SITGO:
        sitgo_repeat(tournament)
    if tournament.kind == Tournament.Kind.SITGO and not closing.cancelled:
        # a full sit&go starts at once (the sweep if this is lost)
        task_send_on_commit("tournaments.start", robust=True, tournament_id=tournament.pk)
    return {
        "admitted": 0 if closing.cancelled else sum(len(lines[i]) for i in closing.admitted),
        "excluded": sum(len(lines[i]) for i in (*closing.excluded, *closing.refused)),
        "cancelled": closing.cancelled,
    }


@transaction.atomic
def tournament_close(*, tournament_id: int, now: datetime | None = None) -> dict[str, Any] | None:
    """Close a scheduled tournament's registration when its time has come (2 minutes before the start).

    Returns what the close decided, or None when it is not (or no longer) due.
    """
    now = now or timezone.now()
    tournament = tournament_lock(tournament_id)
    closes_at = tournament.closes_at
    if tournament.state not in Tournament.OPEN_STATES or closes_at is None or closes_at > now:
        return None
    return _close(tournament, now)


@transaction.atomic
def tournament_open(*, tournament_id: int, now: datetime | None = None) -> bool:
    """Open an announced tournament's registration when its time has come."""
    now = now or timezone.now()
    tournament = tournament_lock(tournament_id)
    if tournament.state != Tournament.State.ANNOUNCED or tournament.registration_opens_at > now:
        return False
    tournament.state = opening_state(tournament, invited=tournament.invited.exists())
    tournament.save(update_fields=["state"])
    calls.invitations_send_on_commit(tournament)
    return True
