"""The owner of one table: its runtime in memory, its jobs applied one at a time, in order.

A job is a player's decision (``act``), a bot's move, a timer (``clocks``) or a row action of
``lobby.actions`` (``call``: sit, stand, sitout, ready, rebuy, connections, the hand's start, a
timeout, the hand's cancellation). Read top to bottom, a decision goes:

1. ``act``: queued; the owner takes it when the previous job is done.
2. ``_decide``: refused in memory if the player is not seated, may not play, sent a stale
   version or there is no hand; else the engine applies it (a refusal changes nothing).
3. The step (version, seat, action, RNG draws, events, deadline) goes to the journal and the
   owner waits for its commit (``journal``: group commit).
4. ``fanout``: each seat's view, then the public one, sent; ``clocks`` armed again.
5. A step that ended the hand: its settlement is the owner's next job (``_settle``:
   ``lobby.actions.hands.finish_hand``, the ledger, stand-ups, the next deal's timer, with the
   runtime row in one transaction), run before any other job, snapshot or stop, and sent as the
   next version. A row recovered from a journal that ends a hand settles it first
   (``tablerow.settle_journaled_end``).

Row actions run with the runtime row up to date: the owner writes its state there first (a
snapshot; between snapshots the row lags and the journal holds the steps), runs the action, then
reads back what it wrote (``RowWrites``: the row, seats, waiting list; a deal hands over the row
it saved). A takeover (``start`` in another process) reads the row and
applies the journal's later steps with their recorded draws (``recover``).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import threading
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

from django.conf import settings
from django.db import DatabaseError, connection, models, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from lobby import actions, bots, owners
from lobby.actions import hands, tablerow
from lobby.errors import NoHandInProgress, NotAllowed, NotSeated, StaleVersion, TableClosed, TableElsewhere
from lobby.models import Hand, HandStep, Seat, Table, TableRuntime, WaitingEntry
from lobby.replay import recover
from lobby.runtime import lease, remote
from lobby.runtime.clocks import Clocks, chores_due, first_offer
from lobby.runtime.fanout import Audience, snapshot
from lobby.runtime.journal import journal
from lobby.runtime.threads import blocking
from lobby.selectors import match_hand_seats, seat_rows, table_waiting
from piattaforma import logcontext
from piattaforma.compiledquery import CompiledQuery
from piattaforma.models import User

logger = logging.getLogger(__name__)

Job = tuple[Callable[[], Awaitable[Any]], "asyncio.Future[Any] | None"]

# What of the runtime row changes with a decision applied in memory (written with a snapshot).
# A sync caller's transaction that never commits (rolled back) keeps the owner parked this long.
PARK_SECONDS = 10.0
STEP_FIELDS = ("state", "version", "steps", "clocks", "turn_started", "deadline")
# the between-hands block of the views of a hand ended and not yet settled: no seat's credit yet
# (the settlement's version, next, brings them)
SETTLING: dict[str, Any] = {"settling": True}
SETTLE_RETRY_SECONDS = 1.0  # a settlement refused (the database away) is tried again after this
# a read-back refused is tried again after this pause, doubled at each refusal up to the maximum
READ_BACK_PAUSE, READ_BACK_PAUSE_MAX = 0.02, 1.0


M = TypeVar("M", bound=models.Model)
R = TypeVar("R")


def one_job_at_a_time(method: Callable[..., R]) -> Callable[..., R]:
    """An owner's database work, run holding its ``working`` lock (re-entrant: a job's own nested
    calls pass). Its jobs run one after the other anyway; the lock matters when ``stop`` cancels
    the owner's task while a job runs on a database thread: the thread goes on, and the close
    (the hand's settlement if one is pending, the snapshot) waits for it instead of running beside it."""

    @functools.wraps(method)
    def run(self: TableOwner, *args: Any, **kwargs: Any) -> R:
        with self.working:
            return method(self, *args, **kwargs)

    return run


@functools.cache
def _json_fields(model: type[models.Model]) -> list[models.JSONField[Any]]:
    return [f for f in model._meta.concrete_fields if isinstance(f, models.JSONField)]


def as_stored(row: M) -> M:
    """The row a transaction saved, its JSON fields as a read of it gives them (lists for tuples,
    string keys, no object shared with the caller's), without reading it."""
    for field in _json_fields(type(row)):
        value = getattr(row, field.attname)
        if value is not None:
            text = json.dumps(value, cls=field.encoder)
            setattr(row, field.attname, json.loads(text, cls=field.decoder))
    return row


def _row_with_hand(table_id: int) -> Any:
    hand = Hand.objects.filter(table_id=OuterRef("pk"), number=OuterRef("hand_no")).values("pk")[:1]
    rows = TableRuntime.objects.select_related("table").annotate(hand_pk=Subquery(hand))
    return rows.filter(pk=table_id)


# the owner's read of its runtime row (each start, each row action that wrote it): compiled once
_READ_ROW = CompiledQuery(_row_with_hand, lambda table_id: (int(table_id),))


class RowWrites:
    """The statements of a row action that are not reads (the execute wrapper of its connection).

    Every write of Django and of ``lobby.bulkinsert`` names its table quoted; a statement that
    merely mentions a table (in a subquery) counts as a write to it, which only costs a read.
    """

    def __init__(self) -> None:
        self.statements: list[str] = []

    def __call__(self, execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.lstrip()[:6].upper() != "SELECT":
            self.statements.append(sql)
        return execute(sql, params, many, context)

    def wrote(self, *models: type[Any]) -> bool:
        names = [connection.ops.quote_name(m._meta.db_table) for m in models]
        return any(name in sql for sql in self.statements for name in names)


class TableOwner:
    """The single-threaded owner of one live table in this process."""

    def __init__(self, table_id: int) -> None:
        self.table_id = table_id
        self.loop = asyncio.get_running_loop()
        self.rt: TableRuntime | None = None
        self.seats: list[Seat] = []
        self.hand_id: int | None = None
        # the hand row as this owner's deal stored it: its end settles it without reading it again
        # (None: read it; a load that may have seen it written elsewhere drops it)
        self.hand: Hand | None = None
        self.dirty = False  # decisions applied since the runtime row was last written
        # a transaction of this owner committed and reading its row back failed: the next job
        # reads it first (``_read_back``), never going on from the state before that commit
        self.unread = False
        # the hand's last step is journaled (and sent), its settlement not yet run (``_settle``)
        self.ending = False
        # held by the thread running this owner's database work (``one_job_at_a_time``): a stop
        # that cancels the owner's task while a job runs on a thread closes after that job, not beside it
        self.working = threading.RLock()
        self.recovered_end = False  # that hand's end came from the journal (a predecessor stopped)
        # whether a rebuy may be pending at the hand's end: a row action that wrote a hold since
        # the deal, or a row this owner did not deal (None: the settlement looks)
        self.rebuys: bool | None = None
        self.published = -1  # the last version sent
        self.captured: list[dict[str, Any]] = []  # events of the row action that just committed
        self.jobs: asyncio.Queue[Job] = asyncio.Queue()
        self.audience = Audience()
        self.clocks = Clocks(self._timer)
        self.ready: asyncio.Future[None] = self.loop.create_future()
        self.task: asyncio.Task[None] | None = None
        self.stopped = False
        self.abandoning: asyncio.Task[None] | None = None  # fenced by a successor: stopping (``_row_action``)
        self.recovered = 0  # journal steps applied at start (a takeover)
        self.applied = 0  # decisions applied in memory (the benchmarks)
        self.chores_at: datetime | None = None  # the next waiting-list offer or sitout stand-up due
        self.offer_at: datetime | None = None  # the first waiting-list offer's expiry
        self.chores_fired: datetime | None = None
        self.waiting: dict[str, Any] | None = None  # the between-hands block of every view
        self.remote_viewers: dict[str, remote.RemoteViewer] = {}  # connections on other processes
        self.quiet = asyncio.Event()  # clear while a decision is applied in memory and not yet committed
        self.quiet.set()
        # each seat due now -> the version from which its decision has been due (``_decide``): the
        # keys are ``engine.to_act`` of the state held (set with it by ``_load`` and ``_decide``)
        self.due_since: dict[int, int] = {}
        # each seat -> the version its last decision made (or was to make, if refused): its own view
        # carries it, so its page knows its action is in (``fanout.Audience.send``)
        self.acted: dict[int, int] = {}

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
        logcontext.table_id.set(self.table_id)  # (this task's context: every line it logs)
        try:
            await blocking(self._load)(claim=True, channel=await remote.inbox())
        except BaseException as exc:
            self.stopped = True
            self.ready.set_exception(exc)
            return
        self.published = self.rt.version if self.rt else -1
        self.ready.set_result(None)  # (``lobby.presence.owner_for`` then keeps its lease renewed)
        self._arm()
        try:
            while True:
                make, done = await self.jobs.get()
                try:
                    if self.unread:
                        await self._read_back()
                    await self._settle()  # (a hand's end journaled and not yet settled: first)
                    result = await make()
                except asyncio.CancelledError:
                    task = asyncio.current_task()
                    if task is not None and task.cancelling():  # this owner is being stopped
                        if done is not None and not done.done():
                            done.cancel()
                        raise
                    # only the job's own wait was cancelled (its database thread went away): the job
                    # fails, the owner goes on taking jobs
                    logger.warning("table %s: a job's wait was cancelled", self.table_id)
                    if done is not None and not done.done():
                        done.set_exception(TableElsewhere())
                except BaseException as exc:
                    if done is not None and not done.done():
                        done.set_exception(exc)
                    else:  # a timer's job, or a park's after it answered its caller: nobody else hears
                        logger.exception("table %s: a job failed with no caller to tell", self.table_id)
                else:
                    if done is not None and not done.done():
                        done.set_result(result)
        finally:
            if not self.stopped:  # the task ended without stop() (its loop shutting down): nobody
                # takes this owner's jobs again, so it is no owner any more; the lease runs out and
                # another process adopts the table from the journal
                self.stopped = True
                self.clocks.cancel_all()
                owners.forget(self)
                self._refuse_queued()

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
        owners.forget(self)
        self._refuse_queued()
        if self.ready.done() and self.ready.exception() is None:
            await blocking(self._close)()

    def _refuse_queued(self) -> None:
        """Jobs never taken are refused (nothing of them applied): their callers find the new owner."""
        while not self.jobs.empty():
            _, done = self.jobs.get_nowait()
            if done is not None and not done.done():
                done.set_exception(TableElsewhere())

    @property
    def closing(self) -> bool:
        """Stopped, or stopping after a successor fenced it: it takes no new job and arms no clock."""
        return self.stopped or self.abandoning is not None

    @property
    def claimed(self) -> bool:
        """Its lease claimed and its state loaded (a lease to renew); False while it still loads."""
        return self.ready.done() and not self.ready.cancelled() and self.ready.exception() is None

    async def abandon(self) -> None:
        """The lease went to another process: stop at once, write nothing, close the sockets.

        The clients reconnect and reach the new owner; what this owner applied is in the journal.
        """
        if self.stopped:
            return
        logger.warning(
            "table %s: owner abandoned (lease lost), %d sockets closed", self.table_id, len(self.audience)
        )
        self.stopped = True
        self.clocks.cancel_all()
        if self.task is not None:
            self.task.cancel()
        owners.forget(self)
        self._refuse_queued()
        for viewers in list(self.audience.by_user.values()):
            for viewer in list(viewers):
                close = getattr(viewer, "close", None)  # a connection of this process (one elsewhere
                # sees the lease move on its own process's heartbeat)
                if close is not None:
                    with contextlib.suppress(Exception):
                        await close(code=4409)

    @one_job_at_a_time
    def _close(self) -> None:
        with contextlib.suppress(TableElsewhere):  # another owner took the table: nothing to write
            if self.ending:
                self._settle_sync()
            self._save_snapshot()
            lease.lease_release(self.table_id)

    @one_job_at_a_time
    def _load(
        self,
        claim: bool = False,
        channel: str = "",
        own: bool = False,
        written: TableRuntime | None = None,
        kept: RowWrites | None = None,
    ) -> None:
        """Read the runtime row, seats and what every view shows from the database.

        ``own``: the row was last written by this owner (a row action run under it, which wrote the
        snapshot first), so it holds every step and the journal is not read, nor the hand's id
        while the same hand goes on; a load at start or after someone else's write reads both.
        ``written``: that row as this owner's transaction just committed it (the hand's end, a
        deal: ``hand_pk`` set by the deal).
        ``kept``: the statements of the row action (or the hand's end) just run under the owner: the
        seats (with their players) and the waiting list's first offer the owner holds are read
        again only if one of them wrote to their tables, the runtime row only if it wrote that or
        the table's (else the row the owner holds is kept).
        """
        if claim:
            lease.lease_claim(self.table_id, channel=channel)
        if own and written is None and kept is not None and not kept.wrote(TableRuntime, Table):
            written = self.rt  # the row as the owner last read or wrote it (its epoch too)
        own = own or written is not None
        # every read first, then the owner's state replaced at once: a read the database refuses
        # leaves the owner as it was, never half of the new row with half of the old
        rt = written or self._read_row()
        if rt is None:
            raise TableClosed()
        recovered = 0 if own else recover(rt)
        seats = list(seat_rows(self.table_id)) if kept is None or kept.wrote(Seat, User) else self.seats
        if rt.table.tournament_id is not None and not rt.table.is_open and rt.state is not None:
            # a closed tournament match shows its players' names (selectors.match_hand_seats): read here,
            # where the database may be read, for the views the loop builds without it
            rt.match_hand_seats = match_hand_seats(rt)  # type: ignore[attr-defined]  # carried on the row object
        offer_at = first_offer(self.table_id) if kept is None or kept.wrote(WaitingEntry) else self.offer_at
        hand_no = self.rt.hand_no if self.rt is not None else None
        if rt.state is None:
            hand_id = None
        elif not own or self.hand_id is None or rt.hand_no != hand_no:  # else the same hand goes on
            hand_id = rt.hand_pk if hasattr(rt, "hand_pk") else self._hand_pk(rt.hand_no)
        else:
            hand_id = self.hand_id
        # between hands every view shows why the table is not dealing (the seats' credits): read here
        between = rt.state is None or tablerow.hand_engine(rt).is_over(rt.state)
        family = tablerow.hand_engine(rt).family
        waiting = table_waiting(rt, seats, family) if between else None

        self.recovered, self.dirty, self.unread = recovered, recovered > 0, False
        self.rt, self.seats, self.offer_at, self.hand_id = rt, seats, offer_at, hand_id
        self.chores_at = chores_due(rt, seats, offer_at)
        self.due_since = self._due_from(rt, rt.version)
        self.waiting = waiting
        if self.hand is not None and (self.hand.pk != self.hand_id or kept is None or kept.wrote(Hand)):
            self.hand = None
        if not own:
            self.rebuys = None  # (written elsewhere: a rebuy may be pending)
            if self.recovered and rt.state is not None and between:
                # the journal ends the hand and nobody settled it (its owner stopped between the
                # step's commit and the settlement): this owner settles it, as its next job
                self.ending = self.recovered_end = True
                self.loop.call_soon_threadsafe(self._queue, self._settle, None)

    @staticmethod
    def _due_from(rt: TableRuntime, version: int, kept: dict[int, int] | None = None) -> dict[int, int]:
        """The seats due in ``rt``'s state, each from ``version`` unless ``kept`` says since when."""
        if rt.state is None:
            return {}
        engine = tablerow.hand_engine(rt)
        if engine.is_over(rt.state):
            return {}
        kept = kept or {}
        return {seat: kept.get(seat, version) for seat in engine.to_act(rt.state)}

    def _read_row(self) -> TableRuntime | None:
        """The runtime row with its table and ``hand_pk``, the id of its hand (None: none), in one read."""
        rows = _READ_ROW(self.table_id)
        return rows[0] if rows else None

    def _hand_pk(self, number: int) -> int | None:
        return Hand.objects.filter(table_id=self.table_id, number=number).values_list("pk", flat=True).first()

    def reload_soon(self) -> None:
        """The row changed outside this owner (a script, a task): read it again, in turn."""
        self._queue(self._reload_job, None)

    async def _reload_job(self) -> None:
        await self._read_back()
        await self._publish()

    async def _read_back(self) -> None:
        """Read the row back after a write outside this owner (a park's caller, a script), until it
        is read: the owner never goes on from its state before that write. A read the database
        refuses (SQLite's shared cache refuses one under another connection's write; a dropped
        connection) is tried again after a pause, the owner taking no other job meanwhile."""
        pause = READ_BACK_PAUSE
        while True:
            try:
                await blocking(self._load)()
                return
            except DatabaseError:
                if self.closing:
                    raise
                logger.warning(
                    "table %s: reading its row back failed, tried again", self.table_id, exc_info=True
                )
            await asyncio.sleep(pause)
            pause = min(2 * pause, READ_BACK_PAUSE_MAX)

    # --- jobs -------------------------------------------------------------------------------------

    def _queue(self, make: Callable[[], Awaitable[Any]], done: asyncio.Future[Any] | None) -> None:
        if self.closing:  # nobody will take it: refused (nothing applied)
            if done is not None and not done.done():
                done.set_exception(TableElsewhere())
            return
        self.jobs.put_nowait((make, done))

    async def submit(self, make: Callable[[], Awaitable[Any]]) -> Any:
        if self.stopped:
            raise TableElsewhere()  # the connection reconnects and finds the table's owner
        done: asyncio.Future[Any] = self.loop.create_future()
        self._queue(make, done)
        return await done

    async def act(self, user: User, action: dict[str, Any], version: int | None) -> tablerow.StepResult:
        """A player's decision (the consumer's ``act``)."""
        return await self.submit(lambda: self._unsettled(self._decide(user, action, version)))

    async def _unsettled(self, decision: Awaitable[Any]) -> Any:
        """Run a decision with ``quiet`` clear: from the engine to the journal's commit its state is
        in memory only, and no view asked meanwhile may show it (``settled``)."""
        self.quiet.clear()
        try:
            return await decision
        finally:
            self.quiet.set()

    async def settled(self) -> None:
        """Wait until no decision is between the engine and its commit (then read, with no await
        in between: ``snapshot``). Views sent by the owner itself go out after the commit anyway."""
        while not self.quiet.is_set():
            await self.quiet.wait()

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
        that is not committed. A transaction rolled back releases it after ``PARK_SECONDS``; a
        caller still writing then is fenced out (``lobby.runtime.ownership``, "Fencing").
        """
        resume, epoch, first = self.park_from_thread()()
        return owners.run_parked(self.table_id, func, kwargs, release=resume, fence=epoch, first=first)

    def park_from_thread(self) -> Callable[[], tuple[Callable[[], None], int, Callable[[], None]]]:
        """Ask the owner to park (sync code); the function returned waits until it has, and gives
        what ``owners.run_parked`` takes: the release, the park's epoch, the snapshot written first.

        Asking first and waiting after lets a write of several tables park their owners together
        (``lobby.runtime.ownership.through_owners``).
        """
        parking = asyncio.run_coroutine_threadsafe(self.park(), self.loop)

        def parked() -> tuple[Callable[[], None], int, Callable[[], None]]:
            try:
                release, epoch = parking.result(timeout=PARK_SECONDS)
            except TimeoutError:  # the owner waits for this very thread (SQLite's one): refuse, never hang
                parking.cancel()
                raise TableElsewhere() from None

            def resume() -> None:
                self.loop.call_soon_threadsafe(lambda: release.done() or release.set_result(None))

            return resume, epoch, lambda: self._save_parked(epoch)

        return parked

    async def park(self, save: bool = False) -> tuple[asyncio.Future[None], int]:
        """Stop taking jobs until the returned future is set (or ``PARK_SECONDS`` pass), then read
        the row back and send the new version; the epoch returned fences the caller's writes. A
        park that ran out raises the epoch before the owner reads the row (``lease.fence``).
        ``save``: write the state to the row first (a caller in another process; a caller on a
        thread of this one writes it itself)."""
        parked: asyncio.Future[int] = self.loop.create_future()
        release: asyncio.Future[None] = self.loop.create_future()

        async def hold() -> None:
            if save:
                try:
                    await blocking(self._save_snapshot)()
                except BaseException as exc:  # (another owner took the table): the caller is refused
                    parked.set_exception(exc)
                    raise
            parked.set_result(self.rt.epoch if self.rt is not None else 0)
            try:
                await asyncio.wait_for(asyncio.shield(release), PARK_SECONDS)
            except TimeoutError:  # the caller may still write: after this it writes nothing
                await self._fence()
            await self._read_back()
            await self._publish()

        self._queue(hold, parked)  # (refused, never taken: ``parked`` says so to the caller)
        return release, await parked

    async def _fence(self) -> None:
        """Raise the epoch after a park ran out, trying again while its caller holds the row."""
        tries = 0
        while not await blocking(lease.fence)(self.table_id):
            tries += 1
            if tries % 50 == 0:
                logger.warning("table %s: a parked caller still holds its row", self.table_id)
            await asyncio.sleep(lease.FENCE_PAUSE)

    def snapshot(self, user_id: int | None) -> dict[str, Any]:
        """What one user sees of the table now (a new connection, ``sync``)."""
        assert self.rt is not None
        return snapshot(self.rt, self.seats, user_id, self.waiting, self.acted)

    def version(self) -> int:
        return self.rt.version if self.rt is not None else 0

    # --- a decision, in memory --------------------------------------------------------------------

    async def _decide(
        self, user: User | None, action: dict[str, Any], version: int | None, seat_no: int | None = None
    ) -> tablerow.StepResult:
        rt = self.rt
        assert rt is not None
        if user is not None:
            seat = next((s for s in self.seats if s.user_id == user.pk), None)
            if seat is None:
                raise NotSeated()
            if not user.can_play and rt.table.realm == Table.Realm.REAL:
                raise NotAllowed("Il tuo conto non può giocare in questo momento")
            # Stale: older than the view in which this seat's decision opened. Another seat's
            # decision taken meanwhile in the same round (everyone puts the invito at once) leaves
            # this one as it was: it is taken, as it would have been a moment earlier. A version
            # of a row action (a seat standing up, a timeout, a deal) opens every decision again.
            opened = self.due_since.get(seat.number, rt.version)
            if version is not None and not opened <= version <= rt.version:
                raise StaleVersion(current=rt.version)
            seat_no = seat.number
        assert seat_no is not None
        if rt.state is None or tablerow.hand_engine(rt).is_over(rt.state):
            raise NoHandInProgress()
        # before it is applied: the views of the version it makes (here, or by the row action) carry it
        self.acted[seat_no] = rt.version + 1
        if rt.bank_seat is not None or self.hand_id is None:
            # the time bank's seconds are kept on the seat's row: the row action applies this one
            return await self._decide_in_row(user, action)
        engine = tablerow.hand_engine(rt)
        was_due = seat_no in self.due_since
        rng = tablerow.new_rng()
        events = engine.apply(rt.state, seat_no, action, rng)  # raises, changing nothing, if refused
        if hands.said_sitout(events):
            # the seat's row changes with this step (sat out at the table): undone in memory (the
            # row + journal as they were), the row action applies it
            await self._read_back()
            return await self._decide_in_row(user, action)
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
            over = engine.is_over(rt.state)
            tablerow.set_deadline(rt, engine, now)  # (none once the hand is over)
            step.deadline, step.clocks = rt.deadline, rt.clocks
            rt.version, rt.steps = step.version, step.seq
            # the seats still due keep the version their decision opened at; the one that moved,
            # if due again, decides on this view
            others = {k: v for k, v in self.due_since.items() if k != seat_no}
            self.due_since = self._due_from(rt, rt.version, kept=others)
            self.dirty = True
            await journal().append(step)  # durable before visible
        except BaseException:
            # the step is not in the journal: the state in memory goes back to the row + journal
            await self._read_back()
            raise
        self.applied += 1
        if over:
            # the hand's end leaves as soon as it is journaled; its settlement is the next job
            # (``_settle``), which every later job waits for
            self.ending = True
            self.waiting = SETTLING
            self._queue(self._settle, None)
        await self._publish(events)
        return tablerow.StepResult(version=rt.version, events=events, hand_over=over)

    async def _decide_in_row(self, user: User | None, action: dict[str, Any]) -> tablerow.StepResult:
        """A decision that writes a seat's row too, applied by the row action (a bot's: its move).

        Its version was checked by ``_decide``; the row, written first, is at the owner's.
        """
        assert self.rt is not None
        version = self.rt.version
        if user is None:
            bot = {"table_id": self.table_id, "version": version}
            return await self._row_action(actions.table_bot_move, bot)
        kwargs = {"table_id": self.table_id, "user": user, "action": action, "version": version}
        return await self._row_action(actions.table_act, kwargs)

    async def _settle(self) -> None:
        """The settlement of the hand whose last step is journaled (nothing if none is pending).

        The owner's next job after that step, and the first thing of any job taken before it ran:
        no row action, park or snapshot ever sees the ended hand unsettled. A settlement refused
        (the database away) stays pending and is tried again; one fenced out (another owner took
        the table) is left to that owner, which settles it from the journal.
        """
        if not self.ending or self.closing:
            return
        try:
            await blocking(self._settle_sync)()
        except TableElsewhere:
            self.clocks.cancel_all()
            self.abandoning = self.loop.create_task(self.abandon())
            raise
        except Exception:
            logger.exception("table %s: the hand's settlement failed, tried again", self.table_id)
            self.loop.call_later(SETTLE_RETRY_SECONDS, lambda: self._queue(self._settle, None))
            raise
        await self._publish()

    @one_job_at_a_time
    def _settle_sync(self) -> None:
        """The hand's end settled (``hands.finish_hand``) with the runtime row, in one transaction.

        The owner then keeps the row as written and reads the seats and the waiting list's offer
        again only if the transaction wrote them (someone stood up, a seat offered).
        """
        assert self.rt is not None
        writes = RowWrites()
        with owners.inside(self.table_id), connection.execute_wrapper(writes), transaction.atomic():
            rt = tablerow.lock(self.table_id)  # (refused if another owner claimed the table)
            for name in STEP_FIELDS:
                setattr(rt, name, getattr(self.rt, name))
            hand = self.hand if self.hand is not None else Hand.objects.get(pk=self.hand_id)
            engine = tablerow.hand_engine(rt)
            hands.finish_hand(rt, engine, hand, rebuys=self.rebuys, seats=self.seats)
            tablerow.after_change(rt, engine)
        self.ending = False
        self.dirty = False
        self._load_after_commit(written=rt, kept=writes)

    def _load_after_commit(self, **kwargs: Any) -> None:
        """``_load`` after this owner's own transaction committed. A read the database refuses
        leaves the owner ``unread``: its next job reads the row back first."""
        try:
            self._load(**kwargs)
        except DatabaseError:
            self.unread = True
            raise

    async def _bot_moves(self) -> None:
        """The bots due now make their move, one after the other, as players would."""
        rt = self.rt
        assert rt is not None
        for seat in [s for s in self.seats if s.user.is_bot]:
            if rt.state is None:
                return
            engine = tablerow.hand_engine(rt)
            if seat.number not in self.due_since:  # (none is due once the hand is over)
                continue
            action = bots.bot_action(engine, rt.state, seat.number, tablerow.new_rng())
            await self._unsettled(self._decide(None, action, None, seat_no=seat.number))
            rt = self.rt
            assert rt is not None

    # --- row actions ------------------------------------------------------------------------------

    async def _row_action(self, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        try:
            return await blocking(self._row_action_sync)(func, kwargs)
        except TableElsewhere:
            # Its write was fenced: another owner claimed the table (the epoch moved) before this
            # one's renewal noticed. It writes nothing more and stops now (the sockets reconnect to
            # the successor). Its clocks are cancelled, not re-armed: a deadline already past would
            # fire the same refused job again at once, for ever (a core spinning under load).
            self.clocks.cancel_all()
            self.abandoning = self.loop.create_task(self.abandon())
            raise
        finally:
            if self.abandoning is None:
                await self._publish()

    @one_job_at_a_time
    def _row_action_sync(self, func: Callable[..., Any], kwargs: dict[str, Any]) -> Any:
        self._save_snapshot()
        self.captured = []
        writes = RowWrites()
        place = owners.inside(self.table_id)
        dealt = hand = None
        # a deal's reads go with its lock, in one round trip (``hands.deal_reads``)
        ahead = hands.deal_reads(self.rt, self.seats) if func is hands.table_start_hand and self.rt else []
        try:
            with place, connection.execute_wrapper(writes), tablerow.lock_with(ahead):
                result = func(**kwargs)
            if place.dealt is not None:  # a deal, committed: its rows are kept as they were stored
                dealt, hand = as_stored(place.dealt), place.hand and as_stored(place.hand)
                self.rebuys = False  # every write of the table from now on is this owner's
            elif func is actions.table_rebuy:
                self.rebuys = None
            return result
        finally:
            if place.seen is not None and self.rt is not None and place.seen != self.rt.version:
                # the row it locked is not the one this owner holds: written behind its back (a
                # fencing hole): read it all again, or its clocks would go on from a row gone
                logger.error(
                    "table %s: its row was written outside its owner (version %s, the owner's %s)",
                    self.table_id, place.seen, self.rt.version,
                )  # fmt: skip
                self._load_after_commit()
            else:
                self._load_after_commit(own=True, kept=writes, written=dealt)
                if hand is not None and hand.pk == self.hand_id:
                    self.hand = hand

    @one_job_at_a_time
    def _save_snapshot(self) -> None:
        """Write the decisions applied in memory to the runtime row (the journal has each step).

        Refused (``TableElsewhere``) once another owner has claimed the table (the epoch raised).
        """
        if not self.dirty or self.rt is None:
            return
        if self.ending:  # the hand's end is written with its settlement, never without it
            self._settle_sync()
            return
        if not self._write_state(TableRuntime.objects.filter(pk=self.table_id, epoch=self.rt.epoch)):
            raise TableElsewhere()
        self.dirty = False

    def _save_parked(self, epoch: int) -> None:
        """``_save_snapshot`` by the caller of a park, on its thread: refused once the park ran out.

        ``dirty`` is left to the owner (it reads the row back when it goes on).
        """
        row = TableRuntime.objects.filter(pk=self.table_id, epoch=epoch)
        if self.dirty and self.rt is not None and not self._write_state(row):
            raise TableElsewhere()

    def _write_state(self, row: Any) -> int:
        assert self.rt is not None
        fields = {name: getattr(self.rt, name) for name in STEP_FIELDS}
        return int(row.update(**fields, updated_at=timezone.now()))

    # --- views and clocks -------------------------------------------------------------------------

    async def _publish(self, events: list[dict[str, Any]] | None = None) -> None:
        """Send the current version if it was not sent yet; arm the clocks for it."""
        rt = self.rt
        if rt is None:
            return
        if rt.version != self.published:
            self.published = rt.version
            await self.audience.send(
                rt, self.seats, events if events is not None else self.captured, self.waiting, self.acted
            )
            self.captured = []
        self._arm()

    def _arm(self) -> None:
        rt = self.rt
        if rt is None or self.closing or not settings.LOBBY_SCHEDULE_TASKS:
            return  # (the test settings: tests drive the clocks themselves)
        self.clocks.set("deadline", at=rt.deadline) if rt.deadline else self.clocks.cancel("deadline")
        self.clocks.set("start", at=rt.start_at) if rt.start_at else self.clocks.cancel("start")
        if self.chores_at is not None and (self.chores_fired is None or self.chores_at > self.chores_fired):
            self.clocks.set("chores", at=self.chores_at)
        else:
            self.clocks.cancel("chores")
        due = self.due_since if rt.deadline is not None else {}  # (none without a hand, or over)
        if any(s.user.is_bot and s.number in due for s in self.seats):
            if "bot" not in self.clocks.handles:
                self.clocks.set("bot", delay=bots.BOT_DELAY_SECONDS)
        else:
            self.clocks.cancel("bot")

    def _timer(self, kind: str) -> None:
        if self.closing:
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
