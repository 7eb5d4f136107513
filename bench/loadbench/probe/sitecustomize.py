"""``python -m bench.loadbench --probe``: where a Daphne's (or a bot client's) event loop stalls.

Imported by Python at start-up (this folder is put first on the Daphnes' and the clients' ``PYTHONPATH``;
bench tooling, never the product's). With ``LOADBENCH_PROBE`` set to a folder it records, each
second, into ``probe-<pid>.jsonl`` there:

- the event loop's lag: a callback asked for every 20 ms, and how late it ran (a stall of the loop:
  a long callback, a pause of the garbage collector, the GIL held by another thread);
- the garbage collector's passes by generation (``gc.callbacks``): how many, their CPU (that of
  the collecting thread: a pass holds the interpreter's lock, so every thread waits as long; its
  wall time would also count the lock's waits of a pass started on another thread than the loop's)
  and the objects each found unreachable (reference cycles that nothing freed sooner).

``bench.loadbench`` sums the seconds inside its window.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import threading
import time

TICK = 0.02
LAGS_MS = (10, 50, 100, 250, 500)


class Probe:
    def __init__(self, folder: str) -> None:
        self.path = os.path.join(folder, f"probe-{os.getpid()}.jsonl")
        # re-entrant: a collection may start in any thread while it holds the lock (an allocation
        # under it), and its callback takes the lock again
        self.lock = threading.RLock()
        self.reset()
        self.gc_started = 0.0

    def reset(self) -> None:
        self.ticks = 0
        self.lag_over = dict.fromkeys(LAGS_MS, 0)
        self.lag_max = 0.0
        self.lag_total = 0.0
        self.gc = {str(g): [0, 0.0, 0.0, 0] for g in range(3)}  # count, total ms, max ms, collected

    def on_gc(self, phase: str, info: dict) -> None:
        if phase == "start":
            self.gc_started = time.thread_time()
            return
        ms = (time.thread_time() - self.gc_started) * 1000
        with self.lock:
            row = self.gc[str(info.get("generation", 0))]
            row[0] += 1
            row[1] += ms
            row[2] = max(row[2], ms)
            row[3] += info.get("collected", 0)

    def on_tick(self, lag_ms: float) -> None:
        with self.lock:
            self.ticks += 1
            self.lag_total += lag_ms
            self.lag_max = max(self.lag_max, lag_ms)
            for limit in LAGS_MS:
                if lag_ms > limit:
                    self.lag_over[limit] += 1

    def flush_forever(self) -> None:
        while True:
            time.sleep(1.0)
            with self.lock:
                row = {
                    "t": time.time(),
                    "ticks": self.ticks,
                    "lag_total_ms": round(self.lag_total, 1),
                    "lag_max_ms": round(self.lag_max, 1),
                    "lag_over": {str(k): v for k, v in self.lag_over.items()},
                    "gc": self.gc,
                }
                self.reset()
            with open(self.path, "a", encoding="utf-8") as fh:
                fh.write(json.dumps(row) + "\n")


def watch(loop: asyncio.AbstractEventLoop, probe: Probe) -> None:
    expected = [loop.time() + TICK]

    def tick() -> None:
        now = loop.time()
        probe.on_tick(max(0.0, (now - expected[0]) * 1000))
        expected[0] = now + TICK
        loop.call_later(TICK, tick)

    loop.call_later(TICK, tick)


def install(folder: str) -> None:
    probe = Probe(folder)
    gc.callbacks.append(probe.on_gc)
    threading.Thread(target=probe.flush_forever, name="loadbench-probe", daemon=True).start()
    base = type(asyncio.get_event_loop_policy())

    class Policy(base):  # type: ignore[misc,valid-type]  # the running policy's own class, known at run time
        def new_event_loop(self) -> asyncio.AbstractEventLoop:
            loop = super().new_event_loop()
            watch(loop, probe)
            return loop

    asyncio.set_event_loop_policy(Policy())


if os.environ.get("LOADBENCH_PROBE"):
    install(os.environ["LOADBENCH_PROBE"])
