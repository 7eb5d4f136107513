"""Bots play any engine through the table actions, and are shown as bots to everyone."""

import pytest

from games import registry
from lobby import door, selectors
from lobby.actions import tablerow
from lobby.models import Hand, Seat
from tests.lobby.factories import poker_table, scopa_table
from tests.lobby.helpers import carried_pots, concrete, house_rake, money_total, runtime, seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


def bots_play(table, max_moves: int = 5_000) -> int:
    moves = 0
    for _ in range(max_moves):
        rt = runtime(table)
        if rt.state is None or registry.get(rt.game).is_over(rt.state):
            return moves
        moved = door.table_bot_move(table_id=table.pk, version=rt.version)
        assert moved, "a bot seat to act did not move"
        moves += moved
    raise AssertionError("the bots never finished")


@pytest.mark.parametrize("game", ["poker5", "settemezzo", "bestia"])
def test_bots_play_whole_hands_of_giochi_a_puntate(game):
    engine = registry.get(game)
    if game == "poker5":
        table = poker_table()
    else:
        table = door.table_create(name=f"Bot {game}", game=game, seats=3, min_buy_in=1_000, max_buy_in=50_000)
    users = [funded_player(is_bot=True) for _ in range(3)]
    seats = seat_players(table, users, buy_in=20_000)
    before = money_total(users, seats)
    for _ in range(3):
        assert door.table_start_hand(table_id=table.pk)
        assert bots_play(table) > 0
        assert engine.is_over(runtime(table).state)
    # bots never sit out
    assert not Seat.objects.filter(table=table, status=Seat.Status.SITOUT).exists()
    seats_now = list(Seat.objects.filter(table=table))
    assert money_total(users, seats_now) + house_rake() + carried_pots() == before


def test_a_person_against_a_bot_at_scopa_the_bot_is_always_ready_and_marked():
    person, bot = funded_player(), funded_player(is_bot=True, nickname="bot.scopa")
    table = scopa_table()
    seat_players(table, [person, bot], buy_in=5_000)
    assert door.table_ready(table_id=table.pk, user=person)  # the bot does not need to click
    payload = selectors.table_snapshot(table_id=table.pk, user_id=person.pk)
    assert {s["nickname"]: s["bot"] for s in payload["seats"]} == {person.nickname: False, "bot.scopa": True}
    rt = runtime(table)
    engine = registry.get("scopa")
    if Seat.objects.get(table=table, number=engine.to_act(rt.state)[0]).user_id == bot.pk:
        assert door.table_bot_move(table_id=table.pk, version=rt.version) == 1
    else:
        assert door.table_bot_move(table_id=table.pk, version=rt.version) == 0  # not the bot's turn
    assert Hand.objects.filter(table=table).count() == 1


def test_a_bot_that_must_decide_gets_its_task_after_each_commit(
    monkeypatch, django_capture_on_commit_callbacks
):
    """The bot's task is sent for every version at which a bot seat must decide, and only then."""
    woken: list[tuple[int, int]] = []
    monkeypatch.setattr(tablerow, "schedule_bot", lambda table_id, version: woken.append((table_id, version)))
    person, bot = funded_player(), funded_player(is_bot=True)
    table = poker_table()
    seat_players(table, [person, bot])
    bot_seat = Seat.objects.get(table=table, user=bot).number
    engine = registry.get("poker5")
    with django_capture_on_commit_callbacks(execute=True):
        assert door.table_start_hand(table_id=table.pk)
    bot_turns = person_turns = 0
    for _ in range(200):
        rt = runtime(table)
        if engine.is_over(rt.state):
            break
        due = engine.to_act(rt.state)
        assert ((table.pk, rt.version) in woken) == (bot_seat in due)
        with django_capture_on_commit_callbacks(execute=True):
            if bot_seat in due:
                bot_turns += 1
                door.table_bot_move(table_id=table.pk, version=rt.version)
            else:
                person_turns += 1
                seat_no = due[0]
                door.table_act(
                    table_id=table.pk,
                    user=person,
                    action=concrete(engine.legal_actions(rt.state, seat_no)[0]),
                )
    assert engine.is_over(runtime(table).state) and bot_turns >= 1 and person_turns >= 1
