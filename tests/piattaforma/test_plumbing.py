"""Health, the authenticated WebSocket skeleton, the Celery round trip, production settings."""

import asyncio
import contextlib
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore

from config.asgi import application
from piattaforma import health, twofa
from piattaforma.consumers import CLOSE_UNAUTHENTICATED
from tests.piattaforma.factories import UserFactory, verify_session

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_healthz_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok", "channel_layer": "ok", "broker": "ok"}


@pytest.mark.django_db
def test_healthz_reports_a_failing_part(client, monkeypatch):
    def broken():
        raise OSError("connection refused")

    monkeypatch.setitem(health.CHECKS, "broker", broken)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"] == "failing" and response.json()["database"] == "ok"


def session_cookie(user) -> bytes:
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "piattaforma.auth.NicknameOrEmailBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    if twofa.required(user):  # staff and moderators: verified with a second factor
        verify_session(store, user)
    store.save()
    return f"{settings.SESSION_COOKIE_NAME}={store.session_key}".encode()


ORIGIN = (b"origin", b"http://localhost")


@pytest.mark.django_db(transaction=True)
async def test_websocket_greets_an_authenticated_player_and_answers_ping():
    from asgiref.sync import sync_to_async

    user = await sync_to_async(UserFactory)(nickname="Pokerista")
    cookie = await sync_to_async(session_cookie)(user)
    ws = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect()
    assert connected
    assert await ws.receive_json_from() == {"type": "hello", "nickname": "Pokerista"}
    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from() == {"type": "pong"}
    await ws.send_to(text_data="{not json")
    assert (await ws.receive_json_from())["code"] == "bad_message"
    await ws.send_to(text_data='{"type": "ping", "pad": "' + "x" * 5000 + '"}')
    assert (await ws.receive_json_from())["code"] == "bad_message"
    await ws.send_json_to({"type": "boh"})
    assert (await ws.receive_json_from())["code"] == "unknown_type"
    await ws.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_websocket_refuses_anonymous():
    ws = WebsocketCommunicator(application, "/ws/ping/", headers=[ORIGIN])
    connected, code = await ws.connect()
    assert not connected and code == CLOSE_UNAUTHENTICATED


@pytest.mark.django_db(transaction=True)
async def test_websocket_refuses_a_foreign_origin():
    from asgiref.sync import sync_to_async

    user = await sync_to_async(UserFactory)()
    cookie = await sync_to_async(session_cookie)(user)
    ws = WebsocketCommunicator(
        application, "/ws/ping/", headers=[(b"origin", b"http://evil.example"), (b"cookie", cookie)]
    )
    connected, _ = await ws.connect()
    assert not connected


@contextlib.contextmanager
def a_worker():
    """A Celery worker in a thread of this process, on this pytest worker's own queue, emptied first.

    Tests run with no worker: the table tasks earlier tests sent (next deals, deadlines of tables
    long flushed) wait on the queue, and a worker started here would run them all before the task
    its test sends.
    """
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    app.loader.import_module("celery.contrib.testing.tasks")
    app.control.purge()
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10):
        yield


@pytest.mark.django_db(transaction=True)
def test_celery_round_trip_through_broker_and_worker():
    from piattaforma.tasks import ping

    with a_worker():
        assert ping.delay("andata e ritorno").get(timeout=20) == "andata e ritorno"


def test_celery_command_line_finds_the_app_by_the_project_name():
    """``celery -A config worker`` (production, the fault tests) reaches the one app the tasks bind to."""
    from celery.app.utils import find_app

    from config.celery import app

    assert find_app("config") is app


