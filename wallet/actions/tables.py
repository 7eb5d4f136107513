"""Cash tables: buy-in, rebuy and cash-out of table credit, and each hand's settlement with its rake."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from piattaforma.compiledquery import CompiledQuery
from piattaforma.models import User
from wallet import ledger
from wallet.actions.common import amount_checked, check_player_can_play, tx_result
from wallet.actions.holds import do_hold_place, do_hold_settle
from wallet.actions.play_limits import check_play_limits
from wallet.errors import BuyInOutOfRange, InvalidAmount, InvalidState, TableCapExceeded
from wallet.ledger import AccountKey, Locked, cash_key, house_key, table_key, table_pot_key
from wallet.models import Account, AccountKind, Hold, HoldStatus, Realm, Transaction, TransactionKind
from wallet.money import LEGAL_TABLE_CAP


def check_table_buy_in(
    *, user: User, table_session_ref: str, amount: int, min_amount: int, max_amount: int, realm: str
) -> dict[str, Locked]:
    """Authorise a buy-in (player may play; table min/max; €1.000 legal cap) and lock conto and credit."""
    if realm == Realm.REAL:
        check_player_can_play(user)
    amount_checked(amount)
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
    ticket: str = "",
) -> dict[str, Any]:
    """Sit down: move ``amount`` from the conto to a new table-credit account for this table session.

    ``ticket``: the regulator's ticket of this payment (rules 004 "Rebuy"), kept in the
    transaction's data for the player's statement.
    """

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
            data=_payment_data(table_session_ref, ticket),
        )
        return tx_result(tx, table_credit=table.balance, balance=cash.balance, ticket=ticket)

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
    ticket: str = "",
) -> dict[str, Any]:
    """Add credit to the table; during a hand it is reserved now and credited after the hand.

    Rules 004 "Rebuy": "Se il versamento venisse effettuato durante una mano in corso, il credito al
    tavolo sarà aggiornato e disponibile solo alla fine della mano stessa." The money is held on
    the conto (a pending hold) until the lobby calls ``table_rebuys_credit`` at the end of the hand.
    Limits: credit + pending rebuys + amount <= the table's maximum, and everything transferred to
    this table session <= € 1.000 (the legal cap, which winnings do not count against).
    ``ticket``: the regulator's ticket, on the transaction (or on the hold until it posts).
    """

    def work() -> dict[str, Any]:
        if realm == Realm.REAL:
            check_player_can_play(user)
        amount_checked(amount)
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
            hold = do_hold_place(
                source=cash, destination_id=table.pk, amount=amount, purpose=Hold.Purpose.REBUY, ticket=ticket
            )
            return {
                "transaction_id": None,
                "hold_id": hold.pk,
                "status": "pending",
                "table_credit": table.balance,
                "ticket": ticket,
            }
        tx = ledger.post(
            kind=TransactionKind.REBUY,
            realm=realm,
            legs=[(cash, -amount), (table, amount)],
            transferred_in={table.pk: amount},
            data=_payment_data(table_session_ref, ticket),
        )
        return tx_result(tx, hold_id=None, status="posted", table_credit=table.balance, ticket=ticket)

    inputs = {"user": user.pk, "table": table_session_ref, "amount": amount, "in_hand": hand_in_progress}
    return ledger.run_idempotent(key=idempotency_key, action="rebuy", inputs=inputs, work=work)


def _payment_data(table_session_ref: str, ticket: str) -> dict[str, str]:
    """A buy-in's or rebuy's transaction data: its table session, and the regulator's ticket if any."""
    return (
        {"table_session": table_session_ref, "ticket": ticket}
        if ticket
        else {"table_session": table_session_ref}
    )


# read at the end of every hand of every table: its SQL compiled once per number of seats
# (``piattaforma.compiledquery``: compiling the queryset each time would cost more than the
# settlement's other work on it)
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
        txs = [do_hold_settle(hold, HoldStatus.POSTED) for hold in holds]
    return [str(tx.pk) if tx else None for tx in txs]


def do_table_cash_out(table: Account | Locked, *, actor_id: int | None = None) -> Transaction | None:
    """Void pending rebuys, move the whole table credit back to the conto and close the account."""
    for hold in Hold.objects.filter(
        destination_id=table.pk, status=HoldStatus.PENDING, purpose=Hold.Purpose.REBUY
    ):
        do_hold_settle(hold, HoldStatus.VOIDED)
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
        tx = do_table_cash_out(table)
        return tx_result(tx, amount=amount)

    inputs = {"table": table_session_ref, "realm": realm}
    return ledger.run_idempotent(key=idempotency_key, action="cash_out", inputs=inputs, work=work)


def table_hand_settle(
    *,
    deltas: Mapping[str, int],
    rake: int,
    idempotency_key: str | None,
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

    ``idempotency_key`` None: the caller's own transaction makes the settlement happen once (the
    lobby's hand row, ended in the same transaction), and no key is stored or read.
    """
    amount_checked(rake, allow_zero=True)
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
        return tx_result(
            tx,
            credits={ref: locked[table_key(ref, realm)].balance for ref in deltas},
            pot=locked[pot_key].balance if pot else None,
        )

    if idempotency_key is None:
        if not transaction.get_connection().in_atomic_block:
            raise InvalidState("Mano senza chiave di idempotenza fuori da una transazione.")
        return work()
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
