"""A level tournament's bulk deal (``door.tournament_tables_next``) with a live owner at one of
its tables: the owner is parked for the write (``ownership.through_owners``), the deal is fenced
by its park's epoch, and after the commit the owner reads the new hand back and plays it on."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async

from games import registry
from lobby import owners, presence
from lobby.models import Hand, TableRuntime
from piattaforma import roles
from tests.piattaforma.factories import UserFactory
from tests.tournaments.test_freezeout import freezeout_tournament, level_tables, play_hand
from tournaments import freezeout, running

pytestmark = pytest.mark.django_db(transaction=True)


async def read_back(owner, table_id):
    """Wait until the owner holds its row's version (a released park's read-back runs on the
    owner's loop after the caller's commit); fails naming both if it does not. Returns the row."""
    row = await sync_to_async(TableRuntime.objects.get)(pk=table_id)
    for _ in range(500):
        if owner.rt.version == row.version:
            return row
        await asyncio.sleep(0.02)
    raise AssertionError(f"the owner holds version {owner.rt.version}, its row {row.version}")


async def test_the_bulk_deal_parks_a_live_owner_which_then_plays_the_new_hand(monkeypatch):
    monkeypatch.setattr(freezeout, "HAND_FOR_HAND_MARGIN", 100)  # hand for hand from the start
    staff = await sync_to_async(UserFactory)(role=roles.STAFF)
    t, _bots = await sync_to_async(freezeout_tournament)(staff, "poker5", 12)
    tables = [m.table_id for m in await sync_to_async(level_tables)(t)]
    owned = tables[0]
    owner = await presence.owner_for(owned)
    assert owners.local_owner(owned) is owner
    parked = []
    park = owner.park_from_thread
    monkeypatch.setattr(owner, "park_from_thread", lambda: parked.append(owned) or park())
    for table_id in tables:
        await sync_to_async(play_hand, thread_sensitive=False)(
            table_id
        )  # each bot move parks the owner of its table
    await read_back(owner, owned)  # (the last park's release: the owner reads its row back after it)
    assert registry.get(owner.rt.game).is_over(owner.rt.state) and owner.rt.hand_no == 1
    parked.clear()

    await sync_to_async(running.tournament_advance, thread_sensitive=False)(
        tournament_id=t.pk, now=t.started_at
    )
    assert parked == [owned]  # parked once, for the whole round
    row = await read_back(owner, owned)
    assert row.hand_no == 2 and row.steps == 0
    assert (owner.rt.hand_no, owner.rt.version, owner.rt.state) == (2, row.version, row.state)
    dealt = await sync_to_async(Hand.objects.filter(table_id__in=tables, number=2).count)()
    assert dealt == len(tables)

    await sync_to_async(play_hand, thread_sensitive=False)(
        owned
    )  # the hand plays on under its owner, to its end
    ended = await sync_to_async(Hand.objects.get)(table_id=owned, number=2)
    assert ended.ended_at is not None
