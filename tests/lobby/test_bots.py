"""Bots play any engine through the table actions, and are shown as bots to everyone."""

import pytest

from games import registry
from lobby import actions, selectors
from lobby.models import Hand, Seat
from tests.lobby.helpers import (
    funded_player,
    house_rake,
    money_total,
    poker_table,
    runtime,
    scopa_table,
    seat_players,
)

pytestmark = pytest.mark.django_db


def bots_play(table, max_moves: int = 5_000) -> int:
    moves = 0
    for _ in range(max_moves):
        rt = runtime(table)
        if rt.state is None or registry.get(rt.game).is_over(rt.state):
            return moves
        moved = actions.table_bot_move(table_id=table.pk, version=rt.version)
        assert moved, "a bot seat to act did not move"
        moves += moved
    raise AssertionError("the bots never finished")


@pytest.mark.parametrize("game", ["poker5", "settemezzo", "bestia"])
def test_bots_play_whole_hands_of_giochi_a_puntate(game):
    engine = registry.get(game)
    if game == "poker5":
        table = poker_table()
    else:
        table = actions.table_create(
            name=f"Bot {game}", game=game, seats=3, min_buy_in=1_000, max_buy_in=50_000
        )
    users = [funded_player(is_bot=True) for _ in range(3)]
    seats = seat_players(table, users, buy_in=20_000)
    before = money_total(users, seats)
    for _ in range(3):
        assert actions.table_start_hand(table_id=table.pk)
        assert bots_play(table) > 0
        assert engine.is_over(runtime(table).state)
    # bots never sit out
    assert not Seat.objects.filter(table=table, status=Seat.Status.SITOUT).exists()
    from wallet.models import Account

    pot = sum(Account.objects.filter(kind="table_pot").values_list("balance", flat=True))
    assert money_total(users, list(Seat.objects.filter(table=table))) + house_rake() + pot == before


def test_a_person_against_a_bot_at_scopa_the_bot_is_always_ready_and_marked():
    person, bot = funded_player(), funded_player(is_bot=True, nickname="bot.scopa")
    table = scopa_table()
    seat_players(table, [person, bot], buy_in=5_000)
    assert actions.table_ready(table_id=table.pk, user=person)  # the bot does not need to click
    payload = selectors.table_snapshot(table_id=table.pk, user_id=person.pk)
    assert {s["nickname"]: s["bot"] for s in payload["seats"]} == {person.nickname: False, "bot.scopa": True}
    rt = runtime(table)
    engine = registry.get("scopa")
    if Seat.objects.get(table=table, number=engine.to_act(rt.state)[0]).user_id == bot.pk:
        assert actions.table_bot_move(table_id=table.pk, version=rt.version) == 1
    else:
        assert actions.table_bot_move(table_id=table.pk, version=rt.version) == 0  # not the bot's turn
    assert Hand.objects.filter(table=table).count() == 1
