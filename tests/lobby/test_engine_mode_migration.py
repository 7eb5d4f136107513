"""The stored hands and running states of the giochi a puntate move to the one tournament switch
``mode`` (lobby migration 0011): stored hands still replay, running hands go on."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps

from lobby import door
from lobby.models import Hand, Table, TableRuntime
from lobby.replay import replay_hand
from tests.lobby.helpers import seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db

migration = importlib.import_module("lobby.migrations.0012_engine_mode_switch")


def old_spelling(config: dict, mode_key: str = "cash") -> dict:
    """The config as it was stored: poker's boolean ``cash`` in the place of ``mode``."""
    return {(mode_key if k == "mode" else k): (v == "cash" if k == "mode" else v) for k, v in config.items()}


def test_poker_hands_and_running_states_take_the_mode_key_in_place():
    table = door.table_create(name="Poker", game="poker5", seats=2, min_buy_in=1_000, max_buy_in=50_000)
    seat_players(table, [funded_player(), funded_player()], buy_in=20_000)
    assert door.table_start_hand(table_id=table.pk)
    hand = Hand.objects.get(table=table, number=1)
    config = dict(hand.config)
    assert config["mode"] == "cash"
    rt = TableRuntime.objects.get(pk=table.pk)
    state = rt.state
    state["cfg"] = old_spelling(state["cfg"])
    TableRuntime.objects.filter(pk=table.pk).update(state=state)
    Hand.objects.filter(pk=hand.pk).update(config=old_spelling(config))
    Table.objects.filter(pk=table.pk).update(config={"cash": True, "giro_pazzo": True})
    migration.one_tournament_switch(apps, None)
    hand.refresh_from_db()
    assert hand.config == config and list(hand.config) == list(config)  # same place, same value
    assert replay_hand(hand)[0]["cfg"] == config
    assert TableRuntime.objects.get(pk=table.pk).state["cfg"] == config
    assert Table.objects.get(pk=table.pk).config == {"giro_pazzo": True}


def test_chemin_torneo_becomes_tournament_and_the_rest_is_untouched():
    table = door.table_create(name="Chemin", game="chemin", seats=2, min_buy_in=1_000, max_buy_in=50_000)
    old = Hand.objects.create(table=table, number=1, game="chemin", config={"mode": "torneo", "min_bet": 100})
    cash = Hand.objects.create(table=table, number=2, game="chemin", config={"mode": "cash", "min_bet": 100})
    scopa = Hand.objects.create(table=table, number=3, game="scopa", config={"mode": "punti", "target": 11})
    migration.one_tournament_switch(apps, None)
    assert Hand.objects.get(pk=old.pk).config == {"mode": "tournament", "min_bet": 100}
    assert Hand.objects.get(pk=cash.pk).config == {"mode": "cash", "min_bet": 100}
    assert Hand.objects.get(pk=scopa.pk).config == {"mode": "punti", "target": 11}
