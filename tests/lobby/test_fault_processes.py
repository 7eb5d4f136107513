"""Faults with real processes: Daphne killed, a Celery worker killed, Redis restarted.

The servers run as in production (``config.settings.production``) on the test database,
with a Redis server of their own on a free port in 6390-6399 (so it can be restarted) and a
heartbeat of half a second. Every wait is for an event (a port, a message, a row) with a
deadline, never a fixed sleep. They need PostgreSQL: a process of its own cannot open SQLite's
in-memory test database (the embedded default's side of these faults is in test_faults.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection
from django.utils import timezone

from lobby import door, sweeps
from lobby.errors import TableElsewhere
from lobby.models import Hand, Seat, SeatSocket
from piattaforma.models import SiteHours
from tests.lobby.factories import poker_table
from tests.lobby.helpers import runtime, seat_players
from tests.piattaforma.test_plumbing import session_cookie
from tests.wallet.factories import funded_player

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

ROOT = Path(__file__).resolve().parents[2]
HEARTBEAT = 0.5
WAIT = 60.0  # the longest any one event may take on a loaded machine


def free_port(candidates: range | None = None) -> int:
    for port in candidates or [0]:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return int(s.getsockname()[1])
    pytest.skip("no free port in 6390-6399 for a Redis server of this test")


def wait_for(check: Callable[[], Any], what: str | Callable[[], str], timeout: float = WAIT) -> Any:
    """Poll ``check`` until it returns something true (the event), or fail after ``timeout``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = check()
        if result:
            return result
        time.sleep(0.1)
    raise AssertionError(f"timed out waiting for {what() if callable(what) else what}")


class Processes:
    """The server processes of one test, each in its own process group, all stopped at the end."""

    def __init__(self, logdir: Path) -> None:
        self.logdir = logdir
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.redis_port = free_port(range(6390, 6400))
        self.redis_url = f"redis://127.0.0.1:{self.redis_port}/0"
        db = connection.settings_dict
        self.env = {
            # the test's Redis is the broker too (CI's RabbitMQ is left to the other tests)
            **{k: v for k, v in os.environ.items() if k != "CELERY_BROKER_URL"},
            "DJANGO_SETTINGS_MODULE": "config.settings.production",
            "SECRET_KEY": settings.SECRET_KEY,  # the sessions' auth hashes are keyed with it
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "DATABASE_URL": (
                f"postgres://{db['USER']}:{db['PASSWORD'] or ''}@{db['HOST'] or '127.0.0.1'}"
                f":{db['PORT'] or 5432}/{db['NAME']}"
            ),
            "REDIS_URL": self.redis_url,
            "SECURE_SSL_REDIRECT": "0",
            "LOBBY_HEARTBEAT_SECONDS": str(HEARTBEAT),
            "LOG_LEVEL": "WARNING",
            "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(ROOT),
        }

    def start(self, label: str, argv: list[str], supervised: bool = False) -> subprocess.Popen[bytes]:
        """Start a process; ``supervised``: started again whenever it exits (systemd's Restart=always)."""
        log = open(self.logdir / f"{label}.log", "ab")  # noqa: SIM115
        proc = subprocess.Popen(
            argv,
            cwd=ROOT,
            env=self.env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
        self.procs[label] = proc
        if supervised:
            threading.Thread(target=self._supervise, args=(label, argv, proc), daemon=True).start()
        return proc

    def _supervise(self, label: str, argv: list[str], proc: subprocess.Popen[bytes]) -> None:
        proc.wait()
        if self.procs.get(label) is proc:  # it died by itself, not by kill()
            self.start(label, argv, supervised=True)

    def kill(self, label: str) -> None:
        """SIGKILL a process and its children: no clean-up of any kind runs."""
        proc = self.procs.pop(label)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=WAIT)

    def stop_all(self) -> None:
        for label in reversed(list(self.procs)):  # the servers first, Redis last
            self.kill(label)

    def log(self, label: str) -> str:
        path = self.logdir / f"{label}.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""

    def wait_port(self, label: str, port: int) -> None:
        def listening() -> bool:
            if self.procs[label].poll() is not None:
                raise AssertionError(f"{label} exited:\n{self.log(label)}")
            with socket.socket() as s:
                return s.connect_ex(("127.0.0.1", port)) == 0

        wait_for(listening, f"{label} to listen on {port}")

    def redis(self) -> None:
        """Start (or start again) the Redis server of this test: nothing persisted, as after a crash."""
        argv = [
            "redis-server",
            "--port",
            str(self.redis_port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
        ]
        self.start("redis", argv)
        self.wait_port("redis", self.redis_port)

    def daphne(self, label: str, port: int | None = None) -> int:
        port = port or free_port()
        self.start(
            label,
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "config.asgi:application",
            ],
        )
        self.wait_port(label, port)
        return port

    def celery(self, label: str, *args: str) -> None:
        """A Celery process under a supervisor, as the production recipe (docs/operations.md) runs
        them (``tests/piattaforma/test_broker_restart.py``: an unsupervised worker outlives its broker)."""
        self.start(label, [sys.executable, "-m", "celery", "-A", "config", *args], supervised=True)


