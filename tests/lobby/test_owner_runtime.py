"""The owner runtime (``lobby.runtime``) over real WebSockets.

Each seat receives exactly its own projection of every version (checked against the hand rebuilt
from the journal), every version a player sees is already committed in the journal, a stale
version is refused, bots move on the owner's timer, and a new owner takes a table over from the
row and the journal after its owner died, with nothing lost or applied twice.
"""

import asyncio
import random
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import OperationalError, transaction
from django.utils import timezone

from config.asgi import application
from games import registry
from lobby import door, owners, presence, sweeps
from lobby.actions import seating
from lobby.errors import TableClosed, TableElsewhere
from lobby.models import Hand, HandStep, Seat, TableLease, TableRuntime, WaitingEntry
from lobby.replay import replay_hand
from lobby.runtime import lease
from lobby.runtime import owner as owner_module
from lobby.runtime.owner import TableOwner
from piattaforma import hooks
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import credit, receive_frame, runtime, seat_players
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.wallet.factories import funded_player
from wallet.selectors import balance_get

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def owner_clocks(settings):
    settings.LOBBY_SCHEDULE_TASKS = True  # the owners' own clocks (no Celery task is sent by them)


@sync_to_async
def setup_table(players: int = 2, bots: int = 0):
    users = [funded_player() for _ in range(players)] + [funded_player(is_bot=True) for _ in range(bots)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    return table, users[:players], [session_cookie(u) for u in users[:players]]


async def connect(table, cookie):
    ws = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect(timeout=10)  # the owner starts with the first connection
    assert connected
    return ws


def legal_move(payload, rng, avoid=()):
    spec = rng.choice([s for s in payload["legal"] if s["type"] not in avoid] or payload["legal"])
    action = {k: v for k, v in spec.items() if k not in ("label", "confirm", "amount")}
    if "amount" in spec:
        action["amount"] = spec["amount"]["min"]
    return action


@sync_to_async
def journaled(table, version: int) -> bool:
    return HandStep.objects.filter(hand__table=table, version=version).exists()


async def play_hand(table, sockets, received):
    """Play the running hand through the sockets; record every state each socket receives."""
    rng = random.Random(7)
    latest = {}
    for i, ws in enumerate(sockets):
        msg = await ws.receive_json_from(timeout=10)
        received[i].append(msg)
        latest[i] = msg
    hand_no = latest[0]["hand"]
    for _ in range(200):
        current = max(latest.values(), key=lambda m: m["version"])
        if current["hand"] != hand_no:
            return
        if current.get("over"):
            # the hand's end leaves once journaled, its settlement follows: the next version
            # brings the seats' credits (the between-hands block)
            for i, ws in enumerate(sockets):
                while "seats" not in (latest[i].get("waiting") or {}):
                    msg = await ws.receive_json_from(timeout=10)
                    if msg["type"] == "table.state":
                        received[i].append(msg)
                        latest[i] = msg
            return
        actor = next(
            i for i, m in latest.items() if m["version"] == current["version"] and m["seat"] in m["to_act"]
        )
        await sockets[actor].send_json_to(
            {"type": "act", "action": legal_move(latest[actor], rng), "version": current["version"]}
        )
        for i, ws in enumerate(sockets):
            while True:
                msg = await ws.receive_json_from(timeout=10)
                if msg["type"] != "table.state":
                    continue
                received[i].append(msg)
                if msg["hand"] == hand_no and msg.get("events"):
                    # durable before visible: the step is in the journal when its view arrives
                    assert await journaled(table, msg["version"])
                latest[i] = msg
                if msg["version"] > current["version"]:
                    break
    raise AssertionError("the hand did not end")


async def test_each_seat_gets_its_own_projection_of_every_version_and_the_journal_first():
    table, _users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    received = {0: [], 1: []}
    await play_hand(table, sockets, received)
    hand = await sync_to_async(Hand.objects.get)(table=table, number=1)
    states = await sync_to_async(replay_hand)(hand)
    steps = await sync_to_async(lambda: {s.version: s.seq for s in hand.steps.all()})()
    engine = registry.get(hand.game)
    checked = 0
    for messages in received.values():
        for msg in messages:
            if msg["hand"] != 1 or msg["version"] not in steps:
                continue
            # exactly the engine's projection for this seat at this version: no other seat's
            # covered cards, no deck (the rebuilt state holds them; the message must not)
            assert msg["view"] == engine.view(states[steps[msg["version"]]], msg["seat"])
            assert "deck" not in msg["view"]
            checked += 1
    assert checked >= 2 * (len(steps) - 1)
    # the hand settled: ended, its outcome stored, the credit moved
    assert hand.ended_at is not None and hand.outcome is not None
    assert await sync_to_async(lambda: runtime(table).version)() == max(m["version"] for m in received[0])
    for ws in sockets:
        await ws.disconnect()


async def test_a_stale_version_is_refused_in_memory_and_the_player_resynced():
    table, _users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    actor = next(i for i, m in enumerate(snaps) if m["seat"] in m["to_act"])
    action = legal_move(snaps[actor], random.Random(1))
    await sockets[actor].send_json_to(
        {"type": "act", "action": action, "version": snaps[actor]["version"] - 1}
    )
    error = await sockets[actor].receive_json_from(timeout=10)
    assert error["type"] == "error" and error["code"] == "stale_version"
    resync = await sockets[actor].receive_json_from(timeout=10)
    assert resync["type"] == "table.state" and resync["version"] == snaps[actor]["version"]
    assert not await journaled(table, snaps[actor]["version"] + 1)  # nothing applied
    for ws in sockets:
        await ws.disconnect()


async def test_everyone_puts_the_invito_on_the_view_that_asked_him_and_an_older_one_is_still_stale():
    """The invito is every seat's decision at once: a player answering on the view in which he was
    asked is not refused because another answered first (no "Il tavolo è cambiato", click again,
    at every hand of three or more). A version older than the view in which his
    decision opened is still stale."""
    table, _users, cookies = await setup_table(players=3)
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await receive_frame(ws, timeout=10) for ws in sockets]
    asked = snaps[0]["version"]
    assert {m["version"] for m in snaps} == {asked} and len(snaps[0]["to_act"]) == 3
    assert [m["acted"] for m in snaps] == [0, 0, 0]  # each seat's own view: no decision of his yet
    latest = list(snaps)
    for i, ws in enumerate(sockets):  # one after the other, each on the view that asked him
        invito = legal_move(
            {"legal": [s for s in snaps[i]["legal"] if s["type"] == "invito"]}, random.Random(i)
        )
        await ws.send_json_to({"type": "act", "action": invito, "version": asked})
        for j, other in enumerate(sockets):  # every seat sees the next version; nobody gets an error
            latest[j] = await receive_frame(other, timeout=10)
            assert (latest[j]["type"], latest[j]["version"]) == ("table.state", asked + i + 1), latest[j]
            # the version his own last decision made (his page holds a second click until it shows)
            assert latest[j]["acted"] == (asked + j + 1 if j <= i else 0), (i, j, latest[j]["acted"])
    assert all([await journaled(table, asked + n) for n in (1, 2, 3)])
    (seat,) = latest[0]["to_act"]  # the betting round: one seat at a time, from version asked + 3
    actor = next(i for i, m in enumerate(latest) if m["seat"] == seat)
    action = legal_move(latest[actor], random.Random(9))
    await sockets[actor].send_json_to({"type": "act", "action": action, "version": asked + 2})
    error = await receive_frame(sockets[actor], timeout=10)
    assert (error["type"], error["code"]) == ("error", "stale_version")
    assert not await journaled(table, asked + 4)
    for ws in sockets:
        await ws.disconnect()


