"""Floods: one user on several sockets sending tens of thousands of ``sync`` frames, every ``act``
a database transaction. Per-connection and per-user limits: over them a frame is dropped with one
``rate_limited`` reply, and a socket that keeps on is closed with 4429.

Memory under a real flood is measured by ``python -m bench.floodbench``, not here.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from lobby.runtime.owner import TableOwner
from piattaforma import ratelimit
from tests.lobby.test_ws_input import connect, table_facts
from tests.lobby.test_ws_table import setup_table

pytestmark = pytest.mark.django_db(transaction=True)


async def receive_all(ws):
    """Read outputs until the server has been quiet for a second: the errors seen and the close code."""
    errors, code = [], None
    while not await ws.receive_nothing(timeout=1.0):
        out = await ws.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            code = out.get("code")
        elif (msg := json.loads(out["text"]))["type"] == "error":
            errors.append(msg["code"])
    return errors, code


async def test_a_flooding_socket_gets_one_error_then_is_closed(monkeypatch):
    monkeypatch.setattr(ratelimit, "CONNECTION_RATE", 0.001)  # no refill during the test
    monkeypatch.setattr(ratelimit, "CONNECTION_BURST", 5)
    monkeypatch.setattr(ratelimit, "_stores", {settings.REDIS_URL: ratelimit.LocalUserStore(burst=1_000)})
    table, _users, cookies = await setup_table()
    calls = []
    real_owner_act = TableOwner.act  # an action reaches the table's owner

    async def counted(self, *args, **kwargs):
        calls.append(1)
        return await real_owner_act(self, *args, **kwargs)

    monkeypatch.setattr(TableOwner, "act", counted)
    ws = await connect(f"/ws/table/{table.pk}/", cookies[0])
    await ws.receive_json_from(timeout=5)
    before = await table_facts(table)
    flood = {"type": "act", "action": {"type": "passo"}, "version": 0}  # stale: changes nothing
    for _ in range(5 + ratelimit.MAX_STRIKES + 1):
        await ws.send_json_to(flood)
    errors, code = await receive_all(ws)
    assert code == ratelimit.CLOSE_RATE_LIMITED
    assert errors.count("rate_limited") == 1  # one reply for the whole run of dropped frames
    assert len(calls) == 5  # only the frames within the limit reached an action (a transaction)
    assert errors.count("stale_version") == 5
    assert await table_facts(table) == before


def test_a_socket_that_slows_down_after_the_error_is_not_closed():
    bucket, strikes = ratelimit.Bucket(rate=1.0, burst=2), ratelimit.Strikes()
    assert [strikes.verdict(bucket.take(0.0)) for _ in range(3)] == ["ok", "ok", "refused"]
    # he waited: the bucket refilled, the run of refusals is over
    assert strikes.verdict(bucket.take(1.5)) == "ok" and strikes.run == 0
    verdicts = [strikes.verdict(bucket.take(1.5)) for _ in range(ratelimit.MAX_STRIKES + 1)]
    assert verdicts[-1] == "close" and set(verdicts[:-1]) == {"refused"}
    assert (strikes.accepted, strikes.refused) == (3, ratelimit.MAX_STRIKES + 2)


async def test_frames_waiting_for_a_slow_consumer_are_bounded(monkeypatch):
    """The backlog: however fast frames come, at most MAX_BACKLOG wait for the consumer."""
    import asyncio

    from lobby.consumers import TableConsumer

    monkeypatch.setattr(ratelimit, "CONNECTION_BURST", 1_000)
    monkeypatch.setattr(ratelimit, "MAX_BACKLOG", 3)
    monkeypatch.setattr(ratelimit, "_stores", {settings.REDIS_URL: ratelimit.LocalUserStore(burst=1_000)})
    table, _users, cookies = await setup_table()
    ws = await connect(f"/ws/table/{table.pk}/", cookies[0])
    await ws.receive_json_from(timeout=5)
    real = TableConsumer.send_snapshot

    async def slow_snapshot(self):
        await asyncio.sleep(0.1)
        await real(self)

    monkeypatch.setattr(TableConsumer, "send_snapshot", slow_snapshot)
    for _ in range(20):
        await ws.send_json_to({"type": "sync"})
    replies = []
    while not await ws.receive_nothing(timeout=0.5):
        replies.append(await ws.receive_json_from(timeout=5))
    states = [r for r in replies if r["type"] == "table.state"]
    assert [r["code"] for r in replies if r["type"] == "error"] == ["rate_limited"]
    assert 1 <= len(states) <= 3 + 1  # the one being handled and the backlog; the rest dropped
    await ws.disconnect()


async def test_the_in_process_user_store_forgets_idle_users():
    store = ratelimit.LocalUserStore(rate=10, burst=20)
    for user_id in range(5):
        assert await store.take(user_id)
    store.prune(now=store.buckets[0].stamp + 10)  # refilled long ago: nothing to remember
    assert store.buckets == {}


def user_store_for_test(rate):
    """A store that refills nothing during a test: in-process, or Redis when the suite runs on it."""
    if settings.REDIS_URL:
        return ratelimit.RedisUserStore(settings.REDIS_URL, rate=rate)
    return ratelimit.LocalUserStore(rate=0.001, burst=rate)


async def test_the_user_limit_holds_across_his_sockets(monkeypatch):
    monkeypatch.setattr(ratelimit, "CONNECTION_BURST", 1_000)
    store = user_store_for_test(6)
    monkeypatch.setattr(ratelimit, "_stores", {settings.REDIS_URL: store})
    table, _users, cookies = await setup_table()
    sockets = [await connect(f"/ws/table/{table.pk}/", cookies[0]) for _ in range(4)]
    for ws in sockets:
        await ws.receive_json_from(timeout=5)
    for ws in sockets:  # 4 x 4 = 16 frames, each socket far under its own limit
        for _ in range(4):
            await ws.send_json_to({"type": "sync"})
    served = refused = 0
    for ws in sockets:
        while not await ws.receive_nothing(timeout=0.3):
            reply = await ws.receive_json_from(timeout=5)
            served += reply["type"] == "table.state"
            refused += reply.get("code") == "rate_limited"
        await ws.disconnect()
    # 6 a window (a Redis window may turn over once during the test: 12 at most)
    assert 6 <= served <= 12 and refused >= 1


async def test_an_other_users_flood_does_not_limit_me(monkeypatch):
    monkeypatch.setattr(ratelimit, "CONNECTION_BURST", 1_000)
    monkeypatch.setattr(ratelimit, "_stores", {settings.REDIS_URL: user_store_for_test(3)})
    table, _users, cookies = await setup_table()
    flooder = await connect(f"/ws/table/{table.pk}/", cookies[0])
    me = await connect(f"/ws/table/{table.pk}/", cookies[1])
    await flooder.receive_json_from(timeout=5)
    await me.receive_json_from(timeout=5)
    for _ in range(10):
        await flooder.send_json_to({"type": "sync"})
    await me.send_json_to({"type": "sync"})
    assert (await me.receive_json_from(timeout=5))["type"] == "table.state"
    await flooder.disconnect()
    await me.disconnect()
