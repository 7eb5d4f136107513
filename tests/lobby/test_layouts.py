"""The table page's meld-layout endpoint (lobby:layouts): the engine's answer, read only."""

from __future__ import annotations

import copy
import json

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import registry
from lobby import door
from lobby.models import TableRuntime
from tests.lobby.factories import SCOPA_STAKES, scopa_table
from tests.lobby.helpers import runtime, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db

BURRACO = registry.get("burraco")
MELD = {"type": "cala", "cards": ["5h", "6h", "X1"]}


@pytest.fixture
def burraco_turn():
    """A Burraco match at a cash table, the player to act after pesca holding 5♥ 6♥ and a jolly."""
    users = [funded_player() for _ in range(2)]
    table = scopa_table(name="Burraco Roma", game="burraco", config={}, **SCOPA_STAKES)
    seat_players(table, users, buy_in=5_000)
    door.table_ready(table_id=table.pk, user=users[0])
    assert door.table_ready(table_id=table.pk, user=users[1])
    rt = runtime(table)
    seat = BURRACO.to_act(rt.state)[0]
    user = users[seat - 1]
    door.table_act(table_id=table.pk, user=user, action={"type": "pesca"})
    rt = runtime(table)
    state = copy.deepcopy(rt.state)
    pos = state["seats"].index(seat)
    state["deal"]["hands"][pos] = ["5h", "6h", "X1", "9c", "9c"]  # the position the test needs
    TableRuntime.objects.filter(pk=table.pk).update(state=state)
    other = next(u for u in users if u != user)
    return table, user, other, seat


def client_for(user=None, *, csrf: bool = False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    if user is not None:
        client.force_login(user)
    return client


def post(client: Client, table, body, **headers):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(
        reverse("lobby:layouts", args=[table.pk]), data=data, content_type="application/json", **headers
    )


def test_a_seated_player_gets_the_engines_layouts_and_nothing_changes(burraco_turn):
    table, user, _, seat = burraco_turn
    before = runtime(table)
    client = client_for(user)
    with CaptureQueriesContext(connection) as queries:
        res = post(client, table, {"action": MELD})
    assert res.status_code == 200
    answer = res.json()
    assert answer["version"] == before.version
    assert answer["layouts"] == json.loads(json.dumps(BURRACO.layouts(before.state, seat, MELD)))
    assert [x["fields"] for x in answer["layouts"]] == [{"start": 4}, {"start": 5}]
    assert [x["matta"]["stands_for"] for x in answer["layouts"]] == ["4h", "7h"]
    after = runtime(table)
    assert (after.state, after.version) == (before.state, before.version)
    sql = [q["sql"].upper() for q in queries.captured_queries]
    assert [q for q in sql if not q.startswith("SELECT") or "FOR UPDATE" in q] == []  # no lock, no write
    # session, user, runtime with its table, seat, the journal's later steps
    assert len(sql) <= 5


def test_refusals_have_stable_codes_and_change_nothing(burraco_turn):
    table, user, other, _ = burraco_turn
    before = runtime(table)
    outsider = funded_player()
    cases = [
        (client_for(outsider), {"action": MELD}, 403, "not_seated"),
        (client_for(), {"action": MELD}, 403, "login_required"),
        (client_for(user), "{not json", 400, "bad_request"),
        (client_for(user), b"\xff\xfe", 400, "bad_request"),
        (client_for(user), {"azione": MELD}, 400, "bad_request"),
        (client_for(user), {"action": ["cala"]}, 400, "bad_request"),
        (client_for(other), {"action": MELD}, 422, "not_your_turn"),
        (client_for(user), {"action": {"type": "scarta", "card": "9c"}}, 422, "unknown_action"),
        (client_for(user), {"action": {**MELD, "start": 5}}, 422, "unknown_action"),
    ]
    for client, body, status, code in cases:
        res = post(client, table, body)
        assert (res.status_code, res.json()["code"]) == (status, code), body
        assert res.json()["message"]
    assert client_for(user).get(reverse("lobby:layouts", args=[table.pk])).status_code == 405
    res = client_for(user).post(
        reverse("lobby:layouts", args=[999_999]), json.dumps({"action": MELD}), "application/json"
    )
    assert (res.status_code, res.json()["code"]) == (404, "table_not_found")
    after = runtime(table)
    assert (after.state, after.version) == (before.state, before.version)


def test_junk_requests_never_break_the_endpoint(burraco_turn):
    table, user, _, _ = burraco_turn
    client = client_for(user)
    junk = [
        {},
        {"type": None},
        {"type": "cala"},
        {"type": "cala", "cards": "5h"},
        {"type": "cala", "cards": [1, 2, 3]},
        {"type": "cala", "cards": ["", "h", "XX"]},
        {"type": "attacca", "meld": {"id": 1}, "cards": ["5h"]},
        {"type": "attacca", "meld": 1, "cards": []},
        {"type": "cala", "cards": ["5h", "6h", "X1"], "meld": 1},
        {"type": "sostituisci", "meld": 1, "card": "5h", "use": []},
        {"type": "apri", "melds": [[]]},
    ]
    for action in junk:
        res = post(client, table, {"action": action})
        assert res.status_code in (200, 422), (action, res.status_code)
        if res.status_code == 200:
            assert res.json()["layouts"] == []


def test_csrf_token_is_required(burraco_turn):
    table, user, _, _ = burraco_turn
    client = client_for(user, csrf=True)
    assert post(client, table, {"action": MELD}).status_code == 403
    client.get(reverse("lobby:table", args=[table.pk]))
    token = client.cookies["csrftoken"].value
    assert post(client, table, {"action": MELD}, HTTP_X_CSRFTOKEN=token).status_code == 200


def test_no_hand_and_games_without_layouts():
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    res = post(client_for(users[0]), table, {"action": MELD})
    assert (res.status_code, res.json()["code"]) == (409, "no_hand")
    door.table_ready(table_id=table.pk, user=users[0])
    assert door.table_ready(table_id=table.pk, user=users[1])
    res = post(client_for(users[0]), table, {"action": MELD})
    assert (res.status_code, res.json()["code"]) == (400, "no_layouts")
