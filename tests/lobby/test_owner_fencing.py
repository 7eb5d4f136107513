"""A sync caller slower than its park (``PARK_SECONDS``) against the owner that went on meanwhile.

The owner is parked for a sync caller (an HTTP view, a hook); the caller's transaction does not
commit within the park's time (a saturated thread pool); the owner resumes and a player decides.
Either the late caller's write is refused cleanly (``TableElsewhere``, nothing of it written) or it
committed before the owner read the row back; never both sides' writes with the same version, a
view of a version that is not the committed one, or a decision the row and journal lose.
"""

import asyncio
import random
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.db import connection, transaction
from django.utils import timezone

from lobby import actions, door, owners, presence
from lobby.errors import TableClaimed, TableElsewhere
from lobby.models import HandStep, Seat, TableLease, TableRuntime
from lobby.runtime import lease, ownership, remote
from lobby.selectors import runtime_now
from tests.lobby.test_owner_runtime import (  # noqa: F401  # owner_clocks: the fixture
    connect,
    die_as_killed,
    legal_move,
    owner_clocks,
    setup_table,
)

pytestmark = pytest.mark.django_db(transaction=True)

PARK = 0.4  # the park's time in these tests (10 s in production)
LATE = 1.5  # how long the caller takes: longer than the park


@pytest.fixture(autouse=True)
def short_park(monkeypatch):
    monkeypatch.setattr("lobby.runtime.owner.PARK_SECONDS", PARK)


def seats_of(table) -> list[tuple[int, int, str, bool]]:
    rows = Seat.objects.filter(table=table).order_by("number")
    return [(s.number, s.user_id, s.status, s.leave_after_hand) for s in rows]


def agrees_with_the_database(owner, table) -> None:
    """The owner's table is the committed one: the row brought up to date from the journal has its
    version and state, the seat rows are its seats, and no version was journaled twice."""
    rt = runtime_now(table.pk)
    assert (rt.version, rt.state) == (owner.rt.version, owner.rt.state)
    assert seats_of(table) == [(s.number, s.user_id, s.status, s.leave_after_hand) for s in owner.seats]
    versions = list(HandStep.objects.filter(hand__table=table).values_list("version", flat=True))
    assert len(versions) == len(set(versions))


async def a_late_caller(table, users, *, holding_the_row: bool):
    """Park the owner for ``table_leave_next`` of the player not to act, taking ``LATE`` seconds
    (before its transaction, or inside it with the row locked); while it is late the player to act
    decides. Returns the owner, the version before, the sockets' messages after the park, the
    caller's outcome, the actor and the sockets (still open: their closing is a row action)."""
    sockets = [await connect(table, ws) for ws in users["cookies"]]
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    await asyncio.sleep(0.1)  # the connections' last reads (their chat) done: the test database's
    await sync_to_async(lambda: None)()  # shared cache refuses reads under another's transaction
    actor = next(i for i, m in enumerate(snaps) if m["seat"] in m["to_act"])
    other = users["players"][1 - actor]
    owner = owners.local_owner(table.pk)
    assert owner is not None
    started = threading.Event()

    def leave_next(**kwargs):
        started.set()  # the owner is parked; the snapshot is written
        if holding_the_row:
            with transaction.atomic():
                result = door.table_leave_next(**kwargs)  # the row locked until the commit
                time.sleep(LATE)
            return result
        time.sleep(LATE)
        return door.table_leave_next(**kwargs)

    def call():
        try:
            return owner.call_from_thread(leave_next, {"table_id": table.pk, "user": other, "leave": True})
        except TableElsewhere as exc:
            return exc
        finally:
            connection.close()  # (this thread's: the test database is dropped at the end)

    caller = asyncio.ensure_future(sync_to_async(call, thread_sensitive=False)())
    while not started.is_set():
        await asyncio.sleep(0.01)
    await asyncio.sleep(PARK + 0.3)  # the park has run out: the owner takes jobs again
    action = legal_move(snaps[actor], random.Random(3), avoid=("passo", "passo_parol", "sitout"))
    await sockets[actor].send_json_to({"type": "act", "action": action, "version": snaps[actor]["version"]})
    outcome = await caller
    await asyncio.sleep(0.3)  # whatever the owner sends after the caller's commit
    received = [[] for _ in sockets]
    for i, ws in enumerate(sockets):
        while not await ws.receive_nothing(timeout=0.3):
            received[i].append(await ws.receive_json_from())
    return owner, snaps[actor]["version"], received, outcome, actor, sockets


