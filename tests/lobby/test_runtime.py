"""The live-table runtime: hands played through table actions, money settled in the ledger."""

import pytest

from games import registry
from games.rng import SeededRng
from lobby import door, selectors
from lobby.errors import NoHandInProgress, NotSeated, SeatTaken, StaleVersion
from lobby.models import Hand, HandStep, Seat
from tests.lobby.factories import poker_table
from tests.lobby.helpers import (
    back_from_sitout,
    credit,
    dumps,
    house_rake,
    key,
    money_total,
    play_hand_randomly,
    runtime,
    seat_players,
)
from tests.wallet.factories import funded_player
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


def rake_total() -> int:
    return house_rake()


def test_poker_hands_settle_exactly_in_the_ledger():
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seats = seat_players(table, users)
    before = money_total(users, seats)
    rng = SeededRng(2026)
    hands = 0
    for _ in range(12):
        back_from_sitout(table)
        if not door.table_start_hand(table_id=table.pk):
            break
        play_hand_randomly(table, rng)
        hands += 1
        rt = runtime(table)
        outcome = Hand.objects.get(table=table, number=rt.hand_no).outcome
        for seat in Seat.objects.filter(table=table):
            assert credit(seat) == outcome["chips"][str(seat.number)]
        # nothing created or lost: players' money + rake + what a parol pot carries = what they had
        carried = outcome.get("carried_out", 0)
        assert money_total(users, list(Seat.objects.filter(table=table))) + rake_total() + carried == before
    assert hands >= 3


def test_refused_actions_change_nothing():
    users = [funded_player() for _ in range(2)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    rt = runtime(table)
    engine = registry.get("poker5")
    seat_no = engine.to_act(rt.state)[0]
    other = next(u for u in users if Seat.objects.get(table=table, user=u).number != seat_no)
    actor = Seat.objects.get(table=table, number=seat_no).user
    steps = HandStep.objects.count()
    for user, action, version, error in [
        (other, {"type": "passo"}, rt.version, Exception),  # not his turn
        (actor, {"type": "boh"}, rt.version, Exception),  # unknown action
        (actor, {"type": "punto", "amount": -5}, rt.version, Exception),
        (actor, engine.legal_actions(rt.state, seat_no)[0], rt.version - 1, StaleVersion),  # replayed/stale
    ]:
        clean = {k: v for k, v in action.items() if k not in ("label", "confirm", "amount")}
        with pytest.raises(error):
            door.table_act(table_id=table.pk, user=user, action=clean, version=version)
        after = runtime(table)
        assert after.version == rt.version and after.state == rt.state
    assert HandStep.objects.count() == steps
    stranger = funded_player()
    with pytest.raises(NotSeated):
        door.table_act(table_id=table.pk, user=stranger, action={"type": "passo"})


def test_seat_rules():
    users = [funded_player() for _ in range(2)]
    table = poker_table()
    seat_players(table, users[:1])
    with pytest.raises(SeatTaken):
        door.table_sit(table_id=table.pk, user=users[1], seat_no=1, buy_in=5_000, idempotency_key=key())
    assert wallet_selectors.balance_get(user=users[1])["cash"] == 100_000  # refused: no money moved


def test_each_connection_sees_only_its_own_cards():
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)

    def check(rt):
        if rt.state["phase"] in ("mostra", "fine"):
            return
        hands = rt.state["hands"]
        for user in users:
            payload = selectors.table_snapshot(table_id=table.pk, user_id=user.pk)
            seat_no = payload["seat"]
            text = dumps(payload)
            for other, cards in hands.items():
                if int(other) != seat_no:
                    assert not any(f'"{c}"' in text for c in cards), (seat_no, other)
            assert all(f'"{c}"' in text for c in hands.get(str(seat_no), []))
        public = dumps(selectors.table_snapshot(table_id=table.pk, user_id=None))
        assert not any(f'"{c}"' in public for cards in hands.values() for c in cards)
        assert not any(f'"{c}"' in public for c in rt.state["stock"])

    check(runtime(table))
    play_hand_randomly(table, SeededRng(5), on_step=check)


def test_leaving_mid_hand_waits_for_the_end_and_cashes_out():
    users = [funded_player() for _ in range(2)]
    table = poker_table()
    seats = seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    engine = registry.get("poker5")
    owed = seats[0].number in engine.to_act(runtime(table).state)
    result = door.table_leave(table_id=table.pk, user=users[0])
    assert result == {"left": False, "after_hand": True}
    seat = Seat.objects.get(table=table, user=users[0])
    assert seat.status == Seat.Status.SITOUT and seat.leave_after_hand  # out of the hand at once
    if owed:  # the decision he owed was taken for him, without waiting for his clock
        assert HandStep.objects.filter(seat=seats[0].number, automatic=True).exists()
        assert seats[0].number not in engine.to_act(runtime(table).state)
    play_hand_randomly(table, SeededRng(1))
    assert not Seat.objects.filter(table=table, user=users[0]).exists()
    final = Hand.objects.get(table=table, number=1).outcome["chips"][str(seats[0].number)]
    assert credit(seats[0]) == 0  # the account is closed and empty...
    # ...and its credit is back on the conto
    assert wallet_selectors.balance_get(user=users[0])["cash"] == 90_000 + final


def test_no_hand_without_players():
    table = poker_table()
    assert not door.table_start_hand(table_id=table.pk)
    with pytest.raises(NoHandInProgress):
        user = funded_player()
        seat_players(table, [user])
        door.table_act(table_id=table.pk, user=user, action={"type": "passo"})
