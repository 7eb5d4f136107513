"""What one decision costs the server, pinned where a regression would be silent.

A decision over the socket reads nothing from the database (the owner holds the table, the
consumer the user) and writes only its journal step; the fan-out builds what every seat's message
has in common once per version, and each seat's text is still exactly its own projection; the
broadcast of a table without an owner is its public view alone; the per-user
rate limit's window expires in Redis.
"""

import asyncio
import json
import os
import random
import threading
import time

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection, connections
from django.db.backends import utils as db_utils
from django.test.utils import CaptureQueriesContext

from lobby import broadcast, selectors
from lobby.actions import tablerow
from lobby.runtime.fanout import Audience
from piattaforma import ratelimit
from piattaforma.wsframes import encode
from tests.lobby.factories import poker_table
from tests.lobby.helpers import receive_frame, runtime, seat_players
from tests.lobby.test_owner_runtime import connect, legal_move, setup_table
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def owner_clocks(settings):
    settings.LOBBY_SCHEDULE_TASKS = True


class Statements:
    """Every SQL statement run meanwhile, on any thread (the owner's database threads included) and
    on the journal's own connection (PostgreSQL's asynchronous one, not Django's)."""

    def __init__(self, monkeypatch) -> None:
        import psycopg

        self.sql: list[str] = []
        self.lock = threading.Lock()
        real = db_utils.CursorWrapper._execute_with_wrappers

        def spy(cursor, sql, params, many, executor):
            with self.lock:
                self.sql.append(sql)
            return real(cursor, sql, params, many, executor)

        monkeypatch.setattr(db_utils.CursorWrapper, "_execute_with_wrappers", spy)
        execute = psycopg.AsyncConnection.execute

        async def journal_spy(conn, query, *args, **kwargs):
            with self.lock:
                self.sql.append(str(query))
            return await execute(conn, query, *args, **kwargs)

        monkeypatch.setattr(psycopg.AsyncConnection, "execute", journal_spy)

    def since(self, start: int) -> list[str]:
        with self.lock:
            # the process heartbeat may renew its leases meanwhile: not the decision's
            return [s for s in self.sql[start:] if "lobby_tablelease" not in s]


async def settled(ws):
    """The last view a socket got once its connection's own work (counted, chat history) is done."""
    latest = await ws.receive_json_from(timeout=10)
    while not await ws.receive_nothing(timeout=0.5):
        msg = await ws.receive_json_from(timeout=10)
        latest = msg if msg["type"] == "table.state" else latest
    return latest


async def test_a_decision_over_the_socket_reads_nothing_and_writes_only_its_journal_step(monkeypatch):
    table, _users, cookies = await setup_table()
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await settled(ws) for ws in sockets]
    assert snaps[0]["version"] == snaps[1]["version"]
    actor = next(i for i, m in enumerate(snaps) if m["seat"] in m["to_act"])
    action = legal_move(snaps[actor], random.Random(3), avoid=("fold",))
    statements = Statements(monkeypatch)
    checks = []  # CONN_HEALTH_CHECKS: a "SELECT 1" round trip, run outside the cursor wrappers
    wrapper = type(connections["default"])
    usable = wrapper.is_usable
    monkeypatch.setattr(wrapper, "is_usable", lambda conn: checks.append(1) or usable(conn))
    await sockets[actor].send_json_to({"type": "act", "action": action, "version": snaps[actor]["version"]})
    for ws in sockets:  # the decision is done once every seat has its view of it
        view = await ws.receive_json_from(timeout=10)
        assert view["type"] == "table.state" and view["version"] == snaps[0]["version"] + 1
    sql = statements.since(0)
    # no user, session, seat, table or permission read per message: only the step's INSERT
    # (with its own transaction's statements where the database needs one)
    assert [s for s in sql if "handstep" in s.lower()], sql
    assert not [s for s in sql if s.lstrip()[:6].upper() == "SELECT"], sql
    assert checks == []  # the journal's batch is not preceded by a connection health check
    assert all(
        "handstep" in s.lower() or s.split()[0].upper() in ("BEGIN", "COMMIT", "SAVEPOINT", "RELEASE")
        for s in sql
    ), sql
    for ws in sockets:
        await ws.disconnect()


class Socket:
    def __init__(self) -> None:
        self.texts: list[str] = []
        self.last_version = 0

    async def send(self, text_data=None, bytes_data=None, close=False) -> None:
        self.texts.append(text_data)


async def three_seats_mid_hand():
    table, users, _cookies = await setup_table(players=3)
    rt = await sync_to_async(runtime)(table)
    return rt, await sync_to_async(lambda: list(selectors.seat_rows(table.pk)))(), users


