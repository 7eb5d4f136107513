"""Players with money: ``funded_player``, a UserFactory account with a deposit on its conto."""

from __future__ import annotations

import itertools
from typing import Any

from tests.piattaforma.factories import UserFactory
from wallet import actions

_deposits = itertools.count()


def funded_player(amount: int = 100_000, **user_fields: Any):
    """A new account (``UserFactory(**user_fields)``) with ``amount`` cents deposited; 0: no deposit."""
    user = UserFactory(**user_fields)
    if amount:
        actions.deposit_create(user=user, amount=amount, idempotency_key=f"fund-{next(_deposits)}")
    return user
