"""PostgreSQL: many connections hammering the same accounts in both directions.

Each worker thread has its own database connection (Django connections are per thread), so the
transactions really run in parallel inside PostgreSQL. Expected: exact final balances, no
deadlock error, no lost update, reconciliation clean.
"""

from __future__ import annotations

import random
from collections import defaultdict

import pytest
from django.db import connection

from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import run_in_threads
from wallet import actions, selectors
from wallet.models import Account, AccountKind, Realm

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]

WORKERS = 8
OPS = 60
START = 1_000_000


def test_parallel_transfers_keep_exact_balances():
    users = [UserFactory() for _ in range(4)]
    for u in users:
        actions.deposit_create(user=u, amount=START, idempotency_key=f"start:{u.pk}")
    accounts = [
        Account.objects.get(owner=u, kind=AccountKind.PLAYER_CASH, realm=Realm.REAL).pk for u in users
    ]
    plans = []
    expected: dict[int, int] = defaultdict(int)
    entries = 0
    for w in range(WORKERS):
        rng = random.Random(w)
        plan = []
        for i in range(OPS):
            if i % 10 == 9:  # a 4-account transaction through the hot rake and pool rows
                plan.append(("enter", rng.randrange(4), f"hammer:{w}:{i}"))
                entries += 1
                continue
            a, b = rng.sample(range(4), 2)
            amount = rng.randint(1, 500)
            plan.append(("transfer", (accounts[a], accounts[b], amount), f"hammer:{w}:{i}"))
        plans.append(plan)
    for plan in plans:
        for op, args, _ in plan:
            if op == "transfer":
                src, dst, amount = args
                expected[src] -= amount
                expected[dst] += amount
            else:
                expected[accounts[args]] -= 1_000
    # every fifth worker replays another worker's keys: idempotency must hold under concurrency
    plans.append(plans[0][:20])

    def step(item):
        op, args, key = item
        if op == "transfer":
            src, dst, amount = args
            actions.ledger_transfer(source_id=src, destination_id=dst, amount=amount, idempotency_key=key)
        else:
            actions.tournament_enter(
                user=users[args], tournament_ref="hammer", pool_quota=800, rake=200, idempotency_key=key
            )

    run_in_threads(plans, step, timeout=50)
    for pk in accounts:
        assert Account.objects.get(pk=pk).balance == START + expected[pk]
    assert selectors.tournament_pool_get(tournament_ref="hammer") == 800 * entries
    report = selectors.reconciliation_report()
    assert report["ok"], report
