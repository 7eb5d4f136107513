"""Fixtures of the wallet tests."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from django.db import connections

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


def run_in_threads(plans: Sequence[Any], step: Callable[[Any], None], *, timeout: float = 60) -> None:
    """Run ``step`` on every item of every plan, one thread (so one connection) per plan, all at once.

    Fails if a thread is still running after ``timeout`` (a deadlock) or if any step raised.
    """
    errors: list[BaseException] = []
    barrier = threading.Barrier(len(plans))

    def run(plan: Sequence[Any]) -> None:
        try:
            barrier.wait()
            for item in plan:
                step(item)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(plan,)) for plan in plans]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    assert not any(t.is_alive() for t in threads), "a worker is stuck (deadlock?)"
    assert errors == []


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
