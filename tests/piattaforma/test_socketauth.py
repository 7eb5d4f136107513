"""Who a WebSocket is (``piattaforma.socketauth``): the handshake's session names the user, checked
as Django checks a request's; a session the user's password change voided, a cookie naming no
session and no cookie are anonymous; nothing is written to the session, and the consumer holds the
user itself."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.models import Session

from config.asgi import application
from piattaforma.consumers import CLOSE_UNAUTHENTICATED
from piattaforma.socketauth import socket_auth
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def greeting(cookie: bytes) -> dict:
    ws = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect()
    assert connected
    hello = await ws.receive_json_from(timeout=5)
    await ws.disconnect()
    return hello


async def test_the_session_names_the_user():
    user = await sync_to_async(UserFactory)(nickname="Ottavio")
    assert await greeting(await sync_to_async(session_cookie)(user)) == {
        "type": "hello",
        "nickname": "Ottavio",
    }


@pytest.mark.parametrize("cookie", ["voided", "unknown", None])
async def test_no_valid_session_is_anonymous(cookie):
    user = await sync_to_async(UserFactory)()
    value = await sync_to_async(session_cookie)(user)
    if cookie == "voided":  # the password changed since the sign-in: the session's hash is stale

        def change_password():
            user.set_password("una-nuova-password-lunga")
            user.save()

        await sync_to_async(change_password)()
    elif cookie == "unknown":
        value = value.split(b"=")[0] + b"=nessunasessione"
    else:
        value = None
    ws = WebsocketCommunicator(
        application, "/ws/ping/", headers=[ORIGIN] + ([(b"cookie", value)] if value else [])
    )
    connected, code = await ws.connect()
    if connected:  # (accepted, then closed by the consumer)
        out = await ws.receive_output(timeout=5)
        code = out.get("code")
    assert code == CLOSE_UNAUTHENTICATED


async def test_the_user_is_resolved_once_and_the_session_is_never_written():
    user = await sync_to_async(UserFactory)()
    cookie = await sync_to_async(session_cookie)(user)
    seen = {}

    async def app(scope, receive, send):
        seen.update(user=scope["user"], session=scope["session"])
        await send({"type": "websocket.close", "code": 1000})

    before = await sync_to_async(
        lambda: list(Session.objects.values_list("session_key", "session_data", "expire_date"))
    )()
    ws = WebsocketCommunicator(socket_auth(app), "/", headers=[(b"cookie", cookie)])
    await ws.connect()
    assert type(seen["user"]) is type(user) and seen["user"].pk == user.pk  # the user, no lazy proxy
    assert seen["session"].session_key == cookie.split(b"=")[1].decode()
    after = await sync_to_async(
        lambda: list(Session.objects.values_list("session_key", "session_data", "expire_date"))
    )()
    assert after == before

    anonymous = WebsocketCommunicator(socket_auth(app), "/", headers=[])
    await anonymous.connect()
    assert isinstance(seen["user"], AnonymousUser)
