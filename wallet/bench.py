"""Ledger throughput on PostgreSQL against pgbench on the same server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/piattaforma .venv/bin/python -m wallet.bench

Creates two scratch databases next to the one in DATABASE_URL (dropped at the end): one migrated
for the ledger, where 8 worker processes run ``wallet.actions.ledger_transfer`` (idempotency key,
locks in primary-key order, guarded balance update, postings, transaction, deferred balance
checks) between random pairs of 1 000 funded accounts; and one for ``pgbench -i -s 8`` followed
by the TPC-B-like default script with 8 clients. Prints transfers/s, tps and their ratio
(target >= 0.5). Each worker keeps one database connection for the whole run; on PostgreSQL a
transfer is one round trip to the stored function ``wallet_transfer`` (migration 0005).

As a reference only (not the figure), each round also runs pgbench with 8 clients calling
``wallet_transfer`` directly on the ledger database: the database's own cost of a transfer
without Python and Django. When the ledger figure is close to that reference, the remaining gap to
pgbench is the database work a double-entry transfer does (see "Benchmark" in wallet/README.md).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Any
from urllib.parse import urlparse, urlunparse

WORKERS = 8
ACCOUNTS = 1_000
SCALE = 8
WARM_UP_SECONDS = 2.0


def _url_for(url: str, dbname: str) -> str:
    return urlunparse(urlparse(url)._replace(path=f"/{dbname}"))


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(_url_for(url, "postgres"), autocommit=True) as conn:
        conn.execute(sql)


def _django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "piattaforma.settings.test")
    import django

    django.setup()


def _worker(url: str, pks: list[int], wid: int, orders: Any, out: Any) -> None:
    _django(url)
    from wallet import actions
    from wallet.errors import WalletError

    rng = random.Random(wid)
    out.put("ready")
    i = 0
    while (seconds := orders.get()) is not None:
        done = failed = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            a, b = rng.sample(pks, 2)
            try:
                actions.ledger_transfer(
                    source_id=a,
                    destination_id=b,
                    amount=rng.randint(1, 100),
                    idempotency_key=f"bench:{wid}:{i}",
                )
                done += 1
            except WalletError:
                failed += 1
            i += 1
        out.put((done, failed))


def _sql_only_script(pks: list[int]) -> str:
    """A pgbench script calling the ledger's stored function directly: the database side alone.

    Not the benchmark's figure (that one goes through ``wallet.actions.ledger_transfer``): a
    reference showing how much of a transfer's cost is the database's own work (locks, checks,
    rows, indexes, triggers, commit), with pgbench's C client instead of Python and Django.
    """
    from wallet.models import NEGATIVE_KINDS

    low, count = min(pks), len(pks)
    if sorted(pks) != list(range(low, low + count)):
        raise RuntimeError("wallet.bench: the bench accounts are expected to have consecutive ids")
    kinds = "{" + ",".join(NEGATIVE_KINDS) + "}"
    text = (
        f"\\set a random({low}, {low + count - 1})\n"
        f"\\set b {low} + ((:a - {low} + random(1, {count - 1})) % {count})\n"
        "\\set amount random(1, 100)\n"
        "SELECT outcome FROM wallet_transfer('sql:' || :client_id || ':' || random()::text, "
        f"'transfer', 'pgbench', 'transfer', :a, :b, :amount, '', '{kinds}');\n"
    )
    fd, path = tempfile.mkstemp(prefix="wallet_bench_", suffix=".sql")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    return path


class LedgerBench:
    """A migrated scratch ledger with funded accounts and 8 worker processes waiting for rounds."""

    def __init__(self, url: str) -> None:
        _django(url)
        from django.core.management import call_command
        from django.db import connections, transaction

        from wallet import ledger
        from wallet.models import Account, AccountKind, TransactionKind

        call_command("migrate", verbosity=0)
        Account.objects.bulk_create(
            [Account(kind=AccountKind.PLAYER_CASH, ref=f"bench:{i}") for i in range(ACCOUNTS)]
        )
        with transaction.atomic():
            keys = [ledger.house_key(AccountKind.PAYMENTS_CLEARING)]
            keys += [
                ledger.AccountKey(AccountKind.PLAYER_CASH, "real", f"bench:{i}") for i in range(ACCOUNTS)
            ]
            locked = ledger.accounts_lock(keys)
            legs = [(locked[keys[0]], -ACCOUNTS * 1_000_000)] + [(locked[k], 1_000_000) for k in keys[1:]]
            ledger.post(kind=TransactionKind.DEPOSIT, realm="real", legs=legs, memo="bench funding")
        pks = list(Account.objects.filter(kind=AccountKind.PLAYER_CASH).values_list("pk", flat=True))
        self.pks = pks
        self.sql_script = _sql_only_script(pks)
        connections.close_all()
        ctx = mp.get_context("spawn")
        self.out = ctx.Queue()
        self.orders = [ctx.Queue() for _ in range(WORKERS)]
        self.procs = [
            ctx.Process(target=_worker, args=(url, pks, w, self.orders[w], self.out), daemon=True)
            for w in range(WORKERS)
        ]
        for p in self.procs:
            p.start()
        for _ in self.procs:
            self.out.get(timeout=120)
        # Warm-up, then fresh statistics (``pgbench -i`` leaves its tables analysed too). Analysed
        # right after the funding, the planner would take the 1 001-posting funding transaction for
        # typical; never analysed, it has no idea: either way the deferred balance check's cached
        # plan scans every account. A live ledger is analysed by autovacuum over many small
        # transactions, which is what this reproduces.
        self.done = self.refused = 0
        self.elapsed = 0.0
        self.round(WARM_UP_SECONDS)
        with connections["default"].cursor() as cur:
            cur.execute("VACUUM ANALYZE")
        connections.close_all()
        self.done = self.refused = 0
        self.elapsed = 0.0

    def round(self, seconds: float) -> float:
        t0 = time.perf_counter()
        for q in self.orders:
            q.put(seconds)
        results = [self.out.get(timeout=seconds + 120) for _ in self.procs]
        elapsed = time.perf_counter() - t0
        done: int = sum(r[0] for r in results)
        self.done += done
        self.refused += sum(r[1] for r in results)
        self.elapsed += elapsed
        return done / elapsed

    def close(self) -> dict[str, Any]:
        for q in self.orders:
            q.put(None)
        for p in self.procs:
            p.join()
        from django.db import connections

        from wallet import selectors

        report = selectors.reconciliation_report()
        connections.close_all()
        return {"transfers": self.done, "refused": self.refused, "reconciliation_ok": report["ok"]}


class PgBench:
    """pgbench -i -s 8 on a scratch database, then timed TPC-B-like runs with 8 clients."""

    def __init__(self, url: str, script: str | None = None) -> None:
        self.exe = shutil.which("pgbench") or "/usr/lib/postgresql/15/bin/pgbench"
        u = urlparse(url)
        self.conn = [
            "-h",
            u.hostname or "127.0.0.1",
            "-p",
            str(u.port or 5432),
            "-U",
            u.username or "postgres",
        ]
        self.env = {**os.environ, "PGPASSWORD": u.password or ""}
        self.db = u.path.lstrip("/")
        self.script = ["-n", "-f", script] if script else []
        if not script:
            subprocess.run(
                [self.exe, *self.conn, "-i", "-q", "-s", str(SCALE), self.db],
                check=True,
                env=self.env,
                capture_output=True,
            )
        self.tx = 0.0
        self.elapsed = 0.0

    def round(self, seconds: float, clients: int = WORKERS) -> float:
        run = subprocess.run(
            [
                self.exe,
                *self.conn,
                *self.script,
                "-c",
                str(clients),
                "-j",
                str(clients),
                "-T",
                str(int(seconds)),
                self.db,
            ],
            check=True,
            env=self.env,
            capture_output=True,
            text=True,
        )
        match = re.search(r"tps = ([\d.]+)", run.stdout)
        if not match:
            raise RuntimeError(run.stdout + run.stderr)
        tps = float(match.group(1))
        if clients == WORKERS:
            self.tx += tps * int(seconds)
            self.elapsed += int(seconds)
        return tps


def _proc_cpu(pid: int, children: bool = False) -> float:
    """CPU seconds of a process (and of its reaped children) from /proc (Linux, local server)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12]) + (int(fields[13]) + int(fields[14]) if children else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def _server_cpu(postmaster: int) -> float:
    """CPU seconds of the whole server: postmaster, its live children and the backends it reaped."""
    total = _proc_cpu(postmaster, children=True)
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
                if ppid == postmaster:
                    total += _proc_cpu(int(entry))
            except (OSError, ValueError):
                continue
    return total


def cpu_probe(pks: list[int], pg_side: PgBench, sql_side: PgBench, seconds: float = 3.0) -> None:
    """One client at a time: server CPU per TPC-B transaction and per transfer, client CPU per transfer.

    Needs the server on this machine (/proc readable); prints nothing otherwise.
    """
    from django.db import connection

    from wallet import actions

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        backend = cur.fetchone()[0]
    try:
        with open(f"/proc/{backend}/stat") as f:
            postmaster = int(f.read().rsplit(")", 1)[1].split()[1])
    except OSError:
        return
    rng = random.Random(0)
    n, c0, b0, deadline = 0, time.process_time(), _proc_cpu(backend), time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        a, b = rng.sample(pks, 2)
        actions.ledger_transfer(source_id=a, destination_id=b, amount=1, idempotency_key=f"cpu:{n}")
        n += 1
    client, server = (time.process_time() - c0) / n, (_proc_cpu(backend) - b0) / n
    connection.close()
    per_tx = {}
    for name, side in (("pgbench", pg_side), ("sql", sql_side)):
        s0 = _server_cpu(postmaster)
        tps = side.round(seconds, clients=1)
        per_tx[name] = (_server_cpu(postmaster) - s0) / (tps * int(seconds))
    print(
        f"CPU per transaction, one client: ledger_transfer {server * 1e6:.0f} µs server"
        f" + {client * 1e6:.0f} µs Python;  wallet_transfer via pgbench {per_tx['sql'] * 1e6:.0f} µs server;"
        f"  pgbench TPC-B-like {per_tx['pgbench'] * 1e6:.0f} µs server"
    )


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, alternating ledger and pgbench")
    parser.add_argument(
        "--cpu", action="store_true", help="also measure CPU per transaction, one client (local server)"
    )
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("wallet.bench needs DATABASE_URL pointing to PostgreSQL", file=sys.stderr)
        return 2
    suffix = os.getpid()
    ledger_db, pgbench_db = f"wallet_bench_{suffix}", f"wallet_pgbench_{suffix}"
    _admin(url, f"CREATE DATABASE {ledger_db}")
    _admin(url, f"CREATE DATABASE {pgbench_db}")
    try:
        # Rounds alternate so that load from other processes on the machine hits both sides alike.
        ledger_side, pg_side = LedgerBench(_url_for(url, ledger_db)), PgBench(_url_for(url, pgbench_db))
        sql_side = PgBench(_url_for(url, ledger_db), script=ledger_side.sql_script)
        for r in range(args.rounds):
            rate, tps = ledger_side.round(args.seconds), pg_side.round(args.seconds)
            sql = sql_side.round(args.seconds)
            print(
                f"round {r + 1}: ledger {rate:8.1f} transfers/s   pgbench {tps:8.1f} tps"
                f"   (SQL alone {sql:8.1f} calls/s)",
                flush=True,
            )
        if args.cpu:
            cpu_probe(ledger_side.pks, pg_side, sql_side)
        info = ledger_side.close()
        os.unlink(ledger_side.sql_script)
    finally:
        _admin(url, f"DROP DATABASE IF EXISTS {ledger_db} WITH (FORCE)")
        _admin(url, f"DROP DATABASE IF EXISTS {pgbench_db} WITH (FORCE)")
    rate = ledger_side.done / ledger_side.elapsed
    tps = pg_side.tx / pg_side.elapsed
    print(f"ledger transfers/s, {WORKERS} workers  : {rate:10.1f}   ({info})")
    print(f"pgbench TPC-B-like tps, {WORKERS} clients: {tps:10.1f}   (scale {SCALE})")
    print(f"ratio ledger/pgbench            : {rate / tps:10.2f}   (target >= 0.5)")
    sql = sql_side.tx / sql_side.elapsed
    print(
        f"reference, not the figure: the stored transfer called by pgbench itself (no Python): "
        f"{sql:.1f} calls/s, {sql / tps:.2f} of pgbench"
    )
    print(f"load average                    : {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