@pytest.fixture
def procs(transactional_db, tmp_path, settings, monkeypatch):
    # this process's Celery senders too use the test's Redis (Celery prefers the variable to the
    # broker it is given)
    monkeypatch.delenv("CELERY_BROKER_URL", raising=False)
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed (.ci/run installs it)")
    if connection.vendor != "postgresql":
        pytest.skip("server processes of their own need PostgreSQL: SQLite's test database is in memory")
    # The servers run with production's settings, where the site's hours hold: switched off in the
    # back office's row, as staff would, or a test run in the daily closing (05:30-05:45 Rome) would
    # see no table deal.
    SiteHours.objects.update_or_create(pk=1, defaults={"enabled": False})
    processes = Processes(tmp_path)
    processes.redis()
    # This process plays the beat's and the HTTP views' part: its channel layer is the servers' (the
    # test's Redis, production's prefix), so its writes reach a table's owner in a Daphne process.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [processes.redis_url]},
        }
    }
    yield processes
    processes.stop_all()


# --- WebSocket clients ------------------------------------------------------------------------------


def production_cookie(user) -> str:
    """The session cookie under the production settings' name (the session row is shared)."""
    return "__Secure-" + session_cookie(user).decode()


async def open_socket(port: int, table_id: int, cookie: str):
    import websockets

    ws = await websockets.connect(
        f"ws://127.0.0.1:{port}/ws/table/{table_id}/",
        additional_headers=[("Cookie", cookie), ("Origin", "http://127.0.0.1")],
        open_timeout=WAIT,
    )
    await until(ws, lambda m: m["type"] == "table.state")
    return ws


async def until(ws, want: Callable[[dict[str, Any]], bool], timeout: float = WAIT) -> dict[str, Any]:
    """The next message ``want`` accepts (the others are skipped)."""
    async with asyncio.timeout(timeout):
        while True:
            message = json.loads(await ws.recv())
            if want(message):
                return message


# --- presence after a crash ---------------------------------------------------------------------------


def seated_poker_table():
    """Two players mid-hand. The decision's clock outlasts the test: on the owner runtime the
    owner's own timer would otherwise time the player out (sitout) during a slow takeover."""
    users = [funded_player() for _ in range(2)]
    table = poker_table(tempo_giocata=900)
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    return table, users


async def test_daphne_killed_and_restarted_drops_its_sockets_and_leaves_the_other_process_counted(procs):
    table, users = await sync_to_async(seated_poker_table)()
    first, second = [await sync_to_async(production_cookie)(u) for u in users]
    port_a, port_b = procs.daphne("daphne-a"), procs.daphne("daphne-b")
    first_on_a = await open_socket(port_a, table.pk, first)
    first_on_b = await open_socket(port_b, table.pk, first)
    second_on_a = await open_socket(port_a, table.pk, second)
    seats = await sync_to_async(lambda: {s.user_id: s for s in Seat.objects.filter(table=table)})()
    assert seats[users[0].pk].connections == 2 and seats[users[1].pk].connections == 1
    opened = timezone.now()
    await sync_to_async(wait_for)(
        lambda: SeatSocket.objects.filter(seen_at__gt=opened).count() == 3,
        "both processes to beat",
    )

    procs.kill("daphne-a")  # SIGKILL: its sockets never close in the database
    procs.daphne("daphne-a", port=port_a)  # restarted; the second player never comes back

    def swept() -> bool:  # the beat's sweep, run until it has dropped daphne-a's sockets
        sweeps.presence_sweep()
        return not SeatSocket.objects.filter(seat__user=users[1]).exists()

    await sync_to_async(wait_for)(swept, "the sweep to drop daphne-a's sockets")
    assert not await sync_to_async(SeatSocket.objects.filter(seen_at__lt=opened).exists)()

    stayed, gone = await sync_to_async(lambda: [Seat.objects.get(table=table, user=u) for u in users])()
    assert stayed.connections == 1 and stayed.status == Seat.Status.PLAYING and not stayed.away
    assert gone.connections == 0 and gone.status == Seat.Status.SITOUT and gone.away
    # daphne-b beats on: its socket learns the new version (the sweep's broadcast or the heartbeat)
    version = (await sync_to_async(runtime)(table)).version
    await until(first_on_b, lambda m: m.get("version", 0) >= version)
    assert await sync_to_async(sweeps.presence_sweep)() == 0
    for ws in (first_on_a, first_on_b, second_on_a):
        await ws.close()


