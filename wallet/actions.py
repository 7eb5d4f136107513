"""Every write of the wallet. Other apps move money only through these functions.

Each action is keyword-only, runs in one database transaction, and - where a client or a worker may
retry it - takes an ``idempotency_key``: a retry with the same inputs returns the first result (with
``"replayed": True``), the same key with other inputs raises IdempotencyConflict
("idempotency_key_reused"). Results are plain JSON-able dicts. Refusals raise a WalletError
subclass (stable ``code``, Italian ``message``) and write nothing.

Amounts are integer euro cents.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, Sum
from django.utils import timezone

from piattaforma import hooks
from piattaforma.actions import audit_record, user_set_status
from piattaforma.alerts import alert_staff
from piattaforma.compiledquery import CompiledQuery
from piattaforma.models import User
from wallet import ledger, selectors
from wallet.errors import (
    BuyInOutOfRange,
    DepositLimitExceeded,
    IdentityNotVerified,
    InsufficientFunds,
    InvalidAmount,
    InvalidEntryCost,
    InvalidState,
    LossLimitReached,
    NotPermitted,
    PlayerNotAllowed,
    PlayTimeLimitReached,
    TableCapExceeded,
)
from wallet.ledger import (
    AccountKey,
    Locked,
    bonus_key,
    cash_key,
    house_key,
    pool_key,
    table_key,
    table_pot_key,
)
from wallet.models import (
    Account,
    AccountKind,
    DepositLimit,
    Hold,
    HoldStatus,
    Payment,
    PlayLimit,
    Posting,
    Realm,
    ReconciliationRun,
    SelfSetLimit,
    Transaction,
    TransactionKind,
)
from wallet.money import LEGAL_TABLE_CAP, format_eur
from wallet.providers import PaymentProvider, get_provider

# Italian rule (ADM, self-set deposit limits): a lower limit applies at once; a higher limit, or
# removing a limit, applies only after this cooling-off delay.
DEPOSIT_LIMIT_RAISE_DELAY = timedelta(days=7)
# The regulation's minimum share of an entry cost that goes to the prize pool ("mai inferiore
# all'80%", rules 004 "Formazione del montepremi").
MIN_POOL_SHARE_PERCENT = 80
MAX_SINGLE_AMOUNT = 10**11  # € 1.000.000.000: a sanity bound on any one movement


def _amount(value: int, *, allow_zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAmount("Gli importi sono centesimi interi.")
    if value < 0 or (value == 0 and not allow_zero) or value > MAX_SINGLE_AMOUNT:
        raise InvalidAmount()
    return value


def check_player_can_play(user: User) -> None:
    """Refuse deposits, entries and sitting down to suspended or self-excluded players."""
    if not user.can_play:
        raise PlayerNotAllowed()


def _result(tx: Transaction | None, **extra: Any) -> dict[str, Any]:
    return {"transaction_id": str(tx.pk) if tx else None, **extra}


# --- deposits and withdrawals ------------------------------------------------------------------


_local_period_starts = selectors.period_starts
_effective_limit = selectors.limit_in_force


def check_deposit(*, user: User, amount: int, now: datetime) -> dict[str, Locked]:
    """Authorise a deposit and lock the player's conto; enforce the deposit limits under that lock.

    Locking the conto first serialises one player's deposits, so two concurrent deposits cannot
    both fit under a limit that only one of them fits.
    """
    check_player_can_play(user)
    _amount(amount)
    locked = ledger.accounts_lock([cash_key(user.pk), house_key(AccountKind.PAYMENTS_CLEARING)])
    limits = {
        lim.period: value
        for lim in DepositLimit.objects.filter(user=user)
        if (value := _effective_limit(lim, now)) is not None
    }
    if limits:
        starts = _local_period_starts(now)
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
    return _result(tx, payment_id=payment.pk, status=payment.status, balance=locked["cash"].balance)


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
        return _result(payment.transaction, payment_id=payment.pk, status=payment.status)
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
    return _result(tx, payment_id=payment.pk, status=status)


def withdrawal_request(*, user: User, amount: int, idempotency_key: str) -> dict[str, Any]:
    """Reserve ``amount`` of the conto for a withdrawal that staff will approve or reject.

    Allowed whatever the player's status: a suspended or self-excluded player can always take
    their money out. Bonus money is never withdrawable (it is a separate account). The player's
    identity must have been verified by staff (an approved document) first.
    """
    _amount(amount)
    if not user.identity_verified:
        raise IdentityNotVerified()

    def work() -> dict[str, Any]:
        locked = ledger.accounts_lock([cash_key(user.pk), house_key(AccountKind.PAYMENTS_CLEARING)])
        cash = locked[cash_key(user.pk)]
        hold = _hold_place(
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


def _check_staff(actor: User, perm: str) -> None:
    if not actor.has_perm(perm):
        raise NotPermitted()


def _check_not_own(actor: User, owner_ids: Iterable[int | None]) -> None:
    """No staff member corrects or decides on his own money: another one must (four eyes)."""
    if actor.pk in set(owner_ids):
        raise NotPermitted("Le operazioni sul proprio conto le decide un altro membro dello staff.")


@transaction.atomic
def withdrawal_approve(
    *, payment_id: int, actor: User, provider: PaymentProvider | None = None
) -> dict[str, Any]:
    """Approve a pending withdrawal: pay it out and post its hold (conto -> payments clearing)."""
    _check_staff(actor, "wallet.approve_withdrawal")
    payment = Payment.objects.select_related("hold").get(
        pk=payment_id, direction=Payment.Direction.WITHDRAWAL
    )
    _check_not_own(actor, [payment.user_id])
    if payment.status != Payment.Status.PENDING or payment.hold is None:
        raise InvalidState("Il prelievo è già stato deciso.")
    tx = _hold_settle(payment.hold, HoldStatus.POSTED)
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
    return _result(tx, payment_id=payment.pk, status=Payment.Status.SETTLED)


@transaction.atomic
def withdrawal_reject(*, payment_id: int, actor: User, reason: str) -> dict[str, Any]:
    """Reject a pending withdrawal: the reserved money is available again on the conto."""
    _check_staff(actor, "wallet.approve_withdrawal")
    if len(reason.strip()) < 5:
        raise InvalidState("Indica la motivazione.")
    payment = Payment.objects.select_related("hold").get(
        pk=payment_id, direction=Payment.Direction.WITHDRAWAL
    )
    _check_not_own(actor, [payment.user_id])
    if payment.status != Payment.Status.PENDING or payment.hold is None:
        raise InvalidState("Il prelievo è già stato deciso.")
    _hold_settle(payment.hold, HoldStatus.VOIDED)
    if not Payment.objects.filter(pk=payment.pk, status=Payment.Status.PENDING).update(
        status=Payment.Status.REJECTED, decided_by=actor, decided_at=timezone.now(), reason=reason
    ):
        raise InvalidState("Il prelievo è già stato deciso.")
    audit_record(actor=actor, action="wallet.withdrawal_reject", target=payment, reason=reason)
    return {"payment_id": payment.pk, "status": Payment.Status.REJECTED}


# --- holds ---------------------------------------------------------------------------------------


def _hold_place(
    *,
    source: Locked,
    destination_id: int | None,
    amount: int,
    purpose: str,
    expires_at: datetime | None = None,
) -> Hold:
    """Reserve ``amount`` on a locked account (raises InsufficientFunds if not available)."""
    ledger.adjust_locked(source, held=amount)
    return Hold.objects.create(
        account_id=source.pk,
        destination_id=destination_id,
        amount=amount,
        purpose=purpose,
        expires_at=expires_at,
    )


def _hold_settle(hold: Hold, status: str, *, now: datetime | None = None) -> Transaction | None:
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
        data={"hold": hold.pk},
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
    _amount(amount)

    def work() -> dict[str, Any]:
        keys = [account] + ([destination] if destination else [])
        locked = ledger.accounts_lock(keys)
        hold = _hold_place(
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
                _hold_settle(hold, HoldStatus.EXPIRED, now=now)
            except InvalidState:  # settled meanwhile by someone else
                continue
        count += 1
    return count


# --- cash tables ---------------------------------------------------------------------------------


def check_table_buy_in(
    *, user: User, table_session_ref: str, amount: int, min_amount: int, max_amount: int, realm: str
) -> dict[str, Locked]:
    """Authorise a buy-in (player may play; table min/max; €1.000 legal cap) and lock conto and credit."""
    if realm == Realm.REAL:
        check_player_can_play(user)
    _amount(amount)
    if not (min_amount <= amount <= max_amount):
        raise BuyInOutOfRange(min=min_amount, max=max_amount)
    if realm == Realm.REAL and amount > LEGAL_TABLE_CAP:
        raise TableCapExceeded()
    locked = ledger.accounts_lock([cash_key(user.pk, realm), table_key(table_session_ref, realm, user.pk)])
    if realm == Realm.REAL:  # under the conto's lock: one player's stakes are checked one at a time
        check_play_limits(user=user, stake=amount)
    table = locked[table_key(table_session_ref, realm)]
    if table.owner_id != user.pk or table.transferred_in or table.closed_at is not None:
        raise InvalidState("Sessione al tavolo già aperta o chiusa.")
    return {"cash": locked[cash_key(user.pk, realm)], "table": table}


def table_buy_in(
    *,
    user: User,
    table_session_ref: str,
    amount: int,
    min_amount: int,
    max_amount: int,
    idempotency_key: str,
    realm: str = Realm.REAL,
) -> dict[str, Any]:
    """Sit down: move ``amount`` from the conto to a new table-credit account for this table session."""

    def work() -> dict[str, Any]:
        locked = check_table_buy_in(
            user=user,
            table_session_ref=table_session_ref,
            amount=amount,
            min_amount=min_amount,
            max_amount=max_amount,
            realm=realm,
        )
        cash, table = locked["cash"], locked["table"]
        tx = ledger.post(
            kind=TransactionKind.BUY_IN,
            realm=realm,
            legs=[(cash, -amount), (table, amount)],
            transferred_in={table.pk: amount},
            data={"table_session": table_session_ref},
        )
        return _result(tx, table_credit=table.balance, balance=cash.balance)

    inputs = {"user": user.pk, "table": table_session_ref, "amount": amount, "realm": realm}
    return ledger.run_idempotent(key=idempotency_key, action="buy_in", inputs=inputs, work=work)


def table_rebuy(
    *,
    user: User,
    table_session_ref: str,
    amount: int,
    max_amount: int,
    hand_in_progress: bool,
    idempotency_key: str,
    realm: str = Realm.REAL,
) -> dict[str, Any]:
    """Add credit to the table; during a hand it is reserved now and credited after the hand.

    Rules 004 "Rebuy": "Se il versamento venisse effettuato durante una mano in corso, il credito al
    tavolo sarà aggiornato e disponibile solo alla fine della mano stessa." The money is held on
    the conto (a pending hold) until the lobby calls ``table_rebuys_credit`` at the end of the hand.
    Limits: credit + pending rebuys + amount <= the table's maximum, and everything transferred to
    this table session <= € 1.000 (the legal cap, which winnings do not count against).
    """

    def work() -> dict[str, Any]:
        if realm == Realm.REAL:
            check_player_can_play(user)
        _amount(amount)
        tkey = table_key(table_session_ref, realm)
        locked = ledger.accounts_lock([cash_key(user.pk, realm), tkey], create=False)
        if realm == Realm.REAL:  # under the conto's lock, as the buy-in
            check_play_limits(user=user, stake=amount)
        cash, table = locked[cash_key(user.pk, realm)], locked[tkey]
        if table.owner_id != user.pk or table.closed_at is not None:
            raise InvalidState("Non sei seduto a questo tavolo.")
        pending = Hold.objects.filter(
            destination_id=table.pk, status=HoldStatus.PENDING, purpose=Hold.Purpose.REBUY
        ).aggregate(s=Sum("amount", default=0))["s"]
        if table.balance + pending + amount > max_amount:
            raise BuyInOutOfRange(max=max_amount)
        if realm == Realm.REAL and table.transferred_in + pending + amount > LEGAL_TABLE_CAP:
            raise TableCapExceeded()
        if hand_in_progress:
            hold = _hold_place(
                source=cash, destination_id=table.pk, amount=amount, purpose=Hold.Purpose.REBUY
            )
            return {
                "transaction_id": None,
                "hold_id": hold.pk,
                "status": "pending",
                "table_credit": table.balance,
            }
        tx = ledger.post(
            kind=TransactionKind.REBUY,
            realm=realm,
            legs=[(cash, -amount), (table, amount)],
            transferred_in={table.pk: amount},
            data={"table_session": table_session_ref},
        )
        return _result(tx, hold_id=None, status="posted", table_credit=table.balance)

    inputs = {"user": user.pk, "table": table_session_ref, "amount": amount, "in_hand": hand_in_progress}
    return ledger.run_idempotent(key=idempotency_key, action="rebuy", inputs=inputs, work=work)


# read at the end of every hand of every table: its SQL compiled once per number of seats
# (``piattaforma.compiledquery``; the queryset's compilation was a third of the hand's settlement
# in a py-spy profile of the Daphnes at 1,000 clients)
_PENDING_REBUYS = CompiledQuery(
    lambda refs, realm: Hold.objects.filter(
        status=HoldStatus.PENDING,
        purpose=Hold.Purpose.REBUY,
        destination__kind=AccountKind.TABLE_CREDIT,
        destination__realm=realm,
        destination__ref__in=refs,
    ).order_by("pk"),
    lambda refs, realm: (  # in the SQL's order: the joined account's conditions come first
        str(AccountKind.TABLE_CREDIT),
        str(realm),
        *refs,
        str(Hold.Purpose.REBUY),
        str(HoldStatus.PENDING),
    ),
    shape=lambda refs, realm: len(refs),
)


def table_rebuys_credit(*, table_session_refs: Iterable[str], realm: str = Realm.REAL) -> list[str | None]:
    """At the end of a hand, credit the rebuys made during it to every table session named.

    Idempotent: posts only pending ones. One query for all the sessions, and nothing more when no
    rebuy is pending (the usual hand end); returns the transactions posted, oldest hold first.
    """
    refs = [f"table:{ref}" for ref in table_session_refs]
    holds = _PENDING_REBUYS(refs, realm) if refs else []
    if not holds:
        return []
    with transaction.atomic():
        txs = [_hold_settle(hold, HoldStatus.POSTED) for hold in holds]
    return [str(tx.pk) if tx else None for tx in txs]


def _table_cash_out(table: Account | Locked, *, actor_id: int | None = None) -> Transaction | None:
    """Void pending rebuys, move the whole table credit back to the conto and close the account."""
    for hold in Hold.objects.filter(
        destination_id=table.pk, status=HoldStatus.PENDING, purpose=Hold.Purpose.REBUY
    ):
        _hold_settle(hold, HoldStatus.VOIDED)
    if table.owner_id is None:
        raise InvalidState("Credito al tavolo senza titolare.")
    locked = ledger.accounts_lock(
        [cash_key(table.owner_id, table.realm), AccountKey(table.kind, table.realm, table.ref)]
    )
    cash, credit = (
        locked[cash_key(table.owner_id, table.realm)],
        locked[AccountKey(table.kind, table.realm, table.ref)],
    )
    if credit.closed_at is not None:
        raise InvalidState("Sessione al tavolo già chiusa.")
    if credit.balance == 0:
        if not Account.objects.filter(pk=credit.pk, balance=0, held=0, closed_at__isnull=True).update(
            closed_at=timezone.now()
        ):
            raise InvalidState("Sessione al tavolo già chiusa.")
        return None
    return ledger.post(
        kind=TransactionKind.CASH_OUT,
        realm=credit.realm,
        legs=[(credit, -credit.balance), (cash, credit.balance)],
        closing=[credit.pk],
        data={"table_session": credit.ref.removeprefix("table:")},
        actor_id=actor_id,
    )


def table_cash_out(
    *, table_session_ref: str, idempotency_key: str, realm: str = Realm.REAL
) -> dict[str, Any]:
    """Stand up: the whole table credit goes back to the conto and the table session's account closes."""

    def work() -> dict[str, Any]:
        table = Account.objects.get(
            kind=AccountKind.TABLE_CREDIT, realm=realm, ref=f"table:{table_session_ref}"
        )
        amount = table.balance
        tx = _table_cash_out(table)
        return _result(tx, amount=amount)

    inputs = {"table": table_session_ref, "realm": realm}
    return ledger.run_idempotent(key=idempotency_key, action="cash_out", inputs=inputs, work=work)


