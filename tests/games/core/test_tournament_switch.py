"""One tournament switch for every gioco a puntate: ``mode`` "cash" or "tournament" (games.engine).

Any other spelling (the boolean ``cash``, ``mode: "torneo"``) is refused by the engine's config
validation, never read as a cash table.
"""

from __future__ import annotations

import pytest

from games import registry
from games.engine import CASH, MODE_OPTION, TOURNAMENT, ConfigError

PUNTATE = ("poker5", "telesina", "bestia", "chemin", "mazzetti", "settemezzo")


@pytest.mark.parametrize("game", PUNTATE)
def test_every_puntate_engine_has_the_one_switch(game):
    engine = registry.get(game)
    assert MODE_OPTION in engine.config_options()
    assert engine.table_settings["mode"] == "mode"  # the lobby sets it from the table
    assert engine.validate_config({})["mode"] == CASH
    assert engine.validate_config({"mode": TOURNAMENT})["mode"] == TOURNAMENT


@pytest.mark.parametrize("game", PUNTATE)
@pytest.mark.parametrize(
    ("old", "code"),
    [
        ({"cash": False}, "unknown_config_key"),
        ({"cash": True}, "unknown_config_key"),
        ({"mode": "torneo"}, "invalid_config"),
        ({"mode": "Tournament"}, "invalid_config"),
        ({"mode": True}, "invalid_config"),
    ],
)
def test_old_spellings_are_refused(game, old, code):
    with pytest.raises(ConfigError) as refused:
        registry.get(game).validate_config(old)
    assert refused.value.code == code


def test_only_the_puntate_engines_take_the_switch():
    for name in registry.names():
        engine = registry.get(name)
        assert ("mode" in engine.table_settings) == (name in PUNTATE), name
