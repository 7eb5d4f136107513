"""Whole hands and matches over WebSockets, one family each: money settled, projections exact.

Each seat plays through its own socket. Every message a seat receives is checked for the other
seats' covered cards, and the last state it received must equal a fresh snapshot of its view.
"""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import registry
from games.rng import SeededRng
from lobby import door, selectors
from lobby.models import Hand, Seat
from piattaforma import ratelimit
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import credit, house_rake, runtime, seat_players
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.wallet.factories import funded_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("machine_speed")]


@pytest.fixture
def machine_speed(monkeypatch):
    """These seats play at machine speed, past a person's frame rate: lift the WebSocket limits.

    At the house limits (10 frames/s a socket) a refused ``act`` is answered on the acting seat's
    socket while the loop below waits for the new version on the first seat's: a stall, not a
    failure of the game. The limits themselves are tests/lobby/test_ws_floods.py's subject.
    """
    monkeypatch.setattr(ratelimit, "CONNECTION_RATE", 1e6)
    monkeypatch.setattr(ratelimit, "CONNECTION_BURST", 1e6)
    monkeypatch.setattr(ratelimit, "user_store", lambda: ratelimit.LocalUserStore(rate=1e6, burst=1e6))


def hidden_cards_of_others(rt, seat_no):
    """Cards another seat holds covered right now (engine-specific knowledge, for the check only)."""
    state = rt.state or {}
    if rt.game == "poker5":
        if state.get("phase") in ("mostra", "fine"):
            return set()
        return {c for s, cards in state.get("hands", {}).items() if int(s) != seat_no for c in cards}
    deal = state.get("deal") or {}
    hands = deal.get("hands") or []
    seats = state.get("seats", [])
    return {c for pos, cards in enumerate(hands) if seats[pos] != seat_no for c in cards}


async def play_over_sockets(table, users, rng, max_steps=4000):
    sockets = {}
    for user in users:
        ws = WebsocketCommunicator(
            application,
            f"/ws/table/{table.pk}/",
            headers=[ORIGIN, (b"cookie", await sync_to_async(session_cookie)(user))],
        )
        assert (await ws.connect())[0]
        sockets[user.pk] = ws
    last = {u.pk: await sockets[u.pk].receive_json_from(timeout=5) for u in users}
    watcher = await sync_to_async(funded_player)()
    spectator = WebsocketCommunicator(
        application,
        f"/ws/table/{table.pk}/",
        headers=[ORIGIN, (b"cookie", await sync_to_async(session_cookie)(watcher))],
    )
    assert (await spectator.connect())[0]
    spectator_messages = [await spectator.receive_json_from(timeout=5)]
    engine = None
    for _ in range(max_steps):
        rt = await sync_to_async(runtime)(table)
        engine = registry.get(rt.game)
        if rt.state is None or engine.is_over(rt.state):
            break
        seat_no = engine.to_act(rt.state)[0]
        seat = await sync_to_async(Seat.objects.select_related("user").get)(table=table, number=seat_no)
        action = engine.sample_action(rt.state, seat_no, rng)
        await sockets[seat.user_id].send_json_to({"type": "act", "action": action, "version": rt.version})
        for user in users:  # every socket receives the new version, each its own projection
            while True:
                msg = await sockets[user.pk].receive_json_from(timeout=5)
                assert msg["type"] != "error", msg
                if msg["type"] == "table.state" and msg["version"] >= rt.version + 1:
                    break
            now = await sync_to_async(runtime)(table)
            my_seat = msg["seat"]
            # the current view and choices hold no covered card of another seat (events may name a
            # card played in an earlier smazzata that the new deal gave to someone else: public)
            text = json.dumps([msg["view"], msg["legal"]])
            leaks = [c for c in hidden_cards_of_others(now, my_seat) if f'"{c}"' in text]
            assert not leaks, (my_seat, leaks)
            assert all(e.get("to") is None or my_seat in e["to"] for e in msg["events"])
            last[user.pk] = msg
        while not await spectator.receive_nothing(timeout=0.01):
            msg = await spectator.receive_json_from(timeout=1)
            spectator_messages.append(msg)
            if msg["type"] == "table.state":
                now = await sync_to_async(runtime)(table)
                text = json.dumps([msg["view"], msg["legal"]])
                assert msg["seat"] is None and msg["legal"] == []
                assert not [c for c in hidden_cards_of_others(now, None) if f'"{c}"' in text]
                assert all(e.get("to") is None for e in msg["events"])
    for user in users:
        while await sockets[user.pk].receive_nothing(timeout=0.05) is False:
            msg = await sockets[user.pk].receive_json_from(timeout=1)
            if msg["type"] == "table.state":
                last[user.pk] = msg
        fresh = await sync_to_async(selectors.table_snapshot)(table_id=table.pk, user_id=user.pk)
        # what the seat holds = a fresh view (but the owner's ``acted``, which is not in the row)
        held = {k: v for k, v in last[user.pk].items() if k != "acted"}
        assert {**held, "events": []} == {**fresh, "events": []}
        await sockets[user.pk].disconnect()
    await spectator.disconnect()
    assert len(spectator_messages) > 1  # the spectator followed the hand
    return engine


async def test_a_poker_hand_over_sockets_settles_in_the_ledger():
    users = [await sync_to_async(funded_player)() for _ in range(3)]
    table = await sync_to_async(poker_table)()
    seats = await sync_to_async(seat_players)(table, users)
    await sync_to_async(door.table_start_hand)(table_id=table.pk)
    await play_over_sockets(table, users, SeededRng(31))
    hand = await sync_to_async(Hand.objects.get)(table=table, number=1)
    for seat in seats:
        assert await sync_to_async(credit)(seat) == hand.outcome["chips"][str(seat.number)]
    assert await sync_to_async(house_rake)() == hand.outcome["rake"]


async def test_a_scopa_match_over_sockets_settles_by_c1():
    from games.partite import cash_settlement

    users = [await sync_to_async(funded_player)() for _ in range(2)]
    table = await sync_to_async(scopa_table)()
    seats = await sync_to_async(seat_players)(table, users, buy_in=5_000)
    for user in users:
        await sync_to_async(door.table_ready)(table_id=table.pk, user=user)
    await play_over_sockets(table, users, SeededRng(32))
    hand = await sync_to_async(Hand.objects.get)(table=table, number=1)
    money = cash_settlement(
        hand.outcome, posta_partita=100, posta_unitaria=50, perdita_massima=2_000, rake_bp=500
    )
    credits = {s.number: await sync_to_async(credit)(s) for s in seats}
    assert sum(credits.values()) + money["rake"] == 10_000
    assert await sync_to_async(house_rake)() == money["rake"]
    if money["winner"] is not None:
        assert max(credits.values()) == 5_000 + money["won"]
