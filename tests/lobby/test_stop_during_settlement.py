"""A table's owner stopped while its hand's settlement runs on a database thread.

``TableOwner.stop`` cancels the owner's task; the settlement it was waiting for goes on, on its
thread. The close that follows (the settlement if one is pending, the snapshot, the lease given
back) waits for that job (``owner.one_job_at_a_time``) instead of running beside it: the hand is
settled once, by the job that began it, and the close finds nothing left to settle.

PostgreSQL only: on SQLite one thread runs all the database work, so the two cannot overlap.
"""

from __future__ import annotations

import asyncio
import logging
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connection

from lobby import presence
from lobby.actions import hands
from lobby.models import Hand, TableRuntime
from lobby.runtime.owner import TableOwner
from tests.lobby.helpers import carried_pots, house_rake, money_total, three_bots_dealt

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

WAIT = 30.0  # the longest the bots' first hand, or the close's start, may take on a loaded machine


@pytest.fixture(autouse=True)
def owner_clocks_without_pauses(settings, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("on SQLite one thread runs all the database work")
    settings.LOBBY_SCHEDULE_TASKS = True  # the owner's own timers move the bots
    monkeypatch.setattr("lobby.bots.BOT_DELAY_SECONDS", 0.0)
    monkeypatch.setattr("lobby.actions.hands.NEXT_HAND_DELAY_SECONDS", 60)  # no second hand
    monkeypatch.setattr("lobby.actions.hands.SHOWDOWN_PAUSE_SECONDS", 60)


async def until(event: threading.Event, what: str) -> None:
    """Wait, without blocking the loop, for ``event`` set by a database thread."""
    deadline = asyncio.get_running_loop().time() + WAIT
    while not event.is_set():
        assert asyncio.get_running_loop().time() < deadline, what
        await asyncio.sleep(0.01)


async def test_a_stop_during_the_settlement_closes_after_it_and_settles_the_hand_once(monkeypatch, caplog):
    settling, release, closing = threading.Event(), threading.Event(), threading.Event()
    finished: list[int] = []  # the hands ``finish_hand`` was called for
    finish, close = hands.finish_hand, TableOwner._close

    def paused_finish(rt, engine, hand, **kwargs):
        finished.append(hand.pk)
        if len(finished) == 1:  # the owner's own settlement: held until the stop has begun its close
            settling.set()
            release.wait(WAIT)
        return finish(rt, engine, hand, **kwargs)

    def noted_close(self):
        closing.set()  # (before the close waits for the job in flight)
        return close(self)

    monkeypatch.setattr(hands, "finish_hand", paused_finish)
    monkeypatch.setattr(TableOwner, "_close", noted_close)

    table, users, seats, money = await sync_to_async(three_bots_dealt)()
    caplog.set_level(logging.WARNING, logger="lobby")
    owner = await presence.owner_for(table.pk)  # the bots play the hand to its end on its timers
    try:
        await until(settling, "the first hand's settlement did not begin")
        stopping = asyncio.ensure_future(owner.stop())  # its task cancelled while the job runs
        await until(closing, "the stop did not reach its close")
        release.set()
        await asyncio.wait_for(stopping, WAIT)
    finally:
        release.set()
        await presence.stop_all()

    @sync_to_async
    def after():
        hand = Hand.objects.get(table=table, number=1)
        rt = TableRuntime.objects.get(pk=table.pk)
        total = money_total(users, seats) + house_rake() + carried_pots()
        return hand, rt, total

    hand, rt, total = await after()
    assert finished == [hand.pk]  # settled by the job that began it; the close found it settled
    assert hand.ended_at is not None and rt.hand_no == 1
    assert "already settled" not in caplog.text
    assert total == money  # nothing created or lost
