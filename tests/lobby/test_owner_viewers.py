"""The owner's connections on other processes: a killed process's are forgotten.

A connection on another process joins the table's owner over the Channels layer
(``RemoteOwner.join``); that process's heartbeat names its open connections to the owner each
beat (``remote.still_joined``), and the owner's heartbeat forgets those no beat named for three
beats (``remote.drop_silent``): a process killed with SIGKILL never says goodbye. Here the "other
process" is this one, through the same layer and inbox; the clocks are explicit cut-offs.
"""

import asyncio
import json
import random
from types import SimpleNamespace

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer

from lobby import door, owners, presence
from lobby.models import TableRuntime
from lobby.runtime import remote
from lobby.runtime.journal import Journal
from tests.lobby.test_owner_runtime import connect, legal_move, owner_clocks, setup_table  # noqa: F401  # the fixture
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)


async def view_on(channel: str, newer_than: int) -> dict:
    """The next view the owner relayed to this channel past a version."""
    layer = get_channel_layer()
    async with asyncio.timeout(10):
        while True:
            message = await layer.receive(channel)
            if message["type"] == "table.text" and message["version"] > newer_than:
                return json.loads(message["text"])


async def test_the_owner_forgets_the_connections_of_a_process_that_stopped_beating():
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])  # the owner, in this process
    await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    inbox = await remote.inbox()
    layer = get_channel_layer()
    spectator = await sync_to_async(funded_player)()
    # two connections of "other processes": a player's and a spectator's
    live = remote.RemoteOwner(table.pk, inbox, await layer.new_channel("specific."))
    dead = remote.RemoteOwner(table.pk, inbox, await layer.new_channel("specific."))
    first = await live.join(users[1].pk)
    await dead.join(spectator.pk)
    assert {v.channel for v in owner.remote_viewers.values()} == {live.viewer, dead.viewer}

    cutoff = asyncio.get_running_loop().time()
    # the live one's process beats (its connection named), the dead one's was killed (silence)
    await remote.still_joined([SimpleNamespace(remote=live, table_id=table.pk, user=users[1])])
    await live.snapshot(users[1].pk)  # served after the beat's message: the owner has heard it
    assert remote.drop_silent(owner, before=cutoff) == 1
    assert list(owner.remote_viewers) == [live.viewer]
    assert spectator.pk not in owner.audience.by_user
    assert any(getattr(v, "channel", None) == live.viewer for v in owner.audience.by_user[users[1].pk])

    # the next version goes to the live connection as before
    await owner.call(door.table_sitout, table_id=table.pk, user=users[0], sitout=True)
    seen = await view_on(live.viewer, first["version"])
    assert seen["version"] == owner.version() and seen["seat"] is not None

    # a connection dropped after a late beat (a loaded process) joins again on the next, resynced
    await remote.still_joined([SimpleNamespace(remote=dead, table_id=table.pk, user=spectator)])
    again = await view_on(dead.viewer, 0)
    assert again["version"] == owner.version() and again["seat"] is None
    assert spectator.pk in owner.audience.by_user
    await ws.disconnect()


async def beat_with(connection) -> None:
    """One heartbeat of this process with one more connection open (a stand-in)."""
    presence._open[connection] = None
    try:
        await presence.beat()
    finally:
        presence._open.pop(connection, None)


async def a_decision_in_memory(table, users, owner, lags: bool = True) -> None:
    """A player decides through the owner: the step journaled, the row left behind (no snapshot;
    ``lags``: nothing else wrote the row meanwhile)."""
    views = {u.pk: owner.snapshot(u.pk) for u in users}
    actor = next(u for u in users if views[u.pk]["seat"] in views[u.pk]["to_act"])
    action = legal_move(views[actor.pk], random.Random(4), avoid=("passo", "passo_parol", "sitout"))
    await owner.act(actor, action, views[actor.pk]["version"])
    row = await sync_to_async(lambda: TableRuntime.objects.get(pk=table.pk).version)()
    assert owner.published == owner.version()
    assert row < owner.published or not lags  # the row lags the journal


