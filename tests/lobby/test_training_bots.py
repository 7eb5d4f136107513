"""A training bot that has lost its gettoni is topped up at the next deal, so a two-seat training
table never waits for ever on a broke bot; money tables and their bots are left alone."""

from __future__ import annotations

from datetime import date

import pytest

from lobby import door
from lobby.actions import seating
from lobby.models import Table
from lobby.selectors import runtime_now
from piattaforma.models import User
from tests.lobby.factories import scopa_table
from tests.lobby.helpers import credit, key, seat_players
from tests.piattaforma.factories import UserFactory
from tests.wallet.factories import funded_player
from wallet import actions as wallet_actions
from wallet import selectors as wallet_selectors

pytestmark = pytest.mark.django_db


def bot(realm: str) -> User:
    user = User.objects.create_user(
        nickname=f"bot.{realm}",
        email=f"bot.{realm}@demo.invalid",
        password=None,
        date_of_birth=date(2000, 1, 1),
    )
    User.objects.filter(pk=user.pk).update(is_bot=True)
    user.refresh_from_db()
    if realm == "play":
        wallet_actions.play_money_top_up(user=user, amount=2_000, idempotency_key=key("bot"))
    else:
        wallet_actions.deposit_create(user=user, amount=2_000, idempotency_key=key("bot"))
    return user


def person(realm: str) -> User:
    if realm == "real":
        return funded_player(50_000)
    user = UserFactory()
    wallet_actions.play_money_top_up(user=user, amount=50_000, idempotency_key=key("person"))
    return user


def short_bot_table(realm: str) -> tuple[Table, list]:
    """A two-seat Scopa table: a person with 100 and a bot that spent all its money on a 20 buy-in,
    the table's perdita massima then raised to 50, past the bot's credit (it is short)."""
    table = scopa_table(realm=realm, min_buy_in=2_000, max_buy_in=10_000)
    seats = seat_players(table, [person(realm)], buy_in=10_000)
    seats += seat_players(table, [bot(realm)], buy_in=2_000, seat_offset=1)
    Table.objects.filter(pk=table.pk).update(perdita_massima=5_000)
    return table, seats


def test_a_broke_training_bot_is_topped_up_at_the_deal_and_the_match_starts():
    table, (mine, bots) = short_bot_table("play")
    assert wallet_selectors.balance_get(user=bots.user)["play"] == 0
    assert door.table_ready(table_id=table.pk, user=mine.user)  # the bot is always ready
    assert credit(bots, realm="play") == 5_000
    assert credit(mine, realm="play") == 10_000  # a person is never topped up
    assert set(wallet_selectors.ledger_totals().values()) == {0}  # double entry, per realm


def test_the_top_up_is_once_per_deal_whatever_the_retries():
    table, (mine, bots) = short_bot_table("play")
    rt = runtime_now(table.pk)
    credits = {bots.session_ref: 2_000, mine.session_ref: 1_000}
    first = seating.training_bots_topped_up(rt, [mine, bots], credits)
    again = seating.training_bots_topped_up(rt, [mine, bots], credits)  # same hand: same keys
    assert first == again == {bots.session_ref: 5_000, mine.session_ref: 1_000}
    assert credit(bots, realm="play") == 5_000


def test_a_money_table_bot_short_of_credit_is_not_topped_up():
    table, (mine, bots) = short_bot_table("real")
    assert not door.table_ready(table_id=table.pk, user=mine.user)
    assert credit(bots) == 2_000