def table_hand_settle(
    *,
    deltas: Mapping[str, int],
    rake: int,
    idempotency_key: str,
    realm: str = Realm.REAL,
    hand_ref: str = "",
    pot: int = 0,
    pot_ref: str = "",
) -> dict[str, Any]:
    """Settle a hand between table credits and collect the rake: sum(deltas) + rake + pot == 0.

    ``deltas`` maps table_session_ref -> net change of that player's table credit (winners
    positive, net of rake). ``pot`` is the net amount moved INTO the table's carried pot
    ``pot_ref`` (piatto di parol, bestia: chips that stay on the table for the next hand;
    negative when a carried pot is won).
    """
    _amount(rake, allow_zero=True)
    if isinstance(pot, bool) or not isinstance(pot, int) or (pot and not pot_ref):
        raise InvalidAmount("Piatto riportato senza riferimento.")
    if sum(deltas.values()) + rake + pot != 0:
        raise InvalidAmount("Mano non bilanciata.")

    def work() -> dict[str, Any]:
        keys = [table_key(ref, realm) for ref in deltas]
        rake_key, pot_key = house_key(AccountKind.HOUSE_RAKE, realm), table_pot_key(pot_ref, realm)
        if rake:
            keys.append(rake_key)
        if pot:
            keys.append(pot_key)
        locked = _lock_with_house(keys, rake_key)
        legs = [(locked[table_key(ref, realm)], delta) for ref, delta in deltas.items()]
        if rake:
            legs.append((locked[rake_key], rake))
        if pot:
            legs.append((locked[pot_key], pot))
        data = {"hand": hand_ref, "rake": rake, "pot": pot}
        tx = ledger.post(kind=TransactionKind.HAND, realm=realm, legs=legs, data=data)
        return _result(
            tx,
            credits={ref: locked[table_key(ref, realm)].balance for ref in deltas},
            pot=locked[pot_key].balance if pot else None,
        )

    inputs = {
        "deltas": dict(deltas),
        "rake": rake,
        "realm": realm,
        "hand": hand_ref,
        "pot": pot,
        "pot_ref": pot_ref,
    }
    return ledger.run_idempotent(key=idempotency_key, action="hand", inputs=inputs, work=work)


