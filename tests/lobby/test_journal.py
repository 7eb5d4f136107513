"""The journal's writer (``lobby.runtime.journal._commit``): a batch of steps, one statement each.

Every step of a batch is stored with its values as the ORM reads them back (JSON, datetimes), also
a batch longer than one statement takes (the database's limit of parameters: several statements, one
transaction; the limit is lowered here to reach that path), and a batch with one bad step stores none;
in a group commit, a step another writer stored first refuses only its own owner's step.
"""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.db import IntegrityError, connection
from django.utils import timezone

from lobby import actions
from lobby.models import Hand, HandStep
from lobby.runtime import journal
from tests.lobby.helpers import funded_player, poker_table, seat_players

pytestmark = pytest.mark.django_db

STEPS = 250


@pytest.fixture(autouse=True)
def short_statements(monkeypatch):
    """At most 100 steps a statement, so a batch of ``STEPS`` takes three."""
    monkeypatch.setattr(type(connection.ops), "bulk_batch_size", lambda self, fields, objs: 100)


def dealt_hand() -> Hand:
    table = poker_table()
    seat_players(table, [funded_player(), funded_player()])
    actions.table_start_hand(table_id=table.pk)
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


def test_a_batch_is_stored_whole_with_the_values_the_orm_reads_back():
    hand = dealt_hand()
    steps = steps_of(hand, STEPS)

    journal._commit(steps)

    stored = list(HandStep.objects.filter(hand=hand).order_by("seq"))
    assert [s.seq for s in stored] == list(range(1, STEPS + 1))
    for want, got in zip(steps, stored, strict=True):
        for name in ("seat", "action", "automatic", "draws", "events", "version", "deadline", "clocks"):
            assert getattr(got, name) == getattr(want, name), name
        assert got.created_at == want.created_at


@pytest.mark.django_db(transaction=True)  # autocommit, as the owners' writer runs: no test transaction
def test_a_batch_with_one_bad_step_stores_none_of_it():
    hand = dealt_hand()
    journal._commit(steps_of(hand, 3))
    batch = steps_of(hand, STEPS, first=4)
    batch[-1].seq = 2  # in the last statement, the (hand, seq) of a step stored: two owners' step

    with pytest.raises(IntegrityError):
        journal._commit(batch)

    assert HandStep.objects.filter(hand=hand).count() == 3


@pytest.mark.django_db(transaction=True)
async def test_a_step_another_writer_stored_first_refuses_only_its_own_owner():
    """Two tables' steps in one commit: the one whose (hand, seq) is taken is refused, the other stored."""
    first, second = await sync_to_async(dealt_hand)(), await sync_to_async(dealt_hand)()
    await sync_to_async(journal._commit)(steps_of(first, 1))  # the other writer's step
    writer = journal.Journal()
    taken, free = steps_of(first, 1)[0], steps_of(second, 1)[0]

    outcome = await asyncio.gather(writer.append(taken), writer.append(free), return_exceptions=True)
    writer.stop()

    assert isinstance(outcome[0], IntegrityError)
    assert outcome[1] is None
    stored = await sync_to_async(lambda: sorted(HandStep.objects.values_list("hand_id", "seq")))()
    assert stored == sorted([(first.pk, 1), (second.pk, 1)])


@pytest.mark.django_db(transaction=True)
def test_a_batch_whose_connection_went_away_is_written_on_a_new_one():
    """The journal runs no health check before a batch: a connection closed under it fails the
    insert, which is tried once more on a new connection, and the steps are stored once."""
    if connection.vendor != "postgresql":
        pytest.skip("an in-memory SQLite database does not outlive its connection")
    hand = dealt_hand()
    connection.ensure_connection()
    connection.connection.close()  # the server side gone: Django still holds the connection
    journal._commit(steps_of(hand, 3))
    assert sorted(HandStep.objects.filter(hand=hand).values_list("seq", flat=True)) == [1, 2, 3]
