"""The pause between poker hands is the server's: after a showdown the next deal is
held SHOWDOWN_PAUSE_SECONDS, so every player sees the result; nobody's action brings it forward.

Action level, no waiting: the scheduled start (``start_at``) and the table's state are asserted,
the clock is moved on as in test_faults.py.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import registry
from lobby import door, selectors, sweeps, tasks
from lobby.actions import hands
from lobby.models import Hand, Seat
from tests.lobby.factories import poker_table
from tests.lobby.helpers import concrete, key, runtime, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)
# Nobody folds, everybody opens and sees when he can: hands end at a showdown (or nobody opens).
STAY_IN = ("apri", "punto", "vedo", "busso", "mostro", "cambio", "dai_carte", "va_bene", "invito")
# Everybody passes and the last one in hides his cards: the hand ends without a card shown.
PASS = ("invito", "dai_carte", "passo", "nascondo")


@pytest.fixture
def later(monkeypatch):
    """``later(seconds)``: from now on the clock reads that many seconds ahead of the real one."""
    real = timezone.now

    def move(seconds: float) -> None:
        monkeypatch.setattr("django.utils.timezone.now", lambda: real() + timedelta(seconds=seconds))

    return move


def play_out(table, preferred: tuple[str, ...]) -> dict:
    """Play the running hand to its end, preferring to stay in; return its final state."""
    for _ in range(500):
        rt = runtime(table)
        engine = registry.get(rt.game)
        if engine.is_over(rt.state):
            return rt.state
        seat_no = engine.to_act(rt.state)[0]
        legal = engine.legal_actions(rt.state, seat_no)
        spec = next((a for t in preferred for a in legal if a["type"] == t), legal[0])
        user = Seat.objects.get(table=table, number=seat_no).user
        door.table_act(table_id=table.pk, user=user, action=concrete(spec), version=rt.version)
    raise AssertionError("the hand never ended")


def hand_ending(table, *, showdown: bool) -> Hand:
    """Deal and play hands until one ends with (or without) cards shown; return that hand."""
    for _ in range(40):
        assert door.table_start_hand(table_id=table.pk)
        state = play_out(table, STAY_IN if showdown else PASS)
        if bool(state.get("shown")) == showdown:
            return Hand.objects.get(table=table, number=runtime(table).hand_no)
    raise AssertionError(f"no hand ended {'with' if showdown else 'without'} a showdown")


def payload(table) -> dict:
    seats = list(Seat.objects.filter(table=table).select_related("user").order_by("number"))
    return selectors.table_payload(runtime(table), seats, 1)


def pause_of(table, hand: Hand) -> float:
    return (runtime(table).start_at - hand.ended_at).total_seconds()


def test_after_a_showdown_the_server_holds_the_next_deal(later):
    table = poker_table()
    users = [funded_player() for _ in range(3)]
    seat_players(table, users)
    hand = hand_ending(table, showdown=True)
    assert abs(pause_of(table, hand) - hands.SHOWDOWN_PAUSE_SECONDS) < 1
    # every player's page is told when the next deal comes, and sees the result till then
    sent = payload(table)
    assert sent["over"] and sent["next_hand_at"] == runtime(table).start_at.isoformat()
    # not due yet: the beat's sweep leaves it; past it, the hand is dealt (once)
    later(hands.SHOWDOWN_PAUSE_SECONDS - 2)
    tasks.sweep_deadlines()
    assert runtime(table).hand_no == hand.number
    later(hands.SHOWDOWN_PAUSE_SECONDS + sweeps.SWEEP_GRACE_SECONDS + 1)
    tasks.sweep_deadlines()
    rt = runtime(table)
    assert rt.hand_no == hand.number + 1 and rt.start_at is None
    assert payload(table)["next_hand_at"] is None


def test_a_hand_without_a_showdown_pauses_less():
    table = poker_table()
    seat_players(table, [funded_player() for _ in range(3)])
    hand = hand_ending(table, showdown=False)
    assert abs(pause_of(table, hand) - hands.NEXT_HAND_DELAY_SECONDS) < 1


def test_nobody_brings_the_next_deal_forward_during_the_pause():
    """A player sitting down or coming back from sitout during the pause waits for its end."""
    table = poker_table()
    users = [funded_player() for _ in range(3)]
    seat_players(table, users)
    hand = hand_ending(table, showdown=True)
    start_at = runtime(table).start_at
    door.table_sitout(table_id=table.pk, user=users[1], sitout=True)
    door.table_sitout(table_id=table.pk, user=users[1], sitout=False)  # "sono tornato"
    door.table_sit(table_id=table.pk, user=funded_player(), seat_no=4, buy_in=10_000, idempotency_key=key())
    rt = runtime(table)
    assert rt.start_at == start_at and rt.hand_no == hand.number
    assert registry.get(rt.game).is_over(rt.state)  # the result stays on the felt
