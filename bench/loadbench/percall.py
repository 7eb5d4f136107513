"""``python -m bench.loadbench.percall``: server CPU of one table action, by component, in one thread.

A script, never a test. It copies the load benchmark's template database (migrated and seeded first, as
``python -m bench.loadbench`` does), deals a hand at each of its tables with the production settings
(PostgreSQL, Redis db 5 for the channel layer and the Celery broker; no worker runs, the queued
tasks are flushed at the end) and applies ``--actions`` player actions through
``lobby.actions.table_act``, round robin over the tables, on a worker thread of an event loop as
the consumer does (``lobby.consumers.db``). It
prints the process CPU per action (the driver's own reads and the deals between hands
included) and the thread CPU: the whole call, and inside it the broadcast after commit (every
seat's view built and published) and the deadline task's publish. What a Daphne process spends
per connection on top (the channel layer's receive, ``send_json``, the WebSocket frame) is not in
here: the full benchmark measures it.

    python -m bench.loadbench.percall --actions 600 [--profile out.prof]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench.loadbench.__main__ import PG, REDIS_URL, TEMPLATE_DB, base_env, flush_redis, pg, prepare_template
from bench.loadbench.core import Layout

PERCALL_DB = "piattaforma_load_percall"


def fresh_db(tables: int) -> None:
    """Migrate and seed the benchmark's template (idempotent), then copy it."""
    prepare_template(Layout.for_clients(max(60, 6 * tables)), Path(tempfile.gettempdir()))
    with pg() as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{PERCALL_DB}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{PERCALL_DB}" TEMPLATE "{TEMPLATE_DB}"')


def timed(totals: dict[str, float], key: str, func: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0 = time.thread_time()
        try:
            return func(*args, **kwargs)
        finally:
            totals[key] += time.thread_time() - t0

    return wrapper


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.loadbench.percall", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--actions", type=int, default=600, help="measured actions")
    parser.add_argument("--warmup", type=int, default=100, help="actions before the measure")
    parser.add_argument("--tables", type=int, default=10, help="poker tables used (and as many scopa)")
    parser.add_argument("--profile", default="", help="write a cProfile of the measured actions here")
    args = parser.parse_args(argv)

    fresh_db(args.tables)
    flush_redis()
    os.environ.update(base_env(PERCALL_DB))
    import django

    django.setup()
    from games import registry
    from games.rng import SeededRng
    from lobby import actions, bots, broadcast
    from lobby.actions import tablerow
    from lobby.consumers import db
    from lobby.errors import TableError
    from lobby.models import Seat, Table, TableRuntime

    totals: dict[str, float] = defaultdict(float)
    broadcast.table_changed = timed(totals, "broadcast (views + publish)", broadcast.table_changed)
    tablerow.schedule_deadline = timed(totals, "deadline task publish", tablerow.schedule_deadline)

    tables = (
        list(
            Table.objects.filter(name__startswith="lb-poker5-").order_by("name").values_list("pk", flat=True)
        )[: args.tables]
        + list(
            Table.objects.filter(name__startswith="lb-scopa-").order_by("name").values_list("pk", flat=True)
        )[: args.tables]
    )
    seats = {
        t: {s.number: s.user for s in Seat.objects.filter(table_id=t).select_related("user")} for t in tables
    }
    rng = SeededRng(1)

    def deal(table_id: int) -> None:
        for user in seats[table_id].values():
            with contextlib.suppress(TableError):
                actions.table_ready(table_id=table_id, user=user)
        actions.table_start_hand(table_id=table_id)

    def one(table_id: int) -> bool:
        rt = TableRuntime.objects.get(pk=table_id)
        engine = registry.get(rt.game) if rt.game else None
        if rt.state is None or engine is None or engine.is_over(rt.state) or not engine.to_act(rt.state):
            deal(table_id)
            return False
        seat_no = engine.to_act(rt.state)[0]
        action = bots.bot_action(engine, rt.state, seat_no, rng)
        t0 = time.thread_time()
        actions.table_act(table_id=table_id, user=seats[table_id][seat_no], action=action, version=rt.version)
        totals["table_act (all)"] += time.thread_time() - t0
        return True

    async def run(count: int) -> int:
        done = i = 0
        while done < count:
            done += await db(one)(tables[i % len(tables)])
            i += 1
        return done

    async def measure() -> tuple[int, float, float]:
        await run(args.warmup)
        totals.clear()
        t0, c0 = time.perf_counter(), time.process_time()
        n = await run(args.actions)
        return n, time.perf_counter() - t0, time.process_time() - c0

    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU time, not waits
        profiler.enable()
    n, wall, cpu = asyncio.run(measure())
    if profiler is not None:
        profiler.disable()
        profiler.dump_stats(args.profile)
    flush_redis()
    from django.db import connections

    connections.close_all()
    print(f"percall: {n} actions on {len(tables)} tables (PostgreSQL {PG['host']}, Redis {REDIS_URL})")
    print(f"  wall {wall / n * 1000:.2f} ms per action (includes the hands dealt in between)")
    print(f"  process CPU {cpu / n * 1000:.2f} ms per action (includes the driver and the deals)")
    for key in ("table_act (all)", "broadcast (views + publish)", "deadline task publish"):
        value = totals[key]
        print(f"  {key:<28} {value / n * 1000:7.2f} ms CPU per action")
    rest = totals["table_act (all)"] - sum(v for k, v in totals.items() if k != "table_act (all)")
    print(f"  {'transaction (the rest)':<28} {rest / n * 1000:7.2f} ms CPU per action")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
