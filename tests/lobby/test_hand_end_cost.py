"""The hand's end on the owner runtime stays cheap (the budget: ≤ 2 ms of server CPU an action).

A hand's end (``TableOwner._finish_sync``: the last step journaled, the ledger settled, the
moderation signals, the rebuys, the seats, the snapshot, the owner's reload) is where a hand's
CPU goes if it makes queries once per seat. Its queries are pinned here, for a three-seat table,
so they cannot silently grow.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lobby import door, presence
from lobby.models import Hand
from lobby.runtime.owner import TableOwner
from moderation import dumping
from moderation.models import SignalHand
from tests.lobby.factories import poker_table
from tests.lobby.helpers import carried_pots, house_rake, money_total, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)

# The transaction: the runtime row locked, the last step, the hand queued for the moderation
# signals (1), the ledger (7), the hand (kept by the owner since its deal: written, not read), the
# seats, their pending rebuys, the runtime;
# then the owner reads the seats' credits (it keeps the seats and the waiting list's offer it
# holds: the transaction wrote neither). It was 46 on PostgreSQL (one rebuy check and one credit
# read per seat, the signals' rows created and the players checked at every hand), then 27 (the
# seats and the offers read again), then 25 (the signals written here: 6 and a savepoint, now
# folded by the beat in batches), then 18 (the hand read again at its end); SQLite counts its BEGIN
# IMMEDIATE too.
MAX_QUERIES = {"postgresql": 17, "sqlite": 18}


@pytest.fixture(autouse=True)
def owner_clocks_without_pauses(settings, monkeypatch):
    settings.LOBBY_SCHEDULE_TASKS = True  # the owner's own timers move the bots
    monkeypatch.setattr("lobby.bots.BOT_DELAY_SECONDS", 0.0)
    monkeypatch.setattr("lobby.actions.hands.NEXT_HAND_DELAY_SECONDS", 0)
    monkeypatch.setattr("lobby.actions.hands.SHOWDOWN_PAUSE_SECONDS", 0)


async def test_a_three_seat_hand_end_makes_a_pinned_number_of_queries(monkeypatch):
    ends: list[list[str]] = []
    finish = TableOwner._finish_sync

    def counted(self, step, events):
        with CaptureQueriesContext(connection) as ctx:  # the owner's database thread's connection
            finish(self, step, events)
        ends.append([q["sql"] for q in ctx.captured_queries])

    monkeypatch.setattr(TableOwner, "_finish_sync", counted)

    @sync_to_async
    def three_bots():
        users = [funded_player(is_bot=True) for _ in range(3)]
        table = poker_table(seats=3)
        seats = seat_players(table, users)
        door.table_start_hand(table_id=table.pk)
        return table, users, seats, money_total(users, seats) + house_rake() + carried_pots()

    table, users, seats, money = await three_bots()
    await presence.owner_for(table.pk)  # the bots move on its timers until the hand ends
    for _ in range(400):
        if len(ends) >= 2:
            break
        await asyncio.sleep(0.05)
    await presence.stop_all()
    assert len(ends) >= 2, "the hands did not end through the owner"

    @sync_to_async
    def settled():
        hand = Hand.objects.get(table=table, number=2)
        dumping.signals_fold()  # the beat's task
        return (
            hand.ended_at is not None,
            SignalHand.objects.filter(hand_id=hand.pk).exists(),
            # a hand nobody opened carries its pot to the next in the table's pot account: on a
            # fast machine a third hand may end so before the owner stops
            money_total(users, seats) + house_rake() + carried_pots(),
        )

    ended, signalled, after = await settled()
    assert ended and signalled  # the hand settled, queued for the moderation signals, folded
    assert after == money  # nothing created or lost
    queries = ends[1]  # the steady state: the first hand's end opened the house's rake account
    assert len(queries) <= MAX_QUERIES[connection.vendor], "\n".join(q[:120] for q in queries)
