"""The locked runtime row: what every table write starts and ends with.

A write locks the table's ``TableRuntime`` row first (``lock``: outside the table's owner, it
first applies the journal's steps the row lags behind), changes the row and the seats, and ends
with ``bump``: a new version saved and, after commit, sent (``committed``: the owner's fan-out, or
the channel layer's groups for a table no owner keeps). The clocks of a table without an owner (the
decision's deadline, the next deal, a bot's move) are kept on the row and sent as Celery tasks
after commit; a live owner keeps its own (``lobby.runtime.clocks``).

The actions themselves are beside this module: ``hands`` (the hand's path), ``seating``,
``waiting``, ``connections``, ``tables``, ``operations`` and ``tournament_tables``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from config.celery import app as celery_app
from games import registry
from games.engine import CASH, TOURNAMENT, Engine
from games.rng import RecordingRng, SystemRng
from lobby import bots, broadcast, bulkinsert, owners, selectors
from lobby.errors import ENTRY_REFUSALS, NotSeated, TableClosed
from lobby.models import Seat, Table, TableRuntime
from lobby.replay import recover
from piattaforma.compiledquery import CompiledQuery, Read, along
from piattaforma.models import User

TIMER_SLACK_SECONDS = 2  # a deadline task this late is taken as lost (the beat sweeper's grace)

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StepResult:
    """What an applied action produced: the new version and the events (full information)."""

    version: int
    events: list[dict[str, Any]]
    hand_over: bool


def new_rng() -> RecordingRng:
    """The randomness of one step: the OS CSPRNG (RULINGS G4), with every draw recorded."""
    return RecordingRng(SystemRng())


def engine_for(table: Table) -> Engine:
    """Return the engine of the table's game."""
    return registry.get(table.game)


def hand_engine(rt: TableRuntime) -> Engine:
    """Return the engine of the hand in progress (or of the last one) at this table."""
    return registry.get(rt.game or rt.table.game)


def next_hand_engine(rt: TableRuntime) -> Engine:
    """Return the engine of the next hand: the table's game, or the variant a hand handed over to.

    Poker 5 carte's giro pazzo (RULINGS P13) ends a hand with ``carry["handoff"]["variant"]`` when
    the dealer picks another variant; that hand is played by the variant's engine, whose carry
    brings the table back.
    """
    handoff = (rt.carry or {}).get("handoff")
    if isinstance(handoff, dict) and handoff.get("variant") in registry.names():
        return registry.get(handoff["variant"])
    return engine_for(rt.table)


def engine_config(table: Table) -> dict[str, Any]:
    """Return the engine config of a table: its game options plus the mapped table settings.

    A tournament table of a gioco a puntate (a level tournament) plays in the engine's tournament
    mode: the table setting ``mode`` every puntate engine maps (``games.engine.MODE_OPTION``).
    """
    engine = engine_for(table)
    platform = {
        # the tournament switch of the giochi a puntate (games.engine.MODE_OPTION)
        "mode": TOURNAMENT if table.tournament_id is not None else CASH,
        "rake_bp": table.rake_bp,
        "rake_cap": table.rake_cap or None,
        "tempo_giocata": table.tempo_giocata,
        "time_bank": table.time_bank,
    }
    config = dict(table.config)
    for key, target in engine.table_settings.items():
        config[target] = platform[key]
    return engine.validate_config(config)


# the first statement of every table write: compiled once (``piattaforma.compiledquery``)
_LOCK = CompiledQuery(
    lambda table_id: TableRuntime.objects.select_for_update().select_related("table").filter(pk=table_id),
    lambda table_id: (int(table_id),),
)


def lock_with(reads: Sequence[Read]) -> AbstractContextManager[None]:
    """Inside the block, ``reads`` go to the database with this thread's next ``lock``, in its round
    trip, and their calls take the rows from there (``piattaforma.compiledquery.along``)."""
    return along(_LOCK, reads)


def lock(table_id: int) -> TableRuntime:
    """Lock a table's runtime row; outside its owner, bring it up to date from the journal.

    An owner writes its decisions to the row only with a snapshot (its journal has each step): a
    write after its owner stopped or died first applies the journal's later steps (``recover``).
    """
    rows = _LOCK(table_id)
    if not rows:
        raise TableClosed()
    rt = rows[0]
    owners.check_fence(rt)  # a caller of a park that ran out writes nothing (``lobby.runtime.ownership``)
    if owners.is_inside(table_id):
        return rt
    owners.check_unowned(table_id)  # an owner elsewhere that claimed the table meanwhile writes it
    if recover(rt):
        if rt.state is not None and hand_engine(rt).is_over(rt.state):
            settle_journaled_end(rt)  # (saves the row)
        else:
            rt.save()
    return rt


