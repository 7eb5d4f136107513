"""The training section's play money, transfers between accounts, and the staff's corrections.

A manual adjustment above ``WALLET_ADJUSTMENT_APPROVAL_CENTS`` (either way) needs two staff
members: one asks (``adjustment_request``), another approves (``adjustment_approve``: posted then)
or rejects it (``adjustment_reject``). A reversal of a transaction always needs two: one asks
(``reversal_request``), another approves (``reversal_approve``) or rejects it (``reversal_reject``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

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
from wallet.errors import InvalidAmount, InvalidState, NeedsApproval, NotPermitted, ReversalPending
from wallet.ledger import AccountKey, cash_key, house_key
from wallet.models import (
    Account,
    AccountKind,
    AdjustmentRequest,
    Realm,
    ReversalRequest,
    Transaction,
    TransactionKind,
)


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


def adjustment_threshold() -> int:
    """The largest adjustment (cents, either way) one staff member posts alone; above it, four eyes."""
    return int(settings.WALLET_ADJUSTMENT_APPROVAL_CENTS)


def _adjustment_checked(*, account_id: int, amount: int, reason: str, actor: User) -> Account:
    """The refusals every adjustment shares: permission, reason, amount, not one's own money."""
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
    account = Account.objects.filter(pk=account_id).first()
    if account is None:
        raise InvalidState("Conto inesistente.")
    check_not_own(actor, [account.owner_id])
    return account


