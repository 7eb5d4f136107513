"""A hand's end is journaled and sent before it is settled: the owner killed in between, again and again.

``scripts/kill_at_settlement.py`` runs a table's owner in a process of its own (bots playing with
no pauses) and sends itself SIGKILL after a hand's last step is committed to the journal and
before the settlement's transaction begins. Each time the test first finds that hand journaled
as ended and not settled (the kill landed in the window), then lets it be recovered by each way
there is, in turn: the next process's takeover (``TableOwner._load``), the beat's sweep of
orphaned tables (``lease.sweep_orphans``), and a write through the door with no owner left
(``tablerow.lock``). At the end every ended hand is settled exactly once, each with the ledger
transaction its outcome makes, and no cent was created or lost.

PostgreSQL only: a process of its own cannot open SQLite's in-memory test database.
"""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from games import registry
from lobby import door, settlement
from lobby.models import Hand, TableLease
from lobby.replay import replay_hand
from lobby.runtime import lease
from tests.lobby.factories import poker_table
from tests.lobby.helpers import carried_pots, house_rake, money_total, seat_players
from tests.wallet.factories import funded_player
from wallet.models import Posting, Transaction, TransactionKind

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "kill_at_settlement.py"
KILLS = 12
WAIT = 120  # the longest one process may take on a loaded machine


@pytest.fixture
def env():
    if connection.vendor != "postgresql":
        pytest.skip("a process of its own needs PostgreSQL (DATABASE_URL)")
    db = connection.settings_dict
    return {
        **{k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "CELERY_BROKER_URL")},
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": (
            f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}"
            f":{db['PORT'] or 5432}/{db['NAME']}"
        ),
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }


def owner_process(env, table_id: int, kill_at: int) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), str(table_id), str(kill_at)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=WAIT,
        check=False,
    )
    return proc.returncode, proc.stdout.decode() + proc.stderr.decode()[-3000:]


def journal_ends(hand: Hand) -> bool:
    """Whether the hand's journal (its steps replayed) ends the hand."""
    return registry.get(hand.game).is_over(replay_hand(hand)[-1])


def lease_expired(table_id: int) -> None:
    """The killed process's lease as it is once ``LOBBY_LEASE_SECONDS`` have passed."""
    TableLease.objects.filter(table_id=table_id).update(expires_at=timezone.now() - timedelta(seconds=1))


def test_every_hand_whose_journal_ends_it_is_settled_once_after_kill_9(env):
    users = [funded_player(is_bot=True) for _ in range(3)]
    table = poker_table(seats=3)
    seats = seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    money = money_total(users, seats) + house_rake() + carried_pots()

    killed: list[int] = []
    for i in range(KILLS):
        code, out = owner_process(env, table.pk, kill_at=1 + i % 3)
        assert code == -9, out  # SIGKILL, at the settlement it was told
        number = int(out.split("killed at hand ")[1].split()[0])
        hand = Hand.objects.get(table=table, number=number)
        # the kill landed between the two commits: the journal ends the hand, nothing settled it
        assert hand.ended_at is None and journal_ends(hand), out
        killed.append(number)
        lease_expired(table.pk)
        recovery = i % 3
        if recovery == 1:
            assert lease.sweep_orphans() == 1  # the beat's sweep, no process left
        elif recovery == 2:
            # a write through the door with no owner: the row is recovered, the hand settled first
            # (the next deal asked for: a write that needs no seat, since the bots' play may have
            # stood any of them up by now, P15)
            assert door.table_start_hand(table_id=table.pk) is False  # (its result shown first)
        # (recovery 0, and after the others: the next process takes the table over)
        if recovery:
            hand.refresh_from_db()
            assert hand.ended_at is not None
    code, out = owner_process(env, table.pk, kill_at=0)  # the last takeover, stopped cleanly
    assert code == 0 and "stopped" in out, out

    ended = list(Hand.objects.filter(table=table, ended_at__isnull=False).order_by("number"))
    assert set(killed) <= {h.number for h in ended}
    unsettled = Hand.objects.filter(table=table, ended_at__isnull=True)
    assert all(not journal_ends(h) for h in unsettled)  # at most the hand dealt last, still running
    engine = registry.get(table.game)
    for hand in ended:
        assert journal_ends(hand)
        deltas, rake, pot = settlement.puntate_deltas(hand, hand.outcome)
        txs = Transaction.objects.filter(kind=TransactionKind.HAND, data__hand=f"{table.pk}:{hand.number}")
        moved = any(deltas.values()) or rake or pot
        assert txs.count() == (1 if moved else 0), hand.number  # settled once, no more
        if moved:
            legs = Posting.objects.filter(transaction=txs.get())
            assert sum(p.amount for p in legs) == 0
            assert sorted(p.amount for p in legs if p.amount) == sorted(
                v for v in [*deltas.values(), rake, pot] if v
            ), hand.number
        assert hand.outcome == engine.outcome(replay_hand(hand)[-1])
    assert money_total(users, seats) + house_rake() + carried_pots() == money
