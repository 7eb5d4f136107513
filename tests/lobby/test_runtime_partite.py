"""A gioco a partite through the runtime: a Scopa match at a cash table, settled by RULINGS C1."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.partite import cash_settlement
from games.rng import SeededRng
from lobby import door
from lobby.models import Hand, Seat, TableRuntime
from tests.lobby.factories import SCOPA_STAKES, scopa_table
from tests.lobby.helpers import credit, house_rake, play_hand_randomly, runtime, seat_players
from tests.wallet.factories import funded_player
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_scopa_match_settles_by_c1(seed):
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seats = seat_players(table, users, buy_in=5_000)
    assert not door.table_start_hand(table_id=table.pk)  # the countdown starts; nobody is ready yet
    assert not door.table_ready(table_id=table.pk, user=users[0])
    assert door.table_ready(table_id=table.pk, user=users[1])  # all ready: the match starts
    play_hand_randomly(table, SeededRng(seed), max_steps=3000)
    outcome = Hand.objects.get(table=table, number=1).outcome
    money = cash_settlement(outcome, **SCOPA_STAKES)
    by_seat = {s.number: s for s in Seat.objects.filter(table=table)}
    if money["winner"] is None:
        assert all(credit(s) == 5_000 for s in seats)
        return
    winner_seat = outcome["lines"][money["winner"]][0]
    loser_seat = outcome["lines"][money["loser"]][0]
    assert credit(by_seat[loser_seat]) == 5_000 - money["amount"]
    assert credit(by_seat[winner_seat]) == 5_000 + money["amount"] - money["rake"]
    assert house_rake() == money["rake"]
    assert 0 < money["amount"] <= 2_000


def test_a_match_needs_the_perdita_massima_on_the_table():
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=2_000)
    door.table_ready(table_id=table.pk, user=users[0])
    assert door.table_ready(table_id=table.pk, user=users[1])  # exactly the perdita massima: allowed
    assert runtime(table).state is not None


def test_the_countdown_starts_the_first_match_even_if_someone_is_not_ready():
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    door.table_start_hand(table_id=table.pk)
    door.table_ready(table_id=table.pk, user=users[0])
    TableRuntime.objects.filter(pk=table.pk).update(ready_deadline=timezone.now() - timedelta(seconds=1))
    assert door.table_start_hand(table_id=table.pk)


def test_end_of_match_panel_stands_up_who_does_not_choose():
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    door.table_ready(table_id=table.pk, user=users[0])
    door.table_ready(table_id=table.pk, user=users[1])
    play_hand_randomly(table, SeededRng(9), max_steps=3000)
    assert runtime(table).ready_deadline is not None  # the panel's countdown
    assert not door.table_ready(table_id=table.pk, user=users[0])  # "another match"
    TableRuntime.objects.filter(pk=table.pk).update(ready_deadline=timezone.now() - timedelta(seconds=1))
    assert not door.table_start_hand(table_id=table.pk)
    assert list(Seat.objects.filter(table=table).values_list("user", flat=True)) == [users[0].pk]
    # the one who did not choose stood up with his credit back on the conto
    assert wallet_selectors.balance_get(user=users[1])["cash"] == 95_000 + credit_after(table, users[1])


def credit_after(table, user):
    """The table credit a player had after match 1: the buy-in plus the C1 result of the match."""
    hand = Hand.objects.get(table=table, number=1)
    seat = next(s for s in hand.seats if s["user_id"] == user.pk)
    money = cash_settlement(
        hand.outcome, posta_partita=100, posta_unitaria=50, perdita_massima=2_000, rake_bp=500
    )
    if money["winner"] is None:
        return seat["chips"]
    won = seat["seat"] in hand.outcome["lines"][money["winner"]]
    return seat["chips"] + (money["won"] if won else -money["amount"])


def test_leaving_mid_match_abandons_it():
    users = [funded_player() for _ in range(2)]
    table = scopa_table()
    seat_players(table, users, buy_in=5_000)
    door.table_ready(table_id=table.pk, user=users[0])
    door.table_ready(table_id=table.pk, user=users[1])
    assert door.table_leave(table_id=table.pk, user=users[0]) == {"left": True, "abandoned": True}
    outcome = Hand.objects.get(table=table, number=1).outcome
    assert outcome["reason"] == "abbandona" and outcome["forfeit"]["kind"] == "abbandona"
    assert not Seat.objects.filter(table=table, user=users[0]).exists()
    assert wallet_selectors.balance_get(user=users[0])["cash"] < 100_000  # the abandoner paid the match


def test_tempo_partita_is_the_lines_clock_and_limits_each_decision():
    """RULINGS G5: a decision gets min(tempo giocata, what is left of the line's tempo partita)."""
    from games import registry

    users = [funded_player() for _ in range(2)]
    table = scopa_table(tempo_giocata=30, tempo_partita=60)
    seat_players(table, users, buy_in=5_000)
    for user in users:
        door.table_ready(table_id=table.pk, user=user)
    rt = runtime(table)
    engine = registry.get("scopa")
    assert rt.clocks == {"0": 60_000, "1": 60_000}
    assert (rt.deadline - rt.turn_started).total_seconds() == 30  # min(30 s, 60 s left)
    first = engine.to_act(rt.state)[0]
    line = engine.line_of(rt.state, first)
    # the line thinks for 50 seconds, then plays
    TableRuntime.objects.filter(pk=table.pk).update(turn_started=timezone.now() - timedelta(seconds=50))
    user = Seat.objects.get(table=table, number=first).user
    door.table_act(table_id=table.pk, user=user, action=engine.sample_action(rt.state, first, SeededRng(1)))
    rt = runtime(table)
    assert 0 < rt.clocks[line] <= 10_000  # 60 s less the 50 s (and the moment it took to play)
    # when that line is to act again, its deadline is what is left of its tempo partita
    while engine.line_of(rt.state, engine.to_act(rt.state)[0]) != line:
        seat = engine.to_act(rt.state)[0]
        other = Seat.objects.get(table=table, number=seat).user
        door.table_act(
            table_id=table.pk, user=other, action=engine.sample_action(rt.state, seat, SeededRng(2))
        )
        rt = runtime(table)
    assert (rt.deadline - rt.turn_started).total_seconds() == rt.clocks[line] / 1000
    # ... and when it runs out, the timeout loses the match
    TableRuntime.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert door.table_timeout(table_id=table.pk, version=rt.version) == 1
    outcome = Hand.objects.get(table=table, number=1).outcome
    assert outcome["reason"] == "tempo_scaduto" and outcome["winner"] != int(line)
