"""Level tournaments (freezeout) of the giochi a puntate: the settings staff may give them."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import make_tournament
from tournaments.errors import InvalidTournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db

FREEZEOUT = {
    "game": "poker5",
    "format": Tournament.Format.FREEZEOUT,
    "starting_chips": 1500,
    "seats_per_table": 6,
    "speed": Tournament.Speed.TURBO,
    "first_invito": 10,
}


def test_a_poker_freezeout_scheduled_and_a_sit_and_go_of_any_size(staff):
    t = make_tournament(staff, **FREEZEOUT)
    assert t.is_levels and t.starting_chips == 1500 and t.speed == "turbo"
    sitgo = make_tournament(staff, kind=Tournament.Kind.SITGO, max_players=30, **FREEZEOUT)
    assert sitgo.min_players == 30 and sitgo.starts_at is None
    telesina = make_tournament(staff, **{**FREEZEOUT, "game": "telesina", "seats_per_table": 5})
    assert telesina.is_levels


@pytest.mark.parametrize("game", ["poker5", "telesina", "bestia", "chemin", "mazzetti", "settemezzo"])
@pytest.mark.parametrize("kind", [Tournament.Kind.SCHEDULED, Tournament.Kind.SITGO])
def test_every_gioco_a_puntate_has_freezeout_and_shootout(staff, game, kind):
    for fmt in (Tournament.Format.FREEZEOUT, Tournament.Format.SHOOTOUT):
        t = make_tournament(staff, kind=kind, max_players=18, **{**FREEZEOUT, "game": game, "format": fmt})
        assert t.is_levels and t.game == game and t.format == fmt


@pytest.mark.parametrize(
    ("changes", "field", "words"),
    [
        ({"game": "scopa"}, "game", "giochi a puntate"),
        ({"game": "scopa", "format": Tournament.Format.SHOOTOUT}, "game", "giochi a puntate"),
        ({"format": Tournament.Format.DANESE}, "game", "giochi a partite"),
        ({"starting_chips": 99}, "starting_chips", "almeno 100"),
        ({"first_invito": 0}, "first_invito", "invito del primo livello"),
        ({"speed": ""}, "speed", "velocità"),
        ({"speed": "rapido"}, "speed", "velocità"),
        ({"seats_per_table": 1}, "seats_per_table", "da 2 a 6 posti"),
        ({"seats_per_table": 7}, "seats_per_table", "da 2 a 6 posti"),
        ({"smazzate": 3}, "smazzate", "tornei a turni"),
        ({"lines": Tournament.Lines.FIXED_PAIRS, "table": "4"}, "lines", "individuale"),
    ],
)
def test_inconsistent_level_settings_are_refused_with_a_clear_error(staff, changes, field, words):
    with pytest.raises(InvalidTournament) as caught:
        make_tournament(staff, **{**FREEZEOUT, **changes})
    fields = caught.value.details["fields"]
    assert field in fields, fields
    assert any(words in message for message in fields[field]), fields
    assert not Tournament.objects.exists()


def test_a_turn_tournament_takes_no_level_settings(staff):
    with pytest.raises(InvalidTournament) as caught:
        make_tournament(staff, game="scopa", starting_chips=1000)
    assert "starting_chips" in caught.value.details["fields"]
