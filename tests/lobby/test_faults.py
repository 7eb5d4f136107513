"""Faults: lost tasks, a crashed server process, lost broadcasts; in one process.

The beat's sweep (``lobby.tasks.sweep_deadlines``) is run as the beat would, some seconds after
the work fell due (``later``: the clock moved on); tasks are never sent in tests, so every task
here is "lost". ``tests/lobby/test_fault_processes.py`` kills real processes.
"""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.utils import timezone

from games import registry
from lobby import broadcast, door, presence, sweeps, tasks
from lobby.actions import hands
from lobby.models import Hand, HandStep, Seat, SeatSocket
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import concrete, runtime, seat_players
from tests.lobby.test_ws_table import connect, setup_table
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def later(monkeypatch):
    """``later(seconds)``: from now on the clock reads that many seconds ahead of the real one."""

    def move(seconds: float) -> None:
        real = timezone.now.__wrapped__ if hasattr(timezone.now, "__wrapped__") else timezone.now

        def ahead():
            return real() + timedelta(seconds=seconds)

        ahead.__wrapped__ = real
        monkeypatch.setattr("django.utils.timezone.now", ahead)

    return move


def play_out(table) -> None:
    """Play the hand in progress to its end with the first legal move of each seat to act."""
    for _ in range(500):
        rt = runtime(table)
        engine = registry.get(rt.game)
        if engine.is_over(rt.state):
            return
        seat_no = engine.to_act(rt.state)[0]
        user = Seat.objects.get(table=table, number=seat_no).user
        spec = engine.legal_actions(rt.state, seat_no)[0]
        door.table_act(table_id=table.pk, user=user, action=concrete(spec), version=rt.version)
    raise AssertionError("the hand never ended")


# --- a task that outlives its table -------------------------------------------------------------


def test_a_table_task_that_outlives_its_table_does_nothing_and_fails_nothing(caplog):
    """A deal, deadline or bot move queued before its table went away: done, one line in the log."""
    table = poker_table()
    gone = table.pk
    table.delete()
    with caplog.at_level("INFO", logger="lobby.tasks"):
        assert not tasks.table_start(table_id=gone)
        assert not tasks.table_deadline(table_id=gone, eta=timezone.now().isoformat())
        assert not tasks.table_bot_move(table_id=gone, version=3)
    said = [r.getMessage() for r in caplog.records if r.name == "lobby.tasks"]
    assert said == [
        f"{name}: table {gone} is closed, nothing to do"
        for name in ("table_start", "table_deadline", "table_bot_move")
    ]
    assert all(r.exc_info is None for r in caplog.records if r.name == "lobby.tasks")


# --- lost "start the next hand" -----------------------------------------------------------------


def test_a_lost_next_hand_start_is_dealt_by_the_sweep(later):
    table = poker_table()
    seat_players(table, [funded_player() for _ in range(3)])
    assert door.table_start_hand(table_id=table.pk)
    play_out(table)
    assert runtime(table).hand_no == 1
    later(hands.NEXT_HAND_DELAY_SECONDS - 1)
    tasks.sweep_deadlines()
    assert runtime(table).hand_no == 1  # not due yet: its task may still come
    later(hands.SHOWDOWN_PAUSE_SECONDS + 5)  # the longest pause (after a showdown) is over
    tasks.sweep_deadlines()
    rt = runtime(table)
    assert rt.hand_no == 2 and not registry.get(rt.game).is_over(rt.state)
    tasks.sweep_deadlines()
    assert runtime(table).hand_no == 2  # once


def test_one_table_failing_in_the_sweep_stops_no_other(later, monkeypatch):
    broken, fine = poker_table(), poker_table(name="Tavolo Bari")
    for table in (broken, fine):
        seat_players(table, [funded_player() for _ in range(2)])
    start = door.table_start_hand

    def start_or_fail(*, table_id):
        if table_id == broken.pk:
            raise RuntimeError("a bug at one table")
        return start(table_id=table_id)

    monkeypatch.setattr(door, "table_start_hand", start_or_fail)  # what the sweep calls
    later(5)
    tasks.sweep_deadlines()
    assert runtime(broken).hand_no == 0 and runtime(fine).hand_no == 1


def test_a_lost_start_after_sitting_down_is_dealt_by_the_sweep(later):
    table = poker_table()
    seat_players(table, [funded_player() for _ in range(2)])  # the sit-down's start task is lost
    assert runtime(table).hand_no == 0
    later(5)
    tasks.sweep_deadlines()
    assert runtime(table).hand_no == 1


def test_a_lost_match_countdown_start_is_dealt_by_the_sweep(later):
    """Giochi a partite: nobody pressed "Sono pronto"; the countdown's task was lost."""
    table = scopa_table()
    seat_players(table, [funded_player() for _ in range(2)])
    later(5)
    tasks.sweep_deadlines()  # the sit-down's start: the countdown begins
    rt = runtime(table)
    assert rt.ready_deadline is not None and rt.state is None
    later(5 + hands.READY_SECONDS + 5)
    tasks.sweep_deadlines()
    assert runtime(table).hand_no == 1 and Hand.objects.filter(table=table).count() == 1


def test_a_player_pressing_ready_early_leaves_the_countdown_start_pending(later):
    table = scopa_table()
    users = [funded_player() for _ in range(2)]
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)  # the sit-down's start: the countdown begins
    assert not door.table_ready(table_id=table.pk, user=users[0])
    assert runtime(table).start_at is not None
    later(hands.READY_SECONDS + 5)
    tasks.sweep_deadlines()
    assert runtime(table).hand_no == 1


