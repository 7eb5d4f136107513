"""``python -m bench.loadbench.ratelimit``: CPU per take of the per-user frame limit in Redis.

A script, never a test. Each round is ``batch`` concurrent takes by different users (the frames of
several sockets arriving in one event-loop turn), ``--takes`` in all, repeated ``--reps`` times;
the least disturbed repetition is printed: this process's CPU per take (``time.process_time``),
the Redis server's (``INFO cpu``: the whole server, so other users of it count too) and the wall
time. ``--against REF`` measures ``piattaforma/ratelimit.py`` of git revision REF beside the
current one, in the same run (e.g. a revision before a change to the store).

    python -m bench.loadbench.ratelimit --redis redis://127.0.0.1:6379/10 [--against REF]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from types import ModuleType
from typing import Any


def module_at(ref: str) -> ModuleType:
    """``piattaforma.ratelimit`` as it was at git revision ``ref``."""
    show = ["git", "show", f"{ref}:piattaforma/ratelimit.py"]
    source = subprocess.run(show, capture_output=True, check=True)  # the developer's git
    path = os.path.join(tempfile.mkdtemp(), "ratelimit_at_ref.py")
    with open(path, "wb") as f:
        f.write(source.stdout)
    spec = importlib.util.spec_from_file_location("ratelimit_at_ref", path)
    assert spec is not None and spec.loader is not None
    module = sys.modules["ratelimit_at_ref"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def one_run(store: Any, url: str, batch: int, takes: int) -> tuple[float, float, float]:
    from redis import asyncio as redis_asyncio

    async def redis_cpu() -> float:
        info = await client.info("cpu")
        return float(info["used_cpu_sys"]) + float(info["used_cpu_user"])

    client = redis_asyncio.Redis.from_url(url)
    await store.take(1)  # connected, script loaded
    r0, c0, w0 = await redis_cpu(), time.process_time(), time.perf_counter()
    for _ in range(takes // batch):
        await asyncio.gather(*(store.take(10_000 + j) for j in range(batch)))
    c1, w1, r1 = time.process_time(), time.perf_counter(), await redis_cpu()
    await client.aclose()
    n = takes // batch * batch
    return (c1 - c0) / n * 1e6, (r1 - r0) / n * 1e6, (w1 - w0) / n * 1e6


async def main(args: argparse.Namespace) -> None:
    from piattaforma import ratelimit

    stores = {"current": ratelimit}
    if args.against:
        stores[args.against] = module_at(args.against)
    print(f"{'batch':>5} {'store':>12} {'client us/take':>15} {'redis us/take':>14} {'wall us/take':>13}")
    for batch in (int(b) for b in args.batches.split(",")):
        best: dict[str, tuple[float, float, float]] = {}
        for _ in range(args.reps):
            for name, module in stores.items():  # interleaved: the machine's load hits both alike
                store = module.RedisUserStore(args.redis, rate=10**9)
                run = await one_run(store, args.redis, batch, args.takes)
                best[name] = min(best.get(name, run), run)
        for name, (client_us, redis_us, wall_us) in best.items():
            print(f"{batch:>5} {name:>12} {client_us:>15.1f} {redis_us:>14.1f} {wall_us:>13.1f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/10", help="the Redis to count in")
    parser.add_argument("--against", default="", help="a git revision to measure beside the current code")
    parser.add_argument("--batches", default="1,2,4,16,64", help="concurrent takes a round, comma separated")
    parser.add_argument("--takes", type=int, default=3000, help="takes a run")
    parser.add_argument("--reps", type=int, default=3, help="runs of each store; the best is printed")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    asyncio.run(main(parser.parse_args()))
