"""The profile's skill levels reflect the money tournaments played, before the nightly update."""

import pytest

from tests.tournaments.test_rankings import _history
from tests.wallet.factories import funded_player
from tournaments import rankings

pytestmark = pytest.mark.django_db


def test_three_money_tournaments_today_show_on_the_profile(staff, client):
    player = funded_player(0)
    _history(staff, player, "scopa", [10, 12, 14], days_ago=0)  # no nightly update since
    _history(staff, player, "briscola", [5], training=True)  # training does not count
    client.force_login(player)
    page = client.get("/profilo/").content.decode()
    assert "sei esordiente in ogni gioco" not in page
    assert 'data-testid="my-levels"' in page
    assert "Esordiente (3 tornei su 7)" in page
    (row,) = rankings.my_levels(user_id=player.pk)
    assert row["tournaments"] == 3 and row["rating"] == "12,00"  # VP per turn, equal weights


def test_seven_tournaments_wait_for_the_night_for_their_level(staff):
    player = funded_player(0)
    _history(staff, player, "scopa", [10] * 7, days_ago=0)
    (row,) = rankings.my_levels(user_id=player.pk)
    assert row["tournaments"] == 7 and row["level"] == "assegnato nell'aggiornamento di stanotte"
    rankings.skill_levels_update()
    (row,) = rankings.my_levels(user_id=player.pk)
    assert row["level"] == "1° livello"


def test_one_tournament_is_counted_in_the_singular(staff):
    player = funded_player(0)
    _history(staff, player, "scopa", [10], days_ago=0)
    (row,) = rankings.my_levels(user_id=player.pk)
    assert row["level"] == "Esordiente (1 torneo su 7)"
