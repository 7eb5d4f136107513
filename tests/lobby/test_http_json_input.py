"""Hostile JSON over HTTP (the layouts endpoint answers 400, never a 500) and the same class
elsewhere: the back office's JSON config, huge ids in URLs."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from config.asgi import application
from lobby.models import Table, TableRuntime
from piattaforma import jsoninput, roles
from tests.lobby.factories import poker_table
from tests.lobby.helpers import runtime
from tests.lobby.test_layouts import burraco_turn, client_for, post  # noqa: F401  # the fixture
from tests.piattaforma.factories import UserFactory, sign_in
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.wallet.factories import funded_player

HOSTILE_BODIES = [
    "[" * 1500 + "]" * 1500,
    '{"action": ' + "{" * 100_000 + "}" * 100_000 + "}",
    '{"action": {"type": "cala", "cards": ["\\ud800", "6h", "X1"]}}',
    '{"action": {"type": "cala", "cards": ["5h", "6h", "X1"], "meld": NaN}}',
    '{"action": {"type": "cala", "cards": ["5h", "6h", "X1"], "meld": 1e400}}',
    '{"action": {"type": "cala", "cards": ["5h"], "meld": ' + "9" * 4000 + "}}",
    '{"action": {"type": "cala", "\\udfff": 1}}',
    "7",
    '"action"',
    "null",
    b"\xff\xfe{}",
]


@pytest.mark.django_db
def test_hostile_bodies_to_the_layouts_endpoint_are_a_400_and_change_nothing(burraco_turn):  # noqa: F811
    table, user, _, _ = burraco_turn
    before = runtime(table)
    client = client_for(user)
    for body in HOSTILE_BODIES:
        res = post(client, table, body)
        assert (res.status_code, res.json()["code"]) == (400, "bad_request"), body[:40]
    after = runtime(table)
    assert (after.state, after.version) == (before.state, before.version)


@pytest.mark.django_db
def test_a_form_posted_to_the_layouts_endpoint_is_a_400(burraco_turn):  # noqa: F811
    table, user, _, _ = burraco_turn
    client = client_for(user)
    res = client.post(reverse("lobby:layouts", args=[table.pk]), {"action": "cala"})  # multipart
    assert (res.status_code, res.json()["code"]) == (400, "bad_request")


def test_the_reader_refuses_each_kind():
    for text in ("[" * 17 + "]" * 17, '{"a": NaN}', '{"a": -Infinity}', "1e400", "9" * 19, '"\\ud800"'):
        with pytest.raises(jsoninput.BadJson):
            jsoninput.loads(text)
    with pytest.raises(jsoninput.MessageTooLarge):
        jsoninput.loads("1" * 10, max_bytes=5)
    with pytest.raises(jsoninput.BadJson):
        jsoninput.loads_object("[1]")
    # what a client honestly sends still reads, brackets inside strings included
    assert jsoninput.loads('{"a": [1, 2.5, "[{", {"b": null}]}') == {"a": [1, 2.5, "[{", {"b": None}]}
    assert jsoninput.loads('{"s": "\\u00e8\\"[[["}') == {"s": 'è"[[['}
    assert jsoninput.loads("[" * 16 + "]" * 16) == [[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]
    assert jsoninput.loads("-" + "9" * 18) == -(10**18 - 1)


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["table", "sit", "rebuy", "leave", "waiting", "layouts"])
def test_a_huge_table_id_in_the_url_is_a_404_not_a_500(name):
    client = Client()
    sign_in(client, funded_player())
    url = reverse(f"lobby:{name}", args=[1]).replace("/1/", "/" + "9" * 30 + "/")
    res = client.get(url) if name == "table" else client.post(url)
    assert res.status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("path", ["/ws/table/" + "9" * 30 + "/", "/ws/nessuno/", "/ws/table/abc/"])
async def test_a_websocket_to_no_route_is_refused_not_a_crash(path):
    user = await sync_to_async(funded_player)()
    cookie = await sync_to_async(session_cookie)(user)
    ws = WebsocketCommunicator(application, path, headers=[ORIGIN, (b"cookie", cookie)])
    assert await ws.connect() == (False, 4404)


@pytest.mark.django_db
def test_backoffice_table_config_refuses_deep_json():
    admin = UserFactory(role=roles.STAFF, is_superuser=True)
    client = Client()
    sign_in(client, admin)
    table = poker_table()
    url = reverse("backoffice:lobby_table_change", args=[table.pk])
    page = client.get(url)
    assert page.status_code == 200
    form = page.context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, (list, dict))}
    data.update({"config": "[" * 1500 + "]" * 1500, "game": "poker5", "realm": table.realm})
    res = client.post(url, data)
    assert res.status_code == 200 and res.context["adminform"].form.errors["config"]
    assert Table.objects.get(pk=table.pk).config == table.config
    assert TableRuntime.objects.filter(pk=table.pk).exists()


@pytest.mark.parametrize(
    "body", [b"[" * 1500 + b"]" * 1500, b'{"a": NaN}', b'{"a": "\\ud800"}', b"1" * 70_000]
)
def test_the_api_parses_json_defensively(body):
    import io

    from rest_framework.exceptions import ParseError
    from rest_framework.settings import api_settings

    for parser_class in api_settings.DEFAULT_PARSER_CLASSES:
        with pytest.raises(ParseError):
            parser_class().parse(io.BytesIO(body), "application/json", {})


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["9" * 5000, "\u00b2", "-1", "1e3"])
def test_the_api_refuses_a_junk_page_number(page):
    client = Client()
    sign_in(client, funded_player())
    res = client.get(reverse("wallet:api_statement"), {"page": page})
    assert res.status_code == 400 and res.json()["code"] == "invalid"


@pytest.mark.django_db
@pytest.mark.parametrize("step", ["abc", "9" * 5000, "\u00b2", "-1"])
def test_the_backoffice_replay_reads_a_junk_step_as_the_first(client, step):
    from games.rng import SeededRng
    from lobby import door
    from lobby.models import Hand
    from tests.lobby.helpers import play_hand_randomly, seat_players

    table = poker_table()
    seat_players(table, [funded_player() for _ in range(2)])
    door.table_start_hand(table_id=table.pk)
    play_hand_randomly(table, SeededRng(8))
    hand = Hand.objects.get(table=table)
    sign_in(client, UserFactory(role=roles.STAFF))
    page = client.get(f"/backoffice/lobby/hand/{hand.pk}/replay/", {"step": step})
    assert page.status_code == 200 and 'data-step="0"' in page.content.decode()


def test_small_numbers_from_forms():
    from piattaforma.converters import small_int

    assert [small_int(t) for t in ("0", "12", "123456")] == [0, 12, 123456]
    for junk in (None, "", "1234567", "\u00b2", "\u0663", "-1", "+1", " 1", "1_0", "9" * 5000):
        assert small_int(junk) is None
