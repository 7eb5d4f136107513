"""The journal's writer: a batch of steps in one statement (PostgreSQL: ``AsyncWriter``, its own
connection on the event loop), or in one transaction (SQLite: ``_commit``, several statements when
the batch is longer than one takes).

Every step of a batch is stored with its values as the ORM reads them back (JSON, datetimes), also
a batch longer than one statement takes (the database's limit of parameters: several statements, one
transaction; the limit is lowered here to reach that path), and a batch with one bad step stores none;
in a group commit, a step another writer stored first refuses only its own owner's step; on
PostgreSQL a connection gone under the writer is replaced once, and the steps are stored once.
"""

import asyncio
import time
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.db import IntegrityError, OperationalError, connection, connections
from django.utils import timezone

from lobby import door
from lobby.models import Hand, HandStep
from lobby.runtime import journal
from tests.lobby.factories import poker_table
from tests.lobby.helpers import seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db

STEPS = 250


@pytest.fixture(autouse=True)
def short_statements(monkeypatch):
    """At most 100 steps a statement, so a batch of ``STEPS`` takes three."""
    monkeypatch.setattr(type(connection.ops), "bulk_batch_size", lambda self, fields, objs: 100)


def dealt_hand() -> Hand:
    table = poker_table()
    seat_players(table, [funded_player(), funded_player()])
    door.table_start_hand(table_id=table.pk)
    return Hand.objects.get(table=table)


def steps_of(hand: Hand, count: int, first: int = 1) -> list[HandStep]:
    at = timezone.now()
    return [
        HandStep(
            hand_id=hand.pk,
            seq=n,
            seat=1 + n % 2,
            action={"type": "bet", "amount": n},
            draws=[n, [n, "x"]],
            events=[{"type": "bet", "seat": 1, "note": "è"}],
            version=1000 + n,
            deadline=at + timedelta(seconds=n),
            clocks={"1": n * 10} if n % 2 else None,
        )
        for n in range(first, first + count)
    ]


def store(steps: list[HandStep]) -> None:
    """Commit a batch as the journal does on this database (PostgreSQL: a writer of its own)."""
    if connection.vendor != "postgresql":
        journal._commit(steps)
        return

    async def write() -> None:
        writer = journal.AsyncWriter()
        try:
            await writer.insert(steps)
        finally:
            await writer.close()

    async_to_sync(write)()


@pytest.mark.django_db(transaction=True)  # (PostgreSQL: the writer's connection sees committed rows)
def test_a_batch_is_stored_whole_with_the_values_the_orm_reads_back():
    hand = dealt_hand()
    steps = steps_of(hand, STEPS)

    store(steps)

    stored = list(HandStep.objects.filter(hand=hand).order_by("seq"))
    assert [s.seq for s in stored] == list(range(1, STEPS + 1))
    for want, got in zip(steps, stored, strict=True):
        for name in ("seat", "action", "automatic", "draws", "events", "version", "deadline", "clocks"):
            assert getattr(got, name) == getattr(want, name), name
        assert got.created_at == want.created_at
        assert got.pk == want.pk  # (the generated keys are set on the steps written)


@pytest.mark.django_db(transaction=True)  # autocommit, as the owners' writer runs: no test transaction
def test_a_batch_with_one_bad_step_stores_none_of_it():
    hand = dealt_hand()
    store(steps_of(hand, 3))
    batch = steps_of(hand, STEPS, first=4)
    batch[-1].seq = 2  # in the last statement, the (hand, seq) of a step stored: two owners' step

    with pytest.raises(IntegrityError):
        store(batch)

    assert HandStep.objects.filter(hand=hand).count() == 3


@pytest.mark.django_db(transaction=True)
async def test_a_step_another_writer_stored_first_refuses_only_its_own_owner():
    """Two tables' steps in one commit: the one whose (hand, seq) is taken is refused, the other stored."""
    first, second = await sync_to_async(dealt_hand)(), await sync_to_async(dealt_hand)()
    await sync_to_async(store)(steps_of(first, 1))  # the other writer's step
    writer = journal.Journal()
    taken, free = steps_of(first, 1)[0], steps_of(second, 1)[0]

    outcome = await asyncio.gather(writer.append(taken), writer.append(free), return_exceptions=True)
    await writer.close()

    assert isinstance(outcome[0], IntegrityError)
    assert outcome[1] is None
    stored = await sync_to_async(lambda: sorted(HandStep.objects.values_list("hand_id", "seq")))()
    assert stored == sorted([(first.pk, 1), (second.pk, 1)])


