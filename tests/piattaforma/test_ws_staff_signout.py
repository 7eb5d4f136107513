"""A staff member's open sockets close (4401) as soon as his session ends: signed out by him, by the
idle timeout, or by a reset of his second factor; not only refused at the next connect."""

from __future__ import annotations

import time

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.sessions.backends.db import SessionStore
from django.test import Client
from django.urls import reverse

from config.asgi import application
from piattaforma import roles, twofa
from tests.lobby.factories import poker_table
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def open_socket(path: str, cookie: bytes) -> WebsocketCommunicator:
    ws = WebsocketCommunicator(application, path, headers=[ORIGIN, (b"cookie", cookie)])
    connected, code = await ws.connect(timeout=10)
    assert connected, code
    return ws


async def closed_with(ws: WebsocketCommunicator, *, timeout: float = 10) -> int:
    """Read what the server sends until it closes the socket; return the close code."""
    while True:
        output = await ws.receive_output(timeout=timeout)
        if output["type"] == "websocket.close":
            return int(output["code"])


async def answers_ping(ws: WebsocketCommunicator) -> bool:
    await ws.send_json_to({"type": "ping"})
    while True:
        output = await ws.receive_output(timeout=10)
        if output["type"] == "websocket.close":
            return False
        if '"pong"' in output.get("text", ""):
            return True


def key_of(cookie: bytes) -> str:
    return cookie.decode().partition("=")[2]


@sync_to_async
def staff_sessions(role=roles.STAFF, sessions=1):
    user = UserFactory(role=role)
    return user, [session_cookie(user) for _ in range(sessions)]


@sync_to_async
def sign_out_through_the_page(cookie: bytes) -> None:
    client = Client()
    client.cookies[settings.SESSION_COOKIE_NAME] = key_of(cookie)
    assert client.post(reverse("logout")).status_code == 302
    assert not SessionStore().exists(key_of(cookie))


@pytest.mark.parametrize("role", [roles.STAFF, roles.MODERATORS])
async def test_signing_out_closes_the_sessions_open_sockets_at_once(role):
    _, (cookie, other) = await staff_sessions(role, sessions=2)
    player = await sync_to_async(UserFactory)()
    table = await sync_to_async(poker_table)()
    chat = f"/ws/chat/help/{player.pk}/" if role == roles.STAFF else "/ws/chat/lobby/"
    sockets = [
        await open_socket("/ws/ping/", cookie),
        await open_socket(f"/ws/table/{table.pk}/", cookie),  # watching a table
        await open_socket("/ws/avvisi/", cookie),
        await open_socket(chat, cookie),
    ]
    elsewhere = await open_socket("/ws/ping/", other)  # the same account, another session
    player_socket = await open_socket("/ws/ping/", await sync_to_async(session_cookie)(player))
    assert await answers_ping(sockets[0])

    await sign_out_through_the_page(cookie)
    for ws in sockets:
        assert await closed_with(ws) == twofa.CLOSE_SIGNED_OUT
        await ws.wait()  # the consumer ran its disconnect and ended
    assert await answers_ping(elsewhere)  # only that session's sockets
    assert await answers_ping(player_socket)
    for ws in (elsewhere, player_socket):
        await ws.disconnect()
    # and a new socket of the signed-out session is refused, as before
    refused = WebsocketCommunicator(application, "/ws/avvisi/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await refused.connect(timeout=10)
    if connected:
        assert await closed_with(refused) == 4401
    await refused.disconnect()


async def test_the_idle_timeout_closes_an_open_staff_socket():
    _, (cookie,) = await staff_sessions()

    @sync_to_async
    def nearly_idle():  # its last request 2 seconds short of the timeout
        store = SessionStore(session_key=key_of(cookie))
        store[twofa.SEEN_KEY] = int(time.time()) - settings.TWOFA_IDLE_MINUTES * 60 + 2
        store.save()

    await nearly_idle()
    ws = await open_socket("/ws/ping/", cookie)
    assert await answers_ping(ws)  # live until the timeout
    assert await closed_with(ws, timeout=15) == twofa.CLOSE_SIGNED_OUT
    await ws.wait()


async def test_a_request_keeps_the_socket_open_past_the_first_deadline():
    _, (cookie,) = await staff_sessions()

    @sync_to_async
    def seen(seconds_ago):
        store = SessionStore(session_key=key_of(cookie))
        store[twofa.SEEN_KEY] = int(time.time()) - seconds_ago
        store.save()

    await seen(settings.TWOFA_IDLE_MINUTES * 60 - 2)
    ws = await open_socket("/ws/ping/", cookie)
    assert (await ws.receive_json_from())["type"] == "hello"
    await seen(0)  # a page was requested meanwhile: the session is live for another 15 minutes
    assert await ws.receive_nothing(timeout=4)  # past the first deadline (2 s, checked at 3 s)
    assert await answers_ping(ws)
    await ws.disconnect()


async def test_a_reset_of_the_second_factor_closes_every_socket_of_the_account():
    user, cookies = await staff_sessions(sessions=2)
    colleague = await sync_to_async(UserFactory)(role=roles.STAFF)
    sockets = [await open_socket("/ws/ping/", cookie) for cookie in cookies]
    await sync_to_async(twofa.devices_reset)(actor=colleague, target=user, reason="telefono perso")
    for ws in sockets:
        assert await closed_with(ws) == twofa.CLOSE_SIGNED_OUT
        await ws.wait()
