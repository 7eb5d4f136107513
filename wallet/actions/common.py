"""What every wallet action shares: amounts checked, results, staff checks, reversals, limit changes."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from piattaforma import roles
from piattaforma.models import User
from wallet import ledger, selectors
from wallet.errors import InvalidAmount, InvalidState, NotPermitted, PlayerNotAllowed, SiteWorkerNoGameMoney
from wallet.models import Posting, SelfSetLimit, Transaction

# Italian rule (ADM, self-set deposit limits): a lower limit applies at once; a higher limit, or
# removing a limit, applies only after this cooling-off delay.
DEPOSIT_LIMIT_RAISE_DELAY = timedelta(days=7)
MAX_SINGLE_AMOUNT = 10**11  # € 1.000.000.000: a sanity bound on any one movement


def amount_checked(value: int, *, allow_zero: bool = False) -> int:
    """Return ``value`` if it is an amount in cents an action takes (zero only where allowed)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidAmount("Gli importi sono centesimi interi.")
    if value < 0 or (value == 0 and not allow_zero) or value > MAX_SINGLE_AMOUNT:
        raise InvalidAmount()
    return value


def check_no_game_money_in(user: User) -> None:
    """Refuse real money moved in to the site's own people (staff, moderators, superusers), whatever
    the way: a deposit, a buy-in, an entry (``check_player_can_play``) or a staff correction."""
    if roles.works_for_the_site(user):
        raise SiteWorkerNoGameMoney()


def check_player_can_play(user: User) -> None:
    """Refuse deposits, real-money seats and tournament entries to suspended or self-excluded players,
    and to the site's own people (staff, moderators, superusers: ``roles.works_for_the_site``), who
    hold no game money. The one check every entry of money or of a money seat goes through."""
    check_no_game_money_in(user)
    if not user.can_play:
        raise PlayerNotAllowed()


def tx_result(tx: Transaction | None, **extra: Any) -> dict[str, Any]:
    """An action's result: the id of the transaction it wrote (if any), and ``extra``."""
    return {"transaction_id": str(tx.pk) if tx else None, **extra}


def check_staff(actor: User, perm: str) -> None:
    """Refuse a staff decision to an actor without the permission ``perm``."""
    if not actor.has_perm(perm):
        raise NotPermitted()


def check_not_own(actor: User, owner_ids: Iterable[int | None]) -> None:
    """No staff member corrects or decides on his own money: another one must (four eyes)."""
    if actor.pk in set(owner_ids):
        raise NotPermitted("Le operazioni sul proprio conto le decide un altro membro dello staff.")


def post_reversal(
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


def limit_change(limit: SelfSetLimit, amount: int | None, now: datetime) -> datetime:
    """Change a locked self-set limit: lowering (or a first limit) applies now, raising or removing
    after the 7-day delay; return when the requested value applies. The caller saves the row."""
    current = selectors.limit_in_force(limit, now)
    limit.amount = current  # a matured pending change becomes the limit in force
    limit.pending_amount, limit.pending_remove, limit.pending_from = None, False, None
    if amount is not None and (current is None or amount <= current):
        limit.amount = amount
        return now
    limit.pending_amount = amount
    limit.pending_remove = amount is None
    limit.pending_from = now + DEPOSIT_LIMIT_RAISE_DELAY
    return limit.pending_from


def new_idempotency_key(prefix: str = "web") -> str:
    """A fresh key for a form or client that does not bring its own."""
    return f"{prefix}:{uuid.uuid4().hex}"
