"""The owner runtime across real server processes, on PostgreSQL and Redis.

Two Daphne processes on the owner runtime: a table is owned by the process its first connection
reached; a player connected to the other process plays through the Channels layer (his actions
carried to the owner's inbox, his own projection relayed back). Then the owner is killed with
SIGKILL in the middle of a hand: the other process adopts the table once its lease expires, from
the runtime row and the journal, the clients reconnect and resync by version, the decision's clock
goes on with the time that was left, and no action is lost or applied twice. When the other
process is the one killed, the owner forgets its connections, and the beat's sweep drops its
sockets through the owner.
"""

from __future__ import annotations

import asyncio
import json
import random
import time

import pytest
from asgiref.sync import sync_to_async

from lobby import sweeps
from lobby.models import HandStep, Seat, SeatSocket, TableLease, TableRuntime
from tests.lobby.helpers import runtime
from tests.lobby.test_fault_processes import (  # noqa: F401  # procs: the fixture
    WAIT,
    procs,
    production_cookie,
    seated_poker_table,
    until,
    wait_for,
)
from tests.lobby.test_owner_runtime import legal_move
from tests.lobby.test_ws_play import hidden_cards_of_others

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

LEASE = 2.0  # seconds an owner's lease lasts without renewal (the heartbeat renews it every 0.5 s)


@pytest.fixture
def owner_procs(procs):  # noqa: F811
    procs.env.update({"LOBBY_LEASE_SECONDS": str(LEASE)})
    return procs


async def open_table(port: int, table_id: int, cookie: str):
    """A table socket and the first view it receives."""
    import websockets

    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
        additional_headers=[("Cookie", cookie), ("Origin", "http://127.0.0.1")],
        open_timeout=WAIT,
    )
    return ws, await until(ws, lambda m: m["type"] == "table.state")


async def reconnect(port: int, table_id: int, cookie: str):
    """Open a table socket until one stays open (4409: the owner is being taken over), as the client."""
    import websockets

    async with asyncio.timeout(WAIT):
        while True:
            try:
                return await open_table(port, table_id, cookie)
            except (websockets.ConnectionClosed, OSError):
                await asyncio.sleep(0.2)


def journal_versions(table) -> list[int]:
    return list(HandStep.objects.filter(hand__table=table).order_by("seq").values_list("version", flat=True))


def leaks(payload, rt) -> list[str]:
    """Covered cards of other seats found in a seat's payload."""
    text = json.dumps([payload["view"], payload["legal"]])
    return [c for c in hidden_cards_of_others(rt, payload["seat"]) if f'"{c}"' in text]