def _lock_with_house(keys: list[AccountKey], house: AccountKey) -> dict[AccountKey, Locked]:
    """Lock player-side accounts that must exist plus a house account created on first use."""
    locked = ledger.accounts_lock(keys)
    for k, row in locked.items():
        if k != house and row.owner_id is None and row.kind == AccountKind.TABLE_CREDIT:
            raise InvalidState("Credito al tavolo inesistente.", ref=k.ref)
    return locked


# --- tournaments ---------------------------------------------------------------------------------


def check_tournament_entry(*, user: User, pool_quota: int, rake: int) -> None:
    """Authorise an entry: the player may play, and the pool gets at least 80 % of the cost."""
    check_player_can_play(user)
    _amount(pool_quota, allow_zero=True)
    _amount(rake, allow_zero=True)
    if pool_quota * 100 < (pool_quota + rake) * MIN_POOL_SHARE_PERCENT:
        raise InvalidEntryCost()


def tournament_enter(
    *,
    user: User,
    tournament_ref: str,
    pool_quota: int,
    rake: int,
    idempotency_key: str,
    use_bonus: bool = True,
) -> dict[str, Any]:
    """Pay an entry "€ 10,00 (€ 8,00 + € 2,00)": pool quota to the montepremi, rake to the house.

    Bonus money is spent first (it is usable only for entries), then the conto. A free entry
    (freeroll) writes no transaction.
    """

    def work() -> dict[str, Any]:
        check_tournament_entry(user=user, pool_quota=pool_quota, rake=rake)
        cost = pool_quota + rake
        if cost == 0:
            return _result(None, from_bonus=0, from_cash=0)
        keys = [
            cash_key(user.pk),
            bonus_key(user.pk),
            pool_key(tournament_ref),
            house_key(AccountKind.HOUSE_RAKE),
        ]
        locked = ledger.accounts_lock(keys)
        check_play_limits(user=user, stake=cost)  # under the conto's lock, as the buy-in
        cash, bonus = locked[keys[0]], locked[keys[1]]
        from_bonus = min(bonus.available, cost) if use_bonus else 0
        from_cash = cost - from_bonus
        if from_cash > cash.available:
            raise InsufficientFunds(available=cash.available + from_bonus, needed=cost)
        tx = ledger.post(
            kind=TransactionKind.TOURNAMENT_ENTRY,
            realm=Realm.REAL,
            legs=[
                (bonus, -from_bonus),
                (cash, -from_cash),
                (locked[keys[2]], pool_quota),
                (locked[keys[3]], rake),
            ],
            data={"tournament": tournament_ref, "user": user.pk, "pool_quota": pool_quota, "rake": rake},
        )
        return _result(
            tx, from_bonus=from_bonus, from_cash=from_cash, balance=cash.balance, bonus=bonus.balance
        )

    inputs = {
        "user": user.pk,
        "tournament": tournament_ref,
        "pool": pool_quota,
        "rake": rake,
        "bonus": use_bonus,
    }
    return ledger.run_idempotent(key=idempotency_key, action="tournament_entry", inputs=inputs, work=work)


