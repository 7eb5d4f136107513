"""The Prometheus metrics: each moves when its event happens, ``/metrics`` answers only whom it may,
its text parses, and the dashboard and the alerts in docs/ops/ name only metrics that exist."""

from __future__ import annotations

import json
import re
import uuid
from datetime import date
from pathlib import Path

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from prometheus_client.parser import text_string_to_metric_families

from config.asgi import application
from games import registry
from games.rng import SeededRng
from lobby import door
from lobby.models import Seat
from piattaforma import actions, metrics, roles
from tests.lobby.factories import poker_table
from tests.lobby.helpers import runtime, seat_players
from tests.piattaforma.factories import UserFactory, sign_in
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.tournaments.factories import enter, make_tournament
from tests.wallet.factories import funded_player

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs" / "ops"


def value(name: str, **labels: str) -> float:
    return metrics.REGISTRY.get_sample_value(name, labels) or 0.0


# --- the endpoint ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_metrics_are_refused_to_everyone_when_neither_a_token_nor_an_address_is_set(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS = "", []
    response = client.get("/metrics")
    assert response.status_code == 403
    assert response.json()["code"] == "metrics_forbidden"
    staff = UserFactory(role=roles.STAFF, is_staff=True, is_superuser=True)
    sign_in(client, staff)  # not even to an administrator's verified session: it is the scraper's
    refused = client.get("/metrics")
    assert refused.status_code == 403 and refused.json()["code"] == "metrics_forbidden"


@pytest.mark.django_db
def test_metrics_answer_the_bearer_of_the_token_only(client, settings):
    settings.METRICS_TOKEN, settings.METRICS_ALLOWED_IPS = "s3greto-" + "x" * 30, []
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer sbagliato").status_code == 403
    assert client.get("/metrics", HTTP_AUTHORIZATION=settings.METRICS_TOKEN).status_code == 403  # no "Bearer"
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {settings.METRICS_TOKEN}")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/plain")


@pytest.mark.django_db
def test_metrics_answer_an_allowed_address_or_network_only(client, settings):
    settings.METRICS_TOKEN = ""
    settings.METRICS_ALLOWED_IPS = ["10.0.0.0/8", "192.168.1.7"]
    assert client.get("/metrics", REMOTE_ADDR="10.20.30.40").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="192.168.1.7").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="192.168.1.8").status_code == 403
    assert client.get("/metrics", REMOTE_ADDR="127.0.0.1").status_code == 403


@pytest.mark.django_db
def test_the_scrape_parses_as_prometheus_text_with_every_metric(client, settings):
    settings.METRICS_TOKEN = "t" * 40
    poker_table()  # an open table, counted at scrape time
    response = client.get("/metrics", HTTP_AUTHORIZATION=f"Bearer {settings.METRICS_TOKEN}")
    families = {f.name: f for f in text_string_to_metric_families(response.content.decode())}
    for name in (
        "piattaforma_table_acts",
        "piattaforma_table_act_seconds",
        "piattaforma_journal_commit_seconds",
    ):
        assert name in families
    assert families["piattaforma_celery_broker_up"].samples[0].value == 1
    tables = {s.labels["game"]: s.value for s in families["piattaforma_open_tables"].samples}
    assert tables.get("poker5", 0) >= 1
    if not django_settings.CELERY_BROKER_URL.startswith("memory://"):
        queue = getattr(django_settings, "CELERY_TASK_DEFAULT_QUEUE", "celery")  # a queue per xdist worker
        assert queue in {s.labels["queue"] for s in families["piattaforma_celery_queue_depth"].samples}


