"""Two tables settling hands of the same players at once, folds running meanwhile: no deadlock, no
lost update, no hand counted twice.

PostgreSQL only (see tests/tournaments/test_races.py): DATABASE_URL=postgres://… pytest this file.
"""

from __future__ import annotations

import itertools
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from moderation import collusion, dumping
from moderation.models import PairSignal, PlayerSignal, SignalHand, SignalInbox
from tests.piattaforma.factories import UserFactory
from tests.wallet.conftest import run_in_threads

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="needs PostgreSQL (set DATABASE_URL)"),
]
HANDS = 40
_ids = itertools.count(1)
START = timezone.now() - timedelta(hours=1)


def summary(table: int, seats: list) -> dict:
    """A hand's summary as the settlement reports it: ``seats`` is [(user, delta), ...]."""
    hand = next(_ids)
    return {
        "table_id": table,
        "game": "poker5",
        "hand_id": hand,
        "ended_at": START + timedelta(seconds=hand),
        "seats": [{"user_id": u.pk, "delta": d, "end": "normal"} for u, d in seats],
    }


def test_concurrent_hands_of_the_same_players_all_count():
    players = [UserFactory() for _ in range(4)]
    # table 1 lists the seats one way, table 2 the other: the locks are still taken in key order
    plans = [
        [summary(1, [(players[0], -100), (players[1], 50), (players[2], 50)]) for _ in range(HANDS)],
        [summary(2, [(players[2], 100), (players[1], -60), (players[0], -40)]) for _ in range(HANDS)],
    ]

    def step(item: dict) -> None:
        with transaction.atomic():  # as the settlement
            assert dumping.hand_settled_record(summary=item)

    run_in_threads(plans, step)
    assert SignalHand.objects.count() == 2 * HANDS
    hands = dict(PlayerSignal.objects.values_list("user_id", "hands"))
    assert hands == {players[0].pk: 2 * HANDS, players[1].pk: 2 * HANDS, players[2].pk: 2 * HANDS}
    assert PlayerSignal.objects.get(user=players[0]).net == HANDS * (-100 - 40)
    a, b = collusion.pair_key(players[0].pk, players[2].pk)
    pair = PairSignal.objects.get(a_id=a, b_id=b)
    lost = pair.a_to_b if a == players[0].pk else pair.b_to_a
    assert pair.hands == 2 * HANDS and lost == HANDS * (50 + 40)


def test_settlements_queueing_while_two_folds_run_count_every_hand_once():
    players = [UserFactory() for _ in range(3)]
    deltas = [(players[0], -100), (players[1], 60), (players[2], 40)]
    plans = [
        [("queue", summary(1, deltas)) for _ in range(HANDS)],
        [("queue", summary(2, deltas)) for _ in range(HANDS)],
        [("fold", None)] * 20,  # two workers folding while the tables settle
        [("fold", None)] * 20,
    ]

    def step(item: tuple) -> None:
        kind, data = item
        if kind == "queue":
            with transaction.atomic():  # as the settlement
                dumping.on_hand_settled(data)
        else:
            dumping.signals_fold(batch=7)

    run_in_threads(plans, step)
    dumping.signals_fold()  # what the folds found after their last look
    assert not SignalInbox.objects.exists()
    assert SignalHand.objects.count() == 2 * HANDS
    assert dict(PlayerSignal.objects.values_list("user_id", "hands")) == {p.pk: 2 * HANDS for p in players}
    assert PlayerSignal.objects.get(user=players[0]).net == -100 * 2 * HANDS
