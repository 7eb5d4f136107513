"""``python -m bench.loadbench``: the load benchmark of the live tables (see ``bench/loadbench/__init__``).

For each level N it copies the seeded template database, starts Daphne processes, Celery
worker(s) and beat with the production settings, connects the bot clients, measures a fixed
window after a warm-up, prints the figures, and stops every process it started (also on Ctrl-C).

    python -m bench.loadbench --clients 100,500,1000,2000 --duration 25 --warmup 10 --daphne 3 --workers 1

``--floor``: after each level, the floor (``bench.loadbench.floor --db pg``, as many owner
processes as Daphne, the same clients and pauses) runs at the same level, and its figures are printed
beside the product's (throughput ratio, p50/p95/p99, server CPU per answered act, load).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import secrets
import signal
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.loadbench.core import Layout, latency_figures, pair_ratios
from bench.loadbench.procs import (
    CLK_TCK,
    PG,
    PY,
    ROOT,
    Proc,
    Registry,
    Sampler,
    cpu_ticks,
    daphne_argv,
    fd_limit,
    free_port,
    log,
    loops_ticks,
    machine_ticks,
    pg,
    pg_spent,
    pg_ticks,
    read_line,
    run,
    start_clients,
    wait_children,
    wait_port,
)

# Its own databases and Redis db; DATABASE_URL / REDIS_URL in the environment name others (several
# people benchmarking on one machine): the URL's database is the template, ``<name>_run`` each level's.
_env_db = os.environ.get("DATABASE_URL", "").rsplit("/", 1)[-1] if "DATABASE_URL" in os.environ else ""
TEMPLATE_DB = _env_db or "piattaforma_load"
RUN_DB = f"{_env_db}_run" if _env_db else "piattaforma_load_run"
REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/5"
TARGET_P99_MS = 150.0
TARGET_P99_AT = 1000
TARGET_RSS_MB = 400.0


def base_env(db: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.production",
        SECRET_KEY=SECRET_KEY,
        ALLOWED_HOSTS="127.0.0.1,localhost",
        DATABASE_URL=f"postgres://{PG['user']}@{PG['host']}:{PG['port']}/{db}",
        REDIS_URL=REDIS_URL,
        DEBUG="0",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
        PYTHONUNBUFFERED="1",
        PYTHONPATH=str(ROOT),
    )
    return env


SECRET_KEY = secrets.token_urlsafe(48)


# --- database -----------------------------------------------------------------------------------


def prepare_template(layout: Layout, logdir: Path) -> None:
    with pg() as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [TEMPLATE_DB]).fetchone():
            conn.execute(f'CREATE DATABASE "{TEMPLATE_DB}"')
    env = base_env(TEMPLATE_DB)
    log(f"migrating {TEMPLATE_DB} …")
    run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], env, "migrate")
    log(f"seeding {layout.poker_tables} poker and {layout.scopa_tables} scopa tables (idempotent) …")
    t0 = time.time()
    run(
        [
            PY,
            "-m",
            "bench.loadbench.prepare",
            "seed",
            "--poker",
            str(layout.poker_tables),
            "--scopa",
            str(layout.scopa_tables),
        ],
        env,
        "seed",
    )
    with pg(TEMPLATE_DB) as conn:  # each level's copy starts with the statistics and visibility maps
        conn.execute("VACUUM (ANALYZE)")
    log(f"  template ready in {time.time() - t0:.0f} s")


def fresh_run_db() -> None:
    """Each level's database, a copy of the template. Copied file by file (PostgreSQL 15 and later
    would otherwise write the whole template to the WAL, flushed by checkpoints during the
    level's measurement), with a checkpoint before and after: the level starts on a quiet server."""
    with pg() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{RUN_DB}" WITH (FORCE)')
        copy = " STRATEGY = FILE_COPY" if conn.info.server_version >= 150000 else ""
        conn.execute(f'CREATE DATABASE "{RUN_DB}" TEMPLATE "{TEMPLATE_DB}"{copy}')
        conn.execute("CHECKPOINT")


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


def server_steps(start: float, end: float) -> tuple[int, int]:
    with pg(RUN_DB) as conn:
        row = conn.execute(
            "SELECT count(*), count(*) FILTER (WHERE automatic) FROM lobby_handstep "
            "WHERE created_at >= to_timestamp(%s) AND created_at < to_timestamp(%s)",
            [start, end],
        ).fetchone()
    return int(row[0]), int(row[1])