def test_a_broker_that_does_not_answer_is_reported_down_within_the_timeout(settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    families = {f.name: f for f in metrics.LiveCollector().collect()}
    assert families["piattaforma_celery_broker_up"].samples[0].value == 0


@pytest.mark.skipif(not django_settings.REDIS_URL, reason="needs Redis (REDIS_URL)")
def test_the_queue_depth_is_read_from_a_redis_broker():
    from kombu import Connection

    name = f"depth-{uuid.uuid4().hex}"
    options = django_settings.CELERY_BROKER_TRANSPORT_OPTIONS
    with Connection(django_settings.REDIS_URL, transport_options=options) as conn:
        queue = conn.SimpleQueue(name)
        try:
            for n in range(3):
                queue.put({"n": n})
            assert metrics.queue_depths(django_settings.REDIS_URL, [name]) == {name: 3}
        finally:
            queue.queue.delete()
            queue.close()


# --- each metric moves with its event -------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_decision_over_the_socket_counts_an_act_and_its_latency_for_its_game():
    users = [await sync_to_async(funded_player)() for _ in range(2)]
    table = await sync_to_async(poker_table)()
    await sync_to_async(seat_players)(table, users)
    await sync_to_async(door.table_start_hand)(table_id=table.pk)
    game = table.game
    acts, timed = (
        value("piattaforma_table_acts_total", game=game),
        value("piattaforma_table_act_seconds_count", game=game),
    )
    sockets_before = value("piattaforma_sockets", kind="table")
    owners_before = value("piattaforma_table_owners")

    rt = await sync_to_async(runtime)(table)
    engine = registry.get(rt.game)
    seat_no = engine.to_act(rt.state)[0]
    mover = await sync_to_async(
        lambda: Seat.objects.select_related("user").get(table=table, number=seat_no).user
    )()
    ws = WebsocketCommunicator(
        application,
        f"/ws/table/{table.pk}/",
        headers=[ORIGIN, (b"cookie", await sync_to_async(session_cookie)(mover))],
    )
    assert (await ws.connect())[0]
    first = await ws.receive_json_from(timeout=5)
    assert value("piattaforma_sockets", kind="table") == sockets_before + 1
    assert value("piattaforma_table_owners") >= owners_before + 1  # the table's owner, in this process
    action = engine.sample_action(rt.state, seat_no, SeededRng(7))
    await ws.send_json_to({"type": "act", "action": action, "version": first["version"]})
    while True:
        msg = await ws.receive_json_from(timeout=5)
        assert msg["type"] != "error", msg
        if msg["type"] == "table.state" and msg["version"] > first["version"]:
            break
    # the socket's messages are handled in turn: the answer to ``sync`` comes once the act's is done
    await ws.send_json_to({"type": "sync"})
    await ws.receive_json_from(timeout=5)
    assert value("piattaforma_table_acts_total", game=game) == acts + 1
    assert value("piattaforma_table_act_seconds_count", game=game) == timed + 1

    refused = value("piattaforma_table_acts_refused_total", game=game)
    await ws.send_json_to({"type": "act", "action": action, "version": 0})  # stale
    assert (await ws.receive_json_from(timeout=5))["type"] == "error"
    assert value("piattaforma_table_acts_refused_total", game=game) == refused + 1
    assert value("piattaforma_table_acts_total", game=game) == acts + 1

    await ws.disconnect()
    assert value("piattaforma_sockets", kind="table") == sockets_before


@pytest.mark.django_db(transaction=True)
async def test_the_sockets_gauge_follows_every_kind_of_socket():
    user = await sync_to_async(UserFactory)()
    before = value("piattaforma_sockets", kind="ping")
    ws = WebsocketCommunicator(
        application, "/ws/ping/", headers=[ORIGIN, (b"cookie", await sync_to_async(session_cookie)(user))]
    )
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=5)
    assert value("piattaforma_sockets", kind="ping") == before + 1
    await ws.disconnect()
    assert value("piattaforma_sockets", kind="ping") == before


@pytest.mark.django_db(transaction=True)
def test_a_ledger_posting_counts_its_legs_once_committed():
    before = value("piattaforma_ledger_postings_total", kind="deposit")
    transactions = value("piattaforma_ledger_transactions_total", kind="deposit")
    funded_player(5_000)  # a deposit: the conto and the house's deposit account
    assert value("piattaforma_ledger_postings_total", kind="deposit") == before + 2
    assert value("piattaforma_ledger_transactions_total", kind="deposit") == transactions + 1


@pytest.mark.django_db(transaction=True)
def test_a_tournament_registration_and_a_sign_up_are_counted():
    staff = UserFactory(role=roles.STAFF)
    tournament = make_tournament(staff)
    before = value("piattaforma_tournament_registrations_total")
    enter(tournament, funded_player(10_000))
    assert value("piattaforma_tournament_registrations_total") == before + 1

    signed = value("piattaforma_sign_ups_total")
    actions.user_sign_up(
        nickname="Nuovo" + uuid.uuid4().hex[:6], email=f"{uuid.uuid4().hex[:8]}@example.it",
        date_of_birth=date(1990, 1, 1), password="una-password-lunga-9",
    )  # fmt: skip
    assert value("piattaforma_sign_ups_total") == signed + 1


