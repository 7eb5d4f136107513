"""Fixtures of the wallet tests."""

from __future__ import annotations

from typing import Any

import pytest

from piattaforma import roles
from tests.factories import UserFactory
from wallet import actions
from wallet.models import Account, Hold, IdempotencyKey, Payment, Posting, Transaction


def ledger_snapshot() -> dict[str, Any]:
    """Everything a refused action must leave untouched."""
    return {
        "accounts": sorted(
            Account.objects.values_list("pk", "balance", "held", "transferred_in", "closed_at")
        ),
        "postings": Posting.objects.count(),
        "transactions": Transaction.objects.count(),
        "holds": sorted(Hold.objects.values_list("pk", "status")),
        "payments": sorted(Payment.objects.values_list("pk", "status")),
        "keys": IdempotencyKey.objects.count(),
    }


@pytest.fixture
def player(db):
    return UserFactory()


@pytest.fixture
def other_player(db):
    return UserFactory()


@pytest.fixture
def staff(db):
    return UserFactory(role=roles.STAFF)


@pytest.fixture
def funded(player):
    """A player with € 500,00 on the conto."""
    actions.deposit_create(user=player, amount=50_000, idempotency_key=f"fund:{player.pk}")
    return player