# ``hands.settle_journaled_end``, which stands above this module: registered by it when imported
_SETTLE_JOURNALED: list[Callable[[TableRuntime], None]] = []


def on_journaled_end(settle: Callable[[TableRuntime], None]) -> Callable[[TableRuntime], None]:
    """Register the settlement of a hand its journal ends (``hands`` does, as it is imported)."""
    _SETTLE_JOURNALED[:] = [settle]
    return settle


def settle_journaled_end(rt: TableRuntime) -> None:
    """The locked row, just brought up to date from the journal, holds a hand its last step ended:
    its owner stopped between that step's commit and the settlement. Settled here, once.

    The owner settles a hand it ended as its next job; a row recovered (a takeover, the sweep, a
    write with no owner left) settles the hand before anything else is written.
    """
    _SETTLE_JOURNALED[0](rt)  # (``lobby.actions`` imports ``hands`` with this module)


def hand_running(rt: TableRuntime) -> bool:
    return rt.state is not None and not hand_engine(rt).is_over(rt.state)


def seat_of(rt: TableRuntime, user: User) -> Seat:
    seat = Seat.objects.filter(table_id=rt.pk, user=user).first()
    if seat is None:
        raise NotSeated()
    return seat


def dealt_seats(rt: TableRuntime) -> set[int]:
    return selectors.dealt_seats(rt) or set()


def after_change(rt: TableRuntime, engine: Engine, *, events: list[dict[str, Any]] | None = None) -> None:
    """Bump the version, set the next deadline, save, and send views and the deadline after commit."""
    now = timezone.now()
    set_deadline(rt, engine, now)
    arm_timer(rt, now)
    bump(rt, events=events)


def hand_dealt(
    rt: TableRuntime,
    engine: Engine,
    state: dict[str, Any],
    seats: list[int],
    now: Any,
    *,
    clocks: dict[str, int] | None = None,
) -> None:
    """Write a hand just dealt on the locked row (``hands._deal``, and the bulk deal of
    ``level_tables``): its number, state and seats dealt, no step yet, its game, the lines' clocks
    (a gioco a partite's tempo partita), no start or ready panel due, the decision's deadline and
    its timer. A hand over as it was dealt (a level table's L1: one seat playing) asks for the
    table's next start, which settles it in a transaction of its own. Saves nothing and leaves the
    version to the caller (``bump``, or the bulk deal's one write)."""
    rt.hand_no += 1
    rt.state = state
    rt.dealt = seats
    rt.steps = 0
    rt.game = engine.name
    rt.clocks = clocks
    rt.ready_deadline = rt.start_at = None
    if engine.is_over(state):
        start_later(rt, 0)
    set_deadline(rt, engine, now)
    arm_timer(rt, now)


def set_deadline(rt: TableRuntime, engine: Engine, now: Any) -> None:
    """Set the deadline of the decision now due (none when no one must decide); saves nothing."""
    table = rt.table
    if rt.state is not None and not engine.is_over(rt.state) and engine.to_act(rt.state):
        seconds = float(table.tempo_giocata)
        if rt.clocks is not None:
            # RULINGS G5: the decision (and a disconnected player's return) gets the smaller of the
            # tempo giocata and what is left of his line's tempo partita.
            lines = {engine.line_of(rt.state, s) for s in engine.to_act(rt.state)}
            seconds = min([seconds, *(int(rt.clocks.get(line, 0)) / 1000 for line in lines)])
        rt.deadline = now + timedelta(seconds=seconds)
        rt.turn_started = now
    else:
        rt.deadline = None
        rt.turn_started = None


def arm_timer(rt: TableRuntime, now: Any) -> None:
    """Make sure a deadline task fires at or before ``rt.deadline`` (expects the row locked, saves nothing).

    One task per table at a time, not one per action: while the pending one fires no later than the
    new deadline it stays, and when it fires early (the table moved on) it re-arms itself for the
    deadline of then (``hands.table_deadline_fired``). A pending task more than ``TIMER_SLACK_SECONDS``
    late counts as lost: another one is sent (a late one that still fires finds nothing to do).
    """
    if rt.deadline is None:
        return  # a pending task finds no deadline and is not re-armed
    if rt.timer_at is not None and now - timedelta(seconds=TIMER_SLACK_SECONDS) <= rt.timer_at <= rt.deadline:
        return
    rt.timer_at = eta = rt.deadline
    table_id = rt.pk
    transaction.on_commit(lambda: schedule_deadline(table_id, eta))


