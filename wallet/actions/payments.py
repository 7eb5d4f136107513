"""Deposits and withdrawals: through the payment provider, under the player's deposit limits."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q, Sum
from django.utils import timezone

from piattaforma.actions import audit_record
from piattaforma.models import User
from wallet import ledger, selectors
from wallet.actions.common import amount_checked, check_not_own, check_player_can_play, check_staff, tx_result
from wallet.actions.holds import do_hold_place, do_hold_settle
from wallet.errors import DepositLimitExceeded, IdentityNotVerified, InvalidState
from wallet.ledger import Locked, cash_key, house_key
from wallet.models import (
    AccountKind,
    DepositLimit,
    Hold,
    HoldStatus,
    Payment,
    Realm,
    Transaction,
    TransactionKind,
)
from wallet.money import format_eur
from wallet.providers import PaymentProvider, get_provider


def check_deposit(*, user: User, amount: int, now: datetime) -> dict[str, Locked]:
    """Authorise a deposit and lock the player's conto; enforce the deposit limits under that lock.

    Locking the conto first serialises one player's deposits, so two concurrent deposits cannot
    both fit under a limit that only one of them fits.
    """
    check_player_can_play(user)
    amount_checked(amount)
    locked = ledger.accounts_lock([cash_key(user.pk), house_key(AccountKind.PAYMENTS_CLEARING)])
    limits = {
        lim.period: value
        for lim in DepositLimit.objects.filter(user=user)
        if (value := selectors.limit_in_force(lim, now)) is not None
    }
    if limits:
        starts = selectors.period_starts(now)
        sums = Payment.objects.filter(
            user=user,
            direction=Payment.Direction.DEPOSIT,
            status__in=[Payment.Status.PENDING, Payment.Status.SETTLED],
            created_at__gte=min(starts[p] for p in limits),
        ).aggregate(**{p: Sum("amount", filter=Q(created_at__gte=starts[p]), default=0) for p in limits})
        for period, limit in limits.items():
            if sums[period] + amount > limit:
                left = max(0, limit - sums[period])
                raise DepositLimitExceeded(
                    f"Il deposito supera il tuo limite {DepositLimit.Period(period).label} di "
                    f"{format_eur(limit)}: puoi ancora depositare {format_eur(left)}.",
                    period=period,
                    limit=limit,
                    remaining=left,
                )
    return {"cash": locked[cash_key(user.pk)], "clearing": locked[house_key(AccountKind.PAYMENTS_CLEARING)]}


def do_deposit(
    *, user: User, amount: int, locked: dict[str, Locked], provider: PaymentProvider, now: datetime
) -> dict[str, Any]:
    """Record the deposit and credit the conto when the provider settles. Expects check_deposit's locks."""
    payment = Payment.objects.create(
        user=user, direction=Payment.Direction.DEPOSIT, amount=amount, provider=provider.name, created_at=now
    )
    outcome = provider.deposit(payment_id=payment.pk, user_id=user.pk, amount=amount)
    tx = None
    if outcome.status == "settled":
        tx = _credit_deposit(payment, locked)
    payment.status = {"settled": Payment.Status.SETTLED, "failed": Payment.Status.FAILED}.get(
        outcome.status, Payment.Status.PENDING
    )
    payment.provider_ref = outcome.reference
    payment.transaction = tx
    payment.save(update_fields=["status", "provider_ref", "transaction"])
    audit_record(
        actor=user, action="wallet.deposit", target=payment, data={"amount": amount, "status": payment.status}
    )
    return tx_result(tx, payment_id=payment.pk, status=payment.status, balance=locked["cash"].balance)


def _credit_deposit(payment: Payment, locked: dict[str, Locked]) -> Transaction:
    return ledger.post(
        kind=TransactionKind.DEPOSIT,
        realm=Realm.REAL,
        legs=[(locked["clearing"], -payment.amount), (locked["cash"], payment.amount)],
        memo=f"Deposito {payment.provider}",
        data={"payment": payment.pk},
    )


def deposit_create(
    *, user: User, amount: int, idempotency_key: str, provider: PaymentProvider | None = None
) -> dict[str, Any]:
    """Deposit ``amount`` on the player's conto through the payment provider (sandbox: at once)."""
    provider = provider or get_provider()

    def work() -> dict[str, Any]:
        now = timezone.now()
        locked = check_deposit(user=user, amount=amount, now=now)
        return do_deposit(user=user, amount=amount, locked=locked, provider=provider, now=now)

    return ledger.run_idempotent(
        key=idempotency_key, action="deposit", inputs={"user": user.pk, "amount": amount}, work=work
    )


