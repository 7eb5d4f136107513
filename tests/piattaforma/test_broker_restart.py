"""A Celery worker outlives a crash of its broker, Redis or RabbitMQ, while it holds a task.

Real processes, as ``tests/lobby/test_fault_processes.py`` runs them: the worker with production's
settings on the test database, its broker a server of this test (Redis on a free port in
6390-6399; RabbitMQ as a node of its own, on free ports, its files in the test's folder), killed
with SIGKILL and started again. The worker is not supervised: it must still be there, and run a
task sent after the restart. Every wait is for an event with a deadline.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import sys
import tempfile
import uuid
from pathlib import Path

import pytest
from django.db import connection

from tests.lobby.test_fault_processes import WAIT, Processes, free_port, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]


class RabbitNode:
    """A RabbitMQ node of one test (its own name, ports and files); ``kill`` is a crash."""

    def __init__(self, procs: Processes) -> None:
        self.procs = procs
        # not under the test's own folder: the server's user must reach it (pytest's are private)
        folder = self.folder = Path(tempfile.mkdtemp(prefix="rabbitmq-test-"))
        self.port = free_port()
        self.dist_port = free_port()
        self.name = f"test{uuid.uuid4().hex[:8]}@localhost"
        self.url = f"amqp://guest:guest@127.0.0.1:{self.port}//"
        (folder / "enabled_plugins").write_text("[].\n")
        if os.geteuid() == 0:  # the server drops to its own user: its files must be its own
            for path in [folder, folder / "enabled_plugins"]:
                shutil.chown(path, "rabbitmq")

    def env(self) -> dict[str, str]:
        f = self.folder
        return {
            "RABBITMQ_BASE": str(f),
            "RABBITMQ_NODENAME": self.name,
            "RABBITMQ_NODE_IP_ADDRESS": "127.0.0.1",
            "RABBITMQ_NODE_PORT": str(self.port),
            "RABBITMQ_DIST_PORT": str(self.dist_port),
            "RABBITMQ_MNESIA_BASE": str(f / "mnesia"),
            "RABBITMQ_LOG_BASE": str(f / "log"),
            "RABBITMQ_LOGS": "-",
            "RABBITMQ_FEATURE_FLAGS_FILE": str(f / "feature_flags"),
            "RABBITMQ_PLUGINS_EXPAND_DIR": str(f / "plugins"),
            "RABBITMQ_ENABLED_PLUGINS_FILE": str(f / "enabled_plugins"),
            "RABBITMQ_PID_FILE": str(f / "pid"),
            "RABBITMQ_CONFIG_FILE": str(f / "none"),
            "ERL_CRASH_DUMP": str(f / "erl_crash.dump"),
        }

    def start(self) -> None:
        saved = self.procs.env
        self.procs.env = {**saved, **self.env()}
        try:
            self.procs.start("rabbitmq", ["rabbitmq-server"])
        finally:
            self.procs.env = saved
        self.procs.wait_port("rabbitmq", self.port)

    def kill(self) -> None:
        """SIGKILL the node (it runs in a session of its own: by its pid file), then its launcher."""
        pid_file = self.folder / "pid"
        if pid_file.exists():
            with contextlib.suppress(ProcessLookupError, ValueError):
                os.kill(int(pid_file.read_text().strip()), signal.SIGKILL)
        launcher = self.procs.procs.get("rabbitmq")
        if launcher is not None:
            wait_for(lambda: launcher.poll() is not None, "the RabbitMQ launcher to end with its node")
            self.procs.procs.pop("rabbitmq")

    def remove(self) -> None:
        self.kill()
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.fixture
def procs(transactional_db, tmp_path, monkeypatch):
    # the senders use the broker they are given (Celery prefers this variable to it)
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    if connection.vendor != "postgresql":
        pytest.skip("server processes of their own need PostgreSQL: SQLite's test database is in memory")
    processes = Processes(tmp_path)
    processes.redis()  # the results (and, for the Redis case, the broker)
    yield processes
    processes.stop_all()


def worker_holds(procs: Processes, task_id: str) -> bool:
    return f"piattaforma.ping[{task_id}] received" in procs.log("worker")


@pytest.mark.parametrize("broker", ["redis", "rabbitmq"])
def test_a_worker_outlives_its_broker_crashing_while_it_holds_a_task(procs, broker):
    from celery import Celery

    rabbit = None
    if broker == "rabbitmq":
        if shutil.which("rabbitmq-server") is None:
            pytest.skip("rabbitmq-server is not installed (.ci/run installs it)")
        rabbit = RabbitNode(procs)
        rabbit.start()
        procs.env["CELERY_BROKER_URL"] = rabbit.url
    broker_url = rabbit.url if rabbit is not None else procs.redis_url
    try:
        procs.start(
            "worker",
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--concurrency",
                "1",
                "-n",
                "w1@%h",
                "--without-mingle",
                "--without-gossip",
                "-l",
                "INFO",
            ],
        )
        sender = Celery(broker=broker_url, backend=procs.redis_url)
        assert sender.send_task("piattaforma.ping", args=["before"]).get(timeout=WAIT) == "before"
        # a task the worker holds, unacknowledged (acks_late), when the broker goes
        held = sender.send_task("piattaforma.ping", args=["held"], countdown=3600, ignore_result=True)
        wait_for(
            lambda: worker_holds(procs, held.id),
            lambda: f"the worker to hold the task:\n{procs.log('worker')}",
        )

        if rabbit is not None:
            rabbit.kill()
            rabbit.start()
        else:
            procs.kill("redis")
            procs.redis()

        after = sender.send_task("piattaforma.ping", args=["after"])
        assert after.get(timeout=2 * WAIT) == "after", procs.log("worker")
        assert procs.procs["worker"].poll() is None, procs.log("worker")
        assert "Unrecoverable error" not in procs.log("worker")
        sender.close()
    finally:
        if rabbit is not None:
            procs.kill("worker")
            rabbit.remove()