def _reverse(
    original: Transaction,
    *,
    kind: str,
    memo: str,
    actor_id: int | None = None,
    data: dict[str, Any] | None = None,
) -> Transaction:
    """Write the exact opposite of a transaction (each account gets its posting back, negated)."""
    if Transaction.objects.filter(reverses=original).exists():
        raise InvalidState("Movimento già stornato.")
    legs = list(Posting.objects.filter(transaction=original).values_list("account_id", "amount"))
    locked = ledger.accounts_lock_by_pk(pk for pk, _ in legs)
    return ledger.post(
        kind=kind,
        realm=original.realm,
        legs=[(locked[pk], -amount) for pk, amount in legs],
        memo=memo,
        actor_id=actor_id,
        reverses_id=original.pk,
        data={"reverses": str(original.pk), **(data or {})},
    )


def tournament_entry_refund(*, entry_transaction_id: str, idempotency_key: str) -> dict[str, Any]:
    """Refund an entry: bonus back to bonus, cash back to cash, the pool quota and the rake returned."""

    def work() -> dict[str, Any]:
        original = Transaction.objects.get(pk=entry_transaction_id, kind=TransactionKind.TOURNAMENT_ENTRY)
        tx = _reverse(original, kind=TransactionKind.TOURNAMENT_REFUND, memo="Rimborso iscrizione")
        return _result(tx)

    inputs = {"entry": str(entry_transaction_id)}
    return ledger.run_idempotent(key=idempotency_key, action="tournament_refund", inputs=inputs, work=work)


