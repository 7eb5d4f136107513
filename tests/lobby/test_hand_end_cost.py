"""A poker hand's end and the next deal on the owner runtime: their statements pinned.

The hand's last step is journaled and sent first (the journal's group commit, one statement for
many tables' steps: ``test_journal.py``); the settlement follows as the owner's next job
(``TableOwner._settle_sync``: the ledger, the hand row, the seats, the runtime row, the owner's
read back), and the next deal after the pause (``table_start_hand`` under the owner). Both are
pinned here for a three-seat table, so they cannot silently grow.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, connections
from django.test.utils import CaptureQueriesContext

from lobby import presence
from lobby.actions import hands
from lobby.models import Hand
from lobby.runtime.owner import TableOwner
from moderation import dumping
from moderation.models import SignalHand
from tests.lobby.helpers import carried_pots, house_rake, money_total, three_bots_dealt

pytestmark = pytest.mark.django_db(transaction=True)

# The settlement: BEGIN, the runtime row locked, the hand ended (its conditional update is the
# settlement's idempotency: no key read or stored), the hand queued for the moderation signals,
# the ledger (the accounts locked, their balances, the postings with the transaction), the runtime
# row, COMMIT; then the owner reads the seats' credits for the between-hands view. The owner holds
# the hand row (its own deal), the seats and whether a rebuy may be pending: none is read again.
# On PostgreSQL the ledger's balances and postings go in one query string (``wallet.ledger``).
SETTLEMENT = {"postgresql": 9, "sqlite": 10}
# The deal: BEGIN, the row locked, the game switch, the seats (with whether each was dealt in
# here), their credits, their options, the hand, its players (one insert each), the row, COMMIT.
# (The hand before it is not read again: a row holding a hand a step ended holds it settled.)
# On PostgreSQL the four reads go with the lock, in its round trip (``hands.deal_reads``).
DEAL = {"postgresql": 6, "sqlite": 10}
EXTRA = {"postgresql": 0, "sqlite": 1}  # SQLite counts its BEGIN IMMEDIATE too


@pytest.fixture(autouse=True)
def owner_clocks_without_pauses(settings, monkeypatch):
    settings.LOBBY_SCHEDULE_TASKS = True  # the owner's own timers move the bots
    monkeypatch.setattr("lobby.bots.BOT_DELAY_SECONDS", 0.0)
    monkeypatch.setattr("lobby.actions.hands.NEXT_HAND_DELAY_SECONDS", 0)
    monkeypatch.setattr("lobby.actions.hands.SHOWDOWN_PAUSE_SECONDS", 0)


async def test_a_three_seat_hand_end_and_next_deal_make_a_pinned_number_of_statements(monkeypatch):
    ends: list[list[str]] = []
    deals: list[list[str]] = []
    checks: list[list[str]] = []  # the health checks (``SELECT 1``) each settlement and deal ran
    settle, row_action = TableOwner._settle_sync, TableOwner._row_action_sync
    wrapper = type(connections["default"])
    is_usable = wrapper.is_usable

    def counted_check(self):
        if checks:
            checks[-1].append("SELECT 1")
        return is_usable(self)

    monkeypatch.setattr(wrapper, "is_usable", counted_check)

    def counted_settlement(self):
        checks.append([])
        with CaptureQueriesContext(connection) as ctx:  # the owner's database thread's connection
            settle(self)
        ends.append([q["sql"] for q in ctx.captured_queries] + checks[-1])

    def counted_row_action(self, func, kwargs):
        if func is not hands.table_start_hand:
            return row_action(self, func, kwargs)
        checks.append([])
        with CaptureQueriesContext(connection) as ctx:
            result = row_action(self, func, kwargs)
        if result:  # (a deal)
            deals.append([q["sql"] for q in ctx.captured_queries] + checks[-1])
        return result

    monkeypatch.setattr(TableOwner, "_settle_sync", counted_settlement)
    monkeypatch.setattr(TableOwner, "_row_action_sync", counted_row_action)

    table, users, seats, money = await sync_to_async(three_bots_dealt)()
    await presence.owner_for(table.pk)  # the bots move on its timers until the hand ends
    for _ in range(400):
        if len(ends) >= 2 and len(deals) >= 2:
            break
        await asyncio.sleep(0.05)
    await presence.stop_all()
    assert len(ends) >= 2 and len(deals) >= 2, "the hands did not end and deal through the owner"

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
    # the steady state: the first hand's end opened the house's rake account
    end, deal = ends[1], deals[1]
    extra = EXTRA[connection.vendor]
    # every query string is one round trip; a busy owner's connection goes without a health check
    # (``lobby.runtime.threads.TableWork``), which would be one more before each
    assert len(end) <= SETTLEMENT[connection.vendor] + extra, "\n".join(q[:120] for q in end)
    assert len(deal) <= DEAL[connection.vendor] + extra, "\n".join(q[:120] for q in deal)
