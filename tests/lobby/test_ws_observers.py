"""Observers over the wire: a table whose settings refuse observers (``Table.observers_allowed``,
rules 004: "le regole del tavolo non ammettono osservatori") closes a spectator's socket with
4403 before any view of the table reaches it, while its seated players connect; at a table that
admits them an observer never receives a covered card, at the deal or after a move."""

from __future__ import annotations

import json
import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator

from config.asgi import application
from games import registry
from lobby import door
from lobby.consumers import CLOSE_NO_OBSERVERS
from tests.lobby.factories import scopa_table
from tests.lobby.helpers import runtime, seat_players
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)

CARD = re.compile(r'"([2-9TJQKA][hdcs])"')


@sync_to_async
def scopa_match(observers_allowed: bool):
    """A Scopa table with its match dealt, its two players' cookies and an outsider's."""
    players = [funded_player() for _ in range(2)]
    table = scopa_table(observers_allowed=observers_allowed)
    seat_players(table, players, buy_in=2_000)
    door.table_start_hand(table_id=table.pk)
    for user in players:
        door.table_ready(table_id=table.pk, user=user)
    assert runtime(table).state is not None
    return table, players, [session_cookie(u) for u in players], session_cookie(funded_player())


def socket(table, cookie) -> WebsocketCommunicator:
    return WebsocketCommunicator(application, f"/ws/table/{table.pk}/", headers=[ORIGIN, (b"cookie", cookie)])


@sync_to_async
def covered_cards(table) -> set[str]:
    """The cards some seat holds covered now: in a seat's own view, not in the public one."""
    engine = registry.get(table.game)
    state = runtime(table).state
    public = set(CARD.findall(json.dumps(engine.view(state, None))))
    seats = set().union(*(set(CARD.findall(json.dumps(engine.view(state, n)))) for n in (1, 2)))
    return seats - public


async def test_a_table_without_observers_refuses_one_with_a_clear_code():
    table, _players, cookies, outsider = await scopa_match(observers_allowed=False)
    watcher = socket(table, outsider)
    connected, _ = await watcher.connect()
    assert connected  # accepted to authenticate it, then closed before anything of the table is sent
    assert await watcher.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_NO_OBSERVERS}
    assert CLOSE_NO_OBSERVERS == 4403  # the client's "Non puoi più assistere a questo tavolo"
    assert await watcher.receive_nothing(timeout=0.2)
    player = socket(table, cookies[0])
    ok, _ = await player.connect()
    assert ok
    snap = await player.receive_json_from(timeout=5)
    assert snap["type"] == "table.state" and snap["seat"] in (1, 2)
    await player.disconnect()


async def test_an_observer_who_may_watch_gets_no_covered_card():
    table, players, _cookies, outsider = await scopa_match(observers_allowed=True)
    watcher = socket(table, outsider)
    ok, _ = await watcher.connect()
    assert ok
    snap = await watcher.receive_json_from(timeout=5)
    assert snap["type"] == "table.state" and snap["seat"] is None and snap["legal"] == []
    hidden = await covered_cards(table)
    assert len(hidden) == 6  # two hands of three, covered
    assert not hidden & set(CARD.findall(json.dumps(snap)))
    # a move: the frame that tells it still shows no covered card
    rt = await sync_to_async(runtime)(table)
    engine = registry.get("scopa")
    seat = engine.to_act(rt.state)[0]
    legal = engine.legal_actions(rt.state, seat)[0]
    action = {k: v for k, v in legal.items() if k not in ("label", "confirm")}
    await sync_to_async(door.table_act)(table_id=table.pk, user=players[seat - 1], action=action)
    while True:
        frame = await watcher.receive_json_from(timeout=5)
        if frame["type"] == "table.state" and frame["version"] > snap["version"]:
            break
    hidden = await covered_cards(table)
    assert hidden and not hidden & set(CARD.findall(json.dumps(frame)))
    await watcher.disconnect()