def bump(rt: TableRuntime, *, events: list[dict[str, Any]] | None = None) -> None:
    """Save the runtime with a new version; after commit, broadcast it and wake the bots due."""
    rt.version += 1
    bulkinsert.update(rt)  # (``rt.save()`` with less Python: a row written at every hand)
    table_id, version = rt.pk, rt.version
    transaction.on_commit(lambda: committed(table_id, version, events or []))


def committed(table_id: int, version: int, events: list[dict[str, Any]]) -> None:
    """After commit: every connection gets its view; a bot seat that must decide gets its task.

    Only for the table's latest version (an older one is skipped: the newer commit does this),
    from the rows the broadcast read, so waking the bots costs no query of its own. A table with a
    live owner: its owner sends the views and keeps the clocks (``lobby.runtime``).
    """
    if owners.committed(table_id, version, events):
        return
    try:
        sent = broadcast.table_changed(table_id, version, events)
    except Exception:  # the channel layer is down: the action stands, clients resync on the heartbeat
        logger.exception("table %s v%s: broadcast lost", table_id, version)
        return  # a bot due now is moved by the beat sweeper (sweeps.tables_sweep_bots)
    if sent is None:
        return
    rt, seats = sent
    if rt.deadline is None or rt.state is None or not any(s.user.is_bot for s in seats):
        return
    engine = hand_engine(rt)
    due = set() if engine.is_over(rt.state) else set(engine.to_act(rt.state))
    if any(s.user.is_bot and s.number in due for s in seats):
        schedule_bot(table_id, version)


def start_later(rt: TableRuntime, delay: int) -> None:
    """Deal the next hand in ``delay`` seconds (expects the row locked; the caller saves it).

    The due time is kept on the row (``start_at``) as well as sent as a task after commit: a task
    lost with a Redis restart or a dead worker is replaced by the beat sweeper.
    """
    now = timezone.now()
    at = now + timedelta(seconds=delay)
    if rt.start_at is not None and rt.start_at > now and rt.ready_deadline is None:
        return  # the pause after a hand holds: a sit-down or a return waits for its deal
    if rt.start_at is None or at < rt.start_at:
        rt.start_at = at
    table_id = rt.pk
    transaction.on_commit(lambda: schedule_start(table_id, delay))


def schedule_deadline(table_id: int, eta: Any) -> None:
    """After commit: the Celery task that times the decision out at ``eta`` (a table without an owner)."""
    _send(
        "lobby.table_deadline",
        table_id,
        kwargs={"table_id": table_id, "eta": eta.isoformat()},
        eta=eta,
    )


def schedule_bot(table_id: int, version: int) -> None:
    """After commit: the Celery task that moves the bots due at ``version`` (a table without an owner)."""
    kwargs = {"table_id": table_id, "version": version}
    _send("lobby.bot_move", table_id, kwargs=kwargs, countdown=bots.BOT_DELAY_SECONDS)


def schedule_start(table_id: int, delay: int) -> None:
    """After commit: the Celery task that deals the next hand in ``delay`` s (a table without an owner)."""
    _send("lobby.table_start", table_id, kwargs={"table_id": table_id}, countdown=delay)


def _send(task: str, table_id: int, **options: Any) -> None:
    """Send a clock task of ``lobby.tasks`` by its name (that module calls these actions: no import
    back); a table with a live owner keeps its own clocks, so none is sent for it."""
    if settings.LOBBY_SCHEDULE_TASKS and not owners.owned(table_id):
        celery_app.send_task(task, **options)


def check_table_entry(table: Table, user: User, *, password: str | None) -> None:
    """Refuse, changing nothing, a player a reserved table does not admit (rules 004, "Tornei
    riservati": "tornei e tavoli"); sitting down and the waiting list ask, the pages read
    ``selectors.table_entry_refusal``."""
    refusal = selectors.table_entry_refusal(table, user, password=password)
    if refusal is not None:
        code, message = refusal
        raise ENTRY_REFUSALS[code](message)
