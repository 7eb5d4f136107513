"""What every tournament write shares: the tournament's lock, staff checks, refunds, tasks sent."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import transaction

from config.celery import app as celery_app
from piattaforma.models import User
from tournaments import errors
from tournaments.models import Registration, Tournament
from wallet import actions as wallet
from wallet import errors as wallet_errors

RegState = Registration.State


def tasks_scheduled() -> bool:
    """Whether the writes send their Celery tasks (the test settings leave them off)."""
    return bool(getattr(settings, "TOURNAMENTS_SCHEDULE_TASKS", settings.LOBBY_SCHEDULE_TASKS))


def task_send_on_commit(
    name: str, *, robust: bool = False, countdown: float | None = None, **kwargs: Any
) -> None:
    """After commit, send the task of ``tournaments.tasks`` called ``name`` with ``kwargs`` (in
    ``countdown`` seconds, if given).

    By name: that module calls these actions, so they do not import it back. A task registered in
    this process goes through its own ``apply_async`` (``task_always_eager`` runs it here), any other
    through ``send_task``.
    """
    if tasks_scheduled():
        signature = celery_app.signature(name, kwargs=kwargs)
        if countdown is not None:
            signature = signature.set(countdown=countdown)
        transaction.on_commit(signature.apply_async, robust=robust)


def schedule_authorisation(registration_id: int) -> None:
    """After commit, ask the regulator about a registration or a cancellation."""
    task_send_on_commit("tournaments.authorise", registration_id=registration_id)


def schedule_adm_code(tournament: Tournament) -> None:
    """A money tournament asks the regulator for its code as soon as it exists (after commit)."""
    if not tournament.is_free:
        task_send_on_commit("tournaments.adm_code", robust=True, tournament_id=tournament.pk)


def section_realm(tournament: Tournament) -> str:
    """The section a tournament belongs to, as the game switches name it: "play" (training) or "real"."""
    return "play" if tournament.training else "real"


def players_lock(user_ids: Iterable[int]) -> None:
    """Lock players' rows in primary-key order, before any tournament row: a registration's first
    locks, in the order a block of the player (self-exclusion, suspension) takes them (his row,
    then his tournaments and accounts), so the two wait for each other and never deadlock.

    ``FOR NO KEY UPDATE``: it serialises the player's registrations and blocks, but not the
    foreign-key checks of rows that merely point at him (``FOR KEY SHARE``), which would otherwise
    wait on it while holding the accounts this transaction needs next.
    """
    ids = sorted(set(user_ids))
    list(User.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk").values_list("pk"))


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock the tournament's row, the first lock of every write of a tournament (a registration
    takes its players' rows before it: ``players_lock``)."""
    try:
        return Tournament.objects.select_for_update().get(pk=tournament_id)
    except Tournament.DoesNotExist:
        raise errors.InvalidTournament("Torneo inesistente.") from None


def check_perm(actor: User, perm: str) -> None:
    """Refuse a staff write to an actor without the permission ``perm``."""
    if not actor.has_perm(perm):
        raise errors.NotPermitted()


def registration_refund(registration: Registration, state: str) -> None:
    """Give the entry back (pool quota and fee, bonus to bonus) and end the registration in ``state``."""
    if registration.entry_transaction:
        result = wallet.tournament_entry_refund(
            entry_transaction_id=registration.entry_transaction,
            idempotency_key=f"tournament-refund:{registration.pk}",
        )
        registration.refund_transaction = result["transaction_id"] or ""
    registration.state = state
    registration.save(update_fields=["state", "refund_transaction", "updated_at"])


def may_play(user: User) -> bool:
    """Tell whether the player may take his place now: not suspended or self-excluded, not staff or
    a moderator (``wallet.actions.check_player_can_play``, the rule of every entry)."""
    try:
        wallet.check_player_can_play(user)
    except wallet_errors.WalletError:
        return False
    return True
