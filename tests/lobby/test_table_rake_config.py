"""The rake a table's side panel shows is the rake its engine takes: at Chemin de fer and Sette e
mezzo too, the engine's details never say "Percentuale di rake 0%" beside the table's "Rake 5%",
and the rake the table sets is taken."""

from __future__ import annotations

import pytest

from lobby import door
from lobby.actions import tablerow
from tests.lobby.helpers import seat_players
from tests.wallet.factories import funded_player

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("game", "key"),
    [("chemin", "rake_bp"), ("settemezzo", "rake_bp"), ("mazzetti", "rake_bp"), ("bestia", "rake_bp"),
     ("poker5", "rake_percent"), ("telesina", "rake_percent")],
)  # fmt: skip
def test_the_engine_takes_the_table_rake(game, key):
    table = door.table_create(
        name="Tavolo", game=game, seats=3, min_buy_in=1_000, max_buy_in=50_000, rake_bp=400
    )
    assert tablerow.engine_config(table)[key] == 400


@pytest.mark.parametrize("game", ["telesina", "poker5"])
def test_a_poker_family_table_gives_its_engine_its_rake_cap_and_clock(game):
    """Telesina's engine took none of its table's settings: a table showing "Rake 5 %" raked nothing."""
    table = door.table_create(
        name="Tavolo", game=game, seats=3, min_buy_in=1_000, max_buy_in=50_000, rake_bp=500, rake_cap=300,
        tempo_giocata=20, time_bank=40,
    )  # fmt: skip
    config = tablerow.engine_config(table)
    assert (config["rake_percent"], config["rake_cap"]) == (500, 300)
    assert (config["decision_seconds"], config["time_bank"]) == (20, 40)


@pytest.mark.parametrize("game", ["chemin", "settemezzo", "mazzetti", "scopa"])
def test_a_rake_cap_the_game_does_not_apply_is_refused(game):
    from lobby.errors import RakeCapNotApplied
    from lobby.models import Table

    with pytest.raises(RakeCapNotApplied) as refused:
        door.table_create(
            name="Tavolo", game=game, seats=2, min_buy_in=1_000, max_buy_in=50_000, rake_bp=500, rake_cap=500
        )
    assert refused.value.code == "rake_cap_not_applied" and "tetto" in refused.value.message
    assert not Table.objects.filter(game=game).exists()


def test_a_chemin_table_deals_with_its_rake_and_shows_it():
    from games import registry
    from lobby.models import TableRuntime

    table = door.table_create(
        name="Tavolo", game="chemin", seats=2, min_buy_in=1_000, max_buy_in=50_000, rake_bp=500
    )
    users = [funded_player() for _ in range(2)]
    seat_players(table, users, buy_in=20_000)
    assert door.table_start_hand(table_id=table.pk)
    rt = TableRuntime.objects.get(pk=table.pk)
    assert rt.state["config"]["rake_bp"] == 500
    assert registry.get("chemin").view(rt.state, None)["rake_bp"] == 500


@pytest.mark.parametrize(
    ("game", "capped"), [("chemin", False), ("mazzetti", False), ("poker5", True), ("bestia", True)]
)
def test_the_info_panel_promises_a_rake_cap_only_where_the_engine_applies_one(game, capped):
    from lobby import selectors
    from lobby.models import Table

    table = door.table_create(
        name="Tavolo", game=game, seats=3, min_buy_in=1_000, max_buy_in=50_000, rake_bp=500,
        rake_cap=500 if capped else 0,
    )  # fmt: skip
    Table.objects.filter(pk=table.pk).update(rake_cap=500)  # a row from before the cap was refused
    table.refresh_from_db()
    info = selectors.table_info(table)
    assert info["rake_bp"] == 500
    assert info["rake_cap"] == (500 if capped else 0)
