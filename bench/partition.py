"""``python -m bench.partition``: the production stack on simulated hosts, one of them cut mid-hand.

Three addresses on one machine, each a Linux network namespace joined by a bridge
(``10.231.0.0/24``): two application hosts, ``app1`` (``.11``) and ``app2`` (``.12``), each
running a Daphne and a Celery worker (``app2`` also the one beat), and the database host
(``.1``, the root namespace) where PostgreSQL, Redis and RabbitMQ answer through forwarders
(``socat``) to their loopback servers. haproxy, on the root namespace's loopback, routes each
table's sockets by table id (``balance uri depth 3``, ``hash-type consistent``) as
``docs/operations.md`` tells; it drops the sessions of a server whose checks fail.

The load bench's bot clients (``bench.loadbench.client.Bot``) play Poker 5 carte and Scopa through
haproxy, reconnecting as the browser does (a socket silent for three beats is reopened, then
``sync``). After a measured window (the round trip's p99, both hosts serving), ``app1``'s link is
taken down inside its namespace while its tables are mid-hand: its processes keep running, cut off.
``app2`` takes ``app1``'s tables over once their leases expire; the script times that (from the cut
to the first view of each such table reaching its clients) and checks the clients play on. Then
``app1``'s link comes back: its owners, stale, must write nothing (fencing) and stop. At the end it
compares every act the clients sent with the journal (none lost, none applied twice), replays
every hand from the journal, and checks the ledger (postings sum to zero, one settlement a hand,
each table's money conserved: buy-ins less cash-outs = credits + carried pot + rake, and each hand's starting
chips = the previous hand's plus its settlement).

Needs root (namespaces), ``ip``, ``haproxy``, ``socat``, ``redis-server`` and ``rabbitmqctl``, and
PostgreSQL (``postgres`` role, trust) and RabbitMQ on 127.0.0.1. Its own throwaway pieces: the
databases ``piattaforma_partition`` (template, migrated and seeded once) and
``piattaforma_partition_run``, a RabbitMQ virtual host ``piattaforma_partition``, a Redis server
of its own on a free port (pub/sub is shared by every database of a Redis server), the namespaces
``pt-app1``/``pt-app2`` and the bridge ``pt-br0`` (removed at the end; ``--keep-net`` leaves them).

    python -m bench.partition --runs 3

Exit status 0 when every check passed, 1 otherwise; ``--json`` adds one ``result {...}`` line per run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import math
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import websockets

from bench.loadbench.__main__ import base_env
from bench.loadbench.client import Bot, Stats
from bench.loadbench.core import Layout, percentile
from bench.loadbench.procs import PG, PY, Proc, Registry, free_port, log, pg, run, wait_children

NET = "10.231.0"
DB_HOST = f"{NET}.1"
BRIDGE = "pt-br0"
HOSTS = {"app1": f"{NET}.11", "app2": f"{NET}.12"}
CUT = "app1"  # the host whose network is cut; the beat runs on the other
DAPHNE_PORT = 8001
TEMPLATE_DB = "piattaforma_partition"
RUN_DB = "piattaforma_partition_run"
VHOST = "piattaforma_partition"
FINAL_CODES = {4401, 4403, 4404}  # the table page stops on these (live-tables.md)
TOOLS = ("ip", "haproxy", "socat", "redis-server", "rabbitmqctl")


def missing() -> str | None:
    """Why this machine cannot run the partition, or None."""
    if os.geteuid() != 0:
        return "needs root (network namespaces)"
    absent = [t for t in TOOLS if shutil.which(t) is None]
    if absent:
        packages = "iproute2 haproxy socat redis-server rabbitmq-server"
        return f"missing: {', '.join(absent)} (apt-get install -y {packages})"
    return None


# --- the network ---------------------------------------------------------------------------------


def sh(*argv: str, check: bool = True) -> None:
    result = subprocess.run(argv, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: {result.stderr.strip()}")


def ns(host: str) -> str:
    return f"pt-{host}"


def veth(host: str, inside: bool) -> str:
    return f"pt-{host[-1]}{'i' if inside else 'o'}"


def net_down() -> None:
    for host in HOSTS:
        sh("ip", "netns", "del", ns(host), check=False)  # (its end of the veth pair goes with it)
        sh("ip", "link", "del", veth(host, inside=False), check=False)
    sh("ip", "link", "del", BRIDGE, check=False)


def net_up() -> None:
    """The bridge at the database host's address, and one namespace a host joined to it."""
    net_down()
    sh("ip", "link", "add", BRIDGE, "type", "bridge")
    sh("ip", "addr", "add", f"{DB_HOST}/24", "dev", BRIDGE)
    sh("ip", "link", "set", BRIDGE, "up")
    for host, addr in HOSTS.items():
        inner, outer = veth(host, inside=True), veth(host, inside=False)
        sh("ip", "netns", "add", ns(host))
        sh("ip", "link", "add", outer, "type", "veth", "peer", "name", inner)
        sh("ip", "link", "set", inner, "netns", ns(host))
        sh("ip", "link", "set", outer, "master", BRIDGE, "up")
        sh("ip", "netns", "exec", ns(host), "ip", "addr", "add", f"{addr}/24", "dev", inner)
        sh("ip", "netns", "exec", ns(host), "ip", "link", "set", inner, "up")
        sh("ip", "netns", "exec", ns(host), "ip", "link", "set", "lo", "up")


