"""A tournament calls its players to their tables on every page they have open (``/ws/avvisi/``):
when a turn's tables open, and again to any page that connects while the match waits. And a
closed tournament table keeps its match's names in its last view."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from config.asgi import application
from games.rng import SeededRng
from lobby.selectors import table_snapshot
from piattaforma import hooks
from tests.piattaforma.factories import UserFactory
from tests.piattaforma.test_plumbing import ORIGIN, session_cookie
from tests.tournaments.conftest import FUNDS, authorise_all
from tests.tournaments.factories import enter, make_tournament
from tests.tournaments.running_helpers import open_tables, play_turn
from tests.wallet.factories import funded_player
from tournaments import running
from tournaments.models import Tournament, TournamentMatch


def _closed_sitgo(entrants: int) -> tuple[Tournament, list]:
    staff = UserFactory(role="staff")
    t = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=entrants, smazzate=1)
    players = [funded_player(FUNDS) for _ in range(entrants)]
    for p in players:
        enter(t, p)
    authorise_all(t)
    t.refresh_from_db()
    assert t.state == Tournament.State.CLOSED
    return t, players


def _match_of(t: Tournament, user) -> TournamentMatch:
    lines = [line for line, users in t.progress["lines"].items() if user.pk in users]
    for m in TournamentMatch.objects.filter(tournament=t, turn=t.turn):
        if m.line_a in lines or m.line_b in lines:
            return m
    raise AssertionError("no match")


async def _connect(user) -> WebsocketCommunicator:
    cookie = await sync_to_async(session_cookie)(user)
    ws = WebsocketCommunicator(application, "/ws/avvisi/", headers=[ORIGIN, (b"cookie", cookie)])
    connected, _ = await ws.connect()
    assert connected
    return ws


def _start(t: Tournament) -> Tournament:
    assert running.tournament_start(tournament_id=t.pk)
    t.refresh_from_db()
    return t


@pytest.mark.django_db(transaction=True)
async def test_a_started_tournament_calls_each_player_on_his_own_sockets_only():
    t, players = await sync_to_async(_closed_sitgo)(4)
    outsider = await sync_to_async(funded_player)(FUNDS)
    mine = await _connect(players[0])
    other = await _connect(outsider)
    t = await sync_to_async(_start)(t)
    call = await mine.receive_json_from(timeout=5)
    match = await sync_to_async(_match_of)(t, players[0])
    assert call["type"] == "call" and call["kind"] == "match"
    assert call["table_id"] == match.table_id and call["url"] == f"/lobby/tavolo/{match.table_id}/"
    assert call["tournament_id"] == t.pk and call["turn"] == 1
    assert t.name in call["title"] and "iniziato" in call["title"]
    assert f"tavolo {match.number}" in call["text"]
    sanction = timezone.datetime.fromisoformat(call["sanction_at"])
    assert (sanction - match.started_at).total_seconds() == t.tempo_giocata
    assert await mine.receive_nothing(timeout=0.3)  # one call, not one per table
    assert await other.receive_nothing(timeout=0.3)  # another user's socket hears nothing
    await mine.disconnect()
    await other.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_page_that_connects_while_the_match_waits_is_told_and_not_after():
    t, players = await sync_to_async(_closed_sitgo)(4)
    t = await sync_to_async(_start)(t)
    match = await sync_to_async(_match_of)(t, players[1])
    ws = await _connect(players[1])  # a page loaded after the tables opened: the call is not lost
    call = await ws.receive_json_from(timeout=5)
    assert call["type"] == "call" and call["table_id"] == match.table_id
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()
    outsider = await sync_to_async(funded_player)(FUNDS)
    ws = await _connect(outsider)
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()
    # the turn played: the call of turn 1 is gone (test_the_calls_read_only_the_current_turns_open_match)
    await sync_to_async(play_turn)(t, SeededRng(3))
    calls = await sync_to_async(hooks.player_calls)(user_id=players[1].pk)
    assert all(c["turn"] != 1 for c in calls)


@pytest.mark.django_db
def test_the_calls_read_only_the_current_turns_open_match():
    t, players = _closed_sitgo(4)
    _start(t)
    first = {p.pk: hooks.player_calls(user_id=p.pk) for p in players}
    assert all(len(c) == 1 and c[0]["turn"] == 1 for c in first.values())
    play_turn(t, SeededRng(5))
    assert t.turn == 2 and t.state == Tournament.State.RUNNING
    for p in players:
        calls = hooks.player_calls(user_id=p.pk)
        assert len(calls) == 1 and calls[0]["turn"] == 2
        assert calls[0]["table_id"] == _match_of(t, p).table_id
        assert calls[0]["title"] == f"{t.name}: turno 2"


@pytest.mark.django_db
def test_a_closed_tournament_table_keeps_its_players_names_in_its_last_view():
    t, players = _closed_sitgo(2)
    _start(t)
    (table,) = open_tables(t)
    names = dict(table.seat_rows.values_list("number", "user__nickname"))
    play_turn(t, SeededRng(7))
    table.refresh_from_db()
    assert not table.is_open and not table.seat_rows.exists()
    payload = table_snapshot(table_id=table.pk, user_id=players[0].pk)
    assert payload["closed"] is True and payload["over"] is True
    assert {s["number"]: s["nickname"] for s in payload["seats"]} == names
    assert payload["view"] is not None  # the result is still there to read


@pytest.mark.django_db(transaction=True)
async def test_a_players_notice_reaches_every_page_he_has_open_and_no_one_elses():
    from moderation.actions import notice_send

    player = await sync_to_async(funded_player)(FUNDS)
    outsider = await sync_to_async(funded_player)(FUNDS)
    mine = await _connect(player)
    other = await _connect(outsider)
    text = "Assenza al turno (torneo 3, turno 1): 2 ammonizioni automatiche."
    await sync_to_async(notice_send)(user_id=player.pk, code="conduct_warning", text=text, now=timezone.now())
    got = await mine.receive_json_from(timeout=5)
    assert got["type"] == "call" and got["kind"] == "notice" and got["code"] == "conduct_warning"
    assert got["text"] == text and got["key"].startswith("avviso-")
    assert await other.receive_nothing(timeout=0.3)
    await mine.disconnect()
    await other.disconnect()


@pytest.mark.django_db
def test_a_closed_tournament_tables_owner_builds_its_last_view_without_the_database():
    """The table's owner builds views in its event loop, where the database may not be read: the
    closed match's names are read when the owner loads the table (a query at view time raised
    SynchronousOnlyOperation at every match's end)."""
    from asgiref.sync import async_to_sync

    from lobby.runtime.owner import TableOwner

    t, players = _closed_sitgo(2)
    _start(t)
    (table,) = open_tables(t)
    names = dict(table.seat_rows.values_list("number", "user__nickname"))
    play_turn(t, SeededRng(7))

    async def last_view() -> dict:
        owner = TableOwner(table.pk)
        await sync_to_async(owner._load)()
        return owner.snapshot(players[0].pk)  # in the loop: a query here raises

    payload = async_to_sync(last_view)()
    assert payload["closed"] is True
    assert {s["number"]: s["nickname"] for s in payload["seats"]} == names
