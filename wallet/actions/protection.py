"""Player protection: self-set deposit limits and self-exclusion."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from piattaforma import hooks
from piattaforma.actions import audit_record, user_set_status
from piattaforma.models import User
from wallet.actions.common import amount_checked, limit_change
from wallet.actions.tables import do_table_cash_out
from wallet.errors import InvalidState, SelfExclusionNotLonger, SelfExclusionWhileSuspended
from wallet.models import Account, AccountKind, DepositLimit


@transaction.atomic
def deposit_limit_set(
    *, user: User, period: str, amount: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """Set a deposit limit: lowering (or a first limit) applies now; raising or removing after 7 days."""
    if period not in DepositLimit.Period.values:
        raise InvalidState("Periodo non valido.")
    if amount is not None:
        amount_checked(amount)
    now = now or timezone.now()
    limit, _ = DepositLimit.objects.select_for_update().get_or_create(user=user, period=period)
    applies_from = limit_change(limit, amount, now)
    limit.save()
    audit_record(
        actor=user, action="wallet.deposit_limit_set", target=limit, data={"period": period, "amount": amount}
    )
    return {
        "period": period,
        "amount": limit.amount,
        "requested": amount,
        "applies_from": applies_from.isoformat(),
    }


def check_self_exclusion_longer(*, current: User, until: datetime | None) -> None:
    """Refuse a self-exclusion that would end sooner than the one in force, or lift a suspension."""
    if current.status == User.Status.SUSPENDED:
        raise SelfExclusionWhileSuspended()
    if current.status != User.Status.SELF_EXCLUDED:
        return
    if current.self_excluded_until is None or (until is not None and until <= current.self_excluded_until):
        raise SelfExclusionNotLonger()


@transaction.atomic
def deposit_limits_open(*, user: User, limits: dict[str, int | None]) -> dict[str, Any]:
    """The deposit limits chosen when the account opens: the first limits, in force at once."""
    if set(limits) != set(DepositLimit.Period.values):
        raise InvalidState("Periodi non validi.")
    return {
        period: deposit_limit_set(user=user, period=period, amount=amount)["amount"]
        for period, amount in limits.items()
        if amount is not None
    }


@transaction.atomic
def user_self_exclude(
    *, user: User, until: datetime | None, reason: str, actor: User | None = None
) -> dict[str, Any]:
    """Self-exclusion: block the account (piattaforma.actions.user_set_status) and cash out every table.

    While excluded a player may only make his exclusion longer: a later end, or none (indefinite,
    the longest, which nothing changes any more); anything else is refused
    (``self_exclusion_not_longer``), so the exclusion can never end sooner than he chose. A
    suspended account is the staff's (``account_suspended``): excluding himself would put the
    suspension's end in his hands.

    The status change first lets the lobby stand the player up (``piattaforma.hooks``); then every
    table-credit account still open is paid back to the conto and closed in the same transaction,
    pending rebuys voided, except the sessions still in a running hand: the lobby closes those
    when the hand settles, so the hand can never be settled against a closed account.
    """
    with transaction.atomic():
        # one request after the other; FOR NO KEY UPDATE leaves alone the foreign-key checks of rows
        # pointing at him (a deposit's payment, a registration), which would wait on it while
        # holding the conto this exclusion needs next: a deadlock
        current = User.objects.select_for_update(no_key=True).get(pk=user.pk)
        check_self_exclusion_longer(current=current, until=until)
        user_set_status(
            user=user, status=User.Status.SELF_EXCLUDED, actor=actor or user, reason=reason, until=until
        )
        in_hand = {f"table:{ref}" for ref in hooks.sessions_in_use(user)}
        tables = (
            Account.objects.filter(owner=user, kind=AccountKind.TABLE_CREDIT, closed_at__isnull=True)
            .exclude(ref__in=in_hand)
            .order_by("pk")
        )
        cashed = []
        for table in tables:
            amount = table.balance
            tx = do_table_cash_out(table, actor_id=(actor or user).pk)
            cashed.append(
                {
                    "table_session": table.ref.removeprefix("table:"),
                    "amount": amount,
                    "transaction_id": str(tx.pk) if tx else None,
                }
            )
        return {
            "status": User.Status.SELF_EXCLUDED,
            "cashed_out": cashed,
            "closing_after_hand": sorted(in_hand),
        }
