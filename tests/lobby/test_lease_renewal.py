"""The leases of a process's owners are renewed on a schedule of their own, never behind the beat.

Under load a heartbeat waits behind the tables' database work (longer while it adopts tables); a
renewal waiting with it would let the leases expire, another Daphne process would take over the
tables of a live owner, and that owner would close their sockets with 4409 (``TableElsewhere``).
Here the heartbeat's other work is held outright: the
renewals must go on (no clock is measured, renewals are counted). And a renewal while an owner
still loads (its lease not claimed yet) must not take it for an owner that lost its lease.
"""

import asyncio

import pytest
from asgiref.sync import sync_to_async

from lobby import door, owners, presence
from lobby.models import SeatSocket
from lobby.runtime import lease, remote
from tests.lobby.test_owner_lifecycle import dealt_table
from tests.lobby.test_ws_table import connect, setup_table

pytestmark = pytest.mark.django_db(transaction=True)

ENOUGH = 30  # seconds: a bound on a wait that never ends if renewals wait for the beat, not a measurement


@pytest.fixture(autouse=True)
def fast_heartbeat(settings):
    settings.LOBBY_HEARTBEAT_SECONDS = 0.05  # the renewals then come every 0.05 s


@pytest.fixture
def renewals(monkeypatch):
    """The tables of each lease renewal, in order (called on a database thread)."""
    calls: list[list[int]] = []
    real = lease.lease_renew

    def counting(table_ids, **kwargs):
        calls.append(list(table_ids))
        return real(table_ids, **kwargs)

    monkeypatch.setattr(lease, "lease_renew", counting)
    return calls


async def more_renewals(renewals: list, count: int) -> None:
    seen = len(renewals)
    async with asyncio.timeout(ENOUGH):
        while len(renewals) < seen + count:
            await asyncio.sleep(0.05)


async def test_the_leases_are_renewed_while_the_heartbeat_is_held_up(monkeypatch, renewals):
    held, release = asyncio.Event(), asyncio.Event()

    async def adoption_held_up(limit: int = 50) -> list[int]:
        held.set()  # the heartbeat waits here (as behind a saturated database pool, or adopting)
        await release.wait()
        return []

    monkeypatch.setattr(presence, "adopt_orphans", adoption_held_up)
    table = await dealt_table()
    owner = await presence.owner_for(table.pk)
    try:
        async with asyncio.timeout(ENOUGH):
            await held.wait()
        await more_renewals(renewals, 3)  # renewals in the heartbeat would never come again here
    finally:
        release.set()
    assert all(calls == [table.pk] for calls in renewals)
    assert not owner.stopped and owners.local_owner(table.pk) is owner


async def test_the_presence_rows_are_refreshed_while_the_heartbeat_is_held_up(monkeypatch):
    """A connected player is not sat out by the sweeper because his process's beat was slow."""
    held, release = asyncio.Event(), asyncio.Event()
    refreshed: list[list[int]] = []
    real = door.presence_beat

    def counting(*, process, socket_ids):
        refreshed.append(list(socket_ids))
        return real(process=process, socket_ids=socket_ids)

    async def versions_held_up(*args, **kwargs):
        held.set()  # the beat waits here, before it sends the sockets their versions
        await release.wait()
        return {}

    monkeypatch.setattr(presence, "presence_beat", counting)
    monkeypatch.setattr(presence, "beat", versions_held_up)
    table, _users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    try:
        await ws.receive_json_from(timeout=5)
        socket_id = await sync_to_async(lambda: SeatSocket.objects.get(seat__table=table).pk)()
        async with asyncio.timeout(ENOUGH):
            await held.wait()
            seen = len(refreshed)
            while len(refreshed) < seen + 3:  # refreshed in the beat, they would never be again here
                await asyncio.sleep(0.05)
    finally:
        release.set()
        await ws.disconnect()
    assert all(socket_id in ids for ids in refreshed[seen:])


async def test_an_owner_still_loading_is_not_taken_for_one_that_lost_its_lease(monkeypatch, renewals):
    playing, starting = await dealt_table(), await dealt_table()
    await presence.owner_for(playing.pk)  # an owner with its lease: the renewals go on
    loading, go_on = asyncio.Event(), asyncio.Event()
    inbox = remote.inbox

    async def inbox_held_up() -> str:  # the new owner waits before it claims its lease
        loading.set()
        await go_on.wait()
        return await inbox()

    monkeypatch.setattr(remote, "inbox", inbox_held_up)
    started = asyncio.ensure_future(presence.owner_for(starting.pk))
    try:
        async with asyncio.timeout(ENOUGH):
            await loading.wait()
        loader = owners._owners[starting.pk]
        await more_renewals(renewals, 3)
        assert not loader.stopped  # renewing its lease (none yet) would abandon it
    finally:
        go_on.set()
    owner = await started
    assert owner is loader and owner.claimed and owners.local_owner(starting.pk) is owner
    async with asyncio.timeout(ENOUGH):  # renewed once claimed (a renewal under way may predate it)
        while not any(starting.pk in calls for calls in renewals):
            await asyncio.sleep(0.05)
    assert not owner.stopped