# --- one level ----------------------------------------------------------------------------------


def profile_args(args: argparse.Namespace, path: Path) -> list[str]:
    """``--profile``: run Daphne under cProfile (the profile is written when it stops on SIGTERM)."""
    return ["-m", "cProfile", "-o", str(path)] if args.profile else []


PROBE_DIR = Path(__file__).resolve().parent / "probe"


def probe_env(args: argparse.Namespace, env: dict[str, str], logdir: Path) -> dict[str, str]:
    """``--probe``: the Daphnes and the bot clients record their event loop's lag and the
    collector's pauses each second (``bench/loadbench/probe/sitecustomize.py``, first on their path):
    a client's own stall delays every answer it reads meanwhile, as a server's would."""
    if not args.probe:
        return env
    path = f"{PROBE_DIR}{os.pathsep}{env['PYTHONPATH']}"
    return {**env, "PYTHONPATH": path, "LOADBENCH_PROBE": str(logdir)}


def probe_figures(
    logdir: Path, start: float, end: float, labels: dict[str, str]
) -> dict[str, dict[str, float]]:
    """Each probed process's rows inside the window, summed, by its label (``labels``: pid -> label)."""
    out: dict[str, dict[str, float]] = {}
    for path in sorted(logdir.glob("probe-*.jsonl")):
        rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
        rows = [r for r in rows if start + 1 <= r["t"] <= end]
        if not rows:
            continue
        ticks = sum(r["ticks"] for r in rows)
        fig: dict[str, float] = {
            "seconds": len(rows),
            "ticks": ticks,
            "lag_mean_ms": sum(r["lag_total_ms"] for r in rows) / max(1, ticks),
            "lag_max_ms": max(r["lag_max_ms"] for r in rows),
        }
        for limit in rows[0]["lag_over"]:
            fig[f"lag_over_{limit}"] = sum(r["lag_over"][limit] for r in rows)
        for gen in ("0", "1", "2"):
            fig[f"gc{gen}_n"] = sum(r["gc"][gen][0] for r in rows)
            fig[f"gc{gen}_ms"] = sum(r["gc"][gen][1] for r in rows)
            fig[f"gc{gen}_max_ms"] = max(r["gc"][gen][2] for r in rows)
            fig[f"gc{gen}_collected"] = sum(r["gc"][gen][3] for r in rows)
        pid = path.stem.removeprefix("probe-")
        out[f"{labels.get(pid, 'process')} pid {pid}"] = fig
    return out


def start_spies(
    reg: Registry, args: argparse.Namespace, daphnes: list[Proc], env: dict[str, str], logdir: Path
) -> list[Proc]:
    """``--py-spy RATE``: sample each Daphne during the window (only threads holding the GIL: its
    Python CPU), raw stacks in ``py-spy-<label>.txt`` of the logs (``flamegraph.pl`` takes them)."""
    if not args.py_spy:
        return []
    spy = str(Path(PY).parent / "py-spy")
    return [
        reg.start(
            f"py-spy {proc.label}",
            [
                spy, "record", "--pid", str(proc.popen.pid), "--duration", str(int(args.duration)),
                "--rate", str(args.py_spy), "--gil", "--nonblocking", "--format", "raw",
                "-o", str(logdir / f"py-spy-{proc.label.replace(':', '_')}.txt"),
            ],
            env,
            logdir,
            server=False,
        )
        for proc in daphnes
    ]  # fmt: skip