async def test_sitout_answered_at_the_invito_sits_the_player_out_at_the_table():
    # On the owner runtime the decision writes the seat's row too (status sitout),
    # and the view of that version shows it
    table, _users, cookies = await setup_table(players=3)
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    actor = next(i for i, m in enumerate(snaps) if m["seat"] in m["to_act"])
    assert any(s["type"] == "sitout" for s in snaps[actor]["legal"])
    await sockets[actor].send_json_to(
        {"type": "act", "action": {"type": "sitout"}, "version": snaps[actor]["version"]}
    )
    while (view := await sockets[actor].receive_json_from(timeout=10))["version"] <= snaps[actor]["version"]:
        pass
    seat_no = snaps[actor]["seat"]
    assert next(s for s in view["seats"] if s["number"] == seat_no)["status"] == Seat.Status.SITOUT
    seat = await sync_to_async(Seat.objects.get)(table=table, number=seat_no)
    assert seat.status == Seat.Status.SITOUT and seat.sitout_since is not None
    assert await journaled(table, snaps[actor]["version"] + 1)
    for ws in sockets:
        await ws.disconnect()


async def test_bots_move_on_the_owners_timer(monkeypatch):
    monkeypatch.setattr("lobby.bots.BOT_DELAY_SECONDS", 0.01)
    table, _users, cookies = await setup_table(players=1, bots=2)
    ws = await connect(table, cookies[0])
    rng = random.Random(3)
    seen = await ws.receive_json_from(timeout=10)
    for _ in range(100):  # the person plays when due; the bots answer without any Celery task
        if seen["type"] == "table.state" and seen["hand"] > 1:
            break
        if seen["type"] == "table.state" and seen["seat"] in seen["to_act"] and not seen.get("over"):
            await ws.send_json_to(
                {"type": "act", "action": legal_move(seen, rng), "version": seen["version"]}
            )
        seen = await ws.receive_json_from(timeout=10)
    bot_steps = await sync_to_async(
        lambda: HandStep.objects.filter(hand__table=table, seat__in=[2, 3], automatic=False).count()
    )()
    assert bot_steps > 0
    await ws.disconnect()


