"""Guards every request passes before a view: NUL characters refused in one place (400)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from tests.piattaforma.factories import UserFactory
from tests.tournaments.factories import make_tournament
from tests.wallet.factories import funded_player
from tournaments.models import Registration

pytestmark = pytest.mark.django_db

NUL = "\x00"


def refused(response, *, json: bool = False) -> bool:
    if response.status_code != 400:
        return False
    if json:
        return response.json()["code"] == "bad_characters"
    return "caratteri non ammessi" in response.content.decode()


def test_a_nul_in_a_path_parameter_is_refused_not_looked_up(client):
    # /moderazione/giocatori/%00/: the nickname reached a query, a 500 on PostgreSQL
    client.force_login(UserFactory())
    assert refused(client.get("/moderazione/giocatori/%00/"))
    assert refused(client.get("/moderazione/giocatori/ab%00cd/"))


@pytest.mark.parametrize(
    "form",
    [{"idempotency_key": f"chiave{NUL}1"}, {"partner": f"amico{NUL}"}, {f"campo{NUL}": "x"}],
    ids=["idempotency_key", "partner", "field_name"],
)
def test_a_nul_in_a_registration_form_is_refused_and_nothing_is_registered(client, form):
    staff = UserFactory(role="staff")
    tournament = make_tournament(staff)
    client.force_login(funded_player(10_000))
    response = client.post(reverse("tournaments:register", args=[tournament.pk]), form)
    assert refused(response)
    assert not Registration.objects.exists()


def test_a_nul_in_a_multipart_form_is_refused(client):
    staff = UserFactory(role="staff")
    tournament = make_tournament(staff)
    client.force_login(funded_player(10_000))
    url = reverse("tournaments:register", args=[tournament.pk])
    assert refused(client.post(url, {"idempotency_key": f"k{NUL}", "partner": ""}, format="multipart"))
    assert not Registration.objects.exists()


def test_a_nul_in_the_query_string_is_refused_with_a_code_on_json_endpoints(client):
    client.force_login(UserFactory())
    assert refused(client.get(reverse("moderation:conduct_api"), {"torneo": f"1{NUL}"}), json=True)
    assert refused(client.get(reverse("wallet:api_statement"), {"page": NUL}), json=True)
    assert refused(client.get(reverse("tournaments:list"), {"tipo": NUL}))


@pytest.mark.parametrize("key", [f"abcdefgh{NUL}ijklmnop", "abcdefgh\u00e8ijklmnop", "abc def ghi jkl"])
def test_a_session_key_django_never_issues_is_no_session_not_a_lookup(client, key):
    # the key went to the database as it came: NUL was a 500 on PostgreSQL
    client.cookies[settings.SESSION_COOKIE_NAME] = key
    response = client.get(reverse("wallet:balance"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


@pytest.mark.django_db(transaction=True)
async def test_a_nul_in_the_session_cookie_of_a_websocket_is_signed_out_not_a_crash():
    from channels.testing import WebsocketCommunicator

    from config.asgi import application
    from tests.piattaforma.test_plumbing import ORIGIN

    cookie = f'{settings.SESSION_COOKIE_NAME}="abcdefgh\\000ijklmnop"'.encode()
    ws = WebsocketCommunicator(application, "/ws/chat/lobby/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, code = await ws.connect()
    assert (connected, code) == (False, 4401)  # signed out: the handshake refused, as for no cookie
    await ws.disconnect()


def test_a_real_session_still_signs_in(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(reverse("wallet:balance")).status_code == 200


def test_ordinary_requests_pass(client):
    client.force_login(UserFactory(nickname="mario"))
    assert client.get("/moderazione/giocatori/mario/").status_code == 200
    assert client.get(reverse("moderation:conduct_api")).status_code == 200


def test_a_nul_in_a_table_form_is_refused_and_the_ledger_is_untouched(client):
    from tests.lobby.factories import poker_table
    from tests.wallet.conftest import ledger_snapshot

    client.force_login(funded_player(10_000))
    table = poker_table()
    before = ledger_snapshot()
    data = {"seat": "1", "buy_in": f"50,00{NUL}", "idempotency_key": "k"}
    assert refused(client.post(reverse("lobby:sit", args=[table.pk]), data))
    assert ledger_snapshot() == before