@transaction.atomic
def deposit_settle(*, payment_id: int, provider_ref: str, succeeded: bool) -> dict[str, Any]:
    """Settle a pending deposit when an asynchronous provider reports back (idempotent by state)."""
    payment = Payment.objects.get(pk=payment_id, direction=Payment.Direction.DEPOSIT)
    locked = ledger.accounts_lock([cash_key(payment.user_id), house_key(AccountKind.PAYMENTS_CLEARING)])
    status = Payment.Status.SETTLED if succeeded else Payment.Status.FAILED
    if not Payment.objects.filter(pk=payment_id, status=Payment.Status.PENDING).update(
        status=status, provider_ref=provider_ref
    ):
        payment.refresh_from_db()
        return tx_result(payment.transaction, payment_id=payment.pk, status=payment.status)
    tx = None
    if succeeded:
        tx = _credit_deposit(
            payment,
            {
                "cash": locked[cash_key(payment.user_id)],
                "clearing": locked[house_key(AccountKind.PAYMENTS_CLEARING)],
            },
        )
        Payment.objects.filter(pk=payment_id).update(transaction=tx)
    audit_record(
        actor=None,
        action="wallet.deposit_settle",
        target=payment,
        data={"amount": payment.amount, "status": status, "provider_ref": provider_ref},
    )
    return tx_result(tx, payment_id=payment.pk, status=status)


def withdrawal_request(*, user: User, amount: int, idempotency_key: str) -> dict[str, Any]:
    """Reserve ``amount`` of the conto for a withdrawal that staff will approve or reject.

    Allowed whatever the player's status: a suspended or self-excluded player can always take
    their money out. Bonus money is never withdrawable (it is a separate account). The player's
    identity must have been verified by staff (an approved document) first.
    """
    amount_checked(amount)
    if not user.identity_verified:
        raise IdentityNotVerified()

    def work() -> dict[str, Any]:
        locked = ledger.accounts_lock([cash_key(user.pk), house_key(AccountKind.PAYMENTS_CLEARING)])
        cash = locked[cash_key(user.pk)]
        hold = do_hold_place(
            source=cash,
            destination_id=locked[house_key(AccountKind.PAYMENTS_CLEARING)].pk,
            amount=amount,
            purpose=Hold.Purpose.WITHDRAWAL,
        )
        payment = Payment.objects.create(
            user=user,
            direction=Payment.Direction.WITHDRAWAL,
            amount=amount,
            provider=get_provider().name,
            hold=hold,
        )
        audit_record(actor=user, action="wallet.withdrawal_request", target=payment, data={"amount": amount})
        return {"payment_id": payment.pk, "hold_id": hold.pk, "status": payment.status, "held": cash.held}

    return ledger.run_idempotent(
        key=idempotency_key, action="withdrawal", inputs={"user": user.pk, "amount": amount}, work=work
    )


@transaction.atomic
def withdrawal_approve(
    *, payment_id: int, actor: User, provider: PaymentProvider | None = None
) -> dict[str, Any]:
    """Approve a pending withdrawal: pay it out and post its hold (conto -> payments clearing)."""
    check_staff(actor, "wallet.approve_withdrawal")
    payment = Payment.objects.select_related("hold").get(
        pk=payment_id, direction=Payment.Direction.WITHDRAWAL
    )
    check_not_own(actor, [payment.user_id])
    if payment.status != Payment.Status.PENDING or payment.hold is None:
        raise InvalidState("Il prelievo è già stato deciso.")
    tx = do_hold_settle(payment.hold, HoldStatus.POSTED)
    outcome = (provider or get_provider()).payout(
        payment_id=payment.pk, user_id=payment.user_id, amount=payment.amount
    )
    if outcome.status == "failed":
        raise InvalidState("Il fornitore di pagamento ha rifiutato il bonifico.")  # rolls everything back
    if not Payment.objects.filter(pk=payment.pk, status=Payment.Status.PENDING).update(
        status=Payment.Status.SETTLED,
        transaction=tx,
        decided_by=actor,
        decided_at=timezone.now(),
        provider_ref=outcome.reference,
    ):
        raise InvalidState("Il prelievo è già stato deciso.")
    audit_record(
        actor=actor, action="wallet.withdrawal_approve", target=payment, data={"amount": payment.amount}
    )
    return tx_result(tx, payment_id=payment.pk, status=Payment.Status.SETTLED)


@transaction.atomic
def withdrawal_reject(*, payment_id: int, actor: User, reason: str) -> dict[str, Any]:
    """Reject a pending withdrawal: the reserved money is available again on the conto."""
    check_staff(actor, "wallet.approve_withdrawal")
    if len(reason.strip()) < 5:
        raise InvalidState("Indica la motivazione.")
    payment = Payment.objects.select_related("hold").get(
        pk=payment_id, direction=Payment.Direction.WITHDRAWAL
    )
    check_not_own(actor, [payment.user_id])
    if payment.status != Payment.Status.PENDING or payment.hold is None:
        raise InvalidState("Il prelievo è già stato deciso.")
    do_hold_settle(payment.hold, HoldStatus.VOIDED)
    if not Payment.objects.filter(pk=payment.pk, status=Payment.Status.PENDING).update(
        status=Payment.Status.REJECTED, decided_by=actor, decided_at=timezone.now(), reason=reason
    ):
        raise InvalidState("Il prelievo è già stato deciso.")
    audit_record(actor=actor, action="wallet.withdrawal_reject", target=payment, reason=reason)
    return {"payment_id": payment.pk, "status": Payment.Status.REJECTED}
