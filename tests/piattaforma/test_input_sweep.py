"""Every URL of the site, fed the classes of hostile input: never a 500.

The query parameters tried are every name a view reads (``request.GET.get("…")`` anywhere in the
product, and the API's query serializers); the values are the classes that broke endpoints
before: zero, negative and huge numbers, other scripts' digits, NUL, invalid UTF-8, very long
text. Every URL also gets hostile JSON bodies (too deep, lone surrogates, NUL, huge numbers) and
a form of out-of-range values. A staff member signed in, so the back office is swept too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import URLResolver, get_resolver

from piattaforma import roles
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PRODUCT = ("config", "games", "wallet", "lobby", "piattaforma", "tournaments", "moderation")
READ = re.compile(r"""request\.(?:GET|query_params)(?:\.get\(|\[)\s*["'](\w+)["']""")

VALUES = ["0", "-1", "9" * 30, "9" * 5000, "\u0661\u0662", "1e400", "%00", "%ED%A0%80%FF"]
BODIES = [
    "[" * 100_000 + "]" * 100_000,
    '{"a": "\\ud800", "read": ["\\udfff"]}',
    '{"a": "\\u0000", "note": "\\u0000", "reason": "insult", "nickname": "x"}',
    '{"line": ' + "9" * 5000 + ', "read": [' + "9" * 30 + "]}",
    '{"line": 1e400, "amount": NaN}',
]
FORM = {
    "page": "9" * 5000,
    "amount": "9" * 5000,
    "seat": "9" * 40,
    "buy_in": "-1",
    "minutes": "9" * 400,
    "days": "9" * 400,
    "count": "9" * 400,
    "idempotency_key": "x" * 5000,
    "partner": "x" * 5000,
    "reason": "x" * 5000,
    "esito": "x",
    "action": "x",
}


def query_names() -> set[str]:
    names = {"page"}
    for package in PRODUCT:
        for path in (ROOT / package).rglob("*.py"):
            names.update(READ.findall(path.read_text(encoding="utf-8")))
    return names


def urls(resolver: URLResolver, prefix: str = "") -> list[str]:
    found = []
    for entry in resolver.url_patterns:
        pattern = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            found.extend(urls(entry, pattern))
        elif "(?P" not in pattern and "^" not in pattern:  # the admin's regex catch-alls
            found.append(
                "/"
                + re.sub(
                    r"<(?:(\w+):)?\w+>", lambda m: "x" if m[1] in (None, "str", "slug") else "1", pattern
                )
            )
    return sorted(set(found))


def test_the_sweep_reads_the_parameters_views_read():
    names = query_names()
    assert {"page", "giocatore", "torneo", "iscritti", "tipo", "step", "start", "count"} <= names


def test_no_url_answers_hostile_input_with_a_server_error():
    client = Client()
    staff = UserFactory(role=roles.STAFF, is_staff=True, is_superuser=True)
    names = sorted(query_names())
    failures = []
    for url in urls(get_resolver()):
        sign_in(client, staff)  # again: a POST to /account/esci/ signed him out
        if url.startswith("/backoffice/") and url.endswith(("/history/", "/delete/")):
            continue  # the admin's own views, as its change pages (swept) read the same parameters
        for value in VALUES:
            query = "&".join(f"{name}={value}" for name in names)
            status = client.get(f"{url}?{query}").status_code
            if status >= 500:
                failures.append(("GET", url, value[:12], status))
        if url.startswith("/backoffice/"):
            continue  # the back office takes forms, not JSON; its forms are the admin's own
        for body in BODIES:
            status = client.post(url, body, content_type="application/json").status_code
            if status >= 500:
                failures.append(("POST json", url, body[:12], status))
        status = client.post(url, FORM).status_code
        if status >= 500:
            failures.append(("POST form", url, "", status))
    assert not failures, failures