def row(table) -> TableRuntime:
    """The runtime row as written (``helpers.runtime`` adds the journal's later steps)."""
    return TableRuntime.objects.get(pk=table.pk)


async def kill_owner_mid_hand():
    """Two decisions applied and journaled (the row lags behind); then the owner dies (kill -9):
    no snapshot, no lease given back, and the lease expires."""
    table, _users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    rng = random.Random(5)
    latest = snaps[0]
    for _ in range(2):
        actor = next(i for i, m in enumerate(snaps) if m["seat"] in latest["to_act"])
        action = legal_move(snaps[actor], rng, avoid=("passo", "passo_parol", "sitout"))  # the hand goes on
        await sockets[actor].send_json_to({"type": "act", "action": action, "version": latest["version"]})
        snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
        latest = snaps[0]
    owner = owners.local_owner(table.pk)
    assert owner is not None and not latest.get("over")
    held = owner.rt.version, owner.rt.state
    assert await sync_to_async(lambda: row(table).version)() < held[0]  # in memory and the journal only
    await die_as_killed(owner, table)
    return table, cookies, sockets, held


async def die_as_killed(owner, table):
    """The owner's process dies (kill -9): no snapshot, no lease given back, and the lease expires."""
    owner.stopped = True
    owner.clocks.cancel_all()
    owner.task.cancel()
    owners.forget(owner)
    expired = TableLease.objects.filter(table=table).update
    assert await sync_to_async(expired)(process="dead", expires_at=timezone.now()) == 1


async def test_a_new_owner_takes_over_from_row_and_journal_after_its_owner_died():
    table, cookies, sockets, (held_version, held_state) = await kill_owner_mid_hand()
    live = await sync_to_async(TableLease.objects.filter(table=table).update)(
        expires_at=timezone.now() + timedelta(seconds=60)
    )
    assert live == 1
    with pytest.raises(TableElsewhere):  # a live lease of another process is refused
        await sync_to_async(lease.lease_claim)(table.pk)
    await sync_to_async(TableLease.objects.filter(table=table).update)(expires_at=timezone.now())
    heir = await presence.owner_for(table.pk)
    assert heir.recovered >= 1
    assert heir.rt.version == held_version and heir.rt.state == held_state
    assert heir.rt.deadline is not None and "deadline" in heir.clocks.pending()  # the clock resumes
    assert await sync_to_async(lambda: TableLease.objects.get(table=table).process)() != "dead"
    # a reconnecting player resyncs at the version he saw last; play goes on from there
    ws = await connect(table, cookies[0])
    snap = await ws.receive_json_from(timeout=10)
    assert snap["version"] == held_version
    versions = HandStep.objects.filter(hand__table=table).values_list("version", flat=True)
    steps = await sync_to_async(list)(versions)
    assert len(steps) == len(set(steps))  # nothing applied twice
    for s in [*sockets, ws]:
        await s.disconnect()