def link(host: str, up: bool) -> None:
    """The host's one interface, inside its namespace, down (cut: nothing in or out) or up."""
    sh("ip", "netns", "exec", ns(host), "ip", "link", "set", veth(host, inside=True), "up" if up else "down")


# --- the databases ---------------------------------------------------------------------------------


def django_env(db_url: str, redis_url: str, broker_url: str) -> dict[str, str]:
    """The load bench's production environment (``base_env``), with these servers."""
    env = base_env(RUN_DB)
    env.update(DATABASE_URL=db_url, REDIS_URL=redis_url, CELERY_BROKER_URL=broker_url)
    return env


def local_env(redis_port: int, db: str = RUN_DB) -> dict[str, str]:
    return django_env(
        f"postgres://{PG['user']}@127.0.0.1:{PG['port']}/{db}",
        f"redis://127.0.0.1:{redis_port}/0",
        f"amqp://guest:guest@127.0.0.1:5672/{VHOST}",
    )


def host_env(args: argparse.Namespace) -> dict[str, str]:
    """What an application host's processes see: every server at the database host's address."""
    env = django_env(
        f"postgres://{PG['user']}@{DB_HOST}:{PG['port']}/{RUN_DB}",
        f"redis://{DB_HOST}:6379/0",
        f"amqp://guest:guest@{DB_HOST}:5672/{VHOST}",
    )
    env.update(LOBBY_HEARTBEAT_SECONDS=str(args.heartbeat), LOBBY_LEASE_SECONDS=str(args.lease))
    return env


def prepare_template(layout: Layout, redis_port: int) -> None:
    with pg() as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [TEMPLATE_DB]).fetchone():
            conn.execute(f'CREATE DATABASE "{TEMPLATE_DB}"')
    env = local_env(redis_port, TEMPLATE_DB)
    run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate")
    seed = ["seed", "--poker", str(layout.poker_tables), "--scopa", str(layout.scopa_tables)]
    run([PY, "-m", "bench.loadbench.prepare", *seed], env, "seed")