async def test_a_player_on_another_process_plays_through_the_owner_and_survives_its_death(owner_procs):
    servers = owner_procs
    table, users = await sync_to_async(seated_poker_table)()
    cookies = [await sync_to_async(production_cookie)(u) for u in users]
    port_a = servers.daphne("daphne-a")
    port_b = servers.daphne("daphne-b")
    first_a, shown_a = await open_table(port_a, table.pk, cookies[0])  # daphne-a owns the table
    lease = await sync_to_async(TableLease.objects.get)(table=table)
    second_b, shown_b = await open_table(port_b, table.pk, cookies[1])  # reaches the owner on daphne-a
    assert await sync_to_async(lambda: TableLease.objects.get(table=table).process)() == lease.process
    assert shown_a["version"] == shown_b["version"] and shown_b["seat"] is not None
    sockets, latest = [first_a, second_b], [shown_a, shown_b]
    rng = random.Random(11)
    through_b = 0
    for _ in range(2):  # two decisions, one of them at least through daphne-b
        version = max(m["version"] for m in latest)
        # the player on daphne-b first when he may act: his decision is carried to daphne-a
        actor = next(
            i for i in (1, 0) if latest[i]["version"] == version and latest[i]["seat"] in latest[i]["to_act"]
        )
        through_b += actor == 1
        action = legal_move(latest[actor], rng, avoid=("passo", "passo_parol", "sitout"))
        await sockets[actor].send(json.dumps({"type": "act", "action": action, "version": version}))
        latest = [
            await until(ws, lambda m, v=version: m["type"] == "table.state" and m["version"] > v)
            for ws in sockets
        ]
        rt = await sync_to_async(runtime)(table)
        for payload in latest:  # each process relays only the seat's own projection
            assert payload["version"] == version + 1
            assert not leaks(payload, rt)
    before = latest[0]
    assert not before.get("over") and through_b >= 1
    assert (await sync_to_async(runtime)(table)).version == before["version"]  # the journal has it
    row_version = await sync_to_async(lambda: TableRuntime.objects.get(pk=table.pk).version)()
    assert row_version < before["version"]  # between snapshots the row lags: the journal holds the steps

    killed = time.monotonic()
    servers.kill("daphne-a")  # SIGKILL the owner mid-hand: no snapshot, no lease given back
    for ws in sockets:
        await ws.close()
    ws_first, first = await reconnect(port_b, table.pk, cookies[0])  # daphne-b adopts the table
    took_over = time.monotonic() - killed
    print(f"failover: {took_over:.2f} s from SIGKILL to the first view from the new owner")
    heir = await sync_to_async(lambda: TableLease.objects.get(table=table))()
    assert heir.process != lease.process and heir.channel != lease.channel
    # the client resyncs at the version it saw last: nothing lost, the clock left as it was
    assert first["version"] == before["version"] and first["view"] == before["view"]
    assert first["deadline"] == before["deadline"]
    ws_second, second = await reconnect(port_b, table.pk, cookies[1])
    assert second["version"] == before["version"]
    # play goes on under the new owner; the journal holds every version once
    now = [first, second]
    actor = next(i for i, m in enumerate(now) if m["seat"] in m["to_act"])
    action = legal_move(now[actor], rng, avoid=("passo", "passo_parol", "sitout"))
    ws = [ws_first, ws_second][actor]
    await ws.send(json.dumps({"type": "act", "action": action, "version": before["version"]}))
    after = await until(ws, lambda m: m["type"] == "table.state" and m["version"] > before["version"])
    assert after["version"] == before["version"] + 1
    versions = await sync_to_async(journal_versions)(table)
    assert len(versions) == len(set(versions)) and versions[-1] == after["version"]
    for s in (ws_first, ws_second):
        await s.close()


async def test_the_owner_forgets_the_connections_of_a_killed_process(owner_procs):
    servers = owner_procs
    table, users = await sync_to_async(seated_poker_table)()
    cookies = [await sync_to_async(production_cookie)(u) for u in users]
    port_a = servers.daphne("daphne-a")
    port_b = servers.daphne("daphne-b")
    first_a, _ = await open_table(port_a, table.pk, cookies[0])  # daphne-a owns the table
    second_b, _ = await open_table(port_b, table.pk, cookies[1])  # joined to it over the layer

    servers.kill("daphne-b")  # SIGKILL: its connection never leaves the owner's audience by itself

    def swept() -> bool:  # the beat's sweep parks the owner on daphne-a and drops daphne-b's socket
        sweeps.presence_sweep()
        return not SeatSocket.objects.filter(seat__user=users[1]).exists()

    await sync_to_async(wait_for)(swept, "the sweep to drop daphne-b's socket through the owner")
    gone = await sync_to_async(Seat.objects.get)(table=table, user=users[1])
    assert gone.connections == 0 and gone.status == Seat.Status.SITOUT
    version = (await sync_to_async(runtime)(table)).version
    await until(first_a, lambda m: m["type"] == "table.state" and m["version"] >= version)
    # no heartbeat of daphne-b names its connection any more: the owner drops it from its audience
    await sync_to_async(wait_for)(
        lambda: "connections of a silent process dropped" in servers.log("daphne-a"),
        lambda: f"daphne-a's owner to drop daphne-b's connection: {servers.log('daphne-a')}",
    )
    await second_b.close()
    await first_a.close()
