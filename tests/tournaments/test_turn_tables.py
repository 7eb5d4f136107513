"""A turn's tables opened, dealt and closed in bulk (lobby/actions/tournament_tables.py).

Each table must come out as the lobby's own deal would leave it: the match dealt by the engine
with recorded draws (the hand history rebuilds the start exactly), the players' own options,
the clocks and deadline set, one broadcast per table after commit, nothing half-written when
the turn cannot start.
"""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.layers import get_channel_layer

from games import options as game_options
from games import registry
from games.rng import SeededRng
from lobby import broadcast, bulkinsert
from lobby import selectors as lobby_selectors
from lobby.actions import tablerow
from lobby.errors import NotAllowed
from lobby.models import Hand, HandPlayer, Seat, Table, TableRuntime
from lobby.replay import replay_hand
from piattaforma import siteops
from piattaforma.actions import preferences_get, preferences_save
from piattaforma.models import User
from tests.lobby.helpers import play_hand_randomly
from tests.tournaments.conftest import FUNDS, authorise_all
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import open_tables, play_turn
from tests.wallet.factories import funded_player
from tournaments import running
from tournaments.models import Tournament, TournamentMatch

pytestmark = pytest.mark.django_db


def _recorded_broadcasts(monkeypatch) -> list[tuple[int, int]]:
    sent: list[tuple[int, int]] = []
    real = broadcast.table_changed

    def record(table_id, version, events):
        sent.append((table_id, version))
        return real(table_id, version, events)

    monkeypatch.setattr(broadcast, "table_changed", record)
    return sent


def _listen_while(groups: list[str], action, count: int):
    """Run ``action`` while a channel listens to ``groups`` (one event loop: the Redis layer's
    channels live in the loop that made them); return its result and the first ``count`` payloads."""

    async def run():
        layer = get_channel_layer()
        channel = await layer.new_channel()
        for group in groups:
            await layer.group_add(group, channel)
        result = await sync_to_async(action)()
        got = [(await asyncio.wait_for(layer.receive(channel), 10))["payload"] for _ in range(count)]
        for group in groups:
            await layer.group_discard(group, channel)
        return result, got

    return async_to_sync(run)()


def _closed_sitgo(staff, entrants: int, **overrides) -> tuple[Tournament, list]:
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=entrants, smazzate=1, **overrides)
    players = [funded_player(FUNDS) for _ in range(entrants)]
    for p in players:
        enter(t, p)
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    return t, players


def test_a_turn_is_dealt_in_bulk_as_the_lobby_deals_a_table(
    staff, monkeypatch, django_capture_on_commit_callbacks
):
    t, players = _closed_sitgo(staff, 8, tempo_partita_min=10)
    chosen = preferences_save(user=players[3], game="scopa", values={"stile_mazzo": "piacentine"})
    bots = {p.pk for p in players if p != players[3]}  # at least three tables of two bots
    User.objects.filter(pk__in=bots).update(is_bot=True)
    sent = _recorded_broadcasts(monkeypatch)
    woken: list[tuple[int, int]] = []
    monkeypatch.setattr(tablerow, "schedule_bot", lambda table_id, version: woken.append((table_id, version)))
    with django_capture_on_commit_callbacks(execute=True):
        assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    tables = open_tables(t)
    assert len(tables) == 4
    runtimes = {rt.pk: rt for rt in TableRuntime.objects.filter(pk__in=[x.pk for x in tables])}
    assert sent == []  # nobody can watch a table that did not exist before the commit
    engine = registry.get("scopa")
    due = {
        (pk, rt.version)
        for pk, rt in runtimes.items()
        if Seat.objects.filter(table_id=pk, number__in=engine.to_act(rt.state), user_id__in=bots).exists()
    }
    assert len(due) >= 3 and sorted(woken) == sorted(due)  # each bot due to play first, woken once
    seated = set()
    for table in tables:
        rt = runtimes[table.pk]
        hand = Hand.objects.get(table=table)
        assert rt.hand_no == hand.number == 1 and rt.steps == 0 and rt.dealt == [1, 2]
        assert replay_hand(hand)[0] == rt.state  # the recorded draws rebuild the deal exactly
        assert rt.deadline is not None and rt.clocks is not None
        assert set(rt.clocks.values()) == {10 * 60 * 1000}
        seats = list(Seat.objects.filter(table=table).order_by("number"))
        assert [s.user_id for s in seats] == [s["user_id"] for s in hand.seats]
        assert [s.session_ref for s in seats] == [s["session_ref"] for s in hand.seats]
        assert set(HandPlayer.objects.filter(hand=hand).values_list("user_id", "seat")) == {
            (s["user_id"], s["seat"]) for s in hand.seats
        }
        for spec in hand.seats:
            user = next(p for p in players if p.pk == spec["user_id"])
            assert spec["nickname"] == user.nickname and spec["chips"] == 0
            assert spec["prefs"] == preferences_get(user=user, game="scopa")
            seated.add(user.pk)
        # a player opening his table gets his own projection, his cards and not the other's
        me = seats[0]
        snap = lobby_selectors.table_snapshot(table_id=table.pk, user_id=me.user_id)
        assert snap["seat"] == 1 and snap["view"] == engine.view(rt.state, 1) != engine.view(rt.state, 2)
    assert seated == {p.pk for p in players}
    mine = next(s for x in tables for s in Hand.objects.get(table=x).seats if s["user_id"] == players[3].pk)
    assert mine["prefs"] == chosen and mine["prefs"] != game_options.defaults("scopa")

    # The turn's end: the tables close in bulk, each one's public view sent once (no seats left,
    # the result still naming the match's players).
    for table in tables:
        play_hand_randomly(table, SeededRng(table.pk), max_steps=3000)

    def advance() -> bool:
        with django_capture_on_commit_callbacks(execute=True):
            return running.tournament_advance(tournament_id=t.pk)

    advanced, got = _listen_while([broadcast.public_group(pk) for pk in runtimes], advance, len(runtimes))
    assert advanced
    t.refresh_from_db()
    assert t.turn == 2
    closed = dict(TableRuntime.objects.filter(pk__in=runtimes).values_list("pk", "version"))
    assert not Table.objects.filter(pk__in=runtimes, is_open=True).exists()
    assert not Seat.objects.filter(table_id__in=runtimes).exists()
    assert {(m["table"], m["version"]) for m in got} == set(closed.items())
    names = {pk: [s["nickname"] for s in Hand.objects.get(table_id=pk).seats] for pk in runtimes}
    assert all(m["audience"] == "public" and m["closed"] and m["over"] for m in got)
    assert all([s["nickname"] for s in m["seats"]] == names[m["table"]] for m in got)
    assert sent == []
    new = {x.pk for x in open_tables(t)}
    assert len(new) == 4 and not new & set(closed)


