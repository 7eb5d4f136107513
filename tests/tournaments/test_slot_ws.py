"""The slot tournament over the wire (``/ws/torneo/<id>/slot/``): the player's own view only, his
actions applied, bad input refused with codes and the connection kept, the standings every 5 s,
reconnection to the current view."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.slot import engine
from piattaforma import roles
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.tournaments.test_slot import started
from tests.wallet.factories import funded_player
from tournaments import consumers
from tournaments.models import SlotSession

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def setup():
    t, players = started(UserFactory(role=roles.STAFF), 2)
    return t, players, [session_cookie(u) for u in players]


@sync_to_async
def stored(t, user) -> SlotSession:
    return SlotSession.objects.get(tournament=t, user=user)


async def connect(t, cookie) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, f"/ws/torneo/{t.pk}/slot/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect()
    assert connected
    return ws


async def test_his_view_only_and_his_actions_applied():
    t, (me, other), (mine, theirs) = await setup()
    ws = await connect(t, mine)
    snap = await ws.receive_json_from(timeout=5)
    s = await stored(t, me)
    assert snap["type"] == "slot.view" and snap["version"] == s.version == 0
    assert snap["view"] == engine.view(s.state) and "journal" not in snap["view"]
    assert snap["standings"]["entrants"] == 2 and snap["standings"]["position"] == 1
    await ws.send_json_to({"type": "act", "action": {"type": "gira", "amount": 3}, "version": 0})
    out = await ws.receive_json_from(timeout=5)
    s = await stored(t, me)
    assert out["type"] == "slot.result" and out["version"] == s.version == 1
    assert out["view"] == engine.view(s.state) and out["events"][0]["bet"] == 90
    # the other player's session did not move, and his socket shows only his own
    other_ws = await connect(t, theirs)
    their_snap = await other_ws.receive_json_from(timeout=5)
    assert their_snap["version"] == 0 and their_snap["view"]["spins"] == 0
    assert their_snap["view"] == engine.view((await stored(t, other)).state)
    assert await ws.receive_nothing(timeout=0.2)
    await ws.disconnect()
    await other_ws.disconnect()


async def test_bad_input_refused_with_codes_and_the_connection_kept():
    t, (me, _other), (mine, _theirs) = await setup()
    ws = await connect(t, mine)
    await ws.receive_json_from(timeout=5)
    cases = [
        ({"type": "act", "action": {"type": "gira", "amount": 0}, "version": 0}, "bet_out_of_range"),
        ({"type": "act", "action": {"type": "gira", "amount": 1}, "version": 7}, "stale_version"),
        ({"type": "act", "action": {"type": "porta", "door": 9}, "version": 0}, "no_choice_pending"),
        ({"type": "act", "action": "gira", "version": 0}, "unknown_action"),
        ({"type": "act", "action": {"type": "gira", "amount": 1}}, "bad_message"),
        ({"type": "spin"}, "unknown_type"),
    ]
    for message, code in cases:
        await ws.send_json_to(message)
        reply = await ws.receive_json_from(timeout=5)
        assert reply["type"] == "error" and reply["code"] == code, (message, reply)
        assert reply["message"]
    s = await stored(t, me)
    assert s.version == 0 and s.state["spins"] == 0 and s.credit == s.state["start_credit"]
    await ws.send_json_to({"type": "sync"})
    assert (await ws.receive_json_from(timeout=5))["type"] == "slot.view"
    await ws.disconnect()


async def test_a_non_entrant_is_refused():
    t, _players, _cookies = await setup()
    outsider = await sync_to_async(funded_player)()
    ws = WebsocketCommunicator(
        application,
        f"/ws/torneo/{t.pk}/slot/",
        headers=[ORIGIN, (b"cookie", await sync_to_async(session_cookie)(outsider))],
    )
    connected, _ = await ws.connect()
    assert connected  # accepted, then closed: he has no session here
    closed = await ws.receive_output(timeout=5)
    assert closed["type"] == "websocket.close" and closed["code"] == consumers.CLOSE_NOT_ENTRANT


async def test_standings_pushed_and_reconnection_gets_the_current_view(monkeypatch):
    monkeypatch.setattr(consumers, "STANDINGS_EVERY_S", 0.05)
    t, (me, _other), (mine, _theirs) = await setup()
    ws = await connect(t, mine)
    await ws.receive_json_from(timeout=5)
    table = await ws.receive_json_from(timeout=5)
    assert table["type"] == "slot.standings"
    assert table["entrants"] == 2 and table["position"] == 1 and len(table["best"]) == 2
    assert 0 < table["seconds_left"] <= t.slot_minutes * 60 and table["version"] == 0
    await ws.send_json_to({"type": "act", "action": {"type": "gira", "amount": 1}, "version": 0})
    while (await ws.receive_json_from(timeout=5))["type"] != "slot.result":
        pass
    await ws.disconnect()  # the connection drops: the session waits for him
    ws = await connect(t, mine)
    snap = await ws.receive_json_from(timeout=5)
    s = await stored(t, me)
    assert snap["type"] == "slot.view" and snap["version"] == s.version == 1
    assert snap["view"] == engine.view(s.state) and snap["view"]["spins"] == 1
    await ws.disconnect()