def fresh_run_db() -> None:
    with pg() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{RUN_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{RUN_DB}" TEMPLATE "{TEMPLATE_DB}"')


def rabbit_vhost() -> None:
    """The run's own virtual host, emptied (a queue left by an earlier run would deal its tables)."""
    sh("rabbitmqctl", "-q", "delete_vhost", VHOST, check=False)
    sh("rabbitmqctl", "-q", "add_vhost", VHOST)
    sh("rabbitmqctl", "-q", "set_permissions", "-p", VHOST, "guest", ".*", ".*", ".*")


# --- the processes -----------------------------------------------------------------------------


def in_ns(host: str, argv: list[str]) -> list[str]:
    return ["ip", "netns", "exec", ns(host), *argv]


HAPROXY = """global
    maxconn 4096
defaults
    mode http
    timeout connect 2s
    timeout client 1h
    timeout server 1h
    timeout tunnel 1h
    retries 2
    option redispatch
frontend web
    bind 127.0.0.1:{port}
    acl table path_beg /ws/table/
    use_backend tables if table
    default_backend daphne
backend tables
    balance uri depth 3
    hash-type consistent
{tables}
backend daphne
    balance roundrobin
{daphne}
"""


def haproxy_config(port: int) -> str:
    lines = [
        f"    server {h} {addr}:{DAPHNE_PORT} check inter 500 fall 2 rise 2 on-marked-down shutdown-sessions"
        for h, addr in HOSTS.items()
    ]
    return HAPROXY.format(port=port, tables="\n".join(lines), daphne="\n".join(lines))


def wait_tcp(addr: str, port: int, proc: Proc, host: str | None = None, timeout: float = 90) -> None:
    """Wait until ``addr:port`` accepts, seen from ``host``'s namespace (or the root one)."""
    probe = [PY, "-c", f"import socket; socket.create_connection(('{addr}', {port}), timeout=1).close()"]
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.popen.poll() is not None:
            raise RuntimeError(f"{proc.label} exited with {proc.popen.returncode} (see its log)")
        if subprocess.run(in_ns(host, probe) if host else probe, capture_output=True).returncode == 0:
            return
        time.sleep(0.3)
    raise RuntimeError(f"{proc.label}: {addr}:{port} not open within {timeout:.0f} s")


class Stack:
    """Every process of one run: forwarders, Redis, the two hosts' servers, haproxy."""

    def __init__(self, args: argparse.Namespace, logdir: Path, redis_port: int) -> None:
        self.args = args
        self.logdir = logdir
        self.redis_port = redis_port
        self.reg = Registry()
        self.daphne: dict[str, Proc] = {}
        self.proxy_port = free_port()

    def start_redis(self) -> None:
        redis = self.reg.start(
            "redis",
            ["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1", "--save", ""],
            dict(os.environ),
            self.logdir,
        )
        wait_tcp("127.0.0.1", self.redis_port, redis)

    def start(self, spec_file: Path, layout: Layout) -> None:
        for port, to in ((PG["port"], PG["port"]), (6379, self.redis_port), (5672, 5672)):
            fwd = self.reg.start(
                f"forward {port}",
                ["socat", f"TCP-LISTEN:{port},bind={DB_HOST},fork,reuseaddr", f"TCP:127.0.0.1:{to}"],
                dict(os.environ),
                self.logdir,
            )
            wait_tcp(DB_HOST, port, fwd, host="app1")
        env = host_env(self.args)
        setup = [PY, "-m", "bench.loadbench.prepare", "level", "--poker", str(layout.poker_tables)]
        setup += ["--scopa", str(layout.scopa_tables), "--daphne", "1", "--out", str(spec_file)]
        run(in_ns("app2", setup), env, "level set-up")
        workers = []
        for host, addr in HOSTS.items():
            self.daphne[host] = self.reg.start(
                f"{host} daphne",
                in_ns(
                    host, [PY, "-m", "daphne", "-b", addr, "-p", str(DAPHNE_PORT), "config.asgi:application"]
                ),
                env,
                self.logdir,
            )
            workers.append(
                self.reg.start(
                    f"{host} worker",
                    in_ns(host, [PY, "-m", "celery", "-A", "config", "worker", "--pool", "prefork",
                                 "--concurrency", "1", "-n", f"{host}@%h", "--loglevel", "WARNING",
                                 "--without-gossip", "--without-mingle"]),
                    env,
                    self.logdir,
                )
            )  # fmt: skip
        beat = ["-m", "celery", "-A", "config", "beat", "--loglevel", "WARNING"]
        beat += ["--schedule", str(self.logdir / "celerybeat-schedule")]
        self.reg.start("app2 beat", in_ns("app2", [PY, *beat]), env, self.logdir)
        for host, addr in HOSTS.items():
            wait_tcp(addr, DAPHNE_PORT, self.daphne[host], host=host)
        for worker in workers:
            wait_children(worker, 1)
        cfg = self.logdir / "haproxy.cfg"
        cfg.write_text(haproxy_config(self.proxy_port))
        proxy = self.reg.start("haproxy", ["haproxy", "-db", "-f", str(cfg)], dict(os.environ), self.logdir)
        wait_tcp("127.0.0.1", self.proxy_port, proxy)

    def stop(self) -> None:
        """Everything, the servers before the forwarders and Redis they use."""
        self.reg.procs.reverse()
        self.reg.stop_all()

    def host_of(self, process: str) -> str | None:
        """The host of a lease's process name (``host:pid:tag``)."""
        pid = int(process.split(":")[1])
        return next((h for h, p in self.daphne.items() if p.popen.pid == pid), None)

    def log(self, label: str) -> str:
        path = self.logdir / f"{label.replace(' ', '_')}.log"
        return path.read_text(errors="replace") if path.exists() else ""


# --- the clients -------------------------------------------------------------------------------


class PartitionBot(Bot):
    """The load bench's bot, recording each act it sends, reconnecting as the table page does."""

    def __init__(self, *a: Any, silence: float, clock: dict[str, Any], **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.silence = silence
        self.clock = clock  # the run's shared times: the cut
        self.sent: list[dict[str, Any]] = []
        self.record: dict[str, Any] | None = None
        self.seat: int | None = None
        self.first_view_after_cut: float | None = None
        self.reconnects = 0
        self.stopping = False
        self.opened_after_cut = False  # this socket was opened after the cut: its views are the heir's

    async def act(self, action: dict[str, Any], version: int) -> None:
        self.record = {"table": self.spec["table"], "seat": self.seat, "version": version, "action": action}
        self.record["t"] = time.time()
        self.sent.append(self.record)
        await super().act(action, version)

    async def on_state(self, payload: dict[str, Any]) -> None:
        self.seat = payload.get("seat", self.seat)
        if self.opened_after_cut and self.first_view_after_cut is None:
            self.first_view_after_cut = time.time()
        before = self.record if self.pending is not None else None
        await super().on_state(payload)
        if before is not None and (self.pending is None or self.record is not before):
            before["answered"] = payload["version"]

    async def handle(self, raw: str | bytes) -> None:
        msg = json.loads(raw)
        if msg.get("type") == "error" and self.pending is not None and self.record is not None:
            self.record["refused"] = msg.get("code")
        await super().handle(raw)

    async def play(self) -> None:
        """Play until stopped: a closed socket, or one silent for three beats, is opened again
        and asks ``sync`` with its last version (an act in flight then is given up: the fresh view
        says whether it was applied, and the bot decides again on it)."""
        while not self.stopping:
            if self.ws is None and not await self.connect():
                await asyncio.sleep(0.5)
                continue
            cut = self.clock.get("cut")
            self.opened_after_cut = cut is not None and time.time() > cut
            try:
                if self.reconnects:
                    await self.send({"type": "sync"})
                while True:
                    raw = await asyncio.wait_for(self.ws.recv(), timeout=self.silence)
                    await self.handle(raw)
            except (TimeoutError, websockets.ConnectionClosed) as exc:
                code = getattr(getattr(exc, "rcvd", None), "code", None)
                if code in FINAL_CODES:
                    self.stats.close_codes[str(code)] += 1
                    return
                self.stats.closed += 1
                self.stats.close_codes[str(code) if code else type(exc).__name__] += 1
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.ws.close(), 1)
            self.ws = None
            self.reconnects += 1
            self.ready_hand = None  # a "ready" sent to a host cut off is asked again (the page shows it)
            self.pending = None
            self.acted_version = -1
            await asyncio.sleep(0.2 + self.rng.randbelow(300) / 1000)


# --- the checks ---------------------------------------------------------------------------------


def django_ready(redis_port: int) -> None:
    import django

    os.environ.update(local_env(redis_port))
    django.setup()


def leases() -> dict[int, str]:
    from django.db import connection

    from lobby.models import TableLease

    try:
        return dict(TableLease.objects.values_list("table_id", "process"))
    finally:
        connection.close()


def idle_transactions() -> list[str]:
    """The run database's sessions idle inside a transaction for over a second, and their last statement."""
    with pg(RUN_DB) as conn:
        rows = conn.execute(
            "SELECT pid, round(extract(epoch FROM now() - xact_start)), left(query, 150)"
            " FROM pg_stat_activity WHERE datname = %s AND state = 'idle in transaction'"
            " AND now() - state_change > interval '1 second'",
            [RUN_DB],
        ).fetchall()
    return [f"pid {pid}, open {age} s, last: {query}" for pid, age, query in rows]


def hands_running(table_ids: list[int]) -> int:
    """How many of these tables have a hand (a partita) in progress."""
    from django.db import connection

    from lobby.models import Hand

    try:
        running = Hand.objects.filter(table_id__in=table_ids, outcome__isnull=True, cancelled=False)
        return running.values("table_id").distinct().count()
    finally:
        connection.close()


def match_acts(sent: list[dict[str, Any]], steps: list[tuple[int, int, int, Any]]) -> dict[str, Any]:
    """Each journal step of a player matched to one act his client sent; the acts answered unmatched.

    A step at version ``w`` of a seat is the act of that seat sent on a view ``v`` with the same
    action, ``prev <= v < w``, where ``prev`` is the seat's previous step (an act sent before a
    seat's own step can open no later decision of his: a second step from it is a double).
    """
    by_seat: dict[tuple[int, int], list[dict[str, Any]]] = defaultdict(list)
    for act in sent:
        by_seat[(act["table"], act["seat"])].append(act)
    unmatched_steps = []
    prev: dict[tuple[int, int], int] = {}
    for table, seat, version, action in steps:
        key = (table, seat)
        floor = prev.get(key, -1)
        fits = [
            a
            for a in by_seat.get(key, [])
            if "step" not in a and a["action"] == action and floor <= a["version"] < version
        ]
        if fits:
            max(fits, key=lambda a: a["version"])["step"] = version
        else:
            unmatched_steps.append((table, seat, version, action))
        prev[key] = version
    lost = [
        a
        for a in sent
        if "step" not in a and "answered" in a and not a.get("refused")
        # answered by a view where the seat's own step is another act of the same view (a retry)
        and not any(
            b is not a and "step" in b and b["table"] == a["table"] and b["seat"] == a["seat"]
            and b["version"] == a["version"]
            for b in by_seat[(a["table"], a["seat"])]
        )
    ]  # fmt: skip
    return {"doubled": unmatched_steps, "lost": lost}


def journal_and_ledger(table_ids: list[int], sent: list[dict[str, Any]]) -> dict[str, Any]:
    from django.db import connection
    from django.db.models import Sum

    from lobby.models import Hand, HandStep, Seat
    from lobby.replay import walk_hand
    from wallet.models import Account, Posting, Transaction, TransactionKind

    try:
        steps = list(
            HandStep.objects.filter(hand__table_id__in=table_ids)
            .order_by("hand__table_id", "version", "hand__number", "seq")
            .values_list("hand__table_id", "seat", "version", "action", "automatic")
        )
        player_steps = [(t, s, v, a) for t, s, v, a, auto in steps if not auto]
        versions = Counter((t, v) for t, _, v, _, _ in steps)
        matched = match_acts(sent, player_steps)
        replay_failures = []
        hands = list(Hand.objects.filter(table_id__in=table_ids).order_by("table_id", "number"))
        for hand in hands:
            try:
                for _ in walk_hand(hand):
                    pass
            except Exception as exc:
                replay_failures.append(f"table {hand.table_id} hand {hand.number}: {exc!r}"[:200])
        postings_sum = Posting.objects.aggregate(s=Sum("amount"))["s"] or 0
        accounts_sum = Account.objects.aggregate(s=Sum("balance"))["s"] or 0
        unbalanced = Posting.objects.values("transaction_id").annotate(s=Sum("amount")).exclude(s=0).count()
        hand_txs = Counter(
            Transaction.objects.filter(kind=TransactionKind.HAND).values_list("data__hand", flat=True)
        )
        settled_twice = sorted(h for h, n in hand_txs.items() if n > 1)
        tables = {}
        for table_id in table_ids:
            tables[table_id] = table_money(table_id, [h for h in hands if h.table_id == table_id])
        return {
            "steps": len(steps),
            "player_steps": len(player_steps),
            "acts_sent": len(sent),
            "acts_answered": sum(1 for a in sent if "answered" in a),
            "acts_refused": Counter(a["refused"] for a in sent if a.get("refused")),
            "lost": matched["lost"],
            "doubled": matched["doubled"],
            "versions_twice": sorted(k for k, n in versions.items() if n > 1),
            "hands": len(hands),
            "replay_failures": replay_failures,
            "postings_sum": postings_sum,
            "accounts_sum": accounts_sum,
            "unbalanced_transactions": unbalanced,
            "settled_twice": settled_twice,
            "money": tables,
            "seats": Seat.objects.filter(table_id__in=table_ids).count(),
        }
    finally:
        connection.close()


def table_money(table_id: int, hands: list[Any]) -> dict[str, Any]:
    """One table's money: buy-ins less cash-outs = credits + carried pot + rake, and each hand's
    starting chips = the previous hand's plus its settlement, the last hand's (plus its own, if
    settled) = the credits."""
    from django.db.models import Sum

    from lobby.models import Seat
    from wallet.ledger import table_key, table_pot_key
    from wallet.models import Account, AccountKind, Posting, Transaction, TransactionKind

    # every session of the table: its seats now, and those dealt in (a player stood up has cashed out)
    sessions = set(Seat.objects.filter(table_id=table_id).values_list("session_ref", flat=True))
    sessions |= {seat["session_ref"] for hand in hands for seat in hand.seats}
    account = {table_key(ref).ref: ref for ref in sessions}  # the credit's account: the session's
    refs = list(account)
    credits = Account.objects.filter(kind=AccountKind.TABLE_CREDIT, ref__in=refs)
    balances = credits.values_list("ref", "balance")
    credit = {account[a]: b for a, b in balances}
    # the money moved in from outside the table, net: buy-ins and rebuys, less cash-outs
    buy_ins = (
        Posting.objects.filter(account__kind=AccountKind.TABLE_CREDIT, account__ref__in=refs)
        .exclude(transaction__kind=TransactionKind.HAND)
        .aggregate(s=Sum("amount"))["s"]
        or 0
    )
    pot = Account.objects.filter(
        kind=AccountKind.TABLE_POT, ref=table_pot_key(f"table-{table_id}").ref
    ).values_list("balance", flat=True)
    txs = {
        t.data.get("hand"): t
        for t in Transaction.objects.filter(kind=TransactionKind.HAND, data__hand__startswith=f"{table_id}:")
    }
    rake = sum(int(t.data.get("rake") or 0) for t in txs.values())

    def settled(hand: Any) -> dict[str, int]:
        tx = txs.get(f"{table_id}:{hand.number}")
        if tx is None:
            return {}
        rows = tx.postings.filter(account__kind=AccountKind.TABLE_CREDIT).values_list(
            "account__ref", "amount"
        )
        return {account[a]: amount for a, amount in rows if a in account}

    chain_breaks = []
    chips: dict[str, int] | None = None
    for hand in hands:
        start = {s["session_ref"]: int(s["chips"]) for s in hand.seats}
        if chips is not None and any(chips.get(ref, start[ref]) != start[ref] for ref in start):
            chain_breaks.append(hand.number)
        moved = settled(hand) if hand.outcome is not None else {}
        chips = {ref: c + moved.get(ref, 0) for ref, c in start.items()}
    if chips is not None and any(credit.get(ref, 0) != c for ref, c in chips.items()):
        chain_breaks.append("credits")
    held = sum(credit.values()) + sum(pot) + rake
    return {"buy_ins": buy_ins, "held": held, "rake": rake, "chain_breaks": chain_breaks}


# --- one run -----------------------------------------------------------------------------------


async def wait_until(check: Any, timeout: float, what: str, every: float = 0.2) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        result = await asyncio.to_thread(check) if not asyncio.iscoroutinefunction(check) else await check()
        if result:
            return result
        await asyncio.sleep(every)
    raise RuntimeError(f"timed out ({timeout:.0f} s) waiting for {what}")


async def one_run(args: argparse.Namespace, index: int, logroot: Path, redis_port: int) -> dict[str, Any]:
    layout = Layout.for_clients(args.clients)
    logdir = logroot / f"run{index}"
    logdir.mkdir(parents=True, exist_ok=True)
    stack = Stack(args, logdir, redis_port)
    bots: list[PartitionBot] = []
    tasks: list[asyncio.Task[None]] = []
    try:
        net_up()
        rabbit_vhost()
        fresh_run_db()
        stack.start_redis()
        spec_file = logdir / "clients.json"
        await asyncio.to_thread(stack.start, spec_file, layout)
        spec = json.loads(spec_file.read_text())
        stats = Stats()
        clock: dict[str, Any] = {}
        url = f"ws://127.0.0.1:{stack.proxy_port}/ws/table/{{}}/"
        for i, c in enumerate(spec["clients"]):
            cookie = f"{spec['cookie_name']}={c['session']}"
            bot = PartitionBot(c, url.format(c["table"]), cookie, stats, seed=args.seed * 100_003 + i,
                               silence=3 * args.heartbeat, clock=clock)  # fmt: skip
            bots.append(bot)
        tasks = [asyncio.create_task(b.play()) for b in bots]
        table_ids = sorted({c["table"] for c in spec["clients"]})

        def owned_by_both() -> dict[int, str] | None:
            held = {t: stack.host_of(p) for t, p in leases().items()}
            return held if len(held) == len(table_ids) and set(held.values()) == set(HOSTS) else None

        owners = await wait_until(owned_by_both, 60, "every table owned, by both hosts")
        cut_tables = sorted(t for t, h in owners.items() if h == CUT)
        log(f"   run {index}: {len(table_ids)} tables, {len(cut_tables)} owned by {CUT}: {cut_tables}")
        await asyncio.sleep(args.warmup)
        window_start = time.time()
        stats.window = (window_start, window_start + args.window)
        await asyncio.sleep(args.window)
        samples = list(stats.samples)
        stats.window = (math.inf, math.inf)

        # the cut, mid-hand: the cut host's tables are playing
        # (a moment when every one of them is mid-hand, if one comes within 10 s; at least one is)
        deadline = time.monotonic() + 10
        while (mid_hand := await asyncio.to_thread(hands_running, cut_tables)) < len(cut_tables):
            if time.monotonic() > deadline and mid_hand:
                break
            if time.monotonic() > deadline + 50:
                raise RuntimeError(f"no table of {CUT} mid-hand for a minute")
            await asyncio.sleep(0.05)
        clock["cut"] = time.time()
        link(CUT, up=False)
        cut_mono = time.monotonic()

        def adopted() -> bool:
            held = leases()
            return all(stack.host_of(held.get(t, "x:0:x")) == other(CUT) for t in cut_tables)

        try:
            await wait_until(adopted, args.lease * 3, f"{CUT}'s tables adopted by {other(CUT)}")
        except RuntimeError:  # late: say which transactions of the cut host hold rows meanwhile
            for row in await asyncio.to_thread(idle_transactions):
                log(f"   run {index}: idle in transaction on the database: {row}")
            await wait_until(adopted, 90, f"{CUT}'s tables adopted by {other(CUT)}")
        adopted_s = time.monotonic() - cut_mono
        log(f"   run {index}: {CUT} cut; its tables adopted by {other(CUT)} after {adopted_s:.1f} s")

        def resynced() -> bool:
            return all(b.first_view_after_cut is not None for b in bots if b.spec["table"] in cut_tables)

        await wait_until(resynced, 120, "the clients of the cut tables resynced")
        takeover = sorted(
            min(b.first_view_after_cut for b in bots if b.spec["table"] == t) - clock["cut"]
            for t in cut_tables
        )

        def answered(t: int) -> int:
            return sum(1 for b in bots if b.spec["table"] == t for a in b.sent if "answered" in a)

        at_takeover = {t: answered(t) for t in cut_tables}

        def playing_on() -> bool:
            return all(answered(t) > at_takeover[t] for t in cut_tables)

        try:  # (a long takeover sits players out: a bot, unlike a person, never comes back from it)
            await wait_until(playing_on, 60, "an answered act at each taken-over table")
        except RuntimeError as exc:
            log(f"   run {index}: {exc}")
        played_on = sum(1 for t in cut_tables if answered(t) > at_takeover[t])
        # the reference, in the same run: the same clients on the one host left
        stats.samples.clear()
        window_start = time.time()
        stats.window = (window_start, window_start + args.window)
        await asyncio.sleep(args.window)
        alone = list(stats.samples)
        stats.window = (math.inf, math.inf)
        await asyncio.sleep(max(0.0, args.cut - (time.monotonic() - cut_mono)))
        healed = time.monotonic()
        link(CUT, up=True)
        gone = "owner abandoned (lease lost)"
        stale_stopped_s: float | None = None
        try:
            await wait_until(
                lambda: stack.log(f"{CUT} daphne").count(gone) >= len(cut_tables),
                args.stale_wait,
                f"{CUT}'s stale owners stopping",
            )
            stale_stopped_s = time.monotonic() - healed
            log(f"   run {index}: link back; {CUT}'s stale owners stopped after {stale_stopped_s:.1f} s")
        except RuntimeError as exc:  # reported (a failure), and the journal and the ledger still checked
            log(f"   run {index}: link back; {exc}")
        await asyncio.sleep(args.after)
        for b in bots:
            b.stopping = True
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*(b.ws.close() for b in bots if b.ws is not None), return_exceptions=True)
        await asyncio.to_thread(stack.stop)
        sent = [a for b in bots for a in b.sent]
        checks = await asyncio.to_thread(journal_and_ledger, table_ids, sent)
        cut_log = stack.log(f"{CUT} daphne")
        return {
            "run": index,
            "tables": len(table_ids),
            "cut_tables": len(cut_tables),
            "mid_hand": mid_hand,
            "clients": len(bots),
            "p50": percentile(samples, 50),
            "p99": percentile(samples, 99),
            "window_acts": len(samples),
            "alone_p50": percentile(alone, 50),
            "alone_p99": percentile(alone, 99),
            "alone_acts": len(alone),
            "window_s": args.window,
            "adopted_s": adopted_s,
            "takeover_s": takeover,
            "stale_stopped_s": stale_stopped_s,
            "stale_wait": args.stale_wait,
            "played_on": played_on,
            "reconnects": sum(b.reconnects for b in bots),
            "close_codes": dict(stats.close_codes),
            "stale_refused_steps": cut_log.count("journal: step"),
            "fenced": cut_log.count("lobby.errors.TableElsewhere:"),
            **checks,
        }
    finally:
        for t in tasks:
            t.cancel()
        with contextlib.suppress(Exception):
            link(CUT, up=True)
        stack.stop()
        if not args.keep_net:
            net_down()


