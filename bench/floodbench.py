"""``python -m bench.floodbench``: flood one table connection and watch the server's memory.

One user with 4 sockets can send some 76,000 ``sync`` frames in 5 s; a server that queues them
grows and stays grown (a Daphne process once went from 145 MB to 560 MB). This script starts a
real Daphne (the embedded default, or ``--setup production``: PostgreSQL + Redis, ``--daphne N``
processes with the user's sockets spread over them), seats one player at a poker table, opens ``--sockets``
WebSockets for him and sends ``--frame`` frames as fast as they go for ``--seconds``, reading the
replies. A socket the server closes is opened again (an attacker does not give up). It prints the
servers' RSS before, during (largest sample) and after (``--settle`` seconds later), the frames
sent, answered and refused, and the closes by code. A benchmark, never a test.

    python -m bench.floodbench                       # embedded, 4 sockets, sync, 5 s
    python -m bench.floodbench --frame act           # stale acts: each accepted one is a transaction
    python -m bench.floodbench --setup production --daphne 2
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
PASSWORD = secrets.token_urlsafe(12)


def env_for(args: argparse.Namespace, var_dir: str) -> dict[str, str]:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=str(ROOT), LOG_LEVEL="WARNING", DEBUG="0")
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    if args.setup == "production":
        env.update(
            DJANGO_SETTINGS_MODULE="config.settings.production",
            SECRET_KEY=secrets.token_urlsafe(48),
            ALLOWED_HOSTS="127.0.0.1,localhost",
            DATABASE_URL=args.database_url,
            REDIS_URL=args.redis_url,
            SECURE_SSL_REDIRECT="0",
        )
    else:
        env.update(DJANGO_SETTINGS_MODULE="config.settings.embedded", PIATTAFORMA_VAR_DIR=var_dir)
    return env


def prepare() -> None:
    """(In a subprocess with the bench's settings.) Seat a player at a fresh table; print the ids."""
    import django

    django.setup()
    from datetime import date

    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from lobby import actions, door
    from piattaforma.models import User
    from wallet import actions as wallet_actions

    tag = secrets.token_hex(4)
    user = User.objects.create_user(
        nickname=f"flood{tag}",
        email=f"flood{tag}@bench.invalid",
        password=None,
        date_of_birth=date(1990, 1, 1),
    )
    wallet_actions.deposit_create(user=user, amount=50_000, idempotency_key=f"flood-dep-{tag}")
    table = actions.table_create(
        name=f"Flood {tag}", game="poker5", seats=4, min_buy_in=1_000, max_buy_in=20_000,
        config={"limit": "PL", "invito": 100},
    )  # fmt: skip
    door.table_sit(table_id=table.pk, user=user, seat_no=1, buy_in=10_000, idempotency_key=f"flood-{tag}")
    store = SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "piattaforma.auth.NicknameOrEmailBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.save()
    cookie = f"{settings.SESSION_COOKIE_NAME}={store.session_key}"
    print("prepared " + json.dumps({"table": table.pk, "cookie": cookie}), flush=True)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except FileNotFoundError:
        pass
    return 0.0


def wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"Daphne exited with {proc.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"Daphne did not open port {port}")


class Tally:
    def __init__(self) -> None:
        self.sent = 0
        self.states = 0  # table.state replies: frames the server handled (sync, or act's resync)
        self.errors: Counter[str] = Counter()
        self.closes: Counter[str] = Counter()
        self.connects = 0


async def flood_socket(url: str, cookie: str, frame: str, until: float, tally: Tally) -> None:
    """Send ``frame`` as fast as the socket takes it until ``until``, reconnecting when closed."""
    import websockets

    while time.monotonic() < until:
        try:
            ws = await websockets.connect(
                url,
                additional_headers={"Cookie": cookie, "Origin": "http://127.0.0.1"},
                open_timeout=30,
                ping_interval=None,
                max_size=2**22,
                compression=None,
            )
        except Exception as exc:  # a refused handshake is a figure, not a crash
            tally.closes[f"connect:{type(exc).__name__}"] += 1
            await asyncio.sleep(0.2)
            continue
        tally.connects += 1

        async def reader(ws: Any = ws) -> None:
            with contextlib.suppress(websockets.ConnectionClosed):
                async for raw in ws:
                    msg = json.loads(raw)
                    if msg.get("type") == "table.state":
                        tally.states += 1
                    elif msg.get("type") == "error":
                        tally.errors[msg.get("code", "?")] += 1

        read = asyncio.create_task(reader())
        try:
            while time.monotonic() < until:
                await ws.send(frame)
                tally.sent += 1
                if tally.sent % 64 == 0:
                    await asyncio.sleep(0)  # let the reader and the sampler run
        except websockets.ConnectionClosed:
            pass
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), timeout=5)
        try:
            await asyncio.wait_for(read, timeout=10)
        except TimeoutError:  # the server is still busy with this socket's backlog: stop reading
            tally.closes["reader gave up"] += 1
        code = ws.close_code if ws.close_code is not None else "none"
        tally.closes[str(code)] += 1