def tournament_prizes_pay(
    *, tournament_ref: str, prizes: Mapping[int, int], idempotency_key: str, in_bonus: bool = False
) -> dict[str, Any]:
    """Pay prizes from the montepremi: to the conto, or as bonus for freerolls (``in_bonus``)."""
    for value in prizes.values():
        _amount(value)

    def work() -> dict[str, Any]:
        pool = pool_key(tournament_ref)
        winners = {uid: (bonus_key(uid) if in_bonus else cash_key(uid)) for uid in prizes}
        locked = ledger.accounts_lock([pool, *winners.values()])
        legs = [(locked[pool], -sum(prizes.values()))]
        legs += [(locked[winners[uid]], amount) for uid, amount in prizes.items()]
        tx = ledger.post(
            kind=TransactionKind.PRIZE,
            realm=Realm.REAL,
            legs=legs,
            data={"tournament": tournament_ref, "in_bonus": in_bonus},
        )
        return _result(tx, pool_left=locked[pool].balance)

    inputs = {
        "tournament": tournament_ref,
        "prizes": {str(k): v for k, v in prizes.items()},
        "bonus": in_bonus,
    }
    return ledger.run_idempotent(key=idempotency_key, action="prizes", inputs=inputs, work=work)


def tournament_guarantee_top_up(
    *, tournament_ref: str, guaranteed: int, idempotency_key: str
) -> dict[str, Any]:
    """Raise the montepremi to the guaranteed sum from the house promotions account (also freerolls)."""
    _amount(guaranteed, allow_zero=True)

    def work() -> dict[str, Any]:
        pool, promo = pool_key(tournament_ref), house_key(AccountKind.HOUSE_PROMOTIONS)
        locked = ledger.accounts_lock([pool, promo])
        missing = guaranteed - locked[pool].balance
        if missing <= 0:
            return _result(None, top_up=0, pool=locked[pool].balance)
        tx = ledger.post(
            kind=TransactionKind.GUARANTEE,
            realm=Realm.REAL,
            legs=[(locked[promo], -missing), (locked[pool], missing)],
            data={"tournament": tournament_ref, "guaranteed": guaranteed},
        )
        return _result(tx, top_up=missing, pool=locked[pool].balance)

    inputs = {"tournament": tournament_ref, "guaranteed": guaranteed}
    return ledger.run_idempotent(key=idempotency_key, action="guarantee", inputs=inputs, work=work)