def other(host: str) -> str:
    return next(h for h in HOSTS if h != host)


def failures(r: dict[str, Any]) -> list[str]:
    """What went wrong: the invariants (``broken``) and the cut host's recovery."""
    out = broken(r)
    if r["stale_stopped_s"] is None:
        out.append(f"the cut host's stale owners did not stop (the link back for {r['stale_wait']:.0f} s)")
    return out


def broken(r: dict[str, Any]) -> list[str]:
    """The invariants: nothing lost or applied twice, no stale write, the ledger exact."""
    out = []
    if r["lost"]:
        out.append(f"{len(r['lost'])} acts lost")
    if r["doubled"]:
        out.append(f"{len(r['doubled'])} journal steps no act explains (doubled or written by a stale owner)")
    if r["versions_twice"]:
        out.append(f"versions written twice: {r['versions_twice'][:5]}")
    if r["replay_failures"]:
        out.append(f"hands that do not replay: {r['replay_failures'][:3]}")
    if r["postings_sum"] or r["accounts_sum"] or r["unbalanced_transactions"]:
        out.append("the ledger does not sum to zero")
    if r["settled_twice"]:
        out.append(f"hands settled twice: {r['settled_twice'][:5]}")
    for t, m in r["money"].items():
        if m["buy_ins"] != m["held"] or m["chain_breaks"]:
            out.append(f"table {t}: money not conserved {m}")
    return out