async def test_the_fan_out_sends_each_seat_exactly_its_own_projection_and_everyone_else_the_public_one():
    rt, seats, users = await three_seats_mid_hand()
    audience = Audience()
    sockets = {u.pk: Socket() for u in users}
    spectator = Socket()
    for user_id, sock in sockets.items():
        audience.add(user_id, sock)
    audience.add(10**9, spectator)
    events = [{"type": "dealt"}]
    await audience.send(rt, seats, events)

    @sync_to_async
    def alone(seat_no):  # each message built on its own, nothing shared with another seat's
        return selectors.table_payload(rt, seats, seat_no, events)

    by_user = {s.user_id: s.number for s in seats}
    views = set()
    for user_id, sock in sockets.items():
        assert sock.texts == [encode(await alone(by_user[user_id]))]
        views.add(json.dumps(json.loads(sock.texts[0])["view"]))
    public = await alone(None)
    public["audience"] = "public"
    assert spectator.texts == [encode(public)]
    assert len(views) == 3  # three different projections: no seat's cards leaked into another's
    assert audience.encoded == 4


async def test_a_seats_legal_actions_are_computed_once_for_its_message(monkeypatch):
    """The engines whose view lists the seat's legal actions (poker's, the giochi a partite's) had
    them computed a second time for the message's ``legal``: now the view's list is reused."""
    from games import registry

    rt, seats, _users = await three_seats_mid_hand()
    engine = registry.get("poker5")
    seat_no = engine.to_act(rt.state)[0]
    expected = engine.legal_actions(rt.state, seat_no)
    calls = []
    real = type(engine).legal_actions

    def counted(self, state, seat):
        calls.append(seat)
        return real(self, state, seat)

    monkeypatch.setattr(type(engine), "legal_actions", counted)
    payload = await sync_to_async(selectors.table_payload)(rt, seats, seat_no, [])
    assert payload["legal"] == payload["view"]["legal"] == expected and expected
    assert calls == [seat_no]


async def test_the_heartbeat_leaves_out_a_socket_its_owner_sent_the_version_just_before(settings):
    """A socket at a table in play gets a view every few seconds from its owner here: a beat on top
    tells it nothing and costs a frame. An idle socket still gets it."""
    from lobby import presence

    settings.LOBBY_HEARTBEAT_SECONDS = 2.0  # left out for half a beat after a frame
    table, _users, cookies = await setup_table(players=2)
    ws = await connect(table, cookies[0])
    shown = await receive_frame(ws, timeout=10)
    await presence.beat()
    assert await ws.receive_nothing(timeout=0.3)  # the snapshot was that version, just now
    await asyncio.sleep(1.1)  # over half a beat with nothing written to it
    await presence.beat()
    assert await ws.receive_json_from(timeout=5) == {"type": "table.version", "version": shown["version"]}
    await ws.disconnect()


async def test_an_unowned_tables_broadcast_is_its_public_view_alone_read_once():
    """A table no owner keeps has no socket of its own (a socket's process starts an owner): its
    group gets the public view, with the between-hands block read once, and no seat's projection."""

    @sync_to_async
    def check():
        users = [funded_player() for _ in range(3)]
        table = poker_table()
        seat_players(table, users)
        rt = runtime(table)  # no hand yet: the message carries the between-hands block
        seats = list(selectors.seat_rows(table.pk))
        family = tablerow.hand_engine(rt).family
        with CaptureQueriesContext(connection) as one:
            selectors.table_waiting(rt, seats, family)
        with CaptureQueriesContext(connection) as all_messages:
            messages = broadcast.table_messages(rt, seats, [])
        assert [group for group, _ in messages] == [broadcast.public_group(table.pk)]
        payload = messages[0][1]["payload"]
        assert payload["seat"] is None and payload["audience"] == "public" and "waiting" in payload
        assert len(all_messages) == len(one)

    await check()


@pytest.mark.skipif(not settings.REDIS_URL, reason="the shared per-user window lives in Redis")
async def test_the_redis_user_window_counts_every_frame_and_expires():
    from redis import asyncio as redis_asyncio

    store = ratelimit.RedisUserStore(settings.REDIS_URL, rate=3)
    user_id = 9_000_000_000 + os.getpid()  # his own window in the shared Redis (per process)
    # at the start of a second, so that the four frames fall in one window
    await asyncio.sleep(1 - time.time() % 1 + 0.01)
    verdicts = [await store.take(user_id) for _ in range(4)]
    assert verdicts == [True, True, True, False]
    client = redis_asyncio.Redis.from_url(settings.REDIS_URL)
    keys = await client.keys(f"ratelimit:ws:{user_id}:*")
    assert len(keys) == 1
    assert 0 < await client.ttl(keys[0]) <= 2  # gone once its window is over
    await client.aclose()
