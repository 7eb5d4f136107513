"""The training section's play money, transfers between accounts, and the staff's corrections."""

from __future__ import annotations

from typing import Any

from django.db import connection

from piattaforma.actions import audit_record
from piattaforma.models import User
from wallet import ledger
from wallet.actions.common import (
    MAX_SINGLE_AMOUNT,
    amount_checked,
    check_no_game_money_in,
    check_not_own,
    check_staff,
    post_reversal,
    tx_result,
)
from wallet.errors import InvalidAmount, InvalidState
from wallet.ledger import AccountKey, cash_key, house_key
from wallet.models import Account, AccountKind, Realm, Transaction, TransactionKind


def play_money_top_up(*, user: User, amount: int, idempotency_key: str) -> dict[str, Any]:
    """Give virtual money for the training section (play realm: never mixes with real money)."""
    amount_checked(amount)

    def work() -> dict[str, Any]:
        keys = [house_key(AccountKind.PLAY_BANK, Realm.PLAY), cash_key(user.pk, Realm.PLAY)]
        locked = ledger.accounts_lock(keys)
        tx = ledger.post(
            kind=TransactionKind.PLAY_TOP_UP,
            realm=Realm.PLAY,
            legs=[(locked[keys[0]], -amount), (locked[keys[1]], amount)],
        )
        return tx_result(tx, balance=locked[keys[1]].balance)

    return ledger.run_idempotent(
        key=idempotency_key, action="play_top_up", inputs={"user": user.pk, "amount": amount}, work=work
    )


def ledger_transfer(
    *, source_id: int, destination_id: int, amount: int, idempotency_key: str, memo: str = ""
) -> dict[str, Any]:
    """Move ``amount`` between two existing accounts (low level: tests, benchmark, operations).

    PostgreSQL: one round trip to the stored function ``wallet_transfer`` (migration 0005: same
    locks, checks, rows and refusals as the portable path, which SQLite uses).
    """
    amount_checked(amount)
    if connection.vendor == "postgresql":
        return ledger.transfer_postgresql(
            key=idempotency_key,
            action="transfer",
            inputs={"from": source_id, "to": destination_id, "amount": amount},
            kind=TransactionKind.TRANSFER,
            source_id=source_id,
            destination_id=destination_id,
            amount=amount,
            memo=memo,
        )
    return ledger_transfer_portable(
        source_id=source_id,
        destination_id=destination_id,
        amount=amount,
        idempotency_key=idempotency_key,
        memo=memo,
    )


def ledger_transfer_portable(
    *, source_id: int, destination_id: int, amount: int, idempotency_key: str, memo: str = ""
) -> dict[str, Any]:
    """``ledger_transfer`` through the lock helper and ``ledger.post`` (any vendor; the reference path)."""
    amount_checked(amount)

    def work() -> dict[str, Any]:
        locked = ledger.accounts_lock_by_pk([source_id, destination_id])
        if len(locked) != 2:
            raise InvalidState("Conto inesistente.")
        src = locked[source_id]
        tx = ledger.post(
            kind=TransactionKind.TRANSFER,
            realm=src.realm,
            legs=[(src, -amount), (locked[destination_id], amount)],
            memo=memo,
        )
        return tx_result(tx)

    inputs = {"from": source_id, "to": destination_id, "amount": amount}
    return ledger.run_idempotent(key=idempotency_key, action="transfer", inputs=inputs, work=work)


def ledger_adjust(
    *, account_id: int, amount: int, reason: str, actor: User, idempotency_key: str
) -> dict[str, Any]:
    """Staff correction: credit (amount > 0) or debit an account against the house adjustments account.

    Needs the ``wallet.adjust_ledger`` permission and a reason; audited.
    """
    check_staff(actor, "wallet.adjust_ledger")
    if len(reason.strip()) < 5:
        raise InvalidState("La motivazione è obbligatoria.")
    if (
        isinstance(amount, bool)
        or not isinstance(amount, int)
        or amount == 0
        or abs(amount) > MAX_SINGLE_AMOUNT
    ):
        raise InvalidAmount()

    def work() -> dict[str, Any]:
        account = Account.objects.select_related("owner").get(pk=account_id)
        check_not_own(actor, [account.owner_id])
        if amount > 0 and account.realm == Realm.REAL and account.owner is not None:
            check_no_game_money_in(account.owner)  # no correction pays the site's own people
        house = house_key(AccountKind.HOUSE_ADJUSTMENTS, account.realm)
        if account.realm == Realm.PLAY:
            house = house_key(AccountKind.PLAY_BANK, Realm.PLAY)
        locked = ledger.accounts_lock([house, AccountKey(account.kind, account.realm, account.ref)])
        target = locked[AccountKey(account.kind, account.realm, account.ref)]
        tx = ledger.post(
            kind=TransactionKind.ADJUSTMENT,
            realm=account.realm,
            legs=[(locked[house], -amount), (target, amount)],
            memo=reason,
            actor_id=actor.pk,
        )
        audit_record(
            actor=actor,
            action="wallet.adjust",
            target=tx,
            reason=reason,
            data={"account": account_id, "amount": amount},
        )
        return tx_result(tx, balance=target.balance)

    inputs = {"account": account_id, "amount": amount, "reason": reason, "actor": actor.pk}
    return ledger.run_idempotent(key=idempotency_key, action="adjust", inputs=inputs, work=work)


def transaction_reverse(
    *, transaction_id: str, reason: str, actor: User, idempotency_key: str
) -> dict[str, Any]:
    """Staff correction: a new transaction that reverses another one exactly (audited)."""
    check_staff(actor, "wallet.adjust_ledger")
    if len(reason.strip()) < 5:
        raise InvalidState("La motivazione è obbligatoria.")

    def work() -> dict[str, Any]:
        original = Transaction.objects.get(pk=transaction_id)
        check_not_own(actor, original.postings.values_list("account__owner_id", flat=True))
        tx = post_reversal(original, kind=TransactionKind.REVERSAL, memo=reason, actor_id=actor.pk)
        audit_record(
            actor=actor,
            action="wallet.reverse",
            target=tx,
            reason=reason,
            data={"reverses": str(original.pk)},
        )
        return tx_result(tx)

    inputs = {"transaction": str(transaction_id), "reason": reason, "actor": actor.pk}
    return ledger.run_idempotent(key=idempotency_key, action="reverse", inputs=inputs, work=work)