async def test_the_sweeper_brings_a_dead_owners_table_up_to_date_and_frees_it():
    table, _cookies, sockets, (held_version, held_state) = await kill_owner_mid_hand()
    assert await sync_to_async(sweeps.tables_sweep)() >= 1
    rt = await sync_to_async(row)(table)
    assert rt.version == held_version and rt.state == held_state
    assert not await sync_to_async(TableLease.objects.filter(table=table).exists)()
    for s in sockets:
        await s.disconnect()


async def test_the_heartbeat_adopts_a_dead_owners_table_and_leaves_a_live_one_alone():
    """``presence.adopt_orphans`` (each beat): a table whose lease expired gets an owner here, from
    row and journal, its clock resumed; a table whose lease another process still renews does not."""
    table, _cookies, sockets, (held_version, held_state) = await kill_owner_mid_hand()
    alive = await sync_to_async(poker_table)(name="Tavolo vivo")
    await sync_to_async(TableLease.objects.create)(
        table=alive, process="elsewhere", channel="x", expires_at=timezone.now() + timedelta(seconds=60)
    )
    assert await presence.adopt_orphans() == [table.pk]
    heir = owners.local_owner(table.pk)
    assert heir is not None and heir.recovered >= 1
    assert heir.rt.version == held_version and heir.rt.state == held_state
    assert "deadline" in heir.clocks.pending()  # the time left, not a new one
    assert owners.local_owner(alive.pk) is None
    assert await presence.adopt_orphans() == []  # its lease is this process's now, and live
    for s in sockets:
        await s.disconnect()


@pytest.mark.parametrize("task", ["table_start", "table_deadline", "table_bot_move"])
def test_a_stale_clock_task_leaves_a_live_owner_alone(settings, monkeypatch, django_assert_num_queries, task):
    """Issue 18: a clock task sent while the table had no owner yet (the worker's first deal arms a
    deadline task) that arrives once an owner in another process runs the table finds its lease and
    does nothing, in one query: the owner keeps its own clocks and is not parked for a no-op."""
    from lobby import tasks

    settings.LOBBY_SCHEDULE_TASKS = False  # no further task is sent from here
    table = poker_table()
    seat_players(table, [funded_player(), funded_player(is_bot=True)])
    door.table_start_hand(table_id=table.pk)  # dealt with no owner yet: its clocks in the row
    rt = row(table)
    TableRuntime.objects.filter(pk=table.pk).update(  # every clock of the row overdue
        deadline=timezone.now() - timedelta(seconds=60), start_at=timezone.now() - timedelta(seconds=60)
    )
    kwargs = {
        "table_start": {"table_id": table.pk},
        "table_deadline": {"table_id": table.pk, "eta": (timezone.now() - timedelta(seconds=60)).isoformat()},
        "table_bot_move": {"table_id": table.pk, "version": rt.version},
    }[task]
    parks = []
    monkeypatch.setattr(
        "lobby.runtime.remote.park_elsewhere", lambda *a: parks.append(a) or (lambda: None, 0)
    )
    TableLease.objects.create(
        table=table,
        process="daphne-elsewhere",
        channel="elsewhere!inbox",
        expires_at=timezone.now() + timedelta(seconds=60),
    )
    with django_assert_num_queries(1):
        getattr(tasks, task)(**kwargs)
    assert parks == [] and row(table).version == rt.version and row(table).state == rt.state


def owned_tables_with_overdue_clocks(count: int) -> list[int]:
    """``count`` poker tables, each dealt with a bot to act and a sitout seat, every clock of its row
    overdue and a waiting-list offer expired, held by a live owner in another process."""
    ids = []
    past = timezone.now() - timedelta(seconds=60)
    for i in range(count):
        table = poker_table(name=f"Tavolo {i}")
        seat_players(table, [funded_player(), funded_player(is_bot=True), funded_player()])
        door.table_start_hand(table_id=table.pk)
        Seat.objects.filter(table=table, number=3).update(status=Seat.Status.SITOUT, sitout_since=past)
        WaitingEntry.objects.create(table=table, user=funded_player(), offered_seat=4, offer_expires_at=past)
        TableRuntime.objects.filter(pk=table.pk).update(deadline=past, start_at=past, turn_started=past)
        TableLease.objects.create(
            table=table,
            process="daphne-elsewhere",
            channel="elsewhere!inbox",
            expires_at=timezone.now() + timedelta(seconds=60),
        )
        ids.append(table.pk)
    return ids


