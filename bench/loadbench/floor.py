"""``python -m bench.loadbench.floor``: the floor of the live tables on this machine (benchmark only).

A script, never a test, not part of the product. It measures the best the "one owner per table"
design of ARCHITECTURE.md ("Live tables") can reach with the mandated stack, with the load
benchmark's own bot clients (``bench.loadbench.client``) and the same layout of N clients.

The server is this module's ``application``, run by Daphne as a Channels consumer: each table
lives in memory in the one Daphne process that owns it (the clients connect to port
``table_id % processes``, the spec's ``daphne`` index), views go out in-process (no channel
layer, no Redis), and there is no Django ORM, session lookup or Celery. It speaks the consumer's
protocol (``table.state`` payloads with ``version``, ``legal``, ``to_act``; ``act``, ``sync``,
``ready``; ``error`` with a code) and plays with the real engines from ``games.registry``:
``apply`` with a recorded system RNG, then ``view`` and ``legal_actions`` for every seat. A Poker
5 carte table deals its next hand 4 s after the last one ends, 8 s after a showdown
(``lobby.actions.hands.next_hand_pause``); a Scopa table starts a match when both players are ready, as
the product does. A decision deadline is armed on the event loop at every version (the owner's
clock, in place of the Celery task). The product's frame limits hold (``piattaforma.ratelimit``:
``FrameGuard`` per socket, and the per-user window the product keeps in Redis, kept here in the
owner's memory; ``--frame-limits none`` lifts both).

Variants:

* ``--db none``: nothing written, the reply goes out after ``apply``;
* ``--db pg``: every new version (deal, act, ready) is one row INSERTed into PostgreSQL
  (``floor_step``: table, version, action, events and the RNG draws as jsonb) and committed before
  any view of it is sent. One writer connection per process commits whatever rows are queued in
  one transaction (group commit, ``--batch-max`` rows at most; ``--batch-max 1`` commits each row
  on its own; ``--group-ms`` waits that long to gather a batch);
* ``--mode echo``: no engine: a canned view (a real one of that game, captured once), one legal
  action for the next seat in turn, hands of the bots' mean length (11 acts at poker, 166 per
  Scopa match), the same pauses and messages: what the WebSocket/ASGI layer and the clients cost.

    python -m bench.loadbench.floor --clients 100,500,1000,2000 --duration 25 --procs 3 \\
        [--mode echo] [--db pg]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

from bench.loadbench import procs
from bench.loadbench.core import POKER_SEATS, SCOPA_SEATS, Layout, latency_figures
from bench.loadbench.prepare import BUY_IN, POKER_FIELDS, SCOPA_FIELDS, player_nickname

FLOOR_DB = "piattaforma_floor"
COOKIE = "floor"
NEXT_HAND_DELAY = 4.0  # lobby.actions.hands.NEXT_HAND_DELAY_SECONDS
SHOWDOWN_PAUSE = 8.0  # lobby.actions.hands.SHOWDOWN_PAUSE_SECONDS: after a hand whose cards were shown
DECISION_SECONDS = 30  # Table.tempo_giocata's default
ECHO_LENGTH = {"poker5": 11, "scopa": 166}  # the bots' mean acts per poker hand and per Scopa match
STEP_TABLE = """CREATE TABLE IF NOT EXISTS floor_step (
    id bigserial PRIMARY KEY, table_id int NOT NULL, version int NOT NULL, hand int NOT NULL,
    seat int, kind text NOT NULL, action jsonb, events jsonb NOT NULL, draws jsonb NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(), UNIQUE (table_id, version))"""
INSERT = (
    "INSERT INTO floor_step (table_id, version, hand, seat, kind, action, events, draws)"
    " VALUES (%s, %s, %s, %s, %s, %s::jsonb, %s::jsonb, %s::jsonb)"
)


# --- the server: one owner process ------------------------------------------------------------

_TASKS: set[asyncio.Future[Any]] = set()  # the loop keeps only weak references to its tasks


def spawn(coro: Any) -> None:
    """Run a coroutine in the background (a table's clock, its next deal, the journal)."""
    task = asyncio.ensure_future(coro)
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


class EchoEngine:
    """``--mode echo``: the engine calls the floor makes, answered with canned data of a real game."""

    def __init__(self, game: str, seats: int, sample_view: dict[str, Any]) -> None:
        from games import registry

        self.name = game
        self.family = registry.get(game).family
        self.seats = list(range(1, seats + 1))
        self.length = ECHO_LENGTH[game]
        self.sample_view = sample_view

    def new(self, config: Any, specs: list[dict[str, Any]], rng: Any, carry: Any) -> dict[str, Any]:
        return {"step": 0, "chips": {str(s["seat"]): s["chips"] for s in specs}}

    def to_act(self, state: dict[str, Any]) -> list[int]:
        step = state["step"]
        return [] if step >= self.length else [self.seats[step % len(self.seats)]]

    def legal_actions(self, state: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        return [{"type": "passo", "label": "PASSO"}] if seat in self.to_act(state) else []

    def apply(self, state: dict[str, Any], seat: int, action: dict[str, Any], rng: Any) -> list[Any]:
        from games.engine import IllegalAction

        if seat not in self.to_act(state) or action.get("type") != "passo":
            raise IllegalAction()
        state["step"] += 1
        return [{"type": "passo", "seat": seat}]

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        return self.sample_view

    def is_over(self, state: dict[str, Any]) -> bool:
        return state["step"] >= self.length

    def outcome(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"chips": state["chips"]}

    def carry(self, state: dict[str, Any]) -> None:
        return None

    def timeout_action(self, state: dict[str, Any], seat: int) -> dict[str, Any]:
        return {"type": "passo"}


class Journal:
    """``--db pg``: rows written and committed in order by one connection, in batches (group commit)."""

    def __init__(self, dsn: str, batch_max: int, group_ms: float) -> None:
        self.dsn = dsn
        self.batch_max = batch_max or 1_000_000
        self.group_s = group_ms / 1000
        self.queue: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self.wake: asyncio.Event | None = None

    async def write(self, row: tuple[Any, ...]) -> None:
        """Return once the row is committed."""
        if self.wake is None:
            self.wake = asyncio.Event()
            spawn(self.run())
        future = asyncio.get_running_loop().create_future()
        self.queue.append((row, future))
        self.wake.set()
        await future

    async def run(self) -> None:
        import psycopg

        assert self.wake is not None
        conn = await psycopg.AsyncConnection.connect(self.dsn)
        while True:
            await self.wake.wait()
            self.wake.clear()
            if self.group_s:
                await asyncio.sleep(self.group_s)
            while self.queue:
                batch, self.queue = self.queue[: self.batch_max], self.queue[self.batch_max :]
                try:
                    async with conn.cursor() as cur:
                        await cur.executemany(INSERT, [row for row, _ in batch])
                    await conn.commit()
                except Exception as exc:  # a benchmark: fail the waiting acts loudly, keep going
                    await conn.rollback()
                    for _, future in batch:
                        if not future.done():  # (an act whose connection closed meanwhile: cancelled)
                            future.set_exception(exc)
                    continue
                for _, future in batch:
                    if not future.done():
                        future.set_result(None)


class Owner:
    """The tables of this process, their engines' config and the journal (from the environment)."""

    def __init__(self) -> None:
        from games import options, registry

        self.mode = os.environ.get("FLOOR_MODE", "engine")
        self.poker_tables = int(os.environ["FLOOR_POKER"])
        dsn = os.environ.get("FLOOR_DSN", "")
        self.journal = (
            Journal(
                dsn, int(os.environ.get("FLOOR_BATCH_MAX", "0")), float(os.environ.get("FLOOR_GROUP_MS", "0"))
            )
            if dsn
            else None
        )
        self.tables: dict[int, Table] = {}
        platform = {
            "mode": "cash",
            "rake_bp": 500,
            "rake_cap": 300,
            "tempo_giocata": DECISION_SECONDS,
            "time_bank": 0,
        }
        self.config: dict[str, dict[str, Any]] = {}
        self.prefs: dict[str, dict[str, Any]] = {}
        self.echo: dict[str, EchoEngine] = {}
        for fields in (POKER_FIELDS, SCOPA_FIELDS):
            game = fields["game"]
            engine = registry.get(game)
            config = dict(fields["config"])
            for key, target in engine.table_settings.items():
                config[target] = platform[key]
            self.config[game] = engine.validate_config(config)
            self.prefs[game] = options.defaults(game)
            if self.mode == "echo":
                self.echo[game] = EchoEngine(game, fields["seats"], self.sample_view(game, fields["seats"]))

    def sample_view(self, game: str, seats: int) -> dict[str, Any]:
        """A real view of the first decision of a hand of this game (the echo mode's canned view)."""
        from games import registry
        from games.rng import SeededRng

        engine = registry.get(game)
        specs = [
            {"seat": s, "chips": BUY_IN[game], "sitout": False, "prefs": self.prefs[game], "new": False}
            for s in range(1, seats + 1)
        ]
        state = engine.new(self.config[game], specs, SeededRng(1), None)
        return json.loads(json.dumps(engine.view(state, 1)))

    def table(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            if table_id <= self.poker_tables:
                game, index, seats = "poker5", table_id - 1, POKER_SEATS
            else:
                game, index, seats = "scopa", table_id - self.poker_tables - 1, SCOPA_SEATS
            table = self.tables[table_id] = Table(self, table_id, game, index, seats)
        return table


class Table:
    """One table owned by this process: its state in memory, its connections, its clock."""

    def __init__(self, owner: Owner, table_id: int, game: str, index: int, seats: int) -> None:
        from games import registry

        self.owner = owner
        self.id = table_id
        self.game = game
        self.engine: Any = owner.echo.get(game) or registry.get(game)
        self.nicknames = {s: player_nickname(game, index, s) for s in range(1, seats + 1)}
        self.chips = dict.fromkeys(self.nicknames, BUY_IN[game])
        self.ready: set[int] = set()
        self.conns: dict[int, Any] = {}
        self.state: dict[str, Any] | None = None
        self.carry: dict[str, Any] | None = None
        self.version = 0
        self.hand_no = 0
        self.deadline: str | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.sent: dict[int, str] = {}  # the last committed view of each seat: what a snapshot sends
        self.sent_version = 0

    def payload(self, seat: int, events: list[dict[str, Any]]) -> dict[str, Any]:
        """The ``table.state`` one seat receives (the shape of ``lobby.selectors.table_payload``)."""
        from games.engine import private_to

        payload: dict[str, Any] = {
            "type": "table.state",
            "table": self.id,
            "version": self.version,
            "game": self.engine.name,
            "hand": self.hand_no,
            "seat": seat,
            "seats": [
                {
                    "number": s,
                    "nickname": nick,
                    "bot": False,
                    "status": "playing",
                    "leaving": False,
                    "ready": s in self.ready,
                    "time_bank": 0,
                }
                for s, nick in self.nicknames.items()
            ],
            "deadline": self.deadline,
            "ready_deadline": None,
            "clocks": None,
            "bank_seat": None,
            "view": None,
            "legal": [],
            "to_act": [],
            "events": [],
        }
        state = self.state
        if state is not None:
            engine = self.engine
            payload["view"] = engine.view(state, seat)
            payload["to_act"] = engine.to_act(state)
            payload["over"] = engine.is_over(state)
            payload["legal"] = engine.legal_actions(state, seat)
            payload["events"] = [e for e in events if private_to(e, seat)]
        return payload

    async def publish(
        self, kind: str, seat: int | None, action: dict[str, Any] | None, events: list[Any], draws: list[Any]
    ) -> None:
        """A new version: build every seat's view, write the step (``--db pg``), then send the views."""
        from datetime import UTC, datetime, timedelta

        self.version = version = self.version + 1
        state, engine = self.state, self.engine
        due = state is not None and not engine.is_over(state) and engine.to_act(state)
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        self.deadline = None
        if due:
            self.deadline = (datetime.now(UTC) + timedelta(seconds=DECISION_SECONDS)).isoformat()
            self.timer = asyncio.get_running_loop().call_later(
                DECISION_SECONDS, lambda: spawn(self.timeout(version))
            )
        texts = {s: json.dumps(self.payload(s, events)) for s in self.nicknames}
        journal = self.owner.journal
        if journal is not None:
            dumped = json.dumps(action) if action is not None else None
            await journal.write(
                (
                    self.id,
                    self.version,
                    self.hand_no,
                    seat,
                    kind,
                    dumped,
                    json.dumps(events),
                    json.dumps(draws),
                )
            )
        self.sent.update(texts)
        self.sent_version = max(self.sent_version, version)
        for s, text in texts.items():
            conn = self.conns.get(s)
            if conn is not None:
                await conn.send(text_data=text)

    async def snapshot(self, seat: int) -> None:
        conn = self.conns.get(seat)
        if conn is not None:
            text = self.sent.get(seat) or json.dumps(self.payload(seat, []))
            await conn.send(text_data=text)

    async def deal(self) -> None:
        """Start the next hand (or Scopa match); a giro pazzo hands over to its variant's engine."""
        from games import registry
        from games.rng import RecordingRng, SystemRng

        if self.state is not None and not self.engine.is_over(self.state):
            return
        if self.game == "poker5" and not self.owner.echo:
            handoff = (self.carry or {}).get("handoff")
            variant = handoff.get("variant") if isinstance(handoff, dict) else None
            self.engine = registry.get(variant if variant in registry.names() else self.game)
        rng = RecordingRng(SystemRng())
        prefs = self.owner.prefs[self.game]
        specs = [
            {"seat": s, "chips": c, "sitout": False, "prefs": prefs, "new": False}
            for s, c in self.chips.items()
        ]
        self.state = self.engine.new(self.owner.config[self.game], specs, rng, self.carry)
        self.hand_no += 1
        self.ready.clear()
        await self.publish("deal", None, None, [], rng.draws)

    def finish(self) -> None:
        """The hand (or match) ended: chips and carry for the next one; poker deals again after a pause."""
        assert self.state is not None
        if self.engine.family == "partite":
            return  # the next match starts when every player is ready again
        outcome = self.engine.outcome(self.state)
        floor = POKER_FIELDS["min_buy_in"]  # a player below the minimum buys in again (a re-buy)
        self.chips = {int(s): c if c >= floor else BUY_IN[self.game] for s, c in outcome["chips"].items()}
        self.carry = self.engine.carry(self.state)
        pause = SHOWDOWN_PAUSE if self.state.get("shown") else NEXT_HAND_DELAY  # as next_hand_pause
        asyncio.get_running_loop().call_later(pause, lambda: spawn(self.deal()))

    async def act(self, seat: int, action: dict[str, Any], version: Any) -> None:
        from games.engine import CodedError
        from games.rng import RecordingRng, SystemRng

        if version is not None and version != self.version:
            await self.error(seat, "stale_version", "La situazione del tavolo è cambiata")
            if self.sent_version == self.version:  # else the pending version's views are on their way
                await self.snapshot(seat)
            return
        state = self.state
        if state is None or self.engine.is_over(state):
            await self.error(seat, "no_hand", "Nessuna mano in corso")
            return
        rng = RecordingRng(SystemRng())
        try:
            events = self.engine.apply(state, seat, action, rng)
        except CodedError as exc:
            conn = self.conns.get(seat)
            if conn is not None:
                await conn.send(text_data=json.dumps({"type": "error", **exc.as_dict()}))
            return
        if self.engine.is_over(state):
            self.finish()
        await self.publish("act", seat, action, events, rng.draws)

    async def timeout(self, version: int) -> None:
        """The owner's clock: the rules' automatic decisions when nobody acted in time."""
        from games.rng import RecordingRng, SystemRng

        state = self.state
        if self.version != version or state is None or self.engine.is_over(state):
            return
        rng = RecordingRng(SystemRng())
        events: list[Any] = []
        for seat in self.engine.to_act(state):
            events += self.engine.apply(state, seat, self.engine.timeout_action(state, seat), rng)
        if self.engine.is_over(state):
            self.finish()
        await self.publish("timeout", None, None, events, rng.draws)

    async def set_ready(self, seat: int) -> None:
        if self.game == "poker5" or (self.state is not None and not self.engine.is_over(self.state)):
            await self.error(seat, "hand_in_progress", "La partita è in corso")
            return
        self.ready.add(seat)
        if self.ready == set(self.nicknames):
            await self.deal()
        else:
            await self.publish("ready", seat, None, [], [])

    async def joined(self, seat: int, conn: Any) -> None:
        self.conns[seat] = conn
        await self.snapshot(seat)
        if self.game == "poker5" and self.state is None and len(self.conns) == len(self.nicknames):
            await self.deal()

    async def error(self, seat: int, code: str, message: str) -> None:
        conn = self.conns.get(seat)
        if conn is not None:
            await conn.send(text_data=json.dumps({"type": "error", "code": code, "message": message}))


_OWNER: Owner | None = None


def seat_of(cookie_header: str, path: str) -> tuple[Table, int] | None:
    """The table and seat a connection plays (the session cookie reads ``<table>.<seat>``)."""
    global _OWNER
    if _OWNER is None:
        _OWNER = Owner()
    session = next((c.split("=", 1)[1] for c in cookie_header.split("; ") if c.startswith(f"{COOKIE}=")), "")
    table_id, _, seat = session.partition(".")
    if not (table_id.isdigit() and seat.isdigit()) or path != f"/ws/table/{table_id}/":
        return None
    return _OWNER.table(int(table_id)), int(seat)


async def handle(table: Table, seat: int, content: Any) -> None:
    """One client message (the consumer protocol's ``act``, ``sync`` and ``ready``)."""
    kind = content.get("type") if isinstance(content, dict) else None
    if kind == "act" and isinstance(content.get("action"), dict):
        await table.act(seat, content["action"], content.get("version"))
    elif kind == "sync":
        await table.snapshot(seat)
    elif kind == "ready":
        await table.set_ready(seat)
    else:
        await table.error(seat, "bad_message", "Messaggio non valido")


def _consumer() -> Any:
    """The Channels consumer class (built on first use: Django settings are configured here, minimal)."""
    from channels.consumer import get_handler_name
    from channels.generic.websocket import AsyncJsonWebsocketConsumer
    from django.conf import settings

    from piattaforma.ratelimit import CLOSE_RATE_LIMITED, RATE_LIMITED_ERROR, USER_RATE, Strikes

    if not settings.configured:
        settings.configure(CHANNEL_LAYERS={}, USE_TZ=True)

    class FloorConsumer(AsyncJsonWebsocketConsumer):
        """One player's connection to a table this process owns."""

        async def dispatch(self, message: dict[str, Any]) -> None:
            # as lobby.consumers.TableConsumer: no hop to close database connections per frame
            handler = getattr(self, get_handler_name(message), None)
            if handler is None:
                raise ValueError(f"No handler for message type {message['type']}")
            await handler(message)

        async def connect(self) -> None:
            found = seat_of(dict(self.scope["headers"]).get(b"cookie", b"").decode(), self.scope["path"])
            if found is None:
                await self.close(code=4401)
                return
            self.table, self.seat = found
            self.window, self.strikes = (0, 0), Strikes()
            await self.accept()
            await self.table.joined(self.seat, self)

        async def receive(self, text_data: Any = None, bytes_data: Any = None, **kwargs: Any) -> None:
            # the product's per-user limit as it stands with REDIS_URL (``RedisUserStore``): a fixed
            # one-second window of USER_RATE frames, counted before the frame is read; one error a run
            if LIMITS:
                now = int(time.time())
                if self.window[0] != now:
                    self.window = (now, 0)
                self.window = (now, self.window[1] + 1)
                verdict = self.strikes.verdict(self.window[1] <= USER_RATE)
                if verdict != "ok":
                    if verdict == "close" and not self.strikes.closed:
                        self.strikes.closed = True
                        await self.close(code=CLOSE_RATE_LIMITED)
                    elif verdict == "refused" and self.strikes.run == 1:
                        await self.send(text_data=RATE_LIMITED_ERROR)
                    return
            await super().receive(text_data, bytes_data, **kwargs)

        async def receive_json(self, content: Any, **kwargs: Any) -> None:
            await handle(self.table, self.seat, content)

        async def disconnect(self, code: int) -> None:
            table = getattr(self, "table", None)
            if table is not None and table.conns.get(self.seat) is self:
                del table.conns[self.seat]

    return FloorConsumer.as_asgi()


_APP: Any = None
# The product's frame limits (``piattaforma.ratelimit``: per socket and per user), unless the floor
# runs with ``--frame-limits none``: instant bots pass them, and the client then waits a second.
LIMITS = os.environ.get("FLOOR_LIMITS", "product") == "product"


async def application(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The ASGI application Daphne runs: ``daphne bench.loadbench.floor:application``."""
    global _APP
    if scope["type"] != "websocket":
        raise ValueError("the floor server speaks WebSocket only")
    if _APP is None:
        from piattaforma.ratelimit import FrameGuard

        _APP = FrameGuard(_consumer()) if LIMITS else _consumer()  # the product's per-socket limit
        from config.serving import ready_to_serve

        ready_to_serve()  # as the product's processes start (config/asgi.py)
    await _APP(scope, receive, send)


class PlainConnection:
    """``--server websockets``: a ``websockets`` connection with the consumer's ``send``."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws

    async def send(self, text_data: str) -> None:
        import websockets

        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(text_data)


async def serve_plain(port: int) -> None:
    """``--server websockets``: the same tables behind the plain asyncio ``websockets`` server (no ASGI)."""
    import websockets

    async def connection(ws: Any) -> None:
        found = seat_of(ws.request.headers.get("Cookie", ""), ws.request.path)
        if found is None:
            await ws.close(4401)
            return
        table, seat = found
        conn = PlainConnection(ws)
        await table.joined(seat, conn)
        try:
            async for raw in ws:
                try:
                    content = json.loads(raw)
                except ValueError:
                    content = None
                await handle(table, seat, content)
        except websockets.ConnectionClosed:
            pass
        finally:
            if table.conns.get(seat) is conn:
                del table.conns[seat]

    async with websockets.serve(
        connection, "127.0.0.1", port, compression=None, ping_interval=None, max_size=4096
    ):
        await asyncio.get_running_loop().create_future()


async def percall(actions: int) -> None:
    """``--percall N``: an owner's CPU per action without any socket, in one process (load-independent)."""
    from collections import defaultdict

    from bench.loadbench.core import choose_action
    from games.rng import SeededRng

    global _OWNER
    os.environ.setdefault("FLOOR_POKER", "10")
    _OWNER = Owner()
    tables = [_OWNER.table(i) for i in range(1, 21)]  # 10 poker tables, 10 Scopa tables
    rng = SeededRng(1)
    spent: dict[tuple[str, str], float] = defaultdict(float)
    build = Table.payload

    def timed_payload(self: Table, seat: int, events: list[dict[str, Any]]) -> dict[str, Any]:
        t0 = time.process_time()
        try:
            return build(self, seat, events)
        finally:
            spent["", "payload"] += time.process_time() - t0  # the deals' views too: see below

    Table.payload = timed_payload  # type: ignore[method-assign]  # the bench swaps the method in place to time it
    done: Counter[str] = Counter()
    while done.total() < actions:
        for table in tables:
            if table.state is None or table.engine.is_over(table.state):
                await table.deal()  # no pause between hands here
                continue
            seat = table.engine.to_act(table.state)[0]
            action = choose_action(json.loads(table.sent[seat]), rng)  # as a client decides
            views = spent["", "payload"]
            t0 = time.process_time()
            await table.act(seat, action, table.version)
            spent[table.game, "act"] += time.process_time() - t0
            spent[table.game, "payload"] += spent["", "payload"] - views  # this act's views only
            done[table.game] += 1
    Table.payload = build  # type: ignore[method-assign]  # the bench swaps the method in place to time it
    print(f"floor percall ({_OWNER.mode}): 10 poker and 10 Scopa tables, CPU per act in ms")
    print("             acts    act  views  rest   (views: view, legal, to_act of every seat;")
    print("                                         rest: apply, the payloads' JSON, the clock)")
    for game in (*sorted(done), "all"):
        games = sorted(done) if game == "all" else [game]
        count = sum(done[g] for g in games)
        act = sum(spent[g, "act"] for g in games) / count * 1000
        views = sum(spent[g, "payload"] for g in games) / count * 1000
        print(f"  {game:<8} {count:>7} {act:6.3f} {views:6.3f} {act - views:6.3f}")


# --- the orchestrator -------------------------------------------------------------------------


def fresh_floor_db() -> str:
    """An empty ``floor_step`` table in the floor's own database; returns its DSN."""

    with procs.pg() as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [FLOOR_DB]).fetchone():
            conn.execute(f'CREATE DATABASE "{FLOOR_DB}"')
    with procs.pg(FLOOR_DB) as conn:
        conn.execute("DROP TABLE IF EXISTS floor_step")
        conn.execute(STEP_TABLE)
    return f"host={procs.PG['host']} port={procs.PG['port']} user={procs.PG['user']} dbname={FLOOR_DB}"


def spec_for(layout: Layout, procs: int) -> dict[str, Any]:
    """The clients' list: table ids 1..P poker, then Scopa; each table's owner is ``id % procs``."""
    clients = []
    tables = [("poker5", i, POKER_SEATS) for i in range(layout.poker_tables)]
    tables += [("scopa", i, SCOPA_SEATS) for i in range(layout.scopa_tables)]
    for table_id, (game, index, seats) in enumerate(tables, start=1):
        for seat in range(1, seats + 1):
            clients.append(
                {
                    "nickname": player_nickname(game, index, seat),
                    "table": table_id,
                    "game": game,
                    "daphne": table_id % procs,
                    "session": f"{table_id}.{seat}",
                }
            )
    return {"cookie_name": COOKIE, "clients": clients}


def run_level(n: int, args: argparse.Namespace, reg: Any, logroot: Path) -> dict[str, Any]:

    layout = Layout.for_clients(n)
    logdir = logroot / f"n{n}"
    logdir.mkdir(parents=True, exist_ok=True)
    problem = procs.fd_limit(layout.clients * 2 + 1024)
    if problem:
        return {"n": n, "skipped": problem}
    spec_file = logdir / "clients.json"
    spec_file.write_text(json.dumps(spec_for(layout, args.procs)))
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env.update(PYTHONPATH=str(procs.ROOT), PYTHONUNBUFFERED="1", FLOOR_MODE=args.mode)
    env.update(FLOOR_POKER=str(layout.poker_tables), FLOOR_BATCH_MAX=str(args.batch_max))
    env.update(FLOOR_GROUP_MS=str(args.group_ms), FLOOR_DSN=fresh_floor_db() if args.db == "pg" else "")
    env.update(FLOOR_LIMITS=args.frame_limits)
    ports = [procs.free_port() for _ in range(args.procs)]
    servers = [
        reg.start(
            f"floor:{port}",
            procs.daphne_argv(port, "bench.loadbench.floor:application"),
            env,
            logdir,
        )
        for port in ports
    ]
    sampler = procs.Sampler(servers)
    sampler.start()
    for port, proc in zip(ports, servers, strict=True):
        procs.wait_port(port, proc)
    client_procs = args.client_procs or max(1, math.ceil(layout.clients / 500))
    clients = procs.start_clients(
        reg, spec_file, ports, layout.clients, client_procs, args.think_ms, env, logdir
    )
    connected = 0
    for proc in clients:
        connected += int(procs.read_line(proc, "connected ", timeout=300).split()[0])
    start = time.time() + args.warmup
    end = start + args.duration
    for proc in clients:
        proc.popen.stdin.write(f"window {start} {end}\n".encode())
        proc.popen.stdin.flush()
    time.sleep(max(0.0, start - time.time()))
    load = os.getloadavg()
    cpu0, m0, pg0 = sampler.cpu(), procs.machine_ticks(), procs.pg_ticks()
    loops0 = procs.loops_ticks(servers)
    client0 = {p.label: procs.cpu_ticks(p.popen.pid) for p in clients}
    time.sleep(max(0.0, end - time.time()))
    cpu1, m1, pg1 = sampler.cpu(), procs.machine_ticks(), procs.pg_ticks()
    loops1 = procs.loops_ticks(servers)
    client1 = {p.label: procs.cpu_ticks(p.popen.pid) for p in clients}
    time.sleep(0.5)
    for proc in clients:
        proc.popen.stdin.write(b"stop\n")
        proc.popen.stdin.flush()
    results = [json.loads(procs.read_line(proc, "result ", timeout=120)) for proc in clients]
    sampler.sample()
    sampler.stop_event.set()
    reg.stop_all()

    samples = [s for r in results for s in r["samples"]]
    errors: Counter[str] = Counter()
    for r in results:
        errors.update(r["errors"])
    secs = end - start
    acts = max(1, len(samples))
    server_s = sum(cpu1.get(k, 0) - v for k, v in cpu0.items()) / procs.CLK_TCK
    client_s = sum(client1[k] - v for k, v in client0.items()) / procs.CLK_TCK
    return {
        "n": n,
        "clients": layout.clients,
        "connected": connected,
        "acts_per_s": len(samples) / secs,
        "mean": sum(samples) / acts,
        **latency_figures(samples, errors, results),
        "server_ms": server_s / acts * 1000,
        "loop_ms": (loops1 - loops0) / procs.CLK_TCK / acts * 1000,
        "client_ms": client_s / acts * 1000,
        "pg_ms": procs.pg_spent(pg0, pg1) / procs.CLK_TCK / acts * 1000,
        "server_pct": server_s / secs * 100,
        "client_pct": client_s / secs * 100,
        "machine_pct": (m1[0] - m0[0]) / max(1, m1[1] - m0[1]) * (os.cpu_count() or 1) * 100,
        "rss_mb": max((kb / 1024 for kb in sampler.peak_kb.values()), default=0.0),
        "load": load,
    }


def report(r: dict[str, Any]) -> None:

    if "skipped" in r:
        procs.log(f"{r['n']:>5}  not run: {r['skipped']}")
        return
    errors = ",".join(f"{k}:{v}" for k, v in sorted(r["errors"].items())) or "-"
    procs.log(
        f"{r['n']:>5} {r['connected']:>5}/{r['clients']:<5}{r['acts_per_s']:>8.0f}"
        f" {r['mean']:>6.1f} {r['p50']:>7.1f} {r['p95']:>7.1f} {r['p99']:>7.1f} {r['max']:>7.0f}"
        f" {r['server_ms']:>7.2f} {r['client_ms']:>7.2f} {r['pg_ms']:>6.2f}"
        f"  {r['server_pct']:>4.0f}+{r['client_pct']:<4.0f}{r['machine_pct']:>5.0f}"
        f" {r['rss_mb']:>6.0f}  {r['load'][0]:.2f}  {errors} stuck:{r['stuck']}"
    )


def main(argv: list[str] | None = None) -> None:

    parser = argparse.ArgumentParser(
        prog="python -m bench.loadbench.floor", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--clients", default="100,500,1000,2000", help="levels N, comma separated")
    parser.add_argument("--duration", type=float, default=25.0, help="measured window per level (s)")
    parser.add_argument("--warmup", type=float, default=10.0, help="play before the window (s)")
    parser.add_argument("--procs", type=int, default=3, help="owner (Daphne) processes")
    parser.add_argument("--mode", choices=("engine", "echo"), default="engine")
    parser.add_argument(
        "--server", choices=("daphne", "websockets"), default="daphne", help="websockets: no ASGI layer"
    )
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)  # one plain server
    parser.add_argument("--percall", type=int, default=0, help="time N acts in-process, no sockets")
    parser.add_argument(
        "--db", choices=("none", "pg"), default="none", help="pg: commit a row per version first"
    )
    parser.add_argument("--batch-max", type=int, default=0, help="rows per commit at most (0: all queued)")
    parser.add_argument("--group-ms", type=float, default=0.0, help="wait to gather a commit's batch (ms)")
    parser.add_argument("--client-procs", type=int, default=0, help="client processes (0: one per 500)")
    parser.add_argument(
        "--frame-limits",
        choices=("product", "none"),
        default="product",
        help="the product's per-socket and per-user frame limits (default), or none",
    )
    parser.add_argument(
        "--think-ms",
        type=float,
        default=0.0,
        help="the bots' mean pause before each act (default 0: at once)",
    )
    parser.add_argument("--logs", default="", help="directory for the processes' logs (default: a temp dir)")
    args = parser.parse_args(argv)
    if args.serve:
        asyncio.run(serve_plain(args.serve))
        return
    if args.percall:
        os.environ["FLOOR_MODE"] = args.mode
        asyncio.run(percall(args.percall))
        return
    logroot = Path(args.logs or tempfile.mkdtemp(prefix="loadbench-floor-"))
    reg = procs.Registry()
    procs.log(
        f"floor: {args.procs} owner processes ({args.server}), mode {args.mode}, db {args.db}"
        + (f" (batch max {args.batch_max or 'all'}, group {args.group_ms} ms)" if args.db == "pg" else "")
        + (f"; bots pause ~{args.think_ms:.0f} ms before acting" if args.think_ms else "")
        + f"; window {args.duration:.0f} s after {args.warmup:.0f} s; {os.cpu_count()} cores; logs {logroot}"
    )
    procs.log(
        "    N  conn/clients  acts/s mean ms p50 ms  p95 ms  p99 ms  max ms  srv ms  cli ms  pg ms"
        "  CPU% s+c  mach  RSS MB  load1  errors"
    )
    try:
        for n in (int(x) for x in args.clients.split(",") if x.strip()):
            try:
                row = run_level(n, args, reg, logroot)
            except (RuntimeError, OSError, subprocess.SubprocessError, ValueError) as exc:
                row = {"n": n, "skipped": str(exc)[:500]}
            finally:
                reg.stop_all()
            report(row)
    except KeyboardInterrupt:
        procs.log("interrupted: stopping every process started …")
    finally:
        reg.stop_all()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