def test_a_turn_written_in_bulk_reads_back_as_its_rows_were_built(staff, monkeypatch):
    """Every row of a turn's tables (``lobby.bulkinsert``) reads back through the ORM equal to the
    instance the lobby built, column by column: what ``bulk_create`` would have written (the two
    writers store the same columns: tests/lobby/test_bulkinsert.py)."""
    t, _players = _closed_sitgo(staff, 8, tempo_partita_min=10)
    written: list[tuple[type, list]] = []
    real = bulkinsert.insert

    def spy(model, objs):
        written.append((model, list(objs)))
        return real(model, objs)

    monkeypatch.setattr(bulkinsert, "insert", spy)
    assert running.tournament_start(tournament_id=t.pk)
    assert [(model, len(objs)) for model, objs in written] == [
        (Table, 4),
        (TableRuntime, 4),
        (Seat, 8),
        (Hand, 4),
        (HandPlayer, 8),
    ]
    for model, objs in written:
        fields = model._meta.concrete_fields
        stored = model.objects.in_bulk([o.pk for o in objs])
        for obj in objs:
            assert {f.attname: getattr(stored[obj.pk], f.attname) for f in fields} == {
                f.attname: getattr(obj, f.attname) for f in fields
            }
    t.refresh_from_db()
    assert {x.pk for x in open_tables(t)} == {table.pk for table in written[0][1]}


def test_no_turn_starts_while_the_site_is_closed_and_nothing_is_written(staff, monkeypatch):
    t, _players = _closed_sitgo(staff, 4)
    tables = Table.objects.count()
    monkeypatch.setattr(siteops, "site_closed", lambda *args, **kwargs: True)
    with pytest.raises(NotAllowed):
        running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED and t.turn == 0
    assert Table.objects.count() == tables and not TournamentMatch.objects.filter(tournament=t).exists()
    assert running.running_sweep()["started"] == 0  # the sweep retries, and fails alike
    monkeypatch.undo()
    assert running.running_sweep()["started"] == 1  # the site open again: the turn starts
    t.refresh_from_db()
    assert t.state == Tournament.State.RUNNING and len(open_tables(t)) == 2


def test_a_running_tournament_goes_on_while_its_game_is_off(staff):
    t, _players = _closed_sitgo(staff, 4, turns=2)
    assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    siteops.game_switch_set(
        game="scopa", money_enabled=False, training_enabled=True, actor=staff, reason="manutenzione"
    )
    play_turn(t, SeededRng(3))
    assert t.turn == 2 and len(open_tables(t)) == 2  # rules 004: "i tornei in corso proseguono"
    assert all(x.runtime.hand_no == 1 for x in open_tables(t))


def test_a_match_table_is_named_for_players_within_the_tables_60_characters():
    from tournaments.models import TournamentMatch
    from tournaments.running import match_table_name

    short = Tournament(name="Scopa della sera")
    named = match_table_name(short, TournamentMatch(turn=2, number=3))
    assert named == "Scopa della sera · turno 2, tavolo 3"
    long = Tournament(name="Asso piglia tutto - classifica di dicembre con premi speciali per i primi")
    name = match_table_name(long, TournamentMatch(turn=12, number=140))
    assert len(name) <= 60 and name.endswith("… · turno 12, tavolo 140") and name.startswith("Asso piglia")
