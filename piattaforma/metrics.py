"""The platform's Prometheus metrics, defined here and nowhere else.

Product code records through the helpers below: a counter's ``inc`` or a histogram's ``observe``,
a dictionary look-up for the label's child, never a query (the table action path is hot). What
is read from elsewhere (the broker's queue depth, the open tables) is read when ``/metrics`` is
scraped, by ``LiveCollector``, with a short timeout.

Several processes (Daphne, Celery workers and their pool processes): with
``PROMETHEUS_MULTIPROC_DIR`` set (a directory every process of one machine writes, emptied before
they start), each process writes its values to its own files there and the scrape adds them up
(``prometheus_client.multiprocess``); a gauge of one process (owners, sockets) is reported per
process (``pid`` label). Without it, the values are this process's own (the embedded default,
where the server, the worker and the beat are one process).

``/metrics`` (``piattaforma.views.metrics``) is never public: it answers a request bearing
``METRICS_TOKEN`` (``Authorization: Bearer …``) or coming from an address in
``METRICS_ALLOWED_IPS``, and nobody when neither is set.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric

logger = logging.getLogger(__name__)

REGISTRY = CollectorRegistry(auto_describe=True)
LIVE_TIMEOUT = 1.0  # seconds: a broker read at scrape time gives up after this
# seconds: from a player's act received to its views sent (a decision commits in a few ms)
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
COMMIT_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0)
TASK_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1.0, 5.0, 30.0, 120.0)


def multiprocess_dir() -> str:
    """The directory of multiprocess mode (empty: this process's own values)."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR", "")


TABLE_ACTS = Counter(
    "piattaforma_table_acts",
    "Players' decisions applied at the tables, by game",
    ["game"],
    registry=REGISTRY,
)
TABLE_ACT_SECONDS = Histogram(
    "piattaforma_table_act_seconds",
    "From a player's decision received on the socket to its views sent, by game",
    ["game"],
    buckets=LATENCY_BUCKETS,
    registry=REGISTRY,
)
TABLE_ACT_REFUSED = Counter(
    "piattaforma_table_acts_refused",
    "Players' decisions refused (stale version, not their turn, an illegal move), by game",
    ["game"],
    registry=REGISTRY,
)
TABLE_OWNERS = Gauge(
    "piattaforma_table_owners",
    "Tables owned by this server process (their runtime in its memory)",
    multiprocess_mode="liveall",
    registry=REGISTRY,
)
SOCKETS = Gauge(
    "piattaforma_sockets",
    "Open WebSocket connections of this server process, by kind",
    ["kind"],
    multiprocess_mode="liveall",
    registry=REGISTRY,
)
JOURNAL_COMMIT_SECONDS = Histogram(
    "piattaforma_journal_commit_seconds",
    "One group commit of the journal (a batch of table steps)",
    buckets=COMMIT_BUCKETS,
    registry=REGISTRY,
)
JOURNAL_STEPS = Counter(
    "piattaforma_journal_steps",
    "Table steps committed by the journal",
    registry=REGISTRY,
)
JOURNAL_FAILURES = Counter(
    "piattaforma_journal_failures",
    "Journal batches whose commit failed (the database away)",
    registry=REGISTRY,
)
TASK_SECONDS = Histogram(
    "piattaforma_celery_task_seconds",
    "A Celery task's run on a worker, by task",
    ["task"],
    buckets=TASK_BUCKETS,
    registry=REGISTRY,
)
TASKS = Counter(
    "piattaforma_celery_tasks",
    "Celery tasks run on the workers, by task and outcome (success, failure, retry)",
    ["task", "outcome"],
    registry=REGISTRY,
)
LEDGER_POSTINGS = Counter(
    "piattaforma_ledger_postings",
    "Ledger postings committed (one per account leg), by transaction kind",
    ["kind"],
    registry=REGISTRY,
)
LEDGER_TRANSACTIONS = Counter(
    "piattaforma_ledger_transactions",
    "Ledger transactions committed, by kind",
    ["kind"],
    registry=REGISTRY,
)
TOURNAMENT_REGISTRATIONS = Counter(
    "piattaforma_tournament_registrations",
    "Tournament registrations made (entry paid or free)",
    registry=REGISTRY,
)
SIGN_UPS = Counter(
    "piattaforma_sign_ups",
    "Game accounts opened",
    registry=REGISTRY,
)

# What ``LiveCollector`` reports (read at scrape time).
QUEUE_DEPTH = "piattaforma_celery_queue_depth"
BROKER_UP = "piattaforma_celery_broker_up"
OPEN_TABLES = "piattaforma_open_tables"
SEATED = "piattaforma_seated_players"


# --- recording (cheap: a label's child is looked up once) --------------------------------------------

_acts: dict[str, tuple[Any, Any]] = {}


def act_done(game: str, started: float) -> None:
    """A player's decision applied and its views sent; ``started``: ``time.perf_counter()`` at its receipt."""
    children = _acts.get(game)
    if children is None:
        children = _acts[game] = (TABLE_ACTS.labels(game), TABLE_ACT_SECONDS.labels(game))
    children[0].inc()
    children[1].observe(time.perf_counter() - started)


def act_refused(game: str) -> None:
    TABLE_ACT_REFUSED.labels(game).inc()


def owner_started() -> None:
    TABLE_OWNERS.inc()


def owner_stopped() -> None:
    TABLE_OWNERS.dec()


def socket_opened(kind: str) -> None:
    SOCKETS.labels(kind).inc()


def socket_closed(kind: str) -> None:
    SOCKETS.labels(kind).dec()


def journal_committed(steps: int, seconds: float) -> None:
    JOURNAL_COMMIT_SECONDS.observe(seconds)
    JOURNAL_STEPS.inc(steps)


def journal_failed() -> None:
    JOURNAL_FAILURES.inc()


def task_ran(task: str, outcome: str, seconds: float | None) -> None:
    TASKS.labels(task, outcome).inc()
    if seconds is not None:
        TASK_SECONDS.labels(task).observe(seconds)


def ledger_posted(kind: str, postings: int) -> None:
    LEDGER_TRANSACTIONS.labels(kind).inc()
    LEDGER_POSTINGS.labels(kind).inc(postings)


def tournament_registered() -> None:
    TOURNAMENT_REGISTRATIONS.inc()


def signed_up() -> None:
    SIGN_UPS.inc()


# --- read at scrape time -------------------------------------------------------------------------------


def queue_depths(broker_url: str, queues: list[str], timeout: float = LIVE_TIMEOUT) -> dict[str, int]:
    """The messages waiting in each Celery queue (not those a worker reserved), read from the broker.

    Redis: the length of the queue's list (and of its priority lists). RabbitMQ (and any AMQP
    broker): a passive declare of the queue, which reports its ready messages. Raises when the
    broker does not answer within ``timeout``.
    """
    from kombu.connection import Connection

    depths: dict[str, int] = {}
    redis = broker_url.startswith(("redis://", "rediss://"))
    options = _transport_options(timeout) if redis else {}
    with Connection(  # type: ignore[no-untyped-call]  # kombu ships no type hints
        broker_url, connect_timeout=timeout, transport_options=options
    ) as conn:
        conn.ensure_connection(max_retries=1, timeout=timeout)
        channel = conn.default_channel
        if redis:
            for queue in queues:
                pipe = channel.client.pipeline()
                for priority in channel.priority_steps:
                    pipe.llen(channel._q_for_pri(queue, priority))
                depths[queue] = int(sum(pipe.execute()))
        else:
            for queue in queues:
                try:
                    _, count, _ = channel.queue_declare(queue=queue, passive=True)
                except conn.channel_errors:  # not declared yet: nothing ever waited in it
                    channel = conn.channel()
                    count = 0
                depths[queue] = int(count)
    return depths


def _transport_options(timeout: float) -> dict[str, Any]:
    from django.conf import settings

    options = dict(getattr(settings, "CELERY_BROKER_TRANSPORT_OPTIONS", {}) or {})
    options.update({"socket_timeout": timeout, "socket_connect_timeout": timeout})
    return options


class LiveCollector:
    """What is read at scrape time: each Celery queue's depth (and whether the broker answered),
    and the open tables. Registered in the scrape's registry only (``exposition``)."""

    names = (QUEUE_DEPTH, BROKER_UP, OPEN_TABLES, SEATED)

    def describe(self) -> list[Metric]:
        return []  # (registering it reads nothing)

    def collect(self) -> Iterator[Metric]:
        from django.conf import settings

        depth = GaugeMetricFamily(QUEUE_DEPTH, "Messages waiting in a Celery queue", labels=["queue"])
        up = GaugeMetricFamily(BROKER_UP, "1 when the Celery broker answered the scrape's read, else 0")
        broker = str(settings.CELERY_BROKER_URL)
        queues = [str(getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", "celery"))]
        if broker.startswith("memory://"):  # the embedded default's in-process broker
            up.add_metric([], 1)
        else:
            try:
                for queue, count in queue_depths(broker, queues).items():
                    depth.add_metric([queue], count)
                up.add_metric([], 1)
            except Exception:
                logger.warning("metrics: the broker did not answer the queue depth read", exc_info=True)
                up.add_metric([], 0)
        yield depth
        yield up
        from piattaforma import hooks

        tables = GaugeMetricFamily(OPEN_TABLES, "Tables open, by game (every process)", labels=["game"])
        seated = GaugeMetricFamily(SEATED, "Players seated at open tables, by game", labels=["game"])
        try:
            for game, (count, players) in sorted(hooks.open_tables().items()):
                tables.add_metric([game], count)
                seated.add_metric([game], players)
        except Exception:
            logger.warning("metrics: the open tables were not read", exc_info=True)
        yield tables
        yield seated


class _Own:
    """This process's registry as one collector (the scrape registry's, without multiprocess mode)."""

    def describe(self) -> list[Metric]:
        return []

    def collect(self) -> Iterator[Metric]:
        yield from REGISTRY.collect()


def scrape_registry() -> CollectorRegistry:
    """The registry a scrape reads: every process's values (multiprocess mode) or this process's,
    and the live ones."""
    registry = CollectorRegistry(auto_describe=False)
    directory = multiprocess_dir()
    if directory:
        from prometheus_client import multiprocess

        multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]  # untyped module
    else:
        registry.register(_Own())
    registry.register(LiveCollector())
    return registry


def exposition() -> bytes:
    """The text format of a scrape."""
    return generate_latest(scrape_registry())


def metric_names() -> set[str]:
    """Every series name a scrape may carry (with ``_total``, ``_bucket``, ``_count``, ``_sum``),
    for the dashboard's and the alerts' check."""
    names: set[str] = set()
    for metric in REGISTRY.collect():
        if metric.type == "counter":
            names |= {metric.name + "_total", metric.name + "_created"}
        elif metric.type == "histogram":
            names |= {metric.name + suffix for suffix in ("_bucket", "_count", "_sum", "_created")}
        else:
            names.add(metric.name)
    return names | set(LiveCollector.names)


def process_ended(pid: int) -> None:
    """A process of this machine ended (a Celery pool process): its per-process gauges go."""
    if multiprocess_dir():
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid, multiprocess_dir())  # type: ignore[no-untyped-call]  # untyped module