async def test_a_caller_late_to_its_transaction_is_refused_and_writes_nothing():
    table, players, cookies = await setup_table()
    owner, version, received, outcome, _actor, sockets = await a_late_caller(
        table, {"players": players, "cookies": cookies}, holding_the_row=False
    )
    await sync_to_async(agrees_with_the_database)(owner, table)
    # the owner went on: the decision applied, journaled, sent; the late write refused, cleanly
    assert isinstance(outcome, TableElsewhere), outcome
    assert owner.rt.version == version + 1
    assert await sync_to_async(HandStep.objects.filter(hand__table=table, version=version + 1).exists)()
    assert not any(s.leave_after_hand for s in await sync_to_async(list)(Seat.objects.filter(table=table)))
    for messages in received:
        states = [m for m in messages if m["type"] == "table.state"]
        assert [m["version"] for m in states] == [version + 1]
    for ws in sockets:
        await ws.disconnect()


async def test_a_caller_holding_the_row_past_its_park_is_read_back_before_the_owner_goes_on():
    table, players, cookies = await setup_table()
    owner, version, received, outcome, actor, sockets = await a_late_caller(
        table, {"players": players, "cookies": cookies}, holding_the_row=True
    )
    await sync_to_async(agrees_with_the_database)(owner, table)
    # the caller's write committed, and the owner read it back before taking the decision: the
    # decision, sent for the version before it, is refused as stale (the player resyncs)
    assert outcome == {"left": False, "after_hand": True}, outcome
    assert owner.rt.version == version + 1
    assert any(s.leave_after_hand for s in owner.seats)
    for i, messages in enumerate(received):
        states = [m for m in messages if m["type"] == "table.state"]
        assert {m["version"] for m in states} == {version + 1}  # (the actor's resync: the same)
        if i == actor:
            assert [m["code"] for m in messages if m["type"] == "error"] == ["stale_version"]
    assert not await sync_to_async(HandStep.objects.filter(hand__table=table, version=version + 1).exists)()
    for ws in sockets:
        await ws.disconnect()


def leave_next_parked(table, user, epoch: int, release=lambda: None):
    """A caller's ``table_leave_next`` run as a parked caller under ``epoch`` (as through_owner does)."""
    kwargs = {"table_id": table.pk, "user": user, "leave": True}
    try:
        return owners.run_parked(table.pk, door.table_leave_next, kwargs, release=release, fence=epoch)
    finally:
        connection.close()  # (this thread's: the test database is dropped at the end)


async def test_a_caller_in_another_process_late_to_its_transaction_is_refused():
    """The park of an owner in another process (``remote``: the owner writes its state, answers
    with the epoch): a caller that writes after the park ran out and the owner went on writes nothing."""
    table, players, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    shown = await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    epoch = await remote._park(owner, {"park": "late", "table": table.pk})
    await asyncio.sleep(PARK + 0.3)  # the park ran out: the owner went on (it reads the row back)
    await owner.call(door.table_sitout, table_id=table.pk, user=players[0], sitout=True)
    loop = asyncio.get_running_loop()

    def release():
        asyncio.run_coroutine_threadsafe(remote._release(owner, {"park": "late"}), loop).result(timeout=10)

    with pytest.raises(TableElsewhere):
        await sync_to_async(leave_next_parked, thread_sensitive=False)(table, players[1], epoch, release)
    assert not any(s.leave_after_hand for s in await sync_to_async(list)(Seat.objects.filter(table=table)))
    assert owner.rt.version == shown["version"] + 1  # the sitout's, and no other
    await sync_to_async(agrees_with_the_database)(owner, table)
    await ws.disconnect()