async def test_a_relayed_connection_beats_with_the_owners_version_not_the_lagging_row():
    """The heartbeat of a connection relayed to an owner elsewhere: the version the owner sent,
    from the owner (the row its process can read lags between snapshots; behind the owner's
    version, the client asks ``sync`` and gets the views it missed)."""
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])  # the owner, in this process
    await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    layer = get_channel_layer()
    relayed = remote.RemoteOwner(table.pk, await remote.inbox(), await layer.new_channel("specific."))
    await relayed.join(users[1].pk)
    await a_decision_in_memory(table, users, owner)
    told = []

    class Relayed:  # a table consumer of this process relayed to that owner, as the beat sees it
        table_id, socket_id, remote, user = table.pk, None, relayed, users[1]

        async def heartbeat(self, version: int) -> None:  # what this process's beat tells it
            told.append(version)

    await beat_with(Relayed())
    async with asyncio.timeout(10):
        while True:  # what its owner tells it on hearing the beat (the consumer's ``table_version``)
            message = await layer.receive(relayed.viewer)
            if message["type"] == "table.version":
                told.append(message["version"])
                break
    assert told == [owner.published]
    await ws.disconnect()


async def test_the_heartbeat_never_announces_a_version_still_being_journaled(monkeypatch):
    """A beat while the owner waits for a step's commit: the version before it (sent, committed)."""
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    shown = await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    journaling, go_on = asyncio.Event(), asyncio.Event()
    append = Journal.append

    async def slow_append(self, step):
        journaling.set()
        await go_on.wait()
        await append(self, step)

    monkeypatch.setattr(Journal, "append", slow_append)
    deciding = asyncio.ensure_future(a_decision_in_memory(table, users, owner))
    await journaling.wait()
    assert owner.version() == shown["version"] + 1  # applied in memory, not committed yet
    monkeypatch.setattr(presence, "beat_seconds", lambda: 0.0)  # the socket idle: it is beaten
    await presence.beat()
    beat = await ws.receive_json_from(timeout=10)
    assert beat == {"type": "table.version", "version": shown["version"]}
    go_on.set()
    await deciding
    await ws.disconnect()


async def test_a_view_asked_while_a_step_is_journaled_waits_for_its_commit(monkeypatch):
    """Durable before visible, for views asked rather than sent: a ``sync``, a new connection and
    a relayed connection's ``snapshot`` while a decision waits for its commit get no view of it
    before that commit."""
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    shown = await ws.receive_json_from(timeout=10)
    owner = owners.local_owner(table.pk)
    assert owner is not None
    relayed = remote.RemoteOwner(
        table.pk, await remote.inbox(), await get_channel_layer().new_channel("specific.")
    )
    journaling, go_on = asyncio.Event(), asyncio.Event()
    append = Journal.append
    committed = []

    async def slow_append(self, step):
        journaling.set()
        await go_on.wait()
        await append(self, step)
        committed.append(step.version)

    monkeypatch.setattr(Journal, "append", slow_append)
    deciding = asyncio.ensure_future(a_decision_in_memory(table, users, owner, lags=False))
    await journaling.wait()
    await ws.send_json_to({"type": "sync", "version": shown["version"]})
    late = await connect(table, cookies[1])
    asked = asyncio.ensure_future(relayed.snapshot(users[1].pk))
    await asyncio.sleep(0.5)
    seen = []
    for s in (ws, late):
        while not await s.receive_nothing(timeout=0.2):
            message = await s.receive_json_from()
            if message["type"] == "table.state":
                seen.append(message["version"])
    if asked.done():
        seen.append(asked.result()["version"])
    assert committed == [] and all(v == shown["version"] for v in seen), seen
    go_on.set()
    await deciding
    assert (await asked)["version"] == shown["version"] + 1 == committed[0]
    for s in (ws, late):
        await s.disconnect()
