"""Races on the loss limit, one connection per thread: two stakes that each fit the limit but not
together; exactly one passes, whatever the interleaving (the check runs under the conto's lock).

PostgreSQL only (see tests/tournaments/test_races.py for why):
DATABASE_URL=postgres://… pytest tests/wallet/test_play_limits_races.py
"""

from __future__ import annotations

import pytest
from django.db import connection

from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import run_in_threads
from wallet import actions, selectors
from wallet.errors import LossLimitReached

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]


@pytest.mark.parametrize("round_", range(5))
def test_two_buy_ins_under_one_loss_limit(round_):
    player = UserFactory()
    actions.deposit_create(user=player, amount=50_000, idempotency_key=f"fund:{player.pk}")
    actions.play_limit_set(user=player, kind="loss", period="day", amount=6_000)
    outcomes: list[str] = []

    def step(ref):
        try:
            actions.table_buy_in(
                user=player,
                table_session_ref=f"{player.pk}-{ref}",
                amount=4_000,
                min_amount=100,
                max_amount=10_000,
                idempotency_key=f"race:{player.pk}:{ref}",
            )
            outcomes.append("in")
        except LossLimitReached:
            outcomes.append("refused")

    run_in_threads([["a"], ["b"]], step)
    assert sorted(outcomes) == ["in", "refused"]
    assert selectors.money_at_tables(user=player) == 4_000
