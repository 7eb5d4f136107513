"""Over the table's WebSocket: the author is told why a line was not sent; the others see nothing."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from moderation import actions
from tests.lobby.factories import poker_table
from tests.lobby.helpers import receive_frame, receives_nothing
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def setup():
    actions.watched_list_reset()
    table = poker_table()
    users = [UserFactory(), UserFactory()]
    return table, users, [session_cookie(u) for u in users]


async def connect(table, cookie):
    ws = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=[ORIGIN, (b"cookie", cookie)])
    assert (await ws.connect(timeout=10))[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "table.state"
    return ws


async def test_the_author_is_told_and_the_table_sees_only_clean_lines():
    table, users, cookies = await setup()
    author, other = [await connect(table, c) for c in cookies]
    await author.send_json_to({"type": "chat", "text": "porco dio"})
    error = await receive_frame(author)
    assert (
        error["type"] == "error"
        and error["code"] == "chat_watched"
        and "Messaggio non inviato" in error["message"]
    )
    await author.send_json_to({"type": "chat", "text": "sei un cretino"})
    for ws in (author, other):
        msg = await receive_frame(ws)
        assert (msg["type"], msg["text"], msg["nickname"]) == ("chat", "sei un *******", users[0].nickname)
        assert isinstance(msg["line"], int)
    assert await receives_nothing(other, 0.2)
    await author.disconnect()
    await other.disconnect()
