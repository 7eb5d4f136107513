"""Giro pazzo at a live poker table: the dealer picks Telesina, the hand runs on its engine."""

import pytest

from games import registry
from games.rng import SeededRng
from lobby import door
from lobby.models import Hand, Seat, TableRuntime
from tests.lobby.factories import poker_table
from tests.lobby.helpers import back_from_sitout, concrete, house_rake, money_total, runtime, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


def test_dealer_chooses_telesina_and_the_table_returns_to_poker():
    users = [funded_player() for _ in range(3)]
    table = poker_table(config={"limit": "PL", "invito": 100, "giro_pazzo": True})
    seats = seat_players(table, users)
    before = money_total(users, seats)
    # a full was just shown: the next orbit (one deal per player) is giro pazzo (RULINGS P13)
    carry = {"dealer": 3, "giro_pazzo": 3, "min_pair": "J", "pot": 0, "time_bank": {}, "missed": {}}
    TableRuntime.objects.filter(pk=table.pk).update(carry=carry)
    rng = SeededRng(77)
    games_played = []
    for _ in range(8):
        back_from_sitout(table)
        assert door.table_start_hand(table_id=table.pk)
        rt = runtime(table)
        engine = registry.get(rt.game)
        games_played.append(rt.game)
        if rt.game == "poker5" and rt.state["phase"] == "variante":
            dealer = engine.to_act(rt.state)[0]
            spec = next(s for s in engine.legal_actions(rt.state, dealer) if s.get("variant") == "telesina")
            user = Seat.objects.get(table=table, number=dealer).user
            door.table_act(table_id=table.pk, user=user, action=concrete(spec))
            assert engine.is_over(runtime(table).state)  # the poker hand hands the deal over
            continue
        for _step in range(400):
            rt = runtime(table)
            if engine.is_over(rt.state):
                break
            seat_no = engine.to_act(rt.state)[0]
            user = Seat.objects.get(table=table, number=seat_no).user
            door.table_act(table_id=table.pk, user=user, action=engine.sample_action(rt.state, seat_no, rng))
        if "telesina" in games_played and rt.game == "poker5":
            break
    assert "telesina" in games_played
    assert games_played[-1] == "poker5" and runtime(table).state["phase"] != "variante"
    assert Hand.objects.filter(table=table, game="telesina").exists()
    carried = runtime(table).carry.get("pot", 0) if runtime(table).carry else 0
    assert money_total(users, list(Seat.objects.filter(table=table))) + house_rake() + carried == before
