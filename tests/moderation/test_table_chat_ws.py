"""Table chat over the wire: spectators kept apart from the players during a hand, history on reconnect."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from lobby import door
from moderation import actions as moderation
from tests.lobby.factories import poker_table
from tests.lobby.helpers import receives_nothing, seat_players
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)


@sync_to_async
def table_in_play():
    moderation.watched_list_reset()
    players = [funded_player(nickname=n) for n in ("pia", "leo")]
    table = poker_table()
    seat_players(table, players)
    door.table_start_hand(table_id=table.pk)
    spectator = UserFactory(nickname="curioso")
    return table, {u.nickname: session_cookie(u) for u in [*players, spectator]}


async def connect(table, cookie, history=False):
    """Connect to the table; return the socket and the chat history it got (``history``: one is due)."""
    ws = WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=[ORIGIN, (b"cookie", cookie)])
    assert (await ws.connect(timeout=10))[0]
    assert (await ws.receive_json_from(timeout=5))["type"] == "table.state"
    if not history:
        return ws, None
    while True:
        msg = await ws.receive_json_from(timeout=5)
        if msg["type"] == "chat.history":
            return ws, [(x["nickname"], x["text"]) for x in msg["lines"]]


async def chat_lines(ws, count):
    """The next ``count`` chat lines (table updates skipped), then nothing more for a moment."""
    out = []
    while len(out) < count:
        msg = await ws.receive_json_from(timeout=5)
        if msg["type"] == "chat":
            out.append((msg["nickname"], msg["text"], msg.get("audience")))
    while not await ws.receive_nothing(timeout=0.5):
        msg = await ws.receive_json_from(timeout=5)
        assert msg["type"] != "chat", msg
    return out


async def test_spectators_talk_among_themselves_during_a_hand_and_history_follows_the_same_rule():
    table, cookies = await table_in_play()
    pia, _ = await connect(table, cookies["pia"])
    assert await receives_nothing(pia, 0.3)  # no chat yet: no history is sent
    leo, _ = await connect(table, cookies["leo"])
    spectator, _ = await connect(table, cookies["curioso"])

    await pia.send_json_to({"type": "chat", "text": "buona fortuna leo"})
    await spectator.send_json_to({"type": "chat", "text": "leo dovrebbe rilanciare"})
    assert await chat_lines(pia, 1) == [("pia", "buona fortuna leo", None)]
    assert await chat_lines(leo, 1) == [("pia", "buona fortuna leo", None)]
    assert sorted(await chat_lines(spectator, 2)) == [  # two sockets: either may be first
        ("curioso", "leo dovrebbe rilanciare", "spectators"),
        ("pia", "buona fortuna leo", None),
    ]

    for ws in (pia, spectator):
        await ws.disconnect()
    pia, history = await connect(table, cookies["pia"], history=True)  # reconnect: the players' chat only
    assert history == [("pia", "buona fortuna leo")]
    spectator, history = await connect(table, cookies["curioso"], history=True)
    assert sorted(history) == [("curioso", "leo dovrebbe rilanciare"), ("pia", "buona fortuna leo")]
    for ws in (pia, leo, spectator):
        await ws.disconnect()


async def test_a_notice_reaches_the_players_table_socket_live():
    table, cookies = await table_in_play()
    pia, _ = await connect(table, cookies["pia"])
    leo, _ = await connect(table, cookies["leo"])

    @sync_to_async
    def warn_pia():
        from django.db import transaction
        from django.utils import timezone

        from piattaforma.models import User

        with transaction.atomic():  # pushed after commit
            moderation.notice_send(
                user_id=User.objects.get(nickname="pia").pk,
                code="moderation_warn",
                text="Ammonizione",
                now=timezone.now(),
            )

    await warn_pia()
    while True:
        msg = await pia.receive_json_from(timeout=5)
        if msg["type"] == "notice":
            break
    assert (msg["code"], msg["text"]) == ("moderation_warn", "Ammonizione")
    received = []
    while not await leo.receive_nothing(timeout=0.3):
        received.append((await leo.receive_json_from(timeout=5))["type"])
    assert "notice" not in received  # it is pia's alone
    for ws in (pia, leo):
        await ws.disconnect()
