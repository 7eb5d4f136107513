"""The owner of one table: its runtime in memory, its jobs applied one at a time, in order.

A job is a player's decision (``act``), a bot's move, a timer (``clocks``) or a row action of
``lobby.actions`` (``call``: sit, stand, sitout, ready, rebuy, connections, the hand's start, a
timeout, the hand's cancellation). Read top to bottom, a decision goes:

1. ``act``: queued; the owner takes it when the previous job is done.
2. ``_decide``: refused in memory if the player is not seated, may not play, sent a stale
   version or there is no hand; else the engine applies it (a refusal changes nothing).
3. The step (version, seat, action, RNG draws, events, deadline) goes to the journal and the
   owner waits for its commit (``journal``: group commit). A step that ends the hand instead runs
   ``lobby.actions._finish_hand`` (settlement, stand-ups, the next deal's timer) in one
   transaction with the step and the runtime row (the hand-end snapshot).
4. ``fanout``: each seat's view, then the public one, sent; ``clocks`` armed again.

Row actions run with the runtime row up to date: the owner writes its state there first (a
snapshot; between snapshots the row lags and the journal holds the steps), runs the action, then
reads the row and seats back. A takeover (``start`` in another process) reads the row and
applies the journal's later steps with their recorded draws (``recover``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from lobby import actions, bots, presence
from lobby.errors import NoHandInProgress, NotAllowed, NotSeated, StaleVersion, TableClosed, TableElsewhere
from lobby.models import Hand, HandStep, Seat, Table, TableRuntime
from lobby.runtime import blocking, ownership, remote
from lobby.runtime.clocks import Clocks, chores_due
from lobby.runtime.fanout import Audience, snapshot
from lobby.runtime.journal import journal, recover
from lobby.selectors import seat_rows, table_waiting
from piattaforma.models import User

logger = logging.getLogger(__name__)

Job = tuple[Callable[[], Awaitable[Any]], "asyncio.Future[Any] | None"]

# What of the runtime row changes with a decision applied in memory (written with a snapshot).
# A sync caller's transaction that never commits (rolled back) keeps the owner parked this long.
PARK_SECONDS = 10.0
STEP_FIELDS = ("state", "version", "steps", "clocks", "turn_started", "deadline")


class TableOwner:
    """The single-threaded owner of one live table in this process."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.loop = asyncio.get_running_loop()
        self.rt: TableRuntime | None = None
        self.seats: list[Seat] = []
        self.hand_id: int | None = None
        self.dirty = False  # decisions applied since the runtime row was last written
        self.published = -1  # the last version sent
        self.captured: list[dict[str, Any]] = []  # events of the row action that just committed
        self.jobs: asyncio.Queue[Job] = asyncio.Queue()
        self.audience = Audience()
        self.clocks = Clocks(self._timer)
        self.ready: asyncio.Future[None] = self.loop.create_future()
        self.task: asyncio.Task[None] | None = None
        self.stopped = False
        self.recovered = 0  # journal steps applied at start (a takeover)
        self.applied = 0  # decisions applied in memory (the benchmarks)
        self.chores_at: datetime | None = None  # the next waiting-list offer or sitout stand-up due
        self.chores_fired: datetime | None = None
        self.waiting: dict[str, Any] | None = None  # the between-hands block of every view
        self.remote_viewers: dict[str, remote.RemoteViewer] = {}  # connections on other processes

    def remote_viewer(self, channel: str) -> remote.RemoteViewer:
        """The viewer of a connection on another process (by its channel), one per channel."""
        viewer = self.remote_viewers.get(channel)
        if viewer is None:
            viewer = self.remote_viewers[channel] = remote.RemoteViewer(channel)
        return viewer

    # --- life -------------------------------------------------------------------------------------

    def begin(self) -> None:
        """Start: claim the lease, load snapshot + journal, then take jobs (``ready`` says when)."""
        self.task = self.loop.create_task(self._run(), name=f"table-owner-{self.table_id}")

    async def _run(self) -> None:
        try:
            await blocking(self._load)(claim=True, channel=await remote.inbox())
        except BaseException as exc:
            self.stopped = True
            self.ready.set_exception(exc)
            return
        self.published = self.rt.version if self.rt else -1
        self.ready.set_result(None)
        presence.beating()  # its lease is renewed on this process's heartbeat
        self._arm()
        while True:
            make, done = await self.jobs.get()
            try:
                result = await make()
            except asyncio.CancelledError:
                if done is not None and not done.done():
                    done.cancel()
                raise
            except BaseException as exc:
                if done is not None and not done.done():
                    done.set_exception(exc)
                elif done is None:
                    logger.exception("table %s: a timer job failed", self.table_id)
            else:
                if done is not None and not done.done():
                    done.set_result(result)

    async def stop(self) -> None:
        """Stop taking jobs, write the state to the row and give the lease back."""
        if self.stopped:
            return
        self.stopped = True
        self.clocks.cancel_all()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(BaseException):
                await self.task
        ownership.forget(self)
        while not self.jobs.empty():  # jobs never taken: refused, nothing of them applied
            _, done = self.jobs.get_nowait()
            if done is not None and not done.done():
                done.set_exception(TableElsewhere())
        if self.ready.done() and self.ready.exception() is None:
            await blocking(self._close)()

    async def abandon(self) -> None:
        """The lease went to another process: stop at once, write nothing, close the sockets.

        The clients reconnect and reach the new owner; what this owner applied is in the journal.
        """
        self.stopped = True
        self.clocks.cancel_all()
        if self.task is not None:
            self.task.cancel()
        ownership.forget(self)
        for viewers in list(self.audience.by_user.values()):
            for viewer in list(viewers):
                close = getattr(viewer, "close", None)  # a connection of this process (one elsewhere
                # sees the lease move on its own process's heartbeat)
                if close is not None:
                    with contextlib.suppress(Exception):
                        await close(code=4409)

    def _close(self) -> None:
        self._save_snapshot()
        ownership.lease_release(self.table_id)

    def _load(self, claim: bool = False, channel: str = "") -> None:
        if claim:
            ownership.lease_claim(self.table_id, channel=channel)
        rt = TableRuntime.objects.select_related("table").filter(pk=self.table_id).first()
        if rt is None:
            raise TableClosed()
        self.recovered = recover(rt)
        self.dirty = self.recovered > 0
        self.rt, self.seats = rt, list(seat_rows(self.table_id))
        self.chores_at = chores_due(rt, self.seats)
        # between hands every view shows why the table is not dealing (the seats' credits): read here
        between = rt.state is None or actions.hand_engine(rt).is_over(rt.state)
        family = actions.hand_engine(rt).family
        self.waiting = table_waiting(rt, self.seats, family) if between else None
        self.hand_id = (
            Hand.objects.filter(table_id=self.table_id, number=rt.hand_no)
            .values_list("pk", flat=True)
            .first()
            if rt.state is not None
            else None
        )

    def reload_soon(self) -> None:
        """The row changed outside this owner (a script, a task): read it again, in turn."""
        self._queue(self._reload_job, None)

    async def _reload_job(self) -> None:
        await blocking(self._load)()
        await self._publish()

    # --- jobs -------------------------------------------------------------------------------------

    def _queue(self, make: Callable[[], Awaitable[Any]], done: asyncio.Future[Any] | None) -> None:
        self.jobs.put_nowait((make, done))

    async def submit(self, make: Callable[[], Awaitable[Any]]) -> Any:
        if self.stopped:
            raise TableElsewhere()  # the connection reconnects and finds the table's owner
        done: asyncio.Future[Any] = self.loop.create_future()
        self._queue(make, done)
        return await done

    async def act(self, user: User, action: dict[str, Any], version: int | None) -> actions.StepResult:
        """A player's decision (the consumer's ``act``)."""
        return await self.submit(lambda: self._decide(user, action, version))

    async def call(self, func: Callable[..., Any], **kwargs: Any) -> Any:
        """A row action of ``lobby.actions`` run under the owner (keywords as the action's).

        Once the owner has stopped (its state is in the row) the action runs on its own.
        """
        if self.stopped:
            return await blocking(func)(**kwargs)
        return await self.submit(lambda: self._row_action(func, kwargs))

    def call_from_thread(self, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        """A row action called from sync code: the owner is parked while it runs on this thread.

        The owner takes jobs again once the caller's transaction commits (an outer one: a hook
        called inside a status change), reading the row back itself: it never sends a version
        that is not committed. A transaction rolled back releases it after ``PARK_SECONDS``.
        """
        parking = asyncio.run_coroutine_threadsafe(self.park(), self.loop)
        try:
            release = parking.result(timeout=PARK_SECONDS)
        except TimeoutError:  # the owner waits for this very thread (SQLite's one): refuse, never hang
            parking.cancel()
            raise TableElsewhere() from None

        def resume() -> None:
            self.loop.call_soon_threadsafe(lambda: release.done() or release.set_result(None))

        return ownership.run_parked(self.table_id, func, kwargs, release=resume, first=self._save_snapshot)

    async def park(self, save: bool = False) -> asyncio.Future[None]:
        """Stop taking jobs until the returned future is set (or ``PARK_SECONDS`` pass), then read
        the row back and send the new version. ``save``: write the state to the row first (a
        caller in another process; a caller on a thread of this one writes it itself)."""
        parked: asyncio.Future[None] = self.loop.create_future()
        release: asyncio.Future[None] = self.loop.create_future()

        async def hold() -> None:
            if save:
                await blocking(self._save_snapshot)()
            parked.set_result(None)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(release), PARK_SECONDS)
            await blocking(self._load)()
            await self._publish()

        self._queue(hold, None)
        await parked
        return release

    def snapshot(self, user_id: int | None) -> dict[str, Any]:
        """What one user sees of the table now (a new connection, ``sync``)."""
        assert self.rt is not None
        return snapshot(self.rt, self.seats, user_id, self.waiting)

    def version(self) -> int:
        return self.rt.version if self.rt is not None else 0

    # --- a decision, in memory --------------------------------------------------------------------

    async def _decide(
        self, user: User | None, action: dict[str, Any], version: int | None, seat_no: int | None = None
    ) -> actions.StepResult:
        rt = self.rt
        assert rt is not None
        if user is not None:
            seat = next((s for s in self.seats if s.user_id == user.pk), None)
            if seat is None:
                raise NotSeated()
            if not user.can_play and rt.table.realm == Table.Realm.REAL:
                raise NotAllowed("Il tuo conto non può giocare in questo momento")
            if version is not None and version != rt.version:
                raise StaleVersion(current=rt.version)
            seat_no = seat.number
        assert seat_no is not None
        if rt.state is None or actions.hand_engine(rt).is_over(rt.state):
            raise NoHandInProgress()
        if rt.bank_seat is not None or self.hand_id is None:
            # the time bank's seconds are kept on the seat's row: the row action applies this one
            if user is None:
                return await self._row_action(
                    actions.table_bot_move, {"table_id": self.table_id, "version": rt.version}
                )
            kwargs = {"table_id": self.table_id, "user": user, "action": action, "version": version}
            return await self._row_action(actions.table_act, kwargs)
        engine = actions.hand_engine(rt)
        was_due = seat_no in engine.to_act(rt.state)
        rng = actions.new_rng()
        events = engine.apply(rt.state, seat_no, action, rng)  # raises, changing nothing, if refused
        try:
            now = timezone.now()
            if rt.clocks is not None and was_due and rt.turn_started is not None:
                line = engine.line_of(rt.state, seat_no)
                spent = int((now - rt.turn_started).total_seconds() * 1000)
                rt.clocks[line] = max(0, int(rt.clocks.get(line, 0)) - spent)
            steps = rt.steps if rt.steps is not None else 0
            step = HandStep(
                hand_id=self.hand_id, seq=steps + 1, seat=seat_no, action=action, automatic=False,
                draws=rng.draws, events=events, version=rt.version + 1,
            )  # fmt: skip
            if engine.is_over(rt.state):
                await blocking(self._finish_sync)(step, events)
                self.applied += 1
                await self._publish(events)
                return actions.StepResult(version=self.version(), events=events, hand_over=True)
            actions.set_deadline(rt, engine, now)
            step.deadline, step.clocks = rt.deadline, rt.clocks
            rt.version, rt.steps = step.version, step.seq
            self.dirty = True
            await journal().append(step)  # durable before visible
        except BaseException:
            # the step is not in the journal: the state in memory goes back to the row + journal
            await blocking(self._load)()
            raise
        self.applied += 1
        await self._publish(events)
        return actions.StepResult(version=rt.version, events=events, hand_over=False)

    def _finish_sync(self, step: HandStep, events: list[dict[str, Any]]) -> None:
        """The hand's last step: journal it, settle, snapshot the row, in one transaction."""
        assert self.rt is not None
        with ownership.inside(self.table_id), transaction.atomic():
            rt = actions._lock(self.table_id)
            for name in STEP_FIELDS:
                setattr(rt, name, getattr(self.rt, name))
            step.save()
            rt.steps = step.seq
            hand = Hand.objects.select_for_update().get(pk=self.hand_id)
            engine = actions.hand_engine(rt)
            actions._finish_hand(rt, engine, hand)
            actions._after_change(rt, engine, events=events)
        self.dirty = False
        self._load()

    async def _bot_moves(self) -> None:
        """The bots due now make their move, one after the other, as players would."""
        rt = self.rt
        assert rt is not None
        for seat in [s for s in self.seats if s.user.is_bot]:
            if rt.state is None:
                return
            engine = actions.hand_engine(rt)
            if engine.is_over(rt.state) or seat.number not in engine.to_act(rt.state):
                continue
            action = bots.bot_action(engine, rt.state, seat.number, actions.new_rng())
            await self._decide(None, action, None, seat_no=seat.number)
            rt = self.rt
            assert rt is not None

    # --- row actions ------------------------------------------------------------------------------

    async def _row_action(self, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        try:
            return await blocking(self._row_action_sync)(func, kwargs)
        finally:
            await self._publish()

    def _row_action_sync(self, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        self._save_snapshot()
        self.captured = []
        try:
            with ownership.inside(self.table_id):
                return func(**kwargs)
        finally:
            self._load()

    def _save_snapshot(self) -> None:
        """Write the decisions applied in memory to the runtime row (the journal has each step)."""
        if not self.dirty or self.rt is None:
            return
        fields = {name: getattr(self.rt, name) for name in STEP_FIELDS}
        TableRuntime.objects.filter(pk=self.table_id).update(**fields, updated_at=timezone.now())
        self.dirty = False

    # --- views and clocks -------------------------------------------------------------------------

    async def _publish(self, events: list[dict[str, Any]] | None = None) -> None:
        """Send the current version if it was not sent yet; arm the clocks for it."""
        rt = self.rt
        if rt is None:
            return
        if rt.version != self.published:
            self.published = rt.version
            await self.audience.send(
                rt, self.seats, events if events is not None else self.captured, self.waiting
            )
            self.captured = []
        self._arm()

    def _arm(self) -> None:
        rt = self.rt
        if rt is None or self.stopped or not settings.LOBBY_SCHEDULE_TASKS:
            return  # (the test settings: tests drive the clocks themselves, as on the rows runtime)
        self.clocks.set("deadline", at=rt.deadline) if rt.deadline else self.clocks.cancel("deadline")
        self.clocks.set("start", at=rt.start_at) if rt.start_at else self.clocks.cancel("start")
        if self.chores_at is not None and (self.chores_fired is None or self.chores_at > self.chores_fired):
            self.clocks.set("chores", at=self.chores_at)
        else:
            self.clocks.cancel("chores")
        due: list[int] = []
        if rt.state is not None and rt.deadline is not None:
            engine = actions.hand_engine(rt)
            due = [] if engine.is_over(rt.state) else list(engine.to_act(rt.state))
        if any(s.user.is_bot and s.number in due for s in self.seats):
            if "bot" not in self.clocks.handles:
                self.clocks.set("bot", delay=bots.BOT_DELAY_SECONDS)
        else:
            self.clocks.cancel("bot")

    def _timer(self, kind: str) -> None:
        if self.stopped:
            return
        if kind == "bot":
            self._queue(self._bot_moves, None)
        elif kind == "deadline":
            self._queue(self._deadline, None)
        elif kind == "chores":  # waiting-list offers expiring, sitout players stood up
            self.chores_fired = self.chores_at
            self._queue(lambda: self._row_action(actions.table_chores, {"table_id": self.table_id}), None)
        elif kind == "start":
            self._queue(lambda: self._row_action(actions.table_start_hand, {"table_id": self.table_id}), None)

    async def _deadline(self) -> None:
        rt = self.rt
        if rt is None or rt.deadline is None:
            return
        if rt.deadline > timezone.now():
            self._arm()
            return
        await self._row_action(actions.table_deadline_fired, {"table_id": self.table_id})