async def test_a_caller_parked_by_an_owner_that_died_is_refused_once_another_took_the_table():
    table, players, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    _release, epoch = await owner.park(save=True)
    await die_as_killed(owner, table)  # no release, its lease expires, another owner starts
    heir = await presence.owner_for(table.pk)
    with pytest.raises(TableElsewhere):  # its caller, late, writes nothing
        await sync_to_async(leave_next_parked, thread_sensitive=False)(table, players[1], epoch)
    assert not any(s.leave_after_hand for s in await sync_to_async(list)(Seat.objects.filter(table=table)))
    await sync_to_async(agrees_with_the_database)(heir, table)
    await ws.disconnect()


@pytest.fixture
def late_renewals(monkeypatch):
    """This process's lease renewals are late: none comes during the test. (One between a test's
    expiry of the lease and its successor's claim renewed the lease: CI saw the claim refused.)"""

    async def late() -> None:
        return None

    monkeypatch.setattr(presence, "renew", late)


@pytest.mark.usefixtures("late_renewals")
async def test_an_owner_that_lost_its_table_to_another_writes_nothing_over_its_row():
    """An owner whose lease another process claimed (a late heartbeat; it abandons on its next):
    its snapshot and its row actions are refused, the row as its successor read it."""
    table, players, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    shown = await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    views = {p.pk: owner.snapshot(p.pk) for p in players}
    actor = next(p for p in players if views[p.pk]["seat"] in views[p.pk]["to_act"])
    action = legal_move(views[actor.pk], random.Random(6), avoid=("passo", "passo_parol", "sitout"))
    await owner.act(actor, action, shown["version"])  # in memory and the journal, not in the row
    expire = TableLease.objects.filter(table=table).update
    assert await sync_to_async(expire)(expires_at=timezone.now()) == 1
    await sync_to_async(lease.lease_claim)(table.pk, process="another")  # its successor
    before = await sync_to_async(lambda: TableRuntime.objects.get(pk=table.pk))()
    with pytest.raises(TableElsewhere):
        await owner.call(door.table_sitout, table_id=table.pk, user=players[0], sitout=True)
    after = await sync_to_async(lambda: TableRuntime.objects.get(pk=table.pk))()
    assert (after.version, after.state) == (before.version, before.state) and after.version < owner.rt.version
    assert await sync_to_async(seats_of)(table) == [
        (s.number, s.user_id, s.status, s.leave_after_hand) for s in owner.seats
    ]
    with pytest.raises(TableElsewhere):  # a park asked of it (its state to the row first): refused at once
        await asyncio.wait_for(owner.park(save=True), 5)
    await owner.abandon()
    await ws.disconnect()


@pytest.mark.usefixtures("late_renewals")
async def test_an_owner_fenced_at_its_deadline_stops_instead_of_firing_it_for_ever(settings, monkeypatch):
    """Its lease claimed by another process, the owner's deadline fires: the deadline's row action
    is refused (fenced). The owner stops: were it to re-arm its clocks, the deadline (already past)
    would fire the same refused job at once, and so on for ever: a core spinning."""
    settings.LOBBY_SCHEDULE_TASKS = True  # the owner's own clocks, as in production
    fired = []
    real = door.table_deadline_fired

    def counting(**kwargs):
        fired.append(kwargs["table_id"])
        return real(**kwargs)

    monkeypatch.setattr(actions, "table_deadline_fired", counting)
    table, _players, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None and owner.rt.deadline is not None
    expire = TableLease.objects.filter(table=table).update
    assert await sync_to_async(expire)(expires_at=timezone.now()) == 1
    await sync_to_async(lease.lease_claim)(table.pk, process="another")  # its successor
    owner.rt.deadline = timezone.now() - timezone.timedelta(seconds=1)  # the decision's time ran out
    owner._timer("deadline")
    closed = await ws.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": 4409}  # its socket goes to the successor
    await asyncio.sleep(0.5)  # (time enough for a re-armed deadline to fire again and again)
    assert fired == [table.pk] and owner.stopped and owners.local_owner(table.pk) is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite: one database thread for everything")