# --- training section, transfers, staff corrections -----------------------------------------------


def play_money_top_up(*, user: User, amount: int, idempotency_key: str) -> dict[str, Any]:
    """Give virtual money for the training section (play realm: never mixes with real money)."""
    _amount(amount)

    def work() -> dict[str, Any]:
        keys = [house_key(AccountKind.PLAY_BANK, Realm.PLAY), cash_key(user.pk, Realm.PLAY)]
        locked = ledger.accounts_lock(keys)
        tx = ledger.post(
            kind=TransactionKind.PLAY_TOP_UP,
            realm=Realm.PLAY,
            legs=[(locked[keys[0]], -amount), (locked[keys[1]], amount)],
        )
        return _result(tx, balance=locked[keys[1]].balance)

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
    _amount(amount)
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
    _amount(amount)

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
        return _result(tx)

    inputs = {"from": source_id, "to": destination_id, "amount": amount}
    return ledger.run_idempotent(key=idempotency_key, action="transfer", inputs=inputs, work=work)


def ledger_adjust(
    *, account_id: int, amount: int, reason: str, actor: User, idempotency_key: str
) -> dict[str, Any]:
    """Staff correction: credit (amount > 0) or debit an account against the house adjustments account.

    Needs the ``wallet.adjust_ledger`` permission and a reason; audited.
    """
    _check_staff(actor, "wallet.adjust_ledger")
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
        account = Account.objects.get(pk=account_id)
        _check_not_own(actor, [account.owner_id])
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
        return _result(tx, balance=target.balance)

    inputs = {"account": account_id, "amount": amount, "reason": reason, "actor": actor.pk}
    return ledger.run_idempotent(key=idempotency_key, action="adjust", inputs=inputs, work=work)


