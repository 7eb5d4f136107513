"""Bot clients of the load benchmark: asyncio + websockets, one process driving many sockets.

Started by the orchestrator with the clients' list; talks to it by lines: prints
``connected <ok> <failed>`` once every socket is open (or refused), then reads
``window <start> <end>`` (Unix times of the measured window) and ``stop``, and prints one
``result {json}`` line. Each bot plays as the browser client does (``static/js/table.js``): it acts
on a ``table.state`` that lists legal actions for it, sending the version the view carried, and
presses "Sono pronto" at a gioco a partite when asked. By default it acts at once (``--think-ms``
adds a pause of 0.5-1.5 times that before each act).

Round trip: from sending an act to the first ``table.state`` with a newer version than the one the
act was sent against. Refusals (``error`` messages) received in the window are counted by code.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import sys
import time
from collections import Counter
from typing import Any

import websockets

from bench.loadbench.core import choose_action, wants_ready
from games.rng import SeededRng

STUCK_SECONDS = 10.0  # an act with no newer view after this long is counted (and still awaited)
CONNECT_CONCURRENCY = 32  # handshakes in flight per client process (a ramp, not a stampede)
CONNECT_ATTEMPTS = 4
RATE_WINDOW_SECONDS = 1.05  # the per-user window of piattaforma.ratelimit (one second), turned over


class Stats:
    def __init__(self) -> None:
        self.window = (float("inf"), float("inf"))
        self.samples: list[float] = []
        self.ending: list[float] = []  # the samples of acts whose answer ended the hand (``over``)
        self.acts_in_window = 0
        self.errors: Counter[str] = Counter()
        self.ready_sent = 0
        self.stuck = 0
        self.closed = 0
        self.close_codes: Counter[str] = Counter()  # the server's close codes ("none": no close frame)
        self.connected = 0
        self.connect_retries = 0
        self.connect_failed: Counter[str] = Counter()

    def in_window(self, t: float) -> bool:
        return self.window[0] <= t <= self.window[1]


def answers(payload: dict[str, Any], hand: Any) -> bool:
    """Whether a view newer than an act shows it: the seat no longer due, its own step among the
    view's events, or another hand. (Taking any newer view for the answer made a bot whose act was
    queued behind another seat's decide again on that view: a second act, refused as stale.)"""
    seat = payload.get("seat")
    return (
        seat not in payload.get("to_act", [])
        or any(e.get("seat") == seat for e in payload.get("events") or [])
        or payload.get("over", False)
        or payload.get("hand") != hand
    )