async def flood(args: argparse.Namespace, ports: list[int], table: int, cookie: str, pids: list[int]) -> Any:
    frames = {
        "sync": json.dumps({"type": "sync"}),
        "act": json.dumps({"type": "act", "action": {"type": "passo"}, "version": 0}),  # stale: a resync
    }
    tally = Tally()
    samples: list[float] = []
    until = time.monotonic() + args.seconds

    async def sampler() -> None:
        while time.monotonic() < until + 1:
            samples.append(sum(rss_mb(p) for p in pids))
            await asyncio.sleep(0.25)

    sample = asyncio.create_task(sampler())
    await asyncio.gather(
        *(
            flood_socket(f"ws://127.0.0.1:{ports[i % len(ports)]}/ws/table/{table}/", cookie,
                         frames[args.frame], until, tally)
            for i in range(args.sockets)
        )
    )  # fmt: skip
    await sample
    return tally, samples


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.floodbench", description=__doc__.split("\n")[0])
    parser.add_argument("--setup", choices=["embedded", "production"], default="embedded")
    parser.add_argument("--daphne", type=int, default=1, help="Daphne processes (production setup)")
    parser.add_argument("--sockets", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--settle", type=float, default=5.0, help="seconds after the flood before 'after'")
    parser.add_argument("--frame", choices=["sync", "act"], default="sync")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/piattaforma_flood")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/6")
    parser.add_argument("--show-errors", type=int, default=1, help="server tracebacks to print")
    parser.add_argument("command", nargs="?", choices=["prepare"], help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.command == "prepare":
        prepare()
        return
    if args.setup == "embedded" and args.daphne != 1:
        parser.error("the embedded setup is one process (in-process channel layer): --daphne 1")

    with tempfile.TemporaryDirectory(prefix="floodbench-") as var_dir:
        env = env_for(args, var_dir)
        if args.setup == "production":
            create_database(args.database_url)
        subprocess.run([PY, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        out = subprocess.run(
            [PY, "-m", "bench.floodbench", "prepare"],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        ids = json.loads(next(line for line in out.splitlines() if line.startswith("prepared "))[9:])
        ports = [free_port() for _ in range(args.daphne)]
        procs = [
            subprocess.Popen(
                [PY, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "config.asgi:application"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=open(Path(var_dir) / f"daphne_{port}.log", "wb"),  # noqa: SIM115
                start_new_session=True,
            )
            for port in ports
        ]
        try:
            for port, proc in zip(ports, procs, strict=True):
                wait_port(port, proc)
            pids = [p.pid for p in procs]
            # one socket per process first: every process has imported and served a table
            asyncio.run(flood(argparse.Namespace(**{**vars(args), "seconds": 0.5, "sockets": len(ports)}),
                              ports, ids["table"], ids["cookie"], pids))  # fmt: skip
            time.sleep(1.0)
            before = sum(rss_mb(p) for p in pids)
            started = time.monotonic()
            tally, samples = asyncio.run(flood(args, ports, ids["table"], ids["cookie"], pids))
            elapsed = time.monotonic() - started
            settle = []
            for _ in range(max(1, int(args.settle / 0.25))):
                time.sleep(0.25)
                settle.append(sum(rss_mb(p) for p in pids))
            after = settle[-1]
            crashed = [line for p in ports for line in log_lines(Path(var_dir) / f"daphne_{p}.log")]
        finally:
            for proc in procs:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGTERM)
            for proc in procs:
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait()
    refused = tally.sent - tally.states
    print(f"setup: {args.setup}, {args.daphne} Daphne, {args.sockets} sockets of one user, "
          f"'{args.frame}' frames for {args.seconds:g} s (flood took {elapsed:.1f} s)")  # fmt: skip
    print(f"server RSS MB: before {before:.0f}, largest during the flood {max(samples, default=0):.0f}, "
          f"largest after it {max(settle):.0f}, after {after:.0f} ({args.settle:g} s later)")  # fmt: skip
    print(f"frames sent {tally.sent}, answered with a table.state {tally.states}, not answered {refused}")
    print(
        f"error replies: {dict(tally.errors)}; connections opened {tally.connects}; "
        f"closes: {dict(tally.closes)}"
    )
    print(f"server tracebacks logged: {len(crashed)}")
    for text in crashed[: args.show_errors]:
        print(text[-3000:])


def log_lines(path: Path) -> list[str]:
    """The tracebacks a Daphne logged (each as one text)."""
    if not path.exists():
        return []
    text = path.read_text(errors="replace")
    return ["Traceback" + part for part in text.split("Traceback")[1:]]


def create_database(url: str) -> None:
    """Create the bench's PostgreSQL database if it is missing (never drops anything)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
            conn.execute(f'CREATE DATABASE "{name}"')


if __name__ == "__main__":
    main()
