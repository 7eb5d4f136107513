"""A level tournament's round is dealt in bulk (``lobby.door.tournament_tables_next``): one
transaction for every table between hands, its statements as many for 4 tables as for 2, every
hand of a hand-for-hand round started together, and a bulk-dealt hand journaled and recovered as
any other."""

from __future__ import annotations

import re

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import registry
from games.engine import action_from_spec
from games.rng import SeededRng
from lobby import door
from lobby.actions import tablerow
from lobby.models import Hand, HandStep, Seat, TableRuntime
from lobby.replay import replay_hand
from tests.tournaments.test_freezeout import freezeout_tournament, level_tables, lobby_chips_agree, play_hand
from tournaments import freezeout, running
from tournaments.freezeout import chips_in_play

pytestmark = pytest.mark.django_db(transaction=False)

CHIPS = 400


def statement(sql: str) -> str:
    """A statement's kind and first table: "SELECT lobby_seat", "INSERT lobby_hand" (one executed
    once a row, logged as "N times: UPDATE ...", counts once: one statement, prepared once)."""
    sql = re.sub(r"^\d+ times: ", "", sql)
    verb = sql.split()[0].upper()
    table = re.search(r'(?:FROM|INTO|UPDATE) "?(\w+)"?', sql)
    return f"{verb} {table.group(1) if table else ''}".strip()


def first_round(staff, monkeypatch, entrants: int) -> tuple:
    """A poker freezeout hand for hand from its start: every table's first hand played, then the
    tournament advanced (the round dealt). Returns the tournament and the statements of the deal."""
    monkeypatch.setattr(freezeout, "HAND_FOR_HAND_MARGIN", 100)
    t, _bots = freezeout_tournament(staff, "poker5", entrants)
    for m in level_tables(t):  # played passively: no player out, every table dealt again as it was
        for _ in range(200):
            rt = TableRuntime.objects.get(pk=m.table_id)
            if registry.get(rt.game).is_over(rt.state):
                break
            passive_step(m.table_id)
        play_hand(m.table_id)  # (the hand's end settled)
    calls: list[list[str]] = []
    bulk = door.tournament_tables_next

    def counted(**kwargs):
        with CaptureQueriesContext(connection) as queries:
            dealt = bulk(**kwargs)
        calls.append([statement(q["sql"]) for q in queries.captured_queries])
        return dealt

    monkeypatch.setattr(door, "tournament_tables_next", counted)
    running.tournament_advance(tournament_id=t.pk, now=t.started_at)
    monkeypatch.setattr(door, "tournament_tables_next", bulk)
    t.refresh_from_db()
    return t, calls


def test_a_hand_for_hand_round_is_dealt_in_one_bulk_step(staff, monkeypatch):
    small, small_calls = first_round(staff, monkeypatch, 12)
    large, large_calls = first_round(staff, monkeypatch, 24)
    assert (len(level_tables(small)), len(level_tables(large))) == (2, 4)
    for t in (small, large):
        assert t.progress["hand_for_hand"] and t.progress["round"] == 1
        tables = level_tables(t)
        assert all(m.result["running"] and m.result["round"] == 1 for m in tables)
        # every table's second hand: dealt in the same transaction, at the same instant
        hands = Hand.objects.filter(table_id__in=[m.table_id for m in tables], number=2)
        assert hands.count() == len(tables)
        assert len({h.started_at for h in hands}) == 1
        assert chips_in_play(t) == len(t.progress["lines"]) * CHIPS
        lobby_chips_agree(t)
    # one call per round, and its statements do not grow with the tables: one of each kind (the
    # seats of the moved players inserted in one, the site's settings read once and cached)
    assert len(small_calls) == len(large_calls) == 1
    for statements in (small_calls[0], large_calls[0]):
        assert len(statements) == len(set(statements)), statements
        assert {
            "SELECT lobby_tablelease",
            "SELECT lobby_tableruntime",
            "SELECT lobby_handstep",
            "UPDATE lobby_tableruntime",
            "INSERT lobby_hand",
            "INSERT lobby_handplayer",
        } <= set(statements)


# the steps that never end a hand of two or more players: the invito, the cards dealt without a
# buio, a check, a call
PASSIVE = ("invito", "dai_carte", "va_bene", "busso", "vedo")


def passive_step(table_id: int) -> None:
    """One step of the hand by the seat due, a passive one: the hand goes on (a bot's move could
    fold the table to one player, and a hand ended is settled with its row, not journaled ahead)."""
    rt = TableRuntime.objects.get(pk=table_id)
    engine = registry.get(rt.game)
    seat_no = engine.to_act(rt.state)[0]
    specs = engine.legal_actions(rt.state, seat_no)
    assert any(sp["type"] in PASSIVE for sp in specs), (rt.state["phase"], specs)
    spec = next(sp for kind in PASSIVE for sp in specs if sp["type"] == kind)
    user = Seat.objects.get(table_id=table_id, number=seat_no).user
    action = action_from_spec(spec, SeededRng(rt.version))
    door.table_act(table_id=table_id, user=user, action=action, version=rt.version)


def test_a_bulk_dealt_hand_in_progress_is_recovered_from_its_journal(staff, monkeypatch):
    """A table whose bulk-dealt hand has steps its runtime row lags behind (an owner that journaled
    them and died before its snapshot) is brought up to date from the journal on its next write,
    and the hand replays exactly from its record."""
    t, _calls = first_round(staff, monkeypatch, 12)
    table_id = level_tables(t)[0].table_id
    dealt = TableRuntime.objects.get(pk=table_id)
    assert dealt.steps == 0 and dealt.hand_no == 2
    for _ in range(2):
        passive_step(table_id)
    played = TableRuntime.objects.get(pk=table_id)
    assert played.steps >= 2 and HandStep.objects.filter(hand__table_id=table_id, hand__number=2).count() >= 2
    # the row as the bulk deal wrote it: the steps are in the journal only
    TableRuntime.objects.filter(pk=table_id).update(
        state=dealt.state, version=dealt.version, steps=0, deadline=dealt.deadline
    )
    with transaction.atomic():
        tablerow.lock(table_id)  # every table write's first statement, outside an owner
    recovered = TableRuntime.objects.get(pk=table_id)
    assert (recovered.version, recovered.steps, recovered.state) == (
        played.version,
        played.steps,
        played.state,
    )
    hand = Hand.objects.get(table_id=table_id, number=2)
    assert replay_hand(hand)[-1] == played.state
    engine = registry.get(played.game)
    if not engine.is_over(played.state):
        play_hand(table_id)  # and the hand plays on to its end
    assert Hand.objects.get(pk=hand.pk).ended_at is not None