def test_production_settings_pass_check_deploy():
    env = {
        **{k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"},
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "k" * 20 + "Z9$x" * 10,
        "ALLOWED_HOSTS": "gioco.example.it",
        "DATABASE_URL": os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/piattaforma"),
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="production runs on PostgreSQL")
def test_production_connections_have_postgresql_end_a_transaction_left_idle():
    """A request or task stuck with its transaction open would hold its rows (a live table's own:
    ``lobby.runtime.lease.fence``) for ever: production's connections ask PostgreSQL to end it."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "k" * 20 + "Z9$x" * 10,
        "DATABASE_URL": os.environ["DATABASE_URL"].rsplit("/", 1)[0] + "/postgres",  # (always there)
    }
    show = (
        "import django; django.setup(); from django.db import connection; c = connection.cursor(); "
        "c.execute('SHOW idle_in_transaction_session_timeout'); print(c.fetchone()[0])"
    )
    result = subprocess.run(
        [sys.executable, "-c", show], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip().splitlines()[-1] == "1min"


def test_production_settings_refuse_a_missing_secret_key():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production", "SECRET_KEY": ""}
    result = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0 and "SECRET_KEY" in result.stderr


@pytest.mark.django_db(transaction=True)
def test_deep_healthz_runs_a_task_through_a_worker(client):
    with a_worker():
        response = client.get("/healthz?deep=1")
    assert response.status_code == 200 and response.json()["worker"] == "ok"


@pytest.mark.django_db  # importing the tasks runs Celery's Django model checks: on SQLite the JSON
# field's check asks the database (cached once any earlier test has: first on a worker, it failed)
def test_beat_schedules_every_periodic_task_that_exists():
    from config.celery import app

    app.loader.import_default_modules()
    for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
        assert entry["task"] in app.tasks, name


needs_redis = pytest.mark.skipif(not settings.REDIS_URL, reason="the workers share Redis only (REDIS_URL)")


@needs_redis
async def test_two_test_workers_channel_layers_do_not_meet():
    """pytest-xdist workers gw0 and gw1 both have a table 1: each group reaches its own worker only."""
    from channels_redis.pubsub import RedisPubSubChannelLayer

    from config.settings.test import worker_redis_settings

    layers = [
        RedisPubSubChannelLayer(**worker_redis_settings(w)["CHANNEL_LAYERS"]["default"]["CONFIG"])
        for w in ("gw0", "gw1")
    ]
    channels = [await layer.new_channel() for layer in layers]
    try:
        for layer, channel in zip(layers, channels, strict=True):
            await layer.group_add("table.1", channel)
        for n, layer in enumerate(layers):
            await layer.group_send("table.1", {"type": "table.message", "n": n})
        # gw0 published first: had its message reached gw1, gw1's first message would be it.
        for n, (layer, channel) in enumerate(zip(layers, channels, strict=True)):
            assert (await asyncio.wait_for(layer.receive(channel), 10))["n"] == n
    finally:
        for layer in layers:
            await layer.flush()


def test_two_test_workers_celery_queues_on_rabbitmq_are_their_own():
    from config.settings import test

    if not (test.REDIS_URL and test.CELERY_BROKER_URL.startswith("amqp")):
        pytest.skip("the broker is not RabbitMQ (on Redis the workers' keys are their own: the test below)")
    queues = {test.worker_redis_settings(w)["CELERY_TASK_DEFAULT_QUEUE"] for w in ("gw0", "gw1")}
    assert len(queues) == 2 and "celery" not in queues


@needs_redis
def test_two_test_workers_celery_queues_do_not_meet():
    """gw0 and gw1 both publish to a queue of the same name: each reads back only its own message."""
    from kombu import Connection

    from config.settings.test import worker_redis_settings

    if not settings.CELERY_BROKER_URL.startswith(("redis://", "rediss://")):
        pytest.skip("the broker is not Redis (on RabbitMQ each worker has its own queue: the test above)")

    name = f"isolation-{uuid.uuid4().hex}"
    connections = [
        Connection(
            settings.REDIS_URL, transport_options=worker_redis_settings(w)["CELERY_BROKER_TRANSPORT_OPTIONS"]
        )
        for w in ("gw0", "gw1")
    ]
    queues = [c.SimpleQueue(name) for c in connections]
    try:
        for n, queue in enumerate(queues):
            queue.put({"n": n})
        for n, queue in reversed(list(enumerate(queues))):  # gw1 reads first: gw0's message is older
            message = queue.get(timeout=10)
            message.ack()
            assert message.payload == {"n": n}
    finally:
        for queue, connection in zip(queues, connections, strict=True):
            queue.queue.delete()
            queue.close()
            connection.release()
