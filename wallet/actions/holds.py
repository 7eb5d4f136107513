"""Holds: money reserved on an account (a withdrawal, a rebuy, an entry) until posted or released."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from wallet import ledger
from wallet.actions.common import amount_checked
from wallet.errors import InvalidState
from wallet.ledger import AccountKey, Locked
from wallet.models import Hold, HoldStatus, Transaction, TransactionKind


def do_hold_place(
    *,
    source: Locked,
    destination_id: int | None,
    amount: int,
    purpose: str,
    expires_at: datetime | None = None,
    ticket: str = "",
) -> Hold:
    """Reserve ``amount`` on a locked account (raises InsufficientFunds if not available)."""
    ledger.adjust_locked(source, held=amount)
    return Hold.objects.create(
        account_id=source.pk,
        destination_id=destination_id,
        amount=amount,
        purpose=purpose,
        expires_at=expires_at,
        ticket=ticket,
    )


def do_hold_settle(hold: Hold, status: str, *, now: datetime | None = None) -> Transaction | None:
    """Post a pending hold to its destination, or release it (voided/expired). Locks both accounts."""
    now = now or timezone.now()
    pks = [hold.account_id] + ([hold.destination_id] if hold.destination_id else [])
    locked = ledger.accounts_lock_by_pk(pks)
    if not Hold.objects.filter(pk=hold.pk, status=HoldStatus.PENDING).update(status=status, settled_at=now):
        raise InvalidState("La somma vincolata non è più in attesa.")
    source = locked[hold.account_id]
    if status != HoldStatus.POSTED:
        ledger.adjust_locked(source, held=-hold.amount)
        return None
    if hold.destination_id is None:
        raise InvalidState("Vincolo senza destinazione.")
    destination = locked[hold.destination_id]
    kinds: dict[str, str] = {
        Hold.Purpose.WITHDRAWAL: TransactionKind.WITHDRAWAL,
        Hold.Purpose.REBUY: TransactionKind.REBUY,
        Hold.Purpose.TOURNAMENT: TransactionKind.TOURNAMENT_ENTRY,
    }
    kind = kinds.get(hold.purpose, TransactionKind.TRANSFER)
    transferred = {destination.pk: hold.amount} if hold.purpose == Hold.Purpose.REBUY else None
    tx = ledger.post(
        kind=kind,
        realm=source.realm,
        legs=[(source, -hold.amount), (destination, hold.amount)],
        held_release={source.pk: hold.amount},
        transferred_in=transferred,
        data={"hold": hold.pk, "ticket": hold.ticket} if hold.ticket else {"hold": hold.pk},
    )
    Hold.objects.filter(pk=hold.pk).update(transaction=tx)
    return tx


def hold_place(
    *,
    account: AccountKey,
    destination: AccountKey | None,
    amount: int,
    purpose: str = Hold.Purpose.OTHER,
    expires_at: datetime | None = None,
    idempotency_key: str,
) -> dict[str, Any]:
    """Reserve money on an account before a result is known (pending until posted/voided/expired)."""
    amount_checked(amount)

    def work() -> dict[str, Any]:
        keys = [account] + ([destination] if destination else [])
        locked = ledger.accounts_lock(keys)
        hold = do_hold_place(
            source=locked[account],
            destination_id=locked[destination].pk if destination else None,
            amount=amount,
            purpose=purpose,
            expires_at=expires_at,
        )
        return {"hold_id": hold.pk, "status": hold.status}

    inputs = {
        "account": account.as_list(),
        "destination": destination.as_list() if destination else None,
        "amount": amount,
        "purpose": purpose,
    }
    return ledger.run_idempotent(key=idempotency_key, action="hold", inputs=inputs, work=work)


def holds_expire(*, now: datetime | None = None) -> int:
    """Release every pending hold past its expiry; return how many expired."""
    now = now or timezone.now()
    count = 0
    for hold in Hold.objects.filter(status=HoldStatus.PENDING, expires_at__lte=now).order_by("pk"):
        with transaction.atomic():
            try:
                do_hold_settle(hold, HoldStatus.EXPIRED, now=now)
            except InvalidState:  # settled meanwhile by someone else
                continue
        count += 1
    return count
