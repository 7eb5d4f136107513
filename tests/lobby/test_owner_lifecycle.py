"""An owner's task: a job whose own wait is cancelled fails alone; a task that ends without
``stop()`` leaves no owner behind that nobody serves (callers would wait for it forever)."""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from lobby import door, owners, presence
from lobby.errors import TableElsewhere
from tests.lobby.factories import poker_table
from tests.lobby.helpers import seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def dealt_table():
    table = poker_table()
    seat_players(table, [funded_player(), funded_player()])
    door.table_start_hand(table_id=table.pk)
    return table


async def test_a_job_whose_wait_is_cancelled_fails_and_the_owner_goes_on():
    table = await dealt_table()
    owner = await presence.owner_for(table.pk)

    async def cancelled_wait():
        waited = asyncio.get_running_loop().create_future()
        waited.cancel()  # as a database thread's future cancelled when its pool shuts down
        await waited

    with pytest.raises(TableElsewhere):
        await owner.submit(cancelled_wait)
    assert await owner.submit(lambda: asyncio.sleep(0, result="next")) == "next"  # still taking jobs
    assert owners.local_owner(table.pk) is owner
    await owner.stop()


async def test_an_owner_whose_task_ended_is_forgotten_and_its_queued_jobs_refused():
    table = await dealt_table()
    owner = await presence.owner_for(table.pk)
    started, blocker = asyncio.Event(), asyncio.Event()

    async def busy():
        started.set()
        await blocker.wait()

    first = asyncio.ensure_future(owner.submit(busy))
    await started.wait()
    queued = asyncio.ensure_future(owner.submit(lambda: asyncio.sleep(0)))
    await asyncio.sleep(0)
    owner.task.cancel()  # the task ends without stop(): its loop shutting down
    with pytest.raises((asyncio.CancelledError, TableElsewhere)):
        await first
    with pytest.raises(TableElsewhere):
        await asyncio.wait_for(queued, 5)  # refused, not left waiting for ever
    assert owner.stopped
    assert owners.local_owner(table.pk) is None  # the next caller starts (or finds) a live owner
    with pytest.raises(TableElsewhere):
        await owner.submit(lambda: asyncio.sleep(0))