def test_the_beat_sweep_over_owned_tables_runs_a_bounded_number_of_queries(settings, monkeypatch):
    """Issue 18: every 5 s the beat's sweep looks at every table; the ones live owners keep cost
    it the same few queries however many they are (none of them parked, none of their rows read)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.LOBBY_SCHEDULE_TASKS = False
    parks = []
    monkeypatch.setattr(
        "lobby.runtime.remote.park_elsewhere", lambda *a: parks.append(a) or (lambda: None, 0)
    )
    counts = []
    for count in (1, 4):
        ids = owned_tables_with_overdue_clocks(count)
        versions = dict(TableRuntime.objects.filter(pk__in=ids).values_list("pk", "version"))
        with CaptureQueriesContext(connection) as queries:
            assert sweeps.tables_sweep() == 0
        counts.append(len(queries))
        assert dict(TableRuntime.objects.filter(pk__in=ids).values_list("pk", "version")) == versions
    assert parks == [] and counts[0] == counts[1], counts


def test_a_sweep_leaves_a_table_whose_owner_started_after_it_listed_its_due_tables(settings, monkeypatch):
    """Issue 18: the load benchmark's 417 tables all had a next deal overdue when the worker
    started; its sweep listed them free, then parked each owner that claimed its table meanwhile
    (the clients connecting), one by one, for the whole measured window. Each table is checked
    again just before its action: one an owner claimed since is left to it, not parked."""
    settings.LOBBY_SCHEDULE_TASKS = False
    parks = []
    monkeypatch.setattr(
        "lobby.runtime.remote.park_elsewhere", lambda *a: parks.append(a) or (lambda: None, 0)
    )
    ids = owned_tables_with_overdue_clocks(2)
    TableLease.objects.filter(table_id__in=ids).delete()  # no owner yet when the sweep lists them
    listed = lease.unowned

    def listed_then_claimed(table_ids):
        free = listed(table_ids)
        TableLease.objects.create(  # the first connection reaches the second table meanwhile
            table_id=ids[1],
            process="daphne-elsewhere",
            channel="elsewhere!inbox",
            expires_at=timezone.now() + timedelta(seconds=60),
        )
        return free

    monkeypatch.setattr(sweeps, "unowned", listed_then_claimed)
    version = TableRuntime.objects.get(pk=ids[1]).version
    sweeps.tables_sweep_starts()
    assert parks == [] and TableRuntime.objects.get(pk=ids[1]).version == version
    assert TableRuntime.objects.get(pk=ids[0]).start_at is None  # the first table, still free, was swept


async def test_a_sync_caller_writes_through_the_owner_after_its_decisions():
    """An HTTP view's table_sit while the owner holds decisions in memory: the owner is parked,
    its state written to the row, the seat taken, and everyone gets the new version."""
    table, _users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    actor = next(i for i, m in enumerate(snaps) if m["seat"] in m["to_act"])
    action = legal_move(snaps[actor], random.Random(2), avoid=("passo", "passo_parol", "sitout"))
    await sockets[actor].send_json_to({"type": "act", "action": action, "version": snaps[0]["version"]})
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    owner = owners.local_owner(table.pk)
    assert owner is not None and owner.dirty  # the decision is in the journal, not in the row
    newcomer = await sync_to_async(funded_player)()
    await sync_to_async(door.table_sit, thread_sensitive=False)(
        table_id=table.pk, user=newcomer, seat_no=3, buy_in=10_000, idempotency_key="sit-through-owner"
    )
    after = [await ws.receive_json_from(timeout=10) for ws in sockets]
    assert all(m["version"] == snaps[0]["version"] + 1 and len(m["seats"]) == 3 for m in after)
    rt = await sync_to_async(row)(table)  # the owner's state was written to the row first
    assert rt.version == owner.rt.version == after[0]["version"] and rt.state == owner.rt.state
    for ws in sockets:
        await ws.disconnect()


async def eventually(check, seconds: float = 8.0) -> bool:
    """Poll ``check`` (a sync function, run off the loop) until it holds or time is up."""
    for _ in range(int(seconds / 0.1)):
        if await sync_to_async(check)():
            return True
        await asyncio.sleep(0.1)
    return False


async def test_an_owner_expires_a_waiting_list_offer_on_its_own_clock(monkeypatch):
    """Issue 18: the sweeper leaves an owned table alone; its owner expires the offer itself."""
    monkeypatch.setattr("lobby.actions.waiting.WAITING_OFFER_SECONDS", 0.5)
    swept = []
    monkeypatch.setattr("lobby.sweeps.waiting_offers_sweep", lambda: swept.append(1) or 0)

    @sync_to_async
    def full_table_and_a_queue():
        users = [funded_player() for _ in range(3)]
        table = scopa_table()
        seat_players(table, users[:2])  # a match waits for both to be ready: no hand runs
        return table, users, session_cookie(users[2])

    table, users, cookie = await full_table_and_a_queue()
    ws = await connect(table, cookie)  # a spectator: the owner starts
    await ws.receive_json_from(timeout=10)
    call = sync_to_async(thread_sensitive=False)
    await call(door.waiting_join)(table_id=table.pk, user=users[2])
    await call(door.table_leave)(table_id=table.pk, user=users[0])  # the seat is offered to users[2]
    assert await sync_to_async(WaitingEntry.objects.filter(user=users[2], offered_seat=1).exists)()
    assert await eventually(lambda: not WaitingEntry.objects.filter(table=table).exists())
    assert swept == []
    await ws.disconnect()


async def test_an_owner_stands_up_a_player_sitting_out_too_long(monkeypatch):
    monkeypatch.setitem(seating.STAND_UP_RULES, "poker5", (10, 1))  # P15's 10 minutes, here 1 s

    @sync_to_async
    def table_with_one_sitting_out():
        users = [funded_player() for _ in range(2)]
        table = poker_table()
        seat_players(table, users)
        door.table_sitout(table_id=table.pk, user=users[0], sitout=True)  # one playing: no hand
        return table, users, [session_cookie(u) for u in users]

    table, users, cookies = await table_with_one_sitting_out()
    before = await sync_to_async(lambda: credit_and_conto(users[0]))()
    ws = await connect(table, cookies[1])  # the owner starts, its clock set for the stand-up
    await ws.receive_json_from(timeout=10)
    assert await eventually(lambda: not Seat.objects.filter(table=table, user=users[0]).exists())
    # stood up with the whole credit back on the conto
    assert await sync_to_async(lambda: credit_and_conto(users[0]))() == before
    await ws.disconnect()


def credit_and_conto(user) -> int:
    seat = Seat.objects.filter(user=user).first()
    return balance_get(user=user)["cash"] + (credit(seat) if seat else 0)


async def test_a_blocked_player_leaves_through_the_owner_after_its_decisions():
    """Suspension / self-exclusion (``hooks.player_blocked``, inside the status change's
    transaction) at an owned table holding decisions in memory: the owner is parked, the row
    brought up to date, the player sat out of the hand, and the new version sent after commit."""
    table, users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    actor = next(i for i, m in enumerate(snaps) if m["seat"] in m["to_act"])
    action = legal_move(snaps[actor], random.Random(2), avoid=("passo", "passo_parol", "sitout"))
    await sockets[actor].send_json_to({"type": "act", "action": action, "version": snaps[0]["version"]})
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    owner = owners.local_owner(table.pk)
    assert owner is not None and owner.dirty

    @sync_to_async(thread_sensitive=False)
    def block(user):
        with transaction.atomic():
            hooks.player_blocked(user)

    await block(users[0])
    after = [await ws.receive_json_from(timeout=10) for ws in sockets]
    assert all(m["version"] > snaps[0]["version"] for m in after)
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert seat.leave_after_hand and seat.status == Seat.Status.SITOUT
    rt = await sync_to_async(row)(table)
    assert rt.version == owner.rt.version and rt.state == owner.rt.state
    steps = await sync_to_async(list)(
        HandStep.objects.filter(hand__table=table).values_list("version", flat=True)
    )
    assert len(steps) == len(set(steps))
    for ws in sockets:
        await ws.disconnect()


def refuse_once(monkeypatch, holder, name: str) -> list[str]:
    """``holder.name`` (a read of the owner's load) refused once by the database, as SQLite's
    shared cache refuses a read under another connection's write; returns the refusals."""
    read = getattr(holder, name)
    refusals: list[str] = []

    def refused(*args):
        if not refusals:
            refusals.append(name)
            raise OperationalError("database table is locked")
        return read(*args)

    monkeypatch.setattr(holder, name, refused)
    return refusals


def committed_seats(table) -> list[tuple[int, bool]]:
    return list(
        Seat.objects.filter(table=table).order_by("number").values_list("user_id", "leave_after_hand")
    )


async def holds_the_committed_table(owner, table) -> None:
    rt = await sync_to_async(row)(table)
    assert (owner.rt.version, owner.rt.state) == (rt.version, rt.state)
    assert [(s.user_id, s.leave_after_hand) for s in owner.seats] == await sync_to_async(committed_seats)(
        table
    )


@pytest.mark.parametrize(
    "holder, name", [(TableOwner, "_read_row"), (owner_module, "seat_rows")], ids=["row", "seats"]
)
async def test_a_read_back_the_database_refuses_is_read_again_before_the_next_job(monkeypatch, holder, name):
    """After a sync caller's write the parked owner reads its row back; the database refuses that
    read once (SQLite's shared cache refuses a read under another connection's write, PostgreSQL's
    connection may drop). The owner reads it again rather than going on with the state from before
    the write: everyone gets the new version, and the owner holds the committed row and seats."""
    table, _users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await ws.receive_json_from(timeout=10) for ws in sockets]
    owner = owners.local_owner(table.pk)
    assert owner is not None
    refusals = refuse_once(monkeypatch, holder, name)
    newcomer = await sync_to_async(funded_player)()
    await sync_to_async(door.table_sit, thread_sensitive=False)(
        table_id=table.pk, user=newcomer, seat_no=3, buy_in=10_000, idempotency_key="sit-read-again"
    )
    after = [await receive_frame(ws, timeout=10) for ws in sockets]
    assert refusals == [name]
    assert all(m["version"] == snaps[0]["version"] + 1 and len(m["seats"]) == 3 for m in after)
    await holds_the_committed_table(owner, table)
    for ws in sockets:
        await ws.disconnect()