class Bot:
    def __init__(
        self, spec: dict[str, Any], url: str, cookie: str, stats: Stats, seed: int, think: float = 0.0
    ) -> None:
        self.spec = spec
        self.url = url
        self.cookie = cookie
        self.stats = stats
        self.rng = SeededRng(seed)
        self.think = think  # seconds between seeing a decision and sending it (0: at once)
        self.pending: tuple[int, float] | None = None  # (version acted on, monotonic send time)
        self.pending_wall = 0.0
        self.pending_hand: Any = None  # the hand of the view acted on
        self.latest_hand: Any = None
        self.pending_counted = False  # this act was already counted as stuck
        self.acted_version = -1
        self.ready_hand: int | None = None
        self.ws: Any = None
        self.thinking: Any = None
        self.resync: Any = None  # a sync asked once a full rate window has turned over
        self.latest_version = -1  # of the last table.state received: a delayed act must still match it
        self.trace: Any = None  # LOADBENCH_TRACE=nick,…: its messages in trace-<nick>.log (debugging)

    async def connect(self) -> bool:
        """Open the socket; a refused handshake (a busy server drops it) is retried a few times."""
        for attempt in range(CONNECT_ATTEMPTS):
            try:
                self.ws = await websockets.connect(
                    self.url,
                    additional_headers={"Cookie": self.cookie, "Origin": "http://127.0.0.1"},
                    open_timeout=60,
                    ping_interval=None,
                    max_size=2**22,
                    compression=None,
                )
            except Exception as exc:
                if attempt == CONNECT_ATTEMPTS - 1:
                    self.stats.connect_failed[type(exc).__name__] += 1
                    return False
                self.stats.connect_retries += 1
                await asyncio.sleep(1.0 + attempt)
            else:
                self.stats.connected += 1
                return True
        return False

    async def send(self, message: dict[str, Any]) -> None:
        if self.trace is not None:
            self.trace.write(f"{time.monotonic():.3f} > {json.dumps(message)}\n")
        await self.ws.send(json.dumps(message))

    async def on_state(self, payload: dict[str, Any]) -> None:
        """A view: the answer to the act in flight if it shows it (else another seat's step that
        overtook it: at the invito every seat decides at once), then maybe the next decision."""
        version = payload["version"]
        self.latest_version = max(self.latest_version, version)
        self.latest_hand = payload.get("hand")
        if self.pending is not None and version > self.pending[0] and answers(payload, self.pending_hand):
            if self.stats.in_window(self.pending_wall):
                ms = (time.monotonic() - self.pending[1]) * 1000
                self.stats.samples.append(ms)
                if payload.get("over", False):  # its view is the hand's end
                    self.stats.ending.append(ms)
                self.stats.acts_in_window += 1
            self.pending = None
        if self.pending is not None:
            return
        action = choose_action(payload, self.rng) if version > self.acted_version else None
        if action is not None:
            self.acted_version = version
            if self.think > 0:
                if self.thinking is not None:
                    self.thinking.cancel()  # one decision at a time: the newer view replaces it
                self.thinking = asyncio.ensure_future(self.act_later(action, version))
            else:
                await self.act(action, version)
        elif (
            self.spec["game"] != "poker5"
            and wants_ready(payload, self.spec["nickname"])
            and self.ready_hand != payload.get("hand")
        ):
            self.ready_hand = payload.get("hand")
            self.stats.ready_sent += 1
            await self.send({"type": "ready"})

    async def act(self, action: dict[str, Any], version: int) -> None:
        self.pending = (version, time.monotonic())
        self.pending_hand = self.latest_hand
        self.pending_counted = False
        self.pending_wall = time.time()
        await self.send({"type": "act", "action": action, "version": version})

    async def sync_later(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
        if self.ws is not None:
            with contextlib.suppress(websockets.ConnectionClosed):
                await self.send({"type": "sync"})

    async def act_later(self, action: dict[str, Any], version: int) -> None:
        """``--think-ms``: decide after a pause, as a person would (the round trip starts at the send)."""
        await asyncio.sleep(self.think * (0.5 + self.rng.randbelow(1001) / 1000))
        # A view newer than the one decided on (another seat moved meanwhile) makes the act stale:
        # dropped, as a person would look again, instead of sent to be refused.
        if self.pending is None and self.ws is not None and version == self.latest_version:
            with contextlib.suppress(websockets.ConnectionClosed):  # (the run's end closed it meanwhile)
                await self.act(action, version)

    async def run(self) -> None:
        try:
            while True:
                try:
                    raw = await asyncio.wait_for(self.ws.recv(), timeout=STUCK_SECONDS)
                except TimeoutError:
                    # Counted, never retried: the browser client waits too (the table's clock moves
                    # it on), and a retry storm would only deepen an overloaded server's queue.
                    if self.pending is not None and not self.pending_counted:
                        self.stats.stuck += 1
                        self.pending_counted = True
                    continue
                await self.handle(raw)
        except websockets.ConnectionClosed as exc:
            self.stats.closed += 1
            self.stats.close_codes[str(exc.rcvd.code) if exc.rcvd is not None else "none"] += 1
        except asyncio.CancelledError:
            raise

    async def handle(self, raw: str | bytes) -> None:
        """One message from the server: a view, the heartbeat's version, or a refusal."""
        msg = json.loads(raw)
        if self.trace is not None:
            self.trace.write(f"{time.monotonic():.3f} < {raw}\n")
        kind = msg.get("type")
        if kind == "table.state":
            await self.on_state(msg)
        elif kind == "table.version":  # the heartbeat: behind it, ask (as the browser does)
            if msg["version"] > self.latest_version and self.pending is None:
                await self.send({"type": "sync"})
        elif kind == "error":
            code = msg.get("code")
            if self.stats.in_window(time.time()):  # (as every figure: the window's only)
                self.stats.errors[code or "?"] += 1
            self.pending = None
            self.acted_version = -1
            if code == "rate_limited":
                # the user's window is full (instant bots on a quiet machine pass 20 frames a
                # second): a sync at once would be dropped too and the table would wait for
                # its clock; ask again once the window has turned over
                self.resync = asyncio.ensure_future(self.sync_later(RATE_WINDOW_SECONDS))
            elif code != "stale_version":  # a stale act gets a fresh view from the server
                await self.send({"type": "sync"})


async def main_async(args: argparse.Namespace) -> None:
    with open(args.spec, encoding="utf-8") as fh:
        spec = json.load(fh)
    ports = [int(p) for p in args.ports.split(",")]
    lo, hi = (int(x) for x in args.indices.split(":"))
    stats = Stats()
    bots = [
        Bot(
            c,
            f"ws://127.0.0.1:{ports[c['daphne']]}/ws/table/{c['table']}/",
            f"{spec['cookie_name']}={c['session']}",
            stats,
            seed=args.seed * 100_003 + i,
            think=args.think_ms / 1000,
        )
        for i, c in enumerate(spec["clients"][lo:hi], start=lo)
    ]
    trace = os.environ.get("LOADBENCH_TRACE")
    if trace and lo == 0:
        for b in bots:
            if b.spec["nickname"] in trace.split(","):
                path = os.path.join(os.path.dirname(args.spec), f"trace-{b.spec['nickname']}.log")
                b.trace = open(path, "w", encoding="utf-8")  # noqa: SIM115
    gate = asyncio.Semaphore(CONNECT_CONCURRENCY)
    tasks: list[asyncio.Task[None]] = []

    async def open_and_play(bot: Bot) -> None:
        async with gate:
            ok = await bot.connect()
        if ok:
            tasks.append(asyncio.create_task(bot.run()))

    await asyncio.gather(*(open_and_play(b) for b in bots))
    print(f"connected {stats.connected} {sum(stats.connect_failed.values())}", flush=True)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    cpu_start = cpu_end = None

    def cpu_mark(which: str) -> None:
        nonlocal cpu_start, cpu_end
        usage = resource.getrusage(resource.RUSAGE_SELF)
        value = usage.ru_utime + usage.ru_stime
        if which == "start":
            cpu_start = value
        else:
            cpu_end = value

    while True:
        line = (await reader.readline()).decode().strip()
        if not line or line == "stop":
            break
        if line.startswith("window "):
            _, start, end = line.split()
            stats.window = (float(start), float(end))
            loop.call_at(loop.time() + max(0.0, float(start) - time.time()), lambda: cpu_mark("start"))
            loop.call_at(loop.time() + max(0.0, float(end) - time.time()), lambda: cpu_mark("end"))

    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await asyncio.gather(*(b.ws.close() for b in bots if b.ws is not None), return_exceptions=True)
    cpu = (cpu_end - cpu_start) if cpu_start is not None and cpu_end is not None else None
    result = {
        "samples": [round(s, 2) for s in stats.samples],
        "ending": [round(s, 2) for s in stats.ending],
        "acts_in_window": stats.acts_in_window,
        "errors": dict(stats.errors),
        "ready_sent": stats.ready_sent,
        "stuck": stats.stuck,
        "closed": stats.closed,
        "close_codes": dict(stats.close_codes),
        "connected": stats.connected,
        "connect_failed": dict(stats.connect_failed),
        "connect_retries": stats.connect_retries,
        "cpu_seconds": cpu,
    }
    print("result " + json.dumps(result), flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.loadbench.client")
    parser.add_argument("--spec", required=True)
    parser.add_argument("--ports", required=True)
    parser.add_argument("--indices", required=True, help="lo:hi slice of the clients' list")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--think-ms", type=float, default=0.0, help="mean pause before each act")
    asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    main()
