"""Clocks kept by the server, races between actions and timeouts, recovery after a crash."""

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import registry
from lobby import door, sweeps
from lobby.errors import StaleVersion
from lobby.models import HandStep, Seat, TableRuntime
from tests.lobby.factories import poker_table
from tests.lobby.helpers import concrete, runtime, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


def started_table(players: int = 2):
    users = [funded_player() for _ in range(players)]
    table = poker_table()
    seat_players(table, users)
    assert door.table_start_hand(table_id=table.pk)
    return table, users


def expire(table) -> TableRuntime:
    TableRuntime.objects.filter(pk=table.pk).update(deadline=timezone.now() - timedelta(seconds=5))
    return runtime(table)


def test_every_decision_has_a_server_deadline():
    table, _ = started_table()
    rt = runtime(table)
    assert rt.deadline is not None and rt.turn_started is not None
    assert (rt.deadline - rt.turn_started).total_seconds() == table.tempo_giocata  # exact: same instant


def test_timeout_applies_the_engine_decision_and_sits_the_player_out():
    table, _ = started_table()
    rt = expire(table)
    engine = registry.get("poker5")
    due = engine.to_act(rt.state)
    expected = {seat: engine.timeout_action(rt.state, seat) for seat in due}
    assert door.table_timeout(table_id=table.pk, version=rt.version) == len(due)
    steps = list(HandStep.objects.order_by("id"))
    assert [(s.seat, s.action, s.automatic) for s in steps] == [(seat, expected[seat], True) for seat in due]
    for seat in due:  # RULINGS P14: a timeout puts the player in sitout
        assert Seat.objects.get(table=table, number=seat).status == Seat.Status.SITOUT


def test_a_timeout_for_an_old_version_does_nothing():
    table, _users = started_table()
    rt = expire(table)
    engine = registry.get("poker5")
    seat_no = engine.to_act(rt.state)[0]
    user = Seat.objects.get(table=table, number=seat_no).user
    action = engine.timeout_action(rt.state, seat_no)
    door.table_act(table_id=table.pk, user=user, action=action, version=rt.version)  # the player was first
    assert door.table_timeout(table_id=table.pk, version=rt.version) == 0
    assert HandStep.objects.filter(automatic=True).count() == 0


def test_a_deadline_not_yet_reached_does_nothing():
    table, _ = started_table()
    rt = runtime(table)
    assert door.table_timeout(table_id=table.pk, version=rt.version) == 0
    assert runtime(table).version == rt.version


def test_the_sweeper_catches_deadlines_whose_task_was_lost():
    """A worker killed mid-hand: the state is in the database, the beat sweeper fires the deadline."""
    table, _ = started_table()
    rt = expire(table)
    due = registry.get("poker5").to_act(rt.state)
    assert sweeps.tables_sweep_deadlines() == len(due) >= 1
    assert runtime(table).version > rt.version
    assert sweeps.tables_sweep_deadlines() == 0  # nothing is due any more


def test_a_late_action_after_the_timeout_is_refused():
    table, _ = started_table()
    rt = expire(table)
    engine = registry.get("poker5")
    seat_no = engine.to_act(rt.state)[0]
    user = Seat.objects.get(table=table, number=seat_no).user
    late = engine.legal_actions(rt.state, seat_no)[0]
    door.table_timeout(table_id=table.pk, version=rt.version)
    with pytest.raises(StaleVersion):
        door.table_act(
            table_id=table.pk,
            user=user,
            action={k: v for k, v in late.items() if k not in ("label", "confirm", "amount")},
            version=rt.version,
        )


@pytest.mark.django_db(transaction=True)
def test_two_actions_racing_exactly_one_applies():
    if connection.vendor != "postgresql":
        pytest.skip("a real race needs concurrent connections: PostgreSQL (SQLite serialises writers)")
    table, _ = started_table()
    rt = runtime(table)
    engine = registry.get("poker5")
    seat_no = engine.to_act(rt.state)[0]
    user = Seat.objects.get(table=table, number=seat_no).user
    spec = engine.legal_actions(rt.state, seat_no)[0]
    action = {k: v for k, v in spec.items() if k not in ("label", "confirm", "amount")}
    if "amount" in spec:
        action["amount"] = spec["amount"]["min"]
    results: list[str] = []
    barrier = threading.Barrier(2)

    def go():
        barrier.wait()
        try:
            door.table_act(table_id=table.pk, user=user, action=action, version=rt.version)
            results.append("ok")
        except Exception as exc:  # the loser is refused, whatever the reason
            results.append(type(exc).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 2 and results.count("ok") == 1, results
    assert runtime(table).version == rt.version + 1
    assert HandStep.objects.count() == 1


def test_time_bank_extends_a_decision_once_and_never_regenerates():
    """RULINGS G5: after the tempo giocata the seat decides on its time bank, which only shrinks."""
    users = [funded_player() for _ in range(2)]
    table = poker_table(time_bank=60)
    seat_players(table, users)
    assert door.table_start_hand(table_id=table.pk)
    engine = registry.get("poker5")
    # everyone puts the invito but one seat, whose decision times out
    rt = runtime(table)
    due = engine.to_act(rt.state)
    for seat_no in due[1:]:
        seat = Seat.objects.get(table=table, number=seat_no)
        spec = next(a for a in engine.legal_actions(rt.state, seat_no) if a["label"] == "INVITO")
        door.table_act(table_id=table.pk, user=seat.user, action=concrete(spec))
        rt = runtime(table)
    slow = engine.to_act(rt.state)[0]
    rt = expire(table)
    assert door.table_timeout(table_id=table.pk, version=rt.version) == 0  # on the time bank now
    rt = runtime(table)
    assert rt.bank_seat == slow and (rt.deadline - rt.bank_started).total_seconds() == 60
    # he decides after 20 seconds of bank: 40 are left for the rest of the session
    TableRuntime.objects.filter(pk=table.pk).update(bank_started=timezone.now() - timedelta(seconds=20))
    spec = next(a for a in engine.legal_actions(rt.state, slow) if a["label"] == "INVITO")
    slow_user = Seat.objects.get(table=table, number=slow).user
    door.table_act(table_id=table.pk, user=slow_user, action=concrete(spec))
    assert Seat.objects.get(table=table, number=slow).time_bank in (39, 40)
    assert runtime(table).bank_seat is None
    assert HandStep.objects.filter(automatic=True).count() == 0