@pytest.mark.django_db(transaction=True)
async def test_a_batch_whose_connection_went_away_is_written_on_a_new_one():
    """The writer runs no health check before a batch: a connection ended under it (here by the
    server, as a restart or a network cut would) fails the insert, which is tried once more on a new
    connection, and the steps are stored once."""
    if connection.vendor != "postgresql":
        pytest.skip("SQLite's writer is Django's own connection of the one database thread")
    hand = await sync_to_async(dealt_hand)()
    writer = journal.AsyncWriter()
    try:
        await writer.insert(steps_of(hand, 1))
        first = writer.conn
        await sync_to_async(end_backend)(first.info.backend_pid)
        await writer.insert(steps_of(hand, 2, first=2))
        assert writer.conn is not first and not writer.conn.closed
    finally:
        await writer.close()
    assert await sync_to_async(stored_seqs)(hand) == [1, 2, 3]


@pytest.mark.django_db(transaction=True)
async def test_a_batch_refused_on_a_live_connection_is_not_tried_again():
    """Only a connection gone is replaced: a statement the database refuses (here, the journal's
    table locked by another session past the writer's lock timeout) comes out as Django's error,
    nothing stored, and the connection is kept for the next batch."""
    if connection.vendor != "postgresql":
        pytest.skip("the writer of its own connection is PostgreSQL's")
    import psycopg

    hand = await sync_to_async(dealt_hand)()
    writer = journal.AsyncWriter()
    other = psycopg.connect(**connection.get_connection_params())
    try:
        await writer.insert(steps_of(hand, 1))
        kept = writer.conn
        await kept.execute("SET lock_timeout = '50ms'")
        other.execute("LOCK TABLE lobby_handstep IN ACCESS EXCLUSIVE MODE")  # (its transaction stays open)
        with pytest.raises(OperationalError):  # LockNotAvailable, an OperationalError
            await writer.insert(steps_of(hand, 2, first=2))
        other.rollback()
        await writer.insert(steps_of(hand, 1, first=2))
        assert writer.conn is kept
    finally:
        other.close()
        await writer.close()
    assert await sync_to_async(stored_seqs)(hand) == [1, 2]


@pytest.mark.django_db(transaction=True)
async def test_a_database_out_of_reach_is_djangos_error_and_the_next_batch_connects_again(monkeypatch):
    """No server where the settings say: the batch fails with Django's ``OperationalError`` (as every
    other write would), nothing is kept of the failed connection, and a later batch connects."""
    if connection.vendor != "postgresql":
        pytest.skip("the writer of its own connection is PostgreSQL's")
    hand = await sync_to_async(dealt_hand)()
    wrapper = connections["default"]
    params = wrapper.get_connection_params
    nowhere = {**params(), "host": "127.0.0.1", "port": 1}
    monkeypatch.setattr(wrapper, "get_connection_params", lambda: dict(nowhere))
    writer = journal.AsyncWriter()
    try:
        with pytest.raises(OperationalError):
            await writer.insert(steps_of(hand, 1))
        monkeypatch.setattr(wrapper, "get_connection_params", params)
        await writer.insert(steps_of(hand, 1))
    finally:
        await writer.close()
    assert await sync_to_async(stored_seqs)(hand) == [1]


def stored_seqs(hand: Hand) -> list[int]:
    return sorted(HandStep.objects.filter(hand=hand).values_list("seq", flat=True))


def end_backend(pid: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [pid])
        assert cursor.fetchone() == (True,)
    for _ in range(100):  # until the server has ended it (pg_terminate_backend only signals)
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [pid])
            if cursor.fetchone() == (0,):
                return
        time.sleep(0.05)
    raise AssertionError(f"backend {pid} still there")