def transaction_reverse(
    *, transaction_id: str, reason: str, actor: User, idempotency_key: str
) -> dict[str, Any]:
    """Staff correction: a new transaction that reverses another one exactly (audited)."""
    _check_staff(actor, "wallet.adjust_ledger")
    if len(reason.strip()) < 5:
        raise InvalidState("La motivazione è obbligatoria.")

    def work() -> dict[str, Any]:
        original = Transaction.objects.get(pk=transaction_id)
        _check_not_own(actor, original.postings.values_list("account__owner_id", flat=True))
        tx = _reverse(original, kind=TransactionKind.REVERSAL, memo=reason, actor_id=actor.pk)
        audit_record(
            actor=actor,
            action="wallet.reverse",
            target=tx,
            reason=reason,
            data={"reverses": str(original.pk)},
        )
        return _result(tx)

    inputs = {"transaction": str(transaction_id), "reason": reason, "actor": actor.pk}
    return ledger.run_idempotent(key=idempotency_key, action="reverse", inputs=inputs, work=work)


# --- player protection ---------------------------------------------------------------------------


def _limit_change(limit: SelfSetLimit, amount: int | None, now: datetime) -> datetime:
    """Change a locked self-set limit: lowering (or a first limit) applies now, raising or removing
    after the 7-day delay; return when the requested value applies. The caller saves the row."""
    current = _effective_limit(limit, now)
    limit.amount = current  # a matured pending change becomes the limit in force
    limit.pending_amount, limit.pending_remove, limit.pending_from = None, False, None
    if amount is not None and (current is None or amount <= current):
        limit.amount = amount
        return now
    limit.pending_amount = amount
    limit.pending_remove = amount is None
    limit.pending_from = now + DEPOSIT_LIMIT_RAISE_DELAY
    return limit.pending_from


