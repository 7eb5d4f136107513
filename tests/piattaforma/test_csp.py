"""The Content-Security-Policy header, and pages that need nothing inline to work under it.

The browser side (no violation on the pages, the live table and the back office) is
tests/e2e/test_csp.py; here: the header on every kind of response, the Django 5.2
stand-in middleware, and a scan of the rendered pages for inline scripts, styles and handlers.
"""

from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.http import HttpResponse
from django.test import RequestFactory, override_settings

from piattaforma import middleware, roles
from tests.lobby.factories import poker_table
from tests.piattaforma.factories import UserFactory, sign_in
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db

HEADER = "Content-Security-Policy"


def directives(policy: str) -> dict[str, list[str]]:
    return {d.split()[0]: d.split()[1:] for d in policy.split(";") if d.strip()}


@pytest.mark.parametrize(
    "url", ["/", "/account/accedi/", "/healthz", "/static/cards-demo.html", "/backoffice/login/"]
)
def test_every_response_carries_the_policy(client, url):
    response = client.get(url)
    assert response.status_code == 200
    policy = directives(response[HEADER])
    assert policy["script-src"] == ["'self'"] and policy["style-src"] == ["'self'"]
    assert policy["object-src"] == ["'none'"] and policy["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in response[HEADER] and "'unsafe-eval'" not in response[HEADER]


def test_the_stand_in_middleware_sends_the_same_policy():
    """Django 5.2 has no CSP middleware: ours must send what Django 6's would."""
    request = RequestFactory().get("/")
    response = middleware.ContentSecurityPolicyMiddleware(lambda r: HttpResponse("ok"))(request)
    assert response[HEADER] == "; ".join(f"{k} {' '.join(v)}" for k, v in settings.SECURE_CSP.items())
    try:
        from django.utils.csp import build_policy
    except ImportError:  # Django 5.2
        return
    assert response[HEADER] == build_policy(settings.SECURE_CSP)


def test_the_stand_in_middleware_leaves_a_views_own_policy_and_an_empty_setting_alone():
    request = RequestFactory().get("/")

    def own(r):
        response = HttpResponse("ok")
        response[HEADER] = "default-src 'none'"
        return response

    assert middleware.ContentSecurityPolicyMiddleware(own)(request)[HEADER] == "default-src 'none'"
    with override_settings(SECURE_CSP={}):
        response = middleware.ContentSecurityPolicyMiddleware(lambda r: HttpResponse("ok"))(request)
    assert HEADER not in response
    assert (
        middleware.build_policy({"a": "x", "b": True, "c": None, "d": ["'self'", "y"]})
        == "a x; b; d 'self' y"
    )


def test_the_settings_pick_djangos_middleware_where_it_exists():
    import django

    expected = "django.middleware.csp" if django.VERSION >= (6, 0) else "piattaforma.middleware"
    assert settings.CSP_MIDDLEWARE.startswith(expected) and settings.CSP_MIDDLEWARE in settings.MIDDLEWARE


class InlineFinder(HTMLParser):
    """Collect what a strict policy blocks: inline scripts and styles, handlers, javascript: URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        if tag == "script" and "src" not in names and names.get("type") != "application/json":
            self.found.append("inline <script>")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in attrs:
            if name == "style" or name.startswith("on"):
                self.found.append(f"<{tag} {name}=…>")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"<{tag} {name}=javascript:…>")


def inline_parts(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


def test_the_finder_finds_inline_code():
    page = '<script>x()</script><p style="a" onclick="b"></p><a href="javascript:c()">d</a><style>e</style>'
    assert len(inline_parts(page)) == 5
    assert inline_parts('<script type="module" src="/a.js"></script><p data-style="x"></p>') == []


def body(response) -> str:
    if response.streaming:  # a static file
        return b"".join(response.streaming_content).decode()
    return response.content.decode()


def test_pages_have_nothing_inline(client):
    table = poker_table(name="Tavolo Roma")
    player = funded_player(nickname="Scansione")
    staff = UserFactory(role=roles.STAFF)
    tournament = make_tournament(staff)
    enter(tournament, player)  # its lobby polls the regulator's answer (a script of its own)
    pages = [
        "/",
        "/account/accedi/",
        "/account/registrati/",
        "/account/password/reset/",
        "/static/cards-demo.html",
    ]
    found = {url: inline_parts(body(client.get(url))) for url in pages}
    sign_in(client, player)
    for url in (
        "/",
        "/lobby/",
        f"/lobby/tavolo/{table.pk}/",
        "/profilo/",
        "/profilo/opzioni/poker5/",
        "/conto/",
        "/conto/deposito/",
        "/conto/prelievo/",
        "/conto/limiti/",
        "/conto/autoesclusione/",
        "/conto/movimenti/",
        "/account/password/",
        "/tornei/",
        f"/tornei/{tournament.pk}/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        found[url] = inline_parts(body(response))
    sign_in(client, UserFactory(role=roles.MODERATORS))
    found["/moderazione/"] = inline_parts(body(client.get("/moderazione/")))
    sign_in(client, staff)
    for url in (
        "/backoffice/",
        "/backoffice/piattaforma/user/",
        f"/backoffice/piattaforma/user/{player.pk}/change/",
        f"/backoffice/lobby/table/{table.pk}/change/",
        "/backoffice/wallet/account/",
        "/backoffice/piattaforma/auditlog/",
        "/backoffice/tournaments/tournament/",
        f"/backoffice/tournaments/tournament/{tournament.pk}/change/",
        "/backoffice/moderation/report/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        found[url] = inline_parts(body(response))
    assert {url: parts for url, parts in found.items() if parts} == {}
