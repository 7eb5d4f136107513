"""The owner's timers: the decision deadline (and time bank), bot moves, the next deal.

After every change the owner calls ``arm``: each timer is set again from the runtime (the deadline,
``start_at``, a bot seat due), so a timer never outlives the version it was set for. A timer does
not act itself: it queues a job on its owner, which applies it in order with everything else
(a late timeout and a player's action can never both apply).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime, timedelta

from django.utils import timezone

from lobby import bots
from lobby.actions import seating, tablerow
from lobby.models import Seat, TableRuntime, WaitingEntry


class Clocks:
    """The pending timers of one table."""

    def __init__(self, fire: Callable[[str], None]) -> None:
        self.fire = fire  # queues a job ("deadline", "start", "bot") on the owner
        self.handles: dict[str, asyncio.TimerHandle] = {}

    def set(self, kind: str, at: datetime | None = None, delay: float | None = None) -> None:
        """Fire ``kind`` at ``at`` (or in ``delay`` seconds); replaces a pending one of that kind."""
        self.cancel(kind)
        if at is not None:
            delay = (at - timezone.now()).total_seconds()
        if delay is None:
            return
        loop = asyncio.get_running_loop()
        self.handles[kind] = loop.call_later(max(0.0, delay), self._fired, kind)

    def _fired(self, kind: str) -> None:
        self.handles.pop(kind, None)
        self.fire(kind)

    def cancel(self, kind: str) -> None:
        handle = self.handles.pop(kind, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        for kind in list(self.handles):
            self.cancel(kind)

    def pending(self) -> dict[str, float]:
        """Seconds left on each pending timer (the tests, the benchmarks' failover check)."""
        loop = asyncio.get_running_loop()
        return {kind: h.when() - loop.time() for kind, h in self.handles.items()}


BOT_DELAY_SECONDS = bots.BOT_DELAY_SECONDS


def first_offer(table_id: int) -> datetime | None:
    """When the table's first pending waiting-list offer expires (None: no offer pending)."""
    offers = WaitingEntry.objects.filter(table_id=table_id, offer_expires_at__isnull=False)
    return offers.order_by("offer_expires_at").values_list("offer_expires_at", flat=True).first()


def chores_due(rt: TableRuntime, seats: list[Seat], offer: datetime | None) -> datetime | None:
    """When the table's next chore falls due: a waiting-list offer expiring (``offer``, from
    ``first_offer``) or a sitout stand-up (P15).

    The owner runtime arms a timer for it (``TableOwner._arm``); None: nothing pending. A
    sitout seat dealt into the running hand waits for its end (``hands.finish_hand``).
    """
    times = [offer] if offer is not None else []
    rule = seating.STAND_UP_RULES.get(rt.table.game)
    # no stand-up at a tournament's table (RULINGS L2): no timer for one
    if rule is not None and rule[1] is not None and rt.table.tournament_id is None:
        dealt = tablerow.dealt_seats(rt) if tablerow.hand_running(rt) else set()
        clocks = [
            seating.stand_up_clock(rt, s)
            for s in seats
            if s.status == Seat.Status.SITOUT and s.sitout_since is not None and s.number not in dealt
        ]
        times += [since + timedelta(seconds=rule[1]) for since in clocks if since is not None]
    return min(times, default=None)
