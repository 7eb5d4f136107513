"""The table over WebSocket: per-seat projections, versions, resync, bad input refused."""

import pytest
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import registry
from lobby import door
from lobby.consumers import TableConsumer
from lobby.models import HandStep, Seat, SeatSocket
from tests.lobby.factories import poker_table
from tests.lobby.helpers import runtime, seat_players
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def setup_table():
    users = [funded_player() for _ in range(2)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    return table, users, [session_cookie(u) for u in users]


async def connect(table, cookie):
    ws = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect()
    assert connected
    return ws


async def next_state(ws, version_above: int):
    while True:
        msg = await ws.receive_json_from(timeout=5)
        if msg["type"] == "table.state" and msg["version"] > version_above:
            return msg


async def test_players_get_their_own_projection_and_live_updates():
    table, users, cookies = await setup_table()
    engine = registry.get("poker5")
    sockets = [await connect(table, c) for c in cookies]
    snaps = [await s.receive_json_from(timeout=5) for s in sockets]
    rt = await sync_to_async(runtime)(table)
    for user, snap in zip(users, snaps, strict=True):
        seat = await sync_to_async(Seat.objects.get)(table=table, user=user)
        assert snap["seat"] == seat.number and snap["version"] == rt.version
        assert snap["view"] == engine.view(rt.state, seat.number)
        assert snap["legal"] == engine.legal_actions(rt.state, seat.number)
    # the seat to act plays through its socket; both sockets receive the new version
    seat_no = engine.to_act(rt.state)[0]
    actor = next(i for i, s in enumerate(snaps) if s["seat"] == seat_no)
    spec = snaps[actor]["legal"][0]
    action = {k: v for k, v in spec.items() if k not in ("label", "confirm", "amount")}
    if "amount" in spec:
        action["amount"] = spec["amount"]["min"]
    await sockets[actor].send_json_to({"type": "act", "action": action, "version": rt.version})
    updates = [await next_state(s, rt.version) for s in sockets]
    after = await sync_to_async(runtime)(table)
    for update, snap in zip(updates, snaps, strict=True):
        assert update["version"] == after.version
        assert update["view"] == engine.view(after.state, snap["seat"])
    for s in sockets:
        await s.disconnect()


async def test_bad_messages_are_refused_and_change_nothing():
    table, _users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    snap = await ws.receive_json_from(timeout=5)
    before = await sync_to_async(runtime)(table)
    bad = [
        '{"type": "act"}',
        '{"type": "act", "action": "passo"}',
        '{"type": "act", "action": {"type": 3}}',
        '{"type": "act", "action": {"type": "passo"}, "version": "7"}',
        '{"type": "act", "action": {"type": "rilancio", "amount": 1e9}}',
        "[1, 2, 3]",
        "nonsense",
        '{"type": "chat", "text": ' + '"' + "x" * 300 + '"}',
        '{"type": "' + "y" * 5000 + '"}',
    ]
    for text in bad:
        await ws.send_to(text_data=text)
        reply = await ws.receive_json_from(timeout=5)
        assert reply["type"] == "error" and reply["code"] and reply["message"], (text, reply)
    # a replayed/stale version: refused, and a fresh snapshot follows
    await ws.send_json_to({"type": "act", "action": {"type": "passo"}, "version": snap["version"] - 1})
    reply = await ws.receive_json_from(timeout=5)
    assert reply["code"] == "stale_version"
    assert (await ws.receive_json_from(timeout=5))["type"] == "table.state"
    after = await sync_to_async(runtime)(table)
    assert after.version == before.version and after.state == before.state
    assert await sync_to_async(HandStep.objects.count)() == 0
    await ws.disconnect()


async def test_reconnecting_client_resyncs_to_a_consistent_view():
    table, _users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    first = await ws.receive_json_from(timeout=5)
    await ws.disconnect()
    ws = await connect(table, cookies[0])
    again = await ws.receive_json_from(timeout=5)
    # the drop sat him out and coming back cleared it (two new versions); the game is unchanged
    assert again["version"] > first["version"]
    assert {k: again[k] for k in ("seat", "view", "legal", "to_act")} == {
        k: first[k] for k in ("seat", "view", "legal", "to_act")
    }
    await ws.send_json_to({"type": "sync", "version": first["version"]})
    synced = await ws.receive_json_from(timeout=5)
    assert synced["type"] == "table.state" and synced["version"] >= again["version"]
    assert synced["view"] == again["view"]
    await ws.disconnect()


async def test_spectator_gets_the_public_view_only():
    table, _users, _cookies = await setup_table()
    watcher = await sync_to_async(funded_player)()
    ws = await connect(table, await sync_to_async(session_cookie)(watcher))
    snap = await ws.receive_json_from(timeout=5)
    rt = await sync_to_async(runtime)(table)
    assert snap["seat"] is None and snap["legal"] == []
    assert snap["view"] == registry.get("poker5").view(rt.state, None)
    await ws.disconnect()


async def test_a_dropped_connection_sits_a_poker_player_out_and_reentering_brings_him_back():
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=5)
    await ws.disconnect()
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert seat.status == Seat.Status.SITOUT and seat.away and seat.connections == 0
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=5)
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert seat.status == Seat.Status.PLAYING and not seat.away and seat.connections == 1
    await ws.disconnect()


