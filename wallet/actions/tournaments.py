"""Tournament money: entries (cash and bonus), refunds, prizes and the guarantee's top-up."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from piattaforma.models import User
from wallet import ledger
from wallet.actions.common import amount_checked, check_player_can_play, post_reversal, tx_result
from wallet.actions.play_limits import check_play_limits
from wallet.errors import InsufficientFunds, InvalidEntryCost
from wallet.ledger import bonus_key, cash_key, house_key, pool_key
from wallet.models import AccountKind, Realm, Transaction, TransactionKind

# The regulation's minimum share of an entry cost that goes to the prize pool ("mai inferiore
# all'80%", rules 004 "Formazione del montepremi").
MIN_POOL_SHARE_PERCENT = 80


def check_tournament_entry(*, user: User, pool_quota: int, rake: int) -> None:
    """Authorise an entry: the player may play, and the pool gets at least 80 % of the cost."""
    check_player_can_play(user)
    amount_checked(pool_quota, allow_zero=True)
    amount_checked(rake, allow_zero=True)
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
            return tx_result(None, from_bonus=0, from_cash=0)
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
        return tx_result(
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


def tournament_entry_refund(*, entry_transaction_id: str, idempotency_key: str) -> dict[str, Any]:
    """Refund an entry: bonus back to bonus, cash back to cash, the pool quota and the rake returned."""

    def work() -> dict[str, Any]:
        original = Transaction.objects.get(pk=entry_transaction_id, kind=TransactionKind.TOURNAMENT_ENTRY)
        tx = post_reversal(original, kind=TransactionKind.TOURNAMENT_REFUND, memo="Rimborso iscrizione")
        return tx_result(tx)

    inputs = {"entry": str(entry_transaction_id)}
    return ledger.run_idempotent(key=idempotency_key, action="tournament_refund", inputs=inputs, work=work)


def tournament_prizes_pay(
    *, tournament_ref: str, prizes: Mapping[int, int], idempotency_key: str, in_bonus: bool = False
) -> dict[str, Any]:
    """Pay prizes from the montepremi: to the conto, or as bonus for freerolls (``in_bonus``)."""
    for value in prizes.values():
        amount_checked(value)

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
        return tx_result(tx, pool_left=locked[pool].balance)

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
    amount_checked(guaranteed, allow_zero=True)

    def work() -> dict[str, Any]:
        pool, promo = pool_key(tournament_ref), house_key(AccountKind.HOUSE_PROMOTIONS)
        locked = ledger.accounts_lock([pool, promo])
        missing = guaranteed - locked[pool].balance
        if missing <= 0:
            return tx_result(None, top_up=0, pool=locked[pool].balance)
        tx = ledger.post(
            kind=TransactionKind.GUARANTEE,
            realm=Realm.REAL,
            legs=[(locked[promo], -missing), (locked[pool], missing)],
            data={"tournament": tournament_ref, "guaranteed": guaranteed},
        )
        return tx_result(tx, top_up=missing, pool=locked[pool].balance)

    inputs = {"tournament": tournament_ref, "guaranteed": guaranteed}
    return ledger.run_idempotent(key=idempotency_key, action="guarantee", inputs=inputs, work=work)