async def test_a_caller_that_holds_its_row_stalls_its_own_table_not_the_owners_shared_threads(settings):
    """The owner's epoch raise waits for a caller still holding the row a moment at a time: the
    database threads every table's owner shares stay free for the other tables meanwhile (with one
    thread, a raise that waited for the commit would hold it: every table stalled)."""
    settings.LOBBY_DATABASE_THREADS = 1
    hold = 4.0  # the caller's transaction, the row locked: far past its park
    table, players, _cookies = await setup_table()
    other, other_players, _other_cookies = await setup_table()
    owner = await presence.owner_for(table.pk)
    other_owner = await presence.owner_for(other.pk)
    locked, done = threading.Event(), threading.Event()

    def leave_next(**kwargs):
        with transaction.atomic():
            result = door.table_leave_next(**kwargs)  # the row locked until the commit
            locked.set()
            time.sleep(hold)
        return result

    def call():
        try:
            kwargs = {"table_id": table.pk, "user": players[1], "leave": True}
            return owner.call_from_thread(leave_next, kwargs)
        finally:
            done.set()
            connection.close()  # (this thread's: the test database is dropped at the end)

    caller = asyncio.ensure_future(sync_to_async(call, thread_sensitive=False)())
    while not locked.is_set():
        await asyncio.sleep(0.01)
    await asyncio.sleep(PARK + 0.3)  # the park has run out: the owner tries to raise the epoch
    await other_owner.call(door.table_sitout, table_id=other.pk, user=other_players[0], sitout=True)
    assert not done.is_set()  # the other table was served while the caller still held its row
    assert other_owner.seats[0].status == Seat.Status.SITOUT
    assert await caller == {"left": False, "after_hand": True}
    await owner.settled()
    await owner.call(door.table_sitout, table_id=table.pk, user=players[0], sitout=True)  # it went on
    await sync_to_async(agrees_with_the_database)(owner, table)
    assert [s.leave_after_hand for s in owner.seats] == [False, True]
    await presence.stop_all()


async def test_an_owner_elsewhere_on_code_older_than_the_epoch_is_parked_and_its_caller_writes(monkeypatch):
    """A rolling deploy: the owner's process still runs code whose park answers no epoch. The caller
    (this code) writes unfenced, as that code's callers did, and the owner reads the write back."""
    table, players, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    shown = await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    loop = asyncio.get_running_loop()

    async def old_code(channel, table_id, op, **fields):  # the other process's answers, as its code gave them
        assert (channel, table_id) == ("elsewhere!inbox", table.pk)
        message = {"table": table_id, **fields}
        handler = remote._park if op == "park" else remote._release
        coro = handler(owner, message)
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, loop))
        return None  # (its park returned nothing)

    monkeypatch.setattr(remote, "request", old_code)

    def leave_next():
        kwargs = {"table_id": table.pk, "user": players[1], "leave": True}
        try:
            return ownership._through_remote_owner("elsewhere!inbox", table.pk, door.table_leave_next, kwargs)
        finally:
            connection.close()  # (this thread's: the test database is dropped at the end)

    assert await sync_to_async(leave_next, thread_sensitive=False)() == {"left": False, "after_hand": True}
    view = await ws.receive_json_from(timeout=10)  # the owner read the write back and sent it
    assert view["version"] == shown["version"] + 1
    assert [s.leave_after_hand for s in owner.seats] == [False, True]
    await sync_to_async(agrees_with_the_database)(owner, table)
    await ws.disconnect()