def report(r: dict[str, Any]) -> None:
    stopped = "never" if r["stale_stopped_s"] is None else f"{r['stale_stopped_s']:.1f} s"
    tk = r["takeover_s"]
    log(
        f"   run {r['run']}: {r['clients']} clients at {r['tables']} tables,"
        f" {r['cut_tables']} on the cut host, {r['mid_hand']} of them mid-hand at the cut"
    )
    log(
        f"     p99 across the two hosts {r['p99']:.1f} ms (p50 {r['p50']:.1f}; {r['window_acts']} acts"
        f" in {r['window_s']:.0f} s); {other(CUT)} alone, after the takeover: p99 {r['alone_p99']:.1f} ms"
        f" (p50 {r['alone_p50']:.1f}; {r['alone_acts']} acts in {r['window_s']:.0f} s)"
    )
    log(
        f"     takeover: leases adopted {r['adopted_s']:.1f} s after the cut; first view at each table"
        f" {min(tk):.1f}-{max(tk):.1f} s (median {percentile(tk, 50):.1f}); sockets reopened"
        f" {r['reconnects']}; tables playing on {r['played_on']}/{r['cut_tables']};"
        f" stale owners stopped {stopped} after the link came back"
    )
    log(
        f"     acts sent {r['acts_sent']}, answered {r['acts_answered']}, refused {dict(r['acts_refused'])};"
        f" journal {r['steps']} steps ({r['player_steps']} players'), {r['hands']} hands replayed"
        f" ({len(r['replay_failures'])} failed)"
    )
    log(
        f"     lost {len(r['lost'])}, doubled {len(r['doubled'])}, versions twice {len(r['versions_twice'])};"
        f" the stale host's late writes refused: journal steps {r['stale_refused_steps']}"
        f" (unique (hand, seq)), fenced by the epoch {r['fenced']}"
    )
    money = sum(m["buy_ins"] for m in r["money"].values())
    kept = sum(1 for m in r["money"].values() if m["buy_ins"] == m["held"] and not m["chain_breaks"])
    log(
        f"     ledger: postings sum {r['postings_sum']}, accounts sum {r['accounts_sum']}, unbalanced"
        f" transactions {r['unbalanced_transactions']}, hands settled twice {len(r['settled_twice'])};"
        f" tables conserved {kept}"
        f"/{len(r['money'])} ({money} cents bought in)"
    )
    bad = failures(r)
    log("     verdict: " + ("PASS" if not bad else "FAIL: " + "; ".join(bad)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.partition", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=30, help="bot clients (half poker, half scopa)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--lease", type=float, default=6.0, help="LOBBY_LEASE_SECONDS of the servers")
    parser.add_argument("--heartbeat", type=float, default=1.0, help="LOBBY_HEARTBEAT_SECONDS")
    parser.add_argument("--warmup", type=float, default=3.0, help="play before the measured window (s)")
    parser.add_argument("--window", type=float, default=10.0, help="the p99's window, both hosts up (s)")
    parser.add_argument("--cut", type=float, default=0.0, help="keep the link down at least this long (s)")
    parser.add_argument("--after", type=float, default=5.0, help="play after the stale owners stopped (s)")
    parser.add_argument(
        "--stale-wait", type=float, default=240.0, help="how long the cut host's owners may take to stop (s)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--logs", default="", help="directory for the processes' logs (default: a temp dir)")
    parser.add_argument("--keep-net", action="store_true", help="leave the namespaces and bridge in place")
    parser.add_argument("--json", action="store_true", help="also print one 'result {json}' line per run")
    args = parser.parse_args(argv)
    why = missing()
    if why:
        log(f"cannot run: {why}")
        return 2
    logroot = Path(args.logs or tempfile.mkdtemp(prefix="partition-"))
    log("Partition of the production stack across simulated hosts (python -m bench.partition)")
    log(
        f"hosts {', '.join(f'{h} {a}' for h, a in HOSTS.items())}, databases {DB_HOST}; lease"
        f" {args.lease:g} s, heartbeat {args.heartbeat:g} s; logs in {logroot}"
    )

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    lock = open("/run/lock/bench-partition.lock", "w")  # noqa: SIM115  # held until the process ends
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        log("cannot run: another bench.partition is running (its namespaces and databases are the same)")
        return 2
    redis_port = free_port()
    django_ready(redis_port)
    prepare_template(Layout.for_clients(args.clients), redis_port)
    ok = True
    for i in range(1, args.runs + 1):
        try:
            r = asyncio.run(one_run(args, i, logroot, redis_port))
        except RuntimeError as exc:
            log(f"   run {i}: FAILED: {exc}")
            ok = False
            continue
        report(r)
        if args.json:
            log("result " + json.dumps({**r, "lost": len(r["lost"]), "doubled": r["doubled"]}, default=str))
        ok = ok and not failures(r)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
