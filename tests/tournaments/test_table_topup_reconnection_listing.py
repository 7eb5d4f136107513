"""The tournament tables and pages: no top-up on a tournament felt, a disconnected player's
reconnection window (RULINGS G5), the regulator's code from the start."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games.rng import SeededRng
from lobby import actions as lobby
from lobby import selectors as lobby_selectors
from lobby.actions import tablerow
from lobby.models import Seat, TableRuntime
from tests.lobby.helpers import play_hand_randomly
from tests.tournaments.factories import make_tournament
from tests.tournaments.running_helpers import full_tournament, open_tables
from tournaments import actions, selectors
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def test_a_finished_tournament_match_asks_nobody_for_a_top_up(staff):
    t, _players = full_tournament(staff, 2, format=Tournament.Format.KO)
    (table,) = open_tables(t)
    play_hand_randomly(table, SeededRng(5), max_steps=3000)
    rt = TableRuntime.objects.get(pk=table.pk)
    assert rt.state is not None and tablerow.hand_engine(rt).is_over(rt.state)
    for seat in Seat.objects.filter(table=table):
        payload = lobby_selectors.table_snapshot(table_id=table.pk, user_id=seat.user_id)
        # a tournament table has no buy-in: no "ricarica almeno € 0,01" on its felt
        assert payload.get("waiting") is None


def _due_seat(table_id: int) -> tuple[TableRuntime, Seat]:
    rt = TableRuntime.objects.select_related("table").get(pk=table_id)
    seat_no = tablerow.hand_engine(rt).to_act(rt.state)[0]
    return rt, Seat.objects.select_related("user").get(table_id=table_id, number=seat_no)


def _disconnect_after(
    rt: TableRuntime, seat: Seat, seconds: int, *, partita_left_ms: int | None = None
) -> None:
    """The seat's move clock started ``seconds`` ago; his page connects, then goes."""
    started = timezone.now() - timedelta(seconds=seconds)
    fields = {"turn_started": started, "deadline": started + timedelta(seconds=rt.table.tempo_giocata)}
    if partita_left_ms is not None:
        line = tablerow.hand_engine(rt).line_of(rt.state, seat.number)
        fields["clocks"] = {**rt.clocks, line: partita_left_ms}
    TableRuntime.objects.filter(pk=rt.pk).update(**fields)
    socket = lobby.seat_connected(table_id=rt.pk, user=seat.user, process="test")
    assert socket is not None
    lobby.seat_disconnected(table_id=rt.pk, socket_id=socket)


def test_a_player_who_leaves_on_his_move_has_the_tempo_giocata_to_come_back(staff):
    """G5: "una quantità di tempo pari al valore minimo tra tempo partita e tempo giocata" from the
    disconnection, not the 18 s left of a move begun 12 s earlier."""
    t, _players = full_tournament(staff, 2, format=Tournament.Format.KO, tempo_giocata=30)
    (table,) = open_tables(t)
    rt, seat = _due_seat(table.pk)
    _disconnect_after(rt, seat, 12)
    rt.refresh_from_db()
    left = (rt.deadline - timezone.now()).total_seconds()
    assert 28 < left <= 30, left


def test_the_reconnection_window_never_exceeds_the_tempo_partita_left(staff):
    t, _players = full_tournament(staff, 2, format=Tournament.Format.KO, tempo_giocata=30)
    (table,) = open_tables(t)
    rt, seat = _due_seat(table.pk)
    _disconnect_after(rt, seat, 12, partita_left_ms=40_000)  # 28 s of his line's time left
    rt.refresh_from_db()
    left = (rt.deadline - timezone.now()).total_seconds()
    assert 26 < left <= 28, left
    version = rt.version
    rt, seat = _due_seat(table.pk)
    _disconnect_after(rt, seat, 12, partita_left_ms=20_000)  # 8 s left: his move's 18 s stand
    rt.refresh_from_db()
    left = (rt.deadline - timezone.now()).total_seconds()
    assert 16 < left <= 18, left
    assert rt.version == version  # nothing moved, nothing sent


def test_the_regulators_code_is_asked_when_the_tournament_is_listed(staff, client):
    t = make_tournament(staff)
    freeroll = make_tournament(staff, name="Freeroll", pool_quota=0, fee=0, guaranteed=1000)
    assert t.adm_code == ""
    assert actions.tournaments_sweep()["coded"] == 1  # no registration needed
    t.refresh_from_db()
    freeroll.refresh_from_db()
    assert t.adm_code.startswith("TRN") and freeroll.adm_code == ""
    assert selectors.tournament_info(tournament=t)["adm_code"] == t.adm_code
    assert t.adm_code in client.get(f"/tornei/?t={t.pk}").content.decode()
    assert actions.tournaments_sweep()["coded"] == 0  # asked once