async def test_a_direct_write_finding_the_table_claimed_meanwhile_goes_to_its_owner(monkeypatch):
    """A Celery task (no owner in its process) looked at the lease and saw none; before it locked the
    row an owner in another process claimed the table. Under the lock it sees the claim: its write
    is refused whole (``TableClaimed``), and the door sends it to that owner instead. (Unfenced, it
    dealt a hand the owner never knew of: the table stood still while the owner's start clock,
    past, fired for ever.)"""
    table, players, _cookies = await setup_table()
    await sync_to_async(_claimed_meanwhile)(table, players, monkeypatch)


def _claimed_meanwhile(table, players, monkeypatch):
    Seat.objects.filter(table=table).update(leave_after_hand=False)
    before = TableRuntime.objects.get(pk=table.pk)
    lease.lease_claim(table.pk, process="another", channel="elsewhere!inbox")  # after the look below
    looks = []

    def no_owner_yet(table_id):  # the task's look at the lease, before the claim
        looks.append(table_id)
        return None if len(looks) == 1 else owners.lease_holder(table_id)

    sent = []

    def to_the_owner(channel, table_id, func, kwargs):
        sent.append((channel, table_id, func.__name__))
        return {"left": False, "after_hand": True}

    monkeypatch.setattr(ownership, "lease_holder", no_owner_yet)
    monkeypatch.setattr(ownership, "_through_remote_owner", to_the_owner)
    result = door.table_leave_next(table_id=table.pk, user=players[1], leave=True)
    assert result == {"left": False, "after_hand": True}
    assert sent == [("elsewhere!inbox", table.pk, "table_leave_next")] and len(looks) == 2
    after = TableRuntime.objects.get(pk=table.pk)
    assert (after.version, after.epoch) == (before.version, before.epoch + 1)  # (the claim's raise)
    assert not Seat.objects.filter(table=table, leave_after_hand=True).exists()


async def test_an_action_outside_any_owner_is_refused_while_an_owner_elsewhere_keeps_the_table():
    """The lock's check itself: whoever writes a table outside its owner (a bare action, a script)
    while an owner in another process keeps it writes nothing; once that lease has expired, or
    with the table's lease in this process (an owner stopped here), the write goes ahead."""
    table, players, _cookies = await setup_table()
    await sync_to_async(_refused_outside)(table, players)


def _refused_outside(table, players):
    lease.lease_claim(table.pk, process="another", channel="elsewhere!inbox")
    before = TableRuntime.objects.get(pk=table.pk).version
    with pytest.raises(TableClaimed):
        actions.table_leave_next(table_id=table.pk, user=players[1], leave=True)
    assert TableRuntime.objects.get(pk=table.pk).version == before
    assert not Seat.objects.filter(table=table, leave_after_hand=True).exists()
    TableLease.objects.filter(table=table).update(expires_at=timezone.now() - timezone.timedelta(seconds=1))
    assert actions.table_leave_next(table_id=table.pk, user=players[1], leave=True) == {
        "left": False,
        "after_hand": True,
    }
    assert TableRuntime.objects.get(pk=table.pk).version == before + 1


async def test_an_owner_whose_row_was_written_behind_its_back_reads_it_again(caplog):
    """Should a write ever reach the row past the fence, the owner's next row action sees a row of
    another version than its own: it reads everything again (and says so) instead of keeping its
    own row, whose clocks would go on from a table that is no more."""
    table, _players, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    mine = owner.rt.version
    behind = TableRuntime.objects.filter(pk=table.pk).update
    await sync_to_async(behind)(version=mine + 5, start_at=None)  # (what no writer may do)
    with caplog.at_level("ERROR", logger="lobby.runtime.owner"):
        assert await owner.call(door.table_start_hand, table_id=table.pk) is False  # a hand runs: no write
    assert owner.rt.version == mine + 5
    assert "written outside its owner" in caplog.text
    await sync_to_async(agrees_with_the_database)(owner, table)
    await ws.disconnect()