async def test_one_of_two_connections_closing_changes_nothing():
    table, users, cookies = await setup_table()
    first, second = await connect(table, cookies[0]), await connect(table, cookies[0])
    await first.receive_json_from(timeout=5)
    await second.receive_json_from(timeout=5)
    await first.disconnect()
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert seat.status == Seat.Status.PLAYING and seat.connections == 1
    await second.disconnect()


async def test_the_spectator_socket_of_the_page_he_sat_down_from_closing_late_does_not_sit_him_out():
    """The sit-down form reloads the page: its seated socket may open before the old one closes."""
    table, _users, _cookies = await setup_table()
    newcomer = await sync_to_async(funded_player)()
    cookie = await sync_to_async(session_cookie)(newcomer)
    watching = await connect(table, cookie)  # the table page, before sitting down
    await watching.receive_json_from(timeout=5)
    await sync_to_async(seat_players)(table, [newcomer], seat_offset=2)
    seated = await connect(table, cookie)  # the page after the form
    await seated.receive_json_from(timeout=5)
    seat = await sync_to_async(Seat.objects.get)(table=table, user=newcomer)
    assert seat.number == 3 and seat.connections == 1
    await watching.disconnect()  # the old page's socket closes last
    seat = await sync_to_async(Seat.objects.get)(table=table, user=newcomer)
    assert seat.status == Seat.Status.PLAYING and not seat.away and seat.connections == 1
    await seated.disconnect()  # his only counted connection: now he is away
    seat = await sync_to_async(Seat.objects.get)(table=table, user=newcomer)
    assert seat.status == Seat.Status.SITOUT and seat.away and seat.connections == 0


async def test_a_socket_of_a_seat_since_left_does_not_touch_his_new_seat():
    """He stands up between hands with a page still open, sits down again elsewhere: the old socket
    closing later counts for the seat it was opened on, which is gone."""
    users = await sync_to_async(lambda: [funded_player() for _ in range(2)])()
    table = await sync_to_async(poker_table)()
    await sync_to_async(seat_players)(table, users)
    cookie = await sync_to_async(session_cookie)(users[0])
    old = await connect(table, cookie)
    await old.receive_json_from(timeout=5)
    assert (await sync_to_async(door.table_leave)(table_id=table.pk, user=users[0]))["left"]
    again = (await sync_to_async(seat_players)(table, [users[0]], seat_offset=2))[0]
    await old.disconnect()
    again = await sync_to_async(Seat.objects.get)(pk=again.pk)
    assert again.status == Seat.Status.PLAYING and not again.away and again.connections == 0


async def test_a_client_gone_before_its_first_view_closes_as_any_other(monkeypatch):
    """Under load a client may leave between the handshake and its first view, and Daphne raises
    on that send. The frame is dropped and the connection closes as any other (its disconnect
    runs: it leaves its groups), not as a failed application."""
    table, _users, cookies = await setup_table()
    closed = []
    disconnect = TableConsumer.disconnect

    async def counted_disconnect(self, code):
        closed.append(code)
        await disconnect(self, code)

    monkeypatch.setattr(TableConsumer, "disconnect", counted_disconnect)

    async def client_gone(scope, receive, send):
        async def send_to_a_closed_protocol(message):
            if message["type"] == "websocket.send":  # Daphne's, once the client has gone
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, send_to_a_closed_protocol)

    headers = [ORIGIN, (b"cookie", cookies[0])]
    ws = WebsocketCommunicator(client_gone, f"/ws/table/{table.pk}/", headers=headers)
    connected, _ = await ws.connect()
    assert connected
    await ws.disconnect()  # (raises what the application raised, had it failed)
    assert closed == [1000]
    assert await sync_to_async(SeatSocket.objects.filter(seat__table=table).count)() == 0
