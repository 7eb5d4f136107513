"""The per-user frame limit in Redis: the frames of one event-loop turn are counted in one
round trip, and the limit stays exact across processes (two stores sharing one Redis)."""

from __future__ import annotations

import asyncio
import itertools
import os
import time

import pytest
from django.conf import settings
from redis import asyncio as redis_asyncio

from piattaforma import ratelimit, resp

needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="the shared per-user window lives in Redis")


# users of their own in the shared Redis: per process (another run, a helper's) and per call
_users = itertools.count(8_000_000_000 + os.getpid() * 1_000)


def a_user() -> int:
    return next(_users)


async def start_of_a_second() -> None:
    """Wait for the start of a second, so that what follows falls in one window."""
    await asyncio.sleep(1 - time.time() % 1 + 0.01)


@pytest.fixture
def redis_commands(monkeypatch):
    """The commands the frame limit's Redis connections send, by name."""
    sent: list[str] = []
    call = resp.Client.call

    async def counting(self, *args):
        sent.append(str(args[0]).upper())
        return await call(self, *args)

    monkeypatch.setattr(resp.Client, "call", counting)
    return sent


@needs_redis
async def test_the_takes_of_one_loop_turn_are_one_redis_command(redis_commands):
    store = ratelimit.RedisUserStore(settings.REDIS_URL, rate=5)
    users = [a_user() for _ in range(4)]
    await store.take(a_user())  # the script is loaded
    redis_commands.clear()
    await start_of_a_second()
    # 4 users x 7 frames, all taken during one turn of the loop
    verdicts = await asyncio.gather(*(store.take(user) for _ in range(7) for user in users))
    assert redis_commands == ["EVALSHA"]
    for i in range(len(users)):
        assert verdicts[i :: len(users)] == [True] * 5 + [False] * 2  # each user's, in the order taken


@needs_redis
async def test_two_processes_sharing_redis_give_a_user_the_limit_once():
    # two stores are two Daphne processes: each its own client and batches, one Redis
    one = ratelimit.RedisUserStore(settings.REDIS_URL, rate=20)
    two = ratelimit.RedisUserStore(settings.REDIS_URL, rate=20)
    user = a_user()
    await start_of_a_second()
    verdicts = []
    for _ in range(3):  # 8 frames on each process a turn
        verdicts += await asyncio.gather(*(store.take(user) for _ in range(8) for store in (one, two)))
    assert len(verdicts) == 48 and verdicts.count(True) == 20  # not 20 per process
    assert verdicts[:16] == [True] * 16


@needs_redis
async def test_the_takes_during_a_round_trip_go_together_in_the_next(redis_commands):
    store = ratelimit.RedisUserStore(settings.REDIS_URL, rate=100)
    await store.take(a_user())
    redis_commands.clear()
    users = [a_user() for _ in range(10)]
    first = asyncio.ensure_future(store.take(users[0]))
    await asyncio.sleep(0)  # its round trip has left
    others = [asyncio.ensure_future(store.take(user)) for user in users for _ in range(3)]
    await asyncio.sleep(0)
    assert await first and await asyncio.gather(*others) == [True] * 30
    assert len(redis_commands) == 2


async def test_redis_down_allows_every_frame_as_before():
    store = ratelimit.RedisUserStore("redis://127.0.0.1:1/0", rate=2)  # nothing listens there
    user = a_user()
    assert await asyncio.gather(*(store.take(user) for _ in range(5))) == [True] * 5
    assert await store.take(user)  # and the next call tries again


async def test_a_take_whose_consumer_went_does_not_stop_the_others():
    store = ratelimit.RedisUserStore(settings.REDIS_URL or "redis://127.0.0.1:1/0", rate=100)
    user = a_user()
    gone = asyncio.ensure_future(store.take(user))
    stays = asyncio.ensure_future(store.take(user))
    await asyncio.sleep(0)
    gone.cancel()
    assert await stays is True


@needs_redis
async def test_a_round_whose_sender_went_is_sent_again():
    store = ratelimit.RedisUserStore(settings.REDIS_URL, rate=100)
    await store.take(a_user())
    user = a_user()
    gone = asyncio.ensure_future(store.take(user))  # sends the round of this turn
    companion = asyncio.ensure_future(store.take(user))
    await asyncio.sleep(0)
    await asyncio.sleep(0)  # the round trip has left
    gone.cancel()
    assert await companion is True
    client = redis_asyncio.Redis.from_url(settings.REDIS_URL)
    counted = [int(await client.get(key)) for key in await client.keys(f"ratelimit:ws:{user}:*")]
    await client.aclose()
    assert 2 <= sum(counted) <= 4  # counted again (twice at worst), never lost


@needs_redis
async def test_a_redis_that_forgot_the_script_is_sent_its_text(redis_commands):
    client = redis_asyncio.Redis.from_url(settings.REDIS_URL)
    store = ratelimit.RedisUserStore(settings.REDIS_URL, rate=5)
    user = a_user()
    await start_of_a_second()
    assert await store.take(user)
    await client.script_flush()  # a restarted Redis: the digest is unknown
    redis_commands.clear()
    assert await asyncio.gather(*(store.take(user) for _ in range(5))) == [True] * 4 + [False]
    assert redis_commands == ["EVALSHA", "EVAL"]
    await client.aclose()


async def test_a_silent_redis_lets_the_frames_through_and_is_dropped(monkeypatch):
    accepted = []

    async def silent(reader, writer):  # takes the connection, never answers
        accepted.append(writer)
        await reader.read()

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    monkeypatch.setattr(ratelimit, "REDIS_TIMEOUT", 0.2)
    store = ratelimit.RedisUserStore(f"redis://127.0.0.1:{port}/0", rate=1)
    user = a_user()
    assert await asyncio.gather(*(store.take(user) for _ in range(3))) == [True] * 3  # none refused
    assert await store.take(user)  # the next round: a new connection, silent too
    assert len(accepted) == 2
    for writer in accepted:
        writer.close()
    server.close()
    await server.wait_closed()