@pytest.mark.django_db(transaction=True)
def test_a_celery_task_run_is_counted_and_timed():
    from piattaforma.tasks import ping

    before = value("piattaforma_celery_tasks_total", task="piattaforma.ping", outcome="success")
    timed = value("piattaforma_celery_task_seconds_count", task="piattaforma.ping")
    assert ping.apply(args=["x"]).get() == "x"  # run here, with the worker's signals
    assert value("piattaforma_celery_tasks_total", task="piattaforma.ping", outcome="success") == before + 1
    assert value("piattaforma_celery_task_seconds_count", task="piattaforma.ping") == timed + 1


# --- the dashboard and the alerts -----------------------------------------------------------------------

METRIC_NAME = re.compile(r"\bpiattaforma_[a-z_]+\b")


def names_in(text: str) -> set[str]:
    return set(METRIC_NAME.findall(text))


def test_the_dashboard_and_the_alerts_name_only_metrics_that_exist():
    dashboard = (DOCS / "grafana-dashboard.json").read_text()
    json.loads(dashboard)  # valid JSON, importable as it is
    alerts = (DOCS / "alerts.yml").read_text()
    used = names_in(dashboard) | names_in(alerts)
    assert used, "the dashboard names no metric"
    assert used - metrics.metric_names() == set()
    # every metric an operator watches is on the dashboard
    watched = {
        "piattaforma_table_acts_total",
        "piattaforma_table_act_seconds_bucket",
        "piattaforma_table_owners",
        "piattaforma_open_tables",
        "piattaforma_journal_commit_seconds_bucket",
        "piattaforma_sockets",
        "piattaforma_celery_queue_depth",
        "piattaforma_celery_task_seconds_bucket",
        "piattaforma_ledger_postings_total",
        "piattaforma_tournament_registrations_total",
    }
    assert watched - names_in(dashboard) == set()


def test_the_alert_rules_are_prometheus_rule_groups():
    import yaml

    rules = yaml.safe_load((DOCS / "alerts.yml").read_text())
    for group in rules["groups"]:
        for rule in group["rules"]:
            assert {"alert", "expr", "for", "labels", "annotations"} <= set(rule), rule


def test_an_allowed_address_that_is_not_one_is_a_configuration_error(settings):
    from piattaforma.checks import check_metrics_allowed_ips

    settings.METRICS_ALLOWED_IPS = ["10.0.0.0/8", "10.0.0.300", "nome.host"]
    assert [e.id for e in check_metrics_allowed_ips()] == ["piattaforma.E002", "piattaforma.E002"]
    settings.METRICS_ALLOWED_IPS = ["127.0.0.1", "::1", "192.168.0.0/16"]
    assert check_metrics_allowed_ips() == []


def test_in_multiprocess_mode_a_scrape_adds_up_every_process(tmp_path, monkeypatch):
    """Two processes record to ``PROMETHEUS_MULTIPROC_DIR``; one scrape sees both, gauges per process."""
    import os
    import subprocess
    import sys

    record = (
        "import django, time; django.setup(); from piattaforma import metrics; "
        "metrics.act_done('scopa', time.perf_counter()); metrics.owner_started()"
    )
    env = {
        **os.environ,
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path),
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    for _ in range(2):
        subprocess.run([sys.executable, "-c", record], cwd=ROOT, env=env, check=True, timeout=120)
    monkeypatch.setenv("PROMETHEUS_MULTIPROC_DIR", str(tmp_path))
    families = {f.name: f for f in text_string_to_metric_families(metrics.exposition().decode())}
    acts = [s for s in families["piattaforma_table_acts"].samples if s.name == "piattaforma_table_acts_total"]
    assert [(s.labels, s.value) for s in acts] == [({"game": "scopa"}, 2.0)]
    owners = families["piattaforma_table_owners"].samples
    assert len(owners) == 2 and {s.value for s in owners} == {1.0} and all("pid" in s.labels for s in owners)
