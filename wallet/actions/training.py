"""Gettoni for the training section (rules 004, "Tavoli e tornei di allenamento").

Every new account gets ``PLAY_GRANT`` gettoni when it opens (``play_money_welcome``), and a player
whose gettoni fall below it may ask, once a day (Italian calendar day), for a refill back up to it
(``play_money_refill``). Gettoni live in the play realm: the ledger refuses any posting between
realms, so they are never bought, sold, won into or converted from money.

Both are idempotent by their key (one welcome per account, one refill per player and day): a retry
or two clicks at once give the gettoni once.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from piattaforma.models import User
from wallet import ledger
from wallet.actions.transfers import play_money_top_up
from wallet.errors import PlayRefillNotNeeded, PlayRefillToday
from wallet.models import Account, AccountKind, Realm

PLAY_GRANT = 100_000  # 1.000 gettoni: what a new account gets, and what a refill tops up to
REFILL_KEY = "play-refill-{user}-{day}"


def play_money_welcome(*, user: User) -> dict[str, Any]:
    """The new account's gettoni (once per account, whatever the retries)."""
    return play_money_top_up(user=user, amount=PLAY_GRANT, idempotency_key=f"play-welcome-{user.pk}")


def play_gettoni(*, user: User) -> int:
    """The player's gettoni on his conto (not those on training tables)."""
    row = Account.objects.filter(owner=user, kind=AccountKind.PLAYER_CASH, realm=Realm.PLAY).first()
    return row.balance if row else 0


def play_money_refill_state(*, user: User, now: datetime | None = None) -> str | None:
    """Why a refill would be refused now (an error code), or None when it may be asked."""
    if play_gettoni(user=user) >= PLAY_GRANT:
        return PlayRefillNotNeeded.code
    day = timezone.localdate(now or timezone.now())
    if ledger.idempotency_used(REFILL_KEY.format(user=user.pk, day=day.isoformat())):
        return PlayRefillToday.code
    return None


def play_money_refill(*, user: User, now: datetime | None = None) -> dict[str, Any]:
    """Top the player's gettoni up to ``PLAY_GRANT``: only below it, once a day."""
    refusal = play_money_refill_state(user=user, now=now)
    if refusal == PlayRefillNotNeeded.code:
        raise PlayRefillNotNeeded()
    if refusal == PlayRefillToday.code:
        raise PlayRefillToday()
    day = timezone.localdate(now or timezone.now())
    amount = PLAY_GRANT - play_gettoni(user=user)
    return play_money_top_up(
        user=user, amount=amount, idempotency_key=REFILL_KEY.format(user=user.pk, day=day.isoformat())
    )
