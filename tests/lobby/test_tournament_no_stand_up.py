"""RULINGS L2: the cash tables' rules that stand a sitout player up (missed hands or banco turns,
time away) never apply at a tournament's table; a tournament player leaves only by elimination.
The engines' tournament modes list nobody to stand up either (Chemin de fer's three missed turns)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry
from games.rng import SeededRng
from lobby import door
from lobby.actions import seating, tablerow
from lobby.models import Seat, Table
from lobby.runtime.clocks import chores_due
from tests.lobby.helpers import house_rake, money_total, play_hand_randomly, runtime, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db

TOURNAMENT_ID = 4242


def table_with_an_absent_player(game: str, *, tournament: bool, missed: int = 12) -> tuple[Table, list, list]:
    """A table of 3 where seat 3 has been sitout for half an hour and has missed ``missed`` hands."""
    table = door.table_create(name=f"Tavolo {game}", game=game, seats=3, min_buy_in=1_000, max_buy_in=50_000)
    users = [funded_player() for _ in range(3)]
    seats = seat_players(table, users, buy_in=20_000)
    if tournament:
        Table.objects.filter(pk=table.pk).update(tournament_id=TOURNAMENT_ID)
        table.refresh_from_db()
    Seat.objects.filter(table=table, number=3).update(
        status=Seat.Status.SITOUT, sitout_since=timezone.now() - timedelta(minutes=30), missed_hands=missed
    )
    return table, users, seats


@pytest.mark.parametrize("game", sorted(seating.STAND_UP_RULES))
def test_the_chores_never_stand_a_tournament_player_up(game):
    table, _users, _seats = table_with_an_absent_player(game, tournament=True)
    assert table.pk not in door.tables_with_sitouts_to_stand_up()
    assert not seating.must_stand_up(table, Seat.objects.get(table=table, number=3))
    door.table_chores(table_id=table.pk)
    assert Seat.objects.filter(table=table, number=3).exists()
    assert chores_due(runtime(table), list(Seat.objects.filter(table=table)), None) is None  # no timer


@pytest.mark.parametrize("game", sorted(seating.STAND_UP_RULES))
def test_a_cash_table_still_stands_the_absent_player_up(game):
    table, _users, _seats = table_with_an_absent_player(game, tournament=False)
    assert table.pk in door.tables_with_sitouts_to_stand_up()
    door.table_chores(table_id=table.pk)
    assert not Seat.objects.filter(table=table, number=3).exists()


def test_the_end_of_a_tournament_hand_keeps_the_sitout_player_seated():
    # nine hands missed: the tenth, counted at the end of this hand, stands him up at a cash table (P15)
    table, users, seats = table_with_an_absent_player("poker5", tournament=True, missed=9)
    assert tablerow.engine_config(table)["mode"] == "tournament"
    before = money_total(users, seats)
    assert door.table_start_hand(table_id=table.pk)
    state = runtime(table).state
    assert state["b"]["total"]["3"] == state["cfg"]["invito"] and 3 in state["b"]["folded"]  # L1
    play_hand_randomly(table, SeededRng(3))
    absent = Seat.objects.get(table=table, number=3)
    assert absent.missed_hands == 10 and absent.status == Seat.Status.SITOUT
    assert money_total(users, seats) + house_rake() == before  # chips conserved, no rake


def test_chemin_de_fer_lists_nobody_to_stand_up_in_a_tournament():
    engine = registry.get("chemin")
    seats = [{"seat": s, "chips": 20_000, "sitout": s == 3} for s in (1, 2, 3)]
    carry = {"skipped": {"3": 5}}
    for mode, listed in (("tournament", []), ("cash", [3])):
        config = {"mode": mode, "min_posta": 1000, "min_bet": 100}
        state = engine.new(config, seats, SeededRng(1), dict(carry))
        rng = SeededRng(2)
        while not engine.is_over(state):
            seat = engine.to_act(state)[0]
            engine.apply(state, seat, engine.sample_action(state, seat, rng), rng)
        out = engine.outcome(state)
        assert out["stand_up"] == listed, mode
        held = out["banco"]["posta"] + out["banco"]["garage"] if out["banco"] else 0
        assert sum(out["chips"].values()) + held + out["rake"] + sum(out["paid_out"].values()) == 60_000
