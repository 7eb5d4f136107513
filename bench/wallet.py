"""Ledger throughput on PostgreSQL against pgbench on the same server.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/piattaforma .venv/bin/python -m bench.wallet

Creates two scratch databases next to the one in DATABASE_URL (dropped at the end): one migrated
for the ledger, where 8 worker processes run ``wallet.actions.ledger_transfer`` (idempotency key,
locks in primary-key order, guarded balance update, postings, transaction, deferred balance
checks) between random pairs of 1 000 funded accounts; and one for ``pgbench -i -s 8`` followed
by the TPC-B-like default script with 8 clients (``pgbench -c 8 -j 2 -T <seconds>``). Prints
transfers/s, tps and their ratio (target >= 0.5). Each worker keeps one database connection for
the whole run; on PostgreSQL a transfer is one round trip to the stored function
``wallet_transfer`` (migration 0005), called as a prepared statement.

When the server is on this machine it also prints the CPU each side costs per transaction, read
from /proc: the Python workers and their 8 server backends for the ledger, the pgbench process
and its 8 backends for TPC-B, and the ratio those costs predict when the machine's CPU is the
limit (the figure that moves least with other load on a shared machine).

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
import resource
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
THREADS = 2  # pgbench -j: its client threads (the machine this was tuned on has 2 cores)
WARM_UP_SECONDS = 2.0


def _url_for(url: str, dbname: str) -> str:
    return urlunparse(urlparse(url)._replace(path=f"/{dbname}"))


def _admin(url: str, sql: str) -> None:
    import psycopg

    with psycopg.connect(_url_for(url, "postgres"), autocommit=True) as conn:
        conn.execute(sql)


def _django(url: str) -> None:
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()


def _worker(url: str, pks: list[int], wid: int, orders: Any, out: Any) -> None:
    _django(url)
    from django.db import connection

    from wallet import actions
    from wallet.errors import WalletError

    with connection.cursor() as cur:
        cur.execute("SELECT pg_backend_pid()")
        backend = cur.fetchone()[0]
    rng = random.Random(wid)
    out.put(("ready", os.getpid(), backend))
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
        raise RuntimeError("bench.wallet: the bench accounts are expected to have consecutive ids")
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
        with connections["default"].cursor() as cur:
            cur.execute("ANALYZE")
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
        ready = [self.out.get(timeout=120) for _ in self.procs]
        self.worker_pids = [r[1] for r in ready]
        self.backend_pids = [r[2] for r in ready if _is_postgres(r[2])]  # empty: server not local
        self.client_cpu = self.server_cpu = 0.0
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
        self.elapsed = self.client_cpu = self.server_cpu = 0.0

    def round(self, seconds: float) -> float:
        c0, s0 = _cpu_of(self.worker_pids), _cpu_of(self.backend_pids)
        t0 = time.perf_counter()
        for q in self.orders:
            q.put(seconds)
        results = [self.out.get(timeout=seconds + 120) for _ in self.procs]
        elapsed = time.perf_counter() - t0
        self.client_cpu += _cpu_of(self.worker_pids) - c0
        self.server_cpu += _cpu_of(self.backend_pids) - s0
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
        self.admin_url = _url_for(url, "postgres")
        self.tx = 0.0
        self.elapsed = 0.0
        self.client_cpu = self.server_cpu = 0.0
        self.sampled_tx = 0.0

    def round(self, seconds: float, clients: int = WORKERS) -> float:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        command = [
            self.exe,
            *self.conn,
            *self.script,
            "-c",
            str(clients),
            "-j",
            str(min(clients, THREADS)),
            "-T",
            str(int(seconds)),
            self.db,
        ]
        with subprocess.Popen(
            command, env=self.env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        ) as run:
            window = self._sample_backends(run, clients)
            stdout, stderr = run.communicate()
        if run.returncode:
            raise RuntimeError(stdout + stderr)
        match = re.search(r"tps = ([\d.]+)", stdout)
        if not match:
            raise RuntimeError(stdout + stderr)
        tps = float(match.group(1))
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if clients == WORKERS:
            self.tx += tps * int(seconds)
            self.elapsed += int(seconds)
            self.client_cpu += (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            if window is not None:
                self.server_cpu += window[0]
                self.sampled_tx += tps * window[1]
        return tps

    def _sample_backends(self, run: subprocess.Popen[str], clients: int) -> tuple[float, float] | None:
        """CPU seconds of pgbench's server backends over a window of the run, and the window's length.

        The backends are found in pg_stat_activity once all ``clients`` are connected, then read
        from /proc every 0.1 s while they live (local server only; None otherwise).
        """
        import psycopg

        pids: list[int] = []
        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            while run.poll() is None and len(pids) < clients:
                time.sleep(0.1)
                rows = conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE datname = %s AND backend_type = 'client backend'",
                    [self.db],
                ).fetchall()
                pids = [r[0] for r in rows]
        if len(pids) != clients or not all(_is_postgres(pid) for pid in pids):
            return None
        first = last = (_cpu_of(pids), time.perf_counter())
        while run.poll() is None:
            time.sleep(0.1)
            sample = (_cpu_of(pids), time.perf_counter())
            if sample[0] < last[0]:  # a backend has exited: keep the last complete sample
                break
            last = sample
        return last[0] - first[0], last[1] - first[1]


def _proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process, from /proc (Linux)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _is_postgres(pid: int) -> bool:
    """Whether ``pid`` is a PostgreSQL process on this machine (the server is local)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(" ", 2)[1] == "(postgres)"
    except OSError:
        return False


def _cpu_of(pids: list[int]) -> float:
    """CPU seconds used so far by these processes (0 for one that cannot be read: server not local)."""
    total = 0.0
    for pid in pids:
        try:
            total += _proc_cpu(pid)
        except OSError:
            continue
    return total


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=5.0, help="length of one round")
    parser.add_argument("--rounds", type=int, default=3, help="rounds, alternating ledger and pgbench")
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        print("bench.wallet needs DATABASE_URL pointing to PostgreSQL", file=sys.stderr)
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
    cores = os.cpu_count() or 1
    done = max(ledger_side.done, 1)
    print(
        f"ledger CPU per transfer         : {ledger_side.client_cpu / done * 1e6:6.0f} µs Python workers"
        f" + {ledger_side.server_cpu / done * 1e6:6.0f} µs their {WORKERS} server backends"
        f"  (workers: {ledger_side.client_cpu / (ledger_side.elapsed * cores):.0%} of {cores} cores)"
    )
    pg_server = pg_side.server_cpu / max(pg_side.sampled_tx, 1)
    pg_client = pg_side.client_cpu / max(pg_side.tx, 1)
    print(
        f"pgbench CPU per transaction     : {pg_client * 1e6:6.0f} µs pgbench client"
        f" + {pg_server * 1e6:6.0f} µs its {WORKERS} server backends"
        f"  (client: {pg_side.client_cpu / (pg_side.elapsed * cores):.0%} of {cores} cores)"
    )
    ledger_cpu = (ledger_side.client_cpu + ledger_side.server_cpu) / done
    if pg_server and ledger_side.server_cpu:
        print(
            f"CPU-bound ratio (pgbench CPU per tx / ledger CPU per transfer): "
            f"{(pg_client + pg_server) / ledger_cpu:.2f}"
        )
    sql = sql_side.tx / sql_side.elapsed
    print(
        f"reference, not the figure: the stored transfer called by pgbench itself (no Python): "
        f"{sql:.1f} calls/s, {sql / tps:.2f} of pgbench"
    )
    print(f"load average                    : {os.getloadavg()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
