"""What anonymous visitors may not reach: the API schema, and the deep health check's task."""

import pytest

from piattaforma import health, roles
from tests.piattaforma.factories import UserFactory, sign_in

pytestmark = pytest.mark.django_db

REMOTE = {"REMOTE_ADDR": "203.0.113.5"}


def test_the_api_schema_needs_a_signed_in_user(client):
    response = client.get("/api/schema/")
    assert response.status_code == 403
    assert b"not_authenticated" in response.content  # the error, in the schema's own format
    assert b"openapi" not in response.content


@pytest.mark.parametrize("role", [roles.PLAYERS, roles.STAFF])
def test_the_api_schema_is_served_to_api_users_and_staff(client, role):
    sign_in(client, UserFactory(role=role))
    response = client.get("/api/schema/")
    assert response.status_code == 200 and b"openapi" in response.content


@pytest.fixture
def worker_probe(monkeypatch):
    """Stand in for the worker round trip and count how often it runs (no worker needed)."""
    calls = []
    monkeypatch.setitem(health.DEEP_CHECKS, "worker", lambda: calls.append(1) or True)
    return calls


def test_the_deep_check_is_refused_to_anonymous_remote_clients(client, worker_probe):
    response = client.get("/healthz?deep=1", **REMOTE)
    assert response.status_code == 403 and response.json()["code"] == "deep_check_forbidden"
    assert worker_probe == []  # no task went to the workers


def test_the_deep_check_is_refused_to_players(client, worker_probe):
    sign_in(client, UserFactory())
    assert client.get("/healthz?deep=1", **REMOTE).status_code == 403
    assert worker_probe == []


def test_a_forwarded_request_is_not_a_local_probe(client, worker_probe):
    """Through the proxy (or with Daphne's --proxy-headers) a spoofed loopback address stays remote."""
    for forwarded in ("127.0.0.1", "203.0.113.5"):
        response = client.get("/healthz?deep=1", REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
        assert response.status_code == 403
    assert worker_probe == []


@pytest.mark.parametrize("address", ["127.0.0.1", "::1"])
def test_local_probes_run_the_deep_check(client, worker_probe, address):
    response = client.get("/healthz?deep=1", REMOTE_ADDR=address)
    assert response.status_code == 200 and response.json()["worker"] == "ok"
    assert worker_probe == [1]


def test_staff_run_the_deep_check_from_anywhere(client, worker_probe):
    sign_in(client, UserFactory(role=roles.STAFF))
    response = client.get("/healthz?deep=1", **REMOTE)
    assert response.status_code == 200 and response.json()["worker"] == "ok"
    assert worker_probe == [1]


def test_the_shallow_check_stays_public(client, worker_probe):
    response = client.get("/healthz", **REMOTE)
    assert response.status_code == 200 and "worker" not in response.json()
    assert worker_probe == []