def _adjustment_post(
    *, account: Account, amount: int, reason: str, actor: User, data: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Post one adjustment (inside the caller's transaction): the house adjustments account (the
    play bank in the play realm) against ``account``; audited as ``wallet.adjust``."""
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
        data=data,
    )
    audit_record(
        actor=actor,
        action="wallet.adjust",
        target=tx,
        reason=reason,
        data={"account": account.pk, "amount": amount, **(data or {})},
    )
    return tx_result(tx, balance=target.balance)


def ledger_adjust(
    *, account_id: int, amount: int, reason: str, actor: User, idempotency_key: str
) -> dict[str, Any]:
    """Staff correction: credit (amount > 0) or debit an account against the house adjustments account.

    Needs the ``wallet.adjust_ledger`` permission and a reason; audited. Only up to
    ``adjustment_threshold()`` either way: a larger one is asked with ``adjustment_request`` and
    posted when another staff member approves it (refused here with ``adjustment_needs_approval``).
    """

    def work() -> dict[str, Any]:
        account = _adjustment_checked(account_id=account_id, amount=amount, reason=reason, actor=actor)
        if abs(amount) > adjustment_threshold():
            raise NeedsApproval()
        return _adjustment_post(account=account, amount=amount, reason=reason, actor=actor)

    inputs = {"account": account_id, "amount": amount, "reason": reason, "actor": actor.pk}
    return ledger.run_idempotent(key=idempotency_key, action="adjust", inputs=inputs, work=work)


def adjustment_request(
    *, account_id: int, amount: int, reason: str, actor: User, idempotency_key: str
) -> dict[str, Any]:
    """The back office's adjustment: posted at once up to the threshold, else a pending request.

    Returns ``{"status": "posted", ...}`` (the transaction) or ``{"status": "pending",
    "request_id": ...}``; a retry with the same key returns the first answer. Audited
    (``wallet.adjust`` or ``wallet.adjust_request``).
    """
    if isinstance(amount, int) and not isinstance(amount, bool) and abs(amount) <= adjustment_threshold():
        result = ledger_adjust(
            account_id=account_id, amount=amount, reason=reason, actor=actor, idempotency_key=idempotency_key
        )
        return {**result, "status": "posted"}

    def work() -> dict[str, Any]:
        account = _adjustment_checked(account_id=account_id, amount=amount, reason=reason, actor=actor)
        request = AdjustmentRequest.objects.create(
            account=account, amount=amount, reason=reason, requested_by=actor, idempotency_key=idempotency_key
        )
        audit_record(
            actor=actor,
            action="wallet.adjust_request",
            target=request,
            reason=reason,
            data={"account": account.pk, "amount": amount},
        )
        return {"status": "pending", "request_id": request.pk}

    inputs = {"account": account_id, "amount": amount, "reason": reason, "actor": actor.pk}
    return ledger.run_idempotent(key=idempotency_key, action="adjust_request", inputs=inputs, work=work)


def _pending_request(request_id: int, actor: User) -> AdjustmentRequest:
    """Lock a pending request for its decision by ``actor``: never the one who asked (four eyes)."""
    check_staff(actor, "wallet.adjust_ledger")
    request = (
        AdjustmentRequest.objects.select_for_update().select_related("account").filter(pk=request_id).first()
    )
    if request is None:
        raise InvalidState("Rettifica inesistente.")
    if request.requested_by_id == actor.pk:
        raise NotPermitted("Una rettifica oltre la soglia la decide un altro membro dello staff.")
    check_not_own(actor, [request.account.owner_id])
    return request


@transaction.atomic
def adjustment_approve(*, request_id: int, actor: User) -> dict[str, Any]:
    """A second staff member approves a pending adjustment: it is posted now, once (audited).

    Approving one already approved posts nothing and returns its transaction (``replayed``).
    """
    request = _pending_request(request_id, actor)
    if request.status == AdjustmentRequest.Status.APPROVED:
        return {"transaction_id": str(request.transaction_id), "status": "approved", "replayed": True}
    if request.status != AdjustmentRequest.Status.PENDING:
        raise InvalidState("La rettifica è già stata respinta.")
    result = _adjustment_post(
        account=request.account,
        amount=request.amount,
        reason=request.reason,
        actor=actor,
        data={"request": request.pk, "requested_by": request.requested_by_id},
    )
    request.status = AdjustmentRequest.Status.APPROVED
    request.decided_by = actor
    request.decided_at = timezone.now()
    request.transaction_id = result["transaction_id"]
    request.save(update_fields=["status", "decided_by", "decided_at", "transaction"])
    audit_record(
        actor=actor,
        action="wallet.adjust_approve",
        target=request,
        data={"amount": request.amount, "requested_by": request.requested_by_id},
    )
    return {**result, "status": "approved"}


@transaction.atomic
def adjustment_reject(*, request_id: int, actor: User, reason: str) -> dict[str, Any]:
    """A second staff member rejects a pending adjustment: nothing is posted (audited)."""
    if len(reason.strip()) < 5:
        raise InvalidState("Indica la motivazione.")
    request = _pending_request(request_id, actor)
    if request.status != AdjustmentRequest.Status.PENDING:
        raise InvalidState("La rettifica è già stata decisa.")
    request.status = AdjustmentRequest.Status.REJECTED
    request.decided_by = actor
    request.decided_at = timezone.now()
    request.decision_reason = reason[:200]
    request.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    audit_record(actor=actor, action="wallet.adjust_reject", target=request, reason=reason)
    return {"request_id": request.pk, "status": "rejected"}


def _reversal_checked(*, original: Transaction, actor: User) -> None:
    """The refusals every reversal shares: permission, not one's own money, not reversed yet."""
    check_staff(actor, "wallet.adjust_ledger")
    check_not_own(actor, original.postings.values_list("account__owner_id", flat=True))
    if Transaction.objects.filter(reverses=original).exists():
        raise InvalidState("Movimento già stornato.")


def reversal_request(
    *, transaction_id: str, reason: str, actor: User, idempotency_key: str
) -> dict[str, Any]:
    """Ask for a reversal of a ledger transaction: nothing moves until another staff member
    approves it (``reversal_approve``). Returns ``{"status": "pending", "request_id": ...}``; a
    retry with the same key returns the first answer. One open request per transaction
    (``reversal_pending``). Audited ``wallet.reverse_request``."""
    check_staff(actor, "wallet.adjust_ledger")
    if len(reason.strip()) < 5:
        raise InvalidState("La motivazione è obbligatoria.")

    def work() -> dict[str, Any]:
        original = Transaction.objects.filter(pk=transaction_id).first()
        if original is None:
            raise InvalidState("Movimento inesistente.")
        _reversal_checked(original=original, actor=actor)
        if ReversalRequest.objects.filter(original=original, status=ReversalRequest.Status.PENDING).exists():
            raise ReversalPending()
        try:
            with transaction.atomic():  # two askers at once: the one-open constraint keeps one
                request = ReversalRequest.objects.create(
                    original=original,
                    reason=reason[:200],
                    requested_by=actor,
                    idempotency_key=idempotency_key,
                )
        except IntegrityError:
            if ReversalRequest.objects.filter(idempotency_key=idempotency_key).exists():
                raise  # the same key racing itself: run_idempotent answers with the first result
            raise ReversalPending() from None
        audit_record(
            actor=actor,
            action="wallet.reverse_request",
            target=request,
            reason=reason,
            data={"reverses": str(original.pk)},
        )
        return {"status": "pending", "request_id": request.pk}

    inputs = {"transaction": str(transaction_id), "reason": reason, "actor": actor.pk}
    return ledger.run_idempotent(key=idempotency_key, action="reverse_request", inputs=inputs, work=work)


def _pending_reversal(request_id: int, actor: User) -> ReversalRequest:
    """Lock a reversal request for its decision by ``actor``: never the one who asked (four eyes)."""
    check_staff(actor, "wallet.adjust_ledger")
    request = (
        ReversalRequest.objects.select_for_update().select_related("original").filter(pk=request_id).first()
    )
    if request is None:
        raise InvalidState("Storno inesistente.")
    if request.requested_by_id == actor.pk:
        raise NotPermitted("Uno storno lo approva un altro membro dello staff.")
    check_not_own(actor, request.original.postings.values_list("account__owner_id", flat=True))
    return request


@transaction.atomic
def reversal_approve(*, request_id: int, actor: User) -> dict[str, Any]:
    """A second staff member approves a reversal: the exact opposite of the transaction is posted
    now, once, in one ledger transaction whose actor is the approver (audited ``wallet.reverse`` and
    ``wallet.reverse_approve``). Approving one already approved posts nothing (``replayed``).

    Locks the request, then the transaction's accounts in primary-key order (``post_reversal``).
    """
    request = _pending_reversal(request_id, actor)
    if request.status == ReversalRequest.Status.APPROVED:
        return {"transaction_id": str(request.reversal_id), "status": "approved", "replayed": True}
    if request.status != ReversalRequest.Status.PENDING:
        raise InvalidState("Lo storno è già stato respinto.")
    original = request.original
    data = {"request": request.pk, "requested_by": request.requested_by_id}
    tx = post_reversal(
        original, kind=TransactionKind.REVERSAL, memo=request.reason, actor_id=actor.pk, data=data
    )
    request.status = ReversalRequest.Status.APPROVED
    request.decided_by = actor
    request.decided_at = timezone.now()
    request.reversal = tx
    request.save(update_fields=["status", "decided_by", "decided_at", "reversal"])
    audit_record(
        actor=actor,
        action="wallet.reverse",
        target=tx,
        reason=request.reason,
        data={"reverses": str(original.pk), **data},
    )
    audit_record(
        actor=actor,
        action="wallet.reverse_approve",
        target=request,
        data={"reverses": str(original.pk), "requested_by": request.requested_by_id},
    )
    return {**tx_result(tx), "status": "approved"}


@transaction.atomic
def reversal_reject(*, request_id: int, actor: User, reason: str) -> dict[str, Any]:
    """A second staff member rejects a reversal request: nothing is posted (audited)."""
    if len(reason.strip()) < 5:
        raise InvalidState("Indica la motivazione.")
    request = _pending_reversal(request_id, actor)
    if request.status != ReversalRequest.Status.PENDING:
        raise InvalidState("Lo storno è già stato deciso.")
    request.status = ReversalRequest.Status.REJECTED
    request.decided_by = actor
    request.decided_at = timezone.now()
    request.decision_reason = reason[:200]
    request.save(update_fields=["status", "decided_by", "decided_at", "decision_reason"])
    audit_record(actor=actor, action="wallet.reverse_reject", target=request, reason=reason)
    return {"request_id": request.pk, "status": "rejected"}