@transaction.atomic
def deposit_limit_set(
    *, user: User, period: str, amount: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """Set a deposit limit: lowering (or a first limit) applies now; raising or removing after 7 days."""
    if period not in DepositLimit.Period.values:
        raise InvalidState("Periodo non valido.")
    if amount is not None:
        _amount(amount)
    now = now or timezone.now()
    limit, _ = DepositLimit.objects.select_for_update().get_or_create(user=user, period=period)
    applies_from = _limit_change(limit, amount, now)
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


@transaction.atomic
def user_self_exclude(
    *, user: User, until: datetime | None, reason: str, actor: User | None = None
) -> dict[str, Any]:
    """Self-exclusion: block the account (piattaforma.actions.user_set_status) and cash out every table.

    The status change first lets the lobby stand the player up (``piattaforma.hooks``); then every
    table-credit account still open is paid back to the conto and closed in the same transaction,
    pending rebuys voided, except the sessions still in a running hand: the lobby closes those
    when the hand settles, so the hand can never be settled against a closed account.
    """
    with transaction.atomic():
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
            tx = _table_cash_out(table, actor_id=(actor or user).pk)
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


def new_idempotency_key(prefix: str = "web") -> str:
    """A fresh key for a form or client that does not bring its own."""
    return f"{prefix}:{uuid.uuid4().hex}"


# --- loss and session-time limits --------------------------------------------------------------------

MAX_PLAY_MINUTES = {"day": 24 * 60, "week": 7 * 24 * 60, "month": 31 * 24 * 60}


@transaction.atomic
def play_limit_set(
    *, user: User, kind: str, period: str, amount: int | None, now: datetime | None = None
) -> dict[str, Any]:
    """Set a loss limit (cents) or a session-time limit (minutes): as the deposit limits, a lowering
    (or a first limit) applies now, a raise or a removal after 7 days. Audited."""
    if kind not in PlayLimit.Kind.values or period not in PlayLimit.Period.values:
        raise InvalidState("Limite non valido.")
    if amount is not None:
        _amount(amount)
        if kind == PlayLimit.Kind.TIME and amount > MAX_PLAY_MINUTES[period]:
            raise InvalidAmount("Il limite di tempo supera la durata del periodo.")
    now = now or timezone.now()
    limit, _ = PlayLimit.objects.select_for_update().get_or_create(user=user, kind=kind, period=period)
    applies_from = _limit_change(limit, amount, now)
    limit.save()
    audit_record(
        actor=user,
        action="wallet.play_limit_set",
        target=limit,
        data={"kind": kind, "period": period, "amount": amount},
    )
    return {
        "kind": kind,
        "period": period,
        "amount": limit.amount,
        "requested": amount,
        "applies_from": applies_from.isoformat(),
    }


def check_play_limits(*, user: User, stake: int, now: datetime | None = None) -> None:
    """Refuse to put ``stake`` cents at play (sitting down, a rebuy, a tournament entry) when it
    could take the player's net loss past a loss limit, or when his time at the tables reached a
    session-time limit. The one check the lobby and tournaments reach through the wallet.

    Worst case of a period = its net result so far (hands, tournament entries, refunds, prizes)
    minus the money still at the tables minus the stake: a player who keeps to his limit can never
    lose more than it, whatever happens at the tables he sits at.
    """
    now = now or timezone.now()
    limits = [
        (lim.kind, lim.period, value)
        for lim in PlayLimit.objects.filter(user=user)
        if (value := _effective_limit(lim, now)) is not None
    ]
    if not limits:
        return
    starts = _local_period_starts(now)
    at_tables = selectors.money_at_tables(user=user)
    for kind, period, value in sorted(limits, key=lambda x: (x[0] != PlayLimit.Kind.TIME, x[1])):
        label = PlayLimit.Period(period).label
        if kind == PlayLimit.Kind.TIME:
            played = selectors.play_seconds(user=user, since=starts[period], now=now)
            if played >= value * 60:
                raise PlayTimeLimitReached(
                    f"Hai raggiunto il tuo limite di tempo di gioco {label} ({value} minuti): "
                    "potrai tornare al tavolo nel prossimo periodo.",
                    period=period,
                    limit=value,
                )
        else:
            # the worst case: the period's result so far, minus everything still at the tables
            # (open table credits and rebuys waiting for the end of a hand), minus this stake
            exposed = -selectors.net_result(user=user, since=starts[period]) + at_tables
            if exposed + stake > value:
                left = max(0, value - exposed)
                raise LossLimitReached(
                    f"Questa giocata potrebbe superare il tuo limite di perdita {label} di "
                    f"{format_eur(value)}: puoi mettere in gioco ancora {format_eur(left)}.",
                    period=period,
                    limit=value,
                    remaining=left,
                )


def play_time_enforce(*, now: datetime | None = None) -> list[int]:
    """Stand up, at the end of their hand, the seated players past a session-time limit.

    Run every minute by the beat; each player in his own transaction through the core hook
    ``player_leave_tables`` (the lobby registers its handler). Returns the players sent away.
    """
    now = now or timezone.now()
    seated = Account.objects.filter(
        kind=AccountKind.TABLE_CREDIT, realm=Realm.REAL, closed_at__isnull=True, owner__isnull=False
    ).values("owner_id")
    candidates = (
        PlayLimit.objects.filter(kind=PlayLimit.Kind.TIME, user_id__in=seated)
        .values_list("user_id", flat=True)
        .distinct()
    )
    sent: list[int] = []
    for user in User.objects.filter(pk__in=list(candidates)).order_by("pk"):
        try:
            check_play_limits(user=user, stake=0, now=now)
        except PlayTimeLimitReached:
            pass
        except LossLimitReached:
            continue  # a loss limit does not end a session already paid for
        else:
            continue
        with transaction.atomic():
            hooks.player_leave_tables(user)
        sent.append(user.pk)
    return sent


@transaction.atomic
def reality_check_set(*, user: User, minutes: int) -> None:
    """Set how often the reality check reminds the player during play (0 = never). Audited."""
    if isinstance(minutes, bool) or not isinstance(minutes, int) or not 0 <= minutes <= 240:
        raise InvalidAmount("Intervallo del promemoria non valido.")
    User.objects.filter(pk=user.pk).update(reality_check_minutes=minutes)
    user.reality_check_minutes = minutes
    audit_record(actor=user, action="wallet.reality_check_set", target=user, data={"minutes": minutes})


@transaction.atomic
def play_stop(*, user: User) -> None:
    """The player stops playing ("Esci" of a reality check): he leaves every table after the hand."""
    hooks.player_leave_tables(user)
    audit_record(actor=user, action="wallet.play_stop", target=user)


# --- reconciliation ------------------------------------------------------------------------------


def ledger_reconcile() -> dict[str, Any]:
    """Check stored balances against postings; record the run; on a difference alert staff.

    The alert is an AuditLog line ("wallet.reconciliation_failed") written with the run, and an
    e-mail to every active staff user (and to ADMINS) sent after commit.
    """
    report = selectors.reconciliation_report()
    problems = report["mismatches"] + [{"unbalanced_transaction": tx} for tx in report["unbalanced"]]
    with transaction.atomic():
        run = ReconciliationRun.objects.create(
            ok=report["ok"],
            accounts_checked=report["accounts_checked"],
            mismatches=problems,
            realm_totals=report["realm_totals"],
        )
        if not report["ok"]:
            audit_record(
                actor=None,
                action="wallet.reconciliation_failed",
                target=run,
                data={"problems": problems[:50], "realm_totals": report["realm_totals"]},
            )
            transaction.on_commit(lambda: _alert_staff(run.pk, problems, report["realm_totals"]))
    return {**report, "run_id": run.pk}


def _alert_staff(run_id: int, problems: list[dict[str, Any]], totals: dict[str, int]) -> None:
    subject = f"[Conto di gioco] Riconciliazione {run_id}: {len(problems)} differenze"
    lines = [f"Totali per ambito: {totals}", "", *(str(p) for p in problems[:100])]
    alert_staff(subject=subject, body="\n".join(lines))
