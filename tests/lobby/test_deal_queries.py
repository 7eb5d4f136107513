"""What one deal costs the database on the owner runtime: the row action and the owner's read back.

The deal reads the seats, their credits and their options once for the whole table (not once per
seat), writes the seats only when one of them was ready, and the owner reads the row and its
hand's id back in one query, the seats and the waiting list's offers only when the deal wrote them.
"""

import pytest
from asgiref.sync import sync_to_async
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from lobby import door, presence
from lobby.models import Hand, HandPlayer, Seat, TableRuntime, WaitingEntry
from lobby.runtime import blocking
from lobby.selectors import seat_rows, table_waiting
from piattaforma import siteops
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import credit, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def no_timers(settings):
    settings.LOBBY_SCHEDULE_TASKS = False  # no timer deals behind the test's back


def poker_seated():
    table = poker_table(seats=3)
    seat_players(table, [funded_player() for _ in range(3)])
    return table


def scopa_ready():
    table = scopa_table()
    seat_players(table, [funded_player() for _ in range(2)])
    Seat.objects.filter(table=table).update(ready=True)  # both said "Sono pronto per iniziare"
    return table


async def deal_under_owner(table):
    """The owner deals (``table_start_hand`` as its row action); the statements of that round trip."""
    owner = await presence.owner_for(table.pk)

    def deal():
        siteops.site_hours()  # the site's hours are cached per process: read before, as in a server
        with CaptureQueriesContext(connection) as queries:
            owner._row_action_sync(door.table_start_hand, {"table_id": table.pk})
        return [q["sql"] for q in queries.captured_queries]

    return owner, await blocking(deal)()


# BEGIN and COMMIT are counted on both databases. A poker deal: the row locked, the game switch;
# the seats (with whether each was dealt in here since he sat down), their credits, their options;
# the hand, its players, the row saved; the owner keeps the row the deal saved (it read it back
# with its hand's id: 11 and 13). Scopa also writes its seats ("ready" reset), so the owner reads
# them back.
@pytest.mark.parametrize(
    ("setup", "expected", "seats_written"), [(poker_seated, 10, False), (scopa_ready, 12, True)]
)
async def test_a_deal_reads_the_seats_once_for_the_whole_table(setup, expected, seats_written):
    table = await sync_to_async(setup)()
    owner, queries = await deal_under_owner(table)
    assert len(queries) == expected, "\n".join(queries)
    assert any('UPDATE "lobby_seat"' in q for q in queries) == seats_written

    @sync_to_async
    def stored():
        rt = TableRuntime.objects.get(pk=table.pk)
        players = list(
            HandPlayer.objects.filter(hand_id=owner.hand_id).order_by("seat").values_list("seat", flat=True)
        )
        return rt, players, list(Seat.objects.filter(table=table).values_list("ready", flat=True))

    rt, players, ready = await stored()
    assert rt.state is not None and rt.hand_no == 1 and owner.rt.version == rt.version
    # the rows the owner kept are the rows as stored, to their JSON (string keys, lists), the
    # runtime's epoch too: the hand's end settles the hand it kept without reading it
    hand = await sync_to_async(Hand.objects.get)(pk=owner.hand_id)
    for row, stored_row in ((owner.rt, rt), (owner.hand, hand)):
        for field in type(stored_row)._meta.concrete_fields:
            assert getattr(row, field.attname) == getattr(stored_row, field.attname), field.name
    assert owner.hand_id is not None and players == [s.number for s in owner.seats]
    assert not any(ready)


def test_a_due_start_that_deals_nothing_is_cleared():
    table = poker_table()
    seat_players(table, [funded_player()])  # one player: nothing to deal
    TableRuntime.objects.filter(pk=table.pk).update(start_at=timezone.now())
    assert not door.table_start_hand(table_id=table.pk)
    assert TableRuntime.objects.get(pk=table.pk).start_at is None


async def test_the_owner_reads_back_what_a_row_action_wrote_and_keeps_the_rest():
    """Seats and the waiting list's first offer are read again exactly when a row action wrote them."""
    users = [await sync_to_async(funded_player)() for _ in range(4)]
    table = await sync_to_async(poker_table)(seats=3)
    await sync_to_async(seat_players)(table, users[:3])
    owner = await presence.owner_for(table.pk)
    held = owner.seats
    await owner.call(door.table_sitout, table_id=table.pk, user=users[0], sitout=True)
    assert owner.seats is not held and owner.seats[0].status == Seat.Status.SITOUT
    held, row = owner.seats, owner.rt
    await owner.call(door.seat_connected, table_id=table.pk, user=users[2], process="p")
    assert owner.seats is not held and owner.seats[2].connections == 1  # the seat's count written
    assert owner.rt is row  # neither the runtime row nor the table written: the row is kept
    held = owner.seats
    await owner.call(door.waiting_join, table_id=table.pk, user=users[3])  # the table is full
    assert owner.seats is held and owner.offer_at is None  # no seat written, no offer yet
    assert owner.rt is not row and owner.rt.version == row.version + 1  # the row written: read back
    await owner.call(door.table_leave, table_id=table.pk, user=users[1])  # seat 2 is offered
    entry = await sync_to_async(WaitingEntry.objects.get)(table=table, user=users[3])
    assert [s.number for s in owner.seats] == [1, 3]
    assert owner.offer_at == entry.offer_expires_at is not None
    assert owner.chores_at == entry.offer_expires_at  # the chores' timer expires it


def test_the_between_hands_block_reads_every_seats_credit_at_once(django_assert_num_queries):
    table = poker_table(seats=3)
    seats = seat_players(table, [funded_player() for _ in range(3)], buy_in=5_000)
    rt, rows = TableRuntime.objects.select_related("table").get(pk=table.pk), seat_rows(table.pk)
    with django_assert_num_queries(1):
        waiting = table_waiting(rt, rows, "puntate")
    assert [(r["number"], r["credit"]) for r in waiting["seats"]] == [(s.number, credit(s)) for s in seats]
    assert [r["credit"] for r in waiting["seats"]] == [5_000] * 3 and waiting["playing"] == 3