# --- a broadcast lost while Redis restarts ------------------------------------------------------------


async def test_a_client_catches_up_on_what_it_missed_while_the_channel_layer_was_down(procs):
    table, users = await sync_to_async(seated_poker_table)()
    port = procs.daphne("daphne")
    ws = await open_socket(port, table.pk, await sync_to_async(production_cookie)(users[0]))
    shown = (await sync_to_async(runtime)(table)).version
    await until(ws, lambda m: m == {"type": "table.version", "version": shown})  # the heartbeat

    procs.kill("redis")  # the channel layer is down
    # The table's owner is in Daphne and sends views to its sockets without the layer; a write
    # from another process reaches the owner over the layer, so while it is down the write is
    # refused and changes nothing: there is no lost broadcast to catch up on.
    with pytest.raises(TableElsewhere):
        await sync_to_async(door.table_sitout)(table_id=table.pk, user=users[1], sitout=True)
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[1])
    assert seat.status == Seat.Status.PLAYING
    procs.redis()
    await ws.close()


# --- clocks and the next deal through the loss of a worker, or of Redis's scheduled tasks ---------------


def bot_table():
    """Two bots at fixed-limit poker: nobody goes broke in a few hands, so every hand is dealt."""
    table = poker_table(config={"limit": "FL", "invito": 100})
    seat_players(table, [funded_player(is_bot=True) for _ in range(2)])
    return table


def table_now(table) -> str:
    rt = runtime(table)
    seats = list(Seat.objects.filter(table=table).values("number", "status", "connections"))
    fields = ("version", "hand_no", "deadline", "start_at", "timer_at", "turn_started")
    return f"{ {f: getattr(rt, f) for f in fields} } {seats} now {timezone.now()}"


def start_pending_in(client) -> bool:
    """The next deal's task was sent and a worker reserved it (acks_late: it waits in "unacked")."""
    return any(b'"lobby.table_start"' in held for held in client.hvals("unacked"))


@pytest.mark.parametrize("fault", ["worker killed", "redis restarted"])
def test_a_table_keeps_dealing_when_its_scheduled_tasks_are_lost(procs, fault):
    import redis
    from celery import Celery

    table = bot_table()
    procs.celery("beat", "beat", "-s", str(procs.logdir / "celerybeat-schedule"), "--loglevel", "WARNING")
    procs.celery(
        "worker-1",
        "worker",
        "--concurrency",
        "1",
        "-n",
        "w1@%h",
        "--without-mingle",
        "--without-gossip",
        "-l",
        "INFO",
    )
    client = redis.Redis.from_url(procs.redis_url)
    sender = Celery(broker=procs.redis_url)
    sender.send_task("lobby.table_start", kwargs={"table_id": table.pk})

    def first_hand_over() -> bool:
        return Hand.objects.filter(table=table, number=1, ended_at__isnull=False).exists()

    wait_for(first_hand_over, f"the bots to play hand 1 ({procs.log('worker-1')})")
    wait_for(lambda: start_pending_in(client), "worker-1 to reserve the next deal's task")
    if fault == "worker killed":
        procs.kill("worker-1")  # the next deal's task dies with it (until the visibility timeout)
        procs.celery(
            "worker-2",
            "worker",
            "--concurrency",
            "1",
            "-n",
            "w2@%h",
            "--without-mingle",
            "--without-gossip",
            "-l",
            "INFO",
        )
    else:
        procs.kill("redis")  # every scheduled task is gone with it
        procs.redis()

    def second_hand_played() -> bool:  # dealt by the sweep, its bot moves on the worker(s) left
        return Hand.objects.filter(table=table, number=2, ended_at__isnull=False).exists()

    # a worker started again can take half a minute on a loaded machine
    wait_for(second_hand_played, lambda: f"hand 2 dealt and played: {table_now(table)}", timeout=2 * WAIT)
    assert not Seat.objects.filter(table=table, status=Seat.Status.SITOUT).exists()  # no bot timed out
    client.close()
