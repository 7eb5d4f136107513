"""Players with money: ``FundedPlayerFactory``, a UserFactory account with a deposit on its conto.

The deposit goes through ``wallet.actions.deposit_create``, as a player's does: the ledger holds
its postings. ``funded_player(amount, **fields)`` is the short form most tests use.
"""

from __future__ import annotations

import itertools
from typing import Any

import factory

from tests.piattaforma.factories import UserFactory
from wallet import actions

_deposits = itertools.count()


class FundedPlayerFactory(UserFactory):
    """A new account with ``deposit`` cents (default € 1.000,00) paid in; ``deposit=0``: none."""

    @factory.post_generation
    def deposit(self, create, extracted, **kwargs):
        amount = 100_000 if extracted is None else extracted
        if create and amount:
            actions.deposit_create(user=self, amount=amount, idempotency_key=f"fund-{next(_deposits)}")


def funded_player(amount: int = 100_000, **user_fields: Any):
    """``FundedPlayerFactory(deposit=amount, **user_fields)``."""
    return FundedPlayerFactory(deposit=amount, **user_fields)
