"""Hostile WebSocket input: refused, and the connection lives.

A 1,500-level nested message (under 4 KB) or a chat text "\\ud800" must not crash the connection
(close 1011, "Exception inside application").
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings

from config.asgi import application
from lobby import door
from lobby.models import ChatMessage, HandStep, Seat
from piattaforma import ratelimit
from tests.lobby.helpers import runtime
from tests.lobby.test_ws_table import setup_table
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

NESTED = "[" * 1500 + "]" * 1500
HOSTILE = [
    NESTED,  # 3,000 bytes: under the 4 KB cap, past the JSON parser's recursion limit
    '{"type": "act", "action": ' + "{" * 500 + "}" * 500 + "}",
    '{"type": "chat", "text": "\\ud800"}',
    '{"type": "chat", "text": "ciao \\udfff"}',
    '{"type": "chat", "text": "ciao\\u0000"}',  # PostgreSQL text cannot hold NUL
    '{"type": "act", "action": {"type": "passo", "\\ud800": 1}}',
    '{"type": "act", "action": {"type": "punto", "amount": NaN}}',
    '{"type": "act", "action": {"type": "punto", "amount": Infinity}}',
    '{"type": "act", "action": {"type": "punto", "amount": -Infinity}}',
    '{"type": "act", "action": {"type": "punto", "amount": 1e400}}',
    '{"type": "act", "action": {"type": "punto", "amount": ' + "9" * 4000 + "}}",
    '{"type": "act", "action": {"type": "punto", "amount": 99999999999}}',
    '{"type": "act", "action": {"type": "punto", "amount": -100}}',
    '{"type": "act", "action": {"type": "punto", "amount": true}}',
    '{"type": "act", "action": {"type": "punto", "amount": "100"}}',
    '{"type": "act", "action": {"type": "passo"}, "version": ' + "9" * 100 + "}",
    '{"type": "act", "action": {"type": "passo"}, "version": 1.5}',
    '{"type": "sitout", "sitout": "false"}',
    '{"type": "sitout"}',
    '{"type": "chat", "text": ["ciao"]}',
    '{"type": ["act"]}',
    "1",
    "null",
    "true",
    '"act"',
    "[]",
    " ",
    "{",
    '{"type": "sync"' + " " * 5000 + "}",  # over the frame cap
]


async def connect(path, cookie):
    ws = WebsocketCommunicator(application, path, headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect()
    assert connected
    return ws


@pytest.fixture(autouse=True)
def roomy_limits(monkeypatch):
    """These tests send many frames in a row: the rate limits out of their way (test_ws_floods)."""
    monkeypatch.setattr(ratelimit, "CONNECTION_BURST", 1_000)
    monkeypatch.setattr(ratelimit, "_stores", {settings.REDIS_URL: ratelimit.LocalUserStore(burst=1_000)})


@sync_to_async
def table_facts(table):
    rt = runtime(table)
    return {
        "version": rt.version,
        "state": rt.state,
        "steps": HandStep.objects.count(),
        "chat": ChatMessage.objects.count(),
        "seats": sorted(Seat.objects.filter(table=table).values_list("pk", "status", "away")),
    }


async def test_hostile_table_messages_get_an_error_and_the_connection_lives():
    table, _users, cookies = await setup_table()
    ws = await connect(f"/ws/table/{table.pk}/", cookies[0])
    snap = await ws.receive_json_from(timeout=5)
    before = await table_facts(table)
    for text in HOSTILE:
        await ws.send_to(text_data=text)
        reply = await ws.receive_json_from(timeout=5)
        assert reply["type"] == "error" and reply["code"] and reply["message"], (text[:60], reply)
    await ws.send_to(bytes_data=b'{"type": "sync"}')  # binary frames are not part of the protocol
    assert (await ws.receive_json_from(timeout=5))["code"] == "bad_message"
    # still connected and served: a sync answers with the table
    await ws.send_json_to({"type": "sync", "version": snap["version"]})
    assert (await ws.receive_json_from(timeout=5))["type"] == "table.state"
    assert await table_facts(table) == before
    await ws.disconnect()


async def test_the_ping_socket_survives_them_too():
    from tests.piattaforma.factories import UserFactory

    user = await sync_to_async(UserFactory)()
    ws = await connect("/ws/ping/", await sync_to_async(session_cookie)(user))
    await ws.receive_json_from(timeout=5)
    for text in (NESTED, '{"type": "ping", "x": "\\ud800"}', '{"type": "ping", "n": NaN}', "7"):
        await ws.send_to(text_data=text)
        assert (await ws.receive_json_from(timeout=5))["type"] == "error"
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=5)) == {"type": "pong"}
    await ws.disconnect()


async def test_codes_say_what_was_wrong():
    table, _users, cookies = await setup_table()
    ws = await connect(f"/ws/table/{table.pk}/", cookies[0])
    await ws.receive_json_from(timeout=5)
    expected = {
        '{"type": "sync"' + " " * 5000 + "}": "bad_message",
        NESTED: "bad_message",
        '{"type": "act", "action": {"type": "punto", "amount": 99999999999}}': "amount_too_large",
        '{"type": "act", "action": {"type": "punto", "amount": 1.5}}': "invalid_amount",
    }
    for text, code in expected.items():
        await ws.send_to(text_data=text)
        assert (await ws.receive_json_from(timeout=5))["code"] == code
    await ws.disconnect()


async def test_a_wrong_bet_amount_never_reaches_the_engine(monkeypatch):
    table, _users, cookies = await setup_table()
    calls = []
    monkeypatch.setattr(door, "table_act", lambda **kw: calls.append(kw))
    ws = await connect(f"/ws/table/{table.pk}/", cookies[0])
    await ws.receive_json_from(timeout=5)
    for amount in ("1e400", "NaN", "-5", "1.5", "true", '"5"', "100000001"):
        text = '{"type": "act", "action": {"type": "punto", "amount": ' + amount + "}}"
        await ws.send_to(text_data=text)
        assert (await ws.receive_json_from(timeout=5))["type"] == "error"
    assert calls == []
    await ws.disconnect()