def test_a_lost_bot_move_is_played_by_the_sweep_not_timed_out(later):
    table = poker_table()
    bot = funded_player(is_bot=True)
    seat_players(table, [bot, funded_player(), funded_player()])
    assert door.table_start_hand(table_id=table.pk)
    rt = runtime(table)
    engine = registry.get(rt.game)
    for _ in range(10):  # the humans play until the bot is to act
        seat_no = engine.to_act(rt.state)[0]
        if 1 in engine.to_act(rt.state):
            break
        user = Seat.objects.get(table=table, number=seat_no).user
        spec = engine.legal_actions(rt.state, seat_no)[0]
        door.table_act(table_id=table.pk, user=user, action=concrete(spec), version=rt.version)
        rt = runtime(table)
    assert 1 in engine.to_act(rt.state)
    later(table.tempo_giocata + 5)  # the sweep runs late: the bot's deadline has passed too
    tasks.sweep_deadlines()
    steps = list(HandStep.objects.filter(seat=1))
    assert steps and not any(s.automatic for s in steps)  # the bot's own move, not the timeout
    assert Seat.objects.get(table=table, number=1).status == Seat.Status.PLAYING


# --- presence after a crash -------------------------------------------------------------------


async def test_a_socket_of_a_server_process_that_stopped_beating_is_dropped_and_sits_him_out(later):
    """Daphne killed: its sockets never close. Three beats later the sweep drops them."""
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=5)
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert seat.connections == 1 and seat.status == Seat.Status.PLAYING
    later(door.presence_ttl() + 1)  # this process "died": it never beat since
    await sync_to_async(tasks.sweep_deadlines)()
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert seat.connections == 0 and seat.status == Seat.Status.SITOUT and seat.away
    await ws.disconnect()  # its row is gone: closing late changes nothing
    assert (await sync_to_async(Seat.objects.get)(pk=seat.pk)).status == Seat.Status.SITOUT


@pytest.mark.django_db(transaction=False)
def test_one_process_dying_leaves_the_sockets_of_the_others_counted(later):
    table = poker_table()
    users = [funded_player() for _ in range(2)]
    seat_players(table, users)
    door.table_start_hand(table_id=table.pk)
    door.seat_connected(table_id=table.pk, user=users[0], process="daphne-a")
    kept = door.seat_connected(table_id=table.pk, user=users[0], process="daphne-b")
    door.seat_connected(table_id=table.pk, user=users[1], process="daphne-a")
    later(door.presence_ttl() + 1)
    assert door.presence_beat(process="daphne-b", socket_ids=[kept]) == 1  # b lives on; a was killed
    assert sweeps.presence_sweep() == 2
    first, second = (Seat.objects.get(table=table, user=u) for u in users)
    assert first.connections == 1 and first.status == Seat.Status.PLAYING and not first.away
    assert second.connections == 0 and second.status == Seat.Status.SITOUT and second.away
    assert sweeps.presence_sweep() == 0


async def test_a_connection_whose_application_failed_is_uncounted(monkeypatch):
    """disconnect() never runs for a consumer that raised: its row must not stay beaten."""
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=5)

    async def failing(self, event):
        raise RuntimeError("a bug in a handler")

    monkeypatch.setattr("lobby.consumers.TableConsumer.table_message", failing)
    # a message of the table's group (a chat line)
    line = {"type": "table.message", "payload": {"type": "chat", "table": table.pk, "text": "ciao"}}
    await get_channel_layer().group_send(broadcast.public_group(table.pk), line)
    with pytest.raises(RuntimeError):
        await ws.receive_output(timeout=5)
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert seat.connections == 0 and seat.status == Seat.Status.SITOUT and seat.away
    assert presence._open == {}


async def test_the_renewal_keeps_a_live_process_counted():
    table, users, cookies = await setup_table()
    ws = await connect(table, cookies[0])
    await ws.receive_json_from(timeout=5)
    stale = timezone.now() - timedelta(seconds=2 * door.presence_ttl())
    await sync_to_async(SeatSocket.objects.filter(seat__table=table).update)(seen_at=stale)
    await presence.renew()  # this process says it is alive: its socket's row is fresh again
    swept = await sync_to_async(sweeps.presence_sweep)()
    seat = await sync_to_async(Seat.objects.get)(table=table, user=users[0])
    assert swept == 0 and seat.connections == 1 and seat.status == Seat.Status.PLAYING
    await ws.disconnect()


# --- broadcasts lost ------------------------------------------------------------------------------


def test_a_channel_layer_outage_loses_the_broadcast_not_the_action(
    monkeypatch, django_capture_on_commit_callbacks
):
    table = poker_table()
    users = [funded_player() for _ in range(2)]
    seat_players(table, users)

    class Down:
        async def group_send(self, group, message):
            raise ConnectionError("Redis is restarting")

    monkeypatch.setattr("lobby.broadcast.get_channel_layer", lambda: Down())
    with django_capture_on_commit_callbacks(execute=True):
        assert door.table_start_hand(table_id=table.pk)
    rt = runtime(table)
    engine = registry.get(rt.game)
    seat_no = engine.to_act(rt.state)[0]
    user = Seat.objects.get(table=table, number=seat_no).user
    with django_capture_on_commit_callbacks(execute=True):
        door.table_act(
            table_id=table.pk,
            user=user,
            action=concrete(engine.legal_actions(rt.state, seat_no)[0]),
            version=rt.version,
        )
        door.table_chat_post(table_id=table.pk, user=user, text="ciao")
    assert runtime(table).version > rt.version