def run_level(n: int, args: argparse.Namespace, reg: Registry, logroot: Path) -> dict[str, Any]:
    layout = Layout.for_clients(n)
    client_procs = args.client_procs or max(1, math.ceil(layout.clients / 500))
    logdir = logroot / f"n{n}"
    logdir.mkdir(parents=True, exist_ok=True)
    problem = fd_limit(layout.clients * 2 + 1024)
    if problem:
        return {"n": n, "layout": layout, "skipped": problem}

    fresh_run_db()
    flush_redis()
    env = base_env(RUN_DB)
    spec_file = logdir / "clients.json"
    run(
        [
            PY,
            "-m",
            "bench.loadbench.prepare",
            "level",
            "--poker",
            str(layout.poker_tables),
            "--scopa",
            str(layout.scopa_tables),
            "--daphne",
            str(args.daphne),
            "--out",
            str(spec_file),
        ],
        env,
        "level set-up",
    )

    ports = [free_port() for _ in range(args.daphne)]
    env_p = probe_env(args, env, logdir)  # (``--probe``: the Daphnes and the bot clients)
    daphnes = [
        reg.start(
            f"daphne:{port}",
            daphne_argv(port, "config.asgi:application", profile_args(args, logdir / f"daphne_{port}.prof")),
            env_p,
            logdir,
        )
        for port in ports
    ]
    workers = [
        reg.start(
            f"celery worker {i + 1}",
            [
                PY,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "prefork",
                "--concurrency",
                str(args.concurrency),
                "-n",
                f"loadbench{i + 1}@%h",
                "--loglevel",
                os.environ.get("LOADBENCH_WORKER_LOGLEVEL", "WARNING"),
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            env,
            logdir,
        )
        for i in range(args.workers)
    ]
    beat = reg.start(
        "celery beat",
        [
            PY,
            "-m",
            "celery",
            "-A",
            "config",
            "beat",
            "--loglevel",
            "WARNING",
            "--schedule",
            str(logdir / "celerybeat-schedule"),
        ],
        env,
        logdir,
    )
    servers = [*daphnes, *workers, beat]
    sampler = Sampler(servers)
    sampler.start()
    for port, proc in zip(ports, daphnes, strict=True):
        wait_port(port, proc)
    for proc in workers:
        wait_children(proc, args.concurrency)

    clients = start_clients(reg, spec_file, ports, layout.clients, client_procs, args.think_ms, env_p, logdir)
    t_connect = time.time()
    connected = failed = 0
    for proc in clients:
        ok, bad = read_line(proc, "connected ", timeout=300).split()
        connected, failed = connected + int(ok), failed + int(bad)
    connect_s = time.time() - t_connect

    start = time.time() + args.warmup
    end = start + args.duration
    for proc in clients:
        assert proc.popen.stdin is not None
        proc.popen.stdin.write(f"window {start} {end}\n".encode())
        proc.popen.stdin.flush()
    time.sleep(max(0.0, start - time.time()))
    spies = start_spies(reg, args, daphnes, env, logdir)
    load = os.getloadavg()
    cpu0, m0, pg0 = sampler.cpu(), machine_ticks(), pg_ticks()
    loops0 = loops_ticks(daphnes)
    client_ticks0 = {p.label: cpu_ticks(p.popen.pid) for p in clients}
    time.sleep(max(0.0, end - time.time()))
    cpu1, m1, pg1 = sampler.cpu(), machine_ticks(), pg_ticks()
    loops1 = loops_ticks(daphnes)
    client_ticks1 = {p.label: cpu_ticks(p.popen.pid) for p in clients}
    time.sleep(0.5)
    for spy in spies:  # (py-spy stops on its own after the window; a late one is stopped here)
        with contextlib.suppress(subprocess.TimeoutExpired):
            spy.popen.wait(timeout=30)
    results = []
    for proc in clients:
        assert proc.popen.stdin is not None
        proc.popen.stdin.write(b"stop\n")
        proc.popen.stdin.flush()
    for proc in clients:
        results.append(json.loads(read_line(proc, "result ", timeout=120)))
    sampler.sample()
    sampler.stop_event.set()
    steps, automatic = server_steps(start, end)
    reg.stop_all()

    samples = [s for r in results for s in r["samples"]]
    errors: Counter[str] = Counter()
    connect_failed: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
        connect_failed.update(r["connect_failed"])
    secs = end - start
    busy = (m1[0] - m0[0]) / max(1, m1[1] - m0[1]) * (os.cpu_count() or 1)
    server_s = sum(cpu1.get(k, 0) - v for k, v in cpu0.items()) / CLK_TCK
    return {
        "n": n,
        "layout": layout,
        "load": load,
        "server_ms": server_s / max(1, len(samples)) * 1000,
        "loop_ms": (loops1 - loops0) / CLK_TCK / max(1, len(samples)) * 1000,
        "pg_ms": pg_spent(pg0, pg1) / CLK_TCK / max(1, len(samples)) * 1000,
        "daphne": args.daphne,
        "workers": args.workers,
        "concurrency": args.concurrency,
        "client_procs": len(clients),
        "connected": connected,
        "connect_failed": failed,
        "connect_failed_kinds": dict(connect_failed),
        "connect_s": connect_s,
        "connect_retries": sum(r["connect_retries"] for r in results),
        "window": secs,
        "warmup": args.warmup,
        "think_ms": args.think_ms,
        "acts": len(samples),
        "acts_per_s": len(samples) / secs,
        "steps_per_s": steps / secs,
        "automatic": automatic,
        **latency_figures(samples, errors, results),
        "closed": sum(r["closed"] for r in results),
        "close_codes": dict(sum((Counter(r.get("close_codes", {})) for r in results), Counter())),
        "ready_sent": sum(r["ready_sent"] for r in results),
        "server_cpu": {k: (cpu1.get(k, 0) - v) / CLK_TCK / secs * 100 for k, v in cpu0.items()},
        "client_cpu": {k: (client_ticks1[k] - v) / CLK_TCK / secs * 100 for k, v in client_ticks0.items()},
        "machine_busy": busy * 100,
        "rss_mb": {f"{label} [{pid}]": kb / 1024 for (label, pid), kb in sorted(sampler.peak_kb.items())},
        "probe": probe_figures(logdir, start, end, {str(p.popen.pid): p.label for p in [*daphnes, *clients]}),
        "logs": str(logdir),
    }


def report(r: dict[str, Any]) -> None:
    layout: Layout = r["layout"]
    log(f"\n== N = {r['n']}: {layout.describe()}")
    if "skipped" in r:
        log(f"   NOT RUN: {r['skipped']}")
        return
    if "failed" in r:
        log(f"   FAILED: {r['failed']}")
        return
    log(
        f"   servers: {r['daphne']} Daphne, {r['workers']} Celery worker(s)"
        f" × prefork {r['concurrency']}, 1 beat; {r['client_procs']} client process(es);"
        f" load at the window's start {r['load'][0]:.2f}"
    )
    log(
        f"   connected {r['connected']}/{layout.clients} in {r['connect_s']:.1f} s"
        f" (handshakes retried {r['connect_retries']}, failed {r['connect_failed']}"
        f" {r['connect_failed_kinds'] or ''});"
        f" window {r['window']:.0f} s after {r['warmup']:.0f} s warm-up"
    )
    think = f"a pause of ~{r['think_ms']:.0f} ms (0.5-1.5×)" if r["think_ms"] else "no pause"
    log(f"   bots act on every decision with {think}")
    log(
        f"   actions/s: {r['acts_per_s']:.1f} answered acts (client side, n={r['acts']});"
        f" {r['steps_per_s']:.1f} steps/s stored (server side, {r['automatic']} automatic)"
    )
    log(
        f"   round trip act → newer view, ms: p50 {r['p50']:.1f}  p95 {r['p95']:.1f}  p99 {r['p99']:.1f}"
        f"  max {r['max']:.1f}"
    )
    end = r.get("ending")
    if end and end["n"]:
        log(
            f"   of which acts that ended a hand (answered with its journaled end): n={end['n']}"
            f" ({end['n'] / max(1, r['acts']) * 100:.1f} %), p50 {end['p50']:.1f}, p99 {end['p99']:.1f};"
            f" {end['above_p99']} of the {end['all_above_p99']} acts above the p99"
        )
    errors = ", ".join(f"{k} {v}" for k, v in sorted(r["errors"].items())) or "none"
    codes = ", ".join(f"code {k} ×{v}" for k, v in sorted(r.get("close_codes", {}).items()))
    codes = f" ({codes})" if codes else ""
    log(
        f"   refusals/errors: {errors}; acts still without a view after 10 s: {r['stuck']};"
        f" sockets closed by the server: {r['closed']}{codes}; 'ready' sent: {r['ready_sent']}"
    )
    cpu = ", ".join(f"{k} {v:.0f}%" for k, v in r["server_cpu"].items())
    ccpu = ", ".join(f"{k} {v:.0f}%" for k, v in r["client_cpu"].items())
    log(
        f"   CPU in the window (% of one core): {cpu}; server CPU per answered act {r['server_ms']:.2f} ms"
        f" (Daphne's event loops {r['loop_ms']:.2f}, the rest in their database threads and Celery;"
        f" PostgreSQL's, apart: {r['pg_ms']:.2f} ms)"
    )
    log(
        f"   client CPU: {ccpu}; whole machine busy {r['machine_busy']:.0f}% of {os.cpu_count() * 100}%"
        " (the rest: PostgreSQL, Redis, other users of the machine)"
    )
    for name, f in r.get("probe", {}).items():
        over = ", ".join(f"> {k[9:]} ms ×{int(v)}" for k, v in f.items() if k.startswith("lag_over_"))
        log(
            f"   probe {name}: loop lag mean {f['lag_mean_ms']:.1f} ms,"
            f" max {f['lag_max_ms']:.0f} ms, {int(f['ticks'])} ticks of 20 ms ({over});"
            " GC passes (count, CPU, unreachable objects found) "
            + ", ".join(
                f"gen{g} {int(f[f'gc{g}_n'])} {f[f'gc{g}_ms']:.0f} ms {int(f[f'gc{g}_collected'])}"
                for g in range(3)
            )
            + f" (the longest {max(f[f'gc{g}_max_ms'] for g in range(3)):.0f} ms)"
        )
    rss = ", ".join(f"{k} {v:.0f}" for k, v in r["rss_mb"].items())
    log(f"   peak RSS MB: {rss}")
    worst = max(r["rss_mb"].values(), default=0.0)
    verdict = []
    if r["n"] == TARGET_P99_AT:
        verdict.append(f"p99 < {TARGET_P99_MS:.0f} ms: {'MET' if r['p99'] < TARGET_P99_MS else 'NOT MET'}")
    verdict.append(
        f"every server process < {TARGET_RSS_MB:.0f} MB: {'MET' if worst < TARGET_RSS_MB else 'NOT MET'}"
        f" (largest {worst:.0f} MB)"
    )
    log("   targets: " + "; ".join(verdict))


def beside_floor(r: dict[str, Any], f: dict[str, Any]) -> None:
    """The product's figures beside the floor's, measured at the same level in the same run."""
    if "skipped" in r or "failed" in r or "skipped" in f:
        log(f"   floor at N = {r['n']}: not compared ({f.get('skipped') or 'the product did not run'})"[:300])
        return
    log("   product beside the floor (engine + PG group commit), same N, same clients:")
    log(
        "              acts/s   p50 ms   p95 ms   p99 ms  srv ms/act  loops ms/act  pg ms/act"
        "  load1  refusals"
    )
    for name, x in (("product", r), ("floor", f)):
        refusals = ", ".join(f"{k} {v}" for k, v in sorted(x["errors"].items())) or "none"
        log(
            f"     {name:<8}{x['acts_per_s']:>8.1f} {x['p50']:>8.1f} {x['p95']:>8.1f} {x['p99']:>8.1f}"
            f" {x['server_ms']:>11.2f} {x['loop_ms']:>13.2f} {x['pg_ms']:>10.2f}"
            f"  {x['load'][0]:.2f}  {refusals}"
        )
    ratio = r["acts_per_s"] / max(f["acts_per_s"], 1e-9)
    log(f"     product throughput = {ratio:.2f} x the floor's")


def floor_args(args: argparse.Namespace) -> argparse.Namespace:
    """The floor's options for ``--floor``: as many owner processes as Daphne, the journal on PostgreSQL."""
    return argparse.Namespace(
        procs=args.daphne, mode="engine", db="pg", batch_max=0, group_ms=0.0,
        client_procs=args.client_procs, think_ms=args.think_ms, warmup=args.warmup,
        duration=args.duration, frame_limits="product",
    )  # fmt: skip


def pairs_summary(n: int, pairs: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """``--pairs``: each pair's product / floor ratios and their median (a noisy machine moves a
    single run's figures more than a change of the code)."""
    ratios = pair_ratios(pairs)
    log(f"\n   N = {n}: product / floor, pair by pair (median last):")
    labels = (
        ("cpu", "server CPU per act"), ("loop", "of which event loops"), ("throughput", "throughput"),
        ("p99", "p99"),
    )  # fmt: skip
    for name, label in labels:
        values = ratios[name]
        if values:
            each = ", ".join(f"{v:.2f}" for v in values)
            log(f"     {label:<20} {each}  median {statistics.median(values):.2f}")


def summary(rows: list[dict[str, Any]]) -> None:
    log("\n   N  clients  poker/scopa tables  actions/s   p50 ms   p95 ms   p99 ms  refusals  max RSS MB")
    for r in rows:
        layout = r["layout"]
        if "skipped" in r or "failed" in r:
            log(f"{r['n']:>4}  not run: {r.get('skipped') or r.get('failed')}"[:160])
            continue
        log(
            f"{r['n']:>4}  {layout.clients:>7}  {layout.poker_tables:>8}/{layout.scopa_tables:<10}"
            f"{r['acts_per_s']:>10.1f} {r['p50']:>8.1f} {r['p95']:>8.1f} {r['p99']:>8.1f}"
            f" {sum(r['errors'].values()):>9} {max(r['rss_mb'].values(), default=0):>11.0f}"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.loadbench", description=__doc__.splitlines()[0])
    parser.add_argument("--clients", default="100,500,1000,2000", help="levels N, comma separated")
    parser.add_argument("--duration", type=float, default=25.0, help="measured window per level (s)")
    parser.add_argument("--warmup", type=float, default=10.0, help="play before the window (s)")
    parser.add_argument("--daphne", type=int, default=3, help="Daphne processes")
    parser.add_argument("--workers", type=int, default=1, help="Celery worker processes")
    parser.add_argument("--concurrency", type=int, default=2, help="prefork children per worker")
    parser.add_argument(
        "--think-ms", type=float, default=0.0, help="mean pause before each act (default 0: at once)"
    )
    parser.add_argument("--client-procs", type=int, default=0, help="client processes (0: one per 500)")
    parser.add_argument(
        "--profile", action="store_true", help="run Daphne under cProfile (.prof in the logs)"
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="after each level run the floor (bench.loadbench.floor --db pg) at it and print it beside",
    )
    parser.add_argument(
        "--pairs",
        type=int,
        default=1,
        help="with --floor: run product then floor K times at each level, each pair's ratios and the median",
    )
    parser.add_argument(
        "--py-spy",
        type=int,
        default=0,
        metavar="RATE",
        help="sample each Daphne with py-spy (RATE samples a second, GIL holders only) during the window",
    )
    parser.add_argument(
        "--probe",
        action="store_true",
        help="each Daphne and bot client records its event loop's lag and the collector's pauses (printed)",
    )
    parser.add_argument("--logs", default="", help="directory for the servers' logs (default: a temp dir)")
    args = parser.parse_args(argv)
    levels = [int(x) for x in args.clients.split(",") if x.strip()]
    logroot = Path(args.logs or tempfile.mkdtemp(prefix="loadbench-"))
    reg = Registry()

    def on_term(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_term)
    log("Load benchmark of the live tables (python -m bench.loadbench)")
    log(
        "Interpretation of N: N clients in all, half at Poker 5 carte (N/6 tables of 3 players), half at"
        " Scopa (N/4 tables of 2)."
    )
    log(
        f"Production settings, PostgreSQL db {TEMPLATE_DB} (template) → {RUN_DB} per level,"
        f" Redis {REDIS_URL};"
        f" machine: {os.cpu_count()} cores shared with other work; logs in {logroot}"
    )
    rows: list[dict[str, Any]] = []
    try:
        prepare_template(Layout.for_clients(max(levels)), logroot)
        for n in levels:
            pairs = []
            for k in range(args.pairs if args.floor else 1):
                root = logroot / f"pair{k + 1}" if args.pairs > 1 else logroot
                try:
                    row = run_level(n, args, reg, root)
                except (RuntimeError, OSError, subprocess.SubprocessError, ValueError) as exc:
                    row = {"n": n, "layout": Layout.for_clients(n), "failed": str(exc)[:2000]}
                finally:
                    reg.stop_all()
                report(row)
                rows.append(row)
                if args.floor:
                    from bench.loadbench import floor

                    try:
                        floor_row = floor.run_level(n, floor_args(args), reg, root / "floor")
                    except (RuntimeError, OSError, subprocess.SubprocessError, ValueError) as exc:
                        floor_row = {"n": n, "skipped": str(exc)[:500]}
                    finally:
                        reg.stop_all()
                    beside_floor(row, floor_row)
                    pairs.append((row, floor_row))
            if len(pairs) > 1:
                pairs_summary(n, pairs)
    except KeyboardInterrupt:
        log("\ninterrupted: stopping every process started …")
    finally:
        reg.stop_all()
    if rows:
        summary(rows)


if __name__ == "__main__":
    main()