async def test_a_row_action_whose_read_back_is_refused_leaves_the_next_job_to_read_it_first(monkeypatch):
    """A row action of the owner commits and its read of the seats written is refused: the caller
    gets the error, and the owner's next job first reads the committed row and seats back."""
    table, users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    await asyncio.gather(*(ws.receive_json_from(timeout=10) for ws in sockets))
    owner = owners.local_owner(table.pk)
    assert owner is not None
    refusals = refuse_once(monkeypatch, owner_module, "seat_rows")
    with pytest.raises(OperationalError):
        await owner.call(seating.table_leave_next, table_id=table.pk, user=users[0], leave=True)
    assert refusals == ["seat_rows"] and owner.unread
    assert await sync_to_async(committed_seats)(table) != [
        (s.user_id, s.leave_after_hand) for s in owner.seats
    ]
    await owner.submit(lambda: asyncio.sleep(0))  # any job
    assert not owner.unread
    await holds_the_committed_table(owner, table)
    for ws in sockets:
        await ws.disconnect()


async def test_a_park_failing_after_it_answered_its_caller_is_logged(monkeypatch, caplog):
    """A park answers its caller once the owner has parked; a failure after that (its read-back
    finding the table closed) has no caller to reach: it is logged, never lost in silence."""
    table, _users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    await asyncio.gather(*(ws.receive_json_from(timeout=10) for ws in sockets))
    owner = owners.local_owner(table.pk)
    assert owner is not None
    read_back = owner._read_back
    failed = []

    async def closed_once():
        if not failed:
            failed.append(True)
            raise TableClosed()
        await read_back()

    monkeypatch.setattr(owner, "_read_back", closed_once)
    release, _epoch = await owner.park()
    release.set_result(None)
    await owner.submit(lambda: asyncio.sleep(0))  # taken after the park's job ended
    assert failed
    logged = [r for r in caplog.records if "no caller to tell" in r.getMessage()]
    assert len(logged) == 1 and isinstance(logged[0].exc_info[1], TableClosed)
    for ws in sockets:
        await ws.disconnect()
