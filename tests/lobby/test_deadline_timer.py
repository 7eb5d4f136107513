"""One pending deadline task per table (not one per action): it re-arms itself, and still times out."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry
from lobby import door, selectors, tasks
from lobby.actions import tablerow
from lobby.models import Hand, HandStep, Seat, TableRuntime
from tests.lobby.factories import poker_table
from tests.lobby.helpers import concrete, runtime, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


@pytest.fixture
def scheduled(monkeypatch):
    """The deadline tasks sent after commit: (table id, eta)."""
    sent: list[tuple[int, object]] = []
    monkeypatch.setattr(tablerow, "schedule_deadline", lambda table_id, eta: sent.append((table_id, eta)))
    return sent


def started_table(capture):
    users = [funded_player() for _ in range(3)]
    table = poker_table()
    seat_players(table, users)
    with capture(execute=True):
        assert door.table_start_hand(table_id=table.pk)
    return table


def act_once(table, capture) -> None:
    rt = runtime(table)
    engine = registry.get(rt.game)
    seat_no = engine.to_act(rt.state)[0]
    user = Seat.objects.get(table=table, number=seat_no).user
    spec = engine.legal_actions(rt.state, seat_no)[0]
    with capture(execute=True):
        door.table_act(table_id=table.pk, user=user, action=concrete(spec), version=rt.version)


def test_the_deal_arms_one_task_for_the_deadline(scheduled, django_capture_on_commit_callbacks):
    table = started_table(django_capture_on_commit_callbacks)
    rt = runtime(table)
    assert rt.deadline is not None and rt.timer_at == rt.deadline
    assert scheduled == [(table.pk, rt.deadline)]


def test_an_action_that_moves_the_deadline_later_sends_no_task(scheduled, django_capture_on_commit_callbacks):
    table = started_table(django_capture_on_commit_callbacks)
    armed = runtime(table).timer_at
    act_once(table, django_capture_on_commit_callbacks)
    rt = runtime(table)
    assert rt.deadline is not None and rt.deadline >= armed
    assert rt.timer_at == armed and len(scheduled) == 1


def test_an_earlier_deadline_than_the_pending_task_arms_another(
    scheduled, django_capture_on_commit_callbacks
):
    table = started_table(django_capture_on_commit_callbacks)
    late = timezone.now() + timedelta(hours=1)
    TableRuntime.objects.filter(pk=table.pk).update(timer_at=late)
    act_once(table, django_capture_on_commit_callbacks)
    rt = runtime(table)
    assert rt.timer_at == rt.deadline < late
    assert scheduled[-1] == (table.pk, rt.deadline)


def test_a_lost_task_is_replaced_by_the_next_action(scheduled, django_capture_on_commit_callbacks):
    table = started_table(django_capture_on_commit_callbacks)
    lost = timezone.now() - timedelta(seconds=tablerow.TIMER_SLACK_SECONDS + 5)
    TableRuntime.objects.filter(pk=table.pk).update(timer_at=lost)
    act_once(table, django_capture_on_commit_callbacks)
    rt = runtime(table)
    assert rt.timer_at == rt.deadline and scheduled[-1] == (table.pk, rt.deadline)


def test_a_task_that_fires_before_the_deadline_re_arms_for_it(scheduled, django_capture_on_commit_callbacks):
    table = started_table(django_capture_on_commit_callbacks)
    armed = runtime(table).timer_at
    act_once(table, django_capture_on_commit_callbacks)
    before = runtime(table)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.table_deadline(table_id=table.pk, eta=armed.isoformat()) == 0
    rt = runtime(table)
    assert rt.version == before.version and rt.state == before.state  # nothing a player sees
    assert rt.timer_at == rt.deadline and scheduled[-1] == (table.pk, rt.deadline)
    assert HandStep.objects.filter(automatic=True).count() == 0


def test_a_task_at_the_deadline_times_the_decision_out_and_re_arms(
    scheduled, django_capture_on_commit_callbacks
):
    table = started_table(django_capture_on_commit_callbacks)
    past = timezone.now() - timedelta(seconds=1)
    TableRuntime.objects.filter(pk=table.pk).update(deadline=past, timer_at=past)
    due = registry.get("poker5").to_act(runtime(table).state)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.table_deadline(table_id=table.pk, eta=past.isoformat()) == len(due) >= 1
    assert HandStep.objects.filter(automatic=True).count() == len(due)
    rt = runtime(table)
    if rt.deadline is not None:  # the next decision has its own task
        assert rt.timer_at == rt.deadline > timezone.now() and scheduled[-1] == (table.pk, rt.deadline)


def test_a_stale_task_leaves_the_pending_one_alone(scheduled, django_capture_on_commit_callbacks):
    table = started_table(django_capture_on_commit_callbacks)
    rt = runtime(table)
    stale = rt.timer_at - timedelta(seconds=10)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.table_deadline(table_id=table.pk, eta=stale.isoformat()) == 0
    assert runtime(table).timer_at == rt.timer_at and len(scheduled) == 1


def test_a_task_queued_with_a_version_still_works(django_capture_on_commit_callbacks):
    """Tasks queued before the upgrade carry the version they were sent for."""
    table = started_table(django_capture_on_commit_callbacks)
    past = timezone.now() - timedelta(seconds=1)
    TableRuntime.objects.filter(pk=table.pk).update(deadline=past)
    rt = runtime(table)
    assert tasks.table_deadline(table_id=table.pk, version=rt.version - 1) == 0  # moved on since
    assert tasks.table_deadline(table_id=table.pk, version=rt.version) >= 1


def test_a_table_action_and_its_broadcast_cost_a_fixed_number_of_queries(
    scheduled, django_capture_on_commit_callbacks, django_assert_num_queries
):
    """The hot path: lock, seat, hand, step, save (+ the test's savepoint and release); two reads after."""
    table = started_table(django_capture_on_commit_callbacks)
    rt = runtime(table)
    engine = registry.get(rt.game)
    seat_no = engine.to_act(rt.state)[0]
    user = Seat.objects.get(table=table, number=seat_no).user
    spec = engine.legal_actions(rt.state, seat_no)[0]
    # a table with no owner: its lease is read (does another process own the table?) before the
    # action, again under the row's lock (one may have claimed it since) and after its commit, and
    # the lock reads the journal's steps the row lags behind
    with django_capture_on_commit_callbacks() as callbacks, django_assert_num_queries(10):
        door.table_act(table_id=table.pk, user=user, action=concrete(spec), version=rt.version)
    with django_assert_num_queries(3):  # the runtime (with the dealt seats), the seats, the lease
        for callback in callbacks:
            callback()


def test_the_runtime_row_keeps_the_seats_dealt_into_the_hand(django_capture_on_commit_callbacks):
    table = started_table(django_capture_on_commit_callbacks)
    rt = runtime(table)
    hand = Hand.objects.get(table=table, number=rt.hand_no)
    assert set(rt.dealt) == {s["seat"] for s in hand.seats} == selectors.dealt_seats(rt)
    # a hand dealt before the field existed: its Hand row answers
    TableRuntime.objects.filter(pk=table.pk).update(dealt=None)
    assert selectors.dealt_seats(runtime(table)) == {s["seat"] for s in hand.seats}
    door.table_cancel_hand(table_id=table.pk, actor=funded_player(), reason="test")
    rt = runtime(table)
    assert rt.dealt is None and selectors.dealt_seats(rt) is None


def test_the_runtime_row_counts_the_steps_of_the_hand(django_capture_on_commit_callbacks):
    table = started_table(django_capture_on_commit_callbacks)
    assert runtime(table).steps == 0
    act_once(table, django_capture_on_commit_callbacks)
    # a hand dealt before the field existed: its HandStep rows are counted
    TableRuntime.objects.filter(pk=table.pk).update(steps=None)
    act_once(table, django_capture_on_commit_callbacks)
    act_once(table, django_capture_on_commit_callbacks)
    rt = runtime(table)
    seqs = list(
        HandStep.objects.filter(hand__table=table, hand__number=rt.hand_no).values_list("seq", flat=True)
    )
    assert seqs == [1, 2, 3] and rt.steps == 3
